/* SPDX-License-Identifier: GPL-2.0 */
/*
 * powersched analyze, inside: the state of one analysis and the interfaces
 * between its files.
 *
 *   analyze.c     options and orchestration: the window, the buckets
 *   trace.c       the one place that opens and reads the trace
 *   busy.c        the busy-state machine (busy.h)
 *   migrations.c  migrations by level and per task
 *   waiting.c     the cost of packing: runnable tasks, idle while waiting,
 *                 wakeup latency and runqueue waits (waiting.h); tasks.c
 *                 the table of live tasks, hist.c latency histograms
 *   modes.c       the powersched events: balance modes, pack decisions
 *   timeline.c    the per-bucket TSV files and the per-task tables
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
#include "waiting.h"
#include "idle.h"

#define NHIST		16		/* mode durations: <1 ms, 1-2, 2-4, ... */
#define NREASONS	PS_NR(ps_pack_reasons)	/* power_pack_decision reasons */
#define NWHYS		PS_NR(ps_whys)		/* balance_mode why */
#define NORIGINS	4
#define NMODES		3		/* none, power, performance */

/* What caused a migration (migrations.c; spec: the powersched events v2) */
enum mig_cause {
	CAUSE_POWER_PASS,		/* a balance pass in power mode moved it */
	CAUSE_PERFORMANCE_PASS,		/* ... in performance mode */
	CAUSE_ACTIVE_BALANCE,		/* pushed by active balance */
	CAUSE_BALANCE_NO_MODE,		/* moved by a pass of mode none or unknown */
	CAUSE_PLACEMENT,		/* wakeup (or exec) placement */
	CAUSE_OTHER,			/* affinity, hotplug, NUMA, ... */
	CAUSE_UNATTRIBUTED,		/* the trace lacks the events to tell */
	NCAUSES
};

/* powersched_pack reasons, then the placement left to mainline, then exec */
#define NPLACEMENT	(PS_NR(ps_pack_reasons) + 2)
#define PLACE_MAINLINE	(PS_NR(ps_pack_reasons))
#define PLACE_EXEC	(PS_NR(ps_pack_reasons) + 1)

/* Per cpu: what the records just before a migration on it say */
struct attrib_cpu {
	bool after_bm;		/* the previous record was balance_migrate for bm_pid */
	int bm_pid, bm_mode, bm_active;
	bool waking;		/* since a sched_waking of wk_pid: placement events only */
	int wk_pid, wk_reason;	/* the power_pack_decision reason for it, -1 none */
	int ex_pid, ex_dest;	/* an exec placement of ex_pid to ex_dest pending, 0 none */
};

struct migrations {
	uint64_t total, level[NLEVELS], bucket[NLEVELS];
	uint64_t other[NLEVELS];	/* of tasks the task table could not hold */
	bool have_balance;		/* the trace has powersched:balance_migrate */
	bool have_waking;		/* ... and sched:sched_waking */
	uint64_t cause[NCAUSES][NLEVELS];
	uint64_t cause_bucket[NCAUSES];
	uint64_t active_mode[NMODES + 1];	/* active balance by mode (last: unknown) */
	uint64_t placement[NPLACEMENT];
	uint64_t balance_migrate;	/* balance_migrate records */
	struct attrib_cpu cpu[MAX_CPUS];
};

/*
 * Ping-pongs (pingpong.c): a migration that undoes the task's previous one
 * within the window: back across the same topology level to where it came
 * from (the same cpu for an SMT move, the same core, the same package).
 */
#define DEFAULT_PINGPONG_MS	100
struct pingpong {
	uint64_t window;		/* ns (--pingpong-ms) */
	uint64_t total, level[NLEVELS];
	uint64_t pair[NCAUSES][NCAUSES];	/* [first move's cause][second's] */
	uint64_t rows;			/* pingpong.tsv rows written */
	bool cut;			/* ... stopped at max_rows */
};

/*
 * One sched-domain instance: a cpu's domain at one level, named by the cpu
 * its balance passes balance for.  Its own mode timeline, so that a flip is
 * one domain changing its mind, not two cpus that disagree.
 */
struct mode_instance {
	int mode;		/* 0 none yet, 1 power, 2 performance */
	uint64_t since;
};

struct domain_stats {		/* per domain name, the powersched events */
	uint64_t passes[NMODES];
	uint64_t bucket_passes[NMODES];
	int mode;		/* effective mode: 0 none yet, 1 power, 2 performance */
	uint64_t mode_since;
	uint64_t switches;	/* the coarse measure: all cpus' passes merged */
	struct mode_instance inst[MAX_CPUS];
	uint64_t instances;	/* with a mode */
	uint64_t flips;		/* an instance changing its mode */
	uint64_t inst_ns[NMODES];	/* instance-time in each mode */
	uint64_t lazy;
	uint64_t pack[NREASONS + 1];	/* last: values a newer kernel added */
	uint64_t why[NWHYS + 1];
};

struct modes {
	bool available;		/* the trace has the powersched events */
	struct domain_stats dom[MAX_DOMAINS + 1];	/* last: names the topology lacks */
	uint64_t hist[NHIST];
	uint64_t pack_origin[NORIGINS + 1], leader_origin[NORIGINS + 1];
	uint64_t lazy_total, pack_total, balance_total;
	uint64_t lazy_variant[PS_NR(ps_lazy_variants) + 1];
	bool have_outcome;	/* series v2: balance_outcome */
	uint64_t outcome_passes[NMODES + 1], outcome_moved[NMODES + 1];
	uint64_t outcome_active[NMODES + 1], outcome_pinned[NMODES + 1];
	bool have_policy;	/* series v2: policy_change */
	uint64_t policy_changes;
	int policy_last;	/* the policy of the last change, -1 none */
	char unknown_value[96];	/* the first enum value a newer kernel added */
};

