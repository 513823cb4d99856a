// SPDX-License-Identifier: GPL-2.0
/*
 * trace.c: the one place that opens a trace.dat and reads its records
 * (trace.h).
 *
 * Crash safety.  libtracecmd 1.3.1 and libtraceevent crash on some corrupt
 * files (a NULL dereference in tracecmd_close() on tracecmd_open()'s error
 * path; kbuffer_load_subbuffer() reading far past a page whose header
 * claims more data than a page holds).  Every call into the library is
 * made with a SIGSEGV/SIGBUS handler installed that jumps back out when
 * the fault happened inside the library, so that such a file is reported
 * as corrupt at about the offset where it was being read.  A fault in the
 * analyzer's own code is not caught: the handler restores the previous one
 * (the sanitizer's, or the default) and the fault happens again.
 *
 * Time order.  Records are merged from the per-cpu streams here rather
 * than by tracecmd_iterate_events(), so that a cpu's first records can be
 * read ahead (trace_prescan()) and a corrupt page timestamp can be told
 * from a gap (see refill()).
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"

/*
 * Exported by libtracecmd.so.1 (the number of cpus the file holds data
 * for) but declared only in its private header, which Debian does not
 * install.  Stable since trace-cmd 1.0.
 */
int tracecmd_cpus(struct tracecmd_input *handle);

/* A forward jump of one cpu's timestamps beyond this is looked into. */
#define JUMP_NS		1000000000ULL	/* 1 s */
/* Records of one cpu read ahead at most to tell a corrupt page from a gap */
#define LOOKAHEAD	8192

/* ------------------------------------------------------- the crash guard */

static sigjmp_buf guard_env;
static volatile sig_atomic_t in_library;
static int library_crashed;

/*
 * LeakSanitizer asks this before it reports leaks: once the library has
 * crashed, what it had allocated is abandoned on purpose (its state is not
 * to be trusted, so it is not freed), and the leak check is off for the
 * rest of the process.
 */
int __lsan_is_turned_off(void);
int __lsan_is_turned_off(void)
{
	return library_crashed;
}
static struct sigaction old_segv, old_bus;

static void on_fault(int sig)
{
	if (in_library)
		siglongjmp(guard_env, sig);
	/* not the library's fault: let the previous handler have it */
	sigaction(SIGSEGV, &old_segv, NULL);
	sigaction(SIGBUS, &old_bus, NULL);
}

static void guard_on(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_fault;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_NODEFER;
	sigaction(SIGSEGV, &sa, &old_segv);
	sigaction(SIGBUS, &sa, &old_bus);
}

static void guard_off(void)
{
	sigaction(SIGSEGV, &old_segv, NULL);
	sigaction(SIGBUS, &old_bus, NULL);
}

#define LIB(call) ({ __typeof__(call) __r; in_library = 1; __r = (call); in_library = 0; __r; })

static void crashed(struct trace_input *in, const char *what)
{
	in_library = 0;
	guard_off();
	in->crashed = true;
	library_crashed = 1;
	if (in->last_offset)
		snprintf(in->err, sizeof(in->err),
			 "%s: corrupt trace: libtracecmd crashed %s it, at about offset %llu (cpu %d's data)",
			 in->path, what, (unsigned long long)in->last_offset, in->last_cpu);
	else
		snprintf(in->err, sizeof(in->err),
			 "%s: corrupt trace: libtracecmd crashed %s it (not a trace.dat it can read)",
			 in->path, what);
}

/* ----------------------------------------------------------- open, close */

/* The file's version and compression, from its first bytes (trace-cmd.dat(5)). */
static void file_info(struct trace_input *in)
{
	unsigned char buf[128];
	FILE *f = fopen(in->path, "r");
	size_t n, p;

	snprintf(in->compression, sizeof(in->compression), "none");
	if (!f)
		return;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	if (n < 12 || memcmp(buf + 3, "tracing", 7))
		return;
	in->version = atoi((char *)buf + 10);
	p = 10 + strlen((char *)buf + 10) + 1 + 2 + 4;	/* version, endian, long size, page size */
	if (in->version >= 7 && p < n && buf[p])
		snprintf(in->compression, sizeof(in->compression), "%.31s", (char *)buf + p);
}

