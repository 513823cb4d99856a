// SPDX-License-Identifier: GPL-2.0
/*
 * The timelines: one row per bucket in each per-bucket TSV file
 * (util_cpu, util_core, util_package, util_group, migrations, modes,
 * runnable, idle_waiting), with '#' header lines that name the columns;
 * and the per-task tables, a row per task as it exits (migrations_by_task,
 * latency_by_task).  Formats: analysis/FORMATS.md.
 */
#include <string.h>

#include "analyze.h"

static void write_headers(struct analysis *a)
{
	struct topology *t = &a->topo;
	struct timeline *tl = &a->tl;
	char cpus[64];

	snprintf(cpus, sizeof(cpus), "%d cpus", t->ncpus);
	fprintf(tl->cpu->f, "# powersched analyze %s: busy share of each cpu per %g ms bucket (%s)\n# time_s",
		a->trace, a->bucket / 1e6, cpus);
	for (int cpu = 0; cpu < t->nr_cpu_ids; cpu++)
		if (t->present[cpu])
			fprintf(tl->cpu->f, "\tcpu%d", cpu);
	fputc('\n', tl->cpu->f);

	fprintf(tl->core->f, "# powersched analyze %s: share of each core with a busy cpu per %g ms bucket\n# time_s",
		a->trace, a->bucket / 1e6);
	for (int i = 0; i < t->ncores; i++) {
		fprintf(tl->core->f, "\tcore%d:", t->core_id[i]);
		for (int cpu = 0, first = 1; cpu < t->nr_cpu_ids; cpu++)
			if (t->present[cpu] && t->core[cpu] == i) {
				fprintf(tl->core->f, "%s%d", first ? "" : ",", cpu);
				first = 0;
			}
	}
	fputc('\n', tl->core->f);

	fprintf(tl->pkg->f, "# powersched analyze %s: share of each package with a busy cpu per %g ms bucket; system: any cpu busy\n# time_s",
		a->trace, a->bucket / 1e6);
	for (int i = 0; i < t->npkgs; i++)
		fprintf(tl->pkg->f, "\tpackage%d", t->pkg_id[i]);
	fprintf(tl->pkg->f, "\tsystem\n");

	fprintf(tl->group->f, "# powersched analyze %s: share of each sched-domain group with a busy cpu per %g ms bucket\n# time_s",
		a->trace, a->bucket / 1e6);
	for (int i = 0; i < t->ngroups; i++)
		fprintf(tl->group->f, "\t%s:%s", t->groups[i].domain, t->groups[i].span);
	fputc('\n', tl->group->f);

	fprintf(tl->mig->f, "# powersched analyze %s: task migrations per %g ms bucket by the lowest topology level crossed,\n"
		"# then by cause (analysis/FORMATS.md)\n# time_s\tsmt\tcore\tpackage", a->trace, a->bucket / 1e6);
	for (int c = 0; c < NCAUSES; c++)
		fprintf(tl->mig->f, "\t%s", cause_keys[c]);
	fputc('\n', tl->mig->f);

	fprintf(tl->runnable->f, "# powersched analyze %s: runnable tasks (running and waiting) of each cpu, mean over each %g ms bucket\n# time_s",
		a->trace, a->bucket / 1e6);
	for (int cpu = 0; cpu < t->nr_cpu_ids; cpu++)
		if (t->present[cpu])
			fprintf(tl->runnable->f, "\tcpu%d", cpu);
	fputc('\n', tl->runnable->f);

	fprintf(tl->iww->f, "# powersched analyze %s: idle while waiting, share of each %g ms bucket: a cpu idle while another\n"
		"# has a task waiting, in a domain of each level, in each package, in the system\n# time_s",
		a->trace, a->bucket / 1e6);
	for (int d = 0; d < t->ndomains; d++)
		fprintf(tl->iww->f, "\t%s", t->domains[d]);
	for (int i = 0; i < t->npkgs; i++)
		fprintf(tl->iww->f, "\tpackage%d", t->pkg_id[i]);
	fputs("\tsystem\n", tl->iww->f);

	fprintf(tl->task_mig->f, "# powersched analyze %s: migrations per task by the lowest topology level crossed\n"
		"# pid\tcomm\tsmt\tcore\tpackage\ttotal\n", a->trace);
	fprintf(tl->task_lat->f, "# powersched analyze %s: per task, wakeup latency (sched_wakeup to running) and runqueue\n"
		"# waits (runnable to running), in microseconds; quantiles are bin upper bounds (analysis/FORMATS.md)\n"
		"# pid\tcomm\twakeups\twake_p50_us\twake_p90_us\twake_p99_us\twake_max_us"
		"\twaits\twait_s\twait_p50_us\twait_p90_us\twait_p99_us\twait_max_us\n", a->trace);

	if (tl->modes) {
		fprintf(tl->modes->f, "# powersched analyze %s: balance passes per %g ms bucket and domain;\n"
			"# mode_D is the domain's mode at the end of the bucket: 1 power (packing), -1 performance (spreading), 0 none yet\n# time_s",
			a->trace, a->bucket / 1e6);
		for (int d = 0; d < t->ndomains; d++)
			fprintf(tl->modes->f, "\tmode_%s\tpower_%s\tperformance_%s\tnone_%s",
				t->domains[d], t->domains[d], t->domains[d], t->domains[d]);
		fputc('\n', tl->modes->f);
	}
}

