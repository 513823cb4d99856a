// SPDX-License-Identifier: GPL-2.0
/*
 * powersched analyze: one streaming pass over a guest trace.
 *
 * Records come from tracecmd_iterate_events() in time order.  Per-cpu and
 * per-group state is a fixed set of counters, and the timelines are written
 * bucket by bucket as time passes, so memory does not grow with the length
 * of the trace (the per-task migration table is capped at MAX_TASKS).
 *
 * Busy means running anything but the idle task (pid 0), from
 * sched_switch.  A group (core, package, sched-domain group, the system) is
 * busy while any of its cpus is.  The analysis window starts once every cpu
 * has shown what it runs (its first sched_switch), or SETTLE_NS after the
 * first record, when cpus that stayed silent are taken to be idle.
 *
 * Outputs in the results folder: see analysis/FORMATS.md.
 */
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <trace-cmd/trace-cmd.h>

#include "powersched.h"

#define SETTLE_NS	100000000ULL	/* 100 ms */
#define NHIST		16		/* mode durations: <1 ms, 1-2, 2-4, ... */
#define NLEVELS		3		/* migrations: smt, core, package */
#define NREASONS	6
#define NORIGINS	4
#define NMODES		3		/* none, power, performance */
#define MAX_TASKS	4096		/* tasks itemized in migrations_by_task.tsv */

static const char * const reasons[NREASONS] = {
	"leader", "idlest", "local", "burst", "domain_full", "no_room",
};
static const char * const origins[NORIGINS] = { "fork", "exec", "wakeup", "balance" };
static const char * const mode_names[NMODES] = { "none", "power", "performance" };

enum { WHY_SMT = 1, WHY_BUSY_CPU = 2 };	/* structural passes: not a mode choice */

struct unit {			/* a set of cpus busy while any of them is */
	int nbusy;
	uint64_t since;
	uint64_t bucket_ns;
	uint64_t total_ns;
	uint64_t wakeups;	/* idle spells ended */
};

struct cpu_state {
	bool known;
	bool assumed;		/* taken to be idle at window start, unseen */
	int pid;
	uint64_t since;
	uint64_t bucket_ns;
	uint64_t total_ns;
	int units[3 + MAX_DOMAINS];
	int nunits;
};

struct domain_stats {		/* per domain name, the powersched events */
	uint64_t passes[NMODES];
	uint64_t bucket_passes[NMODES];
	int mode;		/* effective mode: 0 none yet, 1 power, 2 performance */
	uint64_t mode_since;
	uint64_t switches;
	uint64_t lazy;
	uint64_t pack[NREASONS];
};

struct task_mig {
	int pid;		/* 0: empty slot */
	char comm[16];
	uint32_t count[NLEVELS];
};

struct event_ids {
	int sched_switch, migrate, balance_mode, lazy, pack, leader, print;	/* -1: absent */
};

struct analysis {
	const char *trace;
	char outdir[4096];
	struct topology topo;
	struct power_model model;
	struct tep_handle *tep;
	struct event_ids id;
	struct tep_format_field *f_prev_pid, *f_next_pid;
	struct tep_format_field *f_mig_pid, *f_mig_comm, *f_mig_orig, *f_mig_dest;
	struct tep_format_field *f_bm_domain, *f_bm_mode, *f_bm_why;
	struct tep_format_field *f_lz_domain;
	struct tep_format_field *f_pk_domain, *f_pk_reason, *f_pk_origin;
	struct tep_format_field *f_gl_origin;
	struct tep_format_field *f_print_buf;

	bool phase;			/* --phase: cut to the workload's markers */
	bool phase_begun, phase_ended;
	char phase_name[64];

	uint64_t bucket;
	bool started;
	uint64_t first_ts, last_ts, t0, bucket_start;
	uint64_t nrecords, nswitch, nmigrate, out_of_order;
	uint64_t missed_known, missed_marks;
	uint64_t assumed_busy_ns;	/* busy time counted idle: see window start */
	int bad_cpu;			/* a record on a cpu topology.tsv lacks */

	struct cpu_state cpu[MAX_CPUS];
	struct unit *units;
	int nunits, unit_core, unit_pkg, unit_group, unit_system;

	uint64_t mig[NLEVELS], mig_bucket[NLEVELS];
	uint64_t mig_other[NLEVELS];	/* tasks beyond MAX_TASKS */
	struct task_mig *tasks;
	size_t ntask_slots, ntasks;

	bool have_powersched;
	struct domain_stats dom[MAX_DOMAINS + 1];	/* last: names the topology lacks */
	uint64_t hist[NHIST];
	uint64_t pack_origin[NORIGINS], leader_origin[NORIGINS], lazy_total;
	uint64_t pack_total, balance_total;

	FILE *f_cpu, *f_core, *f_pkg, *f_group, *f_mig, *f_modes;
};

/* ---------------------------------------------------------------- fields */

static bool field_num(struct tep_format_field *f, struct tep_record *r, long long *v)
{
	unsigned long long x;

	if (!f || f->offset < 0 || f->offset + f->size > r->size)
		return false;
	if (tep_read_number_field(f, r->data, &x))
		return false;
	if (f->flags & TEP_FIELD_IS_SIGNED) {
		switch (f->size) {
		case 1: *v = (signed char)x; break;
		case 2: *v = (short)x; break;
		case 4: *v = (int)x; break;
		default: *v = (long long)x; break;
		}
	} else {
		*v = (long long)x;
	}
	return true;
}

/* A __data_loc string or a fixed char array, bounded by the record. */
static bool field_str(struct tep_handle *tep, struct tep_format_field *f,
		      struct tep_record *r, char *buf, size_t len)
{
	unsigned int off, size;

	if (!f || f->offset < 0 || f->offset + f->size > r->size)
		return false;
	off = f->offset;
	size = f->size;
	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		unsigned int loc = tep_read_number(tep, (char *)r->data + f->offset, 4);

