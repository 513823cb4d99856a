#!/bin/bash
# Migration attribution (the powersched events of series v2): each cause
# of the rules in analysis/migrations.c on a crafted trace, two cpus'
# balance passes interleaved, and traces that lack the events to tell.
source "$(dirname "$0")/../../tests/lib.sh"
source "$(dirname "$0")/crafted.sh"
use_sanitizers

# each migration is recorded on cpu 0 or 1; cpus 0-3 package 0, 4-7 package 1
craft causes <<EOF
$(known_at 1.0)
$(ticks 1.0 2.5)
# 1. balance: a power pass, a performance pass, active balance (mode power)
0 1.100 balance_migrate comm=p pid=501 src_cpu=4 dst_cpu=0 level=5 domain=NUMA idle=1 mode=1 active=0
0 1.100 sched_migrate_task comm=p pid=501 orig_cpu=4 dest_cpu=0
0 1.110 balance_migrate comm=q pid=502 src_cpu=1 dst_cpu=0 level=0 domain=SMT idle=2 mode=2 active=0
0 1.110 sched_migrate_task comm=q pid=502 orig_cpu=1 dest_cpu=0
0 1.120 balance_migrate comm=r pid=503 src_cpu=2 dst_cpu=0 level=2 domain=MC idle=0 mode=1 active=1
0 1.120 sched_migrate_task comm=r pid=503 orig_cpu=2 dest_cpu=0
# not right before: another record in between makes it "other"
0 1.130 balance_migrate comm=s pid=504 src_cpu=2 dst_cpu=0 level=2 domain=MC idle=0 mode=1 active=0
0 1.130 sched_switch prev_pid=0 next_pid=0
0 1.130 sched_migrate_task comm=s pid=504 orig_cpu=2 dest_cpu=0
# 2. wakeup placement: by the pack decision's reason, else mainline
1 1.200 sched_waking comm=t pid=505 prio=120 target_cpu=3
1 1.200 group_leader_chosen cpu=1 level=2 domain=MC leader_cpus=0-1 min_cpus=2-3 origin=2
1 1.200 power_pack_decision comm=t pid=505 origin=2 prev_cpu=3 waking_cpu=1 chosen_cpu=0 level=2 domain=MC reason=1
1 1.200 sched_migrate_task comm=t pid=505 orig_cpu=3 dest_cpu=0
1 1.210 sched_waking comm=u pid=506 prio=120 target_cpu=5
1 1.210 sched_migrate_task comm=u pid=506 orig_cpu=5 dest_cpu=1
# ... but not when something else happened on the cpu since the waking
1 1.220 sched_waking comm=v pid=507 prio=120 target_cpu=5
1 1.220 sched_wakeup comm=w pid=600 prio=120 target_cpu=1
1 1.220 sched_migrate_task comm=v pid=507 orig_cpu=5 dest_cpu=1
# ... nor for another task than the one woken
1 1.230 sched_waking comm=x pid=508 prio=120 target_cpu=5
1 1.230 sched_migrate_task comm=y pid=509 orig_cpu=5 dest_cpu=1
# 3. exec placement, through the stopper
1 1.300 power_pack_decision comm=z pid=510 origin=1 prev_cpu=1 waking_cpu=1 chosen_cpu=6 level=5 domain=NUMA reason=1
1 1.300 sched_switch prev_comm=z prev_pid=510 prev_state=0 next_comm=migration/1 next_pid=20
1 1.300 sched_migrate_task comm=z pid=510 orig_cpu=1 dest_cpu=6
# 4. nothing before it: other
0 1.400 sched_migrate_task comm=o pid=511 orig_cpu=7 dest_cpu=0
EOF
an causes
ok "causes: analyzed" exited causes 0
is "$(sv causes migrations.by_cause.power_pass)" 1 "causes: a balance_migrate of mode power right before: power pass"
is "$(sv causes migrations.by_cause.performance_pass)" 1 "causes: ... of mode performance: performance pass"
is "$(sv causes migrations.by_cause.active_balance)" 1 "causes: ... with active=1: active balance"
is "$(sv causes migrations.active_balance_mode.power)" 1 "causes: the active balance's mode is kept"
is "$(sv causes migrations.by_cause.wakeup_placement)" 3 "causes: two wakeup placements and an exec one"
is "$(sv causes migrations.placement_reason.idlest)" 1 "causes: the placement with a pack decision has its reason"
is "$(sv causes migrations.placement_reason.mainline)" 1 "causes: the one without is mainline's"
is "$(sv causes migrations.placement_reason.exec)" 1 "causes: the exec placement through the stopper"
is "$(sv causes migrations.by_cause.other)" 4 "causes: the rest is other (a record between, another task, nothing before)"
is "$(sv causes migrations.by_cause.unattributed)" 0 "causes: nothing unattributed when the trace has the events"
is "$(sv causes migrations.by_cause_level.power_pass.package)" 1 "causes: the power pass crossed packages"
is "$(sv causes migrations.by_cause_level.performance_pass.smt)" 1 "causes: the performance pass moved between SMT siblings"
is "$(awk -F'\t' '!/^#/ { for (i = 5; i <= NF; i++) s += $i } END { print s }' "$TEST_TMP/causes/out/migrations.tsv")" \
	"$(sv causes migrations.total)" "causes: the per-bucket cause columns add up to the total"
