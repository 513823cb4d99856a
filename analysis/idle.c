// SPDX-License-Identifier: GPL-2.0
/*
 * Idle-state residency from power:cpu_idle, for the analysis window.
 *
 * power:cpu_idle says, per cpu, "entered state S" (the cpuidle driver's
 * state index: deeper states have larger indices) or "left idle"
 * (state 4294967295, PWR_EVENT_EXIT).  A cpu is in its last state until
 * the next event; before its first event, it is unknown (unknown is not
 * idle).  A cpu that runs one task throughout emits no cpu_idle at all:
 * the analyzer tells the tracker so from sched_switch (idle_running()),
 * which turns an unknown cpu active.
 *
 * A package is in the deepest state all of its cpus share, which is the
 * shallowest of their states (the smallest index): active while any cpu
 * is active, unknown while none is active and any is unknown.
 *
 * Events come in time order (tracecmd_iterate_events); one that goes back
 * in time is counted and taken at the time reached.  Only time between
 * idle_start() and idle_end() counts; events before the start set the
 * states the window opens with.
 */
#include <stdlib.h>
#include <string.h>

#include <trace-cmd/trace-cmd.h>

#include "idle.h"
#include "machine.h"
#include "text.h"

struct idle_tracker *idle_new(int ncpus, const int *pkg_of_cpu, int npkgs)
{
	struct idle_tracker *it = calloc(1, sizeof(*it));

	if (!it || ncpus < 1 || npkgs < 1)
		goto fail;
	it->ncpus = ncpus;
	it->npkgs = npkgs;
	it->pkg_of = malloc(ncpus * sizeof(int));
	it->cpu = calloc(ncpus, sizeof(*it->cpu));
	it->pkg = calloc(npkgs, sizeof(*it->pkg));
	if (!it->pkg_of || !it->cpu || !it->pkg)
		goto fail;
	for (int c = 0; c < ncpus; c++) {
		it->pkg_of[c] = pkg_of_cpu[c] >= 0 && pkg_of_cpu[c] < npkgs ? pkg_of_cpu[c] : -1;
		it->cpu[c].state = IDLE_UNKNOWN;
	}
	for (int p = 0; p < npkgs; p++)
		it->pkg[p].state = IDLE_UNKNOWN;
	return it;
fail:
	idle_free(it);
	return NULL;
}

void idle_free(struct idle_tracker *it)
{
	if (!it)
		return;
	free(it->pkg_of);
	free(it->cpu);
	free(it->pkg);
	free(it);
}

/* Time in the unit's current state up to ts, if the window is open. */
static void advance(struct idle_tracker *it, struct idle_unit *u, uint64_t ts)
{
	uint64_t d;

	if (ts < u->since)
		ts = u->since;
	if (it->counting && !it->ended) {
		d = ts - u->since;
		if (u->state == IDLE_UNKNOWN)
			u->unknown_ns += d;
		else if (u->state == IDLE_ACTIVE)
			u->active_ns += d;
		else
			u->res_ns[u->state] += d;
	}
	u->since = ts;
}

static int pkg_state(const struct idle_tracker *it, int p)
{
	bool unknown = false;
	int min = IDLE_MAX_STATES;

	for (int c = 0; c < it->ncpus; c++) {
		if (it->pkg_of[c] != p)
			continue;
		if (it->cpu[c].state == IDLE_ACTIVE)
			return IDLE_ACTIVE;
		if (it->cpu[c].state == IDLE_UNKNOWN)
			unknown = true;
		else if (it->cpu[c].state < min)
			min = it->cpu[c].state;
	}
	if (unknown || min == IDLE_MAX_STATES)
		return IDLE_UNKNOWN;
	return min;
}

static void set_state(struct idle_tracker *it, uint64_t ts, int cpu, int state)
{
	struct idle_unit *u = &it->cpu[cpu];
	int p = it->pkg_of[cpu];

	if (ts < u->since) {
		it->out_of_order++;
		ts = u->since;
	}
	advance(it, u, ts);
	u->state = state;
	if (p >= 0) {
		advance(it, &it->pkg[p], ts);
		it->pkg[p].state = pkg_state(it, p);
	}
}

void idle_start(struct idle_tracker *it, uint64_t ts)
{
	it->start = ts;
	for (int c = 0; c < it->ncpus; c++)
		it->cpu[c].since = ts;
	for (int p = 0; p < it->npkgs; p++)
		it->pkg[p].since = ts;
	it->counting = true;
}

void idle_event(struct idle_tracker *it, uint64_t ts, int cpu, uint32_t state)
{
	it->events++;
	if (cpu < 0 || cpu >= it->ncpus || it->pkg_of[cpu] < 0) {
		it->bad_cpu++;
		return;
	}
	if (it->ended)
		return;
	if (state == IDLE_EXIT) {
		set_state(it, ts, cpu, IDLE_ACTIVE);
	} else if (state >= IDLE_MAX_STATES) {
		it->bad_state++;
		set_state(it, ts, cpu, IDLE_UNKNOWN);
	} else {
		if ((int)state + 1 > it->nstates)
			it->nstates = state + 1;
		set_state(it, ts, cpu, (int)state);
	}
}

void idle_running(struct idle_tracker *it, uint64_t ts, int cpu)
{
	if (cpu < 0 || cpu >= it->ncpus || it->pkg_of[cpu] < 0 || it->ended)
		return;
	if (it->cpu[cpu].state == IDLE_UNKNOWN)
		set_state(it, ts, cpu, IDLE_ACTIVE);
}

