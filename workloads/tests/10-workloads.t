#!/bin/bash
# The workloads: their result lines and result.tsv on the host, their
# option checking, and in the guest the phase markers in the trace.
source "$(dirname "$0")/../../tests/lib.sh"
BIN=$BUILD/guest/bin
get() { awk -F'\t' -v k="$2" '$1 == k { print $2 }' "$1/result.tsv"; }

cd "$TEST_TMP" || exit 1
mkdir spin wave periodic
(cd spin && "$BIN/spin" 2 -t 1 >out.txt)
is "$?" 0 "spin 2 -t 1 runs"
ok "spin prints its result line" grep -q '^spin: 2 tasks, .* total [0-9]* it/s$' spin/out.txt
is "$(get spin tasks)" 2 "spin: result.tsv has the number of tasks"
cmp_num "$(get spin throughput)" -gt 0 "spin: result.tsv has the total rate"
ok "spin: per-task rates add up to the total (to rounding)" \
	awk -F'\t' '$1 ~ /^task_/ { s += $2 } $1 == "throughput" { t = $2 } END { d = s - t; exit !(d * d <= 4) }' spin/result.tsv
(cd wave && "$BIN/wave" -j 3 -n 30 >out.txt)
is "$?" 0 "wave -j 3 -n 30 runs"
ok "wave prints its result line" grep -q '^wave: -j 3, 30 jobs, [0-9.]* s' wave/out.txt
cmp_num "$(get wave runtime_s)" -gt 0 "wave: result.tsv has the runtime"
(cd periodic && "$BIN/periodic" 2 -r 5 -p 50 -t 2 >out.txt)
is "$?" 0 "periodic 2 -r 5 -p 50 -t 2 runs"
cmp_num "$(get periodic periods)" -ge 40 "periodic: about 2 x 40 periods completed"
cmp_num "$(get periodic duty_cycle)" -ge 0.09 "periodic: duty cycle at least what was asked (0.1)"
ok "periodic reports lateness" grep -q 'lateness mean [0-9.]* ms, p99 [0-9.]* ms, max' periodic/out.txt
# -s: 4 tasks of 20 ms every 100 ms on one cpu.  Started together they
# wake together and wait for the cpu (time slices let each start within a
# few ms: 6-7 ms of mean lateness seen); staggered 25 ms apart they find it
# free (0.4-0.5 ms)
late_mean() { sed -n 's/.*lateness mean \([0-9.]*\) ms.*/\1/p' "$1"; }
mkdir -p together staggered
(cd together && taskset 0x1 "$BIN/periodic" 4 -r 20 -p 100 -t 2 >out.txt)
(cd staggered && taskset 0x1 "$BIN/periodic" 4 -r 20 -p 100 -t 2 -s >out.txt)
is "$?" 0 "periodic -s runs"
lt=$(late_mean together/out.txt) ls=$(late_mean staggered/out.txt)
diag "lateness mean on one cpu: $lt ms together, $ls ms staggered"
ok "periodic -s: staggered tasks wait less than a third as long as tasks started together" \
	awk -v t="$lt" -v s="$ls" 'BEGIN { exit !(t != "" && s != "" && t >= 2 && s * 3 < t) }'

# bad options: exit 2 with a message naming the option
badopt() {
	local desc=$1 pattern=$2; shift 2
	"$@" >/dev/null 2>"$TEST_TMP/err"
	local rc=$?
	if [ $rc = 2 ] && grep -q -- "$pattern" "$TEST_TMP/err"; then pass "$desc"; else fail "$desc"; diag "rc=$rc $(cat "$TEST_TMP/err")"; fi
}
badopt "spin refuses 0 tasks" "N '0'" "$BIN/spin" 0
badopt "spin refuses a bad -t" "-t 'x'" "$BIN/spin" 2 -t x
badopt "wave needs -j" "usage: wave -j N" "$BIN/wave"
badopt "periodic refuses RUN_MS >= PERIOD_MS" "-r 20 must be less than -p 10" "$BIN/periodic" 1 -r 20 -p 10

# In the guest: the workloads are there and mark their phases in the trace.
d=$TEST_TMP/guest
guest "$d" --kernel vanilla --topology 1x2x2 --timeout 300 -- \
	powersched record -o . -- spin 2 -t 2 ||
	fail "guest: spin under powersched record"
is "$(get "$d" tasks)" 2 "guest: spin wrote result.tsv into the results folder"
trace-cmd report -q "$d/trace.dat" >"$d/report" 2>/dev/null
ok "guest: the trace has spin's begin marker" grep -q 'powersched-phase: spin begin tasks=2 seconds=2' "$d/report"
ok "guest: the trace has spin's end marker" grep -q 'powersched-phase: spin end' "$d/report"
