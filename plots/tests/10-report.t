#!/bin/bash
# A short experiment matrix, end to end (workloads/matrix, powersched
# analyze --phase, plots/report): every cell analyzed, every figure made, and
# the report's checks present with their figures and verdicts; those that
# hold whatever the run-to-run variation must be met (see below).
source "$(dirname "$0")/../../tests/lib.sh"

runs=$TEST_TMP/runs rep=$TEST_TMP/report
RUNS="spin-1-powersaving spin-1-performance spin-2 spin-4-powersaving spin-4-performance spin-8-powersaving spin-8-performance wave-8-powersaving wave-8-nolazy" \
	SPIN_SECONDS=10 WAVE_JOBS=400 REPEATS=2 OUT=$runs "$ROOT/workloads/matrix" >"$TEST_TMP/matrix.log" 2>&1
rc=$?
is "$rc" 0 "the short matrix runs every cell"
if [ $rc != 0 ]; then
	diag "$(tail -n 20 "$TEST_TMP/matrix.log")"
	# a cell that failed: what its guest and its analysis said, before the
	# test's folder goes
	for c in "$runs"/*/; do
		[ -s "$c/analysis/summary.tsv" ] && continue
		for f in qemu-run.log console.log analyze.log workload.out; do
			[ -f "$c/$f" ] && diag "$(basename "$c")/$f: $(tail -n 15 "$c/$f")"
		done
	done
fi
"$ROOT/plots/report" "$runs" "$rep" >"$TEST_TMP/report.log" 2>&1
is "$?" 0 "plots/report writes the report"
for f in report.md index.html compare.tsv checks.tsv watts.tsv migrations.tsv \
	 package-util-spin-2.png package-util-spin-4.png modes-wave-8.png migrations.png watts.png; do
	ok "report: $f written" test -s "$rep/$f"
done
ok "report: names the power model the analyzer chose" \
	grep -q 'with the model in$' "$rep/report.md"
ok "report: the SNB-EP model for the two packages of server" \
	grep -q '^`analysis/power-model.conf` (calibrated on the cover letter.s SNB-EP table)' "$rep/report.md"
for c in "$runs"/*/; do
	ok "$(basename "$c"): summary.json is valid JSON with a power estimate" \
		bash -c "jq -e '.power.watts > 100 and .lost_events.complete' '$c/analysis/summary.json' >/dev/null"
	ok "$(basename "$c"): its timeline for Perfetto is JSON, linked from the report" \
		bash -c "jq -e '.traceEvents | length > 0' '$c/analysis/timeline.json' >/dev/null &&
			grep -q 'runs/$(basename "$c")/analysis/timeline.json' '$rep/report.md'"
done
# The report makes every check it can on these cells and gives its figures
# and verdict.  Those that hold whatever the run-to-run variation must be
# met: powersaving packing spin 2 and 4 into one package, and the policies
# costing the same with 1 and 8 loops.  The others depend on where mainline
# 6.12 happens to put tasks (it lets two tasks share a NUMA node while the
# other idles) or on timing under TCG; they are reported, met or not, and
# listed here as diagnostics.
must_meet='^spin [24]: powersaving keeps one package idle|^spin [18]: the policies within 3% in estimated watts'
n=0
while IFS=$'\t' read -r what figures verdict; do
	case $what in '#'*) continue ;; esac
	n=$((n + 1))
	if [ -z "$figures" ] || { [ "$verdict" != met ] && [ "$verdict" != "NOT MET" ]; }; then
		fail "report check without figures or verdict: $what"
	elif grep -qE "$must_meet" <<<"$what"; then
		if [ "$verdict" = met ]; then pass "report check: $what ($figures)"; else fail "report check: $what ($figures)"; fi
	else
		diag "report check ($verdict): $what: $figures"
	fi
done <"$rep/checks.tsv"
cmp_num "$n" -ge 12 "the report made the checks the short matrix allows"
