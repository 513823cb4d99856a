/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * powersched-events.h: the trace events as both readers of them see them,
 * the libtraceevent plugin (tracer/plugin_powersched.c) and the analyzer
 * (analysis/): event and field names, the kernel's enum values with their
 * names, and the bounds-checked reading of a field from a record.
 *
 * Header only, because the plugin is one shared object built from one file.
 *
 * The enums are exported by the kernel with TRACE_DEFINE_ENUM and
 * __print_symbolic; their numbering is fixed (new values are appended), so
 * the tables below are indexed by value.  A value beyond a table is a newer
 * kernel's: readers print it as "N?" and go on.
 *
 * Field lists are X-macros, F(name) per field, in the order of the events'
 * TP_STRUCT__entry.  A reader binds the fields it needs by name; a field a
 * kernel lacks (an older series) is simply absent.
 */
#ifndef POWERSCHED_EVENTS_H
#define POWERSCHED_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <traceevent/event-parse.h>

#define PS_SYSTEM	"powersched"

/* ------------------------------------------------------ powersched events */

/* fork/exec/wakeup placement by the powersaving policy */
#define PS_POWER_PACK_DECISION	"power_pack_decision"
#define PS_POWER_PACK_DECISION_FIELDS(F) \
	F(comm) F(pid) F(origin) F(prev_cpu) F(waking_cpu) F(chosen_cpu) \
	F(level) F(domain) F(util) F(sd_util) F(sd_capacity) F(scanned) \
	F(nr_burst) F(burst_cpus) F(reason)

#define PS_GROUP_LEADER_CHOSEN	"group_leader_chosen"
#define PS_GROUP_LEADER_CHOSEN_FIELDS(F) \
	F(cpu) F(level) F(domain) F(leader_cpus) F(leader_util) F(min_cpus) \
	F(min_util) F(sd_util) F(sd_capacity) F(origin)

/* one per load-balance pass that reached the policy's decision */
#define PS_BALANCE_MODE		"balance_mode"
#define PS_BALANCE_MODE_FIELDS(F) \
	F(cpu) F(level) F(domain) F(idle) F(mode) F(why) F(group_cpus) \
	F(group_util) F(group_capacity) F(cfs_util) F(stolen_util) F(nr_runnable)

/* one per balance pass that found a source runqueue (series v2) */
#define PS_BALANCE_OUTCOME	"balance_outcome"
#define PS_BALANCE_OUTCOME_FIELDS(F) \
	F(cpu) F(src_cpu) F(level) F(domain) F(idle) F(mode) F(moved) \
	F(active) F(all_pinned)

/*
 * One per task moved by load balance (series v2), emitted immediately
 * before the sched:sched_migrate_task record of the same task on the same
 * cpu, with interrupts off in between.
 */
#define PS_BALANCE_MIGRATE	"balance_migrate"
#define PS_BALANCE_MIGRATE_FIELDS(F) \
	F(comm) F(pid) F(src_cpu) F(dst_cpu) F(level) F(domain) F(idle) \
	F(mode) F(active)

#define PS_LAZY_BALANCE_SKIP	"lazy_balance_skip"
#define PS_LAZY_BALANCE_SKIP_FIELDS(F) \
	F(cpu) F(level) F(domain) F(record) F(recent) F(older) F(window_ms) \
	F(since_ms) F(variant)

/* the balance policy was changed through sysfs (series v2) */
#define PS_POLICY_CHANGE	"policy_change"
#define PS_POLICY_CHANGE_FIELDS(F) \
	F(old) F(new) F(pid) F(comm)

/* ------------------------------------- the other events the analyzer reads */

#define PS_SCHED_SWITCH_FIELDS(F) \
	F(prev_comm) F(prev_pid) F(prev_prio) F(prev_state) F(next_comm) \
	F(next_pid) F(next_prio)
/* sched_waking, sched_wakeup and sched_wakeup_new share one layout */
#define PS_SCHED_WAKEUP_FIELDS(F) \
	F(comm) F(pid) F(prio) F(target_cpu)
#define PS_SCHED_MIGRATE_TASK_FIELDS(F) \
	F(comm) F(pid) F(prio) F(orig_cpu) F(dest_cpu)
#define PS_FTRACE_PRINT_FIELDS(F) \
	F(ip) F(buf)
/* power:cpu_idle: state is the cpuidle index, or PWR_EVENT_EXIT on leaving */
#define PS_CPU_IDLE_FIELDS(F) \
	F(state) F(cpu_id)

