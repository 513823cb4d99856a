#!/bin/bash
# powersched analyze on real guest traces (analysis/tests/data), built with
# ASan and UBSan; expectations follow from how each trace was recorded.
source "$(dirname "$0")/../../tests/lib.sh"
use_sanitizers
PS=$BUILD/test/powersched
DATA=$ROOT/analysis/tests/data
get() { awk -F'\t' -v k="$2" '$1 == k { print $2 }' "$1/summary.tsv"; }

# Two busy loops pinned to cpus 0 and 4 on the vanilla kernel.
out=$TEST_TMP/pinned
"$PS" analyze "$DATA/pinned-vanilla/trace.dat" --out "$out" >"$TEST_TMP/pinned.txt" 2>&1
is "$?" 0 "pinned: analyze succeeds"
cmp_num "$(get "$out" util.cpu0)" -ge 0.95 "pinned: cpu 0 at least 95% busy"
cmp_num "$(get "$out" util.cpu4)" -ge 0.95 "pinned: cpu 4 at least 95% busy"
for c in 1 2 3 5 6 7; do
	cmp_num "$(get "$out" util.cpu$c)" -le 0.05 "pinned: cpu $c nearly idle"
done
# (the loops start after kick-cpus, some 40 ms into the recording)
cmp_num "$(get "$out" idle.package_max)" -le 0.03 "pinned: neither package is idle but before the loops start"
ok "pinned: the mode timeline is skipped and said so" grep -q 'skipped: the trace has no powersched events' "$TEST_TMP/pinned.txt"
is "$(jq -r '.modes.available' "$out/summary.json")" false "pinned: summary.json says the modes are not available"
is "$(jq -r '.lost_events.complete' "$out/summary.json")" true "pinned: nothing lost"
is "$(jq -r '.run.kernel' "$out/summary.json")" vanilla "pinned: summary.json carries run.json"
is "$(jq '.utilization.cpu | length' "$out/summary.json")" 8 "pinned: utilization of 8 cpus"
# timelines: '#' headers, then rows with as many columns as the header names
for f in util_cpu util_core util_package util_group migrations; do
	ok "pinned: $f.tsv has a '#' header and rows of its width" awk -F'\t' '
		/^# time_s/ { n = NF; next } /^#/ { next }
		{ rows++; if (NF != n) bad++ } END { exit !(n > 1 && rows > 100 && !bad) }' "$out/$f.tsv"
done
# per-bucket shares are shares
ok "pinned: every bucket share lies in [0, 1]" awk -F'\t' '!/^#/ { for (i = 2; i <= NF; i++) if ($i < 0 || $i > 1.0001) exit 1 }' \
	"$out/util_cpu.tsv" "$out/util_core.tsv" "$out/util_package.tsv" "$out/util_group.tsv"
# the core and package timelines agree with the cpu one: cpu 0 busy => core 0 and package 0 busy
ok "pinned: core 0 and package 0 busy in every bucket where cpu 0 is" bash -c "paste '$out/util_cpu.tsv' '$out/util_core.tsv' '$out/util_package.tsv' |
	awk -F'\t' '!/^#/ { if (\$2 > 0.99 && (\$11 < 0.99 || \$16 < 0.99)) exit 1 }'"
ok "pinned: gnuplot reads util_cpu.tsv" bash -c "gnuplot -e \"set terminal dumb; stats '$out/util_cpu.tsv' using 2 nooutput; if (STATS_records < 100) exit status 1\" 2>/dev/null"

# Two unpinned loops under powersaving: one package stays idle.
out=$TEST_TMP/pack2
"$PS" analyze "$DATA/pack2-powersaving/trace.dat" --out "$out" >"$TEST_TMP/pack2.txt" 2>&1
is "$?" 0 "pack2: analyze succeeds"
cmp_num "$(get "$out" idle.package_max)" -ge 0.90 "pack2: one package idle at least 90% of the time"
cmp_num "$(get "$out" util.busy_cpus)" -ge 1.9 "pack2: two cpus' worth of work"
is "$(get "$out" modes.available)" 1 "pack2: the powersched events are analyzed"
cmp_num "$(jq '.modes.passes.performance + .modes.passes.power + .modes.passes.none' "$out/summary.json")" -gt 1000 "pack2: balance passes counted"
cmp_num "$(jq '.pack_decisions.total' "$out/summary.json")" -gt 0 "pack2: pack decisions counted"
is "$(jq '[.pack_decisions.leader, .pack_decisions.idlest, .pack_decisions.local, .pack_decisions.burst, .pack_decisions.domain_full, .pack_decisions.no_room] | add' "$out/summary.json")" \
	"$(jq '.pack_decisions.total' "$out/summary.json")" "pack2: pack decisions by reason add up"
