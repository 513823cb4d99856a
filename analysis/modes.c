// SPDX-License-Identifier: GPL-2.0
/*
 * The powersched events: balance passes by mode, reason and domain level,
 * the mode timeline and its switches (the coarse thrashing rate), each
 * domain instance's own flips and time in each mode, lazy-balance
 * skips, pack decisions by reason and group-leader choices; and of series
 * v2 the balance outcomes and the policy changes.  An enum value beyond
 * those of powersched-events.h (a newer kernel's) is counted as "unknown"
 * and the first one is named in the summary.
 */
#include <string.h>

#include "analyze.h"
#include "fields.h"

/* A value beyond the names we know: counted apart, the first one named */
static int known_or_unknown(struct analysis *a, const char *event, const char *field,
			    long long v, int n)
{
	if (v >= 0 && v < n)
		return (int)v;
	if (!a->modes.unknown_value[0])
		snprintf(a->modes.unknown_value, sizeof(a->modes.unknown_value), "%s %s=%lld?",
			 event, field, v);
	return n;
}

int domain_index(const struct analysis *a, const char *name)
{
	for (int d = 0; d < a->topo.ndomains; d++)
		if (!strcmp(a->topo.domains[d], name))
			return d;
	return a->topo.ndomains;	/* the "other" slot */
}

/* The pass of one domain instance: the cpu it balances for (a nohz idle
 * balance runs on another cpu than the one it balances) */
static void instance_pass(struct analysis *a, struct bound_event *e, struct tep_record *r,
			  struct domain_stats *ds, int m, int cpu, uint64_t ts)
{
	struct mode_instance *mi;
	long long for_cpu;

	if (!ev_num(e, r, BM_cpu, &for_cpu))
		for_cpu = cpu;
	if (for_cpu < 0 || for_cpu >= MAX_CPUS || !a->topo.present[for_cpu]) {
		bad_record(a, PS_BALANCE_MODE, "cpu", for_cpu, cpu, ts);
		return;
	}
	mi = &ds->inst[for_cpu];
	if (!mi->mode) {
		ds->instances++;
	} else if (mi->mode != m) {
		ds->inst_ns[mi->mode] += ts - mi->since;
		ds->flips++;
	} else {
		return;
	}
	mi->mode = m;
	mi->since = ts;
}

void modes_finish(struct analysis *a)
{
	for (int d = 0; d <= a->topo.ndomains; d++) {
		struct domain_stats *ds = &a->modes.dom[d];

		for (int c = 0; c < MAX_CPUS; c++) {
			struct mode_instance *mi = &ds->inst[c];

			if (mi->mode && a->last_ts > mi->since)
				ds->inst_ns[mi->mode] += a->last_ts - mi->since;
			mi->since = a->last_ts;
		}
	}
}

void on_balance_mode(void *ctx, struct bound_event *e, struct tep_record *r, int cpu, uint64_t ts)
{
	struct analysis *a = ctx;
	struct modes *md = &a->modes;
	char name[NAME_LEN];
	long long mode, why;
	struct domain_stats *ds;
	int m;

	(void)cpu;
	if (!a->started)
		return;
	if (!ev_str(e, r, BM_domain, name, sizeof(name)) ||
	    !ev_num(e, r, BM_mode, &mode) || !ev_num(e, r, BM_why, &why) ||
	    known_or_unknown(a, PS_BALANCE_MODE, "mode", mode, NMODES) == NMODES)
		return;
	md->balance_total++;
	ds = &md->dom[domain_index(a, name)];
	ds->passes[mode]++;
	ds->bucket_passes[mode]++;
	ds->why[known_or_unknown(a, PS_BALANCE_MODE, "why", why, NWHYS)]++;

	/*
	 * The thrashing timeline: passes that chose between packing and
	 * spreading.  SMT domains and busy cpus always spread, whatever the
	 * load, so they say nothing about the mode; "none" passes neither.
	 */
	if (why == PS_WHY_SMT || why == PS_WHY_BUSY_CPU || mode == PS_MODE_NONE)
		return;
	m = (int)mode;
	instance_pass(a, e, r, ds, m, cpu, ts);
	if (ds->mode && ds->mode != m) {
		uint64_t dur = ts - ds->mode_since;
		int b = 0;

		/* bucket b: [2^(b-1), 2^b) ms, b = 0 below 1 ms */
		for (uint64_t ms = dur / 1000000; ms && b < NHIST - 1; ms >>= 1)
			b++;
		md->hist[b]++;
		ds->switches++;
	}
	if (ds->mode != m) {
		ds->mode = m;
		ds->mode_since = ts;
	}
}

