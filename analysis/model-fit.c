// SPDX-License-Identifier: GPL-2.0
/*
 * powersched model --fit RUN_DIR...: the power model's coefficients fitted
 * to measured runs.
 *
 * Each run is a folder powersched record wrote on a machine with RAPL
 * counters (energy.tsv, the trace on the mono clock) and that powersched
 * analyze has analyzed.  What the model predicts from comes from the
 * analysis (summary.json "power": busy packages, cores and threads, package
 * wakeups per second, over its window); what it is fitted to is the
 * measured power over that same window: the sum of the package and dram
 * zones of energy.tsv (RAPL, not the wall power the cover letter's tables
 * are).  The window's absolute start is the trace's first record plus
 * window_start_s.
 *
 * Least squares over the runs, with every coefficient >= 0 (one that comes
 * out negative is held at 0 and the rest refitted).  Runs cannot determine
 * more coefficients than there are runs, nor one their inputs do not vary
 * (a one-package machine always has one package busy): those keep the
 * prior model's value (--model, else the shipped model for the runs'
 * shape), fitted in the order base, thread, core, package, wakeup.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <trace-cmd/trace-cmd.h>

#include "powersched.h"
#include "energy.h"
#include "json-read.h"

#define NCOEF		5
#define MAX_RUNS	1024

/* coefficient k of the model, in the file's order */
static double *coef(struct power_model *m, int k)
{
	double *c[NCOEF] = {
		&m->base_watts, &m->package_watts, &m->core_watts, &m->thread_watts,
		&m->package_wakeup_joules,
	};

	return c[k];
}

static const char * const coef_names[NCOEF] = {
	"base_watts", "package_watts", "core_watts", "thread_watts", "package_wakeup_joules",
};
/* the order in which runs free the coefficients from the prior */
static const int fit_order[NCOEF] = { 0, 3, 2, 1, 4 };

struct fit_run {
	const char *dir;
	double x[NCOEF];	/* 1, packages, cores, threads, wakeups/s */
	double measured_w;
	double seconds;
	int cpus, cores, packages;
};

static int first_record(struct tracecmd_input *h, struct tep_record *r, int cpu, void *data)
{
	unsigned long long *first = data;

	(void)h; (void)cpu;
	/*
	 * The first in time order is all we need, but stopping the iteration
	 * early (a negative return) leaks libtracecmd 1.3.1's peeked records:
	 * the pass goes on, at a few million records a second.
	 */
	if (*first == ULLONG_MAX)
		*first = r->ts;
	return 0;
}

static int read_run(const char *arg, struct fit_run *run, char *err, size_t errlen)
{
	char dir[4096], path[4300], clock[32];
	static const char * const inputs[4] = {
		"power.active_packages", "power.active_cores", "power.active_threads",
		"power.package_wakeups_per_s",
	};
	char *summary = NULL, *runjson = NULL;
	struct energy_data e = { 0 };
	unsigned long long first = ULLONG_MAX;
	struct tracecmd_input *h;
	double start, dur, complete, v;
	int ret = -1;

	/* RUN_DIR, or its analysis/ folder (as compare takes them) */
	snprintf(dir, sizeof(dir), "%s", arg);
	snprintf(path, sizeof(path), "%s/analysis/summary.json", dir);
	if (access(path, R_OK)) {
		snprintf(path, sizeof(path), "%s/summary.json", dir);
		if (access(path, R_OK)) {
			snprintf(err, errlen, "%s: not analyzed (no analysis/summary.json: run '%s analyze' on its trace.dat)",
				 arg, progname);
			return -1;
		}
		snprintf(dir, sizeof(dir), "%s/..", arg);
	}
	summary = json_slurp(path, 1 << 22);
	if (!summary) {
		snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
		goto out;
	}
	if (json_get_number(summary, "duration_s", &dur) || json_get_number(summary, "window_start_s", &start) ||
	    !(dur > 0) || start < 0) {
		snprintf(err, errlen, "%s: no analysis window (duration_s, window_start_s)", path);
		goto out;
	}
	if (!json_get_number(summary, "lost_events.complete", &complete) && complete == 0) {
		snprintf(err, errlen, "%s: the trace lost events, so its busy shares are not exact: not fit for a fit", path);
		goto out;
	}
	run->x[0] = 1;
	for (int i = 0; i < 4; i++)
		if (json_get_number(summary, inputs[i], &run->x[i + 1]) || run->x[i + 1] < 0) {
			snprintf(err, errlen, "%s: no %s", path, inputs[i]);
			goto out;
		}
	if (json_get_number(summary, "cpus", &v) || (run->cpus = (int)v) < 1 ||
	    json_get_number(summary, "cores", &v) || (run->cores = (int)v) < 1 ||
	    json_get_number(summary, "packages", &v) || (run->packages = (int)v) < 1) {
		snprintf(err, errlen, "%s: no cpus, cores, packages", path);
		goto out;
	}

	snprintf(path, sizeof(path), "%s/run.json", dir);
	runjson = json_slurp(path, 1 << 20);
	if (!runjson || json_get_string(runjson, "trace_clock", clock, sizeof(clock))) {
		snprintf(err, errlen, "%s: no trace_clock: not a recording of powersched record", path);
		goto out;
	}
	if (strcmp(clock, "mono")) {
		snprintf(err, errlen, "%s: the trace clock is '%s', not mono: energy.tsv's times do not map onto the trace",
			 path, clock);
		goto out;
	}

	snprintf(path, sizeof(path), "%s/trace.dat", dir);
	h = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!h) {
		snprintf(err, errlen, "%s: cannot open the trace", path);
		goto out;
	}
	tracecmd_iterate_events(h, NULL, 0, first_record, &first);
	tracecmd_close(h);
	if (first == ULLONG_MAX) {
		snprintf(err, errlen, "%s: no records", path);
		goto out;
	}

	snprintf(path, sizeof(path), "%s/energy.tsv", dir);
	if (access(path, F_OK)) {
		snprintf(err, errlen, "%s: missing: the run was recorded on a machine without RAPL counters", path);
		goto out;
	}
	if (energy_read(path, &e, err, errlen))
		goto out;
	run->seconds = dur;
	run->measured_w = 0;
	for (int k = 0; k < e.nzones; k++) {
		double from = first / 1e9 + start;
		struct energy_window w;

		if (energy_window(&e, k, from, from + dur, &w) || !w.covered) {
			snprintf(err, errlen, "%s: zone %s does not cover the analysis window %.3f-%.3f s",
				 path, e.zones[k].label, from, from + dur);
			goto out;
		}
		run->measured_w += w.watts;
	}
	run->dir = arg;
	ret = 0;
