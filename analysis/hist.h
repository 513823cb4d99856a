/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A latency histogram of fixed size: bin 0 holds values below 1024 ns,
 * then HIST_SUB bins per power of two up to 2^(10 + HIST_OCT) ns (about
 * 18 minutes); larger values land in the last bin.  A quantile is the
 * upper bound of its bin (never above the largest value seen): with 8 bins
 * an octave it is at most 9% above the true value.
 */
#ifndef HIST_H
#define HIST_H

#include <stdint.h>

#define HIST_SUB	8
#define HIST_OCT	30
#define HIST_BINS	(1 + HIST_OCT * HIST_SUB)

struct hist {
	uint64_t count;
	uint64_t sum_ns;
	uint64_t max_ns;
	uint32_t n[HIST_BINS];
};

void hist_add(struct hist *h, uint64_t ns);
/* The @q quantile (0 < q <= 1) in ns; 0 for an empty histogram */
uint64_t hist_quantile(const struct hist *h, double q);
/* The bounds of bin @b in ns: [*from, *to) */
void hist_bin(int b, uint64_t *from, uint64_t *to);

#endif
