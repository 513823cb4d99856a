// SPDX-License-Identifier: GPL-2.0
/*
 * powersched record: the tracefs side.  Where tracefs is, which of the
 * events asked for this kernel has (a required one missing refuses the
 * recording, an optional one is left out and said so), its current trace
 * clock, and writes to its control files.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "powersched.h"
#include "record.h"

static const struct {
	const char *system, *event;
	bool required;
} default_events[] = {
	{ "sched", "sched_switch", true },
	{ "sched", "sched_waking", true },
	{ "sched", "sched_wakeup", true },
	{ "sched", "sched_wakeup_new", true },
	{ "sched", "sched_migrate_task", true },
	{ "powersched", "", false },		/* whatever events the series has */
	{ "power", "cpu_idle", false },
	{ "power", "cpu_frequency", false },
};

int rec_find_tracefs(struct rec_run *r)
{
	static const char * const where[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };

	for (size_t i = 0; i < sizeof(where) / sizeof(where[0]); i++)
		if (sys_exists("%s/events", where[i]) && sys_exists("%s/trace_marker", where[i]))
			return sys_path(r->tracefs, sizeof(r->tracefs), "%s", where[i]);
	return -1;
}

/* r->tracefs is a full path (sysroot included) */
static bool tracefs_has(const struct rec_run *r, const char *fmt, const char *a, const char *b)
{
	char rel[512], path[4800];
	struct stat st;

	snprintf(rel, sizeof(rel), fmt, a, b);
	snprintf(path, sizeof(path), "%s/%s", r->tracefs, rel);
	return !stat(path, &st);
}

static int add_event(struct rec_run *r, const char *spec, bool required)
{
	struct rec_event *e;
	const char *colon = strchr(spec, ':');

	if (r->nevents == REC_MAX_EVENTS) {
		warning("--events: more than %d events", REC_MAX_EVENTS);
		return -1;
	}
	e = &r->events[r->nevents];
	memset(e, 0, sizeof(*e));
	if (colon) {
		snprintf(e->system, sizeof(e->system), "%.*s", (int)(colon - spec), spec);
		snprintf(e->event, sizeof(e->event), "%s", colon + 1);
	} else {
		snprintf(e->system, sizeof(e->system), "%s", spec);
	}
	if (!e->system[0] || (colon && !e->event[0]) || strchr(e->event, ':') ||
	    strchr(e->system, '/') || strchr(e->event, '/') || strchr(e->system, '.')) {
		warning("--events: '%s' is not SYSTEM or SYSTEM:EVENT", spec);
		return -1;
	}
	for (int i = 0; i < r->nevents; i++)
		if (!strcmp(r->events[i].system, e->system) && !strcmp(r->events[i].event, e->event))
			return 0;
	e->required = required;
	r->nevents++;
	return 0;
}

int rec_resolve_events(struct rec_run *r, const char *list)
{
	bool add = list && list[0] == '+';

	if (!list || add)
		for (size_t i = 0; i < sizeof(default_events) / sizeof(default_events[0]); i++) {
			char spec[160];

			snprintf(spec, sizeof(spec), "%s%s%s", default_events[i].system,
				 default_events[i].event[0] ? ":" : "", default_events[i].event);
			if (add_event(r, spec, default_events[i].required))
				return -1;
		}
	if (list) {
		char *copy = strdup(list + add), *save = NULL;

		if (!copy)
			return -1;
		for (char *p = strtok_r(copy, ",", &save); p; p = strtok_r(NULL, ",", &save))
			if (add_event(r, p, true)) {
				free(copy);
				return -1;
			}
		free(copy);
		if (!r->nevents) {
			warning("--events: an empty list");
			return -1;
		}
	}
	for (int i = 0; i < r->nevents; i++) {
		struct rec_event *e = &r->events[i];

		e->present = e->event[0] ? tracefs_has(r, "events/%s/%s/enable", e->system, e->event)
					 : tracefs_has(r, "events/%s/enable", e->system, "");
		if (!e->present && e->required) {
			warning("this kernel has no event %s%s%s (no %s/events/%s%s%s): it cannot be recorded",
				e->system, e->event[0] ? ":" : "", e->event, r->tracefs, e->system,
				e->event[0] ? "/" : "", e->event);
			return -1;
		}
	}
	return 0;
}

/* The clock in brackets of tracefs trace_clock: "local [mono] global" */
void rec_current_clock(const struct rec_run *r, char *out, size_t len, bool *has_mono)
{
	char buf[512], path[4200];
	FILE *f;

	out[0] = 0;
	*has_mono = false;
	snprintf(path, sizeof(path), "%s/trace_clock", r->tracefs);
	f = fopen(path, "re");
	if (!f)
		return;
	if (fgets(buf, sizeof(buf), f)) {
		for (char *w = strtok(buf, " \n"); w; w = strtok(NULL, " \n")) {
			size_t n = strlen(w);

			if (w[0] == '[' && n > 2 && w[n - 1] == ']') {
				w[n - 1] = 0;
				w++;
				snprintf(out, len, "%s", w);
			}
			if (!strcmp(w, "mono"))
				*has_mono = true;
		}
	}
	fclose(f);
}

/* as the shell's "echo VAL > FILE": O_TRUNC, which clears the "trace" file */
int rec_tracefs_write(const struct rec_run *r, const char *file, const char *val)
{
	char path[4200];
	size_t n = strlen(val);
	int fd, ret = 0;

	snprintf(path, sizeof(path), "%s/%s", r->tracefs, file);
	fd = open(path, O_WRONLY | O_CLOEXEC | O_TRUNC);
	if (fd < 0)
		return -1;
	if (n && write(fd, val, n) != (ssize_t)n)
		ret = -1;
	if (close(fd))
		ret = -1;
	return ret;
}