out:
	energy_free(&e);
	free(summary);
	free(runjson);
	return ret;
}

/*
 * Least squares for the free coefficients (free[k]), the others held at
 * m's values.  Columns are scaled to unit size so that the test for a
 * coefficient the runs do not determine does not depend on units.
 * Returns the index of a coefficient that cannot be determined, -2 when
 * one came out negative (its index in *neg), or -1 when solved.
 */
static int least_squares(const struct fit_run *runs, int n, const bool *is_free,
			 struct power_model *m, int *neg)
{
	double a[NCOEF][NCOEF + 1] = { { 0 } }, scale[NCOEF], sol[NCOEF];
	int idx[NCOEF], nf = 0;

	for (int k = 0; k < NCOEF; k++)
		if (is_free[k])
			idx[nf++] = k;
	for (int j = 0; j < nf; j++) {
		double s = 0;

		for (int r = 0; r < n; r++)
			s += runs[r].x[idx[j]] * runs[r].x[idx[j]];
		scale[j] = s > 0 ? sqrt(s / n) : 0;
		if (scale[j] == 0)
			return idx[j];		/* always 0: nothing to fit */
	}
	for (int r = 0; r < n; r++) {
		double y = runs[r].measured_w;

		for (int k = 0; k < NCOEF; k++)
			if (!is_free[k])
				y -= *coef(m, k) * runs[r].x[k];
		for (int i = 0; i < nf; i++) {
			double xi = runs[r].x[idx[i]] / scale[i];

			for (int j = 0; j < nf; j++)
				a[i][j] += xi * runs[r].x[idx[j]] / scale[j];
			a[i][nf] += xi * y;
		}
	}
	/* Gauss-Jordan with partial pivoting; a tiny pivot: not determined */
	for (int i = 0; i < nf; i++) {
		int piv = i;

		for (int r = i + 1; r < nf; r++)
			if (fabs(a[r][i]) > fabs(a[piv][i]))
				piv = r;
		if (fabs(a[piv][i]) < 1e-9 * n)
			return idx[i];
		for (int c = 0; c <= nf; c++) {
			double t = a[i][c];

			a[i][c] = a[piv][c];
			a[piv][c] = t;
		}
		for (int r = 0; r < nf; r++) {
			double f;

			if (r == i)
				continue;
			f = a[r][i] / a[i][i];
			for (int c = i; c <= nf; c++)
				a[r][c] -= f * a[i][c];
		}
	}
	for (int i = 0; i < nf; i++)
		sol[i] = a[i][nf] / a[i][i] / scale[i];
	for (int i = 0; i < nf; i++)
		if (sol[i] < -1e-12) {
			*neg = idx[i];
			return -2;
		}
	for (int i = 0; i < nf; i++)
		*coef(m, idx[i]) = sol[i] > 0 ? sol[i] : 0;
	return -1;
}

