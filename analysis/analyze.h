/* SPDX-License-Identifier: GPL-2.0 */
/*
 * powersched analyze, inside: the state of one analysis and the interfaces
 * between its files.
 *
 *   analyze.c     options and orchestration: the window, the buckets
 *   trace.c       the one place that opens and reads the trace
 *   busy.c        the busy-state machine (busy.h)
 *   migrations.c  migrations by level and per task
 *   modes.c       the powersched events: balance modes, pack decisions
 *   timeline.c    the per-bucket TSV files
 *   summary.c     the key/value table behind summary.json and summary.tsv
 *   results.c     the figures of the table, and the human summary
 *   output.c      output files: checked writes, nothing partial left behind
 */
#ifndef ANALYZE_H
#define ANALYZE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "powersched.h"
#include "busy.h"
#include "output.h"
#include "trace.h"

#define NHIST		16		/* mode durations: <1 ms, 1-2, 2-4, ... */
#define NLEVELS		3		/* migrations: smt, core, package */
#define NREASONS	6		/* power_pack_decision reasons counted */
#define NORIGINS	4
#define NMODES		3		/* none, power, performance */
#define MAX_TASKS	4096		/* tasks itemized in migrations_by_task.tsv */

struct task_mig {
	int pid;		/* 0: empty slot */
	char comm[16];
	uint32_t count[NLEVELS];
};

struct migrations {
	uint64_t total, level[NLEVELS], bucket[NLEVELS];
	uint64_t other[NLEVELS];	/* tasks beyond MAX_TASKS */
	struct task_mig *tasks;
	size_t nslots, ntasks;
};

struct domain_stats {		/* per domain name, the powersched events */
	uint64_t passes[NMODES];
	uint64_t bucket_passes[NMODES];
	int mode;		/* effective mode: 0 none yet, 1 power, 2 performance */
	uint64_t mode_since;
	uint64_t switches;
	uint64_t lazy;
	uint64_t pack[NREASONS];
};

struct modes {
	bool available;		/* the trace has the powersched events */
	struct domain_stats dom[MAX_DOMAINS + 1];	/* last: names the topology lacks */
	uint64_t hist[NHIST];
	uint64_t pack_origin[NORIGINS], leader_origin[NORIGINS];
	uint64_t lazy_total, pack_total, balance_total;
};

struct timeline {
	struct output *cpu, *core, *pkg, *group, *mig, *modes;
};

struct analysis {
	const char *trace;
	const char *topo_path;
	struct outputs outs;		/* outs.dir: the results folder */
	struct topology topo;
	struct power_model model;
	struct trace_input in;
	struct bound_event *ev_switch, *ev_print;

	bool phase;			/* --phase: cut to the workload's markers */
	bool phase_begun, phase_ended;
	char phase_name[64];

	uint64_t bucket;
	bool started;
	uint64_t first_ts, last_ts, t0, bucket_start;
	uint64_t nrecords, nswitch, out_of_order;
	uint64_t missed_known, missed_marks;
	int bad_cpu;			/* a record on a cpu topology.tsv lacks */

	struct busy busy;
	struct migrations mig;
	struct modes modes;
	struct timeline tl;
};

/* the event handlers, bound by trace.c's table */
void on_switch(void *ctx, struct bound_event *e, struct tep_record *r, int cpu, uint64_t ts);
void on_migrate(void *ctx, struct bound_event *e, struct tep_record *r, int cpu, uint64_t ts);
void on_balance_mode(void *ctx, struct bound_event *e, struct tep_record *r, int cpu, uint64_t ts);
void on_pack(void *ctx, struct bound_event *e, struct tep_record *r, int cpu, uint64_t ts);
void on_lazy(void *ctx, struct bound_event *e, struct tep_record *r, int cpu, uint64_t ts);
void on_leader(void *ctx, struct bound_event *e, struct tep_record *r, int cpu, uint64_t ts);

int domain_index(const struct analysis *a, const char *name);
void migrations_free(struct migrations *m);
int migrations_write_tasks(struct analysis *a);
int modes_write_durations(struct analysis *a);

/* timeline.c */
int timeline_open(struct analysis *a);
void timeline_row(struct analysis *a, uint64_t start, uint64_t end);
int timeline_close(struct analysis *a);

/* results.c */
int results_write(struct analysis *a, const char *run_json);

#endif
