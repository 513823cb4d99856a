#!/bin/bash
# The cost side of packing: runnable tasks, idle while waiting, wakeup
# latency and runqueue waits, on a crafted trace whose every wait is known,
# and on guest traces where the waiting follows from how they were recorded.
source "$(dirname "$0")/../../tests/lib.sh"
source "$(dirname "$0")/crafted.sh"
use_sanitizers
DATA=$ROOT/analysis/tests/data

# cpu 0 runs A (100); B (200) wakes on it and waits 2 ms, preempts A, which
# waits 3 ms; C (300) wakes on cpu 0, moves to the idle cpu 2 after 1 ms
# and runs there 3 ms later, then exits.  Idle while waiting: cpu 0 runs a
# task with another waiting for 2 + 3 + 1 ms while cpus 1-7 idle.
craft waits <<EOF
$(known_at 1.0)
0 1.100 sched_switch prev_pid=0 next_comm=A next_pid=100
0 1.200 sched_wakeup comm=B pid=200 prio=120 target_cpu=0
0 1.202 sched_switch prev_comm=A prev_pid=100 prev_state=0 next_comm=B next_pid=200
0 1.205 sched_switch prev_comm=B prev_pid=200 prev_state=1 next_comm=A next_pid=100
0 1.300 sched_wakeup comm=C pid=300 prio=120 target_cpu=0
0 1.301 sched_migrate_task comm=C pid=300 prio=120 orig_cpu=0 dest_cpu=2
2 1.304 sched_switch prev_pid=0 next_comm=C next_pid=300
2 1.310 sched_switch prev_comm=C prev_pid=300 prev_state=0x20 next_pid=0
0 1.500 sched_switch prev_comm=A prev_pid=100 prev_state=1 next_pid=0
1 1.600 sched_switch prev_pid=0 next_pid=0
EOF
an waits
ok "waits: analyzed" exited waits 0
is "$(sv waits latency.wakeup.count)" 2 "waits: two wakeups ran (B and C)"
is "$(sv waits latency.wakeup.max_us)" 4000.0 "waits: the longest wakeup latency is C's 4 ms"
is "$(sv waits latency.rq_wait.count)" 3 "waits: three runqueue waits (B after its wakeup, A after its preemption, C)"
is "$(sv waits latency.rq_wait.total_s)" 0.009000 "waits: 2 + 3 + 4 ms waited"
cmp_num "$(sv waits latency.rq_wait.p50_us)" -ge 3000 "waits: the median wait is A's 3 ms, or its bin's upper bound"
cmp_num "$(sv waits latency.rq_wait.p50_us)" -le 3270 "waits: within 9% of it"
cmp_num "$(sv waits latency.rq_wait.p90_us)" -ge 4000 "waits: the p90 wait is C's 4 ms, or its bin's upper bound"
cmp_num "$(sv waits latency.rq_wait.p90_us)" -le 4360 "waits: within 9% of it"
for k in latency.rq_wait.p50_us latency.rq_wait.p90_us latency.rq_wait.p99_us latency.wakeup.max_us latency.wakeup.count; do
	j=$(jq -r ".$k" "$TEST_TMP/waits/out/summary.json") t=$(sv waits "$k")
	ok "waits: summary.json's $k ($j) is summary.tsv's ($t)" \
		awk -v j="$j" -v t="$t" 'BEGIN { exit !(j != "" && j != "null" && t != "" && j + 0 == t + 0) }'
done
is "$(sv waits waiting.idle_while_waiting.system_s)" 0.006000 "waits: idle while waiting 6 ms in the system"
is "$(sv waits waiting.idle_while_waiting.by_level.SMT.s)" 0.006000 "waits: ... in cpu 0's SMT domain (cpu 1 idle)"
is "$(sv waits waiting.idle_while_waiting.by_package.0.s)" 0.006000 "waits: ... in package 0"
is "$(sv waits waiting.idle_while_waiting.by_package.1.s)" 0.000000 "waits: never in package 1, where no task waited"
is "$(sv waits latency.by_package.0.wakeup.count)" 2 "waits: both wakeups ended in package 0"
is "$(awk -F'\t' '$1 == 300 { print $3, $8, $9 }' "$TEST_TMP/waits/out/latency_by_task.tsv")" "1 1 0.004000" \
	"waits: C's row: one wakeup, one wait of 4 ms (written when it exited)"
