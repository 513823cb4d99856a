#!/bin/bash
# Balance rules of the powersaving policy (kernel series v2):
#  - mainline's special cases come first: 3 busy loops started on cpu 0,
#    then allowed on cpus 0 and 4 only, leave package 0 imbalanced by
#    affinity; cpu 4 must take one (a power pass that does nothing must not
#    skip mainline's group_imbalanced handling);
#  - sparse tasks get packed: two busy loops on cpus 0 and 12 of the
#    4-package quad topology, let free, end up in one package although
#    every other cpu is idle without a tick (the nohz balancer is kicked for
#    packing), and an rt task on package 2 never makes that package the one
#    to empty (group_min counts runnable cfs tasks);
#  - lazy placement: wave -j 2 under powersaving, with lazy balance and
#    with NO_POWER_LAZY_BALANCE as the control in one boot; the analyzer's
#    ping-pong migrations (a task moved and moved back within 100 ms) must
#    fall to at most two thirds (measured with -n 300: 54.7/s without,
#    23.9/s with; with -n 800: 74/s and 25/s);
#  - the lazy hold backs off: wave -j 8 overloads the domains again and
#    again; some hold of an MC domain is longer than the fixed window that
#    NO_POWER_LAZY_BACKOFF gives in the same boot, which is never longer;
#  - a power pass kicks active balance only from a periodic pass.
source "$(dirname "$0")/../../tests/lib.sh"
G=$ROOT/kernel/tests/guest

run() {
	local name=$1 topo=$2 dir=$TEST_TMP/$1
	mkdir -p "$dir" && cp "$G/balance.sh" "$G/trace-run.sh" "$dir/"
	guest "$dir" --kernel powersched --topology "$topo" --policy powersaving --timeout 400 -- sh balance.sh "$name" ||
		fail "$name: guest run"
	trace-cmd report -N -q "$dir/$name/trace.dat" >"$dir/report" 2>/dev/null || fail "$name: trace-cmd report"
	diag "$name: busy per cpu: $(cut -f2 "$dir/busy.tsv" 2>/dev/null | tr '\n' ' ')"
}
busy() { awk -v c="$2" '$1 == c { print $2 }' "$TEST_TMP/$1/busy.tsv"; }

run pinned server
cmp_num "$(busy pinned 0)" -ge 0.9 "pinned: cpu 0 busy"
cmp_num "$(busy pinned 4)" -ge 0.8 "pinned: cpu 4 took a loop that may run there (group_imbalanced handled as mainline)"
cmp_num "$(grep -c ' balance_mode:.*why=mainline_case' "$TEST_TMP/pinned/report")" -gt 0 \
	"pinned: balance passes said mainline_case"

run sparse quad
# packages with at least half a cpu of work (the rt task takes a tenth of cpu 8)
pkgs=$(awk '{ s[int($1 / 4)] += $2 } END { n = 0; for (p in s) if (s[p] >= 0.5) n++; print n }' "$TEST_TMP/sparse/busy.tsv")
is "$pkgs" 1 "sparse: the two loops let free end up in one package"
cmp_num "$(awk '$1 >= 8 && $1 < 12 { s += $2 } END { printf "%.2f", s }' "$TEST_TMP/sparse/busy.tsv")" -le 0.4 \
	"sparse: not in package 2, where only the rt task runs"

# thrash and its control in one boot, the control second so that a
# difference is not the boot's first seconds
dir=$TEST_TMP/thrash
mkdir -p "$dir" && cp "$G/balance.sh" "$G/trace-run.sh" "$dir/"
guest "$dir" --kernel powersched --topology server --policy powersaving --timeout 500 -- \
	sh -c 'sh balance.sh thrash && sh balance.sh thrash-off' || fail "thrash: guest run"
pingpong() {
	"$ROOT/build/bin/powersched" analyze "$dir/$1/trace.dat" --out "$dir/$1/analysis" >"$dir/$1.analyze.log" 2>&1 ||
		{ echo "analyze failed: $(tail -n 2 "$dir/$1.analyze.log")" >&2; return; }
	awk -F'\t' '$1 == "migrations.pingpong.per_s" { print $2 }' "$dir/$1/analysis/summary.tsv"
}
on=$(pingpong thrash) off=$(pingpong thrash-off)
diag "thrash: wave -j 2 ping-pong migrations/s with lazy balance $on, without $off"
cmp_num "$off" -ge 20 "thrash-off: without lazy balance wave -j 2 ping-pongs (the control shows the effect)"
cmp_num "${on:+$(awk -v a="$on" 'BEGIN { printf "%.3f", a * 3 / 2 }')}" -le "$off" \
	"thrash: lazy placement cuts wave -j 2's ping-pong migrations to at most two thirds of the control's"

# the backoff and its control in one boot
dir=$TEST_TMP/backoff
mkdir -p "$dir" && cp "$G/balance.sh" "$G/trace-run.sh" "$dir/"
guest "$dir" --kernel powersched --topology server --policy powersaving --timeout 500 -- \
	sh -c 'sh balance.sh backoff && sh balance.sh backoff-off' || fail "backoff: guest run"
windows() {	# windows RUN: the distinct window_ms of the MC domains' lazy skips
	trace-cmd report -N -q "$dir/$1/trace.dat" 2>/dev/null |
		awk '/ lazy_balance_skip:/ && / domain=MC / && / variant=shared / {
			for (i = 1; i <= NF; i++) if ($i ~ /^window_ms=/) print substr($i, 11) }' | sort -n | uniq -c
}
won=$(windows backoff) woff=$(windows backoff-off)
diag "backoff: MC lazy skips by window_ms (count window): with backoff: $(echo $won); fixed: $(echo $woff)"
fixed=$(awk '{ print $2 }' <<<"$woff")
is "$(wc -w <<<"$fixed")" 1 "backoff-off: every MC hold has the one fixed window"
cmp_num "$(awk '{ m = $2 } END { print m + 0 }' <<<"$won")" -gt "$(head -n 1 <<<"${fixed:-999999}")" \
	"backoff: an MC domain overloaded again soon after its hold lapsed is held longer"

is "$(cat "$TEST_TMP"/{pinned,sparse}/report | grep ' balance_outcome:.*mode=power' | grep -c 'idle=newly_idle.*active=1')" 0 \
	"active balance: never kicked by a newly idle power pass"
