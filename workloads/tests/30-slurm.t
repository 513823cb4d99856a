#!/bin/bash
# BACKEND=slurm for real: a single-node Slurm on this machine (its own
# munged, slurmctld and slurmd under the test's folder) runs a two-cell
# matrix as a job array; a cell that fails is named with its task's
# output, a rerun with REUSE=1 submits only that cell, and the report is
# made from the result.  (Three short guest boots.)
source "$(dirname "$0")/../../tests/lib.sh"
source "$ROOT/workloads/tests/slurm-localhost.sh"

missing=""
for c in munged slurmctld slurmd sbatch squeue sinfo; do command -v $c >/dev/null 2>&1 || missing="$missing $c"; done
if [ -n "$missing" ] || [ "$(id -u)" != 0 ]; then
	# make deps installs slurm-wlm and munge; only a machine where they
	# cannot be installed gets here; it counts as neither passed nor failed
	diag "SKIP: no single-node Slurm test: ${missing:+missing$missing (Debian: slurm-wlm munge; make deps installs them)}$([ "$(id -u)" = 0 ] || echo "not root (its daemons run as root)")"
	exit 0
fi

trap 'slurm_stop; rm -rf "$TEST_TMP"' EXIT
if ! slurm_start "$TEST_TMP/slurm" 2>"$TEST_TMP/slurm-start.err"; then
	fail "a single-node Slurm starts"
	diag "$(cat "$TEST_TMP/slurm-start.err")"
	exit 0
fi
pass "a single-node Slurm starts (node localhost idle)"

runs=$TEST_TMP/runs rep=$TEST_TMP/report
cells="spin-1-powersaving spin-1-vanilla"
# one cpu a task, so that the 2-cpu node runs both tasks at once
args="--cpus-per-task=1 --mem=1600M"
mx() { BACKEND=slurm SLURM_ARGS=$args RUNS=$cells REPEATS=1 SPIN_SECONDS=3 OUT=$runs "$ROOT/workloads/matrix"; }

# the powersched cell fails (its kernel is missing), the vanilla one runs
POWERSCHED_KERNEL=$TEST_TMP/no-such-bzImage mx >"$TEST_TMP/first.log" 2>&1
rc=$?
ok "a matrix with a failing cell exits non-zero (status $rc)" test "$rc" = 1
ok "it submitted one array of 2 tasks" grep -q 'slurm job [0-9]*: 2 task(s)' "$TEST_TMP/first.log"
ok "it showed the array's progress" grep -q 'slurm job [0-9]*: .* of 2 finished' "$TEST_TMP/first.log"
ok "the failed cell is named with its slurm task" grep -q 'spin-1-powersaving: slurm task [0-9]*_1 did not complete the cell' "$TEST_TMP/first.log"
ok "the task's output says why (qemu/run's error on the missing kernel)" \
	grep -q "qemu/run: error: --kernel '.*no-such-bzImage': not vanilla, powersched or an existing bzImage file" "$TEST_TMP/first.log"
ok "the summary names it" grep -q '1 failed: spin-1-powersaving$' "$TEST_TMP/first.log"
ok "spin-1-vanilla: complete" test -f "$runs/spin-1-vanilla/cell.done"
ok "spin-1-powersaving: not marked complete" test ! -f "$runs/spin-1-powersaving/cell.done"
is "$(jq -r '.harness.backend' "$runs/spin-1-vanilla/run.json")" slurm "spin-1-vanilla: run.json harness.backend"
[ $rc = 1 ] || diag "$(tail -n 30 "$TEST_TMP/first.log")"

# the rerun resubmits only the failed cell
REUSE=1 mx >"$TEST_TMP/rerun.log" 2>&1
rc=$?
is "$rc" 0 "REUSE=1 BACKEND=slurm: the rerun completes the matrix"
[ $rc = 0 ] || diag "$(tail -n 30 "$TEST_TMP/rerun.log")"
ok "the rerun keeps spin-1-vanilla" grep -q 'spin-1-vanilla: kept (REUSE=1)' "$TEST_TMP/rerun.log"
ok "the rerun submits only spin-1-powersaving" grep -q 'slurm job [0-9]*: 1 task(s)' "$TEST_TMP/rerun.log"
is "$(cat "$runs/.slurm/cells.txt")" spin-1-powersaving "the array's cell list holds the one cell"
ok "spin-1-powersaving: complete" test -f "$runs/spin-1-powersaving/cell.done"
ok "spin-1-powersaving: analyzed" test -s "$runs/spin-1-powersaving/analysis/summary.json"
is "$(jq -r '.harness.host' "$runs/spin-1-powersaving/run.json")" "$(hostname)" "the task ran on the node (harness.host)"

# and the report from the cells the cluster ran
"$ROOT/plots/report" "$runs" "$rep" >"$TEST_TMP/report.log" 2>&1
rc=$?
is "$rc" 0 "plots/report on the cells the Slurm array ran"
[ $rc = 0 ] || diag "$(tail -n 20 "$TEST_TMP/report.log")"
ok "report: 2 analyzed cells" grep -q 'report: 2 analyzed cell(s)' "$TEST_TMP/report.log"
ok "report: report.md written" test -s "$rep/report.md"
ok "report: compare.tsv has both cells" bash -c "grep -q spin-1-powersaving '$rep/compare.tsv' && grep -q spin-1-vanilla '$rep/compare.tsv'"

# no Slurm commands: one clear line, nothing run
nos=$TEST_TMP/no-slurm-bin
mkdir -p "$nos"
for f in /usr/local/bin/* /usr/bin/* /usr/sbin/*; do
	case "${f##*/}" in sbatch|squeue|scancel|sinfo|srun|salloc) continue ;; esac
	[ -e "$nos/${f##*/}" ] || ln -s "$f" "$nos/${f##*/}"
done
PATH=$nos BACKEND=slurm RUNS=spin-1-vanilla REPEATS=1 OUT=$TEST_TMP/none \
	"$ROOT/workloads/matrix" >"$TEST_TMP/nosbatch.log" 2>&1
rc=$?
ok "without sbatch: exits non-zero" test "$rc" != 0
ok "without sbatch: says so" grep -q "BACKEND=slurm: 'sbatch' not found" "$TEST_TMP/nosbatch.log"
