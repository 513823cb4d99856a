// SPDX-License-Identifier: GPL-2.0
/*
 * Sampling the powercap RAPL energy counters into energy.tsv (format:
 * analysis/FORMATS.md) while powersched record runs.
 *
 * Zones: /sys/class/powercap/intel-rapl*, those named package-N and dram
 * (the AMD and Intel RAPL drivers both register there).  Laptops list the
 * package a second time under intel-rapl-mmio; the MSR zone is kept and the
 * duplicate label dropped.  The file keeps the raw energy_uj values: each
 * counter wraps to 0 past max_energy_range_uj, which the file lists per zone
 * and the reader (energy.c) unwraps.  Times are CLOCK_MONOTONIC, the clock
 * powersched record has trace-cmd stamp the trace with (-C mono), so a
 * trace window maps onto the samples directly.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "machine.h"

static bool is_mmio(const char *name)
{
	return !strncmp(name, "intel-rapl-mmio", 15);
}

/* MSR zones before MMIO ones, then natural order (intel-rapl:2 < :10) */
static int cmp_zone(const void *a, const void *b)
{
	const char *x = *(const char * const *)a, *y = *(const char * const *)b;

	if (is_mmio(x) != is_mmio(y))
		return is_mmio(x) - is_mmio(y);
	return strverscmp(x, y);
}

static int read_uj(int fd, uint64_t *v)
{
	char buf[32], *end;
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

	if (n <= 0)
		return -1;
	buf[n] = 0;
	errno = 0;
	*v = strtoull(buf, &end, 10);
	if (errno || end == buf || (*end && *end != '\n'))
		return -1;
	return 0;
}

/* dram zones are children of a package zone: intel-rapl:P:S -> package-P's name */
static void dram_label(const char *zone, char *label, size_t len)
{
	char parent[64], pname[48];
	char *colon;

	snprintf(parent, sizeof(parent), "%s", zone);
	colon = strrchr(parent, ':');
	if (colon && colon != strchr(parent, ':')) {
		*colon = 0;
		if (!sys_read(pname, sizeof(pname), "/sys/class/powercap/%s/name", parent) &&
		    !strncmp(pname, "package-", 8)) {
			snprintf(label, len, "dram-%s", pname + 8);
			return;
		}
		snprintf(label, len, "dram-%s", strchr(parent, ':') + 1);
		return;
	}
	snprintf(label, len, "dram");
}

int rapl_find(struct rapl_zone *zones, int max, int *n, char *err, size_t errlen)
{
	char path[4096], **names = NULL;
	struct dirent *de;
	int nnames = 0, cap = 0, ret = 0;
	DIR *d;

	*n = 0;
	if (sys_path(path, sizeof(path), "/sys/class/powercap") || !(d = opendir(path)))
		return 0;	/* no powercap: no meter, not an error */
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, "intel-rapl", 10) || strlen(de->d_name) >= 64)
			continue;
		if (nnames == cap) {
			char **nn = realloc(names, (cap = cap ? 2 * cap : 16) * sizeof(char *));

			if (!nn)
				break;
			names = nn;
		}
		names[nnames] = strdup(de->d_name);
		if (names[nnames])
			nnames++;
	}
	closedir(d);
	if (nnames)
		qsort(names, nnames, sizeof(char *), cmp_zone);

	for (int i = 0; i < nnames && !ret; i++) {
		struct rapl_zone *z = &zones[*n];
		char name[48], label[48], upath[4096];
		uint64_t v;
		bool dup = false;

		z->fd = -1;
		if (sys_read(name, sizeof(name), "/sys/class/powercap/%s/name", names[i]))
			continue;
		if (!strncmp(name, "package-", 8))
			snprintf(label, sizeof(label), "%s", name);
		else if (!strcmp(name, "dram"))
			dram_label(names[i], label, sizeof(label));
		else
			continue;	/* core, uncore, psys: not what the model covers */
		for (int k = 0; k < *n; k++)
			if (!strcmp(zones[k].label, label))
				dup = true;
		if (dup)
			continue;
		if (*n == max) {
			snprintf(err, errlen, "more than %d RAPL zones under %s", max, path);
			ret = -1;
			break;
		}
		if (sys_read_u64(&z->max_range_uj, "/sys/class/powercap/%s/max_energy_range_uj", names[i]) ||
		    !z->max_range_uj) {
			snprintf(err, errlen, "%s/%s/max_energy_range_uj: cannot read a range: %s",
				 path, names[i], strerror(errno ? errno : EINVAL));
			ret = -1;
			break;
		}
		if (sys_path(upath, sizeof(upath), "/sys/class/powercap/%s/energy_uj", names[i]) ||
		    (z->fd = open(upath, O_RDONLY | O_CLOEXEC)) < 0 || read_uj(z->fd, &v)) {
			snprintf(err, errlen, "%s: cannot read the energy counter: %s%s", upath,
				 strerror(errno ? errno : EINVAL),
				 errno == EACCES ? " (root can: run as root)" : "");
			if (z->fd >= 0)
				close(z->fd);
			ret = -1;
			break;
		}
		snprintf(z->sysfs, sizeof(z->sysfs), "%s", names[i]);
		snprintf(z->label, sizeof(z->label), "%s", label);
		(*n)++;
	}
	for (int i = 0; i < nnames; i++)
		free(names[i]);
	free(names);
	if (ret) {
		for (int k = 0; k < *n; k++)
			close(zones[k].fd);
		*n = 0;
	}
	return ret;
}

