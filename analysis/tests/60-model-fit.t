#!/bin/bash
# powersched model --fit RUN_DIR...: on runs made from the stored guest
# traces (analysis/tests/data) with an energy.tsv planted from a known model
# (watts = that model's prediction from each run's own analysis, over its
# analysis window, the counter wrapping every 20 J), the fit must find the
# planted coefficients and zero error; bad runs are refused by name.  Also
# the two shipped tables (powersched model --table).
source "$(dirname "$0")/../../tests/lib.sh"
use_sanitizers
PS=$BUILD/test/powersched
DATA=$ROOT/analysis/tests/data
PLANT="base_watts 30
package_watts 8
core_watts 4
thread_watts 1.5
package_wakeup_joules 0.002"

# first record's timestamp in seconds, as libtracecmd orders them
first_ts() { trace-cmd report -t -q "$1" 2>/dev/null | awk '/: / { for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { sub(":", "", $i); print $i; exit } }'; }

# mkrun NAME SOURCE [--phase] [CLOCK]: a recording folder with planted energy
mkrun() {
	local d=$TEST_TMP/$1 src=$DATA/$2 phase=${3:-} clock=${4:-mono} w t0 s dur
	mkdir -p "$d"
	cp "$src/trace.dat" "$src/topology.tsv" "$d/"
	printf '{ "format": "powersched-run-1", "trace_clock": "%s" }\n' "$clock" >"$d/run.json"
	"$PS" analyze "$d/trace.dat" $phase >/dev/null 2>&1 || { fail "$1: analyze"; return; }
	w=$(jq -r --arg m "$PLANT" '($m | split("\n") | map(split(" ")) | map({(.[0]): (.[1] | tonumber)}) | add) as $c
		| .power | $c.base_watts + $c.package_watts * .active_packages + $c.core_watts * .active_cores
		  + $c.thread_watts * .active_threads + $c.package_wakeup_joules * .package_wakeups_per_s' "$d/analysis/summary.json")
	t0=$(first_ts "$d/trace.dat")
	s=$(jq -r .window_start_s "$d/analysis/summary.json")
	dur=$(jq -r .duration_s "$d/analysis/summary.json")
	# constant power w from 1 s before the window to 1 s after, every 0.1 s;
	# the counter wraps at 20 J
	awk -v w="$w" -v a="$t0" -v s="$s" -v d="$dur" 'BEGIN {
		R = 20000000
		printf "# powersched energy v1\nzone\t0\tpackage-0\tintel-rapl:0\t%d\n# sample\ttime_s\tpackage-0\n", R
		from = a + s - 1; to = a + s + d + 1
		for (t = from; t <= to + 0.05; t += 0.1) printf "sample\t%.9f\t%d\n", t, (w * (t - from) * 1e6) % R
	}' >"$d/energy.tsv"
	echo "$w" >"$d/planted_w"
}

mkrun pinned pinned-vanilla
mkrun pack2 pack2-powersaving
mkrun spin2 spin2-powersaving
mkrun spin2phase spin2-powersaving --phase
# analyze itself reads energy.tsv: measured watts over the window, the
# model's estimate beside them, and the difference
"$PS" analyze "$TEST_TMP/pack2/trace.dat" --out "$TEST_TMP/pack2/measured" >/dev/null 2>"$TEST_TMP/measured.err"
is "$?" 0 "measured: analyze reads a run with energy.tsv"
m=$TEST_TMP/pack2/measured/summary.json
is "$(jq -r .energy_measured.available "$m")" true "measured: energy_measured.available"
ok "measured: the zone's watts are the planted $(cat "$TEST_TMP/pack2/planted_w") W" \
	jq -e --argjson w "$(cat "$TEST_TMP/pack2/planted_w")" '(.energy_measured.zones["package-0"].watts - $w) | fabs < 0.01' "$m"
ok "measured: joules = watts x the window's duration" \
	jq -e '(.energy_measured.zones["package-0"].joules - .energy_measured.zones["package-0"].watts * .duration_s) | fabs < 0.01' "$m"
ok "measured: the counter's wraps were undone" jq -e '.energy_measured.counter_wraps > 0' "$m"
ok "measured: the model's estimate beside it, and the difference" \
	jq -e '.energy_measured.model_watts == .power.watts and
		((.energy_measured.model_error_pct - (.power.watts - .energy_measured.watts) / .energy_measured.watts * 100) | fabs < 0.01)' "$m"
