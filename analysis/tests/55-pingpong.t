#!/bin/bash
# Ping-pong migrations (analysis/pingpong.c) on crafted traces: a task
# bounced between two cpus at a known rate, moves back across each level,
# moves that do not undo the one before, the window, and the causes of
# both moves.  Cpus 0-3 package 0 (cores 0-1, 2-3), 4-7 package 1.
source "$(dirname "$0")/../../tests/lib.sh"
source "$(dirname "$0")/crafted.sh"
use_sanitizers

# Task 801 is pulled 0 -> 4 by a power pass and pushed back 4 -> 0 by a
# performance pass, every 20 ms, 10 times each way: 19 moves undo the one
# before (the first does not), all across packages.
bounce() {
	awk 'BEGIN { for (i = 0; i < 20; i++) { t = 1.1 + i * 0.02
		if (i % 2 == 0) { printf "4 %.6f balance_migrate comm=b pid=801 src_cpu=0 dst_cpu=4 level=5 domain=NUMA idle=1 mode=1 active=0\n", t
			printf "4 %.6f sched_migrate_task comm=b pid=801 orig_cpu=0 dest_cpu=4\n", t }
		else { printf "0 %.6f balance_migrate comm=b pid=801 src_cpu=4 dst_cpu=0 level=5 domain=NUMA idle=1 mode=2 active=0\n", t
			printf "0 %.6f sched_migrate_task comm=b pid=801 orig_cpu=4 dest_cpu=0\n", t } } }'
}
craft bounce <<EOF
$(known_at 1.0)
$(ticks 1.0 2.0)
$(bounce)
EOF
an bounce
ok "bounce: analyzed" exited bounce 0
is "$(sv bounce migrations.total)" 20 "bounce: 20 migrations"
is "$(sv bounce migrations.pingpong.total)" 19 "bounce: 19 of them undo the one before"
is "$(sv bounce migrations.pingpong.package)" 19 "bounce: all across packages"
is "$(sv bounce migrations.pingpong.smt)/$(sv bounce migrations.pingpong.core)" 0/0 "bounce: none at the lower levels"
is "$(sv bounce migrations.pingpong.share)" 0.9500 "bounce: the share of all migrations (19/20)"
is "$(sv bounce migrations.pingpong_causes.power_pass/performance_pass)" 10 \
	"bounce: 10 power pulls undone by a performance push"
is "$(sv bounce migrations.pingpong_causes.performance_pass/power_pass)" 9 \
	"bounce: 9 performance pushes undone by a power pull"
is "$(grep -vc '^#' "$TEST_TMP/bounce/out/pingpong.tsv")" 19 "bounce: a row each in pingpong.tsv"
is "$(grep -v '^#' "$TEST_TMP/bounce/out/pingpong.tsv" | head -n1 | cut -f2-10)" \
	$'801\tb\tpackage\t0\t4\t0\t20.000\tpower_pass\tperformance_pass' "bounce: the first row: task, level, cpus, gap, causes"
ok "bounce: pingpong.tsv names its columns" grep -q $'^# time_s\tpid\tcomm\tlevel\tfrom_cpu\tvia_cpu\tto_cpu\tgap_ms\tfirst_cause\tsecond_cause$' \
	"$TEST_TMP/bounce/out/pingpong.tsv"
is "$(jv bounce .migrations.pingpong.window_ms)" 100 "bounce: summary.json says the window"

# The window: 20 ms apart is inside 30 ms and outside 10 ms
an bounce --pingpong-ms 10
is "$(sv bounce migrations.pingpong.total)" 0 "window: moves 20 ms apart are not ping-pongs within 10 ms"
an bounce --pingpong-ms 30
is "$(sv bounce migrations.pingpong.total)" 19 "window: ... and are within 30 ms"
an bounce --pingpong-ms 0
is "$RC" 2 "window: --pingpong-ms 0 is refused"
ok "window: and named" grep -q "^powersched: --pingpong-ms '0': not a number of milliseconds" "$TEST_TMP/bounce.err"
an bounce --pingpong-ms 5x
is "$RC" 2 "window: --pingpong-ms 5x is refused"

