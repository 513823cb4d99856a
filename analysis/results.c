// SPDX-License-Identifier: GPL-2.0
/*
 * The results of an analysis: its figures put into the summary table
 * (summary.h), summary.json and summary.tsv written from it, and the
 * human summary printed from it.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "summary.h"

static const char * const reason_keys[NREASONS] = {
	"leader", "idlest", "local", "burst", "domain_full", "no_room",
};

static double share(uint64_t ns, double dur)
{
	return dur > 0 ? ns / 1e9 / dur : 0;
}

static double per_s(uint64_t n, double dur)
{
	return dur > 0 ? n / dur : 0;
}

static void fill_modes(struct analysis *a, struct summary *s, double dur)
{
	struct topology *t = &a->topo;
	struct modes *md = &a->modes;
	uint64_t switches = 0, passes[NMODES] = { 0 };
	char path[256], key[256];

	if (!md->available) {
		st_style(s, "modes", ST_SPACED);
		st_bool(s, "modes.available", NULL, false);
		st_str(s, "modes.note", NULL, "no powersched events in the trace: mode timeline skipped");
		st_null(s, "lazy_skips");
		st_null(s, "pack_decisions");
		return;
	}
	for (int d = 0; d <= t->ndomains; d++) {
		switches += md->dom[d].switches;
		for (int m = 0; m < NMODES; m++)
			passes[m] += md->dom[d].passes[m];
	}
	st_bool(s, "modes.available", NULL, true);
	st_style(s, "modes.passes", ST_SPACED);
	for (int m = 0; m < NMODES; m++) {
		int mm = (m + 1) % NMODES;	/* power, performance, none */

		snprintf(path, sizeof(path), "modes.passes.%s", ps_modes[mm].key);
		st_int(s, path, NULL, passes[mm]);
	}
	st_int(s, "modes.switches", NULL, switches);
	st_num(s, "modes.switches_per_s", NULL, per_s(switches, dur), 4);
	for (int d = 0; d < t->ndomains; d++) {
		struct domain_stats *ds = &md->dom[d];

		snprintf(path, sizeof(path), "modes.domains.%s", t->domains[d]);
		st_style(s, path, ST_SPACED);
		for (int m = 0; m < NMODES; m++) {
			int mm = (m + 1) % NMODES;

			snprintf(path, sizeof(path), "modes.domains.%s.%s", t->domains[d], ps_modes[mm].key);
			st_int(s, path, NULL, ds->passes[mm]);
		}
		snprintf(path, sizeof(path), "modes.domains.%s.switches", t->domains[d]);
		st_int(s, path, NULL, ds->switches);
		snprintf(path, sizeof(path), "modes.domains.%s.switches_per_s", t->domains[d]);
		st_num(s, path, NULL, per_s(ds->switches, dur), 4);
		snprintf(path, sizeof(path), "modes.domains.%s.lazy_skips", t->domains[d]);
		st_int(s, path, NULL, ds->lazy);
	}
	st_style(s, "modes.mode_duration_hist_ms", ST_TIGHT);
	for (int b = 0; b < NHIST; b++) {
		snprintf(path, sizeof(path), "modes.mode_duration_hist_ms.%s%llu", b == NHIST - 1 ? ">=" : "<",
			 b == NHIST - 1 ? 1ULL << (b - 1) : 1ULL << b);
		st_int(s, path, NULL, md->hist[b]);
	}
	st_int(s, "lazy_skips", NULL, md->lazy_total);

	st_style(s, "pack_decisions", ST_SPACED);
	st_int(s, "pack_decisions.total", "pack.total", md->pack_total);
	for (int r = 0; r < NREASONS; r++) {
		uint64_t n = 0;

		for (int d = 0; d <= t->ndomains; d++)
			n += md->dom[d].pack[r];
		snprintf(path, sizeof(path), "pack_decisions.%s", reason_keys[r]);
		snprintf(key, sizeof(key), "pack.%s", reason_keys[r]);
		st_int(s, path, key, n);
	}
	for (int d = 0; d < t->ndomains; d++)
		for (int r = 0; r < NREASONS; r++) {
			snprintf(path, sizeof(path), "pack_decisions.by_domain.%s.%s", t->domains[d], reason_keys[r]);
			snprintf(key, sizeof(key), "pack.by_domain.%s.%s", t->domains[d], reason_keys[r]);
			st_int(s, path, key, md->dom[d].pack[r]);
		}
	for (int o = 0; o < NORIGINS - 1; o++) {
		snprintf(path, sizeof(path), "pack_decisions.by_origin.%s", ps_origins[o].key);
		snprintf(key, sizeof(key), "pack.by_origin.%s", ps_origins[o].key);
		st_int(s, path, key, md->pack_origin[o]);
	}
}