int trace_open(struct trace_input *in, const char *path, char *err, size_t errlen)
{
	memset(in, 0, sizeof(*in));
	in->path = path;
	in->last_cpu = -1;
	file_info(in);
	tracecmd_set_loglevel(TEP_LOG_NONE);
	guard_on();
	if (sigsetjmp(guard_env, 1)) {
		crashed(in, "opening");
		in->h = NULL;
		snprintf(err, errlen, "%s", in->err);
		return -1;
	}
	in->h = LIB(tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS));
	guard_off();
	if (!in->h) {
		snprintf(err, errlen, "%s: not a trace.dat that libtracecmd can read (truncated, corrupt or another format)",
			 path);
		return -1;
	}
	in->tep = tracecmd_get_tep(in->h);
	in->ncpus = tracecmd_cpus(in->h);
	if (in->ncpus < 1 || in->ncpus > TRACE_MAX_CPUS) {
		snprintf(err, errlen, "%s: the trace says it has %d cpus (1 to %d supported)",
			 path, in->ncpus, TRACE_MAX_CPUS);
		trace_close(in);
		return -1;
	}
	in->cpu = calloc(in->ncpus, sizeof(*in->cpu));
	in->head_ts = calloc(in->ncpus, sizeof(*in->head_ts));
	if (!in->cpu || !in->head_ts) {
		snprintf(err, errlen, "out of memory");
		trace_close(in);
		return -1;
	}
	return 0;
}

static void free_pending(struct trace_input *in)
{
	for (int cpu = 0; in->cpu && cpu < in->ncpus; cpu++) {
		struct trace_cpu *c = &in->cpu[cpu];

		for (int i = c->pstart; i < c->npend; i++)
			tracecmd_free_record(c->pend[i]);
		if (c->head)
			tracecmd_free_record(c->head);
		free(c->pend);
		c->pend = NULL;
		c->head = NULL;
		c->npend = c->pstart = 0;
	}
}

void trace_close(struct trace_input *in)
{
	/* after a crash inside the library its state is left alone */
	if (in->h && !in->crashed) {
		free_pending(in);
		tracecmd_close(in->h);
	}
	free(in->cpu);
	free(in->head_ts);
	free(in->ev);
	free(in->by_id);
	in->h = NULL;
	in->cpu = NULL;
	in->head_ts = NULL;
	in->ev = NULL;
	in->by_id = NULL;
}

/* --------------------------------------------------------------- binding */

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
		e->native = tep_is_file_bigendian(in->tep) == tep_is_local_bigendian(in->tep);
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

/* --------------------------------------------------------------- reading */

static struct tep_record *read_next(struct trace_input *in, int cpu)
{
	struct tep_record *r = LIB(tracecmd_read_data(in->h, cpu));

	if (r) {
		in->last_offset = r->offset;
		in->last_cpu = cpu;
	}
	return r;
}

static struct tep_record *read_first(struct trace_input *in, int cpu)
{
	struct tep_record *r = LIB(tracecmd_read_cpu_first(in->h, cpu));

	if (r) {
		in->last_offset = r->offset;
		in->last_cpu = cpu;
	}
	return r;
}

static __attribute__((noinline)) void prescan(struct trace_input *in, int id, prescan_fn fn, void *ctx)
{
	for (int cpu = 0; cpu < in->ncpus; cpu++) {
		struct tep_record *r = read_first(in, cpu);
		bool first = true;

		while (r) {
			bool match = LIB(tep_data_type(in->tep, r)) == id;

			fn(ctx, cpu, r, first, match);
			LIB((tracecmd_free_record(r), 0));
			if (match)
				break;
			first = false;
			r = read_next(in, cpu);
		}
	}
}

int trace_prescan(struct trace_input *in, int id, prescan_fn fn, void *ctx)
{
	guard_on();
	if (sigsetjmp(guard_env, 1)) {
		crashed(in, "reading");
		return -1;
	}
	prescan(in, id, fn, ctx);
	guard_off();
	return 0;
}

static void drop(struct trace_input *in, int cpu, struct tep_record *r, uint64_t jump)
{
	if (!in->bad_ts_records) {
		in->bad_ts_cpu = cpu;
		in->bad_ts_at = r->ts;
	}
	in->bad_ts_records++;
	if (jump > in->bad_ts_jump)
		in->bad_ts_jump = jump;
	LIB((tracecmd_free_record(r), 0));
}

static int push_pending(struct trace_cpu *c, struct tep_record *r)
{
	if (c->npend == c->pcap) {
		int cap = c->pcap ? c->pcap * 2 : 64;
		struct tep_record **p = realloc(c->pend, cap * sizeof(*p));

		if (!p)
			return -1;
		c->pend = p;
		c->pcap = cap;
	}
	c->pend[c->npend++] = r;
	return 0;
}

