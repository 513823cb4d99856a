/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The busy-state machine: which cpus run something other than the idle
 * task, and for how long each cpu and each set of cpus (a core, a package,
 * a sched-domain group, the system) had at least one busy cpu.
 *
 * It knows nothing of trace files: it is fed "cpu N now runs pid P at time
 * T" and asked for the busy time per bucket and in total, so that it can be
 * tested on its own (analysis/tests/busy-test.c).
 */
#ifndef BUSY_H
#define BUSY_H

#include <stdbool.h>
#include <stdint.h>

#include "powersched.h"

/* A set of cpus, busy while any of them is. */
struct busy_unit {
	int nbusy;		/* busy cpus of the set now */
	uint64_t since;		/* busy since (when nbusy > 0) */
	uint64_t bucket_ns;	/* busy time in the current bucket */
	uint64_t total_ns;	/* busy time in the closed buckets */
	uint64_t wakeups;	/* idle spells it ended */
};

struct busy_cpu {
	bool known;		/* what it runs is known */
	bool was_unknown;	/* it was not, for a part of the window */
	int pid;		/* what it runs: 0 is the idle task */
	uint64_t since;
	uint64_t bucket_ns;
	uint64_t total_ns;
	int *units;		/* the sets it belongs to */
	int nunits;
};

struct busy {
	int nr_cpu_ids;
	struct busy_cpu *cpu;	/* [nr_cpu_ids] */
	struct busy_unit *units;
	int nunits;
	int unit_core, unit_pkg, unit_group, unit_system;	/* first unit of each kind */
	int *unit_lists;	/* storage of the cpus' unit lists */
};

int busy_init(struct busy *b, const struct topology *t);
void busy_free(struct busy *b);

/* Before the window opens: @cpu runs @pid. */
void busy_seen(struct busy *b, int cpu, int pid);
/*
 * The window opens at @ts.  A cpu not seen is unknown: it counts neither
 * busy nor idle in its sets, until a switch says what it runs.
 */
void busy_start(struct busy *b, const struct topology *t, uint64_t ts);
/* In the window: @cpu switches to @next at @ts. */
void busy_switch(struct busy *b, int cpu, int next, uint64_t ts);
/* Close the current bucket at @end: busy time so far lands in bucket_ns. */
void busy_close_bucket(struct busy *b, const struct topology *t, uint64_t end);
/* Move the bucket counters into the totals and start a new bucket. */
void busy_next_bucket(struct busy *b);

#endif