		off = loc & 0xffff;
		size = loc >> 16;
		if (f->flags & TEP_FIELD_IS_RELATIVE)
			off += f->offset + f->size;
		if (off + size > (unsigned int)r->size)
			return false;
	}
	if (size >= len)
		size = len - 1;
	memcpy(buf, (char *)r->data + off, size);
	buf[size] = 0;
	buf[strnlen(buf, size)] = 0;
	return true;
}

static int domain_index(struct analysis *a, const char *name)
{
	for (int d = 0; d < a->topo.ndomains; d++)
		if (!strcmp(a->topo.domains[d], name))
			return d;
	return a->topo.ndomains;	/* the "other" slot */
}

/* ------------------------------------------------------------ busy state */

static void unit_change(struct unit *u, bool busy, uint64_t ts)
{
	if (busy) {
		if (u->nbusy++ == 0) {
			u->since = ts;
			u->wakeups++;
		}
	} else if (u->nbusy > 0 && --u->nbusy == 0) {
		u->bucket_ns += ts - u->since;
	}
}

static void cpu_set_busy(struct analysis *a, int cpu, bool busy, uint64_t ts)
{
	struct cpu_state *c = &a->cpu[cpu];
	bool was = c->pid != 0;

	if (was == busy)
		return;
	if (was)
		c->bucket_ns += ts - c->since;
	c->since = ts;
	for (int i = 0; i < c->nunits; i++)
		unit_change(&a->units[c->units[i]], busy, ts);
}

static void write_row_start(FILE *f, struct analysis *a, uint64_t start)
{
	fprintf(f, "%.3f", (double)(start - a->t0) / 1e9);
}

/* Close the bucket [bucket_start, end) and write its rows. */
static void flush_bucket(struct analysis *a, uint64_t end)
{
	double len = (double)(end - a->bucket_start);
	struct topology *t = &a->topo;
	int cpu, i;

	for (cpu = 0; cpu < t->nr_cpu_ids; cpu++) {
		struct cpu_state *c = &a->cpu[cpu];

		if (!t->present[cpu])
			continue;
		if (c->pid != 0) {
			c->bucket_ns += end - c->since;
			c->since = end;
		}
	}
	for (i = 0; i < a->nunits; i++) {
		struct unit *u = &a->units[i];

		if (u->nbusy) {
			u->bucket_ns += end - u->since;
			u->since = end;
		}
	}

	if (len > 0) {
		write_row_start(a->f_cpu, a, a->bucket_start);
		for (cpu = 0; cpu < t->nr_cpu_ids; cpu++)
			if (t->present[cpu])
				fprintf(a->f_cpu, "\t%.4f", a->cpu[cpu].bucket_ns / len);
		fputc('\n', a->f_cpu);

		write_row_start(a->f_core, a, a->bucket_start);
		for (i = 0; i < t->ncores; i++)
			fprintf(a->f_core, "\t%.4f", a->units[a->unit_core + i].bucket_ns / len);
		fputc('\n', a->f_core);

		write_row_start(a->f_pkg, a, a->bucket_start);
		for (i = 0; i < t->npkgs; i++)
			fprintf(a->f_pkg, "\t%.4f", a->units[a->unit_pkg + i].bucket_ns / len);
		fprintf(a->f_pkg, "\t%.4f\n", a->units[a->unit_system].bucket_ns / len);

		write_row_start(a->f_group, a, a->bucket_start);
		for (i = 0; i < t->ngroups; i++)
			fprintf(a->f_group, "\t%.4f", a->units[a->unit_group + i].bucket_ns / len);
		fputc('\n', a->f_group);

		write_row_start(a->f_mig, a, a->bucket_start);
		for (i = 0; i < NLEVELS; i++)
			fprintf(a->f_mig, "\t%llu", (unsigned long long)a->mig_bucket[i]);
		fputc('\n', a->f_mig);

		if (a->have_powersched) {
			write_row_start(a->f_modes, a, a->bucket_start);
			for (int d = 0; d < t->ndomains; d++) {
				struct domain_stats *ds = &a->dom[d];

				fprintf(a->f_modes, "\t%d\t%llu\t%llu\t%llu",
					ds->mode == 1 ? 1 : ds->mode == 2 ? -1 : 0,
					(unsigned long long)ds->bucket_passes[1],
					(unsigned long long)ds->bucket_passes[2],
					(unsigned long long)ds->bucket_passes[0]);
			}
			fputc('\n', a->f_modes);
		}
	}

	for (cpu = 0; cpu < t->nr_cpu_ids; cpu++) {
		a->cpu[cpu].total_ns += a->cpu[cpu].bucket_ns;
		a->cpu[cpu].bucket_ns = 0;
	}
	for (i = 0; i < a->nunits; i++) {
		a->units[i].total_ns += a->units[i].bucket_ns;
		a->units[i].bucket_ns = 0;
	}
	memset(a->mig_bucket, 0, sizeof(a->mig_bucket));
	for (int d = 0; d <= MAX_DOMAINS; d++)
		memset(a->dom[d].bucket_passes, 0, sizeof(a->dom[d].bucket_passes));
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
	struct topology *t = &a->topo;

	a->started = true;
	a->t0 = a->bucket_start = ts;
	for (int cpu = 0; cpu < t->nr_cpu_ids; cpu++) {
		struct cpu_state *c = &a->cpu[cpu];

		if (!t->present[cpu])
			continue;
		if (!c->known) {
			c->known = true;
			c->assumed = true;
			c->pid = 0;
		}
		c->since = ts;
		if (c->pid != 0)
			for (int i = 0; i < c->nunits; i++) {
				struct unit *u = &a->units[c->units[i]];

				if (u->nbusy++ == 0)
					u->since = ts;
			}
	}
}

