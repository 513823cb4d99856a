// SPDX-License-Identifier: GPL-2.0
/*
 * Measured energy from energy.tsv: joules and watts per RAPL zone over a
 * time window (the analysis window of a trace, or a whole recording).
 *
 * The file keeps raw energy_uj readings.  A counter runs from 0 to
 * max_energy_range_uj and starts again at 0, so a reading below the one
 * before means it wrapped: the energy in between is (max - previous) +
 * current.  (Two wraps between samples cannot be told from one: at 100 ms
 * sampling that would take a package drawing about 2.6 MW.)  Between
 * samples the energy is taken to grow linearly, so a window that starts or
 * ends between two samples gets the matching share of that interval.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "energy.h"

static int fail(char *err, size_t errlen, const char *path, int lineno, const char *what)
{
	if (lineno)
		snprintf(err, errlen, "%s:%d: %s", path, lineno, what);
	else
		snprintf(err, errlen, "%s: %s", path, what);
	return -1;
}

static bool parse_u64(const char *s, uint64_t *v)
{
	char *end;

	if (!*s || *s == '-' || *s == '+')
		return false;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return !errno && !*end;
}

int energy_read(const char *path, struct energy_data *e, char *err, size_t errlen)
{
	uint64_t last[ENERGY_MAX_ZONES];
	bool have_last[ENERGY_MAX_ZONES] = { false };
	double base[ENERGY_MAX_ZONES] = { 0 };
	size_t cap = 0;
	char *line = NULL;
	size_t lcap = 0;
	int lineno = 0, ret = -1;
	FILE *f;

	memset(e, 0, sizeof(*e));
	f = fopen(path, "re");
	if (!f)
		return fail(err, errlen, path, 0, strerror(errno));
	while (getline(&line, &lcap, f) > 0) {
		char *fld[ENERGY_MAX_ZONES + 3], *save = NULL;
		int n = 0;

		lineno++;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		line[strcspn(line, "\n")] = 0;
		for (char *p = strtok_r(line, "\t", &save); p; p = strtok_r(NULL, "\t", &save)) {
			if (n == ENERGY_MAX_ZONES + 3) {
				fail(err, errlen, path, lineno, "too many columns");
				goto out;
			}
			fld[n++] = p;
		}
		if (!n)
			continue;
		if (!strcmp(fld[0], "zone")) {
			struct energy_zone_info *z;
			uint64_t idx;

			if (e->nsamples) {
				fail(err, errlen, path, lineno, "a zone record after the samples");
				goto out;
			}
			if (n < 5 || !parse_u64(fld[1], &idx) || idx != (uint64_t)e->nzones) {
				fail(err, errlen, path, lineno, "expected: zone INDEX LABEL SYSFS MAX_ENERGY_RANGE_UJ, indices from 0 in order");
				goto out;
			}
			if (e->nzones == ENERGY_MAX_ZONES) {
				fail(err, errlen, path, lineno, "more zones than supported");
				goto out;
			}
			z = &e->zones[e->nzones];
			if (!parse_u64(fld[4], &z->max_range_uj) || !z->max_range_uj) {
				fail(err, errlen, path, lineno, "max_energy_range_uj is not a positive number");
				goto out;
			}
			snprintf(z->label, sizeof(z->label), "%s", fld[2]);
			snprintf(z->sysfs, sizeof(z->sysfs), "%s", fld[3]);
			e->nzones++;
		} else if (!strcmp(fld[0], "sample")) {
			char *end;
			double t;

			if (!e->nzones) {
				fail(err, errlen, path, lineno, "a sample before any zone record");
				goto out;
			}
			if (n != e->nzones + 2) {
				fail(err, errlen, path, lineno, "a sample needs a time and one value per zone");
				goto out;
			}
			errno = 0;
			t = strtod(fld[1], &end);
			if (errno || *end || !isfinite(t) || t < 0 ||
			    (e->nsamples && t < e->t[e->nsamples - 1])) {
				fail(err, errlen, path, lineno, "the time is not a number of seconds after the previous sample's");
				goto out;
			}
			if (e->nsamples == cap) {
				double *nt, *nj;

				cap = cap ? cap * 2 : 256;
				nt = realloc(e->t, cap * sizeof(double));
				if (nt)
					e->t = nt;
				nj = realloc(e->joules, cap * e->nzones * sizeof(double));
				if (nj)
					e->joules = nj;
				if (!nt || !nj) {
					fail(err, errlen, path, lineno, "out of memory");
					goto out;
				}
			}
			e->t[e->nsamples] = t;
			for (int k = 0; k < e->nzones; k++) {
				double *j = &e->joules[e->nsamples * e->nzones + k];
				uint64_t v;

				if (!strcmp(fld[k + 2], "-")) {
					*j = NAN;	/* the read failed while recording */
					continue;
				}
				if (!parse_u64(fld[k + 2], &v) || v > e->zones[k].max_range_uj) {
					fail(err, errlen, path, lineno, "an energy value is not a number within the zone's range");
					goto out;
				}
				if (have_last[k]) {
					uint64_t d = v >= last[k] ? v - last[k]
								  : e->zones[k].max_range_uj - last[k] + v;

					if (v < last[k])
						e->wraps++;
					base[k] += d / 1e6;
				}
				last[k] = v;
				have_last[k] = true;
				*j = base[k];
			}
			e->nsamples++;
		}
		/* other record types: a later version's, ignored */
	}
	if (!e->nzones) {
		fail(err, errlen, path, 0, "no zone records: not an energy.tsv written by powersched record");
		goto out;
	}
	ret = 0;