/*
 * sched_switch prev_state: the task-state bits below 0x100 (S, D, T, t,
 * X, Z, P, I on 6.12); none set, or only the 0x100 "preempted" bit that
 * prints as "R+", means the task stayed runnable.  X (0x10) and Z (0x20)
 * mean it exited.
 */
#define PS_PREV_STATE_MASK	0xffLL
#define PS_PREV_STATE_DEAD	0x30LL

/* ------------------------------------------------------------- the enums */

/* A kernel enum value's names: the kernel's own key and words for people. */
struct ps_enum_name {
	const char *key;	/* as __print_symbolic prints it */
	const char *text;	/* as the plugin spells it out */
};

enum ps_origin { PS_ORIGIN_FORK, PS_ORIGIN_EXEC, PS_ORIGIN_WAKEUP, PS_ORIGIN_BALANCE };
static const struct ps_enum_name ps_origins[] = {
	{ "fork", "fork" }, { "exec", "exec" }, { "wakeup", "wakeup" },
	{ "balance", "balance" },
};

enum ps_idle { PS_IDLE_BUSY, PS_IDLE_IDLE, PS_IDLE_NEWLY_IDLE };
static const struct ps_enum_name ps_idle_types[] = {
	{ "busy", "busy" }, { "idle", "idle" }, { "newly_idle", "newly idle" },
};

enum ps_mode { PS_MODE_NONE, PS_MODE_POWER, PS_MODE_PERFORMANCE };
static const struct ps_enum_name ps_modes[] = {
	{ "none", "no balance" }, { "power", "power balance" },
	{ "performance", "performance balance" },
};

enum ps_policy { PS_POLICY_PERFORMANCE, PS_POLICY_POWERSAVING };
static const struct ps_enum_name ps_policies[] = {
	{ "performance", "performance" }, { "powersaving", "powersaving" },
};

/*
 * power_pack_decision.reason, as the kernel's enum power_pack_reason
 * numbers them (include/trace/events/powersched.h); chosen_cpu is -1 for
 * burst .. smt and for lazy.  kernel/tests/10-knobs.t checks these names
 * against the running kernel's print fmt.
 */
enum ps_pack_reason {
	PS_PACK_LEADER, PS_PACK_IDLEST, PS_PACK_LOCAL, PS_PACK_BURST,
	PS_PACK_DOMAIN_FULL, PS_PACK_NO_ROOM, PS_PACK_SMT, PS_PACK_PREV,
	PS_PACK_LAZY,
};
static const struct ps_enum_name ps_pack_reasons[] = {
	{ "leader", "transitory task packed onto a busy cpu of the group leader" },
	{ "idlest", "idlest cpu of the group leader" },
	{ "local", "transitory task kept on the waking cpu" },
	{ "burst", "wakeup burst filled the domain, mainline decides" },
	{ "domain_full", "domain full, mainline decides" },
	{ "no_room", "no group with room the task may use, mainline decides" },
	{ "smt", "the wake-affine domain is an SMT domain, mainline decides" },
	{ "prev", "its previous cpu, idle in the chosen group" },
	{ "lazy", "the domain was overloaded lately (lazy balance), mainline decides" },
};

/* balance_mode.why */
enum ps_why {
	PS_WHY_POLICY, PS_WHY_SMT, PS_WHY_BUSY_CPU, PS_WHY_OVERLOADED,
	PS_WHY_LOCAL_IDLE, PS_WHY_LOCAL_FULL, PS_WHY_NOT_LEADER, PS_WHY_LAZY,
	PS_WHY_PACK, PS_WHY_NO_LEADER, PS_WHY_NO_SOURCE, PS_WHY_MAINLINE_CASE,
};
static const struct ps_enum_name ps_whys[] = {
	{ "policy", "the policy is performance" },
	{ "smt", "SMT domain, packing saves nothing" },
	{ "busy_cpu", "this cpu is busy" },
	{ "overloaded", "a group is overloaded" },
	{ "local_idle", "the local group is idle" },
	{ "local_full", "the local group has no room" },
	{ "not_leader", "the local group is not the leader" },
	{ "lazy", "lazy: recent performance passes" },
	{ "pack", "packing the least busy group" },
	{ "no_leader", "no group has room" },
	{ "no_source", "no other group has tasks to pull" },
	{ "mainline_case", "misfit, asym packing or imbalance: left to mainline balance" },
};