static bool all_known(struct analysis *a)
{
	for (int cpu = 0; cpu < a->topo.nr_cpu_ids; cpu++)
		if (a->topo.present[cpu] && !a->cpu[cpu].known)
			return false;
	return true;
}

/* ------------------------------------------------------------- events */

static void on_switch(struct analysis *a, struct tep_record *r, int cpu, uint64_t ts)
{
	long long prev, next;
	struct cpu_state *c = &a->cpu[cpu];

	if (!field_num(a->f_prev_pid, r, &prev) || !field_num(a->f_next_pid, r, &next))
		return;
	a->nswitch++;
	if (!a->started) {
		c->known = true;
		c->pid = (int)next;
		return;
	}
	if (c->assumed) {
		/* taken to be idle at window start, but it was running prev */
		if (prev != 0)
			a->assumed_busy_ns += ts - a->t0;
		c->assumed = false;
	}
	cpu_set_busy(a, cpu, next != 0, ts);
	c->pid = (int)next;
}

/*
 * The per-task table, open addressing on the pid.  It holds MAX_TASKS tasks
 * at most, so that memory stays bounded on traces of workloads that fork
 * without end; later tasks are counted together as "other tasks".
 */
static struct task_mig *task_slot(struct analysis *a, int pid)
{
	size_t i;

	if (a->ntasks * 2 >= a->ntask_slots && a->ntasks < MAX_TASKS) {
		size_t n = a->ntask_slots ? a->ntask_slots * 2 : 1024;
		struct task_mig *t = calloc(n, sizeof(*t));

		if (!t)
			return NULL;
		for (i = 0; i < a->ntask_slots; i++) {
			struct task_mig *o = &a->tasks[i];
			size_t j;

			if (!o->pid)
				continue;
			for (j = (size_t)o->pid * 2654435761u % n; t[j].pid; j = (j + 1) % n)
				;
			t[j] = *o;
		}
		free(a->tasks);
		a->tasks = t;
		a->ntask_slots = n;
	}
	for (i = (size_t)pid * 2654435761u % a->ntask_slots; a->tasks[i].pid; i = (i + 1) % a->ntask_slots)
		if (a->tasks[i].pid == pid)
			return &a->tasks[i];
	if (a->ntasks >= MAX_TASKS)
		return NULL;
	a->tasks[i].pid = pid;
	a->ntasks++;
	return &a->tasks[i];
}

static void on_migrate(struct analysis *a, struct tep_record *r)
{
	long long pid, orig, dest;
	struct topology *t = &a->topo;
	struct task_mig *tm;
	int level;

	if (!field_num(a->f_mig_pid, r, &pid) || !field_num(a->f_mig_orig, r, &orig) ||
	    !field_num(a->f_mig_dest, r, &dest))
		return;
	if (orig < 0 || dest < 0 || orig >= t->nr_cpu_ids || dest >= t->nr_cpu_ids ||
	    !t->present[orig] || !t->present[dest]) {
		a->bad_cpu = orig >= 0 && orig < MAX_CPUS && (orig >= t->nr_cpu_ids || !t->present[orig]) ?
			     (int)orig : (int)dest;
		return;
	}
	if (orig == dest)
		return;
	a->nmigrate++;
	if (t->core[orig] == t->core[dest])
		level = 0;
	else if (t->pkg[orig] == t->pkg[dest])
		level = 1;
	else
		level = 2;
	a->mig[level]++;
	a->mig_bucket[level]++;
	if (pid > 0 && pid < (1LL << 30)) {
		tm = task_slot(a, (int)pid);
		if (tm) {
			tm->count[level]++;
			field_str(a->tep, a->f_mig_comm, r, tm->comm, sizeof(tm->comm));
		} else {
			a->mig_other[level]++;
		}
	}
}

static void on_balance_mode(struct analysis *a, struct tep_record *r, uint64_t ts)
{
	char name[NAME_LEN];
	long long mode, why;
	struct domain_stats *ds;
	int m;

	if (!field_str(a->tep, a->f_bm_domain, r, name, sizeof(name)) ||
	    !field_num(a->f_bm_mode, r, &mode) || !field_num(a->f_bm_why, r, &why) ||
	    mode < 0 || mode >= NMODES)
		return;
	a->balance_total++;
	ds = &a->dom[domain_index(a, name)];
	ds->passes[mode]++;
	ds->bucket_passes[mode]++;

	/*
	 * The thrashing timeline: passes that chose between packing and
	 * spreading.  SMT domains and busy cpus always spread, whatever the
	 * load, so they say nothing about the mode; "none" passes neither.
	 */
	if (why == WHY_SMT || why == WHY_BUSY_CPU || mode == 0)
		return;
	m = (int)mode;
	if (ds->mode && ds->mode != m) {
		uint64_t dur = ts - ds->mode_since;
		int b = 0;

		/* bucket b: [2^(b-1), 2^b) ms, b = 0 below 1 ms */
		for (uint64_t ms = dur / 1000000; ms && b < NHIST - 1; ms >>= 1)
			b++;
		a->hist[b]++;
		ds->switches++;
	}
	if (ds->mode != m) {
		ds->mode = m;
		ds->mode_since = ts;
	}
}

static void on_pack(struct analysis *a, struct tep_record *r)
{
	char name[NAME_LEN];
	long long reason, origin;

	if (!field_num(a->f_pk_reason, r, &reason) || reason < 0 || reason >= NREASONS)
		return;
	a->pack_total++;
	if (!field_str(a->tep, a->f_pk_domain, r, name, sizeof(name)))
		name[0] = 0;
	a->dom[domain_index(a, name)].pack[reason]++;
	if (field_num(a->f_pk_origin, r, &origin) && origin >= 0 && origin < NORIGINS)
		a->pack_origin[origin]++;
}

