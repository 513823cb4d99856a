// SPDX-License-Identifier: GPL-2.0
/*
 * The busy-state machine (busy.h): per-cpu state and the sets of cpus
 * (units) whose busy time is the time any of their cpus was busy.
 */
#include <stdlib.h>
#include <string.h>

#include "busy.h"

int busy_init(struct busy *b, const struct topology *t)
{
	int cpu, n = 0, *list;

	memset(b, 0, sizeof(*b));
	b->nr_cpu_ids = t->nr_cpu_ids;
	b->unit_core = 0;
	b->unit_pkg = t->ncores;
	b->unit_group = b->unit_pkg + t->npkgs;
	b->unit_system = b->unit_group + t->ngroups;
	b->nunits = b->unit_system + 1;
	b->cpu = calloc(t->nr_cpu_ids ? t->nr_cpu_ids : 1, sizeof(*b->cpu));
	b->units = calloc(b->nunits, sizeof(*b->units));
	/* every cpu: its core, its package, its groups, the system */
	for (cpu = 0; cpu < t->nr_cpu_ids; cpu++) {
		if (!t->present[cpu])
			continue;
		n += 3;
		for (int g = 0; g < t->ngroups; g++)
			n += mask_test(&t->groups[g].cpus, cpu);
	}
	b->unit_lists = calloc(n ? n : 1, sizeof(int));
	if (!b->cpu || !b->units || !b->unit_lists) {
		busy_free(b);
		return -1;
	}
	list = b->unit_lists;
	for (cpu = 0; cpu < t->nr_cpu_ids; cpu++) {
		struct busy_cpu *c = &b->cpu[cpu];

		if (!t->present[cpu])
			continue;
		c->units = list;
		c->units[c->nunits++] = b->unit_core + t->core[cpu];
		c->units[c->nunits++] = b->unit_pkg + t->pkg[cpu];
		for (int g = 0; g < t->ngroups; g++)
			if (mask_test(&t->groups[g].cpus, cpu))
				c->units[c->nunits++] = b->unit_group + g;
		c->units[c->nunits++] = b->unit_system;
		list += c->nunits;
	}
	return 0;
}

void busy_free(struct busy *b)
{
	free(b->cpu);
	free(b->units);
	free(b->unit_lists);
	b->cpu = NULL;
	b->units = NULL;
	b->unit_lists = NULL;
}

static void unit_change(struct busy_unit *u, bool busy, uint64_t ts)
{
	if (busy) {
		if (u->nbusy++ == 0) {
			u->since = ts;
			u->wakeups++;
		}
	} else if (u->nbusy > 0 && --u->nbusy == 0) {
		u->bucket_ns += ts - u->since;
	}
}

void busy_seen(struct busy *b, int cpu, int pid)
{
	b->cpu[cpu].known = true;
	b->cpu[cpu].pid = pid;
}

static void join_units(struct busy *b, struct busy_cpu *c, uint64_t ts)
{
	for (int i = 0; i < c->nunits; i++)
		unit_change(&b->units[c->units[i]], true, ts);
}

void busy_start(struct busy *b, const struct topology *t, uint64_t ts)
{
	for (int cpu = 0; cpu < t->nr_cpu_ids; cpu++) {
		struct busy_cpu *c = &b->cpu[cpu];

		if (!t->present[cpu])
			continue;
		c->since = ts;
		if (!c->known) {
			c->was_unknown = true;
			continue;
		}
		/* a set busy from the start did not wake up at the start */
		if (c->pid != 0)
			for (int i = 0; i < c->nunits; i++) {
				struct busy_unit *u = &b->units[c->units[i]];

				if (u->nbusy++ == 0)
					u->since = ts;
			}
	}
}

void busy_switch(struct busy *b, int cpu, int next, uint64_t ts)
{
	struct busy_cpu *c = &b->cpu[cpu];
	bool was = c->pid != 0, busy = next != 0;

	if (!c->known) {
		c->known = true;
		c->pid = next;
		c->since = ts;
		if (busy)
			join_units(b, c, ts);
		return;
	}
	if (was != busy) {
		if (was)
			c->bucket_ns += ts - c->since;
		c->since = ts;
		for (int i = 0; i < c->nunits; i++)
			unit_change(&b->units[c->units[i]], busy, ts);
	}
	c->pid = next;
}

void busy_close_bucket(struct busy *b, const struct topology *t, uint64_t end)
{
	for (int cpu = 0; cpu < t->nr_cpu_ids; cpu++) {
		struct busy_cpu *c = &b->cpu[cpu];

		if (t->present[cpu] && c->known && c->pid != 0) {
			c->bucket_ns += end - c->since;
			c->since = end;
		}
	}
	for (int i = 0; i < b->nunits; i++) {
		struct busy_unit *u = &b->units[i];

		if (u->nbusy) {
			u->bucket_ns += end - u->since;
			u->since = end;
		}
	}
}

void busy_next_bucket(struct busy *b)
{
	for (int cpu = 0; cpu < b->nr_cpu_ids; cpu++) {
		b->cpu[cpu].total_ns += b->cpu[cpu].bucket_ns;
		b->cpu[cpu].bucket_ns = 0;
	}
	for (int i = 0; i < b->nunits; i++) {
		b->units[i].total_ns += b->units[i].bucket_ns;
		b->units[i].bucket_ns = 0;
	}
}