cp -r "$TEST_TMP/pack2" "$TEST_TMP/pack2-local"
printf '{ "format": "powersched-run-1", "trace_clock": "local" }\n' >"$TEST_TMP/pack2-local/run.json"
"$PS" analyze "$TEST_TMP/pack2-local/trace.dat" --out "$TEST_TMP/pack2-local/m" >/dev/null 2>"$TEST_TMP/local.err"
is "$?/$(jq -r .energy_measured.available "$TEST_TMP/pack2-local/m/summary.json")" 0/false \
	"measured: another trace clock leaves the model alone"
ok "measured: and says why" grep -q "trace clock is 'local', not mono" "$TEST_TMP/local.err"
head -c 200 "$TEST_TMP/pack2/energy.tsv" >"$TEST_TMP/pack2-local/energy.tsv"
printf '{ "format": "powersched-run-1", "trace_clock": "mono" }\n' >"$TEST_TMP/pack2-local/run.json"
"$PS" analyze "$TEST_TMP/pack2-local/trace.dat" --out "$TEST_TMP/pack2-local/m2" >/dev/null 2>"$TEST_TMP/short.err"
is "$?/$(jq -r .energy_measured.available "$TEST_TMP/pack2-local/m2/summary.json")" 0/false \
	"measured: an energy.tsv that stops before the window is not used"
ok "measured: and is named" grep -q "energy.tsv" "$TEST_TMP/short.err"

# the prior: the planted model but a wrong base; the runs free base first
sed 's/^base_watts 30$/base_watts 100/' <<<"$PLANT" >"$TEST_TMP/prior.conf"

out=$TEST_TMP/fit.conf
(cd "$TEST_TMP" && "$PS" model --fit pinned pack2 spin2 spin2phase --model prior.conf --out "$out") >"$TEST_TMP/fit.txt" 2>&1
is "$?" 0 "fit: succeeds"
diag "$(cat "$TEST_TMP/fit.txt")"
ok "fit: the model file is written" test -s "$out"
for k in base_watts package_watts core_watts thread_watts package_wakeup_joules; do
	want=$(awk -v k=$k '$1 == k { print $2 }' <<<"$PLANT")
	got=$(awk -v k=$k '$1 == k { print $2 }' "$out")
	cmp_num "$(awk -v g="$got" -v w="$want" 'BEGIN { d = g - w; print (d < 0 ? -d : d) }')" -le 0.001 "fit: $k = the planted $want (got $got)"
done
is "$(awk -F'\t' '!/^#/ { e = $7 < 0 ? -$7 : $7; if (e > 0.01) bad++ } END { print bad + 0 }' "$TEST_TMP/fit.txt")" 0 \
	"fit: every run within 0.01% after the fit"
is "$(awk -F'\t' '!/^#/ { n++ } END { print n }' "$TEST_TMP/fit.txt")" 4 "fit: one line per run"
cmp_num "$(awk -F'\t' '$1 == "pinned" { print ($5 < 0 ? -$5 : $5) }' "$TEST_TMP/fit.txt")" -ge 20 "fit: the prior's error is shown beside (base 100 W off by 70 W)"
near_w() { awk -F'\t' -v r="$1" '$1 == r { print $3 }' "$TEST_TMP/fit.txt"; }
cmp_num "$(awk -v a="$(near_w pinned)" -v b="$(cat "$TEST_TMP/pinned/planted_w")" 'BEGIN { d = a - b; print (d < 0 ? -d : d) }')" -le 0.001 \
	"fit: the measured watts are the planted ones (the 20 J wraps undone)"
is "$(awk '$1 == "packages" || $1 == "cores_per_package" || $1 == "threads_per_core" { printf "%s ", $2 }' "$out")" "2 2 2 " \
	"fit: the model file says the runs' shape (server 2x2x2)"
