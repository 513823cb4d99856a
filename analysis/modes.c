// SPDX-License-Identifier: GPL-2.0
/*
 * The powersched events: balance passes by mode and domain level, the
 * mode timeline and its switches (the thrashing rate), lazy-balance skips,
 * pack decisions by reason and group-leader choices.
 */
#include <string.h>

#include "analyze.h"
#include "fields.h"

int domain_index(const struct analysis *a, const char *name)
{
	for (int d = 0; d < a->topo.ndomains; d++)
		if (!strcmp(a->topo.domains[d], name))
			return d;
	return a->topo.ndomains;	/* the "other" slot */
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
	if (!ev_str(e, r, BM_domain, name, sizeof(name)) ||
	    !ev_num(e, r, BM_mode, &mode) || !ev_num(e, r, BM_why, &why) ||
	    mode < 0 || mode >= NMODES)
		return;
	md->balance_total++;
	ds = &md->dom[domain_index(a, name)];
	ds->passes[mode]++;
	ds->bucket_passes[mode]++;

	/*
	 * The thrashing timeline: passes that chose between packing and
	 * spreading.  SMT domains and busy cpus always spread, whatever the
	 * load, so they say nothing about the mode; "none" passes neither.
	 */
	if (why == PS_WHY_SMT || why == PS_WHY_BUSY_CPU || mode == PS_MODE_NONE)
		return;
	m = (int)mode;
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
	long long reason, origin;

	(void)cpu; (void)ts;
	if (!ev_num(e, r, PK_reason, &reason) || reason < 0 || reason >= NREASONS)
		return;
	md->pack_total++;
	if (!ev_str(e, r, PK_domain, name, sizeof(name)))
		name[0] = 0;
	md->dom[domain_index(a, name)].pack[reason]++;
	if (ev_num(e, r, PK_origin, &origin) && origin >= 0 && origin < NORIGINS)
		md->pack_origin[origin]++;
}

void on_lazy(void *ctx, struct bound_event *e, struct tep_record *r, int cpu, uint64_t ts)
{
	struct analysis *a = ctx;
	char name[NAME_LEN];

	(void)cpu; (void)ts;
	a->modes.lazy_total++;
	if (ev_str(e, r, LZ_domain, name, sizeof(name)))
		a->modes.dom[domain_index(a, name)].lazy++;
}

void on_leader(void *ctx, struct bound_event *e, struct tep_record *r, int cpu, uint64_t ts)
{
	struct analysis *a = ctx;
	long long origin;

	(void)cpu; (void)ts;
	if (ev_num(e, r, GL_origin, &origin) && origin >= 0 && origin < NORIGINS)
		a->modes.leader_origin[origin]++;
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
