// SPDX-License-Identifier: GPL-2.0
/*
 * powersched analyze: one streaming pass over a guest trace.
 *
 * This file holds the options and the orchestration: which events are read
 * and by whom (the binding table below), the analysis window and the
 * buckets of the timelines.  Records come from trace.c in time order;
 * per-cpu and per-group state is a fixed set of counters and the timelines
 * are written bucket by bucket as time passes, so memory does not grow
 * with the length of the trace (the per-task table holds the live tasks
 * only: a task's rows are written when it exits).  The other files:
 * analyze.h.
 *
 * The window starts at the latest of the cpus' first records (before it,
 * some cpu's buffer held nothing yet), or at the workload's begin marker
 * (--phase), and ends at the last record.  What each cpu runs at the start
 * comes from the records before it, or else from the prev_pid of the cpu's
 * first sched_switch (trace_prescan() reads it ahead); a cpu without any
 * sched_switch is unknown, never taken to be idle.
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
#include "json.h"

#define DEFAULT_MAX_ROWS	200000

static const char * const switch_fields[] = FIELD_NAMES(PS_SCHED_SWITCH_FIELDS);
static const char * const wakeup_fields[] = FIELD_NAMES(PS_SCHED_WAKEUP_FIELDS);
static const char * const migrate_fields[] = FIELD_NAMES(PS_SCHED_MIGRATE_TASK_FIELDS);
static const char * const print_fields[] = FIELD_NAMES(PS_FTRACE_PRINT_FIELDS);
static const char * const balance_mode_fields[] = FIELD_NAMES(PS_BALANCE_MODE_FIELDS);
static const char * const lazy_fields[] = FIELD_NAMES(PS_LAZY_BALANCE_SKIP_FIELDS);
static const char * const pack_fields[] = FIELD_NAMES(PS_POWER_PACK_DECISION_FIELDS);
static const char * const leader_fields[] = FIELD_NAMES(PS_GROUP_LEADER_CHOSEN_FIELDS);
static const char * const bmigrate_fields[] = FIELD_NAMES(PS_BALANCE_MIGRATE_FIELDS);
static const char * const outcome_fields[] = FIELD_NAMES(PS_BALANCE_OUTCOME_FIELDS);
static const char * const policy_fields[] = FIELD_NAMES(PS_POLICY_CHANGE_FIELDS);
static const char * const cpu_idle_fields[] = FIELD_NAMES(PS_CPU_IDLE_FIELDS);

static void on_cpu_idle(void *ctx, struct bound_event *e, struct tep_record *r, int cpu, uint64_t ts);

/* The events the analyzer reads, and who reads them. */
static const struct event_binding bindings[] = {
	{ "sched", "sched_switch", switch_fields, on_switch },
	{ "sched", "sched_wakeup", wakeup_fields, on_wakeup },
	{ "sched", "sched_wakeup_new", wakeup_fields, on_wakeup },
	{ "sched", "sched_waking", wakeup_fields, on_waking },
	{ "sched", "sched_migrate_task", migrate_fields, on_migrate },
	{ PS_SYSTEM, PS_BALANCE_MODE, balance_mode_fields, on_balance_mode },
	{ PS_SYSTEM, PS_LAZY_BALANCE_SKIP, lazy_fields, on_lazy },
	{ PS_SYSTEM, PS_POWER_PACK_DECISION, pack_fields, on_pack },
	{ PS_SYSTEM, PS_GROUP_LEADER_CHOSEN, leader_fields, on_leader },
	{ PS_SYSTEM, PS_BALANCE_MIGRATE, bmigrate_fields, on_balance_migrate },
	{ PS_SYSTEM, PS_BALANCE_OUTCOME, outcome_fields, on_outcome },
	{ PS_SYSTEM, PS_POLICY_CHANGE, policy_fields, on_policy },
	{ "power", "cpu_idle", cpu_idle_fields, on_cpu_idle },
	{ "ftrace", "print", print_fields, NULL },	/* phase markers: see on_record() */
};

