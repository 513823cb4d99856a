// SPDX-License-Identifier: GPL-2.0
/*
 * powersched model: the power model, its file, and its calibration against
 * the SNB-EP measurements of the v7 cover letter.
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

int power_model_read(const char *path, struct power_model *m, char *err, size_t errlen)
{
	static const char * const keys[] = {
		"base_watts", "package_watts", "core_watts", "thread_watts",
		"package_wakeup_joules",
	};
	double *vals[] = {
		&m->base_watts, &m->package_watts, &m->core_watts,
		&m->thread_watts, &m->package_wakeup_joules,
	};
	bool seen[5] = { false };
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
		for (k = 0; k < 5 && strcmp(key, keys[k]); k++)
			;
		if (k == 5) {
			snprintf(err, errlen, "%s:%d: unknown key '%s'", path, lineno, key);
			fclose(f);
			return -1;
		}
		*vals[k] = v;
		seen[k] = true;
	}
	fclose(f);
	for (int k = 0; k < 5; k++)
		if (!seen[k]) {
			snprintf(err, errlen, "%s: missing key '%s'", path, keys[k]);
			return -1;
		}
	return 0;
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
 * The SNB-EP table of the v7 cover letter (2 sockets x 8 cores x HT) and
 * the packages, cores and threads x busy loops occupy under each policy.
 */
static const struct snbep_point {
	const char *policy;
	int loops, pkgs, cores, threads;
	double watts;
} snbep[] = {
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
#define NPOINTS (int)(sizeof(snbep) / sizeof(snbep[0]))

/* Least squares for watts = b + p*pkgs + c*cores + t*threads. */
static int fit(double x[4])
{
	double m[4][5] = { { 0 } };

	for (int i = 0; i < NPOINTS; i++) {
		double a[4] = { 1, snbep[i].pkgs, snbep[i].cores, snbep[i].threads };

		for (int r = 0; r < 4; r++) {
			for (int c = 0; c < 4; c++)
				m[r][c] += a[r] * a[c];
			m[r][4] += a[r] * snbep[i].watts;
		}
	}
	for (int i = 0; i < 4; i++) {
		int piv = i;

		for (int r = i + 1; r < 4; r++)
			if (fabs(m[r][i]) > fabs(m[piv][i]))
				piv = r;
		if (fabs(m[piv][i]) < 1e-12)
			return -1;
		for (int c = 0; c < 5; c++) {
			double tmp = m[i][c];

			m[i][c] = m[piv][c];
			m[piv][c] = tmp;
		}
		for (int r = 0; r < 4; r++) {
			double f;

			if (r == i)
				continue;
			f = m[r][i] / m[i][i];
			for (int c = i; c < 5; c++)
				m[r][c] -= f * m[i][c];
		}
	}
	for (int i = 0; i < 4; i++)
		x[i] = m[i][4] / m[i][i];
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: %s model [--model FILE] [--fit]\n"
		"  Prints the SNB-EP measurements of the v7 cover letter beside what the\n"
		"  power model predicts for the same placements, and the largest error.\n"
		"  --fit   refit the coefficients to that table and print a model file\n",
		progname);
}

int cmd_model(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "model", required_argument, NULL, 'm' },
		{ "fit", no_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *path = default_model_path();
	struct power_model m;
	char err[512];
	double worst = 0;
	bool do_fit = false;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "m:fh", opts, NULL)) != -1) {
		switch (c) {
		case 'm': path = optarg; break;
		case 'f': do_fit = true; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind != argc) {
		usage(stderr);
		return 2;
	}

	if (do_fit) {
		double x[4];

		if (fit(x)) {
			warning("the SNB-EP table does not determine the model");
			return 1;
		}
		printf("base_watts\t\t%.2f\npackage_watts\t\t%.2f\ncore_watts\t\t%.2f\n"
		       "thread_watts\t\t%.2f\npackage_wakeup_joules\t0.0005\n", x[0], x[1], x[2], x[3]);
		return 0;
	}

	if (power_model_read(path, &m, err, sizeof(err))) {
		warning("%s", err);
		return 1;
	}
	printf("# power model %s against the SNB-EP table of the v7 cover letter\n", path);
	printf("# policy\tloops\tpackages\tcores\tthreads\tmeasured_W\tmodel_W\terror_pct\n");
	for (int i = 0; i < NPOINTS; i++) {
		double w = power_model_watts(&m, snbep[i].pkgs, snbep[i].cores,
					     snbep[i].threads, 0);
		double e = 100 * (w - snbep[i].watts) / snbep[i].watts;

		if (fabs(e) > fabs(worst))
			worst = e;
		printf("%s\t%d\t%d\t%d\t%d\t%.1f\t%.1f\t%+.1f\n", snbep[i].policy,
		       snbep[i].loops, snbep[i].pkgs, snbep[i].cores, snbep[i].threads,
		       snbep[i].watts, w, e);
	}
	printf("# largest error: %+.1f%%\n", worst);
	return 0;
}
