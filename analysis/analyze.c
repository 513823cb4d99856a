// SPDX-License-Identifier: GPL-2.0
/*
 * powersched analyze: one streaming pass over a guest trace.
 *
 * This file holds the options and the orchestration: which events are read
 * and by whom (the binding table below), the analysis window and the
 * buckets of the timelines.  Records come from trace.c in time order;
 * per-cpu and per-group state is a fixed set of counters and the timelines
 * are written bucket by bucket as time passes, so memory does not grow
 * with the length of the trace (the per-task migration table is capped at
 * MAX_TASKS).  The other files: analyze.h.
 *
 * The analysis window starts once every cpu has shown what it runs (its
 * first sched_switch), or SETTLE_NS after the first record, when cpus that
 * stayed silent are taken to be idle.
 *
 * Outputs in the results folder: see analysis/FORMATS.md.
 */
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analyze.h"
#include "fields.h"

#define SETTLE_NS	100000000ULL	/* 100 ms */

static const char * const switch_fields[] = FIELD_NAMES(PS_SCHED_SWITCH_FIELDS);
static const char * const migrate_fields[] = FIELD_NAMES(PS_SCHED_MIGRATE_TASK_FIELDS);
static const char * const print_fields[] = FIELD_NAMES(PS_FTRACE_PRINT_FIELDS);
static const char * const balance_mode_fields[] = FIELD_NAMES(PS_BALANCE_MODE_FIELDS);
static const char * const lazy_fields[] = FIELD_NAMES(PS_LAZY_BALANCE_SKIP_FIELDS);
static const char * const pack_fields[] = FIELD_NAMES(PS_POWER_PACK_DECISION_FIELDS);
static const char * const leader_fields[] = FIELD_NAMES(PS_GROUP_LEADER_CHOSEN_FIELDS);

/* The events the analyzer reads, and who reads them. */
static const struct event_binding bindings[] = {
	{ "sched", "sched_switch", switch_fields, on_switch },
	{ "sched", "sched_migrate_task", migrate_fields, on_migrate },
	{ PS_SYSTEM, PS_BALANCE_MODE, balance_mode_fields, on_balance_mode },
	{ PS_SYSTEM, PS_LAZY_BALANCE_SKIP, lazy_fields, on_lazy },
	{ PS_SYSTEM, PS_POWER_PACK_DECISION, pack_fields, on_pack },
	{ PS_SYSTEM, PS_GROUP_LEADER_CHOSEN, leader_fields, on_leader },
	{ "ftrace", "print", print_fields, NULL },	/* phase markers: see on_record() */
};

/* ------------------------------------------------------------ the window */

/* Close the bucket [bucket_start, end) and write its rows. */
static void flush_bucket(struct analysis *a, uint64_t end)
{
	busy_close_bucket(&a->busy, &a->topo, end);
	if (end > a->bucket_start)
		timeline_row(a, a->bucket_start, end);
	busy_next_bucket(&a->busy);
	memset(a->mig.bucket, 0, sizeof(a->mig.bucket));
	for (int d = 0; d <= MAX_DOMAINS; d++)
		memset(a->modes.dom[d].bucket_passes, 0, sizeof(a->modes.dom[d].bucket_passes));
	a->bucket_start = end;
}

static void advance(struct analysis *a, uint64_t ts)
{
	while (ts >= a->bucket_start + a->bucket)
		flush_bucket(a, a->bucket_start + a->bucket);
}

/* Every cpu's state is known (or assumed): the window opens at @ts. */
static void start_window(struct analysis *a, uint64_t ts)
{
	a->started = true;
	a->t0 = a->bucket_start = ts;
	busy_start(&a->busy, &a->topo, ts);
}

void on_switch(void *ctx, struct bound_event *e, struct tep_record *r, int cpu, uint64_t ts)
{
	struct analysis *a = ctx;
	long long prev, next;

	if (!ev_num(e, r, SW_prev_pid, &prev) || !ev_num(e, r, SW_next_pid, &next))
		return;
	a->nswitch++;
	if (!a->started)
		busy_seen(&a->busy, cpu, (int)next);
	else
		busy_switch(&a->busy, cpu, (int)prev, (int)next, ts);
}

/*
 * A workload's phase marker, "powersched-phase: NAME begin" or
 * "powersched-phase: NAME end", written to trace_marker: 1 begin, 2 end.
 */
static int phase_marker(struct analysis *a, struct bound_event *e, struct tep_record *r)
{
	static const char prefix[] = "powersched-phase: ";
	struct tep_format_field *f = e->f[PR_buf];
	char buf[128], *word;
	int len;

	if (!f || f->offset < 0 || f->offset >= r->size)
		return 0;
	len = r->size - f->offset;
	if (len > (int)sizeof(buf) - 1)
		len = sizeof(buf) - 1;
	memcpy(buf, (char *)r->data + f->offset, len);
	buf[len] = 0;
	if (strncmp(buf, prefix, sizeof(prefix) - 1))
		return 0;
	word = buf + sizeof(prefix) - 1;
	if (strstr(word, " begin")) {
		snprintf(a->phase_name, sizeof(a->phase_name), "%.*s", (int)strcspn(word, " \n"), word);
		return 1;
	}
	if (strstr(word, " end"))
		return 2;
	return 0;
}

