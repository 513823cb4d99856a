// SPDX-License-Identifier: GPL-2.0
/*
 * The RAPL sampler (energy-sample.c) and the energy.tsv reader (energy.c)
 * on a fake powercap tree under $POWERSCHED_SYSROOT: two packages, a dram
 * zone, a core zone that is not sampled, an MMIO duplicate of package-0,
 * and package-1's counter wrapping around between two samples.  The
 * energies below follow from the counter values the test writes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../../machine.h"
#include "../../energy.h"
#include "tap.h"

static char root[] = "/tmp/powersched-energy.XXXXXX";

static void put(const char *zone, const char *file, const char *val)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/sys/class/powercap/%s", root, zone);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/sys/class/powercap/%s/%s", root, zone, file);
	f = fopen(path, "w");
	if (!f || fprintf(f, "%s\n", val) < 0 || fclose(f)) {
		perror(path);
		exit(2);
	}
}

static void counter(const char *zone, unsigned long long uj)
{
	char v[32];

	snprintf(v, sizeof(v), "%llu", uj);
	put(zone, "energy_uj", v);
}

static void zone(const char *dir, const char *name, unsigned long long range, unsigned long long uj)
{
	char v[32];

	put(dir, "name", name);
	snprintf(v, sizeof(v), "%llu", range);
	put(dir, "max_energy_range_uj", v);
	counter(dir, uj);
}

static void pause_ms(int ms)
{
	struct timespec ts = { 0, ms * 1000000L };

	nanosleep(&ts, NULL);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f || fputs(text, f) < 0 || fclose(f)) {
		perror(path);
		exit(2);
	}
}

/* energy_read must refuse TEXT with a message containing WHAT */
static void bad(const char *text, const char *what, const char *desc)
{
	char path[512], err[512] = "";
	struct energy_data e;
	int ret;

	snprintf(path, sizeof(path), "%s/bad.tsv", root);
	write_file(path, text);
	ret = energy_read(path, &e, err, sizeof(err));
	ok(ret == -1 && strstr(err, what) && strstr(err, path), "bad energy.tsv refused: %s (%s)", desc, err);
	if (!ret)
		energy_free(&e);
}

