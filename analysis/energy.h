/* SPDX-License-Identifier: GPL-2.0 */
/*
 * energy.tsv (analysis/FORMATS.md) read back: measured joules and watts per
 * RAPL zone over a time window, counter wrap-around undone.
 */
#ifndef POWERSCHED_ENERGY_H
#define POWERSCHED_ENERGY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ENERGY_MAX_ZONES	32

struct energy_zone_info {
	char label[48];			/* package-0, dram-0 */
	char sysfs[64];
	uint64_t max_range_uj;
};

struct energy_data {
	int nzones;
	struct energy_zone_info zones[ENERGY_MAX_ZONES];
	size_t nsamples;
	double *t;			/* CLOCK_MONOTONIC seconds, ascending */
	double *joules;			/* [sample * nzones + zone]: energy since the
					 * zone's first reading, unwrapped; NAN where
					 * the counter could not be read */
	unsigned int wraps;		/* counter wrap-arounds undone, all zones */
};

struct energy_window {
	double from_s, to_s;		/* the part of the window the samples cover */
	double joules, watts;
	bool covered;			/* the samples span the whole window */
};

int energy_read(const char *path, struct energy_data *e, char *err, size_t errlen);
int energy_zone_index(const struct energy_data *e, const char *label);
int energy_window(const struct energy_data *e, int zone, double from_s, double to_s,
		  struct energy_window *w);
void energy_free(struct energy_data *e);

#endif