static int on_record(void *ctx, struct tep_record *r, int cpu)
{
	struct analysis *a = ctx;
	struct bound_event *e;
	uint64_t ts = r->ts;
	int id;

	if (a->phase_ended)
		return 0;
	a->nrecords++;
	if (a->nrecords == 1)
		a->first_ts = a->last_ts = ts;
	if (ts < a->last_ts) {
		a->out_of_order++;
		ts = a->last_ts;
	}
	a->last_ts = ts;

	if (cpu < 0 || cpu >= MAX_CPUS || cpu >= a->topo.nr_cpu_ids || !a->topo.present[cpu]) {
		a->bad_cpu = cpu;
		return 1;
	}

	id = tep_data_type(a->in.tep, r);
	e = trace_lookup(&a->in, id);
	if (!a->started) {
		if (e && e == a->ev_switch)
			on_switch(a, e, r, cpu, ts);
		if (a->phase) {
			if (e && e == a->ev_print && phase_marker(a, e, r) == 1) {
				a->phase_begun = true;
				start_window(a, ts);
			}
		} else if (busy_all_known(&a->busy, &a->topo) || ts - a->first_ts >= SETTLE_NS) {
			start_window(a, ts);
		}
		return 0;
	}
	if (a->phase && e && e == a->ev_print && phase_marker(a, e, r) == 2) {
		advance(a, ts);
		a->phase_ended = true;
		return 0;
	}

	advance(a, ts);
	if (e && e->b->fn)
		e->b->fn(a, e, r, cpu, ts);
	return 0;
}

static void on_missed(void *ctx, struct tep_record *r, int cpu)
{
	struct analysis *a = ctx;

	(void)cpu;
	a->missed_marks++;
	if (r->missed_events > 0)
		a->missed_known += r->missed_events;
}

/* ------------------------------------------------------------- setup */

static char *slurp_run_json(const char *trace)
{
	char path[4200], *dir = strdup(trace), *buf = NULL;
	FILE *f;
	long n;

	if (!dir)
		return NULL;
	snprintf(path, sizeof(path), "%s/run.json", dirname(dir));
	free(dir);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 1 && n < 65536) {
		rewind(f);
		buf = calloc(1, n + 1);
		if (buf && fread(buf, 1, n, f) != (size_t)n) {
			free(buf);
			buf = NULL;
		}
	}
	fclose(f);
	/* only a JSON object is embedded as is */
	if (buf) {
		char *p = buf;

		while (*p == ' ' || *p == '\n' || *p == '\t')
			p++;
		if (*p != '{') {
			free(buf);
			buf = NULL;
		} else {
			for (char *e = buf + strlen(buf); e > buf && (e[-1] == '\n' || e[-1] == ' '); e--)
				e[-1] = 0;
		}
	}
	return buf;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: %s analyze TRACE.dat [--topology FILE] [--out DIR] [--bucket MS] [--model FILE]\n"
		"  TRACE.dat     a trace recorded in the guest (sched:sched_switch is required;\n"
		"                sched:sched_migrate_task and the powersched events are used)\n"
		"  --topology    topology.tsv (default: the one beside the trace)\n"
		"  --out DIR     where the TSV files and summary.json go (default: DIR/analysis\n"
		"                beside the trace)\n"
		"  --bucket MS   timeline resolution in milliseconds (default 10)\n"
		"  --model FILE  the power model (default %s)\n"
		"  --phase       analyze only the workload's measured phase, between its\n"
		"                'powersched-phase: NAME begin' and '... end' trace markers\n",
		progname, default_model_path());
}

/* The pass and its checks; 0 when the results are complete. */
static int run(struct analysis *a)
{
	char *run_json;
	int ret;

	if (timeline_open(a))
		return -1;
	if (trace_iterate(&a->in, on_record, on_missed, a) < 0) {
		warning("%s: reading the events failed: the trace is truncated or corrupt", a->trace);
		return -1;
	}
	if (a->bad_cpu >= 0) {
		warning("%s: inconsistent with %s: events on cpu %d, which the topology does not list (%d cpus)",
			a->trace, a->topo_path, a->bad_cpu, a->topo.ncpus);
		return -1;
	}
	if (!a->nrecords) {
		warning("%s: the trace holds no events", a->trace);
		return -1;
	}
	if (!a->nswitch) {
		warning("%s: no sched_switch records: utilization cannot be computed", a->trace);
		return -1;
	}
	if (a->phase && !a->phase_begun) {
		warning("%s: --phase: no 'powersched-phase: ... begin' marker in the trace (a workload of workloads/ writes one)",
			a->trace);
		return -1;
	}
	if (!a->started || a->last_ts <= a->t0) {
		warning("%s: the trace is too short to analyze (%.3f s of events)", a->trace,
			(a->last_ts - a->first_ts) / 1e9);
		return -1;
	}
	flush_bucket(a, a->last_ts);
	if (timeline_close(a))
		return -1;

	run_json = slurp_run_json(a->trace);
	ret = results_write(a, run_json);
	free(run_json);
	return ret;
}

