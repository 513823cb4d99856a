// SPDX-License-Identifier: GPL-2.0
/*
 * The cost side of packing (waiting.h): runnable tasks per cpu, idle
 * while waiting, wakeup latency and runqueue waits.
 */
#include <stdlib.h>
#include <string.h>

#include "../tracer/powersched-events.h"
#include "busy.h"
#include "waiting.h"

int waiting_init(struct waiting *w, const struct topology *t)
{
	int n = t->nr_cpu_ids ? t->nr_cpu_ids : 1, nlist = 0, *p;

	memset(w, 0, sizeof(*w));
	w->ncpus = t->nr_cpu_ids;
	w->nlevels = t->ndomains;
	w->unit_pkg = t->nspans;
	w->unit_system = w->unit_pkg + t->npkgs;
	w->nunits = w->unit_system + 1;
	w->nwaiting = calloc(n, sizeof(*w->nwaiting));
	w->running = calloc(n, sizeof(*w->running));
	w->known = calloc(n, sizeof(*w->known));
	w->area_since = calloc(n, sizeof(*w->area_since));
	w->area_bucket = calloc(n, sizeof(*w->area_bucket));
	w->area_total = calloc(n, sizeof(*w->area_total));
	w->units = calloc(w->nunits, sizeof(*w->units));
	w->cpu_units = calloc(n, sizeof(*w->cpu_units));
	w->wake_pkg = calloc(t->npkgs ? t->npkgs : 1, sizeof(*w->wake_pkg));
	w->wait_pkg = calloc(t->npkgs ? t->npkgs : 1, sizeof(*w->wait_pkg));
	for (int cpu = 0; cpu < t->nr_cpu_ids; cpu++) {
		if (!t->present[cpu])
			continue;
		nlist += 3;		/* its package, the system, the -1 */
		for (int s = 0; s < t->nspans; s++)
			nlist += mask_test(&t->spans[s].cpus, cpu);
	}
	w->unit_store = calloc(nlist ? nlist : 1, sizeof(int));
	if (!w->nwaiting || !w->running || !w->known || !w->area_since || !w->area_bucket ||
	    !w->area_total || !w->units || !w->cpu_units || !w->wake_pkg || !w->wait_pkg ||
	    !w->unit_store) {
		waiting_free(w);
		return -1;
	}
	for (int u = 0; u < w->nunits; u++)
		w->units[u].level = u < t->nspans ? t->spans[u].domain_index : -1;
	p = w->unit_store;
	for (int cpu = 0; cpu < t->nr_cpu_ids; cpu++) {
		if (!t->present[cpu])
			continue;
		w->cpu_units[cpu] = p;
		for (int s = 0; s < t->nspans; s++)
			if (mask_test(&t->spans[s].cpus, cpu))
				*p++ = s;
		*p++ = w->unit_pkg + t->pkg[cpu];
		*p++ = w->unit_system;
		*p++ = -1;
	}
	return 0;
}

void waiting_free(struct waiting *w)
{
	tasks_free(&w->tasks);
	free(w->nwaiting);
	free(w->running);
	free(w->known);
	free(w->area_since);
	free(w->area_bucket);
	free(w->area_total);
	free(w->units);
	free(w->cpu_units);
	free(w->unit_store);
	free(w->wake_pkg);
	free(w->wait_pkg);
	memset(w, 0, sizeof(*w));
}

/* An idle cpu, and a cpu that runs a task while another waits for it */
static bool unit_on(const struct wait_unit *u)
{
	return u->nidle > 0 && u->nover > 0;
}

static void unit_update(struct waiting *w, struct wait_unit *u, uint64_t ts)
{
	bool on = unit_on(u);

	if (on == u->on)
		return;
	u->on = on;
	if (on) {
		u->since = ts;
	} else if (w->started) {
		u->bucket_ns += ts - u->since;
	}
	if (u->level >= 0) {
		struct wait_level *l = &w->level[u->level];

		if (on && l->non++ == 0)
			l->since = ts;
		else if (!on && --l->non == 0 && w->started)
			l->bucket_ns += ts - l->since;
	}
}