/* ------------------------------------------------------------ the window */

/* Close the bucket [bucket_start, end) and write its rows. */
static void flush_bucket(struct analysis *a, uint64_t end)
{
	busy_close_bucket(&a->busy, &a->topo, end);
	waiting_close_bucket(&a->wait, end);
	if (end > a->bucket_start && !a->cut) {
		if (a->rows < a->max_rows) {
			timeline_row(a, a->bucket_start, end);
			a->rows++;
		} else {
			a->cut = true;
			a->cut_at = a->bucket_start;
		}
	}
	busy_next_bucket(&a->busy);
	waiting_next_bucket(&a->wait);
	memset(a->mig.bucket, 0, sizeof(a->mig.bucket));
	memset(a->mig.cause_bucket, 0, sizeof(a->mig.cause_bucket));
	for (int d = 0; d <= MAX_DOMAINS; d++)
		memset(a->modes.dom[d].bucket_passes, 0, sizeof(a->modes.dom[d].bucket_passes));
	a->bucket_start = end;
}

static void advance(struct analysis *a, uint64_t ts)
{
	while (ts >= a->bucket_start + a->bucket) {
		/* past the row cap no row is written: skip to the bucket of @ts */
		if (a->cut)
			flush_bucket(a, a->bucket_start + (ts - a->bucket_start) / a->bucket * a->bucket);
		else
			flush_bucket(a, a->bucket_start + a->bucket);
	}
}

/* The window opens at @ts: cpus whose state is not known yet take it from their first switch. */
static void start_window(struct analysis *a, uint64_t ts)
{
	struct topology *t = &a->topo;

	for (int cpu = 0; cpu < t->nr_cpu_ids; cpu++)
		if (t->present[cpu] && !a->busy.cpu[cpu].known && a->start[cpu].has_switch)
			busy_seen(&a->busy, cpu, a->start[cpu].prev_pid);
	a->started = true;
	a->t0 = a->bucket_start = ts;
	busy_start(&a->busy, t, ts);
	waiting_start(&a->wait, t, &a->busy, ts);
	idle_start(a->idle, ts);
}

void bad_record(struct analysis *a, const char *event, const char *field, long long v,
		int cpu, uint64_t ts)
{
	if (!a->bad_records++)
		snprintf(a->bad_first, sizeof(a->bad_first), "%s %s=%lld on cpu %d at %.6f s",
			 event, field, v, cpu, (double)(ts - a->first_ts) / 1e9);
}

void on_switch(void *ctx, struct bound_event *e, struct tep_record *r, int cpu, uint64_t ts)
{
	struct analysis *a = ctx;
	struct busy_cpu *c = &a->busy.cpu[cpu];
	long long prev, next, state = 0;
	bool have_state;
	char comm[16] = "";

	if (!ev_num(e, r, SW_prev_pid, &prev) || !ev_num(e, r, SW_next_pid, &next))
		return;
	if (prev < 0 || next < 0 || prev > INT32_MAX || next > INT32_MAX) {
		bad_record(a, "sched_switch", prev < 0 || prev > INT32_MAX ? "prev_pid" : "next_pid",
			   prev < 0 || prev > INT32_MAX ? prev : next, cpu, ts);
		return;
	}
	have_state = ev_num(e, r, SW_prev_state, &state);
	ev_str(e, r, SW_next_comm, comm, sizeof(comm));
	a->nswitch++;
	waiting_switch(&a->wait, &a->topo, cpu, (int)prev, state, have_state, (int)next, comm, ts,
		       timeline_task_row, a);
	migrations_ran(a, cpu, (int)next);
	/* a cpu that switches to or from a task is active now, whatever cpu_idle said last */
	if (prev || next)
		idle_running(a->idle, ts, cpu);
	if (!a->started) {
		busy_seen(&a->busy, cpu, (int)next);
		return;
	}
	/*
	 * It switches away from a task the cpu was not running: the switch to
	 * that task was lost, somewhere since the cpu's previous record.
	 */
	if (c->known && c->pid != prev) {
		a->state_breaks++;
		a->uncertain_ns += ts - (a->cpu_last_ts[cpu] > a->t0 ? a->cpu_last_ts[cpu] : a->t0);
	}
	busy_switch(&a->busy, cpu, (int)next, ts);
}

