// SPDX-License-Identifier: GPL-2.0
/*
 * busy-test: the busy-state machine (analysis/busy.c) on hand-made
 * sequences of context switches, no trace file involved.  TAP-style
 * output; exit status 1 when a check failed.
 *
 * The topology: 2 packages x 2 cores x 2 threads, cpus 0-3 in package 0
 * (cores 0: 0-1, 1: 2-3), cpus 4-7 in package 1; an MC group per package.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "../busy.h"

static int checks, failures;

static void check_u64(const char *what, uint64_t got, uint64_t want)
{
	checks++;
	if (got == want) {
		printf("ok - %s\n", what);
		return;
	}
	failures++;
	printf("not ok - %s\n# got %" PRIu64 ", want %" PRIu64 "\n", what, got, want);
}

static void topo_server(struct topology *t)
{
	memset(t, 0, sizeof(*t));
	t->ncpus = t->nr_cpu_ids = 8;
	t->npkgs = 2;
	t->ncores = 4;
	for (int cpu = 0; cpu < 8; cpu++) {
		t->present[cpu] = true;
		t->pkg[cpu] = cpu / 4;
		t->core[cpu] = cpu / 2;
		t->thread[cpu] = cpu % 2;
	}
	t->pkg_id[0] = 0;
	t->pkg_id[1] = 1;
	t->ndomains = 1;
	strcpy(t->domains[0], "MC");
	t->ngroups = 2;
	for (int g = 0; g < 2; g++) {
		strcpy(t->groups[g].domain, "MC");
		for (int cpu = 4 * g; cpu < 4 * g + 4; cpu++)
			mask_set(&t->groups[g].cpus, cpu);
	}
}

/* Every cpu seen idle, the window open at @t0. */
static void start_idle(struct busy *b, const struct topology *t, uint64_t t0)
{
	for (int cpu = 0; cpu < t->nr_cpu_ids; cpu++)
		busy_seen(b, cpu, 0);
	busy_start(b, t, t0);
}

static void finish(struct busy *b, const struct topology *t, uint64_t end)
{
	busy_close_bucket(b, t, end);
	busy_next_bucket(b);
}

static void test_overlap(void)
{
	struct topology t;
	struct busy b;

	topo_server(&t);
	busy_init(&b, &t);
	start_idle(&b, &t, 0);
	busy_switch(&b, 0, 100, 10);		/* cpu 0 busy 10-30 */
	busy_switch(&b, 1, 101, 20);		/* cpu 1 busy 20-40 */
	busy_switch(&b, 0, 0, 30);
	busy_switch(&b, 1, 0, 40);
	busy_switch(&b, 4, 102, 50);		/* cpu 4 busy 50-60 */
	busy_switch(&b, 4, 0, 60);
	finish(&b, &t, 100);
	check_u64("overlap: cpu 0 busy 20", b.cpu[0].total_ns, 20);
	check_u64("overlap: cpu 1 busy 20", b.cpu[1].total_ns, 20);
	check_u64("overlap: core 0 busy while either thread is: 30", b.units[b.unit_core + 0].total_ns, 30);
	check_u64("overlap: core 1 never busy", b.units[b.unit_core + 1].total_ns, 0);
	check_u64("overlap: package 0 busy 30", b.units[b.unit_pkg + 0].total_ns, 30);
	check_u64("overlap: package 1 busy 10", b.units[b.unit_pkg + 1].total_ns, 10);
	check_u64("overlap: MC group of package 1 busy 10", b.units[b.unit_group + 1].total_ns, 10);
	check_u64("overlap: the system busy 40", b.units[b.unit_system].total_ns, 40);
	check_u64("overlap: one idle spell of package 0 ended", b.units[b.unit_pkg + 0].wakeups, 1);
	check_u64("overlap: two idle spells of the system ended", b.units[b.unit_system].wakeups, 2);
	busy_free(&b);
}

