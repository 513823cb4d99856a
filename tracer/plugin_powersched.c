// SPDX-License-Identifier: LGPL-2.1
/*
 * plugin_powersched: how trace-cmd report and KernelShark print the events
 * of the powersaving balance policy (trace system "powersched").
 *
 * The kernel's own print formats are key=value for scripts; these handlers
 * spell the same records out for people: the policy's decision and its
 * reason in words, cpu sets as ranges ("0-3,8") and the domain level's name.
 * A balance event names the cpu it balances "for cpu N": the record itself
 * sits on the cpu that ran the balance (an idle cpu balances for others).
 *
 * A field the record lacks (an older or newer kernel, a truncated record) is
 * printed as "?" and the rest of the line still comes out.  When the event
 * lacks the fields that make it what it is, the handler prints "!" and
 * returns non-zero, so that libtraceevent follows with the kernel's own
 * print format, as its own plugins do.  Handlers that printed the event
 * return 0.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#include "powersched-events.h"

/* The words for an enum value (powersched-events.h), NULL when unknown. */
#define TEXT(table, v)	(PS_ENUM(table, v) ? PS_ENUM(table, v)->text : NULL)

/* The bytes of field @name of @record, bounded by the record; NULL if absent. */
static const void *raw(struct tep_event *event, struct tep_record *record,
		       const char *name, int *len)
{
	unsigned int size;
	const void *p = ps_field_data(event->tep, tep_find_field(event, name), record, &size);

	if (p && len)
		*len = size;
	return p;
}

/* A numeric field; false (and nothing printed) when the record lacks it. */
static bool num(struct tep_event *event, struct tep_record *record,
		const char *name, long long *val)
{
	return ps_field_num(event->tep, tep_find_field(event, name), record, val);
}

static void put_num(struct trace_seq *s, struct tep_event *event,
		    struct tep_record *record, const char *name, const char *fmt)
{
	long long v;

	if (num(event, record, name, &v))
		trace_seq_printf(s, fmt, v);
	else
		trace_seq_putc(s, '?');
}

/*
 * The domain as "MC (sd->level 2)": the level is the kernel's sd->level,
 * which counts the levels removed as degenerate (SMT 0, MC 2, NUMA 5 on
 * the guests), not the 0, 1, 2 of topology.tsv; the name is what maps to
 * topology.tsv.  Either part may be unknown.
 */
static void put_domain(struct trace_seq *s, struct tep_event *event,
		       struct tep_record *record)
{
	long long level;
	int len;
	const char *name = raw(event, record, "domain", &len);
	bool have_level = num(event, record, "level", &level);

	if (name && len > 0 && memchr(name, '\0', len))
		trace_seq_puts(s, name);
	else
		trace_seq_putc(s, '?');
	if (have_level)
		trace_seq_printf(s, " (sd->level %lld)", level);
	else
		trace_seq_puts(s, " (sd->level ?)");
}

/* A cpumask field as a cpu list, "0-3,8"; "none" when empty. */
static void put_cpus(struct trace_seq *s, struct tep_event *event,
		     struct tep_record *record, const char *name)
{
	int len, long_size = tep_get_long_size(event->tep);
	const unsigned char *bits = raw(event, record, name, &len);
	int nbits, cpu, start = -1, printed = 0;

	if (!bits || len <= 0) {
		trace_seq_putc(s, '?');
		return;
	}
	if (long_size != 4 && long_size != 8)
		long_size = 8;
	nbits = len * 8;

	for (cpu = 0; cpu <= nbits; cpu++) {
		bool set = false;

		if (cpu < nbits) {
			/* bit cpu lives in word cpu / (8 * long_size), in file byte order */
			int word = cpu / (8 * long_size), bit = cpu % (8 * long_size);
			unsigned long long w;

			if ((word + 1) * long_size > len)
				break;
			w = tep_read_number(event->tep, bits + word * long_size, long_size);
			set = (w >> bit) & 1;
		}
		if (set && start < 0)
			start = cpu;
		if (!set && start >= 0) {
			trace_seq_printf(s, "%s%d", printed ? "," : "", start);
			if (cpu - 1 > start)
				trace_seq_printf(s, "-%d", cpu - 1);
			printed = 1;
			start = -1;
		}
	}
	if (!printed)
		trace_seq_puts(s, "none");
}

static bool has(struct tep_event *event, const char *name)
{
	return tep_find_field(event, name) != NULL;
}