/* power:cpu_idle: @cpu_id entered C-state @state, or left idle */
static void on_cpu_idle(void *ctx, struct bound_event *e, struct tep_record *r, int cpu, uint64_t ts)
{
	struct analysis *a = ctx;
	long long state, cpu_id;

	if (!ev_num(e, r, CI_state, &state) || !ev_num(e, r, CI_cpu_id, &cpu_id))
		return;
	if (cpu_id < 0 || cpu_id >= a->topo.nr_cpu_ids || !a->topo.present[cpu_id]) {
		bad_record(a, "cpu_idle", "cpu_id", cpu_id, cpu, ts);
		return;
	}
	idle_event(a->idle, ts, (int)cpu_id, (uint32_t)state);
}

/* sched_wakeup, sched_wakeup_new: the task is runnable on target_cpu */
void on_wakeup(void *ctx, struct bound_event *e, struct tep_record *r, int cpu, uint64_t ts)
{
	struct analysis *a = ctx;
	struct topology *t = &a->topo;
	long long pid, target;
	char comm[16] = "";

	if (!ev_num(e, r, WK_pid, &pid) || !ev_num(e, r, WK_target_cpu, &target))
		return;
	if (target < 0 || target >= t->nr_cpu_ids || !t->present[target]) {
		bad_record(a, e->b->name, "target_cpu", target, cpu, ts);
		return;
	}
	if (pid <= 0 || pid > INT32_MAX) {
		bad_record(a, e->b->name, "pid", pid, cpu, ts);
		return;
	}
	ev_str(e, r, WK_comm, comm, sizeof(comm));
	waiting_wakeup(&a->wait, (int)pid, comm, (int)target, ts);
}

/*
 * A workload's phase marker, "powersched-phase: NAME begin" or
 * "powersched-phase: NAME end", written to trace_marker: 1 begin, 2 end.
 */
