#!/bin/bash
# A short experiment matrix, end to end (workloads/matrix, powersched
# analyze --phase, plots/report): every cell analyzed, every figure made, and
# the report's checks present with their figures and verdicts; those that
# hold whatever the run-to-run variation must be met (see below).
source "$(dirname "$0")/../../tests/lib.sh"

runs=$TEST_TMP/runs rep=$TEST_TMP/report
RUNS="spin-1-powersaving spin-1-performance spin-2 spin-4-powersaving spin-4-performance spin-8-powersaving spin-8-performance wave-8-powersaving wave-8-nolazy wave-8-lazyv7" \
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
for f in report.md index.html compare.tsv workloads.tsv checks.tsv watts.tsv migrations.tsv incomplete.tsv \
	 package-util-spin-2.png package-util-spin-4.png thrash-wave-8.png tradeoff.png migrations.png watts.png; do
	ok "report: $f written" test -s "$rep/$f"
done
ok "report: no temporary file left behind" bash -c "! ls '$rep'/*.tmp 2>/dev/null | grep -q ."
# the table per workload: a row per variant, the medians of its runs
wt() { awk -F'\t' -v w="$1" -v c="$2" -v col="$3" '$1 == w && $2 == c { print $col }' "$rep/workloads.tsv"; }
is "$(wt spin-2 performance 3)" 2 "workloads.tsv: spin-2 performance over its 2 runs"
is "$(wt wave-8 lazyv7 3)" 1 "workloads.tsv: wave-8 lazyv7, one run"
is "$(awk -F'\t' '$1 == "spin-2" { printf "%s ", $2 }' "$rep/workloads.tsv")" "powersaving performance vanilla " \
	"workloads.tsv: spin-2's variants in the report's order"
w1=$(awk -F'\t' -v c="$runs/spin-2-performance/analysis/summary.tsv" -v d="$runs/spin-2-performance-2/analysis/summary.tsv" \
	'$1 == "power.watts" { v[FILENAME] = $2 } END { printf "%.6g %.6g %.6g", (v[c] + v[d]) / 2, (v[c] < v[d] ? v[c] : v[d]), (v[c] < v[d] ? v[d] : v[c]) }' \
	"$runs/spin-2-performance/analysis/summary.tsv" "$runs/spin-2-performance-2/analysis/summary.tsv")
is "$(wt spin-2 performance 4) $(wt spin-2 performance 5) $(wt spin-2 performance 6)" "$w1" \
	"workloads.tsv: spin-2 performance watts are the median, smallest and largest of its runs"
# the page reads top down: what was run, figures, tables per workload,
# checks, then every run folded away
order=$(grep -o '<h2 id="[a-z]*"\|<details' "$rep/index.html" | sed 's/<h2 id="//; s/"$//' | tr '\n' '|')
is "$order" "figures|workloads|checks|<details|files|" "index.html: figures, workloads, checks, every run (folded), in that order"
ok "index.html: the thrashing figure is on the page" grep -q '<img src="thrash-wave-8.png"' "$rep/index.html"
ok "index.html: a check's <= is escaped" grep -q 'idle &gt;= 90%' "$rep/index.html"
# with the tags gone, a < or > left is one the page did not escape
ok "index.html: no unescaped < or > in its text" \
	bash -c "! sed 's/<[a-zA-Z/!][^>]*>//g' '$rep/index.html' | grep -q '[<>]'"
ok "report.md: the same tables" grep -q '^### wave-8$' "$rep/report.md"
ok "report: the SNB-EP model the analyzer chose for the two packages of server" \
	grep -q 'with the model in `analysis/power-model.conf` (calibrated on the cover letter.s SNB-EP table)' "$rep/report.md"
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
ok "matrix: every cell it ran is marked complete" bash -c "for c in '$runs'/*/; do test -f \"\$c/cell.done\" || exit 1; done"
# a cell the matrix started and did not finish is named, not left out, even
# one that holds an analysis: only cell.done, written last, makes it complete
cp -a "$runs/wave-8-nolazy" "$runs/wave-8-unfinished" && rm -f "$runs/wave-8-unfinished/cell.done" &&
	echo "qemu/run: error: kernel panic in the guest:" >"$runs/wave-8-unfinished/qemu-run.log"
"$ROOT/plots/report" "$runs" "$TEST_TMP/report2" >"$TEST_TMP/report2.log" 2>&1
is "$?" 0 "plots/report with an unfinished cell"
is "$(awk -F'\t' '!/^#/ { print $1 ": " $2 }' "$TEST_TMP/report2/incomplete.tsv")" \
	"wave-8-unfinished: qemu/run: error: kernel panic in the guest:" "incomplete.tsv: the unfinished cell and what its run said"
ok "index.html: names the unfinished cell" grep -q '<h2 id="unfinished">Cells that did not finish: 1</h2>' "$TEST_TMP/report2/index.html"
# REUSE=1 runs again exactly the cells that are not complete
# (and a complete cell that ran with other parameters than asked now)
rm -f "$runs/spin-1-powersaving/cell.done"
sed -i 's/^command\tspin 1 -t 10$/command\tspin 1 -t 9/' "$runs/spin-1-performance/cell.env"
RUNS="spin-1-powersaving spin-1-performance" SPIN_SECONDS=10 REPEATS=2 REUSE=1 OUT=$runs \
	"$ROOT/workloads/matrix" >"$TEST_TMP/reuse.log" 2>&1
is "$?" 0 "matrix with REUSE=1 after an interrupted cell"
diag "$(grep -E 'kept|other parameters|spin-1-[a-z0-9-]*: spin' "$TEST_TMP/reuse.log")"
is "$(grep -c ': kept (REUSE=1)$' "$TEST_TMP/reuse.log")" 1 "REUSE=1: the one complete cell run as asked is kept"
ok "REUSE=1: a complete cell with other parameters (cell.env) runs again" \
	bash -c "grep -q 'spin-1-performance: complete but with other parameters' '$TEST_TMP/reuse.log' &&
		grep -q '^command	spin 1 -t 10$' '$runs/spin-1-performance/cell.env'"
ok "REUSE=1: the incomplete cell runs again and is complete" \
	bash -c "grep -q 'spin-1-powersaving: spin 1' '$TEST_TMP/reuse.log' && test -f '$runs/spin-1-powersaving/cell.done'"
cmp_num "$n" -ge 12 "the report made the checks the short matrix allows"
