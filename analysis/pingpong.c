// SPDX-License-Identifier: GPL-2.0
/*
 * Ping-pong migrations: a task moved, then moved back within the window
 * (--pingpong-ms, default 100 ms), the thrashing a user feels.  "Back"
 * means across the same topology level as the move it undoes, to the unit
 * the task came from at that level: the same cpu after an SMT move, the
 * same core after a move between cores, the same package after a move
 * between packages.  Each ping-pong is counted by that level and by the
 * causes of both moves (migrations.c's attribution), and written as a row
 * of pingpong.tsv.  A task bounced A, B, A, B counts two: every move that
 * undoes the one before.
 *
 * Only the task's last migration is kept, in its slot of the task table,
 * so memory follows the live tasks, as for the rest of the analysis.
 */
#include "analyze.h"

void pingpong_header(struct analysis *a)
{
	fprintf(a->tl.pingpong->f,
		"# powersched analyze %s: ping-pong migrations, a task moved back within %g ms across the\n"
		"# level of its previous move (analysis/FORMATS.md); causes as in summary.json's migrations.by_cause\n"
		"# time_s\tpid\tcomm\tlevel\tfrom_cpu\tvia_cpu\tto_cpu\tgap_ms\tfirst_cause\tsecond_cause\n",
		a->trace, a->pp.window / 1e6);
}

/* the unit @cpu belongs to at @level: the cpu, its core or its package */
static int unit_of(const struct topology *t, int level, int cpu)
{
	return level == 0 ? cpu : level == 1 ? t->core[cpu] : t->pkg[cpu];
}

void pingpong_migration(struct analysis *a, struct task *tm, int orig, int dest, int level,
			int cause, uint64_t ts)
{
	static const char * const level_keys[NLEVELS] = { "smt", "core", "package" };
	struct pingpong *pp = &a->pp;
	const struct topology *t = &a->topo;
	uint64_t gap;

	if (!tm)
		return;
	if (tm->has_last && tm->last_level == level && tm->last_dest == orig &&
	    unit_of(t, level, dest) == unit_of(t, level, tm->last_orig) &&
	    (gap = ts - tm->last_ts) <= pp->window) {
		pp->total++;
		pp->level[level]++;
		tm->pp_from = ts;
		tm->pp_until = ts + pp->window;
		pp->pair[tm->last_cause][cause]++;
		if (pp->rows < a->max_rows) {
			fprintf(a->tl.pingpong->f, "%.6f\t%d\t%s\t%s\t%d\t%d\t%d\t%.3f\t%s\t%s\n",
				(ts - a->t0) / 1e9, tm->pid, tm->comm[0] ? tm->comm : "-",
				level_keys[level], tm->last_orig, orig, dest, gap / 1e6,
				cause_keys[tm->last_cause], cause_keys[cause]);
			pp->rows++;
		} else {
			pp->cut = true;
		}
	}
	tm->has_last = true;
	tm->last_level = (uint8_t)level;
	tm->last_cause = (uint8_t)cause;
	tm->last_orig = orig;
	tm->last_dest = dest;
	tm->last_ts = ts;
}
