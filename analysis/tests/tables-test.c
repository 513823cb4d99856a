// SPDX-License-Identifier: GPL-2.0
/*
 * tables-test: the latency histogram (analysis/hist.c) and the table of
 * live tasks (analysis/tasks.c) on their own.  TAP-style output; exit
 * status 1 when a check failed.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../hist.h"
#include "../tasks.h"

static int checks, failures;

static void check(const char *what, int ok, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void check(const char *what, int ok, const char *fmt, ...)
{
	checks++;
	if (ok) {
		printf("ok - %s\n", what);
		return;
	}
	failures++;
	printf("not ok - %s\n# ", what);
	{
		va_list ap;

		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
	}
	putchar('\n');
}

static void test_hist(void)
{
	struct hist h;
	uint64_t q, from, to, prev_to = 0;
	int contiguous = 1;

	memset(&h, 0, sizeof(h));
	check("hist: empty quantile is 0", hist_quantile(&h, 0.5) == 0, "got %" PRIu64, hist_quantile(&h, 0.5));
	for (int b = 0; b < HIST_BINS; b++) {
		hist_bin(b, &from, &to);
		if (from != prev_to || to <= from)
			contiguous = 0;
		prev_to = to;
	}
	check("hist: the bins tile the range", contiguous, "a gap or an overlap");
	for (uint64_t v = 1; v <= 100; v++)
		hist_add(&h, v * 1000000);	/* 1 .. 100 ms */
	q = hist_quantile(&h, 0.5);
	check("hist: the median of 1..100 ms is 50 ms within 9% above", q >= 50000000 && q <= 54500000,
	      "got %" PRIu64, q);
	q = hist_quantile(&h, 0.99);
	check("hist: p99 is 99 ms within 9% (capped at the max)", q >= 99000000 && q <= 100000000,
	      "got %" PRIu64, q);
	check("hist: p100 is the max", hist_quantile(&h, 1.0) == 100000000, "got %" PRIu64, hist_quantile(&h, 1.0));
	check("hist: count and sum", h.count == 100 && h.sum_ns == 5050000000ULL, "count %" PRIu64, h.count);
	memset(&h, 0, sizeof(h));
	hist_add(&h, 500);
	hist_add(&h, UINT64_MAX / 4);
	check("hist: below 1 us and huge values land in the end bins", h.n[0] == 1 && h.n[HIST_BINS - 1] == 1,
	      "n[0] %u, last %u", h.n[0], h.n[HIST_BINS - 1]);
}

static void test_tasks(void)
{
	struct tasks ts;
	int bad = 0;

	memset(&ts, 0, sizeof(ts));
	/* many tasks come and go: pids collide in the table and wrap */
	for (int round = 0; round < 50; round++) {
		for (int i = 0; i < 1000; i++) {
			struct task *t = task_get(&ts, 1 + round * 1000 + i);

			if (!t) {
				bad++;
				continue;
			}
			t->mig[0] = i;
		}
		/* the older half exits */
		for (int i = 0; i < 1000; i += 2) {
			struct task *t = task_find(&ts, 1 + round * 1000 + i);

			if (!t || t->mig[0] != (uint32_t)i)
				bad++;
			else
				task_remove(&ts, t);
		}
	}
	check("tasks: every task added is found with its data", !bad, "%d wrong", bad);
	check("tasks: only the live ones are kept", ts.n == 25000, "%u live", ts.n);
	bad = 0;
	for (int round = 0; round < 50; round++)
		for (int i = 0; i < 1000; i++) {
			struct task *t = task_find(&ts, 1 + round * 1000 + i);

			if ((i % 2 == 0) != (t == NULL) || (t && t->mig[0] != (uint32_t)i))
				bad++;
		}
	check("tasks: after removals the others are still found, the removed are not", !bad, "%d wrong", bad);
	check("tasks: the table stays within twice the live tasks, rounded to a power of two",
	      ts.nslots <= 65536, "%u slots", ts.nslots);
	tasks_free(&ts);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	test_hist();
	test_tasks();
	printf("# %d checks, %d failed\n", checks, failures);
	return failures ? 1 : 0;
}