/* "comm:pid" of the task a record names */
static void put_task(struct trace_seq *s, struct tep_event *event, struct tep_record *record)
{
	long long pid;
	int len;
	const char *comm = raw(event, record, "comm", &len);

	if (comm && len > 0)
		trace_seq_printf(s, "%.*s", (int)strnlen(comm, len), comm);
	else
		trace_seq_putc(s, '?');
	trace_seq_putc(s, ':');
	if (num(event, record, "pid", &pid))
		trace_seq_printf(s, "%lld", pid);
	else
		trace_seq_putc(s, '?');
}

static void put_name(struct trace_seq *s, const char *name, long long v, bool have)
{
	if (!have)
		trace_seq_putc(s, '?');
	else if (name)
		trace_seq_puts(s, name);
	else
		trace_seq_printf(s, "%lld?", v);
}

static int power_pack_decision_handler(struct trace_seq *s,
				       struct tep_record *record,
				       struct tep_event *event, void *context __attribute__((unused)))
{
	long long origin, reason, chosen;
	bool have_origin = num(event, record, "origin", &origin);
	bool have_reason = num(event, record, "reason", &reason);
	bool have_chosen = num(event, record, "chosen_cpu", &chosen);

	if (!has(event, "comm") && !have_reason && !have_chosen)
		return trace_seq_putc(s, '!');

	put_task(s, event, record);
	trace_seq_putc(s, ' ');
	put_name(s, have_origin ? TEXT(ps_origins, origin) : NULL, origin, have_origin);
	if (have_chosen && chosen >= 0)
		trace_seq_printf(s, " -> cpu %lld", chosen);
	else if (have_chosen)
		trace_seq_puts(s, " -> mainline");
	else
		trace_seq_puts(s, " -> cpu ?");
	trace_seq_puts(s, ": ");
	put_name(s, have_reason ? TEXT(ps_pack_reasons, reason) : NULL, reason, have_reason);
	trace_seq_puts(s, " [prev cpu ");
	put_num(s, event, record, "prev_cpu", "%lld");
	trace_seq_puts(s, ", waking cpu ");
	put_num(s, event, record, "waking_cpu", "%lld");
	trace_seq_puts(s, ", domain ");
	put_domain(s, event, record);
	trace_seq_puts(s, ", util ");
	put_num(s, event, record, "util", "%lld");
	trace_seq_puts(s, "/1024");
	/* series v2 */
	if (has(event, "sd_util")) {
		trace_seq_puts(s, ", domain util ");
		put_num(s, event, record, "sd_util", "%lld");
		trace_seq_putc(s, '/');
		put_num(s, event, record, "sd_capacity", "%lld");
	}
	if (has(event, "scanned")) {
		trace_seq_puts(s, ", ");
		put_num(s, event, record, "scanned", "%lld");
		trace_seq_puts(s, " cpus scanned");
	}
	if (has(event, "burst_cpus")) {
		trace_seq_puts(s, ", burst cpus ");
		put_cpus(s, event, record, "burst_cpus");
	}
	trace_seq_putc(s, ']');
	return 0;
}

static int group_leader_chosen_handler(struct trace_seq *s,
				       struct tep_record *record,
				       struct tep_event *event, void *context __attribute__((unused)))
{
	long long origin;
	bool have_origin = num(event, record, "origin", &origin);

	if (!tep_find_field(event, "leader_cpus") && !tep_find_field(event, "min_cpus"))
		return trace_seq_putc(s, '!');

	trace_seq_puts(s, "for cpu ");
	put_num(s, event, record, "cpu", "%lld");
	trace_seq_putc(s, ' ');
	put_name(s, have_origin ? TEXT(ps_origins, origin) : NULL, origin, have_origin);
	trace_seq_puts(s, " in ");
	put_domain(s, event, record);
	trace_seq_puts(s, ": leader ");
	put_cpus(s, event, record, "leader_cpus");
	trace_seq_puts(s, " (util ");
	put_num(s, event, record, "leader_util", "%lld");
	trace_seq_puts(s, "), least busy ");
	put_cpus(s, event, record, "min_cpus");
	trace_seq_puts(s, " (util ");
	put_num(s, event, record, "min_util", "%lld");
	trace_seq_puts(s, "), domain util ");
	put_num(s, event, record, "sd_util", "%lld");
	trace_seq_putc(s, '/');
	put_num(s, event, record, "sd_capacity", "%lld");
	return 0;
}

