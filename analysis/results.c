// SPDX-License-Identifier: GPL-2.0
/*
 * The results of an analysis: its figures put into the summary table
 * (summary.h), summary.json and summary.tsv written from it, and the
 * human summary printed from it.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "summary.h"

static const char *reason_key(int r)
{
	return r < NREASONS ? ps_pack_reasons[r].key : "unknown";
}

static double share(uint64_t ns, double dur)
{
	return dur > 0 ? ns / 1e9 / dur : 0;
}

static double per_s(uint64_t n, double dur)
{
	return dur > 0 ? n / dur : 0;
}

/* One domain level's passes, switches, flips and time in each mode */
static void fill_domain_modes(struct summary *s, const char *name, const struct domain_stats *ds,
			      double dur)
{
	uint64_t held = ds->inst_ns[PS_MODE_POWER] + ds->inst_ns[PS_MODE_PERFORMANCE];
	char path[256];

	snprintf(path, sizeof(path), "modes.domains.%s", name);
	st_style(s, path, ST_SPACED);
	for (int m = 0; m < NMODES; m++) {
		int mm = (m + 1) % NMODES;

		snprintf(path, sizeof(path), "modes.domains.%s.%s", name, ps_modes[mm].key);
		st_int(s, path, NULL, ds->passes[mm]);
	}
	snprintf(path, sizeof(path), "modes.domains.%s.switches", name);
	st_int(s, path, NULL, ds->switches);
	snprintf(path, sizeof(path), "modes.domains.%s.switches_per_s", name);
	st_num(s, path, NULL, per_s(ds->switches, dur), 4);
	snprintf(path, sizeof(path), "modes.domains.%s.instances", name);
	st_int(s, path, NULL, ds->instances);
	snprintf(path, sizeof(path), "modes.domains.%s.flips", name);
	st_int(s, path, NULL, ds->flips);
	snprintf(path, sizeof(path), "modes.domains.%s.flips_per_s", name);
	st_num(s, path, NULL, per_s(ds->flips, dur), 4);
	snprintf(path, sizeof(path), "modes.domains.%s.power_share", name);
	st_num(s, path, NULL, held ? (double)ds->inst_ns[PS_MODE_POWER] / held : 0, 4);
	snprintf(path, sizeof(path), "modes.domains.%s.performance_share", name);
	st_num(s, path, NULL, held ? (double)ds->inst_ns[PS_MODE_PERFORMANCE] / held : 0, 4);
	snprintf(path, sizeof(path), "modes.domains.%s.lazy_skips", name);
	st_int(s, path, NULL, ds->lazy);
}

/* power_pack_decision: by reason, by domain and reason, by origin */
static void fill_pack_decisions(const struct topology *t, const struct modes *md, struct summary *s)
{
	char path[256], key[256];

	st_style(s, "pack_decisions", ST_SPACED);
	st_int(s, "pack_decisions.total", "pack.total", md->pack_total);
	for (int r = 0; r <= NREASONS; r++) {
		uint64_t n = 0;

		for (int d = 0; d <= t->ndomains; d++)
			n += md->dom[d].pack[r];
		snprintf(path, sizeof(path), "pack_decisions.%s", reason_key(r));
		snprintf(key, sizeof(key), "pack.%s", reason_key(r));
		st_int(s, path, key, n);
	}
	for (int d = 0; d < t->ndomains; d++)
		for (int r = 0; r <= NREASONS; r++) {
			snprintf(path, sizeof(path), "pack_decisions.by_domain.%s.%s", t->domains[d], reason_key(r));
			snprintf(key, sizeof(key), "pack.by_domain.%s.%s", t->domains[d], reason_key(r));
			st_int(s, path, key, md->dom[d].pack[r]);
		}
	for (int o = 0; o < NORIGINS - 1; o++) {
		snprintf(path, sizeof(path), "pack_decisions.by_origin.%s", ps_origins[o].key);
		snprintf(key, sizeof(key), "pack.by_origin.%s", ps_origins[o].key);
		st_int(s, path, key, md->pack_origin[o]);
	}
}

/* balance_mode's reasons, the outcomes of the passes, policy changes and
 * lazy skips by variant */