/* Every figure of the analysis, in the order of summary.json. */
static void fill(struct analysis *a, struct summary *s, const char *run_json)
{
	struct topology *t = &a->topo;
	struct busy *b = &a->busy;
	double dur = (double)(a->last_ts - a->t0) / 1e9;
	double act_pkgs = 0, act_cores = 0, act_threads = 0, wakeups = 0;
	double max_pkg_idle = 0, min_pkg_idle = 1;
	char key[64];
	int n = 0;

	st_str(s, "format", NULL, "powersched-summary-1");
	st_str(s, "trace", NULL, a->trace);
	st_str(s, "kernel", NULL, t->kernel);
	if (run_json)
		st_json(s, "run", NULL, run_json);
	else
		st_null(s, "run");
	st_str(s, "phase", NULL, a->phase ? a->phase_name : "");
	st_num(s, "duration_s", NULL, dur, 6);
	st_num(s, "window_start_s", NULL, (double)(a->t0 - a->first_ts) / 1e9, 6);
	st_num(s, "bucket_ms", NULL, a->bucket / 1e6, 3);
	st_int(s, "records", NULL, a->nrecords);
	st_int(s, "sched_switch", NULL, a->nswitch);
	st_int(s, "cpus", NULL, t->ncpus);
	st_int(s, "cores", NULL, t->ncores);
	st_int(s, "packages", NULL, t->npkgs);

	for (int cpu = 0; cpu < t->nr_cpu_ids; cpu++)
		if (t->present[cpu]) {
			double u = share(b->cpu[cpu].total_ns, dur);

			snprintf(key, sizeof(key), "util.cpu%d", n++);
			st_elem(s, "utilization.cpu", key, u, 4);
			act_threads += u;
		}
	for (int i = 0; i < t->ncores; i++) {
		double u = share(b->units[b->unit_core + i].total_ns, dur);

		snprintf(key, sizeof(key), "util.core%d", i);
		st_elem(s, "utilization.core", key, u, 4);
		act_cores += u;
	}
	for (int i = 0; i < t->npkgs; i++) {
		struct busy_unit *u = &b->units[b->unit_pkg + i];
		double util = share(u->total_ns, dur);

		snprintf(key, sizeof(key), "util.package%d", i);
		st_elem(s, "utilization.package", key, util, 4);
		act_pkgs += util;
		wakeups += u->wakeups;
		if (1 - util > max_pkg_idle)
			max_pkg_idle = 1 - util;
		if (1 - util < min_pkg_idle)
			min_pkg_idle = 1 - util;
	}
	st_num(s, "utilization.mean_cpu", "util.mean_cpu", n ? act_threads / n : 0, 4);
	st_num(s, "utilization.busy_cpus", "util.busy_cpus", act_threads, 4);

	for (int i = 0; i < t->ncores; i++) {
		snprintf(key, sizeof(key), "idle.core%d", i);
		st_elem(s, "idle.core", key, 1 - share(b->units[b->unit_core + i].total_ns, dur), 4);
	}
	for (int i = 0; i < t->npkgs; i++) {
		snprintf(key, sizeof(key), "idle.package%d", i);
		st_elem(s, "idle.package", key, 1 - share(b->units[b->unit_pkg + i].total_ns, dur), 4);
	}
	st_num(s, "idle.package_max", NULL, max_pkg_idle, 4);
	st_num(s, "idle.package_min", NULL, min_pkg_idle, 4);
	for (int i = 0; i < t->npkgs; i++) {
		snprintf(key, sizeof(key), "idle.package_wakeups%d", i);
		st_elem(s, "idle.package_wakeups", key, (double)b->units[b->unit_pkg + i].wakeups, 4);
	}

	st_style(s, "migrations", ST_SPACED);
	st_int(s, "migrations.total", NULL, a->mig.total);
	st_int(s, "migrations.smt", NULL, a->mig.level[0]);
	st_int(s, "migrations.core", NULL, a->mig.level[1]);
	st_int(s, "migrations.package", NULL, a->mig.level[2]);
	st_num(s, "migrations.per_s", NULL, per_s(a->mig.total, dur), 3);

	fill_modes(a, s, dur);

	st_style(s, "power", ST_SPACED);
	st_str(s, "power.model", NULL, a->model.path);
	st_num(s, "power.watts", NULL,
	       power_model_watts(&a->model, act_pkgs, act_cores, act_threads, per_s(wakeups, dur)), 3);
	st_num(s, "power.active_packages", NULL, act_pkgs, 4);
	st_num(s, "power.active_cores", NULL, act_cores, 4);
	st_num(s, "power.active_threads", NULL, act_threads, 4);
	st_num(s, "power.package_wakeups_per_s", NULL, per_s(wakeups, dur), 3);

	st_style(s, "lost_events", ST_SPACED);
	st_bool(s, "lost_events.complete", "lost.complete", !a->missed_marks);
	st_int(s, "lost_events.missed_events", "lost.missed_events", a->missed_known);
	st_int(s, "lost_events.missed_marks", "lost.missed_marks", a->missed_marks);

	st_style(s, "caveats", ST_SPACED);
	st_int(s, "caveats.out_of_order_records", NULL, a->out_of_order);
	st_num(s, "caveats.busy_counted_idle_s", NULL, b->assumed_busy_ns / 1e9, 6);
}