struct timeline {
	struct output *cpu, *core, *pkg, *group, *mig, *modes, *runnable, *iww;
	struct output *task_mig, *task_lat;	/* per-task tables, a row as each task exits */
	struct output *pingpong;	/* a row per ping-pong */
};

/* What the pre-scan found at the start of each cpu's records */
struct cpu_start {
	bool has_records;
	uint64_t first_ts;		/* its first record */
	bool has_switch;
	int prev_pid;			/* what its first sched_switch switched away from */
};

struct analysis {
	const char *trace;
	const char *topo_path;
	struct outputs outs;		/* outs.dir: the results folder */
	struct topology topo;
	struct power_model model;
	struct trace_input in;
	struct bound_event *ev_switch, *ev_print, *ev_pack, *ev_leader, *ev_waking, *ev_bm;

	bool phase;			/* --phase: cut to the workload's markers */
	bool phase_begun, phase_ended;
	char phase_name[64];

	uint64_t bucket;
	int time_decimals;		/* of time_s: enough for the bucket */
	uint64_t max_rows;		/* timeline rows at most (--max-rows) */
	uint64_t rows;			/* written so far */
	bool cut;			/* the timelines stopped at max_rows ... */
	uint64_t cut_at;		/* ... at this time */

	struct cpu_start start[MAX_CPUS];
	uint64_t latest_first;		/* the latest first record of a cpu */
	uint64_t open_at;		/* the window opens at the first record at or after */
	bool started;
	uint64_t first_ts, last_ts, t0, bucket_start;
	uint64_t cpu_last_ts[MAX_CPUS];	/* each cpu's previous record */
	uint64_t nrecords, nswitch, out_of_order;
	uint64_t missed_known, missed_marks;
	uint64_t state_breaks;		/* a switch from a task the cpu was not running */
	uint64_t uncertain_ns;		/* time those breaks leave unaccounted for */

	uint64_t bad_records;		/* records with impossible values, skipped */
	char bad_first[192];		/* the first one, named */

	char run_note[4608];		/* why run.json was not embedded */

	struct busy busy;
	struct waiting wait;
	struct idle_tracker *idle;	/* C-state residency from power:cpu_idle */
	bool have_cpu_idle;		/* the trace has the event */
	struct migrations mig;
	struct modes modes;
	struct timeline tl;
	struct pingpong pp;
};

/* A record with an impossible value: counted, named once, skipped. */
void bad_record(struct analysis *a, const char *event, const char *field, long long v,
		int cpu, uint64_t ts);

/* the event handlers, bound by trace.c's table */
void on_switch(void *ctx, struct bound_event *e, struct tep_record *r, int cpu, uint64_t ts);
void on_migrate(void *ctx, struct bound_event *e, struct tep_record *r, int cpu, uint64_t ts);
void on_balance_mode(void *ctx, struct bound_event *e, struct tep_record *r, int cpu, uint64_t ts);
void on_pack(void *ctx, struct bound_event *e, struct tep_record *r, int cpu, uint64_t ts);
void on_lazy(void *ctx, struct bound_event *e, struct tep_record *r, int cpu, uint64_t ts);
void on_leader(void *ctx, struct bound_event *e, struct tep_record *r, int cpu, uint64_t ts);
void on_outcome(void *ctx, struct bound_event *e, struct tep_record *r, int cpu, uint64_t ts);
void on_policy(void *ctx, struct bound_event *e, struct tep_record *r, int cpu, uint64_t ts);
/* measured.c: energy.tsv's joules over the window, beside the model's watts */
struct summary;
void fill_measured_energy(struct analysis *a, struct summary *s, double model_watts);
/* idle-summary.c: the C-state residency of power:cpu_idle */
void fill_idle_states(struct analysis *a, struct summary *s, const char *run_json);
int write_idle_states(struct analysis *a, const char *run_json);
void print_idle_states(struct analysis *a, const char *run_json);
/* At the end of the trace: each instance's last mode held until then. */
void modes_finish(struct analysis *a);

void on_wakeup(void *ctx, struct bound_event *e, struct tep_record *r, int cpu, uint64_t ts);
void on_waking(void *ctx, struct bound_event *e, struct tep_record *r, int cpu, uint64_t ts);
void on_balance_migrate(void *ctx, struct bound_event *e, struct tep_record *r, int cpu, uint64_t ts);
/* After every record on @cpu (@e NULL: an event nobody binds): the attribution's view */
void migrations_after(struct analysis *a, struct bound_event *e, int cpu);
/* A power_pack_decision for @pid on @cpu (modes.c reads it first) */
void migrations_placement(struct analysis *a, int cpu, int pid, int origin, int chosen, int reason);
/* @pid runs on @cpu: an exec placement pending for it there is over */
void migrations_ran(struct analysis *a, int cpu, int pid);
extern const char * const cause_keys[NCAUSES];

int domain_index(const struct analysis *a, const char *name);
int modes_write_durations(struct analysis *a);

/* pingpong.c: @tm (may be NULL) moved from @orig to @dest across @level for @cause */
void pingpong_migration(struct analysis *a, struct task *tm, int orig, int dest, int level,
			int cause, uint64_t ts);
void pingpong_header(struct analysis *a);

/* timeline.c */
int timeline_open(struct analysis *a);
void timeline_row(struct analysis *a, uint64_t start, uint64_t end);
void timeline_task_row(void *ctx, struct task *t);	/* a task_exit_fn */
int timeline_close(struct analysis *a);

/* results.c */
int results_write(struct analysis *a, const char *run_json);

#endif
