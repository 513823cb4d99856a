/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The running machine, as powersched record and powersched topology see it:
 * every file under /sys, /proc and tracefs is read below a root directory
 * taken from $POWERSCHED_SYSROOT (default "/"), so that the tests run the
 * same code on fixture trees (a fake powercap tree, a fake cpu topology).
 */
#ifndef POWERSCHED_MACHINE_H
#define POWERSCHED_MACHINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define SYSROOT_ENV	"POWERSCHED_SYSROOT"

/* sysroot.c: paths and small reads below the root directory */
const char *sysroot(void);
int sys_path(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int sys_read(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int sys_read_u64(uint64_t *v, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int sys_write(const char *val, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
bool sys_exists(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
FILE *sys_fopen(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int sys_cpulist(const char *rel, int **cpus);

/*
 * topology-write.c: topology.tsv of this machine (format: qemu/topology.md)
 * from sysfs and /proc/schedstat; names and flags from debugfs when mounted.
 * Returns 0, or -1 with err set.  *note gets a line worth telling the user
 * (names inferred, no schedstat), or stays empty.
 */
int topology_write(FILE *out, char *note, size_t notelen, char *err, size_t errlen);
int topology_write_file(const char *path, char *note, size_t notelen, char *err, size_t errlen);

/* energy-sample.c: the powercap RAPL zones and energy.tsv (analysis/FORMATS.md) */
#define RAPL_MAX_ZONES	32

struct rapl_zone {
	char sysfs[64];		/* directory name: intel-rapl:0, intel-rapl:0:2 */
	char label[48];		/* package-0, dram-0 */
	uint64_t max_range_uj;	/* max_energy_range_uj: the counter wraps past it */
	int fd;			/* energy_uj, kept open for sampling */
};

struct energy_log {
	FILE *f;
	char path[4096];
	int nzones;
	struct rapl_zone zones[RAPL_MAX_ZONES];
	uint64_t nsamples;
	int failed_reads;
};

int rapl_find(struct rapl_zone *zones, int max, int *n, char *err, size_t errlen);
int energy_log_open(struct energy_log *log, const char *path, char *err, size_t errlen);
int energy_log_sample(struct energy_log *log);
int energy_log_close(struct energy_log *log, char *err, size_t errlen);

/* json-write.c: JSON strings, escaped and valid UTF-8 */
void json_write_str(FILE *f, const char *s);

/* time */
uint64_t mono_ns(void);

#endif
