// SPDX-License-Identifier: GPL-2.0
/*
 * The idle-state module (idle.c): a hand-made sequence of power:cpu_idle
 * events on 2 packages x 2 cpus, whose residencies follow from its
 * construction (worked out beside each check), then a real guest trace
 * (analysis/tests/data/pinned-vanilla: busy loops pinned to cpus 0 and 4,
 * the other cpus idle in the default idle state 1).
 */
#include <stdlib.h>
#include <string.h>

#include <trace-cmd/trace-cmd.h>

#include "../../idle.h"
#include "tap.h"

#define MS 1000000ULL

static void res(const struct idle_unit *u, double s1, double s2, double s3, double act, double unk,
		const char *what)
{
	char d[128];

	snprintf(d, sizeof(d), "%s: C1 ms", what);
	near(u->res_ns[1] / 1e6, s1, 1e-9, d);
	snprintf(d, sizeof(d), "%s: C2 ms", what);
	near(u->res_ns[2] / 1e6, s2, 1e-9, d);
	snprintf(d, sizeof(d), "%s: C3 ms", what);
	near(u->res_ns[3] / 1e6, s3, 1e-9, d);
	snprintf(d, sizeof(d), "%s: active ms", what);
	near(u->active_ns / 1e6, act, 1e-9, d);
	snprintf(d, sizeof(d), "%s: unknown ms", what);
	near(u->unknown_ns / 1e6, unk, 1e-9, d);
}

struct trace_span {
	unsigned long long first, last;
	struct idle_tracker *it;
	int switch_id, pass;
};

static int span_cb(struct tracecmd_input *h, struct tep_record *r, int cpu, void *data)
{
	struct trace_span *s = data;

	(void)h; (void)cpu;
	if (!s->first)
		s->first = r->ts;
	s->last = r->ts;
	return 0;
}

static int on_switch(struct tracecmd_input *h, struct tep_event *e, struct tep_record *r, int cpu, void *data)
{
	unsigned long long next;

	(void)h;
	if (!tep_get_field_val(NULL, e, "next_pid", r, &next, 0) && next)
		idle_running(data, r->ts, cpu);
	return 0;
}

static void real_trace(const char *path)
{
	int pkg_of[8] = { 0, 0, 0, 0, 1, 1, 1, 1 };
	struct trace_span s = { 0 };
	struct tracecmd_input *h = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	struct idle_tracker *it;
	double sum;

	ok(h != NULL, "the guest trace opens: %s", path);
	if (!h)
		return;
	tracecmd_iterate_events(h, NULL, 0, span_cb, &s);
	tracecmd_close(h);

	h = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	it = idle_new(8, pkg_of, 2);
	ok(idle_follow(h, it) == 0, "idle_follow registers power:cpu_idle");
	tracecmd_follow_event(h, "sched", "sched_switch", on_switch, it);
	idle_start(it, s.first);
	tracecmd_iterate_events(h, NULL, 0, NULL, NULL);
	idle_end(it, s.last);
	tracecmd_close(h);

	ok(it->events > 500, "guest trace: cpu_idle events read (%llu)", (unsigned long long)it->events);
	ok(it->nstates == 2, "guest trace: the default idle state 1 is the only one (states 0-%d)", it->nstates - 1);
	ok(it->bad_cpu == 0 && it->bad_state == 0 && it->out_of_order == 0, "guest trace: no bad event");
	for (int c = 0; c < 8; c++) {
		const struct idle_unit *u = &it->cpu[c];
		double w = s.last - s.first;

		sum = (u->res_ns[0] + u->res_ns[1] + u->active_ns + u->unknown_ns) / w;
		near(sum, 1.0, 1e-9, "guest trace: a cpu's shares add up to the window");
		if (c == 0 || c == 4)
			ok(u->active_ns / w > 0.95, "guest trace: cpu %d (a pinned loop) active %.3f of the window",
			   c, u->active_ns / w);
		else
			ok(u->res_ns[1] / w > 0.9, "guest trace: cpu %d idle in state 1 %.3f of the window",
			   c, u->res_ns[1] / w);
	}
	for (int p = 0; p < 2; p++)
		ok(it->pkg[p].active_ns / (double)(s.last - s.first) > 0.95,
		   "guest trace: package %d (with a busy cpu) never shares an idle state: active %.3f", p,
		   it->pkg[p].active_ns / (double)(s.last - s.first));
	idle_free(it);
}

