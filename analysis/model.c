// SPDX-License-Identifier: GPL-2.0
/*
 * powersched model: the power model, its file, the two measured tables of
 * the v7 cover letter it is calibrated on, and the choice of the shipped
 * model that matches a machine's shape.  Fitting to measured runs is in
 * model-fit.c.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "powersched.h"

#ifndef MODEL_DIR
#define MODEL_DIR "analysis"
#endif

const char *default_model_path(void)
{
	return MODEL_DIR "/power-model.conf";
}

/* The models shipped beside the default, one per calibrated machine shape. */
static const char * const shipped_models[] = {
	MODEL_DIR "/power-model.conf",		/* SNB-EP, 2 x 8 x 2 */
	MODEL_DIR "/power-model-laptop.conf",	/* SNB laptop, 1 x 4 x 2 */
};

#define NCOEF 5
static const char * const coef_keys[NCOEF] = {
	"base_watts", "package_watts", "core_watts", "thread_watts",
	"package_wakeup_joules",
};
#define NSHAPE 3
static const char * const shape_keys[NSHAPE] = {
	"packages", "cores_per_package", "threads_per_core",
};

int power_model_read(const char *path, struct power_model *m, char *err, size_t errlen)
{
	double *vals[NCOEF] = {
		&m->base_watts, &m->package_watts, &m->core_watts,
		&m->thread_watts, &m->package_wakeup_joules,
	};
	int *shape[NSHAPE] = { &m->packages, &m->cores_per_package, &m->threads_per_core };
	bool seen[NCOEF] = { false };
	char line[1024];
	int lineno = 0;
	FILE *f = fopen(path, "r");

	memset(m, 0, sizeof(*m));
	snprintf(m->path, sizeof(m->path), "%s", path);
	if (!f) {
		snprintf(err, errlen, "%s: cannot open the power model: %s", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		char key[64], extra[8];
		double v;
		int n, k;

		lineno++;
		line[strcspn(line, "#")] = 0;
		n = sscanf(line, "%63s %lf %7s", key, &v, extra);
		if (n <= 0)
			continue;
		if (n != 2 || !isfinite(v) || v < 0) {
			snprintf(err, errlen, "%s:%d: expected 'key value' with a number >= 0", path, lineno);
			fclose(f);
			return -1;
		}
		for (k = 0; k < NCOEF && strcmp(key, coef_keys[k]); k++)
			;
		if (k < NCOEF) {
			*vals[k] = v;
			seen[k] = true;
			continue;
		}
		for (k = 0; k < NSHAPE && strcmp(key, shape_keys[k]); k++)
			;
		if (k == NSHAPE) {
			snprintf(err, errlen, "%s:%d: unknown key '%s'", path, lineno, key);
			fclose(f);
			return -1;
		}
		if (v < 1 || v > 65536 || v != floor(v)) {
			snprintf(err, errlen, "%s:%d: %s must be a whole number from 1", path, lineno, key);
			fclose(f);
			return -1;
		}
		*shape[k] = (int)v;
	}
	fclose(f);
	for (int k = 0; k < NCOEF; k++)
		if (!seen[k]) {
			snprintf(err, errlen, "%s: missing key '%s'", path, coef_keys[k]);
			return -1;
		}
	return 0;
}

/* The keys of a model file, values as power_model_read() takes them back. */
int power_model_write(FILE *f, const struct power_model *m)
{
	const double v[NCOEF] = {
		m->base_watts, m->package_watts, m->core_watts, m->thread_watts,
		m->package_wakeup_joules,
	};

	for (int k = 0; k < NCOEF; k++)
		fprintf(f, "%-22s%.6g\n", coef_keys[k], v[k]);
	if (m->packages)
		fprintf(f, "%-22s%d\n%-22s%d\n%-22s%d\n", shape_keys[0], m->packages,
			shape_keys[1], m->cores_per_package, shape_keys[2], m->threads_per_core);
	return ferror(f) ? -1 : 0;
}

double power_model_watts(const struct power_model *m, double active_pkgs,
			 double active_cores, double active_threads,
			 double pkg_wakeups_per_s)
{
	return m->base_watts + m->package_watts * active_pkgs +
	       m->core_watts * active_cores + m->thread_watts * active_threads +
	       m->package_wakeup_joules * pkg_wakeups_per_s;
}

/*
 * The shipped model for a topology: the same number of packages first
 * (one package or several is what changes the policy's choices most), then
 * the nearest number of cores per package, then of threads per core; a tie
 * goes to the one listed first (the default).
 */
const char *power_model_for_topology(const struct topology *t)
{
	static char best[4096];
	long best_score = LONG_MAX;
	int cpp = t->npkgs ? t->ncores / t->npkgs : 0;
	int tpc = t->ncores ? t->ncpus / t->ncores : 0;

	snprintf(best, sizeof(best), "%s", default_model_path());
	for (size_t i = 0; i < sizeof(shipped_models) / sizeof(shipped_models[0]); i++) {
		struct power_model m;
		char err[512];
		long score;

		if (power_model_read(shipped_models[i], &m, err, sizeof(err)) || !m.packages)
			continue;
		score = 1000000L * labs((long)m.packages - t->npkgs) +
			1000L * labs((long)m.cores_per_package - cpp) +
			labs((long)m.threads_per_core - tpc);
		if (score < best_score) {
			best_score = score;
			snprintf(best, sizeof(best), "%s", shipped_models[i]);
		}
	}
	return best;
}

/*
 * The two tables of the v7 cover letter (average watts with x busy loops)
 * and the packages, cores and threads x loops occupy under each policy:
 * performance spreads over packages, then cores, before SMT siblings;
 * powersaving fills a core's threads, then the package's cores, before
 * the next package.
 */
struct table_point {
	const char *policy;
	int loops, pkgs, cores, threads;
	double watts;
};

static const struct table_point snbep_points[] = {
	{ "powersaving", 1, 1, 1, 1, 174.264 },
	{ "powersaving", 2, 1, 1, 2, 175.245 },
	{ "powersaving", 4, 1, 2, 4, 199.0 },
	{ "powersaving", 8, 1, 4, 8, 209.33 },
	{ "powersaving", 16, 1, 8, 16, 277.438 },
	{ "powersaving", 32, 2, 16, 32, 393.062 },
	{ "performance", 1, 1, 1, 1, 173.603 },
	{ "performance", 2, 2, 2, 2, 210.739 },
	{ "performance", 4, 2, 4, 4, 238.309 },
	{ "performance", 8, 2, 8, 8, 272.398 },
	{ "performance", 16, 2, 16, 16, 376.152 },
	{ "performance", 32, 2, 16, 32, 395.134 },
};

static const struct table_point laptop_points[] = {
	{ "powersaving", 1, 1, 1, 1, 43.225 },
	{ "powersaving", 2, 1, 1, 2, 44.8491 },
	{ "powersaving", 4, 1, 2, 4, 61.2737 },
	{ "powersaving", 8, 1, 4, 8, 72.9482 },
	{ "performance", 1, 1, 1, 1, 43.0638 },
	{ "performance", 2, 1, 2, 2, 59.0679 },
	{ "performance", 4, 1, 4, 4, 66.7649 },
	{ "performance", 8, 1, 4, 8, 72.6702 },
};

static const struct power_table {
	const char *name, *machine;
	int packages, cores_per_package, threads_per_core;
	const struct table_point *pts;
	int n;
} tables[] = {
	{ "snb-ep", "SNB-EP, 2 sockets x 8 cores x HT", 2, 8, 2, snbep_points,
	  sizeof(snbep_points) / sizeof(snbep_points[0]) },
	{ "snb-laptop", "SNB laptop, 4 cores x HT", 1, 4, 2, laptop_points,
	  sizeof(laptop_points) / sizeof(laptop_points[0]) },
};
#define NTABLES (int)(sizeof(tables) / sizeof(tables[0]))

/*
 * Least squares for watts = b + p*pkgs + c*cores + t*threads over a table.
 * A one-package table cannot tell base from package watts (every point has
 * one package busy): it fits their sum, and splits it as the SNB-EP fit
 * does (package_watts / (base_watts + package_watts) = 0.125), an
 * assumption that only matters for time the whole package is idle.
 */
#define SNBEP_PACKAGE_SHARE	0.125

static int solve(double m[][5], int n, double *x)
{
	for (int i = 0; i < n; i++) {
		int piv = i;

		for (int r = i + 1; r < n; r++)
			if (fabs(m[r][i]) > fabs(m[piv][i]))
				piv = r;
		if (fabs(m[piv][i]) < 1e-9)
			return -1;
		for (int c = 0; c <= n; c++) {
			double tmp = m[i][c];

			m[i][c] = m[piv][c];
			m[piv][c] = tmp;
		}
		for (int r = 0; r < n; r++) {
			double f;

			if (r == i)
				continue;
			f = m[r][i] / m[i][i];
			for (int c = i; c <= n; c++)
				m[r][c] -= f * m[i][c];
		}
	}
	for (int i = 0; i < n; i++)
		x[i] = m[i][n] / m[i][i];
	return 0;
}

static int fit_table(const struct power_table *tb, struct power_model *out)
{
	bool one_pkg = true;
	double m[4][5] = { { 0 } }, x[4];
	int n;

	for (int i = 0; i < tb->n; i++)
		if (tb->pts[i].pkgs != 1)
			one_pkg = false;
	n = one_pkg ? 3 : 4;
	for (int i = 0; i < tb->n; i++) {
		const struct table_point *p = &tb->pts[i];
		double a4[4] = { 1, p->pkgs, p->cores, p->threads };
		double a3[3] = { 1, p->cores, p->threads };
		double *a = one_pkg ? a3 : a4;

		for (int r = 0; r < n; r++) {
			for (int c = 0; c < n; c++)
				m[r][c] += a[r] * a[c];
			m[r][n] += a[r] * p->watts;
		}
	}
	if (solve(m, n, x))
		return -1;
	memset(out, 0, sizeof(*out));
	if (one_pkg) {
		out->package_watts = SNBEP_PACKAGE_SHARE * x[0];
		out->base_watts = x[0] - out->package_watts;
		out->core_watts = x[1];
		out->thread_watts = x[2];
	} else {
		out->base_watts = x[0];
		out->package_watts = x[1];
		out->core_watts = x[2];
		out->thread_watts = x[3];
	}
	out->package_wakeup_joules = 0.0005;
	out->packages = tb->packages;
	out->cores_per_package = tb->cores_per_package;
	out->threads_per_core = tb->threads_per_core;
	return 0;
}

static const struct power_table *table_by_name(const char *name)
{
	for (int i = 0; i < NTABLES; i++)
		if (!strcmp(tables[i].name, name))
			return &tables[i];
	return NULL;
}

/* The table of the model's own machine, else SNB-EP. */
static const struct power_table *table_for_model(const struct power_model *m)
{
	for (int i = 0; i < NTABLES; i++)
		if (tables[i].packages == m->packages && tables[i].cores_per_package == m->cores_per_package)
			return &tables[i];
	return &tables[0];
}

static void print_table(const struct power_table *tb, const struct power_model *m)
{
	double worst = 0, ps2 = 0, pf2 = 0, mps2 = 0, mpf2 = 0;

	printf("# power model %s against the %s table of the v7 cover letter\n", m->path, tb->machine);
	printf("# policy\tloops\tpackages\tcores\tthreads\tmeasured_W\tmodel_W\terror_pct\n");
	for (int i = 0; i < tb->n; i++) {
		const struct table_point *p = &tb->pts[i];
		double w = power_model_watts(m, p->pkgs, p->cores, p->threads, 0);
		double e = 100 * (w - p->watts) / p->watts;

		if (fabs(e) > fabs(worst))
			worst = e;
		if (p->loops == 2) {
			if (!strcmp(p->policy, "powersaving"))
				ps2 = p->watts, mps2 = w;
			else
				pf2 = p->watts, mpf2 = w;
		}
		printf("%s\t%d\t%d\t%d\t%d\t%.1f\t%.1f\t%+.1f\n", p->policy, p->loops, p->pkgs,
		       p->cores, p->threads, p->watts, w, e);
	}
	printf("# largest error: %+.1f%%\n", worst);
	if (pf2 > 0 && mpf2 > 0)
		printf("# powersaving/performance at 2 loops: measured %.3f, model %.3f\n", ps2 / pf2, mps2 / mpf2);
}

static void usage(FILE *f)
{
	fprintf(f, "usage: %s model [--model FILE] [--table snb-ep|snb-laptop]\n"
		"       %s model --fit [--table snb-ep|snb-laptop]\n"
		"       %s model --fit RUN_DIR... [--model PRIOR] [--out FILE]\n"
		"  Prints a measured table of the v7 cover letter beside what the power model\n"
		"  predicts for the same placements, and the largest error.\n"
		"  --model FILE   the model (default %s)\n"
		"  --table NAME   snb-ep (2 x 8 x HT) or snb-laptop (4 x HT); default: the\n"
		"                 table of the model's machine\n"
		"  --fit          refit the coefficients to the table and print a model file\n"
		"  --fit RUN_DIR  fit to recordings with energy.tsv, analyzed with '%s analyze':\n"
		"                 measured RAPL watts over each analysis window against the\n"
		"                 run's busy packages, cores, threads and package wakeups;\n"
		"                 writes the model to --out (default power-model-fit.conf)\n"
		"                 and prints the fit error per run; --model is the prior for\n"
		"                 coefficients the runs cannot determine\n",
		progname, progname, progname, default_model_path(), progname);
}

int cmd_model(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "model", required_argument, NULL, 'm' },
		{ "table", required_argument, NULL, 't' },
		{ "fit", no_argument, NULL, 'f' },
		{ "out", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *path = NULL, *table = NULL, *out = NULL;
	const struct power_table *tb;
	struct power_model m;
	char err[512];
	bool do_fit = false;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "m:t:fo:h", opts, NULL)) != -1) {
		switch (c) {
		case 'm': path = optarg; break;
		case 't': table = optarg; break;
		case 'f': do_fit = true; break;
		case 'o': out = optarg; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (table && !table_by_name(table)) {
		warning("--table '%s': unknown (snb-ep or snb-laptop)", table);
		return 2;
	}
	if (optind != argc || out) {
		if (!do_fit || optind == argc) {
			usage(stderr);
			return 2;
		}
		if (table) {
			warning("--table: a fit to runs uses no table");
			return 2;
		}
		return cmd_model_fit(argc, argv, optind, path, out ? out : "power-model-fit.conf");
	}

	if (do_fit) {
		tb = table ? table_by_name(table) : &tables[0];
		if (fit_table(tb, &m)) {
			warning("the %s table does not determine the model", tb->name);
			return 1;
		}
		printf("# least-squares fit to the %s table of the v7 cover letter\n", tb->machine);
		if (power_model_write(stdout, &m) || fflush(stdout)) {
			warning("standard output: write error");
			return 1;
		}
		return 0;
	}

	if (!path)
		path = default_model_path();
	if (power_model_read(path, &m, err, sizeof(err))) {
		warning("%s", err);
		return 1;
	}
	print_table(table ? table_by_name(table) : table_for_model(&m), &m);
	return 0;
}
