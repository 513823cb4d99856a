// SPDX-License-Identifier: GPL-2.0
/* Latency histograms (hist.h). */
#include "hist.h"

static int bin_of(uint64_t ns)
{
	int msb, b;

	if (ns < 1024)
		return 0;
	msb = 63 - __builtin_clzll(ns);		/* 10 and up */
	b = 1 + (msb - 10) * HIST_SUB + (int)((ns >> (msb - 3)) & (HIST_SUB - 1));
	return b < HIST_BINS ? b : HIST_BINS - 1;
}

void hist_bin(int b, uint64_t *from, uint64_t *to)
{
	int oct, sub;

	if (b == 0) {
		*from = 0;
		*to = 1024;
		return;
	}
	oct = (b - 1) / HIST_SUB;
	sub = (b - 1) % HIST_SUB;
	*from = (1ULL << (10 + oct)) + (uint64_t)sub * (1ULL << (7 + oct));
	*to = *from + (1ULL << (7 + oct));
}

void hist_add(struct hist *h, uint64_t ns)
{
	h->count++;
	h->sum_ns += ns;
	if (ns > h->max_ns)
		h->max_ns = ns;
	h->n[bin_of(ns)]++;
}

uint64_t hist_quantile(const struct hist *h, double q)
{
	uint64_t want, seen = 0, from, to;

	if (!h->count)
		return 0;
	want = (uint64_t)(q * h->count + 0.999999);
	if (want < 1)
		want = 1;
	for (int b = 0; b < HIST_BINS; b++) {
		seen += h->n[b];
		if (seen >= want) {
			hist_bin(b, &from, &to);
			return to < h->max_ns ? to : h->max_ns;
		}
	}
	return h->max_ns;
}
