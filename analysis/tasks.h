/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tasks alive in the trace: what each is doing (for the runqueue
 * waits, waiting.c) and what it did (its migrations and waits, written as
 * one row of migrations_by_task.tsv and latency_by_task.tsv when it exits,
 * or at the end).  Only live tasks are kept, so memory follows how many
 * tasks exist at once, not how many the trace saw.
 */
#ifndef TASKS_H
#define TASKS_H

#include <stdbool.h>
#include <stdint.h>

#include "hist.h"

#define NLEVELS		3		/* migrations: smt, core, package */
#define MAX_LIVE_TASKS	65536		/* tasks tracked at once */

enum task_state { TASK_UNKNOWN, TASK_SLEEPING, TASK_WAITING, TASK_RUNNING };

struct task {
	int pid;		/* 0: empty slot */
	enum task_state state;
	int cpu;		/* where it waits or runs (or last did) */
	uint64_t since;		/* waiting since */
	bool woken;		/* the wait began with a wakeup, at woken_at */
	uint64_t woken_at;
	char comm[16];
	uint32_t mig[NLEVELS];
	/* its last migration, for ping-pongs (pingpong.c) */
	bool has_last;
	uint8_t last_level, last_cause;
	int last_orig, last_dest;
	uint64_t last_ts;
	uint64_t pp_from, pp_until;	/* the window after its last ping-pong */
	struct hist *wake;	/* wakeup latencies (allocated on the first) */
	struct hist *wait;	/* runqueue waits */
};

struct tasks {
	struct task *slot;
	uint32_t nslots, n;
	uint64_t seen;		/* tasks tracked in all */
	uint64_t untracked;	/* tasks left out: more than MAX_LIVE_TASKS at once */
};

/* The task @pid, added when absent (NULL when the table is full) */
struct task *task_get(struct tasks *ts, int pid);
/* The task @pid or NULL */
struct task *task_find(struct tasks *ts, int pid);
/* Forget @t (it exited); the pointer and others into the table are stale then */
void task_remove(struct tasks *ts, struct task *t);
void tasks_free(struct tasks *ts);

#endif