is "$(jq '.migrations.smt + .migrations.core + .migrations.package' "$out/summary.json")" "$(jq '.migrations.total' "$out/summary.json")" \
	"pack2: migrations by level add up"
is "$(awk -F'\t' '!/^#/ { s += $6 } END { print s }' "$out/migrations_by_task.tsv")" "$(get "$out" migrations.total)" \
	"pack2: migrations by task add up to the total"
ok "pack2: modes.tsv has a mode column per domain" grep -q $'^# time_s\tmode_SMT' "$out/modes.tsv"
ok "pack2: estimated watts below the performance-like pinned run" \
	awk -v a="$(get "$out" power.watts)" -v b="$(get "$TEST_TMP/pinned" power.watts)" 'BEGIN { exit !(a < b) }'

# --bucket changes the resolution, not the totals
"$PS" analyze "$DATA/pack2-powersaving/trace.dat" --out "$TEST_TMP/pack2-b100" --bucket 100 >/dev/null 2>&1
is "$(get "$TEST_TMP/pack2-b100" util.busy_cpus)" "$(get "$out" util.busy_cpus)" "--bucket 100: same totals"
r10=$(grep -vc '^#' "$out/util_cpu.tsv"); r100=$(grep -vc '^#' "$TEST_TMP/pack2-b100/util_cpu.tsv")
cmp_num "$((r10 / r100))" -ge 9 "--bucket 100: a tenth of the rows ($r10 vs $r100)"

# Events lost in the ring buffer are counted and reported loudly.
out=$TEST_TMP/lossy
"$PS" analyze "$DATA/lossy-powersaving/trace.dat" --out "$out" >"$TEST_TMP/lossy.txt" 2>&1
is "$?" 0 "lossy: analyze succeeds"
is "$(jq -r '.lost_events.complete' "$out/summary.json")" false "lossy: summary.json says events were lost"
cmp_num "$(jq '.lost_events.missed_events' "$out/summary.json")" -gt 0 "lossy: lost events counted"
ok "lossy: the summary says so loudly" grep -q 'WARNING: EVENTS WERE LOST' "$TEST_TMP/lossy.txt"

# compare: the analyzed runs in one table
for r in pinned pack2; do
	mkdir -p "$TEST_TMP/runs/$r"
	cp "$DATA/"*"/run.json" "$TEST_TMP/runs/$r/" 2>/dev/null
	cp -r "$TEST_TMP/$r" "$TEST_TMP/runs/$r/analysis"
done
cp "$DATA/pinned-vanilla/run.json" "$TEST_TMP/runs/pinned/"
cp "$DATA/pack2-powersaving/run.json" "$TEST_TMP/runs/pack2/"
printf 'runtime_s\t4.0\n' >"$TEST_TMP/runs/pack2/result.tsv"
"$PS" compare "$TEST_TMP/runs/pinned" "$TEST_TMP/runs/pack2" --out "$TEST_TMP/cmp.tsv" >"$TEST_TMP/cmp.txt" 2>&1
is "$?" 0 "compare: succeeds"
is "$(grep -vc '^#' "$TEST_TMP/cmp.tsv")" 2 "compare: one row per run"
is "$(awk -F'\t' '!/^#/ { print $2 "/" $3 }' "$TEST_TMP/cmp.tsv" | tr '\n' ' ')" "vanilla/default powersched/powersaving " "compare: kernel and policy from run.json"
ok "compare: performance per watt from the runtime, as in the cover letter" \
	awk -F'\t' -v w="$(get "$TEST_TMP/pack2" power.watts)" '!/^#/ && $3 == "powersaving" { exit !($10 > 0 && ($10 - 1e6 / (4 * w)) ^ 2 < 1) }' "$TEST_TMP/cmp.tsv"