static void fill_balance_reasons(const struct topology *t, const struct modes *md, struct summary *s)
{
	char path[256];

	st_style(s, "balance_why", ST_SPACED);
	for (int w = 0; w <= NWHYS; w++) {
		uint64_t n = 0;

		for (int d = 0; d <= t->ndomains; d++)
			n += md->dom[d].why[w];
		snprintf(path, sizeof(path), "balance_why.%s", w < NWHYS ? ps_whys[w].key : "unknown");
		st_int(s, path, NULL, n);
	}
	if (md->have_outcome) {
		st_style(s, "balance_outcomes", ST_BLOCK);
		for (int m = 0; m <= NMODES; m++) {
			const char *mk = m < NMODES ? ps_modes[m].key : "unknown";

			snprintf(path, sizeof(path), "balance_outcomes.%s", mk);
			st_style(s, path, ST_SPACED);
			snprintf(path, sizeof(path), "balance_outcomes.%s.passes", mk);
			st_int(s, path, NULL, md->outcome_passes[m]);
			snprintf(path, sizeof(path), "balance_outcomes.%s.moved", mk);
			st_int(s, path, NULL, md->outcome_moved[m]);
			snprintf(path, sizeof(path), "balance_outcomes.%s.active", mk);
			st_int(s, path, NULL, md->outcome_active[m]);
			snprintf(path, sizeof(path), "balance_outcomes.%s.all_pinned", mk);
			st_int(s, path, NULL, md->outcome_pinned[m]);
		}
	} else {
		st_null(s, "balance_outcomes");
	}
	if (md->have_policy) {
		st_style(s, "policy_changes", ST_SPACED);
		st_int(s, "policy_changes.count", NULL, md->policy_changes);
		st_str(s, "policy_changes.last", NULL, md->policy_last < 0 ? "" :
		       md->policy_last < PS_NR(ps_policies) ? ps_policies[md->policy_last].key : "unknown");
	} else {
		st_null(s, "policy_changes");
	}
	st_style(s, "lazy_by_variant", ST_SPACED);
	for (int v = 0; v <= PS_NR(ps_lazy_variants); v++) {
		snprintf(path, sizeof(path), "lazy_by_variant.%s",
			 v < PS_NR(ps_lazy_variants) ? ps_lazy_variants[v].key : "unknown");
		st_int(s, path, NULL, md->lazy_variant[v]);
	}
}

