// SPDX-License-Identifier: GPL-2.0
/*
 * Migrations: every sched_migrate_task between two cpus, by the lowest
 * topology level it crossed (smt, core, package), per bucket, in total and
 * per task (in the task table of waiting.c, written as tasks exit); and by
 * cause.
 *
 * Attributing a migration M (pid P) recorded on cpu C, as the powersched
 * events of series v2 define it:
 *  1. the record just before M on C is powersched:balance_migrate for P
 *     (emitted right before, interrupts off): the balance pass that moved
 *     it, a power pass (mode power), a performance pass (mode
 *     performance), or active balance (active=1, whatever the mode);
 *  2. else, when the records on C since the last sched:sched_waking of P
 *     on C are only placement events (power_pack_decision,
 *     group_leader_chosen), M is the wakeup's placement (ttwu emits
 *     sched_waking, then select_task_rq's events, then set_task_cpu's
 *     sched_migrate_task, on the waking cpu): by the pack decision's reason
 *     for P when there is one, else by mainline;
 *  3. else, a power_pack_decision origin=exec for P on C followed by M from
 *     C to its chosen cpu (through the stopper: a sched_switch may come
 *     between) is the exec placement;
 *  4. else "other" (affinity changes, hotplug, NUMA balancing, exec under
 *     the mainline path) when the trace has the events of rules 1 and 2;
 *     "unattributed" when it lacks balance_migrate (a kernel before series
 *     v2, or vanilla) or sched_waking, so that a balance is never called
 *     "other".
 */
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "fields.h"

const char * const cause_keys[NCAUSES] = {
	"power_pass", "performance_pass", "active_balance", "balance_no_mode",
	"wakeup_placement", "other", "unattributed",
};

/* The cause of a migration of @pid recorded on @cpu; *@sub: its placement reason or active mode */
static int cause_of(struct analysis *a, int cpu, int pid, int orig, int dest, int *sub)
{
	struct migrations *m = &a->mig;
	struct attrib_cpu *c = &m->cpu[cpu];

	if (c->after_bm && c->bm_pid == pid) {
		if (c->bm_active) {
			*sub = c->bm_mode >= 0 && c->bm_mode < NMODES ? c->bm_mode : NMODES;
			return CAUSE_ACTIVE_BALANCE;
		}
		if (c->bm_mode == PS_MODE_POWER)
			return CAUSE_POWER_PASS;
		if (c->bm_mode == PS_MODE_PERFORMANCE)
			return CAUSE_PERFORMANCE_PASS;
		return CAUSE_BALANCE_NO_MODE;
	}
	if (c->waking && c->wk_pid == pid) {
		*sub = c->wk_reason >= 0 ? c->wk_reason : PLACE_MAINLINE;
		return CAUSE_PLACEMENT;
	}
	if (c->ex_pid == pid && orig == cpu && dest == c->ex_dest) {
		*sub = PLACE_EXEC;
		return CAUSE_PLACEMENT;
	}
	return m->have_balance && m->have_waking ? CAUSE_OTHER : CAUSE_UNATTRIBUTED;
}

void on_balance_migrate(void *ctx, struct bound_event *e, struct tep_record *r, int cpu, uint64_t ts)
{
	struct analysis *a = ctx;
	struct attrib_cpu *c = &a->mig.cpu[cpu];
	long long pid, mode = -1, active = 0;

	(void)ts;
	if (!ev_num(e, r, BG_pid, &pid))
		return;
	ev_num(e, r, BG_mode, &mode);
	ev_num(e, r, BG_active, &active);
	if (a->started)
		a->mig.balance_migrate++;
	c->bm_pid = (int)pid;
	c->bm_mode = mode >= INT32_MIN && mode <= INT32_MAX ? (int)mode : -1;
	c->bm_active = active != 0;
	c->after_bm = true;	/* cleared by migrations_after() at the next record */
}

void on_waking(void *ctx, struct bound_event *e, struct tep_record *r, int cpu, uint64_t ts)
{
	struct analysis *a = ctx;
	struct attrib_cpu *c = &a->mig.cpu[cpu];
	long long pid;

	(void)ts;
	if (!ev_num(e, r, WK_pid, &pid))
		return;
	c->waking = true;
	c->wk_pid = (int)pid;
	c->wk_reason = -1;
}

void migrations_placement(struct analysis *a, int cpu, int pid, int origin, int chosen, int reason)
{
	struct attrib_cpu *c = &a->mig.cpu[cpu];

	if (c->waking && c->wk_pid == pid && reason >= 0 && reason < PS_NR(ps_pack_reasons))
		c->wk_reason = reason;
	if (origin == PS_ORIGIN_EXEC && chosen >= 0) {
		c->ex_pid = pid;
		c->ex_dest = chosen;
	}
}

void migrations_ran(struct analysis *a, int cpu, int pid)
{
	if (a->mig.cpu[cpu].ex_pid == pid)
		a->mig.cpu[cpu].ex_pid = 0;
}

void migrations_after(struct analysis *a, struct bound_event *e, int cpu)
{
	struct attrib_cpu *c = &a->mig.cpu[cpu];

	if (!e || e != a->ev_bm)
		c->after_bm = false;
	/* a wakeup's window holds its placement events only */
	if (c->waking && (!e || (e != a->ev_waking && e != a->ev_pack && e != a->ev_leader)))
		c->waking = false;
}

void on_migrate(void *ctx, struct bound_event *e, struct tep_record *r, int cpu, uint64_t ts)
{
	struct analysis *a = ctx;
	struct migrations *m = &a->mig;
	long long pid, orig, dest;
	struct topology *t = &a->topo;
	struct task *tm;
	int level, cause, sub = 0;

	if (!ev_num(e, r, MG_pid, &pid) || !ev_num(e, r, MG_orig_cpu, &orig) ||
	    !ev_num(e, r, MG_dest_cpu, &dest))
		return;
	if (orig < 0 || orig >= t->nr_cpu_ids || !t->present[orig]) {
		bad_record(a, "sched_migrate_task", "orig_cpu", orig, cpu, ts);
		return;
	}
	if (dest < 0 || dest >= t->nr_cpu_ids || !t->present[dest]) {
		bad_record(a, "sched_migrate_task", "dest_cpu", dest, cpu, ts);
		return;
	}
	if (pid < 0 || pid > INT32_MAX) {
		bad_record(a, "sched_migrate_task", "pid", pid, cpu, ts);
		return;
	}
	if (orig == dest)
		return;
	waiting_migrate(&a->wait, (int)pid, (int)orig, (int)dest, ts);
	cause = cause_of(a, cpu, (int)pid, (int)orig, (int)dest, &sub);
	/* an exec placement pending on this cpu is over with its migration */
	m->cpu[cpu].ex_pid = 0;
	if (!a->started)
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
	m->cause[cause][level]++;
	m->cause_bucket[cause]++;
	if (cause == CAUSE_ACTIVE_BALANCE)
		m->active_mode[sub]++;
	else if (cause == CAUSE_PLACEMENT)
		m->placement[sub]++;
	if (pid > 0) {
		tm = task_get(&a->wait.tasks, (int)pid);
		if (tm) {
			tm->mig[level]++;
			if (!tm->comm[0])
				ev_str(e, r, MG_comm, tm->comm, sizeof(tm->comm));
			pingpong_migration(a, tm, (int)orig, (int)dest, level, cause, ts);
		} else {
			m->other[level]++;
		}
	}
}
