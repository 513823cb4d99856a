// SPDX-License-Identifier: GPL-2.0
/*
 * powersched export TRACE.dat --perfetto FILE.json: the trace as an
 * interactive timeline in the Trace Event Format, which Perfetto's UI
 * (ui.perfetto.dev) and chrome://tracing open:
 *
 *   - a track per cpu with the tasks it ran, as slices ("comm:pid");
 *   - counters: busy cpus of each core and package;
 *   - the balance mode of each sched-domain level, as a counter
 *     (1 power, -1 performance; passes that say nothing of the mode, as
 *     in analyze, leave it);
 *   - migrations as flow arrows from the cpu a task left to the one it
 *     went to, on a "migrations" track per cpu;
 *   - every powersched event as an instant on its cpu with its fields.
 *
 * One streaming pass (trace.c): each slice is written when it ends, so
 * memory does not grow with the trace.  Times are microseconds from the
 * first record, as the format wants them.
 */
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fields.h"
#include "output.h"
#include "powersched.h"
#include "trace.h"

/* pids of the format's "processes", which Perfetto shows as groups of tracks */
enum { PID_CPUS = 1, PID_MIGRATIONS, PID_BUSY, PID_MODES };

struct exp_cpu {
	bool known, running;
	int pid;
	char comm[16];
	uint64_t since;
	bool has_switch;	/* from the pre-scan: what it ran before its first switch */
	int first_prev;
};

struct exporter {
	const char *trace;
	struct topology topo;
	struct trace_input in;
	struct output *out;
	struct bound_event *ev_switch, *ev_migrate;
	bool first_event;
	uint64_t t0, last_ts;
	bool started;
	struct exp_cpu cpu[MAX_CPUS];
	int *core_busy, *pkg_busy;
	int mode[MAX_DOMAINS];
	uint64_t slices, migrations, decisions, flow_id;
};

static void on_switch(void *ctx, struct bound_event *e, struct tep_record *r, int cpu, uint64_t ts);
static void on_migrate(void *ctx, struct bound_event *e, struct tep_record *r, int cpu, uint64_t ts);

static const char * const switch_fields[] = FIELD_NAMES(PS_SCHED_SWITCH_FIELDS);
static const char * const migrate_fields[] = FIELD_NAMES(PS_SCHED_MIGRATE_TASK_FIELDS);

static const struct event_binding bindings[] = {
	{ "sched", "sched_switch", switch_fields, on_switch },
	{ "sched", "sched_migrate_task", migrate_fields, on_migrate },
};

static double us(const struct exporter *x, uint64_t ts)
{
	return ts > x->t0 ? (ts - x->t0) / 1e3 : 0;
}

/* Starts an event object: the separator, then '{' */
static FILE *ev_begin(struct exporter *x)
{
	FILE *f = x->out->f;

	fputs(x->first_event ? "\n" : ",\n", f);
	x->first_event = false;
	fputc('{', f);
	return f;
}

static void meta(struct exporter *x, int pid, int tid, const char *what, const char *name)
{
	FILE *f = ev_begin(x);

	fprintf(f, "\"ph\":\"M\",\"pid\":%d,", pid);
	if (tid >= 0)
		fprintf(f, "\"tid\":%d,", tid);
	fprintf(f, "\"name\":\"%s\",\"args\":{\"name\":", what);
	json_str(f, name);
	fputs("}}", f);
}

static void counter(struct exporter *x, const char *name, const char *arg, int v, uint64_t ts)
{
	FILE *f = ev_begin(x);

	fprintf(f, "\"ph\":\"C\",\"pid\":%d,\"name\":", PID_BUSY);
	json_str(f, name);
	fprintf(f, ",\"ts\":%.3f,\"args\":{\"%s\":%d}}", us(x, ts), arg, v);
}

/* A slice of @c's task from c->since to @ts */
static void slice(struct exporter *x, int cpu, uint64_t ts)
{
	struct exp_cpu *c = &x->cpu[cpu];
	char name[64];
	FILE *f;

	snprintf(name, sizeof(name), "%s:%d", c->comm[0] ? c->comm : "?", c->pid);
	f = ev_begin(x);
	fprintf(f, "\"ph\":\"X\",\"cat\":\"sched\",\"pid\":%d,\"tid\":%d,\"ts\":%.3f,\"dur\":%.3f,\"name\":",
		PID_CPUS, cpu, us(x, c->since), (ts - c->since) / 1e3);
	json_str(f, name);
	fprintf(f, ",\"args\":{\"pid\":%d}}", c->pid);
	x->slices++;
}