int timeline_open(struct analysis *a)
{
	struct timeline *tl = &a->tl;

	tl->cpu = output_open(&a->outs, "util_cpu.tsv");
	tl->core = output_open(&a->outs, "util_core.tsv");
	tl->pkg = output_open(&a->outs, "util_package.tsv");
	tl->group = output_open(&a->outs, "util_group.tsv");
	tl->mig = output_open(&a->outs, "migrations.tsv");
	tl->runnable = output_open(&a->outs, "runnable.tsv");
	tl->iww = output_open(&a->outs, "idle_waiting.tsv");
	tl->task_mig = output_open(&a->outs, "migrations_by_task.tsv");
	tl->task_lat = output_open(&a->outs, "latency_by_task.tsv");
	tl->pingpong = output_open(&a->outs, "pingpong.tsv");
	tl->modes = a->modes.available ? output_open(&a->outs, "modes.tsv") : NULL;
	if (!tl->cpu || !tl->core || !tl->pkg || !tl->group || !tl->mig || !tl->runnable ||
	    !tl->iww || !tl->task_mig || !tl->task_lat || !tl->pingpong ||
	    (a->modes.available && !tl->modes))
		return -1;
	write_headers(a);
	pingpong_header(a);
	return 0;
}

/*
 * The rows are the bulk of the output: numbers are formatted here with
 * integer arithmetic (a share is num/den rounded to 4 decimals exactly)
 * into a line buffer written at once, rather than through printf.
 */
struct line {
	char buf[16384];
	char *p;
};

static char *put_u64(char *p, uint64_t v)
{
	char tmp[24];
	int n = 0;

	do {
		tmp[n++] = '0' + v % 10;
		v /= 10;
	} while (v);
	while (n)
		*p++ = tmp[--n];
	return p;
}

/* "\tI.FFFF": @num / @den to 4 decimals, rounded half up */
static void put_share(struct line *l, uint64_t num, uint64_t den)
{
	uint64_t x = den ? (num * 20000 / den + 1) / 2 : 0;
	char *p = l->p;

	if (l->p > l->buf + sizeof(l->buf) - 48)
		return;		/* cannot happen: rows are shorter than the buffer */
	*p++ = '\t';
	p = put_u64(p, x / 10000);
	x %= 10000;
	*p++ = '.';
	*p++ = '0' + x / 1000;
	*p++ = '0' + x / 100 % 10;
	*p++ = '0' + x / 10 % 10;
	*p++ = '0' + x % 10;
	l->p = p;
}

static void put_count(struct line *l, uint64_t v)
{
	if (l->p > l->buf + sizeof(l->buf) - 48)
		return;
	*l->p++ = '\t';
	l->p = put_u64(l->p, v);
}

static void put_text(struct line *l, const char *s)
{
	size_t n = strlen(s);

	if (l->p + n > l->buf + sizeof(l->buf) - 48)
		return;
	memcpy(l->p, s, n);
	l->p += n;
}

/* time_s of the bucket starting at @start, with a->time_decimals digits */
static void line_start(struct line *l, struct analysis *a, uint64_t start)
{
	uint64_t ns = start - a->t0, unit = 1, frac;
	int d = a->time_decimals;

	for (int i = d; i < 9; i++)
		unit *= 10;
	ns = (ns + unit / 2) / unit;	/* in units of 10^-d s */
	l->p = put_u64(l->buf, ns / (1000000000 / unit));
	frac = ns % (1000000000 / unit);
	*l->p++ = '.';
	for (int i = d - 1; i >= 0; i--) {
		l->p[i] = '0' + frac % 10;
		frac /= 10;
	}
	l->p += d;
}

static void line_end(struct line *l, struct output *o)
{
	*l->p++ = '\n';
	fwrite(l->buf, 1, l->p - l->buf, o->f);
}

