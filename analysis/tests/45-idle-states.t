#!/bin/bash
# C-state residency in analyze: power:cpu_idle on a crafted trace whose
# every residency follows from its records, and on a guest trace where it
# must agree with what sched_switch says independently.
source "$(dirname "$0")/../../tests/lib.sh"
source "$(dirname "$0")/crafted.sh"
use_sanitizers
DATA=$ROOT/analysis/tests/data
EXIT=4294967295
jq_true() { jq -e "$1" "$2" >/dev/null; }

# Window 1.0 .. 2.0 s (the latest first record of a cpu opens it).
# Package 0 (cpus 0-3): cpu 0 in C1 from before the window to 1.4, runs
# until 1.5, then C3; cpus 1-3 enter C3 at 1.0 and stay.  So package 0 is
# in C1 1.0-1.4 (the shallowest of its cpus' states), active 1.4-1.5, in
# C3 1.5-2.0.  Package 1: cpu 4 runs a task the whole time, with no
# cpu_idle: sched_switch says so, and the package is never idle; cpus 5-7
# are in C2.
craft cstates --cpus 8 <<EOF
0 0.900 cpu_idle state=1 cpu_id=0
4 0.950 sched_switch prev_comm=swapper prev_pid=0 next_comm=loop next_pid=400
1 1.000 cpu_idle state=3 cpu_id=1
2 1.000 cpu_idle state=3 cpu_id=2
3 1.000 cpu_idle state=3 cpu_id=3
5 1.000 cpu_idle state=2 cpu_id=5
6 1.000 cpu_idle state=2 cpu_id=6
7 1.000 cpu_idle state=2 cpu_id=7
0 1.400 cpu_idle state=$EXIT cpu_id=0
0 1.400 sched_switch prev_comm=swapper prev_pid=0 next_comm=A next_pid=100
0 1.500 sched_switch prev_comm=A prev_pid=100 prev_state=1 next_comm=swapper next_pid=0
0 1.500 cpu_idle state=3 cpu_id=0
4 1.600 sched_switch prev_comm=loop prev_pid=400 prev_state=0 next_comm=loop2 next_pid=401
0 1.700 cpu_idle state=3 cpu_id=300
0 2.000 sched_waking comm=tick pid=1 prio=120 target_cpu=0
EOF
an cstates
ok "cstates: analyzed" exited cstates 0
is "$(sv cstates duration_s)" 1.000000 "cstates: the window is 1.0 .. 2.0 s"
is "$(jv cstates '.idle_states.available')" true "cstates: idle states available"
is "$(jv cstates '.idle_states.state_names | join(",")')" state0,state1,state2,state3 \
	"cstates: states 0-3, named stateN without run.json"
is "$(jv cstates '.idle_states.cpu[0] | [.active, .states[1], .states[3]] | map(tostring) | join(" ")')" "0.1 0.4 0.5" \
	"cstates: cpu 0 in C1 0.4 s, active 0.1 s, C3 0.5 s"
is "$(jv cstates '.idle_states.package[0] | [.active, .states[1], .states[3]] | map(tostring) | join(" ")')" "0.1 0.4 0.5" \
	"cstates: package 0 in C1 while cpu 0 is, in C3 only when all four are"
is "$(jv cstates '.idle_states.cpu[4].active')" 1 "cstates: cpu 4, which runs throughout without cpu_idle, is active"
is "$(jv cstates '.idle_states.cpu[4].unknown')" 0 "cstates: ... and never unknown"
is "$(jv cstates '.idle_states.package[1].active')" 1 "cstates: package 1 is never idle"
is "$(jv cstates '.idle_states.cpu[6].states[2]')" 1 "cstates: cpu 6 in C2 the whole window"
is "$(sv cstates caveats.bad_records)" 1 "cstates: the cpu_id 300 record counted as bad"
ok "cstates: ... and named" grep -q 'cpu_id=300' "$TEST_TMP/cstates/out/summary.tsv"
is "$(awk -F'\t' '$1 == "package" && $2 == 0 && $3 == "state3" { print $4, $5 }' "$TEST_TMP/cstates/out/idle_states.tsv")" \
	"0.500000 0.5000" "cstates: idle_states.tsv: package 0 in state3 0.5 s"
is "$(awk -F'\t' '!/^#/ && $1 == "cpu" { n++ } END { print n }' "$TEST_TMP/cstates/out/idle_states.tsv")" 48 \
	"cstates: idle_states.tsv: 8 cpus x (4 states, active, unknown)"

# run.json's cpuidle names the states
mkdir -p "$TEST_TMP/named"
cp "$TEST_TMP/cstates/trace.dat" "$TEST_TMP/cstates/topology.tsv" "$TEST_TMP/named/"
printf '{ "cpuidle": { "driver": "intel_idle", "governor": "menu", "states": ["POLL", "C1E", "C6\\t", "C10"] } }\n' \
	>"$TEST_TMP/named/run.json"
an named
ok "named: analyzed" exited named 0
is "$(jv named '.idle_states.state_names | join(",")')" $'POLL,C1E,C6\t,C10' "named: the states carry run.json's names"
ok "named: a tab in a name does not make a TSV column" \
	awk -F'\t' '!/^#/ && $1 == "cpu" && NF != 5 { exit 1 }' "$TEST_TMP/named/out/idle_states.tsv"
ok "named: ... and the row is there" grep -q $'^package\t0\tC10\t0.500000' "$TEST_TMP/named/out/idle_states.tsv"

# A trace without power:cpu_idle: null, and no idle_states.tsv
craft nocstates --omit cpu_idle <<EOF
$(known_at 1.0)
$(ticks 1.0 2.0)
EOF
an nocstates
ok "nocstates: analyzed" exited nocstates 0
is "$(jv nocstates '.idle_states')" null "nocstates: idle_states is null"
ok "nocstates: no idle_states.tsv" test ! -e "$TEST_TMP/nocstates/out/idle_states.tsv"

# The guest trace (two loops pinned to cpus 0 and 4, the default idle loop
# reporting state 1): cpu_idle and sched_switch are independent records of
# the same thing, so each cpu's active share is its busy share and each
# package's share in state 1 is its idle share, to within the time between
# a switch to idle and the cpu_idle that follows it.
out=$TEST_TMP/pinned
"$PS" analyze "$DATA/pinned-vanilla/trace.dat" --out "$out" >"$TEST_TMP/pinned.txt" 2>&1
is "$?" 0 "pinned: analyze succeeds"
ok "pinned: every cpu's active share within 0.01 of its busy share" \
	jq_true '[range(0; .cpus) as $i | (.idle_states.cpu[$i].active - .utilization.cpu[$i]) | fabs] | max < 0.01' "$out/summary.json"
ok "pinned: every package's state-1 share within 0.01 of its idle share" \
	jq_true '[range(0; .packages) as $i | (.idle_states.package[$i].states[1] - .idle.package[$i]) | fabs] | max < 0.01' "$out/summary.json"
ok "pinned: no cpu unknown" jq_true '[.idle_states.cpu[].unknown] | max == 0' "$out/summary.json"
ok "pinned: the human summary names the package C-state residency" grep -q 'deepest idle state' "$TEST_TMP/pinned.txt"