out:
	free(line);
	fclose(f);
	if (ret)
		energy_free(e);
	return ret;
}

int energy_zone_index(const struct energy_data *e, const char *label)
{
	for (int k = 0; k < e->nzones; k++)
		if (!strcmp(e->zones[k].label, label))
			return k;
	return -1;
}

/* The zone's cumulative energy at time t, by linear interpolation; t within its samples. */
static double joules_at(const struct energy_data *e, int zone, double t)
{
	size_t prev = SIZE_MAX;

	for (size_t i = 0; i < e->nsamples; i++) {
		double j = e->joules[i * e->nzones + zone];

		if (isnan(j))
			continue;
		if (e->t[i] >= t) {
			double jp, tp;

			if (prev == SIZE_MAX || e->t[i] == t)
				return j;
			jp = e->joules[prev * e->nzones + zone];
			tp = e->t[prev];
			return jp + (j - jp) * (t - tp) / (e->t[i] - tp);
		}
		prev = i;
	}
	return prev == SIZE_MAX ? NAN : e->joules[prev * e->nzones + zone];
}

int energy_window(const struct energy_data *e, int zone, double from_s, double to_s,
		  struct energy_window *w)
{
	double first = NAN, last = NAN;

	memset(w, 0, sizeof(*w));
	if (zone < 0 || zone >= e->nzones || !(to_s > from_s))
		return -1;
	for (size_t i = 0; i < e->nsamples; i++)
		if (!isnan(e->joules[i * e->nzones + zone])) {
			if (isnan(first))
				first = e->t[i];
			last = e->t[i];
		}
	if (isnan(first) || !(last > first))
		return -1;	/* fewer than two readings in time */
	w->covered = from_s >= first && to_s <= last;
	w->from_s = from_s < first ? first : from_s;
	w->to_s = to_s > last ? last : to_s;
	if (!(w->to_s > w->from_s))
		return -1;	/* the window lies outside the samples */
	w->joules = joules_at(e, zone, w->to_s) - joules_at(e, zone, w->from_s);
	w->watts = w->joules / (w->to_s - w->from_s);
	return 0;
}

void energy_free(struct energy_data *e)
{
	free(e->t);
	free(e->joules);
	e->t = e->joules = NULL;
	e->nsamples = 0;
}