ok "causes: migrations.tsv names the cause columns" grep -q $'^# time_s\tsmt\tcore\tpackage\tpower_pass\tperformance_pass' \
	"$TEST_TMP/causes/out/migrations.tsv"
ok "causes: the human summary lists them" grep -q "migration causes .*power_pass 1, performance_pass 1, active_balance 1" "$TEST_TMP/causes.out"

# Two cpus balancing at the same time: records interleaved in time, each
# migration follows its own cpu's balance_migrate.
craft interleaved <<EOF
$(known_at 1.0)
$(ticks 1.0 1.5)
0 1.100000 balance_migrate comm=a pid=701 src_cpu=4 dst_cpu=0 level=5 domain=NUMA idle=1 mode=1 active=0
1 1.100001 balance_migrate comm=b pid=702 src_cpu=5 dst_cpu=1 level=5 domain=NUMA idle=1 mode=2 active=0
0 1.100002 sched_migrate_task comm=a pid=701 orig_cpu=4 dest_cpu=0
1 1.100003 sched_migrate_task comm=b pid=702 orig_cpu=5 dest_cpu=1
EOF
an interleaved
is "$(sv interleaved migrations.by_cause.power_pass)/$(sv interleaved migrations.by_cause.performance_pass)" 1/1 \
	"interleaved: each cpu's migration goes with its own balance pass"

# The same records from a kernel without balance_migrate (series v1) or
# without sched_waking: never "other", always said
grep -v balance_migrate "$TEST_TMP/causes/records.txt" >"$TEST_TMP/v1.records"
mkdir -p "$TEST_TMP/v1" && cp "$TOPO8" "$TEST_TMP/v1/"
"$MK" --formats "$FORMATS" --system "powersched:$V2FORMATS" --omit balance_migrate --omit balance_outcome \
	--omit policy_change -o "$TEST_TMP/v1/trace.dat" "$TEST_TMP/v1.records"
an v1
ok "v1: analyzed" exited v1 0
is "$(sv v1 migrations.by_cause.other)" 0 "v1: without balance_migrate nothing is called other"
cmp_num "$(sv v1 migrations.by_cause.unattributed)" -ge 4 "v1: what the rules cannot tell is unattributed"
is "$(sv v1 migrations.by_cause.wakeup_placement)" 3 "v1: wakeup placements are still found"
ok "v1: the summary says balance attribution is unavailable" grep -q "attribution of balance migrations is unavailable" "$TEST_TMP/v1.out"
is "$(jv v1 .migrations.attribution.balance | cut -c1-11)" unavailable "v1: and summary.json"
grep -v sched_waking "$TEST_TMP/causes/records.txt" >"$TEST_TMP/nowaking.records"
mkdir -p "$TEST_TMP/nowaking" && cp "$TOPO8" "$TEST_TMP/nowaking/"
"$MK" --formats "$FORMATS" --system "powersched:$V2FORMATS" --omit sched_waking \
	-o "$TEST_TMP/nowaking/trace.dat" "$TEST_TMP/nowaking.records"
an nowaking
ok "no sched_waking: analyzed" exited nowaking 0
ok "no sched_waking: the summary says wakeup attribution is unavailable" \
	grep -q "attribution of wakeup migrations is unavailable" "$TEST_TMP/nowaking.out"
is "$(sv nowaking migrations.by_cause.other)" 0 "no sched_waking: nothing called other"