static void busy_change(struct exporter *x, int cpu, int delta, uint64_t ts)
{
	struct topology *t = &x->topo;
	char name[64];
	int core = t->core[cpu], pkg = t->pkg[cpu];

	x->core_busy[core] += delta;
	x->pkg_busy[pkg] += delta;
	snprintf(name, sizeof(name), "core %d busy cpus", t->core_id[core]);
	counter(x, name, "busy", x->core_busy[core], ts);
	snprintf(name, sizeof(name), "package %d busy cpus", t->pkg_id[pkg]);
	counter(x, name, "busy", x->pkg_busy[pkg], ts);
}

/* @cpu runs @pid (@comm) from @ts on */
static void run(struct exporter *x, int cpu, int pid, const char *comm, uint64_t ts)
{
	struct exp_cpu *c = &x->cpu[cpu];
	bool running = pid != 0;

	if (c->known && c->running)
		slice(x, cpu, ts);
	if (c->known && c->running != running)
		busy_change(x, cpu, running ? 1 : -1, ts);
	else if (!c->known && running)
		busy_change(x, cpu, 1, ts);
	c->known = true;
	c->running = running;
	c->pid = pid;
	snprintf(c->comm, sizeof(c->comm), "%s", comm);
	c->since = ts;
}

static void on_switch(void *ctx, struct bound_event *e, struct tep_record *r, int cpu, uint64_t ts)
{
	struct exporter *x = ctx;
	long long next;
	char comm[16] = "";

	if (!ev_num(e, r, SW_next_pid, &next) || next < 0 || next > INT32_MAX)
		return;
	ev_str(e, r, SW_next_comm, comm, sizeof(comm));
	run(x, cpu, (int)next, comm, ts);
}

static void on_migrate(void *ctx, struct bound_event *e, struct tep_record *r, int cpu, uint64_t ts)
{
	struct exporter *x = ctx;
	struct topology *t = &x->topo;
	long long pid, orig, dest;
	char comm[16] = "", name[64];
	FILE *f;

	(void)cpu;
	if (!ev_num(e, r, MG_pid, &pid) || !ev_num(e, r, MG_orig_cpu, &orig) ||
	    !ev_num(e, r, MG_dest_cpu, &dest) || orig == dest ||
	    orig < 0 || orig >= t->nr_cpu_ids || !t->present[orig] ||
	    dest < 0 || dest >= t->nr_cpu_ids || !t->present[dest])
		return;
	ev_str(e, r, MG_comm, comm, sizeof(comm));
	snprintf(name, sizeof(name), "%s:%lld %lld->%lld", comm[0] ? comm : "?", pid, orig, dest);
	x->flow_id++;
	/* a short slice on each cpu's migrations track, bound by a flow */
	f = ev_begin(x);
	fprintf(f, "\"ph\":\"X\",\"cat\":\"migration\",\"pid\":%d,\"tid\":%lld,\"ts\":%.3f,\"dur\":0.001,\"name\":",
		PID_MIGRATIONS, orig, us(x, ts));
	json_str(f, name);
	fprintf(f, ",\"bind_id\":%llu,\"flow_out\":true,\"args\":{\"pid\":%lld,\"to\":%lld}}",
		(unsigned long long)x->flow_id, pid, dest);
	f = ev_begin(x);
	fprintf(f, "\"ph\":\"X\",\"cat\":\"migration\",\"pid\":%d,\"tid\":%lld,\"ts\":%.3f,\"dur\":0.001,\"name\":",
		PID_MIGRATIONS, dest, us(x, ts));
	json_str(f, name);
	fprintf(f, ",\"bind_id\":%llu,\"flow_in\":true,\"args\":{\"pid\":%lld,\"from\":%lld}}",
		(unsigned long long)x->flow_id, pid, orig);
	x->migrations++;
}

