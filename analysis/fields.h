/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Indices of the fields the analyzer binds, one enum per event, made from
 * the field lists of tracer/powersched-events.h so that the names and the
 * indices cannot drift apart: SW_prev_pid is the index of "prev_pid" in
 * sched_switch_fields[].
 */
#ifndef FIELDS_H
#define FIELDS_H

#include "../tracer/powersched-events.h"

#define SW_(n) SW_##n,
#define WK_(n) WK_##n,
#define MG_(n) MG_##n,
#define PR_(n) PR_##n,
#define PK_(n) PK_##n,
#define GL_(n) GL_##n,
#define BM_(n) BM_##n,
#define BO_(n) BO_##n,
#define BG_(n) BG_##n,
#define LZ_(n) LZ_##n,
#define PC_(n) PC_##n,
#define CI_(n) CI_##n,

enum { PS_SCHED_SWITCH_FIELDS(SW_) };
enum { PS_SCHED_WAKEUP_FIELDS(WK_) };
enum { PS_SCHED_MIGRATE_TASK_FIELDS(MG_) };
enum { PS_FTRACE_PRINT_FIELDS(PR_) };
enum { PS_CPU_IDLE_FIELDS(CI_) };
enum { PS_POWER_PACK_DECISION_FIELDS(PK_) };
enum { PS_GROUP_LEADER_CHOSEN_FIELDS(GL_) };
enum { PS_BALANCE_MODE_FIELDS(BM_) };
enum { PS_BALANCE_OUTCOME_FIELDS(BO_) };
enum { PS_BALANCE_MIGRATE_FIELDS(BG_) };
enum { PS_LAZY_BALANCE_SKIP_FIELDS(LZ_) };
enum { PS_POLICY_CHANGE_FIELDS(PC_) };

#endif