# each column that copies a summary key holds that run's value of it: the
# cost of packing (waiting, latencies) and the thrash rates beside the watts
cols="5:waiting.idle_while_waiting.system 6:latency.wakeup.p99_us 7:latency.rq_wait.p99_us
11:migrations.total 12:migrations.smt 13:migrations.core 14:migrations.package
15:idle.package_max 16:modes.switches_per_s 17:modes.flips_per_s 18:migrations.pingpong.per_s"
row=0
for r in pinned pack2; do
	row=$((row + 1))
	for ck in $cols; do
		c=${ck%%:*} k=${ck#*:}
		want=$(get "$TEST_TMP/$r" "$k")
		# the vanilla kernel's trace has no modes: "-" in their columns
		[ -n "$want" ] || [ "$r/${k%%.*}" = pinned/modes ] || fail "compare: $r has no $k in its summary"
		is "$(awk -F'\t' -v n="$row" -v c="$c" '!/^#/ && ++i == n { print $c }' "$TEST_TMP/cmp.tsv")" "${want:--}" \
			"compare: $r's column $c is its $k"
	done
done
"$PS" compare "$TEST_TMP/runs/pinned" "$TEST_TMP" >/dev/null 2>"$TEST_TMP/cmp.err"
is "$?" 1 "compare: a folder that was not analyzed is an error"
ok "compare: the error names the folder" grep -q "$TEST_TMP: not an analyzed run" "$TEST_TMP/cmp.err"
# compare reads run.json as JSON: escapes decoded, a value cannot shift the
# table's columns, a corrupt run.json or a failed write is an error
cp -r "$TEST_TMP/runs/pack2" "$TEST_TMP/runs/esc"
printf '{ "other": "\\"policy\\": \\"wrong\\"", "kernel": "power\\"sched\\\\x\\u00e9", "policy": "a\\tb" }\n' \
	>"$TEST_TMP/runs/esc/run.json"
"$PS" compare "$TEST_TMP/runs/esc" >"$TEST_TMP/cmp-esc.tsv" 2>"$TEST_TMP/cmp-esc.err"
is "$?" 0 "compare: a run.json with escaped strings is read"
is "$(awk -F'\t' '!/^#/ { print $2 }' "$TEST_TMP/cmp-esc.tsv")" 'power"sched\xé' "compare: the kernel's escapes are decoded"
is "$(awk -F'\t' '!/^#/ { print $3 }' "$TEST_TMP/cmp-esc.tsv")" 'a?b' "compare: a tab in the policy does not make a column"
is "$(awk -F'\t' '{ print NF }' "$TEST_TMP/cmp-esc.tsv" | sort -u | tr '\n' ' ')" "19 " "compare: every row has the header's 19 columns"
printf '{ "kernel": "powersched", "policy": ' >"$TEST_TMP/runs/esc/run.json"
"$PS" compare "$TEST_TMP/runs/esc" >/dev/null 2>"$TEST_TMP/cmp-esc.err"
is "$?" 1 "compare: a truncated run.json is an error"
ok "compare: which names the file" grep -q "runs/esc/run.json: not valid JSON" "$TEST_TMP/cmp-esc.err"
"$PS" compare "$TEST_TMP/runs/pack2" --out /dev/full >/dev/null 2>"$TEST_TMP/cmp-full.err"
is "$?" 1 "compare: --out on a full disk is an error"
ok "compare: which names the file" grep -q "/dev/full: write failed" "$TEST_TMP/cmp-full.err"
ok "compare: and leaves the device alone" [ -c /dev/full ]
ln -s /dev/full "$TEST_TMP/cmp-link.tsv"
"$PS" compare "$TEST_TMP/runs/pack2" --out "$TEST_TMP/cmp-link.tsv" >/dev/null 2>&1
is "$?/$([ -L "$TEST_TMP/cmp-link.tsv" ] && echo link)" 1/link "compare: a link to a full disk fails and is left in place"
"$PS" compare "$TEST_TMP/runs/pack2" >/dev/full 2>"$TEST_TMP/cmp-full.err"
is "$?" 1 "compare: a table that cannot be printed is an error"
ok "compare: and says so" grep -q "standard output: write error" "$TEST_TMP/cmp-full.err"

# The power model against the cover letter's SNB-EP table.
"$PS" model >"$TEST_TMP/model.txt" 2>&1
is "$?" 0 "model: prints the SNB-EP comparison"
worst=$(sed -n 's/^# largest error: [+-]\?\([0-9.]*\)%$/\1/p' "$TEST_TMP/model.txt")
cmp_num "$worst" -le 5 "model: the default model reproduces the SNB-EP table within 5%"
diag "$(grep -v '^#' "$TEST_TMP/model.txt" | awk '{ printf "%s x=%s: %s W measured, %s W model (%s%%)\n", $1, $2, $6, $7, $8 }')"
"$PS" model --fit >"$TEST_TMP/fit.conf" 2>&1
"$PS" model --model "$TEST_TMP/fit.conf" | grep -q 'largest error: -4.0%'
is "$?" 0 "model --fit: the refitted model matches the shipped one"

# --phase cuts the window to the workload's markers (spin 2 -t 8 recorded by
# workloads/matrix under powersaving).
out=$TEST_TMP/spin2
"$PS" analyze "$DATA/spin2-powersaving/trace.dat" --phase --out "$out" >"$TEST_TMP/spin2.txt" 2>&1
is "$?" 0 "phase: analyze --phase succeeds"
d=$(get "$out" duration_s)
ok "phase: the window is spin's 8 s, markers to markers ($d s)" awk -v d="$d" 'BEGIN { exit !(d > 7.9 && d < 8.2) }'
is "$(jq -r .phase "$out/summary.json")" spin "phase: summary.json names the phase"
cmp_num "$(get "$out" util.busy_cpus)" -ge 1.95 "phase: two loops busy through the phase"
cmp_num "$(get "$out" idle.package_max)" -ge 0.95 "phase: powersaving kept a package idle through the phase"
# The power model follows the topology's shape unless --model names one:
# the spin 2 trace's two packages get the SNB-EP model; the same 8 cpus
# said to be one package of 4 cores x 2 threads, the SNB laptop's.
is "$(jq -r .power.model "$out/summary.json")" "$ROOT/analysis/power-model.conf" \
	"model: two packages get the SNB-EP model"
awk -F'\t' 'BEGIN { OFS = "\t" } $1 == "cpu" { $3 = 0 } $1 != "domain"' \
	"$DATA/spin2-powersaving/topology.tsv" >"$TEST_TMP/one-package.tsv"
"$PS" analyze "$DATA/spin2-powersaving/trace.dat" --topology "$TEST_TMP/one-package.tsv" \
	--phase --out "$TEST_TMP/one-package" >"$TEST_TMP/one-package.txt" 2>&1
is "$?" 0 "model: analyze with a one-package topology succeeds"
is "$(jq -r .power.model "$TEST_TMP/one-package/summary.json")" "$ROOT/analysis/power-model-laptop.conf" \
	"model: one package of 4 cores x 2 threads gets the laptop model"
"$PS" analyze "$DATA/spin2-powersaving/trace.dat" --topology "$TEST_TMP/one-package.tsv" \
	--model "$ROOT/analysis/power-model.conf" --phase --out "$TEST_TMP/one-package-m" >/dev/null 2>&1
is "$(jq -r .power.model "$TEST_TMP/one-package-m/summary.json")" "$ROOT/analysis/power-model.conf" \
	"model: --model overrides the choice"
"$PS" analyze "$DATA/pinned-vanilla/trace.dat" --phase --out "$TEST_TMP/nophase" >/dev/null 2>"$TEST_TMP/nophase.err"
is "$?" 1 "phase: --phase on a trace without markers fails"
ok "phase: and says why" grep -q "no 'powersched-phase: ... begin' marker" "$TEST_TMP/nophase.err"