int cmd_analyze(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "topology", required_argument, NULL, 't' },
		{ "out", required_argument, NULL, 'o' },
		{ "bucket", required_argument, NULL, 'b' },
		{ "model", required_argument, NULL, 'm' },
		{ "phase", no_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *topo_path = NULL, *out = NULL, *model_path = default_model_path();
	static struct analysis an;
	struct analysis *a = &an;
	char err[1024], topo_buf[4200], *dir;
	double bucket_ms = 10;
	struct stat st;
	int c, ret = 1;

	memset(a, 0, sizeof(*a));
	a->bad_cpu = -1;
	optind = 1;
	while ((c = getopt_long(argc, argv, "t:o:b:m:ph", opts, NULL)) != -1) {
		switch (c) {
		case 'p': a->phase = true; break;
		case 't': topo_path = optarg; break;
		case 'o': out = optarg; break;
		case 'b': {
			char *end;

			bucket_ms = strtod(optarg, &end);
			if (*end || !(bucket_ms >= 0.1 && bucket_ms <= 60000)) {
				warning("--bucket '%s': not a number of milliseconds between 0.1 and 60000", optarg);
				return 2;
			}
			break;
		}
		case 'm': model_path = optarg; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind != argc - 1) {
		usage(stderr);
		return 2;
	}
	a->trace = argv[optind];
	a->bucket = (uint64_t)(bucket_ms * 1e6);

	if (stat(a->trace, &st)) {
		warning("%s: %s", a->trace, strerror(errno));
		return 1;
	}
	if (!S_ISREG(st.st_mode) || st.st_size == 0) {
		warning("%s: %s", a->trace, S_ISREG(st.st_mode) ? "empty file, not a trace" : "not a regular file");
		return 1;
	}

	dir = strdup(a->trace);
	if (!dir)
		return 1;
	if (!topo_path) {
		snprintf(topo_buf, sizeof(topo_buf), "%s/topology.tsv", dirname(dir));
		topo_path = topo_buf;
	}
	a->topo_path = topo_path;
	if (out)
		snprintf(a->outs.dir, sizeof(a->outs.dir), "%s", out);
	else {
		free(dir);
		dir = strdup(a->trace);
		if (!dir)
			return 1;
		snprintf(a->outs.dir, sizeof(a->outs.dir), "%s/analysis", dirname(dir));
	}
	free(dir);

	if (access(topo_path, R_OK)) {
		warning("%s: no topology for %s (%s); give one with --topology (qemu/run writes topology.tsv beside the trace)",
			topo_path, a->trace, strerror(errno));
		return 1;
	}
	if (topology_read(topo_path, &a->topo, err, sizeof(err))) {
		warning("%s", err);
		return 1;
	}
	if (power_model_read(model_path, &a->model, err, sizeof(err))) {
		warning("%s", err);
		return 1;
	}

	if (trace_open(&a->in, a->trace, err, sizeof(err))) {
		warning("%s", err);
		return 1;
	}
	if (trace_bind(&a->in, bindings, sizeof(bindings) / sizeof(bindings[0]))) {
		warning("out of memory");
		goto out;
	}
	a->modes.available = trace_event(&a->in, PS_SYSTEM, PS_BALANCE_MODE)->id >= 0;
	a->ev_switch = trace_event(&a->in, "sched", "sched_switch");
	a->ev_print = trace_event(&a->in, "ftrace", "print");
	if (a->ev_switch->id < 0) {
		warning("%s: no sched:sched_switch events in the trace: utilization cannot be computed (record with -e sched:sched_switch)",
			a->trace);
		goto out;
	}
	if (!a->ev_switch->f[SW_prev_pid] || !a->ev_switch->f[SW_next_pid]) {
		warning("%s: sched_switch lacks prev_pid/next_pid: an unknown event format", a->trace);
		goto out;
	}
	if (mkdir(a->outs.dir, 0755) && errno != EEXIST) {
		warning("%s: cannot create the output folder: %s", a->outs.dir, strerror(errno));
		goto out;
	}
	if (busy_init(&a->busy, &a->topo)) {
		warning("out of memory");
		goto out;
	}

	ret = run(a) ? 1 : 0;
	if (ret) {
		timeline_close(a);
		/* no partial output passed off as complete */
		output_remove_all(&a->outs);
	}
out:
	busy_free(&a->busy);
	migrations_free(&a->mig);
	outputs_free(&a->outs);
	trace_close(&a->in);
	return ret;
}