/* An enum field's kernel name, when the field is one of powersched's enums */
static const char *enum_name(const char *event, const char *field, long long v, char *buf, size_t len)
{
	static const struct {
		const char *event, *field;
		const struct ps_enum_name *table;
		int n;
	} enums[] = {
		{ NULL, "origin", ps_origins, PS_NR(ps_origins) },
		{ NULL, "idle", ps_idle_types, PS_NR(ps_idle_types) },
		{ NULL, "mode", ps_modes, PS_NR(ps_modes) },
		{ PS_BALANCE_MODE, "why", ps_whys, PS_NR(ps_whys) },
		{ PS_POWER_PACK_DECISION, "reason", ps_pack_reasons, PS_NR(ps_pack_reasons) },
		{ PS_LAZY_BALANCE_SKIP, "variant", ps_lazy_variants, PS_NR(ps_lazy_variants) },
		{ PS_POLICY_CHANGE, "old", ps_policies, PS_NR(ps_policies) },
		{ PS_POLICY_CHANGE, "new", ps_policies, PS_NR(ps_policies) },
	};

	for (size_t i = 0; i < sizeof(enums) / sizeof(enums[0]); i++)
		if ((!enums[i].event || !strcmp(enums[i].event, event)) && !strcmp(enums[i].field, field))
			return ps_enum_key(enums[i].table, enums[i].n, v, buf, len);
	return NULL;
}

/* A cpumask field as a cpu list */
static void put_mask(FILE *f, struct tep_handle *tep, struct tep_format_field *fld, struct tep_record *r)
{
	int start = -1, printed = 0;

	fputc('"', f);
	for (int cpu = 0; cpu <= MAX_CPUS; cpu++) {
		int set = cpu < MAX_CPUS ? ps_field_cpu_test(tep, fld, r, cpu) : 0;

		if (set < 0)
			set = 0;
		if (set && start < 0)
			start = cpu;
		if (!set && start >= 0) {
			fprintf(f, "%s%d", printed ? "," : "", start);
			if (cpu - 1 > start)
				fprintf(f, "-%d", cpu - 1);
			printed = 1;
			start = -1;
		}
	}
	fputc('"', f);
}

/* A powersched record: an instant on its cpu with every field */
static void decision(struct exporter *x, struct tep_event *ev, struct tep_record *r, int cpu, uint64_t ts)
{
	FILE *f = ev_begin(x);
	bool first = true;

	fprintf(f, "\"ph\":\"i\",\"s\":\"t\",\"cat\":\"powersched\",\"pid\":%d,\"tid\":%d,\"ts\":%.3f,\"name\":",
		PID_CPUS, cpu, us(x, ts));
	json_str(f, ev->name);
	fputs(",\"args\":{", f);
	for (struct tep_format_field *fld = ev->format.fields; fld; fld = fld->next) {
		char buf[256], ename[32];
		const char *en;
		long long v;

		fprintf(f, "%s", first ? "" : ",");
		first = false;
		json_str(f, fld->name);
		fputc(':', f);
		if (strstr(fld->type, "cpumask")) {
			put_mask(f, x->in.tep, fld, r);
		} else if ((fld->flags & (TEP_FIELD_IS_STRING | TEP_FIELD_IS_ARRAY)) ||
			   (fld->flags & TEP_FIELD_IS_DYNAMIC)) {
			if (ps_field_str(x->in.tep, fld, r, buf, sizeof(buf)))
				json_str(f, buf);
			else
				fputs("null", f);
		} else if (ps_field_num(x->in.tep, fld, r, &v)) {
			fprintf(f, "%lld", v);
			en = enum_name(ev->name, fld->name, v, ename, sizeof(ename));
			if (en) {
				fputc(',', f);
				snprintf(buf, sizeof(buf), "%s_name", fld->name);
				json_str(f, buf);
				fputc(':', f);
				json_str(f, en);
			}
		} else {
			fputs("null", f);
		}
	}
	fputs("}}", f);
	x->decisions++;

	/* the mode of a domain level, from balance_mode as analyze reads it */
	if (!strcmp(ev->name, PS_BALANCE_MODE)) {
		struct tep_format_field *fd = tep_find_field(ev, "domain");
		long long mode, why;
		char name[NAME_LEN + 8], dom[NAME_LEN];
		int d;

		if (!ps_field_str(x->in.tep, fd, r, dom, sizeof(dom)) ||
		    !ps_field_num(x->in.tep, tep_find_field(ev, "mode"), r, &mode) ||
		    !ps_field_num(x->in.tep, tep_find_field(ev, "why"), r, &why) ||
		    (mode != PS_MODE_POWER && mode != PS_MODE_PERFORMANCE) ||
		    why == PS_WHY_SMT || why == PS_WHY_BUSY_CPU)
			return;
		for (d = 0; d < x->topo.ndomains && strcmp(x->topo.domains[d], dom); d++)
			;
		if (d == x->topo.ndomains || x->mode[d] == mode)
			return;
		x->mode[d] = (int)mode;
		f = ev_begin(x);
		snprintf(name, sizeof(name), "mode %s", dom);
		fprintf(f, "\"ph\":\"C\",\"pid\":%d,\"name\":", PID_MODES);
		json_str(f, name);
		fprintf(f, ",\"ts\":%.3f,\"args\":{\"mode\":%d}}", us(x, ts), mode == PS_MODE_POWER ? 1 : -1);
	}
}

