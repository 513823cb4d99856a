// SPDX-License-Identifier: GPL-2.0
/*
 * trace.c: the one place that opens a trace.dat and reads its records
 * (trace.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "trace.h"

/*
 * libtracecmd 1.3.1 can crash on its own error path when opening some
 * corrupt files (tracecmd_open_fd() -> tracecmd_close() on a half-built
 * handle).  Open the file once in a child first: a crash there is reported
 * as a corrupt trace instead of taking the analyzer down.
 */
static int probe_open(const char *path)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return 0;	/* cannot probe: let the real open decide */
	if (pid == 0) {
		int fd = open("/dev/null", O_WRONLY);
		struct tracecmd_input *h;

		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		tracecmd_set_loglevel(TEP_LOG_NONE);
		h = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
		if (h)
			tracecmd_close(h);
		_exit(h ? 0 : 1);
	}
	if (waitpid(pid, &status, 0) < 0)
		return 0;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	return -1;
}

int trace_open(struct trace_input *in, const char *path, char *err, size_t errlen)
{
	memset(in, 0, sizeof(*in));
	in->path = path;
	tracecmd_set_loglevel(TEP_LOG_NONE);
	if (probe_open(path) ||
	    !(in->h = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS))) {
		snprintf(err, errlen, "%s: not a trace.dat that libtracecmd can read (truncated, corrupt or another format)",
			 path);
		return -1;
	}
	in->tep = tracecmd_get_tep(in->h);
	return 0;
}

void trace_close(struct trace_input *in)
{
	if (in->h)
		tracecmd_close(in->h);
	free(in->ev);
	free(in->by_id);
	in->h = NULL;
	in->ev = NULL;
	in->by_id = NULL;
}

int trace_bind(struct trace_input *in, const struct event_binding *b, int n)
{
	in->ev = calloc(n, sizeof(*in->ev));
	if (!in->ev)
		return -1;
	in->nev = n;
	in->max_id = -1;
	for (int i = 0; i < n; i++) {
		struct bound_event *e = &in->ev[i];
		struct tep_event *te = tep_find_event_by_name(in->tep, b[i].system, b[i].name);

		e->b = &b[i];
		e->tep = in->tep;
		e->id = te ? te->id : -1;
		if (!te)
			continue;
		for (int f = 0; b[i].fields && b[i].fields[f] && f < MAX_BOUND_FIELDS; f++)
			e->f[f] = tep_find_field(te, b[i].fields[f]);
		if (e->id > in->max_id)
			in->max_id = e->id;
	}
	in->by_id = malloc((in->max_id + 1 > 0 ? in->max_id + 1 : 1) * sizeof(*in->by_id));
	if (!in->by_id)
		return -1;
	for (int id = 0; id <= in->max_id; id++)
		in->by_id[id] = -1;
	for (int i = 0; i < n; i++)
		if (in->ev[i].id >= 0)
			in->by_id[in->ev[i].id] = i;
	return 0;
}

struct bound_event *trace_event(struct trace_input *in, const char *system, const char *name)
{
	for (int i = 0; i < in->nev; i++)
		if (!strcmp(in->ev[i].b->system, system) && !strcmp(in->ev[i].b->name, name))
			return &in->ev[i];
	return NULL;
}

struct iterate_ctx {
	record_fn fn;
	missed_fn missed;
	void *ctx;
};

static int on_record(struct tracecmd_input *h, struct tep_record *r, int cpu, void *data)
{
	struct iterate_ctx *c = data;

	(void)h;
	return c->fn(c->ctx, r, cpu);
}

static int on_missed(struct tracecmd_input *h, struct tep_event *e,
		     struct tep_record *r, int cpu, void *data)
{
	struct iterate_ctx *c = data;

	(void)h; (void)e;
	c->missed(c->ctx, r, cpu);
	return 0;
}

int trace_iterate(struct trace_input *in, record_fn fn, missed_fn missed, void *ctx)
{
	struct iterate_ctx c = { fn, missed, ctx };

	if (missed)
		tracecmd_follow_missed_events(in->h, on_missed, &c);
	return tracecmd_iterate_events(in->h, NULL, 0, on_record, &c);
}