/*
 * The next record of @cpu into its head.  Timestamps of one cpu never go
 * back in a sound trace, so:
 *  - a record more than JUMP_NS before the cpu's previous one is dropped
 *    (its page's timestamp is wrong);
 *  - after a jump forward of more than JUMP_NS the cpu is read ahead: if
 *    it comes back before the jumped records, they were a page with a
 *    wrong timestamp and are dropped; if it does not, the jump was a real
 *    silence of the cpu and the records are kept.
 */
static int refill(struct trace_input *in, int cpu)
{
	struct trace_cpu *c = &in->cpu[cpu];
	struct tep_record *r;

	if (c->pstart < c->npend) {
		c->head = c->pend[c->pstart++];
		if (c->pstart == c->npend)
			c->pstart = c->npend = 0;
		return 0;
	}
	r = read_next(in, cpu);
	while (r && c->seen) {
		uint64_t jumped;
		struct tep_record *n = NULL;

		if (r->ts + JUMP_NS < c->prev_ts) {
			drop(in, cpu, r, c->prev_ts - r->ts);
			r = read_next(in, cpu);
			continue;
		}
		if (r->ts <= c->prev_ts + JUMP_NS)
			break;
		/* a jump forward: read ahead */
		jumped = r->ts;
		if (push_pending(c, r))
			return -1;
		while (c->npend < LOOKAHEAD && (n = read_next(in, cpu)) && n->ts >= jumped) {
			if (push_pending(c, n))
				return -1;
			n = NULL;
		}
		if (!n) {
			/* it did not come back: a real silence of the cpu */
			c->head = c->pend[0];
			c->pstart = 1;
			if (c->pstart == c->npend)
				c->pstart = c->npend = 0;
			return 0;
		}
		/* back: the records read ahead were the bad ones */
		for (int i = 0; i < c->npend; i++)
			drop(in, cpu, c->pend[i], c->pend[i]->ts - c->prev_ts);
		c->npend = 0;
		r = n;
	}
	c->head = r;
	return 0;
}

/* The per-cpu streams merged in time order (the guard is on) */
static __attribute__((noinline)) int merge(struct trace_input *in, record_fn fn, void *ctx)
{
	uint64_t *head_ts = in->head_ts, last = 0;
	bool any = false;
	int ret = 0;

	for (int cpu = 0; cpu < in->ncpus; cpu++) {
		struct trace_cpu *c = &in->cpu[cpu];

		c->head = read_first(in, cpu);
		c->seen = false;
		head_ts[cpu] = c->head ? c->head->ts : UINT64_MAX;
	}
	for (;;) {
		struct trace_cpu *c;
		struct tep_record *r;
		int next = -1, others = 0;
		uint64_t min = UINT64_MAX;

		/* the earliest head; the timestamps sit together for the scan */
		for (int cpu = 0; cpu < in->ncpus; cpu++) {
			if (head_ts[cpu] == UINT64_MAX && !in->cpu[cpu].head)
				continue;
			if (next < 0 || head_ts[cpu] < min) {
				next = cpu;
				min = head_ts[cpu];
			}
			others++;
		}
		if (next < 0)
			break;
		c = &in->cpu[next];
		r = c->head;
		c->head = NULL;
		/*
		 * The last records of a trace, on one cpu, a jump after all the
		 * others: the signature of a last page with a wrong timestamp.
		 */
		if (any && others == 1 && r->ts > last + JUMP_NS) {
			uint64_t from = last;

			do {
				drop(in, next, r, r->ts - from);
			} while ((r = read_next(in, next)));
			while (c->pstart < c->npend)
				drop(in, next, c->pend[c->pstart++], 0);
			c->pstart = c->npend = 0;
			head_ts[next] = UINT64_MAX;
			continue;
		}
		c->prev_ts = r->ts;
		c->seen = true;
		if (!any || r->ts > last)
			last = r->ts;
		any = true;
		ret = fn(ctx, r, next, LIB(tep_data_type(in->tep, r)));
		LIB((tracecmd_free_record(r), 0));
		if (ret < 0)
			break;
		if (refill(in, next)) {
			snprintf(in->err, sizeof(in->err), "out of memory");
			ret = -1;
			break;
		}
		head_ts[next] = c->head ? c->head->ts : UINT64_MAX;
	}
	return ret < 0 ? ret : 0;
}

int trace_iterate(struct trace_input *in, record_fn fn, void *ctx)
{
	int ret;

	guard_on();
	if (sigsetjmp(guard_env, 1)) {
		crashed(in, "reading");
		return -1;
	}
	ret = merge(in, fn, ctx);
	guard_off();
	return ret;
}
