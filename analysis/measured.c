// SPDX-License-Identifier: GPL-2.0
/*
 * Measured energy beside the model's estimate: when the trace was recorded
 * by powersched record on a machine with RAPL counters, its energy.tsv lies
 * beside trace.dat and run.json says the trace clock was "mono", the clock
 * energy.tsv's sample times are on.  Joules and watts per zone over the
 * analysis window, their sum, and how far the model's estimate is from it.
 * Anything that keeps the window from being measured (no energy.tsv,
 * another trace clock, samples that do not cover the window, a corrupt
 * file) is said in energy_measured.note and, for a file that is there but
 * unusable, on stderr: the model's watts stand alone then.
 */
#include <errno.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze.h"
#include "energy.h"
#include "json-read.h"
#include "summary.h"

static void unavailable(struct summary *s, const char *why)
{
	st_bool(s, "energy_measured.available", NULL, false);
	st_str(s, "energy_measured.note", NULL, why);
}

void fill_measured_energy(struct analysis *a, struct summary *s, double model_watts)
{
	char buf[4096], dir[4096], path[4200], clock[32], err[512], why[4608];
	double from = a->t0 / 1e9, to = a->last_ts / 1e9, total = 0;
	struct energy_data e = { 0 };
	struct energy_window win[ENERGY_MAX_ZONES];
	char *runjson;
	int r;

	st_style(s, "energy_measured", ST_SPACED);
	snprintf(buf, sizeof(buf), "%s", a->trace);
	snprintf(dir, sizeof(dir), "%s", dirname(buf));	/* dirname() may write into buf */
	snprintf(path, sizeof(path), "%s/energy.tsv", dir);
	if (access(path, F_OK)) {
		unavailable(s, "no energy.tsv beside the trace (recorded without RAPL counters, or not by powersched record)");
		return;
	}
	snprintf(path, sizeof(path), "%s/run.json", dir);
	runjson = json_slurp(path, 1 << 20);
	r = runjson ? json_get_string(runjson, "trace_clock", clock, sizeof(clock)) : JSON_MISSING;
	free(runjson);
	if (r) {
		snprintf(why, sizeof(why), "%s: no trace_clock: energy.tsv's times cannot be put on the trace's", path);
		warning("%s", why);
		unavailable(s, why);
		return;
	}
	if (strcmp(clock, "mono")) {
		snprintf(why, sizeof(why), "the trace clock is '%s', not mono: energy.tsv's times do not map onto the trace", clock);
		warning("%s", why);
		unavailable(s, why);
		return;
	}
	snprintf(path, sizeof(path), "%s/energy.tsv", dir);
	if (energy_read(path, &e, err, sizeof(err))) {
		snprintf(why, sizeof(why), "%s", err);
		warning("%s", why);
		unavailable(s, why);
		return;
	}
	for (int k = 0; k < e.nzones; k++) {
		struct energy_window *w = &win[k];

		if (energy_window(&e, k, from, to, w) || !w->covered) {
			snprintf(why, sizeof(why), "%s: zone %s does not cover the analysis window (%.3f-%.3f s)",
				 path, e.zones[k].label, from, to);
			warning("%s", why);
			unavailable(s, why);
			energy_free(&e);
			return;
		}
	}
	st_bool(s, "energy_measured.available", NULL, true);
	st_str(s, "energy_measured.file", NULL, "energy.tsv");
	for (int k = 0; k < e.nzones; k++) {
		char key[128];

		snprintf(key, sizeof(key), "energy_measured.zones.%s.joules", e.zones[k].label);
		st_num(s, key, NULL, win[k].joules, 3);
		snprintf(key, sizeof(key), "energy_measured.zones.%s.watts", e.zones[k].label);
		st_num(s, key, NULL, win[k].watts, 3);
		total += win[k].watts;
	}
	st_num(s, "energy_measured.watts", NULL, total, 3);
	st_num(s, "energy_measured.model_watts", NULL, model_watts, 3);
	st_num(s, "energy_measured.model_error_pct", NULL, total > 0 ? (model_watts - total) / total * 100 : 0, 2);
	st_int(s, "energy_measured.counter_wraps", NULL, e.wraps);
	energy_free(&e);
}