static void on_lazy(struct analysis *a, struct tep_record *r)
{
	char name[NAME_LEN];

	a->lazy_total++;
	if (field_str(a->tep, a->f_lz_domain, r, name, sizeof(name)))
		a->dom[domain_index(a, name)].lazy++;
}

static void on_leader(struct analysis *a, struct tep_record *r)
{
	long long origin;

	if (field_num(a->f_gl_origin, r, &origin) && origin >= 0 && origin < NORIGINS)
		a->leader_origin[origin]++;
}

/*
 * A workload's phase marker, "powersched-phase: NAME begin ..." or
 * "powersched-phase: NAME end", written to trace_marker.
 */
static int phase_marker(struct analysis *a, struct tep_record *r)
{
	static const char prefix[] = "powersched-phase: ";
	struct tep_format_field *f = a->f_print_buf;
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

static int on_record(struct tracecmd_input *h, struct tep_record *r, int cpu, void *data)
{
	struct analysis *a = data;
	uint64_t ts = r->ts;
	int id;

	(void)h;
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
		return 1;	/* stop: the topology does not describe this trace */
	}

	id = tep_data_type(a->tep, r);
	if (!a->started) {
		if (id == a->id.sched_switch)
			on_switch(a, r, cpu, ts);
		if (a->phase) {
			if (id == a->id.print && phase_marker(a, r) == 1) {
				a->phase_begun = true;
				start_window(a, ts);
			}
		} else if (all_known(a) || ts - a->first_ts >= SETTLE_NS) {
			start_window(a, ts);
		}
		return 0;
	}
	if (a->phase && id == a->id.print && phase_marker(a, r) == 2) {
		advance(a, ts);
		a->phase_ended = true;
		return 0;
	}

	advance(a, ts);
	if (id == a->id.sched_switch)
		on_switch(a, r, cpu, ts);
	else if (id == a->id.migrate)
		on_migrate(a, r);
	else if (id == a->id.balance_mode)
		on_balance_mode(a, r, ts);
	else if (id == a->id.pack)
		on_pack(a, r);
	else if (id == a->id.lazy)
		on_lazy(a, r);
	else if (id == a->id.leader)
		on_leader(a, r);
	return 0;
}

static int on_missed(struct tracecmd_input *h, struct tep_event *e,
		     struct tep_record *r, int cpu, void *data)
{
	struct analysis *a = data;

	(void)h; (void)e; (void)cpu;
	a->missed_marks++;
	if (r->missed_events > 0)
		a->missed_known += r->missed_events;
	return 0;
}

/* ------------------------------------------------------------- outputs */

/* dir + "/" + name into buf; false when it does not fit */
static bool join(char *buf, size_t len, const char *dir, const char *name)
{
	size_t dl = strlen(dir), nl = strlen(name);

	if (dl + 1 + nl + 1 > len)
		return false;
	memcpy(buf, dir, dl);
	buf[dl] = '/';
	memcpy(buf + dl + 1, name, nl + 1);
	return true;
}

static FILE *open_out(struct analysis *a, const char *name)
{
	char path[4200];
	FILE *f;

	if (!join(path, sizeof(path), a->outdir, name)) {
		warning("%s: path too long", a->outdir);
		return NULL;
	}
	f = fopen(path, "w");
	if (!f)
		warning("%s: cannot write: %s", path, strerror(errno));
	return f;
}

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", *s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

static void write_headers(struct analysis *a)
{
	struct topology *t = &a->topo;
	char cpus[64];

	snprintf(cpus, sizeof(cpus), "%d cpus", t->ncpus);
	fprintf(a->f_cpu, "# powersched analyze %s: busy share of each cpu per %.0f ms bucket (%s)\n# time_s",
		a->trace, a->bucket / 1e6, cpus);
	for (int cpu = 0; cpu < t->nr_cpu_ids; cpu++)
		if (t->present[cpu])
			fprintf(a->f_cpu, "\tcpu%d", cpu);
	fputc('\n', a->f_cpu);

	fprintf(a->f_core, "# powersched analyze %s: share of each core with a busy cpu per %.0f ms bucket\n# time_s",
		a->trace, a->bucket / 1e6);
	for (int i = 0; i < t->ncores; i++) {
		fprintf(a->f_core, "\tcore%d:", i);
		for (int cpu = 0, first = 1; cpu < t->nr_cpu_ids; cpu++)
			if (t->present[cpu] && t->core[cpu] == i) {
				fprintf(a->f_core, "%s%d", first ? "" : ",", cpu);
				first = 0;
			}
	}
	fputc('\n', a->f_core);

	fprintf(a->f_pkg, "# powersched analyze %s: share of each package with a busy cpu per %.0f ms bucket; system: any cpu busy\n# time_s",
		a->trace, a->bucket / 1e6);
	for (int i = 0; i < t->npkgs; i++)
		fprintf(a->f_pkg, "\tpackage%d", t->pkg_id[i]);
	fprintf(a->f_pkg, "\tsystem\n");

	fprintf(a->f_group, "# powersched analyze %s: share of each sched-domain group with a busy cpu per %.0f ms bucket\n# time_s",
		a->trace, a->bucket / 1e6);
	for (int i = 0; i < t->ngroups; i++)
		fprintf(a->f_group, "\t%s:%s", t->groups[i].domain, t->groups[i].span);
	fputc('\n', a->f_group);

	fprintf(a->f_mig, "# powersched analyze %s: task migrations per %.0f ms bucket by the lowest topology level crossed\n"
		"# time_s\tsmt\tcore\tpackage\n", a->trace, a->bucket / 1e6);

	if (a->have_powersched) {
		fprintf(a->f_modes, "# powersched analyze %s: balance passes per %.0f ms bucket and domain;\n"
			"# mode_D is the domain's mode at the end of the bucket: 1 power (packing), -1 performance (spreading), 0 none yet\n# time_s",
			a->trace, a->bucket / 1e6);
		for (int d = 0; d < t->ndomains; d++)
			fprintf(a->f_modes, "\tmode_%s\tpower_%s\tperformance_%s\tnone_%s",
				t->domains[d], t->domains[d], t->domains[d], t->domains[d]);
		fputc('\n', a->f_modes);
	}
}

