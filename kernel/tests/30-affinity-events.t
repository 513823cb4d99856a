#!/bin/bash
# Affinity is respected under powersaving, and each of the four powersched
# events fires with sane field values in a run that should produce it.
source "$(dirname "$0")/../../tests/lib.sh"
G=$ROOT/kernel/tests/guest

d=$TEST_TMP/affinity
mkdir -p "$d" && cp "$G/affinity.sh" "$d/"
guest "$d" --kernel powersched --topology server --policy powersaving --timeout 180 -- sh affinity.sh ||
	fail "affinity: guest run"
trace-cmd report -N -q "$d/trace.dat" >"$d/report" 2>/dev/null
n=$(grep -c 'sched_switch:.*next_comm=spinloop' "$d/report")
cmp_num "$n" -gt 10 "affinity: the pinned loops were traced running"
is "$(grep 'sched_switch:.*next_comm=spinloop' "$d/report" | sed -n 's/^.*\[\([0-9]*\)\].*$/\1/p' | awk '$1 < 4' | wc -l)" 0 \
	"affinity: pinned loops never ran outside cpus 4-7"
is "$(grep 'sched_migrate_task:.*comm=spinloop' "$d/report" | grep -o 'dest_cpu=[0-9]*' | awk -F= '$2 < 4' | wc -l)" 0 \
	"affinity: pinned loops never migrated outside cpus 4-7"
is "$(grep 'power_pack_decision:.*comm=spinloop' "$d/report" | grep -o 'chosen_cpu=[0-9-]*' | awk -F= '$2 >= 0 && $2 < 4' | wc -l)" 0 \
	"affinity: the placement never chose a cpu outside the mask"

d=$TEST_TMP/events
mkdir -p "$d" && cp "$G/events.sh" "$d/"
guest "$d" --kernel powersched --topology server --policy powersaving --timeout 240 -- sh events.sh ||
	fail "events: guest run"
trace-cmd report -N -q "$d/trace.dat" >"$d/report" 2>/dev/null
for e in power_pack_decision group_leader_chosen lazy_balance_skip balance_mode; do
	n=$(grep -c " $e:" "$d/report")
	cmp_num "$n" -gt 0 "events: $e fired"
done
# sane values: key=value fields with values in range
bad=$(grep ' power_pack_decision:' "$d/report" | awk '{
	for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
	if (v["chosen_cpu"] < -1 || v["chosen_cpu"] > 7 || v["prev_cpu"] < 0 || v["prev_cpu"] > 7 ||
	    v["util"] > 1024 || v["reason"] !~ /^(leader|idlest|local|burst|domain_full|no_room)$/ ||
	    v["origin"] !~ /^(fork|exec|wakeup)$/ || (v["chosen_cpu"] == -1) != (v["reason"] ~ /burst|full|no_room/)) bad++ }
	END { print bad + 0 }')
is "$bad" 0 "events: power_pack_decision fields in range, chosen_cpu=-1 exactly when mainline decides"
bad=$(grep ' group_leader_chosen:' "$d/report" | awk '{
	for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
	if (v["sd_util"] < v["leader_util"] || (v["min_cpus"] != "" && v["min_util"] > v["leader_util"]) ||
	    v["sd_capacity"] % 1024 || v["domain"] !~ /^(SMT|MC|PKG|NUMA)$/ || v["leader_cpus"] !~ /^[0-9,-]*$/) bad++ }
	END { print bad + 0 }')
is "$bad" 0 "events: group_leader_chosen fields consistent (leader within the domain, capacity in cpus)"
cmp_num "$(grep ' group_leader_chosen:' "$d/report" | grep -c 'origin=balance')" -gt 0 "events: group_leader_chosen from periodic balance"
cmp_num "$(grep ' group_leader_chosen:' "$d/report" | grep -c -E 'origin=(fork|exec|wakeup)')" -gt 0 "events: group_leader_chosen from placement"
bad=$(grep ' lazy_balance_skip:' "$d/report" | awk '{
	for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
	if (!(v["recent"] > 0 || v["older"] > 4) || v["recent"] > 32 || v["older"] > 32) bad++ }
	END { print bad + 0 }')
is "$bad" 0 "events: every lazy skip had a performance pass in the last 32 or more than 4 in the 32 before"
for m in power performance none; do
	cmp_num "$(grep -c " balance_mode:.*mode=$m " "$d/report")" -gt 0 "events: balance_mode shows $m passes"
done
is "$(grep ' balance_mode:.*domain=SMT' "$d/report" | grep -c 'mode=power')" 0 "events: no power balance in SMT domains"
is "$(grep ' balance_mode:.*idle=busy' "$d/report" | grep -c 'mode=power')" 0 "events: busy cpus never pack"

# What a burst changes: with every cpu in a burst, waking tasks count at
# their instantaneous load, domains fill up and the mainline path decides
# (reason=burst); with burst detection off, no decision says burst.
d=$TEST_TMP/burst
mkdir -p "$d" && cp "$G/burst.sh" "$d/"
guest "$d" --kernel powersched --topology server --policy powersaving --timeout 240 -- sh burst.sh ||
	fail "burst: guest run"
for m in on off; do
	trace-cmd report -N -q "$d/burst-$m/trace.dat" 2>/dev/null | grep ' power_pack_decision:' | grep 'origin=wakeup' >"$d/$m.txt"
done
cmp_num "$(wc -l <"$d/on.txt")" -gt 0 "burst: wakeup placements traced with the threshold at 1 s"
cmp_num "$(grep -c 'reason=burst' "$d/on.txt")" -gt 0 "burst: threshold 1 s, decisions with reason=burst"
is "$(grep -c 'reason=burst' "$d/off.txt")" 0 "burst: threshold 0, no decision says burst"
share() { awk '{ n++ } /chosen_cpu=-1 / { m++ } END { printf "%.3f", n ? m / n : 0 }' "$1"; }
on=$(share "$d/on.txt") off=$(share "$d/off.txt")
diag "wakeups left to the mainline path: $on with bursts, $off without"
is "$(grep 'reason=burst' "$d/on.txt" | grep -vc 'chosen_cpu=-1 ')" 0 "burst: a burst always hands the wakeup to the mainline path"