static int phase_marker(struct analysis *a, struct bound_event *e, struct tep_record *r)
{
	static const char prefix[] = "powersched-phase: ";
	char buf[128], *word;

	if (!ev_str(e, r, PR_buf, buf, sizeof(buf)) || strncmp(buf, prefix, sizeof(prefix) - 1))
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

static int on_record(void *ctx, struct tep_record *r, int cpu, int id)
{
	struct analysis *a = ctx;
	struct bound_event *e;
	uint64_t ts = r->ts;

	a->nrecords++;
	if (a->nrecords == 1)
		a->first_ts = a->last_ts = ts;
	if (ts < a->last_ts) {
		a->out_of_order++;
		ts = a->last_ts;
	}
	a->last_ts = ts;
	if (r->missed_events) {
		a->missed_marks++;
		if (r->missed_events > 0)
			a->missed_known += r->missed_events;
	}

	e = trace_lookup(&a->in, id);
	if (a->phase && e && e == a->ev_print) {
		int m = phase_marker(a, e, r);

		if (m == 1 && !a->phase_begun) {
			a->phase_begun = true;
			a->open_at = ts > a->latest_first ? ts : a->latest_first;
		} else if (m == 2 && a->started) {
			advance(a, ts);
			a->phase_ended = true;
			return -1;	/* the rest is not analyzed: stop reading */
		}
	}
	if (!a->started && ts >= a->open_at)
		start_window(a, ts);
	if (a->started)
		advance(a, ts);
	/* before the window, handlers only follow the state of cpus and tasks */
	if (e && e->b->fn)
		e->b->fn(a, e, r, cpu, ts);
	migrations_after(a, e, cpu);
	a->cpu_last_ts[cpu] = ts;
	return 0;
}

static void on_prescan(void *ctx, int cpu, struct tep_record *r, bool first, bool match)
{
	struct analysis *a = ctx;
	struct cpu_start *s = &a->start[cpu];
	long long prev;

	if (cpu < 0 || cpu >= MAX_CPUS)
		return;
	if (first) {
		s->has_records = true;
		s->first_ts = r->ts;
	}
	if (match && ev_num(a->ev_switch, r, SW_prev_pid, &prev) && prev >= 0 && prev <= INT32_MAX) {
		s->has_switch = true;
		s->prev_pid = (int)prev;
	}
}

/* ------------------------------------------------------------- setup */

/*
 * run.json beside the trace (qemu/run writes it), embedded into
 * summary.json only when it is valid JSON; otherwise a_note says why.
 */
static char *read_run_json(struct analysis *a)
{
	char path[4200], *dir = strdup(a->trace), *buf = NULL, *end;
	const char *why = NULL;
	size_t at = 0;
	FILE *f;
	long n;

	if (!dir)
		return NULL;
	snprintf(path, sizeof(path), "%s/run.json", dirname(dir));
	free(dir);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || n >= 65536) {
		snprintf(a->run_note, sizeof(a->run_note), "%s: not read (larger than 64 KiB)", path);
		fclose(f);
		return NULL;
	}
	rewind(f);
	buf = calloc(1, n + 1);
	if (!buf || fread(buf, 1, n, f) != (size_t)n) {
		snprintf(a->run_note, sizeof(a->run_note), "%s: cannot read", path);
		free(buf);
		fclose(f);
		return NULL;
	}
	fclose(f);
	if (memchr(buf, 0, n) || json_check(buf, n, &at, &why)) {
		snprintf(a->run_note, sizeof(a->run_note), "%s: not valid JSON (%s at byte %zu): not embedded",
			 path, memchr(buf, 0, n) ? "a NUL byte" : why, at);
		free(buf);
		return NULL;
	}
	/* summary.json embeds objects only */
	for (end = buf; *end == ' ' || *end == '\n' || *end == '\t' || *end == '\r'; end++)
		;
	if (*end != '{') {
		snprintf(a->run_note, sizeof(a->run_note), "%s: not a JSON object: not embedded", path);
		free(buf);
		return NULL;
	}
	for (end = buf + n; end > buf && strchr(" \n\r\t", end[-1]); end--)
		end[-1] = 0;
	return buf;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: %s analyze TRACE.dat [--topology FILE] [--out DIR] [--bucket MS] [--model FILE]\n"
		"                  [--phase] [--max-rows N]\n"
		"  TRACE.dat     a trace recorded in the guest (sched:sched_switch is required;\n"
		"                sched:sched_migrate_task and the powersched events are used)\n"
		"  --topology    topology.tsv (default: the one beside the trace)\n"
		"  --out DIR     where the TSV files and summary.json go, created if missing\n"
		"                (default: DIR/analysis beside the trace)\n"
		"  --bucket MS   timeline resolution in milliseconds (default 10)\n"
		"  --model FILE  the power model (default: the shipped one nearest the\n"
		"                topology's shape, %s for several\n"
		"                packages, its -laptop sibling for one)\n"
		"  --phase       analyze only the workload's measured phase, between its\n"
		"                'powersched-phase: NAME begin' and '... end' trace markers\n"
		"  --max-rows N  rows of each timeline at most (default %d); the summary\n"
		"                says when the timelines were cut\n"
		"  --pingpong-ms MS  a migration undone within MS is a ping-pong (default %d)\n",
		progname, default_model_path(), DEFAULT_MAX_ROWS, DEFAULT_PINGPONG_MS);
}