void idle_end(struct idle_tracker *it, uint64_t ts)
{
	if (!it->counting || it->ended)
		return;
	if (ts < it->start)
		ts = it->start;
	for (int c = 0; c < it->ncpus; c++)
		advance(it, &it->cpu[c], ts);
	for (int p = 0; p < it->npkgs; p++)
		advance(it, &it->pkg[p], ts);
	it->end = ts;
	it->ended = true;
}

static void state_name(char *buf, size_t len, int s, const char * const *names, int nnames)
{
	if (s < nnames && names && names[s])
		snprintf(buf, len, "%s", names[s]);
	else
		snprintf(buf, len, "state%d", s);
}

static double share(const struct idle_tracker *it, uint64_t ns)
{
	uint64_t w = it->end - it->start;

	return w ? (double)ns / w : 0;
}

static void unit_rows(const struct idle_tracker *it, FILE *f, const char *kind, int id,
		      const struct idle_unit *u, const char * const *names, int nnames)
{
	char name[64];

	for (int s = 0; s < it->nstates; s++) {
		state_name(name, sizeof(name), s, names, nnames);
		text_printable(name);
		fprintf(f, "%s\t%d\t%s\t%.6f\t%.4f\n", kind, id, name, u->res_ns[s] / 1e9, share(it, u->res_ns[s]));
	}
	fprintf(f, "%s\t%d\tactive\t%.6f\t%.4f\n", kind, id, u->active_ns / 1e9, share(it, u->active_ns));
	fprintf(f, "%s\t%d\tunknown\t%.6f\t%.4f\n", kind, id, u->unknown_ns / 1e9, share(it, u->unknown_ns));
}

/* idle_states.tsv (analysis/FORMATS.md) */
int idle_write_tsv(const struct idle_tracker *it, FILE *f, const char * const *names, int nnames)
{
	fprintf(f, "# powersched idle-state residency over the analysis window (%.6f s), from power:cpu_idle\n"
		"# a package is in the deepest state all of its cpus share\n"
		"# unit\tid\tstate\tresidency_s\tshare\n", (it->end - it->start) / 1e9);
	for (int c = 0; c < it->ncpus; c++)
		if (it->pkg_of[c] >= 0)
			unit_rows(it, f, "cpu", c, &it->cpu[c], names, nnames);
	for (int p = 0; p < it->npkgs; p++)
		unit_rows(it, f, "package", p, &it->pkg[p], names, nnames);
	return ferror(f) ? -1 : 0;
}

static void unit_json(const struct idle_tracker *it, FILE *f, const struct idle_unit *u)
{
	fprintf(f, "{ \"active\": %.4f, \"unknown\": %.4f, \"states\": [", share(it, u->active_ns),
		share(it, u->unknown_ns));
	for (int s = 0; s < it->nstates; s++)
		fprintf(f, "%s%.4f", s ? ", " : "", share(it, u->res_ns[s]));
	fputs("] }", f);
}

/*
 * The "idle_states" value for summary.json: shares of the window; state
 * names are the cpuidle names (run.json's cpuidle.states) or stateN, so
 * they are plain identifiers.
 */
void idle_write_json(const struct idle_tracker *it, FILE *f, const char * const *names, int nnames)
{
	char name[64];
	bool first = true;

	fprintf(f, "{ \"available\": %s, \"events\": %llu, \"state_names\": [",
		it->nstates ? "true" : "false", (unsigned long long)it->events);
	for (int s = 0; s < it->nstates; s++) {
		state_name(name, sizeof(name), s, names, nnames);
		fputs(s ? ", " : "", f);
		json_write_str(f, name);
	}
	fputs("],\n    \"cpu\": [", f);
	for (int c = 0; c < it->ncpus; c++) {
		if (it->pkg_of[c] < 0)
			continue;
		fputs(first ? "" : ",\n      ", f);
		unit_json(it, f, &it->cpu[c]);
		first = false;
	}
	fputs("],\n    \"package\": [", f);
	for (int p = 0; p < it->npkgs; p++) {
		fputs(p ? ",\n      " : "", f);
		unit_json(it, f, &it->pkg[p]);
	}
	fprintf(f, "],\n    \"bad_events\": %llu, \"out_of_order\": %llu }",
		(unsigned long long)(it->bad_cpu + it->bad_state), (unsigned long long)it->out_of_order);
}

static int on_cpu_idle(struct tracecmd_input *h, struct tep_event *e,
		       struct tep_record *r, int cpu, void *data)
{
	unsigned long long state, cpu_id;

	(void)h; (void)cpu;
	if (tep_get_field_val(NULL, e, "state", r, &state, 0) ||
	    tep_get_field_val(NULL, e, "cpu_id", r, &cpu_id, 0)) {
		((struct idle_tracker *)data)->bad_state++;
		return 0;
	}
	idle_event(data, r->ts, cpu_id > 1 << 20 ? -1 : (int)cpu_id, (uint32_t)state);
	return 0;
}

/* Feed the tracker from the trace's power:cpu_idle events. */
int idle_follow(struct tracecmd_input *h, struct idle_tracker *it)
{
	return tracecmd_follow_event(h, "power", "cpu_idle", on_cpu_idle, it);
}