"$PS" analyze "$TEST_TMP/pinned/trace.dat" --model "$out" --out "$TEST_TMP/pinned-fit" >/dev/null 2>&1
is "$?" 0 "the fitted model is usable: analyze --model"
cmp_num "$(jq -r '.power.watts' "$TEST_TMP/pinned-fit/summary.json" | awk -v b="$(cat "$TEST_TMP/pinned/planted_w")" '{ d = $1 - b; print (d < 0 ? -d : d) }')" -le 0.01 \
	"analyze --model FIT estimates the planted watts"

# one run: only the base is free, the rest stays the prior's
(cd "$TEST_TMP" && "$PS" model --fit pinned --model prior.conf --out one.conf) >"$TEST_TMP/one.txt" 2>&1
is "$?" 0 "one run: succeeds"
is "$(grep -c 'kept from the prior' "$TEST_TMP/one.txt")" 4 "one run: four coefficients kept from the prior"
cmp_num "$(awk '$1 == "base_watts" { d = $2 - 30; print (d < 0 ? -d : d) }' "$TEST_TMP/one.conf")" -le 0.001 "one run: the base is fitted"

# bad runs: one line naming the run and the problem, status 1, no model written
badfit() {
	local desc=$1 pattern=$2; shift 2
	(cd "$TEST_TMP" && "$PS" model --fit "$@" --out bad.conf) >/dev/null 2>"$TEST_TMP/bad.err"
	local rc=$?
	if [ $rc = 1 ] && grep -q -- "$pattern" "$TEST_TMP/bad.err" && [ ! -e "$TEST_TMP/bad.conf" ]; then
		pass "$desc"
	else
		fail "$desc"; diag "status $rc: $(cat "$TEST_TMP/bad.err")"
	fi
}
mkdir -p "$TEST_TMP/raw" && cp "$DATA/pinned-vanilla/trace.dat" "$DATA/pinned-vanilla/topology.tsv" "$TEST_TMP/raw/"
badfit "a run not analyzed" "raw: not analyzed" pinned raw
mkrun localclock pinned-vanilla "" local
badfit "a run on the local trace clock" "the trace clock is 'local', not mono" localclock
mkrun noenergy pinned-vanilla
rm "$TEST_TMP/noenergy/energy.tsv"
badfit "a run without energy.tsv" "energy.tsv: missing" noenergy
mkrun short pinned-vanilla
head -n 8 "$TEST_TMP/short/energy.tsv" >"$TEST_TMP/short/e" && mv "$TEST_TMP/short/e" "$TEST_TMP/short/energy.tsv"
badfit "energy.tsv not covering the window" "does not cover the analysis window" short
mkrun lossy lossy-powersaving
badfit "a trace that lost events" "lost events" lossy
mkrun badjson pinned-vanilla
echo '{ "duration_s": 3, ' >"$TEST_TMP/badjson/analysis/summary.json"
badfit "a truncated summary.json" "no analysis window" badjson
"$PS" model --fit pinned --table snb-ep >/dev/null 2>&1
is "$?" 2 "--table with runs: usage error"

# the tables
"$PS" model --model "$ROOT/analysis/power-model-laptop.conf" >"$TEST_TMP/laptop.txt"
is "$?" 0 "model: the laptop model against its own table"
ok "model: the laptop table is the SNB laptop's" grep -q 'SNB laptop, 4 cores x HT' "$TEST_TMP/laptop.txt"
is "$(grep -c '^powersaving\|^performance' "$TEST_TMP/laptop.txt")" 8 "model: 8 laptop points"
is "$(sed -n 's/^# largest error: //p' "$TEST_TMP/laptop.txt")" "-9.8%" "model: the laptop fit's largest error"
"$PS" model --fit --table snb-laptop | grep -v '^#' >"$TEST_TMP/refit.conf"
is "$(awk '{ printf "%s=%.3f ", $1, $2 }' "$TEST_TMP/refit.conf")" \
	"$(grep -v '^#' "$ROOT/analysis/power-model-laptop.conf" | awk 'NF { printf "%s=%.3f ", $1, $2 }')" \
	"model --fit --table snb-laptop reproduces the shipped laptop model"
"$PS" model --table snb-ep >"$TEST_TMP/ep.txt"
is "$(sed -n 's/^# largest error: //p' "$TEST_TMP/ep.txt")" "-4.0%" "model: the default model against SNB-EP, as before"
"$PS" model --table nosuch >/dev/null 2>&1
is "$?" 2 "an unknown table: usage error"