/* The short human summary, from the table only. */
static void print_human(struct analysis *a, const struct summary *s)
{
	struct topology *t = &a->topo;
	int ncpus = st_int_of(s, "cpus"), npkgs = st_int_of(s, "packages");

	printf("%s: %.2f s, %d cpus in %d package(s), %lld records\n", a->trace,
	       st_num_of(s, "duration_s"), ncpus, npkgs, st_int_of(s, "records"));
	printf("  busy cpus (mean)      %.2f of %d\n", st_num_of(s, "utilization.busy_cpus"), ncpus);
	printf("  package idle          ");
	for (int i = 0; i < npkgs; i++) {
		const struct st_entry *e = st_get_elem(s, "idle.package", i);

		printf("%s%d: %.1f%%", i ? ", " : "", t->pkg_id[i], e ? 100 * e->d : NAN);
	}
	printf("\n  migrations            %lld (smt %lld, core %lld, package %lld)\n",
	       st_int_of(s, "migrations.total"), st_int_of(s, "migrations.smt"),
	       st_int_of(s, "migrations.core"), st_int_of(s, "migrations.package"));
	if (st_int_of(s, "modes.available"))
		printf("  balance passes        power %lld, performance %lld, none %lld; %lld mode switches (%.2f/s), %lld lazy skips\n",
		       st_int_of(s, "modes.passes.power"), st_int_of(s, "modes.passes.performance"),
		       st_int_of(s, "modes.passes.none"), st_int_of(s, "modes.switches"),
		       st_num_of(s, "modes.switches_per_s"), st_int_of(s, "lazy_skips"));
	else
		printf("  balance modes         skipped: the trace has no powersched events (a kernel without the series?)\n");
	printf("  estimated power       %.1f W (model %s)\n", st_num_of(s, "power.watts"),
	       st_get(s, "power.model")->s);
	if (!st_int_of(s, "lost_events.complete"))
		printf("  WARNING: EVENTS WERE LOST: %lld buffer(s) with missed events (%lld events known lost);"
		       " every figure above undercounts\n", st_int_of(s, "lost_events.missed_marks"),
		       st_int_of(s, "lost_events.missed_events"));
	if (st_num_of(s, "caveats.busy_counted_idle_s") > 0)
		printf("  note: %.3f s of busy time before some cpus' first sched_switch counted as idle\n",
		       st_num_of(s, "caveats.busy_counted_idle_s"));
	printf("  results in %s\n", a->outs.dir);
}

static int write_table(struct analysis *a, const struct summary *s)
{
	struct output *o = output_open(&a->outs, "summary.json");
	char title[4200];

	if (!o)
		return -1;
	st_write_json(s, o->f);
	if (output_close(o))
		return -1;
	o = output_open(&a->outs, "summary.tsv");
	if (!o)
		return -1;
	snprintf(title, sizeof(title), "powersched analyze %s", a->trace);
	st_write_tsv(s, o->f, title);
	return output_close(o);
}

int results_write(struct analysis *a, const char *run_json)
{
	struct summary s;
	int ret = -1;

	st_init(&s);
	fill(a, &s, run_json);
	if (s.failed) {
		warning("out of memory");
		goto out;
	}
	if (write_table(a, &s) || migrations_write_tasks(a) ||
	    (a->modes.available && modes_write_durations(a)))
		goto out;
	print_human(a, &s);
	ret = 0;
out:
	st_free(&s);
	return ret;
}