/* mkdir -p @dir; one message when it cannot be a results folder. */
static int make_outdir(const char *dir)
{
	char path[4096];
	struct stat st;

	if (!stat(dir, &st)) {
		if (S_ISDIR(st.st_mode))
			return 0;
		warning("%s: not a directory: --out wants a folder for the results", dir);
		return -1;
	}
	snprintf(path, sizeof(path), "%.4095s", dir);
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(path, 0755) && errno != EEXIST) {
			warning("%s: cannot create the output folder %s: %s", dir, path, strerror(errno));
			return -1;
		}
		*p = '/';
	}
	if (mkdir(path, 0755) && errno != EEXIST) {
		warning("%s: cannot create the output folder: %s", dir, strerror(errno));
		return -1;
	}
	if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		warning("%s: not a directory: --out wants a folder for the results", dir);
		return -1;
	}
	return 0;
}

/* A cpu list for messages: "0-7", "0-3,5" */
static void cpus_text(char *buf, size_t len, const bool *set, int n)
{
	size_t o = 0;

	buf[0] = 0;
	for (int c = 0; c < n && o < len; c++) {
		int e = c;

		if (!set[c])
			continue;
		while (e + 1 < n && set[e + 1])
			e++;
		o += snprintf(buf + o, len - o, "%s%d", o ? "," : "", c);
		if (e > c && o < len)
			o += snprintf(buf + o, len - o, "-%d", e);
		c = e;
	}
}

/*
 * The topology must describe the traced machine: every cpu it lists has a
 * buffer in the trace, and every cpu with records is one it lists.
 */
static int check_cpus(struct analysis *a)
{
	struct topology *t = &a->topo;
	bool listed[MAX_CPUS] = { false }, traced[MAX_CPUS] = { false };
	char lt[256], tt[256];
	int bad = -1;

	for (int cpu = 0; cpu < MAX_CPUS; cpu++) {
		listed[cpu] = cpu < t->nr_cpu_ids && t->present[cpu];
		traced[cpu] = cpu < a->in.ncpus;
		if (listed[cpu] && !traced[cpu] && bad < 0)
			bad = cpu;
		if (cpu < a->in.ncpus && a->start[cpu].has_records && !listed[cpu] && bad < 0)
			bad = cpu;
	}
	if (bad < 0)
		return 0;
	cpus_text(lt, sizeof(lt), listed, MAX_CPUS);
	cpus_text(tt, sizeof(tt), traced, MAX_CPUS);
	if (listed[bad])
		warning("%s: inconsistent with %s: %s lists %d cpus (%s), the trace has %d (%s): no data for cpu %d",
			a->trace, a->topo_path, a->topo_path, t->ncpus, lt, a->in.ncpus, tt, bad);
	else
		warning("%s: inconsistent with %s: events on cpu %d, which %s does not list (it lists %d cpus: %s)",
			a->trace, a->topo_path, bad, a->topo_path, t->ncpus, lt);
	return -1;
}

/* Digits of time_s that tell the buckets apart: at least 3 (ms). */
static int time_decimals(uint64_t bucket_ns)
{
	int d = 3;
	uint64_t unit = 1000000;	/* 1 ms */

	while (d < 9 && bucket_ns % unit) {
		d++;
		unit /= 10;
	}
	return d;
}

