/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the powersched workloads share: phase markers in the trace, the
 * result file, time helpers and the unit of work.
 */
#ifndef WORKLOADS_COMMON_H
#define WORKLOADS_COMMON_H

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <tracefs.h>

static inline double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Phase markers go to trace_marker ("powersched-phase: NAME ..."), so that
 * the analyzer can cut a run to its measured phase.  Without tracefs (not
 * mounted, not root) they are skipped silently: the workload still runs.
 */
static inline void mark(const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	tracefs_printf(NULL, "powersched-phase: %s\n", buf);
}

/*
 * The machine-readable result: "key<TAB>value" lines in result.tsv in the
 * current directory (the results folder in the guest), read by
 * `powersched compare` (keys runtime_s and throughput) and by scripts.
 */
static inline FILE *result_open(const char *workload)
{
	FILE *f = fopen("result.tsv", "w");

	if (!f) {
		fprintf(stderr, "%s: cannot write result.tsv: %s\n", workload, strerror(errno));
		exit(1);
	}
	fprintf(f, "# %s result: key<TAB>value\nworkload\t%s\n", workload, workload);
	return f;
}

/* One unit of cpu work; volatile so the compiler keeps every iteration. */
static inline void work(uint64_t iterations)
{
	volatile uint64_t x = 0;

	for (uint64_t i = 0; i < iterations; i++)
		x += i;
}

static inline long parse_long(const char *prog, const char *what, const char *s, long min, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max) {
		fprintf(stderr, "%s: %s '%s': expected a whole number from %ld to %ld\n", prog, what, s, min, max);
		exit(2);
	}
	return v;
}

#endif