static void test_buckets(void)
{
	struct topology t;
	struct busy b;

	topo_server(&t);
	busy_init(&b, &t);
	start_idle(&b, &t, 1000);
	busy_switch(&b, 2, 7, 1005);		/* busy from 1005 through the end */
	busy_close_bucket(&b, &t, 1010);
	check_u64("buckets: first bucket holds 5 of cpu 2", b.cpu[2].bucket_ns, 5);
	check_u64("buckets: first bucket holds 5 of core 1", b.units[b.unit_core + 1].bucket_ns, 5);
	busy_next_bucket(&b);
	busy_switch(&b, 2, 8, 1012);		/* busy to busy: nothing changes */
	busy_close_bucket(&b, &t, 1020);
	check_u64("buckets: a full second bucket", b.cpu[2].bucket_ns, 10);
	check_u64("buckets: the system's second bucket is full", b.units[b.unit_system].bucket_ns, 10);
	busy_next_bucket(&b);
	check_u64("buckets: totals carry both buckets", b.cpu[2].total_ns, 15);
	check_u64("buckets: a busy-to-busy switch is no wakeup", b.units[b.unit_core + 1].wakeups, 1);
	busy_free(&b);
}

static void test_seen_before_start(void)
{
	struct topology t;
	struct busy b;

	topo_server(&t);
	busy_init(&b, &t);
	for (int cpu = 0; cpu < 8; cpu++)
		busy_seen(&b, cpu, cpu == 3 ? 55 : 0);
	busy_start(&b, &t, 100);
	busy_switch(&b, 3, 0, 130);
	finish(&b, &t, 200);
	check_u64("seen: a cpu running a task at the start is busy from the start", b.cpu[3].total_ns, 30);
	check_u64("seen: and so is its package", b.units[b.unit_pkg + 0].total_ns, 30);
	check_u64("seen: a set busy at the start did not wake up then", b.units[b.unit_pkg + 0].wakeups, 0);
	busy_free(&b);
}

static void test_unknown(void)
{
	struct topology t;
	struct busy b;

	topo_server(&t);
	busy_init(&b, &t);
	for (int cpu = 0; cpu < 8; cpu++)
		if (cpu != 5)
			busy_seen(&b, cpu, 0);
	busy_start(&b, &t, 0);
	busy_close_bucket(&b, &t, 50);
	busy_next_bucket(&b);
	check_u64("unknown: a cpu never seen is not known", b.cpu[5].known, 0);
	check_u64("unknown: and not counted busy", b.cpu[5].total_ns, 0);
	check_u64("unknown: nor its core", b.units[b.unit_core + 2].total_ns, 0);
	busy_switch(&b, 5, 77, 60);	/* from here on it is known */
	finish(&b, &t, 100);
	check_u64("unknown: known from its first switch", b.cpu[5].total_ns, 40);
	check_u64("unknown: and its core busy from then", b.units[b.unit_core + 2].total_ns, 40);
	check_u64("unknown: it is reported as once unknown", b.cpu[5].was_unknown, 1);
	busy_free(&b);
}

/* A cpu in more groups than there are domain levels (overlapping NUMA groups) */
static void test_many_groups(void)
{
	struct topology t;
	struct busy b;

	topo_server(&t);
	t.ngroups = 20;
	for (int g = 0; g < t.ngroups; g++) {
		memset(&t.groups[g], 0, sizeof(t.groups[g]));
		strcpy(t.groups[g].domain, "NUMA");
		mask_set(&t.groups[g].cpus, 0);
		mask_set(&t.groups[g].cpus, 1 + g % 7);
	}
	busy_init(&b, &t);
	start_idle(&b, &t, 0);
	busy_switch(&b, 0, 9, 0);
	finish(&b, &t, 10);
	for (int g = 0; g < t.ngroups; g++) {
		char what[64];

		snprintf(what, sizeof(what), "many groups: group %d of cpu 0 busy", g);
		check_u64(what, b.units[b.unit_group + g].total_ns, 10);
	}
	busy_free(&b);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	test_overlap();
	test_buckets();
	test_seen_before_start();
	test_unknown();
	test_many_groups();
	printf("# %d checks, %d failed\n", checks, failures);
	return failures ? 1 : 0;
}