static int lazy_balance_skip_handler(struct trace_seq *s,
				     struct tep_record *record,
				     struct tep_event *event, void *context __attribute__((unused)))
{
	long long rec;

	if (!tep_find_field(event, "record") && !tep_find_field(event, "recent"))
		return trace_seq_putc(s, '!');

	trace_seq_puts(s, "for cpu ");
	put_num(s, event, record, "cpu", "%lld");
	trace_seq_puts(s, " in ");
	put_domain(s, event, record);
	trace_seq_puts(s, ": power balance skipped, ");
	put_num(s, event, record, "recent", "%lld");
	trace_seq_puts(s, " performance passes in the last 32, ");
	put_num(s, event, record, "older", "%lld");
	trace_seq_puts(s, " in the 32 before (history ");
	if (num(event, record, "record", &rec))
		trace_seq_printf(s, "0x%016llx", (unsigned long long)rec);
	else
		trace_seq_putc(s, '?');
	trace_seq_putc(s, ')');
	/* series v2 */
	if (has(event, "window_ms")) {
		long long variant;
		bool have_variant = num(event, record, "variant", &variant);

		trace_seq_puts(s, ", window ");
		put_num(s, event, record, "window_ms", "%lld");
		trace_seq_puts(s, " ms, ");
		put_num(s, event, record, "since_ms", "%lld");
		trace_seq_puts(s, " ms since a performance pass, ");
		put_name(s, have_variant ? TEXT(ps_lazy_variants, variant) : NULL, variant, have_variant);
	}
	return 0;
}

static int balance_mode_handler(struct trace_seq *s, struct tep_record *record,
				struct tep_event *event, void *context __attribute__((unused)))
{
	long long mode, why, idle;
	bool have_mode = num(event, record, "mode", &mode);
	bool have_why = num(event, record, "why", &why);
	bool have_idle = num(event, record, "idle", &idle);

	if (!have_mode && !have_why)
		return trace_seq_putc(s, '!');

	trace_seq_puts(s, "for cpu ");
	put_num(s, event, record, "cpu", "%lld");
	trace_seq_putc(s, ' ');
	put_name(s, have_idle ? TEXT(ps_idle_types, idle) : NULL, idle, have_idle);
	trace_seq_puts(s, " in ");
	put_domain(s, event, record);
	trace_seq_puts(s, ": ");
	put_name(s, have_mode ? TEXT(ps_modes, mode) : NULL, mode, have_mode);
	trace_seq_puts(s, " (");
	put_name(s, have_why ? TEXT(ps_whys, why) : NULL, why, have_why);
	trace_seq_putc(s, ')');
	/* series v2: the group that crossed its capacity */
	if (have_why && why == PS_WHY_OVERLOADED && has(event, "group_cpus")) {
		trace_seq_puts(s, " [group ");
		put_cpus(s, event, record, "group_cpus");
		/* what crossed the threshold (the kernel's power_group_overloaded()) */
		if (has(event, "group_runnable") && has(event, "imbalance_pct")) {
			trace_seq_puts(s, ", runnable ");
			put_num(s, event, record, "group_runnable", "%lld");
			trace_seq_puts(s, " > ");
			put_num(s, event, record, "group_capacity", "%lld");
			trace_seq_puts(s, " x ");
			put_num(s, event, record, "imbalance_pct", "%lld");
			trace_seq_putc(s, '%');
		}
		trace_seq_puts(s, ", util ");
		put_num(s, event, record, "group_util", "%lld");
		trace_seq_putc(s, '/');
		put_num(s, event, record, "group_capacity", "%lld");
		trace_seq_puts(s, " (cfs ");
		put_num(s, event, record, "cfs_util", "%lld");
		trace_seq_puts(s, ", rt+dl+irq ");
		put_num(s, event, record, "stolen_util", "%lld");
		trace_seq_puts(s, "), ");
		put_num(s, event, record, "nr_runnable", "%lld");
		trace_seq_puts(s, " runnable]");
	}
	return 0;
}

/* series v2: a balance pass that found a source runqueue */
static int balance_outcome_handler(struct trace_seq *s, struct tep_record *record,
				   struct tep_event *event, void *context __attribute__((unused)))
{
	long long mode, idle, active, pinned;
	bool have_mode = num(event, record, "mode", &mode);
	bool have_idle = num(event, record, "idle", &idle);

	if (!have_mode && !has(event, "moved"))
		return trace_seq_putc(s, '!');