static int on_record(void *ctx, struct tep_record *r, int cpu, int id)
{
	struct exporter *x = ctx;
	struct bound_event *e;
	struct tep_event *ev;
	uint64_t ts = r->ts;

	if (cpu < 0 || cpu >= x->topo.nr_cpu_ids || !x->topo.present[cpu])
		return 0;
	if (!x->started) {
		/* what each cpu ran before its first switch, from the pre-scan */
		x->started = true;
		x->t0 = ts;
		for (int c = 0; c < x->topo.nr_cpu_ids; c++)
			if (x->topo.present[c] && x->cpu[c].has_switch)
				run(x, c, x->cpu[c].first_prev, "", ts);
	}
	if (ts < x->last_ts)
		ts = x->last_ts;
	x->last_ts = ts;
	e = trace_lookup(&x->in, id);
	if (e && e->b->fn) {
		e->b->fn(x, e, r, cpu, ts);
		return 0;
	}
	ev = tep_find_event(x->in.tep, id);
	if (ev && ev->system && !strcmp(ev->system, PS_SYSTEM))
		decision(x, ev, r, cpu, ts);
	return 0;
}

static void on_prescan(void *ctx, int cpu, struct tep_record *r, bool first, bool match)
{
	struct exporter *x = ctx;
	long long prev;

	(void)first;
	if (cpu >= 0 && cpu < MAX_CPUS && match && ev_num(x->ev_switch, r, SW_prev_pid, &prev) &&
	    prev >= 0 && prev <= INT32_MAX) {
		x->cpu[cpu].has_switch = true;
		x->cpu[cpu].first_prev = (int)prev;
	}
}

static void usage(FILE *f)
{
	fprintf(f, "usage: %s export TRACE.dat --perfetto FILE.json [--topology FILE]\n"
		"  writes the trace as a Trace Event Format file that ui.perfetto.dev and\n"
		"  chrome://tracing open: per-cpu task slices, busy cpus of each core and\n"
		"  package, the balance mode of each domain level, migrations as flow arrows,\n"
		"  the powersched events as instants with their fields\n"
		"  --topology    topology.tsv (default: the one beside the trace)\n", progname);
}