static double mean_of(const double *v, int n)
{
	double s = 0;

	for (int i = 0; i < n; i++)
		s += v[i];
	return n ? s / n : 0;
}

static void json_array(FILE *f, const double *v, int n)
{
	fputc('[', f);
	for (int i = 0; i < n; i++)
		fprintf(f, "%s%.4f", i ? ", " : "", v[i]);
	fputc(']', f);
}

static int write_results(struct analysis *a, const char *run_json)
{
	struct topology *t = &a->topo;
	double dur = (double)(a->last_ts - a->t0) / 1e9;
	double cpu_util[MAX_CPUS], core_util[MAX_CPUS], pkg_util[MAX_CPUS];
	double core_idle[MAX_CPUS], pkg_idle[MAX_CPUS], pkg_wake[MAX_CPUS];
	double act_pkgs = 0, act_cores = 0, act_threads = 0, wakeups = 0, watts;
	double max_pkg_idle = 0, min_pkg_idle = 1;
	uint64_t switches = 0, passes[NMODES] = { 0 };
	int n = 0;
	FILE *f;

	for (int cpu = 0; cpu < t->nr_cpu_ids; cpu++)
		if (t->present[cpu]) {
			cpu_util[n] = dur > 0 ? a->cpu[cpu].total_ns / 1e9 / dur : 0;
			act_threads += cpu_util[n++];
		}
	for (int i = 0; i < t->ncores; i++) {
		core_util[i] = dur > 0 ? a->units[a->unit_core + i].total_ns / 1e9 / dur : 0;
		core_idle[i] = 1 - core_util[i];
		act_cores += core_util[i];
	}
	for (int i = 0; i < t->npkgs; i++) {
		struct unit *u = &a->units[a->unit_pkg + i];

		pkg_util[i] = dur > 0 ? u->total_ns / 1e9 / dur : 0;
		pkg_idle[i] = 1 - pkg_util[i];
		pkg_wake[i] = (double)u->wakeups;
		act_pkgs += pkg_util[i];
		wakeups += u->wakeups;
		if (pkg_idle[i] > max_pkg_idle)
			max_pkg_idle = pkg_idle[i];
		if (pkg_idle[i] < min_pkg_idle)
			min_pkg_idle = pkg_idle[i];
	}
	watts = power_model_watts(&a->model, act_pkgs, act_cores, act_threads,
				  dur > 0 ? wakeups / dur : 0);
	for (int d = 0; d <= t->ndomains; d++) {
		switches += a->dom[d].switches;
		for (int m = 0; m < NMODES; m++)
			passes[m] += a->dom[d].passes[m];
	}

	f = open_out(a, "summary.json");
	if (!f)
		return -1;
	fprintf(f, "{\n  \"format\": \"powersched-summary-1\",\n  \"trace\": ");
	json_str(f, a->trace);
	fprintf(f, ",\n  \"kernel\": ");
	json_str(f, t->kernel);
	fprintf(f, ",\n  \"run\": %s,\n", run_json ? run_json : "null");
	fprintf(f, "  \"phase\": ");
	json_str(f, a->phase ? a->phase_name : "");
	fprintf(f, ",\n");
	fprintf(f, "  \"duration_s\": %.6f,\n  \"window_start_s\": %.6f,\n  \"bucket_ms\": %.3f,\n",
		dur, (double)(a->t0 - a->first_ts) / 1e9, a->bucket / 1e6);
	fprintf(f, "  \"records\": %llu,\n  \"sched_switch\": %llu,\n",
		(unsigned long long)a->nrecords, (unsigned long long)a->nswitch);
	fprintf(f, "  \"cpus\": %d,\n  \"cores\": %d,\n  \"packages\": %d,\n", t->ncpus, t->ncores, t->npkgs);
	fprintf(f, "  \"utilization\": {\n    \"cpu\": ");
	json_array(f, cpu_util, n);
	fprintf(f, ",\n    \"core\": ");
	json_array(f, core_util, t->ncores);
	fprintf(f, ",\n    \"package\": ");
	json_array(f, pkg_util, t->npkgs);
	fprintf(f, ",\n    \"mean_cpu\": %.4f,\n    \"busy_cpus\": %.4f\n  },\n", mean_of(cpu_util, n), act_threads);
	fprintf(f, "  \"idle\": {\n    \"core\": ");
	json_array(f, core_idle, t->ncores);
	fprintf(f, ",\n    \"package\": ");
	json_array(f, pkg_idle, t->npkgs);
	fprintf(f, ",\n    \"package_max\": %.4f,\n    \"package_min\": %.4f,\n    \"package_wakeups\": ",
		max_pkg_idle, min_pkg_idle);
	json_array(f, pkg_wake, t->npkgs);
	fprintf(f, "\n  },\n  \"migrations\": { \"total\": %llu, \"smt\": %llu, \"core\": %llu, \"package\": %llu, \"per_s\": %.3f },\n",
		(unsigned long long)a->nmigrate, (unsigned long long)a->mig[0],
		(unsigned long long)a->mig[1], (unsigned long long)a->mig[2],
		dur > 0 ? a->nmigrate / dur : 0);
	if (a->have_powersched) {
		fprintf(f, "  \"modes\": {\n    \"available\": true,\n    \"passes\": { \"power\": %llu, \"performance\": %llu, \"none\": %llu },\n",
			(unsigned long long)passes[1], (unsigned long long)passes[2], (unsigned long long)passes[0]);
		fprintf(f, "    \"switches\": %llu,\n    \"switches_per_s\": %.4f,\n    \"domains\": {",
			(unsigned long long)switches, dur > 0 ? switches / dur : 0);
		for (int d = 0; d < t->ndomains; d++) {
			struct domain_stats *ds = &a->dom[d];

			fprintf(f, "%s\n      ", d ? "," : "");
			json_str(f, t->domains[d]);
			fprintf(f, ": { \"power\": %llu, \"performance\": %llu, \"none\": %llu, \"switches\": %llu, \"switches_per_s\": %.4f, \"lazy_skips\": %llu }",
				(unsigned long long)ds->passes[1], (unsigned long long)ds->passes[2],
				(unsigned long long)ds->passes[0], (unsigned long long)ds->switches,
				dur > 0 ? ds->switches / dur : 0, (unsigned long long)ds->lazy);
		}
		fprintf(f, "\n    },\n    \"mode_duration_hist_ms\": {");
		for (int b = 0; b < NHIST; b++)
			fprintf(f, "%s\"%s%llu\": %llu", b ? ", " : "", b == NHIST - 1 ? ">=" : "<",
				b == NHIST - 1 ? 1ULL << (b - 1) : 1ULL << b, (unsigned long long)a->hist[b]);
		fprintf(f, "}\n  },\n  \"lazy_skips\": %llu,\n  \"pack_decisions\": { \"total\": %llu",
			(unsigned long long)a->lazy_total, (unsigned long long)a->pack_total);
		for (int r = 0; r < NREASONS; r++) {
			uint64_t s = 0;

			for (int d = 0; d <= t->ndomains; d++)
				s += a->dom[d].pack[r];
			fprintf(f, ", \"%s\": %llu", reasons[r], (unsigned long long)s);
		}
		fprintf(f, ", \"by_domain\": {");
		for (int d = 0; d < t->ndomains; d++) {
			fprintf(f, "%s", d ? ", " : "");
			json_str(f, t->domains[d]);
			fprintf(f, ": {");
			for (int r = 0; r < NREASONS; r++)
				fprintf(f, "%s\"%s\": %llu", r ? ", " : "", reasons[r],
					(unsigned long long)a->dom[d].pack[r]);
			fprintf(f, "}");
		}
		fprintf(f, "}, \"by_origin\": {");
		for (int o = 0; o < NORIGINS - 1; o++)
			fprintf(f, "%s\"%s\": %llu", o ? ", " : "", origins[o], (unsigned long long)a->pack_origin[o]);
		fprintf(f, "} },\n");
	} else {
		fprintf(f, "  \"modes\": { \"available\": false, \"note\": \"no powersched events in the trace: mode timeline skipped\" },\n"
			"  \"lazy_skips\": null,\n  \"pack_decisions\": null,\n");
	}
	fprintf(f, "  \"power\": { \"model\": ");
	json_str(f, a->model.path);
	fprintf(f, ", \"watts\": %.3f, \"active_packages\": %.4f, \"active_cores\": %.4f, \"active_threads\": %.4f, \"package_wakeups_per_s\": %.3f },\n",
		watts, act_pkgs, act_cores, act_threads, dur > 0 ? wakeups / dur : 0);
	fprintf(f, "  \"lost_events\": { \"complete\": %s, \"missed_events\": %llu, \"missed_marks\": %llu },\n",
		a->missed_marks ? "false" : "true", (unsigned long long)a->missed_known,
		(unsigned long long)a->missed_marks);
	fprintf(f, "  \"caveats\": { \"out_of_order_records\": %llu, \"busy_counted_idle_s\": %.6f }\n}\n",
		(unsigned long long)a->out_of_order, a->assumed_busy_ns / 1e9);
	fclose(f);

	/* the same figures, flat, for compare and for scripts */
	f = open_out(a, "summary.tsv");
	if (!f)
		return -1;
	fprintf(f, "# powersched analyze %s: key<TAB>value (keys: analysis/FORMATS.md)\n", a->trace);
	fprintf(f, "duration_s\t%.6f\ncpus\t%d\ncores\t%d\npackages\t%d\n", dur, t->ncpus, t->ncores, t->npkgs);
	fprintf(f, "util.mean_cpu\t%.4f\nutil.busy_cpus\t%.4f\n", mean_of(cpu_util, n), act_threads);
	for (int i = 0; i < n; i++)
		fprintf(f, "util.cpu%d\t%.4f\n", i, cpu_util[i]);
	for (int i = 0; i < t->npkgs; i++)
		fprintf(f, "util.package%d\t%.4f\nidle.package%d\t%.4f\n", i, pkg_util[i], i, pkg_idle[i]);
	for (int i = 0; i < t->ncores; i++)
		fprintf(f, "idle.core%d\t%.4f\n", i, core_idle[i]);
	fprintf(f, "idle.package_max\t%.4f\nidle.package_min\t%.4f\n", max_pkg_idle, min_pkg_idle);
	fprintf(f, "migrations.total\t%llu\nmigrations.smt\t%llu\nmigrations.core\t%llu\nmigrations.package\t%llu\n",
		(unsigned long long)a->nmigrate, (unsigned long long)a->mig[0],
		(unsigned long long)a->mig[1], (unsigned long long)a->mig[2]);
	if (a->have_powersched) {
		fprintf(f, "modes.available\t1\nmodes.switches\t%llu\nmodes.switches_per_s\t%.4f\nlazy_skips\t%llu\npack.total\t%llu\n",
			(unsigned long long)switches, dur > 0 ? switches / dur : 0,
			(unsigned long long)a->lazy_total, (unsigned long long)a->pack_total);
		for (int m = 0; m < NMODES; m++)
			fprintf(f, "modes.passes.%s\t%llu\n", mode_names[m], (unsigned long long)passes[m]);
	} else {
		fprintf(f, "modes.available\t0\n");
	}
	fprintf(f, "power.watts\t%.3f\nlost.complete\t%d\nlost.missed_events\t%llu\nlost.missed_marks\t%llu\n",
		watts, a->missed_marks ? 0 : 1, (unsigned long long)a->missed_known,
		(unsigned long long)a->missed_marks);
	fclose(f);

	f = open_out(a, "migrations_by_task.tsv");
	if (f) {
		fprintf(f, "# powersched analyze %s: migrations per task by the lowest topology level crossed\n"
			"# pid\tcomm\tsmt\tcore\tpackage\ttotal\n", a->trace);
		for (size_t i = 0; i < a->ntask_slots; i++) {
			struct task_mig *tm = &a->tasks[i];

			if (tm->pid)
				fprintf(f, "%d\t%s\t%u\t%u\t%u\t%u\n", tm->pid, tm->comm[0] ? tm->comm : "?",
					tm->count[0], tm->count[1], tm->count[2],
					tm->count[0] + tm->count[1] + tm->count[2]);
		}
		if (a->mig_other[0] + a->mig_other[1] + a->mig_other[2])
			fprintf(f, "0\t(other tasks)\t%llu\t%llu\t%llu\t%llu\n",
				(unsigned long long)a->mig_other[0], (unsigned long long)a->mig_other[1],
				(unsigned long long)a->mig_other[2],
				(unsigned long long)(a->mig_other[0] + a->mig_other[1] + a->mig_other[2]));
		fclose(f);
	}
	if (a->have_powersched) {
		f = open_out(a, "mode_durations.tsv");
		if (f) {
			fprintf(f, "# powersched analyze %s: how long a balance mode lasted before the next switch\n"
				"# from_ms\tto_ms\tcount\n", a->trace);
			for (int b = 0; b < NHIST; b++)
				fprintf(f, "%llu\t%llu\t%llu\n", b ? 1ULL << (b - 1) : 0,
					b == NHIST - 1 ? 0 : 1ULL << b, (unsigned long long)a->hist[b]);
			fclose(f);
		}
	}

	/* the short human summary */
	printf("%s: %.2f s, %d cpus in %d package(s), %llu records\n", a->trace, dur, t->ncpus, t->npkgs,
	       (unsigned long long)a->nrecords);
	printf("  busy cpus (mean)      %.2f of %d\n", act_threads, t->ncpus);
	printf("  package idle          ");
	for (int i = 0; i < t->npkgs; i++)
		printf("%s%d: %.1f%%", i ? ", " : "", t->pkg_id[i], 100 * pkg_idle[i]);
	printf("\n  migrations            %llu (smt %llu, core %llu, package %llu)\n",
	       (unsigned long long)a->nmigrate, (unsigned long long)a->mig[0],
	       (unsigned long long)a->mig[1], (unsigned long long)a->mig[2]);
	if (a->have_powersched)
		printf("  balance passes        power %llu, performance %llu, none %llu; %llu mode switches (%.2f/s), %llu lazy skips\n",
		       (unsigned long long)passes[1], (unsigned long long)passes[2], (unsigned long long)passes[0],
		       (unsigned long long)switches, dur > 0 ? switches / dur : 0, (unsigned long long)a->lazy_total);
	else
		printf("  balance modes         skipped: the trace has no powersched events (a kernel without the series?)\n");
	printf("  estimated power       %.1f W (model %s)\n", watts, a->model.path);
	if (a->missed_marks)
		printf("  WARNING: EVENTS WERE LOST: %llu buffer(s) with missed events (%llu events known lost);"
		       " every figure above undercounts\n", (unsigned long long)a->missed_marks,
		       (unsigned long long)a->missed_known);
	if (a->assumed_busy_ns)
		printf("  note: %.3f s of busy time before some cpus' first sched_switch counted as idle\n",
		       a->assumed_busy_ns / 1e9);
	printf("  results in %s\n", a->outdir);
	return 0;
}

