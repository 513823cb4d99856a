/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cost side of packing: tasks that wait to run while cpus sit idle.
 *
 * From sched_wakeup/sched_wakeup_new (a task becomes runnable on a cpu),
 * sched_switch (a task runs; the one switched away from stays runnable
 * when its prev_state is R) and sched_migrate_task (a waiting task moves):
 *
 *  - the runnable tasks of each cpu (running + waiting) over time;
 *  - idle while waiting: time during which a cpu of a set is idle while
 *    another cpu of the set runs a task and has another waiting to run,
 *    per sched-domain level (any domain of the level), per package and for
 *    the system (a woken task on an idle cpu is a wakeup under way: that is
 *    the wakeup latency, not a task kept from an idle cpu);
 *  - wakeup latency (sched_wakeup to running) and runqueue waits (runnable
 *    to running, after a wakeup or a preemption), per task and package.
 *
 * Unknown cpus (busy.h) are neither idle nor waiting.  A task is followed
 * from its first record; what it did before is unknown, so waits that
 * began before it was seen are not measured.
 */
#ifndef WAITING_H
#define WAITING_H

#include <stdbool.h>
#include <stdint.h>

#include "hist.h"
#include "powersched.h"
#include "tasks.h"

struct busy;

/* A set of cpus for idle-while-waiting */
struct wait_unit {
	int nidle;		/* idle cpus */
	int nover;		/* cpus running a task while another waits */
	bool on;		/* both: idle while waiting */
	int level;		/* domain level of a domain unit, -1 otherwise */
	uint64_t since, bucket_ns, total_ns;
};

struct wait_level {
	int non;		/* its domains that are on */
	uint64_t since, bucket_ns, total_ns;
};

struct waiting {
	struct tasks tasks;
	int ncpus;
	bool started;
	int *nwaiting;		/* tasks waiting on each cpu */
	bool *running;		/* a task (not idle) runs on the cpu */
	bool *known;		/* what the cpu runs is known */
	uint64_t *area_since;	/* runnable count x time, per cpu: since */
	uint64_t *area_bucket;	/* ... in the bucket (task-ns) */
	uint64_t *area_total;
	struct wait_unit *units;
	int nunits, unit_pkg, unit_system;	/* domains first, then packages, the system */
	int **cpu_units;	/* per cpu: its units, -1 terminated */
	int *unit_store;
	struct wait_level level[MAX_DOMAINS];
	int nlevels;
	struct hist wake, wait;		/* all tasks */
	struct hist *wake_pkg, *wait_pkg;	/* per package */
	uint64_t wakeups, spurious_wakeups;
	uint64_t pp_wait_ns;	/* runqueue waits within the window after a ping-pong */
};

int waiting_init(struct waiting *w, const struct topology *t);
void waiting_free(struct waiting *w);

/*
 * The task events.  Before waiting_start() they only follow the tasks;
 * after it they are counted.  A task that exits is handed to @exited
 * (for its rows of the per-task tables) and forgotten.
 */
typedef void (*task_exit_fn)(void *ctx, struct task *t);
void waiting_wakeup(struct waiting *w, int pid, const char *comm, int cpu, uint64_t ts);
void waiting_switch(struct waiting *w, const struct topology *t, int cpu, int prev,
		    long long prev_state, bool have_state, int next, const char *next_comm,
		    uint64_t ts, task_exit_fn exited, void *ctx);
void waiting_migrate(struct waiting *w, int pid, int orig, int dest, uint64_t ts);

/* The window opens: @b says which cpus are known and idle */
void waiting_start(struct waiting *w, const struct topology *t, const struct busy *b, uint64_t ts);
void waiting_close_bucket(struct waiting *w, uint64_t end);
void waiting_next_bucket(struct waiting *w);

#endif