	trace_seq_puts(s, "for cpu ");
	put_num(s, event, record, "cpu", "%lld");
	trace_seq_putc(s, ' ');
	put_name(s, have_idle ? TEXT(ps_idle_types, idle) : NULL, idle, have_idle);
	trace_seq_puts(s, " in ");
	put_domain(s, event, record);
	trace_seq_puts(s, ": ");
	put_name(s, have_mode ? TEXT(ps_modes, mode) : NULL, mode, have_mode);
	trace_seq_puts(s, " from cpu ");
	put_num(s, event, record, "src_cpu", "%lld");
	trace_seq_puts(s, ", ");
	put_num(s, event, record, "moved", "%lld");
	trace_seq_puts(s, " task(s) moved");
	if (num(event, record, "active", &active) && active)
		trace_seq_puts(s, ", active balance kicked");
	if (num(event, record, "all_pinned", &pinned) && pinned)
		trace_seq_puts(s, ", every task pinned");
	return 0;
}

/* series v2: a task moved by load balance (right before its sched_migrate_task) */
static int balance_migrate_handler(struct trace_seq *s, struct tep_record *record,
				   struct tep_event *event, void *context __attribute__((unused)))
{
	long long mode, idle, active;
	bool have_mode = num(event, record, "mode", &mode);
	bool have_idle = num(event, record, "idle", &idle);
	bool have_active = num(event, record, "active", &active);

	if (!has(event, "src_cpu") && !has(event, "dst_cpu"))
		return trace_seq_putc(s, '!');

	put_task(s, event, record);
	trace_seq_puts(s, " cpu ");
	put_num(s, event, record, "src_cpu", "%lld");
	trace_seq_puts(s, " -> cpu ");
	put_num(s, event, record, "dst_cpu", "%lld");
	trace_seq_puts(s, ": ");
	if (have_active && active)
		trace_seq_puts(s, "pushed by active balance, ");
	else if (have_active)
		trace_seq_puts(s, "pulled by a ");
	else
		trace_seq_puts(s, "? by a ");
	put_name(s, have_mode ? TEXT(ps_modes, mode) : NULL, mode, have_mode);
	trace_seq_puts(s, " pass (");
	put_name(s, have_idle ? TEXT(ps_idle_types, idle) : NULL, idle, have_idle);
	trace_seq_puts(s, ") in ");
	put_domain(s, event, record);
	return 0;
}

/* series v2: the balance policy changed through sysfs */
static int policy_change_handler(struct trace_seq *s, struct tep_record *record,
				 struct tep_event *event, void *context __attribute__((unused)))
{
	long long old, new;
	bool have_old = num(event, record, "old", &old);
	bool have_new = num(event, record, "new", &new);

	if (!have_old && !have_new)
		return trace_seq_putc(s, '!');

	trace_seq_puts(s, "policy ");
	put_name(s, have_old ? TEXT(ps_policies, old) : NULL, old, have_old);
	trace_seq_puts(s, " -> ");
	put_name(s, have_new ? TEXT(ps_policies, new) : NULL, new, have_new);
	trace_seq_puts(s, " (written by ");
	put_task(s, event, record);
	trace_seq_putc(s, ')');
	return 0;
}

static const struct {
	const char *event;
	tep_event_handler_func handler;
} handlers[] = {
	{ PS_POWER_PACK_DECISION, power_pack_decision_handler },
	{ PS_GROUP_LEADER_CHOSEN, group_leader_chosen_handler },
	{ PS_LAZY_BALANCE_SKIP, lazy_balance_skip_handler },
	{ PS_BALANCE_MODE, balance_mode_handler },
	{ PS_BALANCE_OUTCOME, balance_outcome_handler },
	{ PS_BALANCE_MIGRATE, balance_migrate_handler },
	{ PS_POLICY_CHANGE, policy_change_handler },
};

int TEP_PLUGIN_LOADER(struct tep_handle *tep)
{
	for (size_t i = 0; i < sizeof(handlers) / sizeof(handlers[0]); i++)
		tep_register_event_handler(tep, -1, PS_SYSTEM, handlers[i].event,
					   handlers[i].handler, NULL);
	return 0;
}

int TEP_PLUGIN_UNLOADER(struct tep_handle *tep)
{
	for (size_t i = 0; i < sizeof(handlers) / sizeof(handlers[0]); i++)
		tep_unregister_event_handler(tep, -1, PS_SYSTEM, handlers[i].event,
					     handlers[i].handler, NULL);
	return 0;
}