/* lazy_balance_skip.variant */
static const struct ps_enum_name ps_lazy_variants[] = {
	{ "v7", "per-cpu pass history" },
	{ "shared", "per-domain time history" },
};

#define PS_NR(table)	((int)(sizeof(table) / sizeof((table)[0])))

/* The entry of @v in @table, or NULL for a value the table lacks. */
#define PS_ENUM(table, v) \
	((v) >= 0 && (v) < PS_NR(table) ? &(table)[v] : NULL)

/* The kernel's key of @v, or "N?" (into @buf) for a value a newer kernel added. */
static inline const char *ps_enum_key(const struct ps_enum_name *table, int n,
				      long long v, char *buf, size_t len)
{
	if (v >= 0 && v < n)
		return table[v].key;
	snprintf(buf, len, "%lld?", v);
	return buf;
}

/* ----------------------------------------------------- reading a record */

/*
 * Where a field's bytes are in @r, checked against the record's size, so
 * that a truncated or corrupt record is reported, never overread.
 * __data_loc fields (strings, cpumasks) are followed to their data.
 */
static inline const void *ps_field_data(struct tep_handle *tep,
					const struct tep_format_field *f,
					const struct tep_record *r, unsigned int *len)
{
	unsigned int offset, size;

	if (!f || f->offset < 0 || f->size < 0 || r->size < 0 ||
	    (unsigned int)f->offset + (unsigned int)f->size > (unsigned int)r->size)
		return NULL;
	offset = f->offset;
	size = f->size;
	/* a trailing "char buf[]" (ftrace print) is the rest of the record */
	if (!size && !(f->flags & TEP_FIELD_IS_DYNAMIC))
		size = r->size - offset;
	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		unsigned int loc;

		if (f->size < 4)
			return NULL;
		loc = tep_read_number(tep, (const char *)r->data + f->offset, 4);
		offset = loc & 0xffff;
		size = loc >> 16;
		if (f->flags & TEP_FIELD_IS_RELATIVE)
			offset += f->offset + f->size;
		if (offset + size > (unsigned int)r->size)
			return NULL;
	}
	*len = size;
	return (const char *)r->data + offset;
}

/* A numeric field, sign-extended as the format says; false when absent. */
static inline bool ps_field_num(struct tep_handle *tep, const struct tep_format_field *f,
				const struct tep_record *r, long long *v)
{
	unsigned long long x;
	unsigned int len;
	const void *p = ps_field_data(tep, f, r, &len);

	if (!p || (f->flags & TEP_FIELD_IS_DYNAMIC) ||
	    (len != 1 && len != 2 && len != 4 && len != 8))
		return false;
	x = tep_read_number(tep, p, len);
	if (f->flags & TEP_FIELD_IS_SIGNED) {
		switch (len) {
		case 1: *v = (signed char)x; break;
		case 2: *v = (short)x; break;
		case 4: *v = (int)x; break;
		default: *v = (long long)x; break;
		}
	} else {
		*v = (long long)x;
	}
	return true;
}

/*
 * A string field (__data_loc or a fixed char array) into @buf, cut at its
 * first NUL and at @len - 1 bytes; false when absent.
 */
static inline bool ps_field_str(struct tep_handle *tep, const struct tep_format_field *f,
				const struct tep_record *r, char *buf, size_t len)
{
	unsigned int size;
	const char *p = ps_field_data(tep, f, r, &size);

	if (!p || !len)
		return false;
	if (size >= len)
		size = len - 1;
	memcpy(buf, p, size);
	buf[size] = 0;
	return true;
}

/*
 * Bit @cpu of a cpumask field: the mask is an array of longs of the
 * traced machine, in the file's byte order.  -1 when the field is absent
 * or shorter than @cpu.
 */
static inline int ps_field_cpu_test(struct tep_handle *tep, const struct tep_format_field *f,
				    const struct tep_record *r, int cpu)
{
	int long_size = tep_get_long_size(tep);
	unsigned int len;
	const unsigned char *bits = ps_field_data(tep, f, r, &len);
	int word, bit;

	if (!bits || cpu < 0)
		return -1;
	if (long_size != 4 && long_size != 8)
		long_size = 8;
	word = cpu / (8 * long_size);
	bit = cpu % (8 * long_size);
	if ((unsigned int)(word + 1) * long_size > len)
		return -1;
	return (tep_read_number(tep, bits + word * long_size, long_size) >> bit) & 1;
}

#endif
