// SPDX-License-Identifier: GPL-2.0
/*
 * Migrations: every sched_migrate_task between two cpus, by the lowest
 * topology level it crossed (smt, core, package), per bucket, in total and
 * per task.
 */
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "fields.h"

/*
 * The per-task table, open addressing on the pid.  It holds MAX_TASKS tasks
 * at most, so that memory stays bounded on traces of workloads that fork
 * without end; later tasks are counted together as "other tasks".
 */
static struct task_mig *task_slot(struct migrations *m, int pid)
{
	size_t i;

	if (m->ntasks * 2 >= m->nslots && m->ntasks < MAX_TASKS) {
		size_t n = m->nslots ? m->nslots * 2 : 1024;
		struct task_mig *t = calloc(n, sizeof(*t));

		if (!t)
			return NULL;
		for (i = 0; i < m->nslots; i++) {
			struct task_mig *o = &m->tasks[i];
			size_t j;

			if (!o->pid)
				continue;
			for (j = (size_t)o->pid * 2654435761u % n; t[j].pid; j = (j + 1) % n)
				;
			t[j] = *o;
		}
		free(m->tasks);
		m->tasks = t;
		m->nslots = n;
	}
	for (i = (size_t)pid * 2654435761u % m->nslots; m->tasks[i].pid; i = (i + 1) % m->nslots)
		if (m->tasks[i].pid == pid)
			return &m->tasks[i];
	if (m->ntasks >= MAX_TASKS)
		return NULL;
	m->tasks[i].pid = pid;
	m->ntasks++;
	return &m->tasks[i];
}

void migrations_free(struct migrations *m)
{
	free(m->tasks);
	m->tasks = NULL;
}

void on_migrate(void *ctx, struct bound_event *e, struct tep_record *r, int cpu, uint64_t ts)
{
	struct analysis *a = ctx;
	struct migrations *m = &a->mig;
	long long pid, orig, dest;
	struct topology *t = &a->topo;
	struct task_mig *tm;
	int level;

	(void)cpu; (void)ts;
	if (!ev_num(e, r, MG_pid, &pid) || !ev_num(e, r, MG_orig_cpu, &orig) ||
	    !ev_num(e, r, MG_dest_cpu, &dest))
		return;
	if (orig < 0 || dest < 0 || orig >= t->nr_cpu_ids || dest >= t->nr_cpu_ids ||
	    !t->present[orig] || !t->present[dest]) {
		a->bad_cpu = orig >= 0 && orig < MAX_CPUS && (orig >= t->nr_cpu_ids || !t->present[orig]) ?
			     (int)orig : (int)dest;
		return;
	}
	if (orig == dest)
		return;
	m->total++;
	if (t->core[orig] == t->core[dest])
		level = 0;
	else if (t->pkg[orig] == t->pkg[dest])
		level = 1;
	else
		level = 2;
	m->level[level]++;
	m->bucket[level]++;
	if (pid > 0 && pid < (1LL << 30)) {
		tm = task_slot(m, (int)pid);
		if (tm) {
			tm->count[level]++;
			ev_str(e, r, MG_comm, tm->comm, sizeof(tm->comm));
		} else {
			m->other[level]++;
		}
	}
}

int migrations_write_tasks(struct analysis *a)
{
	struct migrations *m = &a->mig;
	struct output *o = output_open(&a->outs, "migrations_by_task.tsv");

	if (!o)
		return -1;
	fprintf(o->f, "# powersched analyze %s: migrations per task by the lowest topology level crossed\n"
		"# pid\tcomm\tsmt\tcore\tpackage\ttotal\n", a->trace);
	for (size_t i = 0; i < m->nslots; i++) {
		struct task_mig *tm = &m->tasks[i];

		if (tm->pid)
			fprintf(o->f, "%d\t%s\t%u\t%u\t%u\t%u\n", tm->pid, tm->comm[0] ? tm->comm : "?",
				tm->count[0], tm->count[1], tm->count[2],
				tm->count[0] + tm->count[1] + tm->count[2]);
	}
	if (m->other[0] + m->other[1] + m->other[2])
		fprintf(o->f, "0\t(other tasks)\t%llu\t%llu\t%llu\t%llu\n",
			(unsigned long long)m->other[0], (unsigned long long)m->other[1],
			(unsigned long long)m->other[2],
			(unsigned long long)(m->other[0] + m->other[1] + m->other[2]));
	return output_close(o);
}