void on_pack(void *ctx, struct bound_event *e, struct tep_record *r, int cpu, uint64_t ts)
{
	struct analysis *a = ctx;
	struct modes *md = &a->modes;
	char name[NAME_LEN];
	long long reason = -1, origin = -1, pid, chosen = -1;

	(void)ts;
	if (ev_num(e, r, PK_pid, &pid)) {
		ev_num(e, r, PK_origin, &origin);
		ev_num(e, r, PK_chosen_cpu, &chosen);
		ev_num(e, r, PK_reason, &reason);
		migrations_placement(a, cpu, (int)pid, (int)origin, (int)chosen, (int)reason);
	}
	if (!a->started || reason == -1)
		return;
	md->pack_total++;
	if (!ev_str(e, r, PK_domain, name, sizeof(name)))
		name[0] = 0;
	md->dom[domain_index(a, name)].pack[known_or_unknown(a, PS_POWER_PACK_DECISION, "reason", reason, NREASONS)]++;
	if (origin != -1)
		md->pack_origin[known_or_unknown(a, PS_POWER_PACK_DECISION, "origin", origin, NORIGINS)]++;
}

void on_lazy(void *ctx, struct bound_event *e, struct tep_record *r, int cpu, uint64_t ts)
{
	struct analysis *a = ctx;
	char name[NAME_LEN];

	long long variant;

	(void)cpu; (void)ts;
	if (!a->started)
		return;
	a->modes.lazy_total++;
	if (ev_str(e, r, LZ_domain, name, sizeof(name)))
		a->modes.dom[domain_index(a, name)].lazy++;
	if (ev_num(e, r, LZ_variant, &variant))
		a->modes.lazy_variant[known_or_unknown(a, PS_LAZY_BALANCE_SKIP, "variant", variant,
						       PS_NR(ps_lazy_variants))]++;
}

/* balance_outcome (series v2): the passes that found a source runqueue */
void on_outcome(void *ctx, struct bound_event *e, struct tep_record *r, int cpu, uint64_t ts)
{
	struct analysis *a = ctx;
	struct modes *md = &a->modes;
	long long mode, moved = 0, active = 0, pinned = 0;
	int m;

	(void)cpu; (void)ts;
	if (!a->started || !ev_num(e, r, BO_mode, &mode))
		return;
	m = known_or_unknown(a, PS_BALANCE_OUTCOME, "mode", mode, NMODES);
	ev_num(e, r, BO_moved, &moved);
	ev_num(e, r, BO_active, &active);
	ev_num(e, r, BO_all_pinned, &pinned);
	md->outcome_passes[m]++;
	md->outcome_moved[m] += moved > 0 ? moved : 0;
	md->outcome_active[m] += active != 0;
	md->outcome_pinned[m] += pinned != 0;
}

/* policy_change (series v2): the balance policy switched through sysfs */
void on_policy(void *ctx, struct bound_event *e, struct tep_record *r, int cpu, uint64_t ts)
{
	struct analysis *a = ctx;
	long long pol;

	(void)cpu; (void)ts;
	if (!a->started || !ev_num(e, r, PC_new, &pol))
		return;
	a->modes.policy_changes++;
	a->modes.policy_last = known_or_unknown(a, PS_POLICY_CHANGE, "new", pol, PS_NR(ps_policies));
}

void on_leader(void *ctx, struct bound_event *e, struct tep_record *r, int cpu, uint64_t ts)
{
	struct analysis *a = ctx;
	long long origin;

	(void)cpu; (void)ts;
	if (!a->started)
		return;
	if (ev_num(e, r, GL_origin, &origin))
		a->modes.leader_origin[known_or_unknown(a, PS_GROUP_LEADER_CHOSEN, "origin", origin, NORIGINS)]++;
}

int modes_write_durations(struct analysis *a)
{
	struct output *o = output_open(&a->outs, "mode_durations.tsv");

	if (!o)
		return -1;
	fprintf(o->f, "# powersched analyze %s: how long a balance mode lasted before the next switch\n"
		"# from_ms\tto_ms\tcount\n", a->trace);
	for (int b = 0; b < NHIST; b++)
		fprintf(o->f, "%llu\t%llu\t%llu\n", b ? 1ULL << (b - 1) : 0,
			b == NHIST - 1 ? 0 : 1ULL << b, (unsigned long long)a->modes.hist[b]);
	return output_close(o);
}