/* ------------------------------------------------------------- setup */

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

static int find_id(struct tep_handle *tep, const char *sys, const char *name)
{
	struct tep_event *e = tep_find_event_by_name(tep, sys, name);

	return e ? e->id : -1;
}

static struct tep_format_field *field(struct tep_handle *tep, const char *sys,
				      const char *ev, const char *name)
{
	struct tep_event *e = tep_find_event_by_name(tep, sys, ev);

	return e ? tep_find_field(e, name) : NULL;
}

static int setup_units(struct analysis *a)
{
	struct topology *t = &a->topo;

	a->unit_core = 0;
	a->unit_pkg = t->ncores;
	a->unit_group = a->unit_pkg + t->npkgs;
	a->unit_system = a->unit_group + t->ngroups;
	a->nunits = a->unit_system + 1;
	a->units = calloc(a->nunits, sizeof(*a->units));
	if (!a->units)
		return -1;
	for (int cpu = 0; cpu < t->nr_cpu_ids; cpu++) {
		struct cpu_state *c = &a->cpu[cpu];

		if (!t->present[cpu])
			continue;
		c->units[c->nunits++] = a->unit_core + t->core[cpu];
		c->units[c->nunits++] = a->unit_pkg + t->pkg[cpu];
		for (int g = 0; g < t->ngroups && c->nunits < (int)(sizeof(c->units) / sizeof(c->units[0])) - 1; g++)
			if (mask_test(&t->groups[g].cpus, cpu))
				c->units[c->nunits++] = a->unit_group + g;
		c->units[c->nunits++] = a->unit_system;
	}
	return 0;
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
	struct tracecmd_input *h;
	char err[1024], topo_buf[4200], *dir, *run_json;
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
	if (out)
		snprintf(a->outdir, sizeof(a->outdir), "%s", out);
	else {
		free(dir);
		dir = strdup(a->trace);
		if (!dir)
			return 1;
		snprintf(a->outdir, sizeof(a->outdir), "%s/analysis", dirname(dir));
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

	tracecmd_set_loglevel(TEP_LOG_NONE);
	if (probe_open(a->trace)) {
		warning("%s: not a trace.dat that libtracecmd can read (truncated, corrupt or another format)", a->trace);
		return 1;
	}
	h = tracecmd_open(a->trace, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!h) {
		warning("%s: not a trace.dat that libtracecmd can read (truncated, corrupt or another format)", a->trace);
		return 1;
	}
	a->tep = tracecmd_get_tep(h);
	a->id.sched_switch = find_id(a->tep, "sched", "sched_switch");
	a->id.migrate = find_id(a->tep, "sched", "sched_migrate_task");
	a->id.balance_mode = find_id(a->tep, "powersched", "balance_mode");
	a->id.lazy = find_id(a->tep, "powersched", "lazy_balance_skip");
	a->id.pack = find_id(a->tep, "powersched", "power_pack_decision");
	a->id.leader = find_id(a->tep, "powersched", "group_leader_chosen");
	a->id.print = find_id(a->tep, "ftrace", "print");
	a->f_print_buf = field(a->tep, "ftrace", "print", "buf");
	a->have_powersched = a->id.balance_mode >= 0;

	if (a->id.sched_switch < 0) {
		warning("%s: no sched:sched_switch events in the trace: utilization cannot be computed (record with -e sched:sched_switch)",
			a->trace);
		goto out_close;
	}
	a->f_prev_pid = field(a->tep, "sched", "sched_switch", "prev_pid");
	a->f_next_pid = field(a->tep, "sched", "sched_switch", "next_pid");
	if (!a->f_prev_pid || !a->f_next_pid) {
		warning("%s: sched_switch lacks prev_pid/next_pid: an unknown event format", a->trace);
		goto out_close;
	}
	a->f_mig_pid = field(a->tep, "sched", "sched_migrate_task", "pid");
	a->f_mig_comm = field(a->tep, "sched", "sched_migrate_task", "comm");
	a->f_mig_orig = field(a->tep, "sched", "sched_migrate_task", "orig_cpu");
	a->f_mig_dest = field(a->tep, "sched", "sched_migrate_task", "dest_cpu");
	a->f_bm_domain = field(a->tep, "powersched", "balance_mode", "domain");
	a->f_bm_mode = field(a->tep, "powersched", "balance_mode", "mode");
	a->f_bm_why = field(a->tep, "powersched", "balance_mode", "why");
	a->f_lz_domain = field(a->tep, "powersched", "lazy_balance_skip", "domain");
	a->f_pk_domain = field(a->tep, "powersched", "power_pack_decision", "domain");
	a->f_pk_reason = field(a->tep, "powersched", "power_pack_decision", "reason");
	a->f_pk_origin = field(a->tep, "powersched", "power_pack_decision", "origin");
	a->f_gl_origin = field(a->tep, "powersched", "group_leader_chosen", "origin");

	if (mkdir(a->outdir, 0755) && errno != EEXIST) {
		warning("%s: cannot create the output folder: %s", a->outdir, strerror(errno));
		goto out_close;
	}
	if (setup_units(a))
		goto out_close;
	a->f_cpu = open_out(a, "util_cpu.tsv");
	a->f_core = open_out(a, "util_core.tsv");
	a->f_pkg = open_out(a, "util_package.tsv");
	a->f_group = open_out(a, "util_group.tsv");
	a->f_mig = open_out(a, "migrations.tsv");
	a->f_modes = a->have_powersched ? open_out(a, "modes.tsv") : NULL;
	if (!a->f_cpu || !a->f_core || !a->f_pkg || !a->f_group || !a->f_mig ||
	    (a->have_powersched && !a->f_modes))
		goto out_files;
	write_headers(a);

	tracecmd_follow_missed_events(h, on_missed, a);
	if (tracecmd_iterate_events(h, NULL, 0, on_record, a) < 0) {
		warning("%s: reading the events failed: the trace is truncated or corrupt", a->trace);
		goto out_files;
	}
	if (a->bad_cpu >= 0) {
		warning("%s: inconsistent with %s: events on cpu %d, which the topology does not list (%d cpus)",
			a->trace, topo_path, a->bad_cpu, a->topo.ncpus);
		goto out_files;
	}
	if (!a->nrecords) {
		warning("%s: the trace holds no events", a->trace);
		goto out_files;
	}
	if (!a->nswitch) {
		warning("%s: no sched_switch records: utilization cannot be computed", a->trace);
		goto out_files;
	}
	if (a->phase && !a->phase_begun) {
		warning("%s: --phase: no 'powersched-phase: ... begin' marker in the trace (a workload of workloads/ writes one)",
			a->trace);
		goto out_files;
	}
	if (!a->started || a->last_ts <= a->t0) {
		warning("%s: the trace is too short to analyze (%.3f s of events)", a->trace,
			(a->last_ts - a->first_ts) / 1e9);
		goto out_files;
	}
	flush_bucket(a, a->last_ts);

	run_json = slurp_run_json(a->trace);
	ret = write_results(a, run_json) ? 1 : 0;
	free(run_json);

out_files:
	if (a->f_cpu) fclose(a->f_cpu);
	if (a->f_core) fclose(a->f_core);
	if (a->f_pkg) fclose(a->f_pkg);
	if (a->f_group) fclose(a->f_group);
	if (a->f_mig) fclose(a->f_mig);
	if (a->f_modes) fclose(a->f_modes);
	if (ret) {
		/* no partial output passed off as complete */
		const char *names[] = { "util_cpu.tsv", "util_core.tsv", "util_package.tsv", "util_group.tsv",
					"migrations.tsv", "modes.tsv", "summary.json", "summary.tsv",
					"migrations_by_task.tsv", "mode_durations.tsv" };
		char path[4200];

		for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
			if (join(path, sizeof(path), a->outdir, names[i]))
				unlink(path);
		}
	}
out_close:
	free(a->units);
	free(a->tasks);
	tracecmd_close(h);
	return ret;
}