/* A cpu's part in its units: @sign +1 to add it, -1 to take it out */
static void cpu_contrib(struct waiting *w, int cpu, int sign, uint64_t ts)
{
	bool idle, over;

	if (!w->started || cpu < 0 || cpu >= w->ncpus || !w->cpu_units[cpu] || !w->known[cpu])
		return;
	idle = !w->running[cpu];
	over = w->running[cpu] && w->nwaiting[cpu] > 0;
	for (int *u = w->cpu_units[cpu]; *u >= 0; u++) {
		struct wait_unit *wu = &w->units[*u];

		wu->nidle += sign * idle;
		wu->nover += sign * over;
		if (sign > 0)
			unit_update(w, wu, ts);
	}
}

/* The runnable count of @cpu is about to change at @ts: account the area so far */
static void area_mark(struct waiting *w, int cpu, uint64_t ts)
{
	if (!w->started || cpu < 0 || cpu >= w->ncpus)
		return;
	w->area_bucket[cpu] += (uint64_t)(w->nwaiting[cpu] + w->running[cpu]) * (ts - w->area_since[cpu]);
	w->area_since[cpu] = ts;
}

/* Change what @cpu runs and how many wait on it, keeping the units right */
static void cpu_set(struct waiting *w, int cpu, bool running, int dwait, uint64_t ts)
{
	bool idle, over;
	int nwait;

	if (cpu < 0 || cpu >= w->ncpus || !w->cpu_units[cpu])
		return;
	area_mark(w, cpu, ts);
	nwait = w->nwaiting[cpu] + dwait;
	if (nwait < 0)
		nwait = 0;
	/* most switches change neither what the units count of the cpu */
	idle = !running;
	over = running && nwait > 0;
	if (idle == !w->running[cpu] && over == (w->running[cpu] && w->nwaiting[cpu] > 0)) {
		w->running[cpu] = running;
		w->nwaiting[cpu] = nwait;
		return;
	}
	cpu_contrib(w, cpu, -1, ts);
	w->running[cpu] = running;
	w->nwaiting[cpu] = nwait;
	cpu_contrib(w, cpu, +1, ts);
}

/* A comm field into a task (snprintf is slow for the hottest path) */
static void set_comm(char *dst, const char *src)
{
	size_t n = strnlen(src, 15);

	memcpy(dst, src, n);
	dst[n] = 0;
}

static void start_wait(struct waiting *w, struct task *t, int cpu, uint64_t ts, bool woken)
{
	t->state = TASK_WAITING;
	t->cpu = cpu;
	t->since = ts;
	t->woken = woken;
	t->woken_at = ts;
	cpu_set(w, cpu, cpu >= 0 && cpu < w->ncpus && w->running[cpu], +1, ts);
}

/* A task leaves the runqueue of its cpu (it runs, or moves) */
static void end_wait(struct waiting *w, struct task *t, uint64_t ts)
{
	int cpu = t->cpu;

	cpu_set(w, cpu, cpu >= 0 && cpu < w->ncpus && w->running[cpu], -1, ts);
}

static struct hist *hist_of(struct hist **h)
{
	if (!*h)
		*h = calloc(1, sizeof(**h));
	return *h;
}

void waiting_wakeup(struct waiting *w, int pid, const char *comm, int cpu, uint64_t ts)
{
	struct task *t = task_get(&w->tasks, pid);

	if (!t)
		return;
	if (comm && comm[0])
		set_comm(t->comm, comm);
	/* a wakeup of a task already runnable changes nothing */
	if (t->state == TASK_WAITING || t->state == TASK_RUNNING) {
		if (w->started)
			w->spurious_wakeups++;
		return;
	}
	if (w->started)
		w->wakeups++;
	start_wait(w, t, cpu, ts, true);
}

