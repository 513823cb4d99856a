#!/bin/bash
# workloads/matrix with JOBS=2 on this machine: two guests at once, each
# pinned to host cpus of its own, run.json's harness saying what ran beside
# what; an interrupt leaves no complete-looking cell, and REUSE=1 then runs
# exactly the cells that did not finish.  (Five short guest boots.)
source "$(dirname "$0")/../../tests/lib.sh"

runs=$TEST_TMP/runs
cells="spin-1-powersaving spin-1-performance"
mx() { RUNS=$cells REPEATS=1 SPIN_SECONDS=3 OUT=$runs "$ROOT/workloads/matrix" "$@"; }

# shapes and refusals first: they boot nothing
JOBS=0 mx >"$TEST_TMP/j0.log" 2>&1
is "$?" 2 "JOBS=0 is refused"
ok "JOBS=0: the error names JOBS" grep -q "JOBS='0'" "$TEST_TMP/j0.log"
JOBS=two mx >"$TEST_TMP/jx.log" 2>&1
is "$?" 2 "JOBS=two is refused"
TOPOLOGY=9x9 mx >"$TEST_TMP/topo.log" 2>&1
is "$?" 2 "an unknown TOPOLOGY is refused before any cell runs"
ok "no cell folder after a refusal" bash -c "! ls '$runs'/spin-* >/dev/null 2>&1"
is "$("$ROOT/qemu/run" --shape --topology 4x4x2 --memory 2048)" "cpus 32 memory 2048" "qemu/run --shape: a 4x4x2 guest"

# Interrupted while both guests run: exit 130, no cell.done, no guest left.
# (SIGTERM: a job a script starts in the background ignores SIGINT, which
# the matrix then cannot trap; Ctrl-C at a terminal sends SIGINT, handled
# by the same trap.)
# (the matrix itself in the background, not a function's subshell)
JOBS=2 RUNS=$cells REPEATS=1 SPIN_SECONDS=3 OUT=$runs "$ROOT/workloads/matrix" >"$TEST_TMP/int.log" 2>&1 &
mpid=$!
for ((i = 0; i < 120; i++)); do
	n=0
	for c in $cells; do [ -s "$runs/$c/console.log" ] && n=$((n + 1)); done
	[ $n = 2 ] && break
	sleep 0.5
done
is "$n" 2 "JOBS=2: both guests boot at once"
kill -TERM $mpid
wait $mpid
is "$?" 130 "an interrupted matrix exits 130"
ok "it says what it stopped" grep -q 'interrupted: stopping 2 running cell' "$TEST_TMP/int.log"
ok "no interrupted cell is marked complete" bash -c "! ls '$runs'/*/cell.done 2>/dev/null | grep -q ."
sleep 1
ok "no guest of the interrupted matrix is left running" bash -c "! pgrep -f '[q]emu-system.*$runs' >/dev/null"

# REUSE=1 runs both again, two at once
JOBS=2 REUSE=1 mx >"$TEST_TMP/jobs.log" 2>&1
rc=$?
is "$rc" 0 "JOBS=2 REUSE=1 after the interrupt: both cells run"
[ $rc = 0 ] || diag "$(tail -n 20 "$TEST_TMP/jobs.log")"
ok "the header says 2 to run with JOBS=2" grep -q '2 cell(s) on the server topology.*: 2 to run (local, JOBS=2' "$TEST_TMP/jobs.log"
ok "the progress line names the cell still running" grep -q 'done (1 of 2 in [0-9]* s, running: spin-1-' "$TEST_TMP/jobs.log"
for c in $cells; do
	ok "$c: complete" test -f "$runs/$c/cell.done"
	ok "$c: analyzed" test -s "$runs/$c/analysis/summary.json"
	is "$(jq -r '.harness.jobs' "$runs/$c/run.json")" 2 "$c: run.json harness.jobs"
	is "$(jq -r '.harness.host_cpus == .host_cpus' "$runs/$c/run.json")" true "$c: the harness's host cpus are the ones QEMU ran on"
done
a=$(jq -r '.host_cpus' "$runs/spin-1-powersaving/run.json")
b=$(jq -r '.host_cpus' "$runs/spin-1-performance/run.json")
if [ "$(nproc)" -ge 2 ]; then
	ok "each guest pinned to host cpus of its own ($a and $b)" bash -c "[ -n '$a' ] && [ -n '$b' ] && [ '$a' != '$b' ] &&
		! comm -12 <(printf '%s\n' \$(echo '$a' | tr , ' ') | sort) <(printf '%s\n' \$(echo '$b' | tr , ' ') | sort) | grep -q ."