static void fill_modes(struct analysis *a, struct summary *s, double dur)
{
	struct topology *t = &a->topo;
	struct modes *md = &a->modes;
	uint64_t switches = 0, flips = 0, passes[NMODES] = { 0 };
	char path[256];

	if (!md->available) {
		st_style(s, "modes", ST_SPACED);
		st_bool(s, "modes.available", NULL, false);
		st_str(s, "modes.note", NULL, "no powersched events in the trace: mode timeline skipped");
		st_null(s, "lazy_skips");
		st_null(s, "pack_decisions");
		return;
	}
	modes_finish(a);
	for (int d = 0; d <= t->ndomains; d++) {
		switches += md->dom[d].switches;
		flips += md->dom[d].flips;
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
	st_int(s, "modes.flips", NULL, flips);
	st_num(s, "modes.flips_per_s", NULL, per_s(flips, dur), 4);
	for (int d = 0; d < t->ndomains; d++)
		fill_domain_modes(s, t->domains[d], &md->dom[d], dur);
	st_style(s, "modes.mode_duration_hist_ms", ST_TIGHT);
	for (int b = 0; b < NHIST; b++) {
		snprintf(path, sizeof(path), "modes.mode_duration_hist_ms.%s%llu", b == NHIST - 1 ? ">=" : "<",
			 b == NHIST - 1 ? 1ULL << (b - 1) : 1ULL << b);
		st_int(s, path, NULL, md->hist[b]);
	}
	st_int(s, "lazy_skips", NULL, md->lazy_total);

	fill_pack_decisions(t, md, s);
	fill_balance_reasons(t, md, s);
}

/* Migrations by level and by cause (migrations.c) */
static void fill_migrations(struct analysis *a, struct summary *s, double dur)
{
	struct migrations *m = &a->mig;
	static const char * const level_keys[NLEVELS] = { "smt", "core", "package" };
	char path[256];

	st_style(s, "migrations", ST_BLOCK);
	st_int(s, "migrations.total", NULL, m->total);
	st_int(s, "migrations.smt", NULL, m->level[0]);
	st_int(s, "migrations.core", NULL, m->level[1]);
	st_int(s, "migrations.package", NULL, m->level[2]);
	st_num(s, "migrations.per_s", NULL, per_s(m->total, dur), 3);
	st_style(s, "migrations.attribution", ST_SPACED);
	st_str(s, "migrations.attribution.balance", NULL, m->have_balance ? "available" :
	       "unavailable: the trace has no powersched:balance_migrate (a kernel before series v2, or vanilla)");
	st_str(s, "migrations.attribution.wakeup", NULL, m->have_waking ? "available" :
	       "unavailable: the trace has no sched:sched_waking");
	st_style(s, "migrations.by_cause", ST_SPACED);
	for (int c = 0; c < NCAUSES; c++) {
		snprintf(path, sizeof(path), "migrations.by_cause.%s", cause_keys[c]);
		st_int(s, path, NULL, m->cause[c][0] + m->cause[c][1] + m->cause[c][2]);
	}
	st_style(s, "migrations.by_cause_level", ST_BLOCK);
	for (int c = 0; c < NCAUSES; c++) {
		snprintf(path, sizeof(path), "migrations.by_cause_level.%s", cause_keys[c]);
		st_style(s, path, ST_SPACED);
		for (int l = 0; l < NLEVELS; l++) {
			snprintf(path, sizeof(path), "migrations.by_cause_level.%s.%s", cause_keys[c], level_keys[l]);
			st_int(s, path, NULL, m->cause[c][l]);
		}
	}
	st_style(s, "migrations.placement_reason", ST_SPACED);
	for (int r = 0; r < (int)NPLACEMENT; r++) {
		snprintf(path, sizeof(path), "migrations.placement_reason.%s",
			 r < NREASONS ? ps_pack_reasons[r].key : r == PLACE_MAINLINE ? "mainline" : "exec");
		st_int(s, path, NULL, m->placement[r]);
	}
	st_style(s, "migrations.active_balance_mode", ST_SPACED);
	for (int md = 0; md <= NMODES; md++) {
		snprintf(path, sizeof(path), "migrations.active_balance_mode.%s",
			 md < NMODES ? ps_modes[md].key : "unknown");
		st_int(s, path, NULL, m->active_mode[md]);
	}
	st_int(s, "migrations.balance_migrate_records", NULL, m->balance_migrate);

	/* the moves that undid the one before (pingpong.c) */
	st_style(s, "migrations.pingpong", ST_SPACED);
	st_num(s, "migrations.pingpong.window_ms", NULL, a->pp.window / 1e6, 3);
	st_int(s, "migrations.pingpong.total", NULL, a->pp.total);
	st_int(s, "migrations.pingpong.smt", NULL, a->pp.level[0]);
	st_int(s, "migrations.pingpong.core", NULL, a->pp.level[1]);
	st_int(s, "migrations.pingpong.package", NULL, a->pp.level[2]);
	st_num(s, "migrations.pingpong.per_s", NULL, per_s(a->pp.total, dur), 3);
	st_num(s, "migrations.pingpong.share", NULL, m->total ? (double)a->pp.total / m->total : 0, 4);
	/* what the moves cost the tasks moved: their waits for a cpu right after */
	st_num(s, "migrations.pingpong.wait_after_s", NULL, a->wait.pp_wait_ns / 1e9, 6);
	st_num(s, "migrations.pingpong.wait_after_ms_each", NULL,
	       a->pp.total ? a->wait.pp_wait_ns / 1e6 / a->pp.total : 0, 3);
	st_str(s, "migrations.pingpong.rows", NULL, a->pp.cut ?
	       "cut: pingpong.tsv stopped at --max-rows rows" : "complete");
	/* by the causes of the two moves, the pairs that happened */
	st_style(s, "migrations.pingpong_causes", ST_SPACED);
	for (int c1 = 0; c1 < NCAUSES; c1++)
		for (int c2 = 0; c2 < NCAUSES; c2++) {
			if (!a->pp.pair[c1][c2])
				continue;
			snprintf(path, sizeof(path), "migrations.pingpong_causes.%s/%s",
				 cause_keys[c1], cause_keys[c2]);
			st_int(s, path, NULL, a->pp.pair[c1][c2]);
		}
}

/* A note of caveats.notes[]: printed by the human summary as it is. */
static void note(struct summary *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(struct summary *s, const char *fmt, ...)
{
	int n = st_count(s, "caveats.notes");
	char text[1024], key[32];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	snprintf(key, sizeof(key), "caveats.note%d", n);
	st_elem_str(s, "caveats.notes", key, text);
}

static void fill_caveats(struct analysis *a, struct summary *s, double dur)
{
	struct topology *t = &a->topo;
	char unknown[512] = "";
	int nunknown = 0;
	size_t o = 0;

	for (int cpu = 0; cpu < t->nr_cpu_ids; cpu++)
		if (t->present[cpu] && a->busy.cpu[cpu].was_unknown) {
			nunknown++;
			if (o < sizeof(unknown))
				o += snprintf(unknown + o, sizeof(unknown) - o, "%s%d", o ? "," : "", cpu);
		}

	st_style(s, "caveats", ST_BLOCK);
	st_int(s, "caveats.out_of_order_records", NULL, a->out_of_order);
	st_int(s, "caveats.bad_records", NULL, a->bad_records);
	st_str(s, "caveats.bad_record_first", NULL, a->bad_first);
	st_int(s, "caveats.bad_timestamp_records", NULL, a->in.bad_ts_records);
	st_int(s, "caveats.unknown_cpus", NULL, nunknown);
	st_str(s, "caveats.unknown_cpu_list", NULL, unknown);
	st_bool(s, "caveats.timeline_cut", NULL, a->cut);
	st_num(s, "caveats.timeline_cut_s", NULL, a->cut ? (double)(a->cut_at - a->t0) / 1e9 : 0, 6);

	/* in words, for people: the human summary prints these */
	if (nunknown)
		note(s, "WARNING: cpu%s %s: UNKNOWN: no sched_switch on %s in the whole trace, so nothing says what "
		     "%s ran: %s busy share is null, and %s counted neither busy nor idle in the core, package and "
		     "power figures (record with workloads/kick-cpus right after tracing starts)",
		     nunknown > 1 ? "s" : "", unknown, nunknown > 1 ? "them" : "it", nunknown > 1 ? "they" : "it",
		     nunknown > 1 ? "their" : "its", nunknown > 1 ? "they are" : "it is");
	if (a->missed_marks)
		note(s, "WARNING: EVENTS WERE LOST: %llu buffer(s) with missed events (%llu events known lost): "
		     "migrations and the event counts undercount", (unsigned long long)a->missed_marks,
		     (unsigned long long)a->missed_known);
	if (a->state_breaks)
		note(s, "WARNING: %llu state break(s): a sched_switch away from a task the cpu was not running "
		     "(its switch was lost): up to %.3f s of busy and idle time may be misattributed, so busy "
		     "time may be over- or under-counted", (unsigned long long)a->state_breaks, a->uncertain_ns / 1e9);
	if (a->bad_records)
		note(s, "WARNING: %llu record(s) with impossible values skipped (the first: %s)",
		     (unsigned long long)a->bad_records, a->bad_first);
	if (a->in.bad_ts_records)
		note(s, "WARNING: %llu record(s) dropped because their timestamps cannot be right: cpu %d's records "
		     "jump by %.3f s near %.6f s (a corrupt page timestamp)", (unsigned long long)a->in.bad_ts_records,
		     a->in.bad_ts_cpu, a->in.bad_ts_jump / 1e9,
		     a->in.bad_ts_at > a->first_ts ? (double)(a->in.bad_ts_at - a->first_ts) / 1e9 : 0.0);
	if (a->out_of_order)
		note(s, "WARNING: %llu record(s) out of time order, taken as at the previous record's time",
		     (unsigned long long)a->out_of_order);
	if (a->cut)
		note(s, "WARNING: timelines cut at %.3f s after %llu rows (--max-rows); the summary covers the "
		     "whole %.3f s: use a larger --bucket", (double)(a->cut_at - a->t0) / 1e9,
		     (unsigned long long)a->rows, dur);
	if (a->run_note[0])
		note(s, "note: %s", a->run_note);
	if (a->modes.unknown_value[0])
		note(s, "note: enum values this analyzer does not know (a newer kernel's), counted as unknown: the first, %s",
		     a->modes.unknown_value);
	if (strcmp(a->in.compression, "none"))
		note(s, "note: %s is compressed (%s): libtracecmd decompresses each cpu's data into memory, so "
		     "memory grows with the trace (record with trace-cmd record --compression none)",
		     a->trace, a->in.compression);
}

static void fill_hist(struct summary *s, const char *path, const struct hist *h, bool total)
{
	char p[256];

	st_style(s, path, ST_SPACED);
	snprintf(p, sizeof(p), "%s.count", path);
	st_int(s, p, NULL, h->count);
	if (total) {
		snprintf(p, sizeof(p), "%s.total_s", path);
		st_num(s, p, NULL, h->sum_ns / 1e9, 6);
	}
	snprintf(p, sizeof(p), "%s.mean_us", path);
	st_num(s, p, NULL, h->count ? h->sum_ns / 1e3 / h->count : NAN, 1);
	snprintf(p, sizeof(p), "%s.p50_us", path);
	st_num(s, p, NULL, h->count ? hist_quantile(h, 0.5) / 1e3 : NAN, 1);
	snprintf(p, sizeof(p), "%s.p90_us", path);
	st_num(s, p, NULL, h->count ? hist_quantile(h, 0.9) / 1e3 : NAN, 1);
	snprintf(p, sizeof(p), "%s.p99_us", path);
	st_num(s, p, NULL, h->count ? hist_quantile(h, 0.99) / 1e3 : NAN, 1);
	snprintf(p, sizeof(p), "%s.max_us", path);
	st_num(s, p, NULL, h->count ? h->max_ns / 1e3 : NAN, 1);
}

/* The cost side: runnable tasks, idle while waiting, latencies */
static void fill_waiting(struct analysis *a, struct summary *s, double dur)
{
	struct topology *t = &a->topo;
	struct waiting *w = &a->wait;
	double runnable = 0;
	char path[256], key[64];

	st_style(s, "waiting", ST_BLOCK);
	st_int(s, "waiting.tasks", NULL, w->tasks.seen);
	st_int(s, "waiting.untracked_tasks", NULL, w->tasks.untracked);
	for (int cpu = 0; cpu < t->nr_cpu_ids; cpu++)
		if (t->present[cpu]) {
			double r = dur > 0 ? w->area_total[cpu] / 1e9 / dur : 0;

			snprintf(key, sizeof(key), "waiting.runnable.cpu%d", cpu);
			st_elem(s, "waiting.runnable_cpu", key, a->busy.cpu[cpu].was_unknown ? NAN : r, 4);
			runnable += r;
		}
	st_num(s, "waiting.runnable_mean", NULL, runnable, 4);
	st_style(s, "waiting.idle_while_waiting", ST_BLOCK);
	st_num(s, "waiting.idle_while_waiting.system_s", NULL, w->units[w->unit_system].total_ns / 1e9, 6);
	st_num(s, "waiting.idle_while_waiting.system", NULL, share(w->units[w->unit_system].total_ns, dur), 4);
	for (int d = 0; d < t->ndomains; d++) {
		snprintf(path, sizeof(path), "waiting.idle_while_waiting.by_level.%s", t->domains[d]);
		st_style(s, path, ST_SPACED);
		snprintf(path, sizeof(path), "waiting.idle_while_waiting.by_level.%s.s", t->domains[d]);
		st_num(s, path, NULL, w->level[d].total_ns / 1e9, 6);
		snprintf(path, sizeof(path), "waiting.idle_while_waiting.by_level.%s.share", t->domains[d]);
		st_num(s, path, NULL, share(w->level[d].total_ns, dur), 4);
	}
	for (int i = 0; i < t->npkgs; i++) {
		struct wait_unit *u = &w->units[w->unit_pkg + i];

		snprintf(path, sizeof(path), "waiting.idle_while_waiting.by_package.%d", t->pkg_id[i]);
		st_style(s, path, ST_SPACED);
		snprintf(path, sizeof(path), "waiting.idle_while_waiting.by_package.%d.s", t->pkg_id[i]);
		st_num(s, path, NULL, u->total_ns / 1e9, 6);
		snprintf(path, sizeof(path), "waiting.idle_while_waiting.by_package.%d.share", t->pkg_id[i]);
		st_num(s, path, NULL, share(u->total_ns, dur), 4);
	}

	st_style(s, "latency", ST_BLOCK);
	fill_hist(s, "latency.wakeup", &w->wake, false);
	fill_hist(s, "latency.rq_wait", &w->wait, true);
	st_style(s, "latency.by_package", ST_BLOCK);
	for (int i = 0; i < t->npkgs; i++) {
		snprintf(path, sizeof(path), "latency.by_package.%d", t->pkg_id[i]);
		st_style(s, path, ST_BLOCK);
		snprintf(path, sizeof(path), "latency.by_package.%d.wakeup", t->pkg_id[i]);
		fill_hist(s, path, &w->wake_pkg[i], false);
		snprintf(path, sizeof(path), "latency.by_package.%d.rq_wait", t->pkg_id[i]);
		fill_hist(s, path, &w->wait_pkg[i], true);
	}
}

/* latency_hist.tsv: the histograms behind the latency quantiles */
static int write_latency_hist(struct analysis *a)
{
	struct topology *t = &a->topo;
	struct waiting *w = &a->wait;
	struct output *o = output_open(&a->outs, "latency_hist.tsv");
	int first = HIST_BINS, last = -1;

	if (!o)
		return -1;
	fprintf(o->f, "# powersched analyze %s: wakeup latency and runqueue waits, count per bin (8 bins per power of two)\n"
		"# from_us\tto_us\twakeup\trq_wait", a->trace);
	for (int i = 0; i < t->npkgs; i++)
		fprintf(o->f, "\twakeup_package%d\trq_wait_package%d", t->pkg_id[i], t->pkg_id[i]);
	fputc('\n', o->f);
	for (int b = 0; b < HIST_BINS; b++)
		if (w->wake.n[b] || w->wait.n[b]) {
			if (b < first)
				first = b;
			last = b;
		}
	for (int b = first; b <= last; b++) {
		uint64_t from, to;

		hist_bin(b, &from, &to);
		fprintf(o->f, "%.3f\t%.3f\t%u\t%u", from / 1e3, to / 1e3, w->wake.n[b], w->wait.n[b]);
		for (int i = 0; i < t->npkgs; i++)
			fprintf(o->f, "\t%u\t%u", w->wake_pkg[i].n[b], w->wait_pkg[i].n[b]);
		fputc('\n', o->f);
	}
	return output_close(o);
}

/* Every figure of the analysis, in the order of summary.json. */
static void fill(struct analysis *a, struct summary *s, const char *run_json)
{
	struct topology *t = &a->topo;
	struct busy *b = &a->busy;
	double dur = (double)(a->last_ts - a->t0) / 1e9;
	double act_pkgs = 0, act_cores = 0, act_threads = 0, wakeups = 0, watts;
	double max_pkg_idle = 0, min_pkg_idle = 1;
	char key[64];
	int n = 0;

	st_str(s, "format", NULL, "powersched-summary-2");
	st_str(s, "trace", NULL, a->trace);
	st_str(s, "kernel", NULL, t->kernel);
	if (run_json)
		st_json(s, "run", NULL, run_json);
	else
		st_null(s, "run");
	st_str(s, "phase", NULL, a->phase ? a->phase_name : "");
	st_style(s, "trace_file", ST_SPACED);
	st_int(s, "trace_file.version", NULL, a->in.version);
	st_str(s, "trace_file.compression", NULL, a->in.compression);
	st_int(s, "trace_file.cpus", NULL, a->in.ncpus);
	st_num(s, "duration_s", NULL, dur, 6);
	st_num(s, "window_start_s", NULL, (double)(a->t0 - a->first_ts) / 1e9, 6);
	st_num(s, "bucket_ms", NULL, a->bucket / 1e6, 3);
	st_int(s, "records", NULL, a->nrecords);
	st_int(s, "sched_switch", NULL, a->nswitch);
	st_int(s, "cpus", NULL, t->ncpus);
	st_int(s, "cores", NULL, t->ncores);
	st_int(s, "packages", NULL, t->npkgs);

	/* the numbers of the cpus, cores and packages the arrays below are in the order of */
	st_style(s, "ids", ST_SPACED);
	for (int cpu = 0; cpu < t->nr_cpu_ids; cpu++)
		if (t->present[cpu]) {
			snprintf(key, sizeof(key), "ids.cpu%d", n++);
			st_elem_int(s, "ids.cpu", key, cpu);
		}
	for (int i = 0; i < t->ncores; i++) {
		snprintf(key, sizeof(key), "ids.core%d", i);
		st_elem_int(s, "ids.core", key, t->core_id[i]);
	}
	for (int i = 0; i < t->npkgs; i++) {
		snprintf(key, sizeof(key), "ids.package%d", i);
		st_elem_int(s, "ids.package", key, t->pkg_id[i]);
	}

	n = 0;
	for (int cpu = 0; cpu < t->nr_cpu_ids; cpu++)
		if (t->present[cpu]) {
			bool known = !b->cpu[cpu].was_unknown;
			double u = share(b->cpu[cpu].total_ns, dur);

			snprintf(key, sizeof(key), "util.cpu%d", cpu);
			st_elem(s, "utilization.cpu", key, known ? u : NAN, 4);
			if (known) {
				act_threads += u;
				n++;
			}
		}
	for (int i = 0; i < t->ncores; i++) {
		double u = share(b->units[b->unit_core + i].total_ns, dur);

		snprintf(key, sizeof(key), "util.core%d", t->core_id[i]);
		st_elem(s, "utilization.core", key, u, 4);
		act_cores += u;
	}
	for (int i = 0; i < t->npkgs; i++) {
		struct busy_unit *u = &b->units[b->unit_pkg + i];
		double util = share(u->total_ns, dur);

		snprintf(key, sizeof(key), "util.package%d", t->pkg_id[i]);
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
		snprintf(key, sizeof(key), "idle.core%d", t->core_id[i]);
		st_elem(s, "idle.core", key, 1 - share(b->units[b->unit_core + i].total_ns, dur), 4);
	}
	for (int i = 0; i < t->npkgs; i++) {
		snprintf(key, sizeof(key), "idle.package%d", t->pkg_id[i]);
		st_elem(s, "idle.package", key, 1 - share(b->units[b->unit_pkg + i].total_ns, dur), 4);
	}
	st_num(s, "idle.package_max", NULL, max_pkg_idle, 4);
	st_num(s, "idle.package_min", NULL, min_pkg_idle, 4);
	for (int i = 0; i < t->npkgs; i++) {
		snprintf(key, sizeof(key), "idle.package_wakeups%d", t->pkg_id[i]);
		st_elem(s, "idle.package_wakeups", key, (double)b->units[b->unit_pkg + i].wakeups, 4);
	}
	fill_idle_states(a, s, run_json);

	fill_migrations(a, s, dur);
	fill_waiting(a, s, dur);
	fill_modes(a, s, dur);

	st_style(s, "power", ST_SPACED);
	st_str(s, "power.model", NULL, a->model.path);
	watts = power_model_watts(&a->model, act_pkgs, act_cores, act_threads, per_s(wakeups, dur));
	st_num(s, "power.watts", NULL, watts, 3);
	st_num(s, "power.active_packages", NULL, act_pkgs, 4);
	st_num(s, "power.active_cores", NULL, act_cores, 4);
	st_num(s, "power.active_threads", NULL, act_threads, 4);
	st_num(s, "power.package_wakeups_per_s", NULL, per_s(wakeups, dur), 3);
	fill_measured_energy(a, s, watts);

	st_style(s, "lost_events", ST_SPACED);
	st_bool(s, "lost_events.complete", "lost.complete", !a->missed_marks && !a->state_breaks);
	st_int(s, "lost_events.missed_events", "lost.missed_events", a->missed_known);
	st_int(s, "lost_events.missed_marks", "lost.missed_marks", a->missed_marks);
	st_int(s, "lost_events.state_breaks", "lost.state_breaks", a->state_breaks);
	st_num(s, "lost_events.uncertain_s", "lost.uncertain_s", a->uncertain_ns / 1e9, 6);

	fill_caveats(a, s, dur);
}

/* The short human summary, from the table only. */
static void print_human(struct analysis *a, const struct summary *s, const char *run_json)
{
	int ncpus = st_int_of(s, "cpus"), npkgs = st_int_of(s, "packages");
	int nnotes = st_count(s, "caveats.notes");

	printf("%s: %.2f s, %d cpus in %d package(s), %lld records\n", a->trace,
	       st_num_of(s, "duration_s"), ncpus, npkgs, st_int_of(s, "records"));
	printf("  busy cpus (mean)      %.2f of %d\n", st_num_of(s, "utilization.busy_cpus"), ncpus);
	printf("  package idle          ");
	for (int i = 0; i < npkgs; i++) {
		const struct st_entry *id = st_get_elem(s, "ids.package", i);
		const struct st_entry *e = st_get_elem(s, "idle.package", i);

		printf("%s%lld: %.1f%%", i ? ", " : "", id ? id->i : -1LL,
		       e && e->kind == ST_NUM ? 100 * e->d : NAN);
	}
	printf("\n  migrations            %lld (smt %lld, core %lld, package %lld)\n",
	       st_int_of(s, "migrations.total"), st_int_of(s, "migrations.smt"),
	       st_int_of(s, "migrations.core"), st_int_of(s, "migrations.package"));
	printf("  migration causes      ");
	for (int c = 0; c < NCAUSES; c++) {
		char path[96];

		snprintf(path, sizeof(path), "migrations.by_cause.%s", cause_keys[c]);
		printf("%s%s %lld", c ? ", " : "", cause_keys[c], st_int_of(s, path));
	}
	printf("\n");
	if (strcmp(st_get(s, "migrations.attribution.balance")->s, "available"))
		printf("  note: attribution of balance migrations is %s\n", st_get(s, "migrations.attribution.balance")->s);
	if (strcmp(st_get(s, "migrations.attribution.wakeup")->s, "available"))
		printf("  note: attribution of wakeup migrations is %s\n", st_get(s, "migrations.attribution.wakeup")->s);
	if (st_int_of(s, "modes.available"))
		printf("  balance passes        power %lld, performance %lld, none %lld; %lld mode switches (%.2f/s, all cpus merged), "
		       "%lld flips (%.2f/s, each domain's own), %lld lazy skips\n",
		       st_int_of(s, "modes.passes.power"), st_int_of(s, "modes.passes.performance"),
		       st_int_of(s, "modes.passes.none"), st_int_of(s, "modes.switches"),
		       st_num_of(s, "modes.switches_per_s"), st_int_of(s, "modes.flips"),
		       st_num_of(s, "modes.flips_per_s"), st_int_of(s, "lazy_skips"));
	else
		printf("  balance modes         skipped: the trace has no powersched events (a kernel without the series?)\n");
	printf("  estimated power       %.1f W (model %s)\n", st_num_of(s, "power.watts"),
	       st_get(s, "power.model")->s);
	if (st_get(s, "energy_measured.watts"))
		printf("  measured power        %.1f W (energy.tsv, all zones); the model is %+.1f%% off\n",
		       st_num_of(s, "energy_measured.watts"), st_num_of(s, "energy_measured.model_error_pct"));
	print_idle_states(a, run_json);
	for (int i = 0; i < nnotes; i++)
		printf("  %s\n", st_get_elem(s, "caveats.notes", i)->s);
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
	if (write_table(a, &s) || (a->modes.available && modes_write_durations(a)) ||
	    write_latency_hist(a) || write_idle_states(a, run_json))
		goto out;
	print_human(a, &s, run_json);
	ret = 0;
out:
	st_free(&s);
	return ret;
}
