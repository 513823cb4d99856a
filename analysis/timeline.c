// SPDX-License-Identifier: GPL-2.0
/*
 * The timelines: one row per bucket in each per-bucket TSV file
 * (util_cpu, util_core, util_package, util_group, migrations, modes), with
 * '#' header lines that name the columns.  Formats: analysis/FORMATS.md.
 */
#include "analyze.h"

static void write_headers(struct analysis *a)
{
	struct topology *t = &a->topo;
	struct timeline *tl = &a->tl;
	char cpus[64];

	snprintf(cpus, sizeof(cpus), "%d cpus", t->ncpus);
	fprintf(tl->cpu->f, "# powersched analyze %s: busy share of each cpu per %.0f ms bucket (%s)\n# time_s",
		a->trace, a->bucket / 1e6, cpus);
	for (int cpu = 0; cpu < t->nr_cpu_ids; cpu++)
		if (t->present[cpu])
			fprintf(tl->cpu->f, "\tcpu%d", cpu);
	fputc('\n', tl->cpu->f);

	fprintf(tl->core->f, "# powersched analyze %s: share of each core with a busy cpu per %.0f ms bucket\n# time_s",
		a->trace, a->bucket / 1e6);
	for (int i = 0; i < t->ncores; i++) {
		fprintf(tl->core->f, "\tcore%d:", i);
		for (int cpu = 0, first = 1; cpu < t->nr_cpu_ids; cpu++)
			if (t->present[cpu] && t->core[cpu] == i) {
				fprintf(tl->core->f, "%s%d", first ? "" : ",", cpu);
				first = 0;
			}
	}
	fputc('\n', tl->core->f);

	fprintf(tl->pkg->f, "# powersched analyze %s: share of each package with a busy cpu per %.0f ms bucket; system: any cpu busy\n# time_s",
		a->trace, a->bucket / 1e6);
	for (int i = 0; i < t->npkgs; i++)
		fprintf(tl->pkg->f, "\tpackage%d", t->pkg_id[i]);
	fprintf(tl->pkg->f, "\tsystem\n");

	fprintf(tl->group->f, "# powersched analyze %s: share of each sched-domain group with a busy cpu per %.0f ms bucket\n# time_s",
		a->trace, a->bucket / 1e6);
	for (int i = 0; i < t->ngroups; i++)
		fprintf(tl->group->f, "\t%s:%s", t->groups[i].domain, t->groups[i].span);
	fputc('\n', tl->group->f);

	fprintf(tl->mig->f, "# powersched analyze %s: task migrations per %.0f ms bucket by the lowest topology level crossed\n"
		"# time_s\tsmt\tcore\tpackage\n", a->trace, a->bucket / 1e6);

	if (tl->modes) {
		fprintf(tl->modes->f, "# powersched analyze %s: balance passes per %.0f ms bucket and domain;\n"
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
	tl->modes = a->modes.available ? output_open(&a->outs, "modes.tsv") : NULL;
	if (!tl->cpu || !tl->core || !tl->pkg || !tl->group || !tl->mig ||
	    (a->modes.available && !tl->modes))
		return -1;
	write_headers(a);
	return 0;
}

static void row_start(FILE *f, struct analysis *a, uint64_t start)
{
	fprintf(f, "%.3f", (double)(start - a->t0) / 1e9);
}

/* The rows of the bucket [start, end), which busy.c has just closed. */
void timeline_row(struct analysis *a, uint64_t start, uint64_t end)
{
	struct topology *t = &a->topo;
	struct timeline *tl = &a->tl;
	struct busy *b = &a->busy;
	double len = (double)(end - start);
	int i;

	row_start(tl->cpu->f, a, start);
	for (int cpu = 0; cpu < t->nr_cpu_ids; cpu++)
		if (t->present[cpu])
			fprintf(tl->cpu->f, "\t%.4f", b->cpu[cpu].bucket_ns / len);
	fputc('\n', tl->cpu->f);

	row_start(tl->core->f, a, start);
	for (i = 0; i < t->ncores; i++)
		fprintf(tl->core->f, "\t%.4f", b->units[b->unit_core + i].bucket_ns / len);
	fputc('\n', tl->core->f);

	row_start(tl->pkg->f, a, start);
	for (i = 0; i < t->npkgs; i++)
		fprintf(tl->pkg->f, "\t%.4f", b->units[b->unit_pkg + i].bucket_ns / len);
	fprintf(tl->pkg->f, "\t%.4f\n", b->units[b->unit_system].bucket_ns / len);

	row_start(tl->group->f, a, start);
	for (i = 0; i < t->ngroups; i++)
		fprintf(tl->group->f, "\t%.4f", b->units[b->unit_group + i].bucket_ns / len);
	fputc('\n', tl->group->f);

	row_start(tl->mig->f, a, start);
	for (i = 0; i < NLEVELS; i++)
		fprintf(tl->mig->f, "\t%llu", (unsigned long long)a->mig.bucket[i]);
	fputc('\n', tl->mig->f);

	if (tl->modes) {
		row_start(tl->modes->f, a, start);
		for (int d = 0; d < t->ndomains; d++) {
			struct domain_stats *ds = &a->modes.dom[d];

			fprintf(tl->modes->f, "\t%d\t%llu\t%llu\t%llu",
				ds->mode == PS_MODE_POWER ? 1 : ds->mode == PS_MODE_PERFORMANCE ? -1 : 0,
				(unsigned long long)ds->bucket_passes[PS_MODE_POWER],
				(unsigned long long)ds->bucket_passes[PS_MODE_PERFORMANCE],
				(unsigned long long)ds->bucket_passes[PS_MODE_NONE]);
		}
		fputc('\n', tl->modes->f);
	}
}

/* Closes every timeline file; -1 when one of them could not be written. */
int timeline_close(struct analysis *a)
{
	struct timeline *tl = &a->tl;
	int ret = 0;

	ret |= output_close(tl->cpu);
	ret |= output_close(tl->core);
	ret |= output_close(tl->pkg);
	ret |= output_close(tl->group);
	ret |= output_close(tl->mig);
	ret |= output_close(tl->modes);
	*tl = (struct timeline){ 0 };
	return ret ? -1 : 0;
}
