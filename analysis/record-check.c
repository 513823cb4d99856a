// SPDX-License-Identifier: GPL-2.0
/*
 * After a recording: what the ring buffer says it lost, and what the
 * trace.dat written holds.
 *
 * The per-cpu stats (tracefs per_cpu/cpuN/stats) are read after trace-cmd
 * has flushed everything (it runs with -k, so it does not reset the buffers
 * it leaves): "overrun" counts events the writer overwrote before the
 * reader took them, "commit overrun" events lost inside a commit, "dropped
 * events" those refused by a full buffer in non-overwrite mode.  Their sum
 * is what the recording lost.  (trace-cmd's own copy of these stats, taken
 * before its final flush, overstates "entries": see the project's notes.)
 *
 * The trace is then read back once with libtracecmd: events and
 * sched_switch records per cpu (every cpu must show one, since the helper
 * made each switch), the buffers marked as having missed events, and the
 * first and last timestamps.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <trace-cmd/trace-cmd.h>

#include "record.h"

static uint64_t stat_field(const char *text, const char *key)
{
	const char *p = text;
	size_t n = strlen(key);

	while (p && *p) {
		if (!strncmp(p, key, n) && p[n] == ':')
			return strtoull(p + n + 1, NULL, 10);
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return 0;
}

int rec_read_cpu_stats(struct rec_run *r)
{
	int n = 0;

	r->lost_total = 0;
	for (int i = 0; i < r->ncpu_stats; i++) {
		struct rec_cpu_stats *s = &r->cpu_stats[i];
		char path[4200], buf[4096];
		size_t got;
		FILE *f;

		/* r->tracefs already carries the sysroot */
		snprintf(path, sizeof(path), "%s/per_cpu/cpu%d/stats", r->tracefs, s->cpu);
		f = fopen(path, "re");
		if (!f)
			continue;
		got = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
		buf[got] = 0;
		s->read = true;
		s->entries = stat_field(buf, "entries");
		s->overrun = stat_field(buf, "overrun");
		s->commit_overrun = stat_field(buf, "commit overrun");
		s->dropped = stat_field(buf, "dropped events");
		r->lost_total += s->overrun + s->commit_overrun + s->dropped;
		n++;
	}
	return n;
}

struct check_ctx {
	struct rec_trace_check *c;
	int switch_id;
};

static int on_record(struct tracecmd_input *h, struct tep_record *rec, int cpu, void *data)
{
	struct check_ctx *x = data;
	struct rec_trace_check *c = x->c;

	if (!c->events || rec->ts < c->first_ts)
		c->first_ts = rec->ts;
	if (rec->ts > c->last_ts)
		c->last_ts = rec->ts;
	c->events++;
	if (cpu >= 0 && cpu < c->ncpus) {
		c->cpu_events[cpu]++;
		if (x->switch_id >= 0 && tep_data_type(tracecmd_get_tep(h), rec) == x->switch_id)
			c->cpu_switches[cpu]++;
	}
	return 0;
}

static int on_missed(struct tracecmd_input *h, struct tep_event *e,
		     struct tep_record *rec, int cpu, void *data)
{
	struct rec_trace_check *c = ((struct check_ctx *)data)->c;

	(void)h; (void)e; (void)cpu;
	c->missed_marks++;
	if (rec->missed_events > 0)
		c->missed_known += rec->missed_events;
	return 0;
}

int rec_check_trace(const char *path, int ncpus, struct rec_trace_check *c)
{
	struct check_ctx x = { .c = c, .switch_id = -1 };
	struct tracecmd_input *h;
	struct tep_event *sw;

	memset(c, 0, sizeof(*c));
	c->ncpus = ncpus;
	c->cpu_events = calloc(ncpus, sizeof(uint64_t));
	c->cpu_switches = calloc(ncpus, sizeof(uint64_t));
	if (!c->cpu_events || !c->cpu_switches) {
		snprintf(c->err, sizeof(c->err), "out of memory");
		return -1;
	}
	h = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!h) {
		snprintf(c->err, sizeof(c->err), "%s: libtracecmd cannot open the trace trace-cmd wrote", path);
		return -1;
	}
	c->opened = true;
	sw = tep_find_event_by_name(tracecmd_get_tep(h), "sched", "sched_switch");
	if (sw)
		x.switch_id = sw->id;
	tracecmd_follow_missed_events(h, on_missed, &x);
	if (tracecmd_iterate_events(h, NULL, 0, on_record, &x) < 0)
		snprintf(c->err, sizeof(c->err), "%s: reading the trace failed after %llu events",
			 path, (unsigned long long)c->events);
	tracecmd_close(h);
	return c->err[0] ? -1 : 0;
}

void rec_check_free(struct rec_trace_check *c)
{
	free(c->cpu_events);
	free(c->cpu_switches);
	c->cpu_events = c->cpu_switches = NULL;
}
