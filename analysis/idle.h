/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Idle-state residency from power:cpu_idle (idle.c): per cpu, the time in
 * each C-state, active and unknown; per package, the time in the deepest
 * state all of its cpus shared.
 */
#ifndef POWERSCHED_IDLE_H
#define POWERSCHED_IDLE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define IDLE_MAX_STATES	16
#define IDLE_EXIT	0xffffffffu	/* power:cpu_idle state on leaving idle */
#define IDLE_UNKNOWN	(-2)		/* no event has said yet */
#define IDLE_ACTIVE	(-1)		/* not idle (C0) */

struct idle_unit {			/* a cpu, or a package */
	int state;			/* IDLE_UNKNOWN, IDLE_ACTIVE or a state index */
	uint64_t since;
	uint64_t res_ns[IDLE_MAX_STATES];
	uint64_t active_ns, unknown_ns;
};

struct idle_tracker {
	int ncpus, npkgs;
	int *pkg_of;			/* cpu -> package index, -1 when not present */
	struct idle_unit *cpu, *pkg;
	bool counting, ended;
	uint64_t start, end;
	int nstates;			/* highest state index seen + 1 */
	uint64_t events, bad_cpu, bad_state, out_of_order;
};

struct idle_tracker *idle_new(int ncpus, const int *pkg_of_cpu, int npkgs);
void idle_free(struct idle_tracker *it);
void idle_start(struct idle_tracker *it, uint64_t ts);
void idle_event(struct idle_tracker *it, uint64_t ts, int cpu, uint32_t state);
void idle_running(struct idle_tracker *it, uint64_t ts, int cpu);
void idle_end(struct idle_tracker *it, uint64_t ts);
int idle_write_tsv(const struct idle_tracker *it, FILE *f, const char * const *names, int nnames);
void idle_write_json(const struct idle_tracker *it, FILE *f, const char * const *names, int nnames);

struct tracecmd_input;
int idle_follow(struct tracecmd_input *h, struct idle_tracker *it);

#endif
