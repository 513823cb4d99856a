// SPDX-License-Identifier: GPL-2.0
/*
 * The power model's file (shape keys, round trip, bad values) and the
 * choice of the shipped model that matches a topology's shape.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../powersched.h"
#include "tap.h"

const char *progname = "model-test";

void warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static const char *pick(int pkgs, int cores_per_pkg, int threads)
{
	static struct topology t;
	const char *p, *slash;

	memset(&t, 0, sizeof(t));
	t.npkgs = pkgs;
	t.ncores = pkgs * cores_per_pkg;
	t.ncpus = t.ncores * threads;
	p = power_model_for_topology(&t);
	slash = strrchr(p, '/');
	return slash ? slash + 1 : p;
}

static char tmpdir[] = "/tmp/powersched-model.XXXXXX";

static const char *file(const char *name, const char *text)
{
	static char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f))
		exit(2);
	return path;
}

#define COEFS "base_watts 10\npackage_watts 5\ncore_watts 2\nthread_watts 0.5\npackage_wakeup_joules 0.001\n"

int main(void)
{
	struct power_model m, back;
	char err[512];
	const char *p;
	FILE *f;

	if (!mkdtemp(tmpdir))
		return 2;

	/* the shapes of the guest topologies and beyond */
	ok(!strcmp(pick(1, 4, 2), "power-model-laptop.conf"), "laptop 1x4x2 -> the laptop model (%s)", pick(1, 4, 2));
	ok(!strcmp(pick(1, 2, 1), "power-model-laptop.conf"), "1x2x1 -> the laptop model");
	ok(!strcmp(pick(1, 16, 2), "power-model-laptop.conf"), "one big package 1x16x2 -> the laptop model (packages first)");
	ok(!strcmp(pick(2, 2, 2), "power-model.conf"), "server 2x2x2 -> SNB-EP");
	ok(!strcmp(pick(2, 4, 2), "power-model.conf"), "big 2x4x2 -> SNB-EP");
	ok(!strcmp(pick(4, 2, 2), "power-model.conf"), "quad 4x2x2 -> SNB-EP (nearest in packages)");
	ok(!strcmp(pick(2, 8, 2), "power-model.conf"), "SNB-EP's own shape -> SNB-EP");

	/* the shipped files say what machine they describe */
	ok(power_model_read(default_model_path(), &m, err, sizeof(err)) == 0 &&
	   m.packages == 2 && m.cores_per_package == 8 && m.threads_per_core == 2,
	   "power-model.conf: 2 x 8 x 2");
	p = power_model_for_topology(&(struct topology){ .npkgs = 1, .ncores = 4, .ncpus = 8 });
	ok(power_model_read(p, &m, err, sizeof(err)) == 0 && m.packages == 1 &&
	   m.cores_per_package == 4 && m.threads_per_core == 2, "power-model-laptop.conf: 1 x 4 x 2");
	/* the laptop model: its formula at the cover letter's x = 2 points */
	near(power_model_watts(&m, 1, 1, 2, 0) / power_model_watts(&m, 1, 2, 2, 0), 0.884, 0.001,
	     "laptop model: powersaving/performance at 2 loops (measured 0.759)");

	/* round trip through power_model_write */
	p = file("a.conf", COEFS "packages 3\ncores_per_package 6\nthreads_per_core 1\n");
	ok(power_model_read(p, &m, err, sizeof(err)) == 0, "a model with shape keys reads: %s", err);
	{
		char path[600];

		snprintf(path, sizeof(path), "%s/b.conf", tmpdir);
		f = fopen(path, "w");
		ok(f && power_model_write(f, &m) == 0 && fclose(f) == 0, "power_model_write");
		ok(power_model_read(path, &back, err, sizeof(err)) == 0 &&
		   back.base_watts == 10 && back.package_watts == 5 && back.core_watts == 2 &&
		   back.thread_watts == 0.5 && back.package_wakeup_joules == 0.001 &&
		   back.packages == 3 && back.cores_per_package == 6 && back.threads_per_core == 1,
		   "what power_model_write writes reads back the same");
	}
	ok(power_model_read(file("c.conf", ""), &back, err, sizeof(err)) == -1, "an empty file: refused");
	ok(power_model_read(file("d.conf", COEFS), &m, err, sizeof(err)) == 0 && m.packages == 0,
	   "shape keys are optional (0: not said)");
	ok(power_model_read(file("e.conf", COEFS "packages 1.5\n"), &m, err, sizeof(err)) == -1 &&
	   strstr(err, "whole number"), "a fractional package count is refused: %s", err);
	ok(power_model_read(file("f.conf", COEFS "packages 0\n"), &m, err, sizeof(err)) == -1,
	   "zero packages is refused");
	ok(power_model_read(file("g.conf", "base_watts 10\n"), &m, err, sizeof(err)) == -1 &&
	   strstr(err, "missing key 'package_watts'"), "a missing coefficient is named: %s", err);
	ok(power_model_read(file("h.conf", COEFS "sockets 2\n"), &m, err, sizeof(err)) == -1 &&
	   strstr(err, "unknown key 'sockets'"), "an unknown key is named");

	{
		char cmd[600];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
		if (system(cmd))
			ok(0, "cleanup");
	}
	return tap_done();
}