static double predict(const struct power_model *m, const struct fit_run *r)
{
	return power_model_watts(m, r->x[1], r->x[2], r->x[3], r->x[4]);
}

int cmd_model_fit(int argc, char **argv, int first_run, const char *prior_path, const char *out)
{
	struct fit_run *runs = calloc(MAX_RUNS, sizeof(*runs));
	bool is_free[NCOEF] = { false }, held_zero[NCOEF] = { false };
	struct power_model prior, m;
	char err[8800], tmp[4200];
	int n = 0, ret = 1, nfree;
	double worst = 0;
	FILE *f;

	if (!runs) {
		warning("out of memory");
		return 1;
	}
	for (int i = first_run; i < argc; i++) {
		if (n == MAX_RUNS) {
			warning("more than %d runs", MAX_RUNS);
			goto out;
		}
		if (read_run(argv[i], &runs[n], err, sizeof(err))) {
			warning("%s", err);
			goto out;
		}
		n++;
	}

	if (!prior_path) {
		struct topology *t = calloc(1, sizeof(*t));

		if (!t)
			goto out;
		t->ncpus = runs[0].cpus;
		t->ncores = runs[0].cores;
		t->npkgs = runs[0].packages;
		prior_path = power_model_for_topology(t);
		free(t);
	}
	if (power_model_read(prior_path, &prior, err, sizeof(err))) {
		warning("%s", err);
		goto out;
	}
	m = prior;

	/* as many coefficients as the runs can determine, in fit_order */
	nfree = n < NCOEF ? n : NCOEF;
	for (int i = 0; i < nfree; i++)
		is_free[fit_order[i]] = true;
	for (;;) {
		int neg = -1, k = least_squares(runs, n, is_free, &m, &neg);

		if (k == -1)
			break;
		if (k == -2) {
			is_free[neg] = false;
			held_zero[neg] = true;
			*coef(&m, neg) = 0;
			continue;
		}
		is_free[k] = false;	/* undetermined: keeps the prior's value */
	}

	printf("# powersched model --fit: %d run(s); measured = RAPL package + dram watts over each analysis window\n", n);
	printf("# run\tseconds\tmeasured_W\tprior_W\tprior_error_pct\tfit_W\tfit_error_pct\n");
	for (int r = 0; r < n; r++) {
		double pw = predict(&prior, &runs[r]), fw = predict(&m, &runs[r]);
		double fe = 100 * (fw - runs[r].measured_w) / runs[r].measured_w;

		if (fabs(fe) > fabs(worst))
			worst = fe;
		printf("%s\t%.3f\t%.3f\t%.3f\t%+.2f\t%.3f\t%+.2f\n", runs[r].dir, runs[r].seconds,
		       runs[r].measured_w, pw, 100 * (pw - runs[r].measured_w) / runs[r].measured_w, fw, fe);
	}
	printf("# largest fit error: %+.2f%%\n", worst);
	for (int k = 0; k < NCOEF; k++)
		printf("# %s\t%.6g\t%s\n", coef_names[k], *coef(&m, k),
		       is_free[k] ? "fitted" : held_zero[k] ? "held at 0 (came out negative)" : "kept from the prior");

	m.packages = runs[0].packages;
	m.cores_per_package = runs[0].cores / runs[0].packages;
	m.threads_per_core = runs[0].cpus / runs[0].cores;
	snprintf(tmp, sizeof(tmp), "%s.tmp", out);
	f = fopen(tmp, "w");
	if (!f) {
		warning("%s: cannot write: %s", tmp, strerror(errno));
		goto out;
	}
	fprintf(f, "# powersched power model fitted by 'powersched model --fit' to %d run(s):\n", n);
	for (int r = 0; r < n; r++)
		fprintf(f, "#   %s: %.3f W measured, %.3f W fitted\n", runs[r].dir, runs[r].measured_w,
			predict(&m, &runs[r]));
	fprintf(f, "# measured: RAPL package + dram zones over each analysis window; largest error %+.2f%%\n", worst);
	fprintf(f, "# not determined by the runs, kept from %s:", prior_path);
	for (int k = 0; k < NCOEF; k++)
		if (!is_free[k] && !held_zero[k])
			fprintf(f, " %s", coef_names[k]);
	fprintf(f, "\n# the formula: analysis/power-model.conf\n");
	power_model_write(f, &m);
	if (ferror(f) | fclose(f)) {
		warning("%s: write error: %s", tmp, strerror(errno));
		unlink(tmp);
		goto out;
	}
	if (rename(tmp, out)) {
		warning("%s: cannot rename to %s: %s", tmp, out, strerror(errno));
		unlink(tmp);
		goto out;
	}
	printf("# model written to %s (use it with --model %s)\n", out, out);
	ret = 0;
out:
	free(runs);
	return ret;
}