/* No zones: returns 0 with log->nzones 0 and writes no file. */
int energy_log_open(struct energy_log *log, const char *path, char *err, size_t errlen)
{
	memset(log, 0, sizeof(*log));
	snprintf(log->path, sizeof(log->path), "%s", path);
	if (rapl_find(log->zones, RAPL_MAX_ZONES, &log->nzones, err, errlen))
		return -1;
	if (!log->nzones)
		return 0;
	log->f = fopen(path, "w");
	if (!log->f) {
		snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
		for (int k = 0; k < log->nzones; k++)
			close(log->zones[k].fd);
		log->nzones = 0;
		return -1;
	}
	fprintf(log->f, "# powersched energy v1 (format: analysis/FORMATS.md): RAPL energy counters sampled during a recording\n"
		"# time_s is CLOCK_MONOTONIC, the trace's clock; energy_uj values are raw and wrap past max_energy_range_uj\n"
		"# zone\tindex\tlabel\tsysfs\tmax_energy_range_uj\n");
	for (int k = 0; k < log->nzones; k++)
		fprintf(log->f, "zone\t%d\t%s\t%s\t%llu\n", k, log->zones[k].label, log->zones[k].sysfs,
			(unsigned long long)log->zones[k].max_range_uj);
	fprintf(log->f, "# sample\ttime_s");
	for (int k = 0; k < log->nzones; k++)
		fprintf(log->f, "\t%s", log->zones[k].label);
	fputc('\n', log->f);
	return fflush(log->f) ? -1 : 0;
}

/* One line: the time between reading the first and the last counter. */
int energy_log_sample(struct energy_log *log)
{
	uint64_t v[RAPL_MAX_ZONES], t0, t1;
	bool ok[RAPL_MAX_ZONES];

	if (!log->f)
		return 0;
	t0 = mono_ns();
	for (int k = 0; k < log->nzones; k++) {
		ok[k] = !read_uj(log->zones[k].fd, &v[k]);
		if (!ok[k])
			log->failed_reads++;
	}
	t1 = mono_ns();
	fprintf(log->f, "sample\t%.9f", (t0 + (t1 - t0) / 2) / 1e9);
	for (int k = 0; k < log->nzones; k++) {
		if (ok[k])
			fprintf(log->f, "\t%llu", (unsigned long long)v[k]);
		else
			fputs("\t-", log->f);
	}
	fputc('\n', log->f);
	log->nsamples++;
	return fflush(log->f) ? -1 : 0;
}

int energy_log_close(struct energy_log *log, char *err, size_t errlen)
{
	int ret = 0;

	for (int k = 0; k < log->nzones; k++)
		close(log->zones[k].fd);
	if (log->f && (ferror(log->f) | fclose(log->f))) {
		snprintf(err, errlen, "%s: write error: %s", log->path, strerror(errno));
		ret = -1;
	}
	log->f = NULL;
	return ret;
}