# What is back and what is not (task, moves, 10 ms apart):
#  802: 0 -> 1 -> 0       SMT siblings and back: an smt ping-pong
#  803: 0 -> 2 -> 1       to core 1 and back to core 0 (another cpu): core
#  804: 0 -> 2 -> 6       on to the other package: not back
#  805: 0 -> 1 -> 5 -> 0  SMT, package, package back to package 0: the third
#                         undoes the second (package), though not to cpu 1
#  806: 0 -> 4 -> 5 -> 0  the last move crosses packages, the one before it
#                         (4 -> 5, SMT) did not: not back
mv() { echo "$2 $1 sched_migrate_task comm=t pid=$3 orig_cpu=$2 dest_cpu=$4"; }
craft levels <<EOF
$(known_at 1.0)
$(ticks 1.0 2.0)
$(mv 1.10 0 802 1)
$(mv 1.11 1 802 0)
$(mv 1.10 0 803 2)
$(mv 1.11 2 803 1)
$(mv 1.10 0 804 2)
$(mv 1.11 2 804 6)
$(mv 1.10 0 805 1)
$(mv 1.11 1 805 5)
$(mv 1.12 5 805 0)
$(mv 1.10 0 806 4)
$(mv 1.11 4 806 5)
$(mv 1.12 5 806 0)
EOF
an levels
ok "levels: analyzed" exited levels 0
is "$(sv levels migrations.pingpong.smt)" 1 "levels: SMT siblings and back"
is "$(sv levels migrations.pingpong.core)" 1 "levels: to another core and back to the first core, on another of its cpus"
is "$(sv levels migrations.pingpong.package)" 1 "levels: back across packages after a package move only"
is "$(sv levels migrations.pingpong.total)" 3 "levels: moving on, or back across another level, is not a ping-pong"
is "$(grep -v '^#' "$TEST_TMP/levels/out/pingpong.tsv" | awk -F'\t' '{ print $2 }' | sort | tr '\n' ' ')" "802 803 805 " \
	"levels: the tasks that ping-ponged"
is "$(sv levels migrations.pingpong_causes.other/other)" 3 "levels: migrations with no event before them are other/other"

# --max-rows bounds pingpong.tsv as it bounds the timelines, and says so
an bounce --max-rows 5
is "$(grep -vc '^#' "$TEST_TMP/bounce/out/pingpong.tsv")" 5 "max-rows: pingpong.tsv stops at 5 rows"
is "$(sv bounce migrations.pingpong.total)" 19 "max-rows: the count is still all of them"
ok "max-rows: summary says the rows were cut" bash -c "jq -r .migrations.pingpong.rows '$TEST_TMP/bounce/out/summary.json' | grep -q '^cut'"

# The cost: runqueue waits of a task within the window after its ping-pong.
# Task 900 sleeps and is moved 0 -> 4 -> 0 (a ping-pong at 1.12 s, window
# to 1.22 s); it wakes on cpu 0 behind task 901 at 1.13 s and waits 20 ms:
# counted.  It waits 10 ms again from 1.30 s, after the window: not counted.
# Task 901 waits too (1.15-1.16 s) but was never bounced: not counted.
craft cost <<EOF
$(known_at 1.0)
0 1.050 sched_switch prev_pid=0 next_comm=t901 next_pid=901
0 1.100 sched_migrate_task comm=t900 pid=900 prio=120 orig_cpu=0 dest_cpu=4
4 1.120 sched_migrate_task comm=t900 pid=900 prio=120 orig_cpu=4 dest_cpu=0
0 1.130 sched_wakeup comm=t900 pid=900 prio=120 target_cpu=0
0 1.150 sched_switch prev_comm=t901 prev_pid=901 prev_state=0 next_comm=t900 next_pid=900
0 1.160 sched_switch prev_comm=t900 prev_pid=900 prev_state=1 next_comm=t901 next_pid=901
0 1.300 sched_wakeup comm=t900 pid=900 prio=120 target_cpu=0
0 1.310 sched_switch prev_comm=t901 prev_pid=901 prev_state=0 next_comm=t900 next_pid=900
0 1.320 sched_switch prev_comm=t900 prev_pid=900 prev_state=1 next_comm=t901 next_pid=901
$(ticks 1.0 2.0)
EOF
an cost
ok "cost: analyzed" exited cost 0
is "$(sv cost migrations.pingpong.total)" 1 "cost: one ping-pong"
is "$(sv cost migrations.pingpong.wait_after_s)" 0.020000 "cost: the 20 ms wait inside the window, not the one after it"
is "$(sv cost migrations.pingpong.wait_after_ms_each)" 20.000 "cost: 20 ms per ping-pong"
an cost --pingpong-ms 25
is "$(sv cost migrations.pingpong.wait_after_s)" 0.015000 "cost: a 25 ms window (to 1.145 s) holds 15 ms of the wait"