is "$(awk -F'\t' '$1 == 100 { print $3, $8, $9 }' "$TEST_TMP/waits/out/latency_by_task.tsv")" "0 1 0.003000" \
	"waits: A's row: no wakeup, one wait of 3 ms (a preemption)"
is "$(awk -F'\t' '$1 == 300 { print $4, $6 }' "$TEST_TMP/waits/out/migrations_by_task.tsv")" "1 1" \
	"waits: C's migration is in migrations_by_task.tsv"
ok "waits: runnable.tsv has a column per cpu" grep -q $'^# time_s\tcpu0\tcpu1' "$TEST_TMP/waits/out/runnable.tsv"
# C counts on cpu 2 from its move at 1.301 (3 ms waiting, 6 ms running),
# not from when it woke on cpu 0
is "$(awk -F'\t' '!/^#/ { s += $4 } END { printf "%.4f", s * 0.010 }' "$TEST_TMP/waits/out/runnable.tsv")" 0.0090 \
	"waits: cpu 2 holds C for the 9 ms after its move, not from its wakeup on cpu 0"
ok "waits: cpu 0 held two runnable tasks for part of a bucket" awk -F'\t' '!/^#/ && $2 > 1.1 { f = 1 } END { exit !f }' \
	"$TEST_TMP/waits/out/runnable.tsv"
is "$(awk -F'\t' '!/^#/ { s += $NF } END { printf "%.4f", s * 0.010 }' "$TEST_TMP/waits/out/idle_waiting.tsv")" 0.0060 \
	"waits: idle_waiting.tsv adds up to the 6 ms"
is "$(awk -F'\t' '!/^#/ { s += $3 } END { print s }' "$TEST_TMP/waits/out/latency_hist.tsv")" 2 \
	"waits: latency_hist.tsv counts the two wakeups"
ok "waits: gnuplot reads idle_waiting.tsv" bash -c "gnuplot -e \"set terminal dumb; stats '$TEST_TMP/waits/out/idle_waiting.tsv' using 2 nooutput\" 2>/dev/null"

# Three busy loops pinned to cpu 0 (recorded in the guest, vanilla kernel):
# at any time one runs and two wait, while the other 7 cpus idle.
out=$TEST_TMP/pinned3
"$PS" analyze "$DATA/pinned3-vanilla/trace.dat" --out "$out" >"$TEST_TMP/pinned3.txt" 2>&1
is "$?" 0 "pinned3: analyze succeeds"
get() { awk -F'\t' -v k="$2" '$1 == k { print $2 }' "$1/summary.tsv"; }
d=$(get "$out" duration_s)
cmp_num "$(get "$out" util.cpu0)" -ge 0.95 "pinned3: cpu 0 busy throughout"
cmp_num "$(get "$out" waiting.idle_while_waiting.system)" -ge 0.85 "pinned3: idle while waiting most of the window"
cmp_num "$(get "$out" waiting.idle_while_waiting.by_package.1.share)" -le 0.05 "pinned3: never in package 1"
cmp_num "$(get "$out" waiting.runnable.cpu0)" -ge 2.7 "pinned3: about three runnable tasks on cpu 0"
ok "pinned3: the loops waited about two thirds of their time ($(get "$out" latency.rq_wait.total_s) s of ${d} s x 3)" \
	awk -v w="$(get "$out" latency.rq_wait.total_s)" -v d="$d" 'BEGIN { r = w / (3 * d); exit !(r > 0.55 && r < 0.72) }'

# The same from the other side: two loops pinned to different packages wait
# for nothing.
out=$TEST_TMP/pinned
"$PS" analyze "$DATA/pinned-vanilla/trace.dat" --out "$out" >/dev/null 2>&1
cmp_num "$(get "$out" waiting.idle_while_waiting.system)" -le 0.05 "pinned: two loops on two packages: hardly any idle while waiting"