int cmd_export(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "perfetto", required_argument, NULL, 'p' },
		{ "topology", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *out = NULL, *topo_path = NULL;
	static struct exporter ex;
	struct exporter *x = &ex;
	struct outputs outs = { 0 };
	char err[1024], topo_buf[4200], *dir, *base, *copy;
	struct stat st;
	int c, ret = 1;

	memset(x, 0, sizeof(*x));
	optind = 1;
	while ((c = getopt_long(argc, argv, "p:t:h", opts, NULL)) != -1) {
		switch (c) {
		case 'p': out = optarg; break;
		case 't': topo_path = optarg; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind != argc - 1 || !out) {
		usage(stderr);
		return 2;
	}
	x->trace = argv[optind];
	if (stat(x->trace, &st) || !S_ISREG(st.st_mode) || !st.st_size) {
		warning("%s: %s", x->trace, errno && stat(x->trace, &st) ? strerror(errno) : "not a trace file");
		return 1;
	}
	dir = strdup(x->trace);
	if (!dir)
		return 1;
	if (!topo_path) {
		snprintf(topo_buf, sizeof(topo_buf), "%s/topology.tsv", dirname(dir));
		topo_path = topo_buf;
	}
	free(dir);
	if (topology_read(topo_path, &x->topo, err, sizeof(err))) {
		warning("%s", err);
		return 1;
	}
	if (trace_open(&x->in, x->trace, err, sizeof(err))) {
		warning("%s", err);
		trace_close(&x->in);
		return 1;
	}
	x->core_busy = calloc(x->topo.ncores + 1, sizeof(int));
	x->pkg_busy = calloc(x->topo.npkgs + 1, sizeof(int));
	if (!x->core_busy || !x->pkg_busy ||
	    trace_bind(&x->in, bindings, sizeof(bindings) / sizeof(bindings[0]))) {
		warning("out of memory");
		goto out;
	}
	x->ev_switch = trace_event(&x->in, "sched", "sched_switch");
	if (x->ev_switch->id < 0) {
		warning("%s: no sched:sched_switch events in the trace: nothing to show", x->trace);
		goto out;
	}
	if (trace_prescan(&x->in, x->ev_switch->id, on_prescan, x)) {
		warning("%s", x->in.err);
		goto out;
	}
	for (int cpu = 0; cpu < x->in.ncpus && cpu < MAX_CPUS; cpu++)
		if (x->cpu[cpu].has_switch && (cpu >= x->topo.nr_cpu_ids || !x->topo.present[cpu])) {
			warning("%s: inconsistent with %s: events on cpu %d, which it does not list",
				x->trace, topo_path, cpu);
			goto out;
		}

	copy = strdup(out);
	base = copy ? strdup(out) : NULL;
	if (!copy || !base) {
		free(copy);
		warning("out of memory");
		goto out;
	}
	snprintf(outs.dir, sizeof(outs.dir), "%s", dirname(copy));
	x->out = output_open(&outs, basename(base));
	free(copy);
	free(base);
	if (!x->out)
		goto out;
	fputs("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"trace\":", x->out->f);
	json_str(x->out->f, x->trace);
	fputs(",\"writer\":\"powersched export\"},\"traceEvents\":[", x->out->f);
	x->first_event = true;
	meta(x, PID_CPUS, -1, "process_name", "cpus: tasks and powersched events");
	meta(x, PID_MIGRATIONS, -1, "process_name", "migrations");
	meta(x, PID_BUSY, -1, "process_name", "busy cpus per core and package");
	meta(x, PID_MODES, -1, "process_name", "balance mode per domain level (1 power, -1 performance)");
	for (int cpu = 0; cpu < x->topo.nr_cpu_ids; cpu++)
		if (x->topo.present[cpu]) {
			char name[32];

			snprintf(name, sizeof(name), "cpu %d", cpu);
			meta(x, PID_CPUS, cpu, "thread_name", name);
			meta(x, PID_MIGRATIONS, cpu, "thread_name", name);
		}

	if (trace_iterate(&x->in, on_record, x) < 0) {
		warning("%s", x->in.err[0] ? x->in.err : "reading the events failed");
		goto fail;
	}
	/* the slices still open at the end */
	for (int cpu = 0; cpu < x->topo.nr_cpu_ids; cpu++)
		if (x->topo.present[cpu] && x->cpu[cpu].known && x->cpu[cpu].running)
			slice(x, cpu, x->last_ts);
	fputs("\n]}\n", x->out->f);
	if (output_close(x->out)) {
		x->out = NULL;
		goto fail;
	}
	x->out = NULL;
	printf("%s: %llu task slices, %llu migrations, %llu powersched events in %s\n", x->trace,
	       (unsigned long long)x->slices, (unsigned long long)x->migrations,
	       (unsigned long long)x->decisions, out);
	if (x->in.bad_ts_records)
		printf("  WARNING: %llu record(s) left out: their timestamps cannot be right\n",
		       (unsigned long long)x->in.bad_ts_records);
	if (fflush(stdout) || ferror(stdout)) {
		warning("standard output: write error");
		goto fail;
	}
	ret = 0;
	goto out;
fail:
	output_close(x->out);
	output_remove_all(&outs);
out:
	outputs_free(&outs);
	free(x->core_busy);
	free(x->pkg_busy);
	trace_close(&x->in);
	return ret;
}