fi
is "$(jq -c '.harness.beside' "$runs/spin-1-powersaving/run.json")" '["spin-1-performance"]' "spin-1-powersaving: ran beside spin-1-performance"
is "$(jq -c '.harness.beside' "$runs/spin-1-performance/run.json")" '["spin-1-powersaving"]' "spin-1-performance: ran beside spin-1-powersaving"
ok "run.json stays valid JSON" bash -c "jq -e 'type == \"object\"' '$runs/spin-1-performance/run.json' >/dev/null"
ok "cell.env records the kernel build" grep -qP '^kernel_build\t[0-9a-f]{16}$' "$runs/spin-1-performance/cell.env"

# the report compares no throughput of cells that shared the host
"$ROOT/plots/report" "$runs" "$TEST_TMP/report" >"$TEST_TMP/report.log" 2>&1
is "$?" 0 "plots/report on the JOBS=2 cells"
ck() { awk -F'\t' -v w="$1" '$1 == w { print $3 }' "$TEST_TMP/report/checks.tsv"; }
is "$(ck 'spin 1: the policies within 3% in throughput')" "not comparable" \
	"report: the throughput check of cells that ran beside each other is not compared"
ok "report: the check says why" grep -q 'not compared: a run had less of its host than alone' "$TEST_TMP/report/checks.tsv"
ok "report: the watts check is still made (met or not)" \
	bash -c "[ \"\$(awk -F'\t' '\$1 == \"spin 1: the policies within 3% in estimated watts\" { print \$3 }' '$TEST_TMP/report/checks.tsv')\" != 'not comparable' ] &&
		grep -q 'spin 1: the policies within 3% in estimated watts' '$TEST_TMP/report/checks.tsv'"
ok "report.md counts it" grep -q '1 not comparable' "$TEST_TMP/report/report.md"

# nothing left to run: both kept, no guest booted
JOBS=2 REUSE=1 mx >"$TEST_TMP/kept.log" 2>&1
is "$?" 0 "REUSE=1 with every cell complete"
is "$(grep -c ': kept (REUSE=1)' "$TEST_TMP/kept.log")" 2 "REUSE=1: both cells kept"
ok "REUSE=1: 0 to run" grep -q ': 0 to run' "$TEST_TMP/kept.log"

# a rebuilt kernel is another kernel: the cell's recorded build differs.
# Interrupted while the first cell (spin-1-powersaving, made incomplete)
# runs, the second (complete, of another build) must not keep its old
# cell.done: it was not run as asked.
sed -i 's/^kernel_build\t.*/kernel_build\t0123456789abcdef/' "$runs/spin-1-performance/cell.env"
rm -f "$runs/spin-1-powersaving/cell.done"
JOBS=1 REUSE=1 RUNS=$cells REPEATS=1 SPIN_SECONDS=3 OUT=$runs "$ROOT/workloads/matrix" >"$TEST_TMP/stale.log" 2>&1 &
mpid=$!
# (the folder still holds the last run's console: wait for this run's guest)
for ((i = 0; i < 120; i++)); do pgrep -f "[q]emu-system.*$runs/spin-1-powersaving" >/dev/null && break; sleep 0.5; done
kill -TERM $mpid
wait $mpid
is "$?" 130 "interrupted during its first cell"
ok "the cell of another kernel build lost its old cell.done before it ran" test ! -f "$runs/spin-1-performance/cell.done"
# one matrix at a time into one OUT
# (the interrupted matrix's guests hold its lock until they are gone)
exec {lk}>"$runs/.matrix.lock"
ok "the lock is free once the interrupted matrix's guests are gone" flock -w 60 "$lk"
JOBS=1 REUSE=1 mx >"$TEST_TMP/locked.log" 2>&1
rc=$?
is "$rc" 2 "a second matrix into the same OUT is refused"
[ "$rc" = 2 ] || diag "$(head -n 5 "$TEST_TMP/locked.log")"
ok "it says why" grep -q 'another workloads/matrix runs into' "$TEST_TMP/locked.log"
exec {lk}>&-
JOBS=1 REUSE=1 mx >"$TEST_TMP/rebuilt.log" 2>&1
is "$?" 0 "REUSE=1 after the powersched kernel 'changed'"
ok "the cell of another kernel build runs again" grep -q '2 to run' "$TEST_TMP/rebuilt.log"
is "$(jq -c '.harness.beside' "$runs/spin-1-powersaving/run.json")" '[]' "JOBS=1: spin-1-powersaving ran alone"
is "$(jq -c '.harness.beside' "$runs/spin-1-performance/run.json")" '[]' "JOBS=1: spin-1-performance ran alone"
# and the report compares their throughput again
"$ROOT/plots/report" "$runs" "$TEST_TMP/report-alone" >"$TEST_TMP/report-alone.log" 2>&1
ck2() { awk -F'\t' -v w="$1" '$1 == w { print $3 }' "$TEST_TMP/report-alone/checks.tsv"; }
ok "report: cells run one at a time get their throughput compared" \
	bash -c "case '$(ck2 'spin 1: the policies within 3% in throughput')' in met|'NOT MET') exit 0 ;; *) exit 1 ;; esac"