/* The pass and its checks; 0 when the results are complete. */
static int run(struct analysis *a)
{
	char *run_json;
	int ret;

	if (timeline_open(a))
		return -1;
	if (trace_iterate(&a->in, on_record, a) < 0 && !a->phase_ended) {
		warning("%s", a->in.err[0] ? a->in.err : "reading the events failed: the trace is truncated or corrupt");
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
	idle_end(a->idle, a->last_ts);
	if (timeline_close(a))
		return -1;

	run_json = read_run_json(a);
	ret = results_write(a, run_json);
	free(run_json);
	if (!ret && (fflush(stdout) || ferror(stdout))) {
		warning("standard output: write error: %s", strerror(errno ? errno : EIO));
		ret = -1;
	}
	return ret;
}

/* The paths and options of one analyze command line */
struct analyze_args {
	const char *topo_path, *out, *model_path;
	double bucket_ms;
	char topo_buf[4200];	/* the default topology path, beside the trace */
};

/* Returns -1 to go on, else the exit status (usage errors: 2) */
static int parse_args(int argc, char **argv, struct analysis *a, struct analyze_args *args)
{
	static const struct option opts[] = {
		{ "topology", required_argument, NULL, 't' },
		{ "out", required_argument, NULL, 'o' },
		{ "bucket", required_argument, NULL, 'b' },
		{ "model", required_argument, NULL, 'm' },
		{ "phase", no_argument, NULL, 'p' },
		{ "max-rows", required_argument, NULL, 'r' },
		{ "pingpong-ms", required_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char *end;
	int c;

	args->bucket_ms = 10;
	optind = 1;
	while ((c = getopt_long(argc, argv, "t:o:b:m:pr:P:h", opts, NULL)) != -1) {
		switch (c) {
		case 'p': a->phase = true; break;
		case 't': args->topo_path = optarg; break;
		case 'o': args->out = optarg; break;
		case 'b':
			args->bucket_ms = strtod(optarg, &end);
			if (*end || !(args->bucket_ms >= 0.1 && args->bucket_ms <= 60000)) {
				warning("--bucket '%s': not a number of milliseconds between 0.1 and 60000", optarg);
				return 2;
			}
			break;
		case 'r': {
			long long n = strtoll(optarg, &end, 10);

			if (*end || end == optarg || n < 1) {
				warning("--max-rows '%s': not a number of rows", optarg);
				return 2;
			}
			a->max_rows = n;
			break;
		}
		case 'P': {
			double ms = strtod(optarg, &end);

			if (end == optarg || *end || !(ms > 0 && ms <= 60000)) {
				warning("--pingpong-ms '%s': not a number of milliseconds above 0 and at most 60000", optarg);
				return 2;
			}
			a->pp.window = (uint64_t)(ms * 1e6 + 0.5);
			break;
		}
		case 'm': args->model_path = optarg; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind != argc - 1) {
		usage(stderr);
		return 2;
	}
	a->trace = argv[optind];
	a->bucket = (uint64_t)(args->bucket_ms * 1e6 + 0.5);
	a->time_decimals = time_decimals(a->bucket);
	return -1;
}

/*
 * The trace must be a non-empty regular file; the topology and the outputs
 * default to its folder (topology.tsv, analysis/).  Then the topology and
 * the power model (the one for the topology's shape unless --model).
 */
static int load_inputs(struct analysis *a, struct analyze_args *args)
{
	char err[1024], *dir;
	struct stat st;

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
	if (!args->topo_path) {
		snprintf(args->topo_buf, sizeof(args->topo_buf), "%s/topology.tsv", dirname(dir));
		args->topo_path = args->topo_buf;
	}
	a->topo_path = args->topo_path;
	if (args->out) {
		snprintf(a->outs.dir, sizeof(a->outs.dir), "%s", args->out);
	} else {
		free(dir);
		dir = strdup(a->trace);
		if (!dir)
			return 1;
		snprintf(a->outs.dir, sizeof(a->outs.dir), "%s/analysis", dirname(dir));
	}
	free(dir);

	if (access(args->topo_path, R_OK)) {
		warning("%s: no topology for %s (%s); give one with --topology (qemu/run writes topology.tsv beside the trace)",
			args->topo_path, a->trace, strerror(errno));
		return 1;
	}
	if (topology_read(args->topo_path, &a->topo, err, sizeof(err))) {
		warning("%s", err);
		return 1;
	}
	if (!args->model_path)
		args->model_path = power_model_for_topology(&a->topo);
	if (power_model_read(args->model_path, &a->model, err, sizeof(err))) {
		warning("%s", err);
		return 1;
	}
	return 0;
}

/* The events the analysis reads, bound once; sched_switch is required */
static int find_events(struct analysis *a)
{
	if (trace_bind(&a->in, bindings, sizeof(bindings) / sizeof(bindings[0]))) {
		warning("out of memory");
		return 1;
	}
	a->modes.available = trace_event(&a->in, PS_SYSTEM, PS_BALANCE_MODE)->id >= 0;
	a->ev_switch = trace_event(&a->in, "sched", "sched_switch");
	a->ev_print = trace_event(&a->in, "ftrace", "print");
	a->ev_pack = trace_event(&a->in, PS_SYSTEM, PS_POWER_PACK_DECISION);
	a->ev_leader = trace_event(&a->in, PS_SYSTEM, PS_GROUP_LEADER_CHOSEN);
	a->ev_waking = trace_event(&a->in, "sched", "sched_waking");
	a->ev_bm = trace_event(&a->in, PS_SYSTEM, PS_BALANCE_MIGRATE);
	a->mig.have_balance = a->ev_bm->id >= 0;
	a->modes.have_outcome = trace_event(&a->in, PS_SYSTEM, PS_BALANCE_OUTCOME)->id >= 0;
	a->modes.have_policy = trace_event(&a->in, PS_SYSTEM, PS_POLICY_CHANGE)->id >= 0;
	a->modes.policy_last = -1;
	a->mig.have_waking = a->ev_waking->id >= 0;
	a->have_cpu_idle = trace_event(&a->in, "power", "cpu_idle")->id >= 0;
	if (a->ev_switch->id < 0) {
		warning("%s: no sched:sched_switch events in the trace: utilization cannot be computed (record with -e sched:sched_switch)",
			a->trace);
		return 1;
	}
	if (!a->ev_switch->f[SW_prev_pid] || !a->ev_switch->f[SW_next_pid]) {
		warning("%s: sched_switch lacks prev_pid/next_pid: an unknown event format", a->trace);
		return 1;
	}
	return 0;
}

/*
 * Where each cpu's records start (the prescan), the window's opening, the
 * output folder and the per-cpu state of the passes.
 */
static int prepare(struct analysis *a)
{
	int pkg_of[MAX_CPUS];

	if (trace_prescan(&a->in, a->ev_switch->id, on_prescan, a)) {
		warning("%s", a->in.err);
		return 1;
	}
	if (check_cpus(a))
		return 1;
	for (int cpu = 0; cpu < a->in.ncpus && cpu < MAX_CPUS; cpu++)
		if (a->start[cpu].has_records && a->start[cpu].first_ts > a->latest_first)
			a->latest_first = a->start[cpu].first_ts;
	a->open_at = a->phase ? UINT64_MAX : a->latest_first;
	if (make_outdir(a->outs.dir))
		return 1;
	if (busy_init(&a->busy, &a->topo) || waiting_init(&a->wait, &a->topo)) {
		warning("out of memory");
		return 1;
	}
	for (int cpu = 0; cpu < a->topo.nr_cpu_ids; cpu++)
		pkg_of[cpu] = a->topo.present[cpu] ? a->topo.pkg[cpu] : -1;
	a->idle = idle_new(a->topo.nr_cpu_ids, pkg_of, a->topo.npkgs);
	if (!a->idle) {
		warning("out of memory");
		return 1;
	}
	return 0;
}

int cmd_analyze(int argc, char **argv)
{
	static struct analysis an;
	struct analysis *a = &an;
	struct analyze_args args = { 0 };
	char err[1024];
	int ret = 1;

	memset(a, 0, sizeof(*a));
	a->max_rows = DEFAULT_MAX_ROWS;
	a->pp.window = DEFAULT_PINGPONG_MS * 1000000ULL;
	ret = parse_args(argc, argv, a, &args);
	if (ret >= 0)
		return ret;
	if (load_inputs(a, &args))
		return 1;

	if (trace_open(&a->in, a->trace, err, sizeof(err))) {
		warning("%s", err);
		trace_close(&a->in);
		return 1;
	}
	ret = 1;
	if (find_events(a) || prepare(a))
		goto out;

	ret = run(a) ? 1 : 0;
	if (ret) {
		timeline_close(a);
		/* no partial output passed off as complete */
		output_remove_all(&a->outs);
	}
out:
	busy_free(&a->busy);
	waiting_free(&a->wait);
	idle_free(a->idle);
	outputs_free(&a->outs);
	trace_close(&a->in);
	return ret;
}