int main(int argc, char **argv)
{
	int pkg_of[5] = { 0, 0, 1, 1, -1 };	/* cpu 4: not in the topology */
	const char *names[4] = { "POLL", "C1", "C2", "C3" };
	struct idle_tracker *it = idle_new(5, pkg_of, 2);
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	ok(it != NULL, "idle_new");
	if (!it)
		return tap_done();
	/* before the window: cpu 2 enters C1 at -20 ms (so it opens in C1) */
	idle_event(it, 80 * MS, 2, 1);
	idle_start(it, 100 * MS);			/* window: 100 .. 200 ms */
	idle_event(it, 110 * MS, 0, 1);
	idle_event(it, 110 * MS, 1, 2);
	idle_event(it, 120 * MS, 1, IDLE_EXIT);
	idle_event(it, 130 * MS, 1, 3);
	idle_running(it, 140 * MS, 3);			/* cpu 3 never idles: sched_switch says it runs */
	idle_running(it, 145 * MS, 0);			/* no effect: cpu 0's state is known */
	idle_event(it, 150 * MS, 0, IDLE_EXIT);
	idle_event(it, 160 * MS, 0, 3);
	idle_event(it, 190 * MS, 0, IDLE_EXIT);
	idle_event(it, 170 * MS, 2, 40);		/* a state beyond what is tracked: unknown from then */
	idle_event(it, 180 * MS, 4, 1);			/* a cpu the topology does not have */
	idle_event(it, 135 * MS, 3, IDLE_EXIT);		/* back in time for cpu 3: taken at 140 ms, counted */
	idle_end(it, 200 * MS);
	idle_event(it, 220 * MS, 1, IDLE_EXIT);		/* after the window: ignored */

	/*
	 * cpu 0: unknown 100-110, C1 110-150, active 150-160, C3 160-190, active 190-200
	 * cpu 1: unknown 100-110, C2 110-120, active 120-130, C3 130-200
	 * cpu 2: C1 100-170, unknown 170-200 (state 40)
	 * cpu 3: unknown 100-140, active 140-200
	 */
	res(&it->cpu[0], 40, 0, 30, 20, 10, "cpu 0");
	res(&it->cpu[1], 0, 10, 70, 10, 10, "cpu 1");
	res(&it->cpu[2], 70, 0, 0, 0, 30, "cpu 2");
	res(&it->cpu[3], 0, 0, 0, 60, 40, "cpu 3");
	/*
	 * package 0 (cpus 0, 1): unknown 100-110; C1 110-120 (C1 and C2 share
	 * C1); active 120-130; C1 130-150 (C1, C3); active 150-160; C3 160-190;
	 * active 190-200
	 * package 1 (cpus 2, 3): unknown 100-140 (cpu 3 unknown); active 140-200
	 */
	res(&it->pkg[0], 30, 0, 30, 30, 10, "package 0: the deepest state both cpus share");
	res(&it->pkg[1], 0, 0, 0, 60, 40, "package 1");
	ok(it->nstates == 4, "states seen: 0-3 (%d)", it->nstates);
	ok(it->bad_state == 1 && it->bad_cpu == 1 && it->out_of_order == 1,
	   "one bad state, one unknown cpu, one event back in time counted (%llu %llu %llu)",
	   (unsigned long long)it->bad_state, (unsigned long long)it->bad_cpu,
	   (unsigned long long)it->out_of_order);

	f = open_memstream(&buf, &len);
	ok(idle_write_tsv(it, f, names, 4) == 0, "idle_write_tsv");
	fclose(f);
	ok(strstr(buf, "cpu\t0\tC1\t0.040000\t0.4000\n") != NULL, "TSV: cpu 0 C1 40 ms, share 0.4");
	ok(strstr(buf, "package\t0\tC3\t0.030000\t0.3000\n") != NULL, "TSV: package 0 C3 30 ms, share 0.3");
	ok(strstr(buf, "cpu\t3\tunknown\t0.040000\t0.4000\n") != NULL, "TSV: cpu 3 unknown 40 ms");
	ok(strstr(buf, "cpu\t4\t") == NULL, "TSV: no row for a cpu outside the topology");
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	idle_write_json(it, f, names, 2);		/* names for 0-1 only: stateN after */
	fclose(f);
	ok(strstr(buf, "\"state_names\": [\"POLL\", \"C1\", \"state2\", \"state3\"]") != NULL, "JSON: state names");
	ok(strstr(buf, "{ \"active\": 0.3000, \"unknown\": 0.1000, \"states\": [0.0000, 0.3000, 0.0000, 0.3000] }") != NULL,
	   "JSON: package 0's shares");
	free(buf);
	buf = NULL;
	{
		/* sysfs names are outside text: escaped in JSON, kept to one TSV field */
		const char *odd[] = { "PO\"LL", "C\\1\t" };

		f = open_memstream(&buf, &len);
		idle_write_json(it, f, odd, 2);
		fclose(f);
		ok(strstr(buf, "\"state_names\": [\"PO\\\"LL\", \"C\\\\1\\t\", \"state2\"") != NULL,
		   "JSON: a quote, a backslash and a tab in state names are escaped");
		free(buf);
		buf = NULL;
		f = open_memstream(&buf, &len);
		idle_write_tsv(it, f, odd, 2);
		fclose(f);
		ok(strstr(buf, "cpu\t0\tC\\1?\t") != NULL, "TSV: a tab in a state name does not make a column");
		free(buf);
	}
	idle_free(it);

	ok(idle_new(0, pkg_of, 1) == NULL, "idle_new refuses zero cpus");

	if (argc > 1)
		real_trace(argv[1]);
	return tap_done();
}