void waiting_switch(struct waiting *w, const struct topology *t, int cpu, int prev,
		    long long prev_state, bool have_state, int next, const char *next_comm,
		    uint64_t ts, task_exit_fn exited, void *ctx)
{
	struct task *p = prev > 0 ? task_get(&w->tasks, prev) : NULL;
	struct task *n;
	bool runnable = have_state && !(prev_state & PS_PREV_STATE_MASK);
	bool dead = have_state && (prev_state & PS_PREV_STATE_DEAD);

	if (cpu < 0 || cpu >= w->ncpus || !w->cpu_units[cpu])
		return;
	/* the cpu now runs @next */
	if (w->known[cpu]) {
		cpu_set(w, cpu, next != 0, 0, ts);
	} else {
		area_mark(w, cpu, ts);
		w->running[cpu] = next != 0;
		w->known[cpu] = true;
		cpu_contrib(w, cpu, +1, ts);
	}
	if (p) {
		if (p->state == TASK_WAITING)	/* it ran, but we had it waiting */
			end_wait(w, p, ts);
		p->cpu = cpu;
		if (dead) {
			if (exited)
				exited(ctx, p);
			task_remove(&w->tasks, p);
		} else if (runnable) {
			start_wait(w, p, cpu, ts, false);	/* preempted */
		} else {
			p->state = TASK_SLEEPING;
		}
	}
	if (next <= 0)
		return;
	n = task_get(&w->tasks, next);
	if (!n)
		return;
	if (next_comm && next_comm[0])
		set_comm(n->comm, next_comm);
	if (n->state == TASK_WAITING) {
		uint64_t waited = ts - n->since;
		int pkg = t->pkg[cpu];

		end_wait(w, n, ts);
		if (w->started) {
			/* the part of the wait within the window after a ping-pong */
			uint64_t from = n->since > n->pp_from ? n->since : n->pp_from;
			uint64_t to = ts < n->pp_until ? ts : n->pp_until;

			if (to > from)
				w->pp_wait_ns += to - from;
			hist_add(&w->wait, waited);
			hist_add(&w->wait_pkg[pkg], waited);
			if (hist_of(&n->wait))
				hist_add(n->wait, waited);
			if (n->woken) {
				uint64_t lat = ts - n->woken_at;

				hist_add(&w->wake, lat);
				hist_add(&w->wake_pkg[pkg], lat);
				if (hist_of(&n->wake))
					hist_add(n->wake, lat);
			}
		}
	}
	n->state = TASK_RUNNING;
	n->cpu = cpu;
}

void waiting_migrate(struct waiting *w, int pid, int orig, int dest, uint64_t ts)
{
	struct task *t = task_get(&w->tasks, pid);

	(void)orig;
	if (!t)
		return;
	if (t->state == TASK_WAITING) {
		bool woken = t->woken;
		uint64_t since = t->since, woken_at = t->woken_at;

		/*
		 * The task waits on @dest from now on; its wait (and its
		 * wakeup latency) still run from when it started waiting.
		 */
		end_wait(w, t, ts);
		start_wait(w, t, dest, ts, woken);
		t->since = since;
		t->woken_at = woken_at;
	} else {
		t->cpu = dest;
	}
}

void waiting_start(struct waiting *w, const struct topology *t, const struct busy *b, uint64_t ts)
{
	/* what busy.c knows of each cpu, and the units from scratch */
	w->started = true;
	for (int cpu = 0; cpu < t->nr_cpu_ids; cpu++) {
		if (!t->present[cpu])
			continue;
		w->known[cpu] = b->cpu[cpu].known;
		w->running[cpu] = b->cpu[cpu].known && b->cpu[cpu].pid != 0;
		w->area_since[cpu] = ts;
	}
	for (int u = 0; u < w->nunits; u++) {
		w->units[u].on = false;
		w->units[u].since = ts;
	}
	for (int l = 0; l < MAX_DOMAINS; l++)
		w->level[l].non = 0;
	for (int cpu = 0; cpu < t->nr_cpu_ids; cpu++)
		if (t->present[cpu])
			cpu_contrib(w, cpu, +1, ts);
}

void waiting_close_bucket(struct waiting *w, uint64_t end)
{
	for (int cpu = 0; cpu < w->ncpus; cpu++)
		area_mark(w, cpu, end);
	for (int u = 0; u < w->nunits; u++)
		if (w->units[u].on) {
			w->units[u].bucket_ns += end - w->units[u].since;
			w->units[u].since = end;
		}
	for (int l = 0; l < w->nlevels; l++)
		if (w->level[l].non) {
			w->level[l].bucket_ns += end - w->level[l].since;
			w->level[l].since = end;
		}
}

void waiting_next_bucket(struct waiting *w)
{
	for (int cpu = 0; cpu < w->ncpus; cpu++) {
		w->area_total[cpu] += w->area_bucket[cpu];
		w->area_bucket[cpu] = 0;
	}
	for (int u = 0; u < w->nunits; u++) {
		w->units[u].total_ns += w->units[u].bucket_ns;
		w->units[u].bucket_ns = 0;
	}
	for (int l = 0; l < w->nlevels; l++) {
		w->level[l].total_ns += w->level[l].bucket_ns;
		w->level[l].bucket_ns = 0;
	}
}