int main(void)
{
	struct energy_log log;
	struct energy_data e;
	struct energy_window w;
	char path[512], err[512] = "", cmd[600];
	int p0, p1, d0;
	double t0, t1, t3;

	if (!mkdtemp(root)) {
		perror("mkdtemp");
		return 2;
	}
	setenv(SYSROOT_ENV, root, 1);

	/* no powercap at all: no zones, no file, no error */
	snprintf(path, sizeof(path), "%s/none.tsv", root);
	ok(energy_log_open(&log, path, err, sizeof(err)) == 0 && log.nzones == 0,
	   "no powercap directory: no zones and no error");
	ok(access(path, F_OK) != 0, "no powercap directory: no energy.tsv written");
	energy_log_close(&log, err, sizeof(err));

	snprintf(path, sizeof(path), "%s/sys/class/powercap", root);
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/intel-rapl", path);
	if (system(cmd))
		return 2;
	zone("intel-rapl:0", "package-0", 262143328850ULL, 1000000);
	zone("intel-rapl:0:0", "core", 262143328850ULL, 5);
	zone("intel-rapl:0:1", "dram", 65712999613ULL, 500);
	zone("intel-rapl:1", "package-1", 1000000, 900000);
	zone("intel-rapl-mmio:0", "package-0", 262143328850ULL, 77);

	snprintf(path, sizeof(path), "%s/energy.tsv", root);
	ok(energy_log_open(&log, path, err, sizeof(err)) == 0, "energy_log_open: %s", err[0] ? err : "ok");
	ok(log.nzones == 3, "three zones sampled (package-0, dram-0, package-1), got %d", log.nzones);
	ok(log.nzones == 3 && !strcmp(log.zones[0].label, "package-0") && !strcmp(log.zones[0].sysfs, "intel-rapl:0") &&
	   !strcmp(log.zones[1].label, "dram-0") && !strcmp(log.zones[2].label, "package-1"),
	   "zones in order, the MSR package-0 kept over the MMIO duplicate, dram labelled by its package");

	energy_log_sample(&log);			/* p0 1.0 J, dram 0.0005, p1 0.9 */
	pause_ms(30);
	counter("intel-rapl:0", 3000000);		/* +2 J */
	counter("intel-rapl:0:1", 1000500);		/* +1 J */
	counter("intel-rapl:1", 400000);		/* wraps: +0.1 to the top, +0.4 */
	energy_log_sample(&log);
	pause_ms(30);
	counter("intel-rapl:0", 6000000);		/* +3 J */
	put("intel-rapl:0:1", "energy_uj", "garbage");	/* a failed read: "-" */
	counter("intel-rapl:1", 900000);		/* +0.5 J */
	energy_log_sample(&log);
	pause_ms(30);
	counter("intel-rapl:0:1", 3000500);		/* +2 J since the last good read */
	energy_log_sample(&log);
	ok(log.failed_reads == 1, "one failed read counted (%d)", log.failed_reads);
	ok(energy_log_close(&log, err, sizeof(err)) == 0, "energy.tsv closed without a write error");

	ok(energy_read(path, &e, err, sizeof(err)) == 0, "energy_read reads what was sampled: %s", err[0] ? err : "ok");
	ok(e.nzones == 3 && e.nsamples == 4, "3 zones, 4 samples (got %d, %zu)", e.nzones, e.nsamples);
	ok(e.wraps == 1, "one wrap-around undone (%u)", e.wraps);
	p0 = energy_zone_index(&e, "package-0");
	p1 = energy_zone_index(&e, "package-1");
	d0 = energy_zone_index(&e, "dram-0");
	ok(p0 == 0 && d0 == 1 && p1 == 2, "zones found by label");
	ok(energy_zone_index(&e, "psys") == -1, "an unknown label is not found");
	t0 = e.t[0];
	t1 = e.t[1];
	t3 = e.t[3];
	ok(t1 > t0 && t3 > t1, "sample times ascend");

	ok(energy_window(&e, p0, t0, t3, &w) == 0 && w.covered, "package-0 over the whole recording");
	near(w.joules, 5.0, 1e-9, "package-0 joules");
	near(w.watts, 5.0 / (t3 - t0), 1e-6, "package-0 watts = joules / seconds");
	ok(energy_window(&e, p1, t0, t3, &w) == 0, "package-1 over the whole recording");
	near(w.joules, 1.0, 1e-9, "package-1 joules across the wrap (0.1 + 0.4 + 0.5)");
	ok(energy_window(&e, p1, t0, t1, &w) == 0, "package-1 over the wrapping interval");
	near(w.joules, 0.5, 1e-9, "package-1: max - previous + current");
	ok(energy_window(&e, d0, t0, t3, &w) == 0, "dram-0 over the recording, one reading missing");
	near(w.joules, 3.0, 1e-9, "dram-0 joules bridge the failed read");

	/* half of the first interval: half of its energy */
	ok(energy_window(&e, p0, t0, (t0 + t1) / 2, &w) == 0 && w.covered, "package-0 over half an interval");
	near(w.joules, 1.0, 1e-9, "linear within an interval");
	/* a window past the samples is clamped, and says so */
	ok(energy_window(&e, p0, t0 - 10, t3 + 10, &w) == 0 && !w.covered, "a window beyond the samples is not covered");
	near(w.to_s - w.from_s, t3 - t0, 1e-9, "and is clamped to the samples");
	near(w.joules, 5.0, 1e-9, "clamped window joules");
	ok(energy_window(&e, p0, t3 + 1, t3 + 2, &w) == -1, "a window after the last sample has no energy");
	ok(energy_window(&e, p0, t1, t0, &w) == -1, "an empty window is refused");
	ok(energy_window(&e, 7, t0, t3, &w) == -1, "an unknown zone is refused");
	energy_free(&e);

	snprintf(path, sizeof(path), "%s/missing.tsv", root);
	ok(energy_read(path, &e, err, sizeof(err)) == -1 && strstr(err, path), "a missing file is named: %s", err);
	bad("", "no zone records", "empty file");
	bad("# only a comment\n", "no zone records", "comments only");
	bad("sample\t1.0\t5\n", "before any zone", "a sample before the zones");
	bad("zone\t1\tpackage-0\tintel-rapl:0\t100\n", "indices from 0", "zone indices must start at 0");
	bad("zone\t0\tpackage-0\tintel-rapl:0\t0\n", "positive", "a zero range");
	bad("zone\t0\tpackage-0\tintel-rapl:0\t100\nsample\t1.0\t101\n", "within the zone's range", "a value past the range");
	bad("zone\t0\tpackage-0\tintel-rapl:0\t100\nsample\t1.0\t-5\n", "within the zone's range", "a negative value");
	bad("zone\t0\tpackage-0\tintel-rapl:0\t100\nsample\t2.0\t5\nsample\t1.0\t6\n", "previous sample", "time going backwards");
	bad("zone\t0\tpackage-0\tintel-rapl:0\t100\nsample\tnan\t5\n", "seconds", "a time that is not a number");
	bad("zone\t0\tpackage-0\tintel-rapl:0\t100\nsample\t1.0\t5\t6\n", "one value per zone", "too many values");
	bad("zone\t0\tpackage-0\tintel-rapl:0\t100\nsample\t1.0\t5\nzone\t1\tdram\tx\t100\n", "after the samples", "a zone after the samples");

	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	if (system(cmd))
		ok(0, "cleanup of %s", root);
	return tap_done();
}
