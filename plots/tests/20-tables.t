#!/bin/bash
# The report's tables without guests: plots/workloads-table takes the median
# of a cell's runs (with 3 runs the mean differs), and plots/report-page
# escapes what it prints from the tables, in Markdown and in HTML.
source "$(dirname "$0")/../../tests/lib.sh"

runs=$TEST_TMP/runs
mkrun() {	# mkrun CELL WATTS
	mkdir -p "$runs/$1/analysis"
	printf '# key\tvalue\npower.watts\t%s\nthroughput\t%s\n' "$2" "$2" >"$runs/$1/analysis/summary.tsv"
}
mkrun spin-2-performance 1
mkrun spin-2-performance-2 10
mkrun spin-2-performance-3 2
mkrun spin-2-powersaving 5
"$ROOT/plots/workloads-table" "$runs" spin-2-performance spin-2-performance-2 spin-2-performance-3 spin-2-powersaving \
	>"$TEST_TMP/workloads.tsv"
is "$?" 0 "workloads-table runs on three runs and one"
col() { awk -F'\t' -v c="$1" -v k="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == k) n = i; next }
	$2 == c { print $n }' "$TEST_TMP/workloads.tsv"; }
is "$(col performance power.watts) $(col performance power.watts_lo) $(col performance power.watts_hi)" "2 1 10" \
	"workloads-table: the median of 1, 10 and 2 W is 2 (the mean would be 4.33), smallest 1, largest 10"
is "$(col performance runs)" 3 "workloads-table: three runs of performance"
is "$(col powersaving power.watts)" 5 "workloads-table: one run is its own median"
mkrun spin-2-broken 1
rm "$runs/spin-2-broken/analysis/summary.tsv"
"$ROOT/plots/workloads-table" "$runs" spin-2-broken >"$TEST_TMP/broken.out" 2>"$TEST_TMP/broken.err"
is "$?" 1 "workloads-table: a cell without summary.tsv is an error"
ok "workloads-table: the error names the cell" grep -q 'spin-2-broken has no analysis/summary.tsv' "$TEST_TMP/broken.err"

# the page: a check and a topology with Markdown's and HTML's specials
rep=$TEST_TMP/rep
mkdir -p "$rep"
cp "$TEST_TMP/workloads.tsv" "$rep/"
printf '# check\tfigures\tverdict\na|b*c_d <x> [y] `z`\t1 \\ 2\tmet\n' >"$rep/checks.tsv"
printf '# run\n' >"$rep/compare.tsv"
printf '# cell\twhat\n' >"$rep/incomplete.tsv"
PAGE_TOPOLOGY='2x2x2 \t<b>' PAGE_CPUS=8 "$ROOT/plots/report-page" md "$rep" >"$TEST_TMP/page.md"
is "$?" 0 "report-page md"
ok "report.md: | * _ < > [ ] \` escaped in a check" \
	grep -qF 'a\|b\*c\_d \<x\> \[y\] \`z\`' "$TEST_TMP/page.md"
ok "report.md: a backslash escaped" grep -qF '1 \\ 2' "$TEST_TMP/page.md"
# (in a code span, where Markdown takes every character as it is)
ok "report.md: a backslash in the environment's topology arrives as it is" grep -qF '`2x2x2 \t<b>`' "$TEST_TMP/page.md"
PAGE_TOPOLOGY='2x2x2 \t<b>' PAGE_CPUS=8 "$ROOT/plots/report-page" html "$rep" >"$TEST_TMP/page.html"
is "$?" 0 "report-page html"
ok "index.html: < > escaped in a check" grep -qF 'a|b*c_d &lt;x&gt; [y] `z`' "$TEST_TMP/page.html"
ok "index.html: the topology escaped, its backslash kept" grep -qF '2x2x2 \t&lt;b&gt;' "$TEST_TMP/page.html"
"$ROOT/plots/report-page" md "$TEST_TMP/nowhere" >/dev/null 2>"$TEST_TMP/nowhere.err"
is "$?" 1 "report-page: a folder without the tables is an error"
ok "report-page: the error names the file" grep -q 'nowhere/workloads.tsv: cannot read it' "$TEST_TMP/nowhere.err"
