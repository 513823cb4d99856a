/* SPDX-License-Identifier: GPL-2.0 */
/*
 * powersched record: what its files (record.c, record-tracefs.c,
 * record-exec.c, record-check.c, run-json.c) share.
 */
#ifndef POWERSCHED_RECORD_H
#define POWERSCHED_RECORD_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "machine.h"

#define REC_MAX_EVENTS	32

/* One entry of the event set: a whole system when event is "". */
struct rec_event {
	char system[64];
	char event[64];
	bool required;		/* missing: refuse to record */
	bool present;
};

/* What the helper inside the recording reports (its status file). */
struct rec_status {
	pid_t helper_pid;
	int kicked;		/* cpus that switched to a pinned task */
	char kick_failed[256];	/* cpulist of those that did not, or "" */
	bool have_command;
	bool command_started;
	int command_exit;	/* -1 unless it exited */
	int command_signal;	/* 0 unless a signal ended it */
	bool stopped_by_duration;
	bool stopped_by_request;	/* SIGTERM/SIGINT: disk nearly full, Ctrl-C */
	char command_error[256];	/* exec failed */
	double command_start, command_end;	/* CLOCK_MONOTONIC s */
};

/* The ring buffer's own count of what it lost, per cpu, after the recording. */
struct rec_cpu_stats {
	int cpu;
	bool read;
	uint64_t entries, overrun, commit_overrun, dropped;
};

/* What libtracecmd finds in the trace.dat written. */
struct rec_trace_check {
	bool opened;
	char err[512];
	uint64_t events;
	uint64_t missed_marks, missed_known;
	uint64_t first_ts, last_ts;
	int ncpus;			/* size of the arrays below */
	uint64_t *cpu_events;		/* per cpu number */
	uint64_t *cpu_switches;
};

struct rec_run {
	/* options */
	const char *dir;
	char **argv;			/* the command, NULL-terminated, or NULL */
	double duration_s;
	unsigned long buffer_kb;
	unsigned int energy_ms;
	const char *result_name;
	/* environment */
	char tracefs[4096];
	struct rec_event events[REC_MAX_EVENTS];
	int nevents;
	char trace_clock[32];
	/* outcome */
	char started_utc[32];
	double wall_s;
	struct rec_status st;
	int ncpu_stats;
	struct rec_cpu_stats *cpu_stats;
	uint64_t lost_total;		/* overrun + commit overrun + dropped */
	struct rec_trace_check check;
	char stop_reason[256];		/* why the recording ended early, or "" */
	bool interrupted;
	struct energy_log *energy;	/* NULL or zones sampled */
	bool result_copied;
	char cwd[4096];
	char notes[8][512];		/* one line each, also in run.json */
	int nnotes;
	int cpus, packages, cores, nodes;	/* from the topology.tsv written */
};

/* record-exec.c: the helper trace-cmd runs as the recorded command */
#define REC_STATUS_ENV	"POWERSCHED_RECORD_STATUS"
#define REC_TRACEFS_ENV	"POWERSCHED_RECORD_TRACEFS"
int cmd_record_exec(int argc, char **argv);
int rec_status_read(const char *path, struct rec_status *st);

/* record-tracefs.c */
int rec_find_tracefs(struct rec_run *r);
/* The default event set, or LIST ("+LIST": the defaults and LIST), checked
 * against this kernel's tracefs. */
int rec_resolve_events(struct rec_run *r, const char *list);
void rec_current_clock(const struct rec_run *r, char *out, size_t len, bool *has_mono);
int rec_tracefs_write(const struct rec_run *r, const char *file, const char *val);

/* record-check.c */
int rec_read_cpu_stats(struct rec_run *r);
int rec_check_trace(const char *path, int ncpus, struct rec_trace_check *c);
void rec_check_free(struct rec_trace_check *c);

/* run-json.c */
int rec_write_run_json(const char *path, const struct rec_run *r, char *err, size_t errlen);

int cmd_record(int argc, char **argv);
int cmd_topology(int argc, char **argv);

#endif