/* The rows of the bucket [start, end), which busy.c has just closed. */
void timeline_row(struct analysis *a, uint64_t start, uint64_t end)
{
	static struct line l;
	struct topology *t = &a->topo;
	struct timeline *tl = &a->tl;
	struct busy *b = &a->busy;
	struct waiting *w = &a->wait;
	uint64_t len = end - start;
	int i;

	line_start(&l, a, start);
	for (int cpu = 0; cpu < t->nr_cpu_ids; cpu++)
		if (t->present[cpu]) {
			if (b->cpu[cpu].known)
				put_share(&l, b->cpu[cpu].bucket_ns, len);
			else
				put_text(&l, "\tnan");	/* unknown: see busy.h */
		}
	line_end(&l, tl->cpu);

	line_start(&l, a, start);
	for (i = 0; i < t->ncores; i++)
		put_share(&l, b->units[b->unit_core + i].bucket_ns, len);
	line_end(&l, tl->core);

	line_start(&l, a, start);
	for (i = 0; i < t->npkgs; i++)
		put_share(&l, b->units[b->unit_pkg + i].bucket_ns, len);
	put_share(&l, b->units[b->unit_system].bucket_ns, len);
	line_end(&l, tl->pkg);

	line_start(&l, a, start);
	for (i = 0; i < t->ngroups; i++)
		put_share(&l, b->units[b->unit_group + i].bucket_ns, len);
	line_end(&l, tl->group);

	line_start(&l, a, start);
	for (i = 0; i < NLEVELS; i++)
		put_count(&l, a->mig.bucket[i]);
	for (i = 0; i < NCAUSES; i++)
		put_count(&l, a->mig.cause_bucket[i]);
	line_end(&l, tl->mig);

	line_start(&l, a, start);
	for (int cpu = 0; cpu < t->nr_cpu_ids; cpu++)
		if (t->present[cpu]) {
			if (w->known[cpu])
				put_share(&l, w->area_bucket[cpu], len);
			else
				put_text(&l, "\tnan");
		}
	line_end(&l, tl->runnable);

	line_start(&l, a, start);
	for (int d = 0; d < t->ndomains; d++)
		put_share(&l, w->level[d].bucket_ns, len);
	for (i = 0; i < t->npkgs; i++)
		put_share(&l, w->units[w->unit_pkg + i].bucket_ns, len);
	put_share(&l, w->units[w->unit_system].bucket_ns, len);
	line_end(&l, tl->iww);

	if (tl->modes) {
		line_start(&l, a, start);
		for (int d = 0; d < t->ndomains; d++) {
			struct domain_stats *ds = &a->modes.dom[d];

			put_text(&l, ds->mode == PS_MODE_POWER ? "\t1" : ds->mode == PS_MODE_PERFORMANCE ? "\t-1" : "\t0");
			put_count(&l, ds->bucket_passes[PS_MODE_POWER]);
			put_count(&l, ds->bucket_passes[PS_MODE_PERFORMANCE]);
			put_count(&l, ds->bucket_passes[PS_MODE_NONE]);
		}
		line_end(&l, tl->modes);
	}
}

static double us(uint64_t ns)
{
	return ns / 1e3;
}

/* A task's rows of the per-task tables: it exited, or the trace ended. */
void timeline_task_row(void *ctx, struct task *t)
{
	struct analysis *a = ctx;
	struct timeline *tl = &a->tl;
	uint32_t mig = t->mig[0] + t->mig[1] + t->mig[2];
	const char *comm = t->comm[0] ? t->comm : "?";

	if (!tl->task_mig)
		return;
	if (mig)
		fprintf(tl->task_mig->f, "%d\t%s\t%u\t%u\t%u\t%u\n", t->pid, comm,
			t->mig[0], t->mig[1], t->mig[2], mig);
	if (t->wait && t->wait->count) {
		struct hist empty = { 0 }, *w = t->wake ? t->wake : &empty;

		fprintf(tl->task_lat->f, "%d\t%s\t%llu\t%.1f\t%.1f\t%.1f\t%.1f\t%llu\t%.6f\t%.1f\t%.1f\t%.1f\t%.1f\n",
			t->pid, comm, (unsigned long long)w->count, us(hist_quantile(w, 0.5)),
			us(hist_quantile(w, 0.9)), us(hist_quantile(w, 0.99)), us(w->max_ns),
			(unsigned long long)t->wait->count, t->wait->sum_ns / 1e9,
			us(hist_quantile(t->wait, 0.5)), us(hist_quantile(t->wait, 0.9)),
			us(hist_quantile(t->wait, 0.99)), us(t->wait->max_ns));
	}
}

/* Closes every timeline file; -1 when one of them could not be written. */
int timeline_close(struct analysis *a)
{
	struct timeline *tl = &a->tl;
	struct tasks *ts = &a->wait.tasks;
	struct migrations *m = &a->mig;
	int ret = 0;

	/* the tasks still alive at the end */
	for (uint32_t i = 0; tl->task_mig && i < ts->nslots; i++)
		if (ts->slot[i].pid)
			timeline_task_row(a, &ts->slot[i]);
	if (tl->task_mig && m->other[0] + m->other[1] + m->other[2])
		fprintf(tl->task_mig->f, "0\t(other tasks)\t%llu\t%llu\t%llu\t%llu\n",
			(unsigned long long)m->other[0], (unsigned long long)m->other[1],
			(unsigned long long)m->other[2],
			(unsigned long long)(m->other[0] + m->other[1] + m->other[2]));
	ret |= output_close(tl->cpu);
	ret |= output_close(tl->core);
	ret |= output_close(tl->pkg);
	ret |= output_close(tl->group);
	ret |= output_close(tl->mig);
	ret |= output_close(tl->modes);
	ret |= output_close(tl->runnable);
	ret |= output_close(tl->iww);
	ret |= output_close(tl->task_mig);
	ret |= output_close(tl->task_lat);
	ret |= output_close(tl->pingpong);
	*tl = (struct timeline){ 0 };
	return ret ? -1 : 0;
}
