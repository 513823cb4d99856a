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
for e in power_pack_decision group_leader_chosen lazy_balance_skip balance_mode balance_outcome \
	balance_migrate policy_change; do
	n=$(grep -c " $e:" "$d/report")
	cmp_num "$n" -gt 0 "events: $e fired"
done
# sane values: key=value fields with values in range
bad=$(grep ' power_pack_decision:' "$d/report" | awk '{
	for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
	if (v["chosen_cpu"] < -1 || v["chosen_cpu"] > 7 || v["prev_cpu"] < 0 || v["prev_cpu"] > 7 ||
	    v["util"] > 1024 || v["reason"] !~ /^(leader|idlest|local|burst|domain_full|no_room|smt|prev|lazy)$/ ||
	    v["origin"] !~ /^(fork|exec|wakeup)$/ || v["sd_util"] == "" || v["sd_capacity"] > 8192 ||
	    v["scanned"] > 24 || (v["chosen_cpu"] == -1) != (v["reason"] ~ /burst|full|no_room|smt|lazy/)) bad++ }
	END { print bad + 0 }')
is "$bad" 0 "events: power_pack_decision fields in range, chosen_cpu=-1 exactly when mainline decides"
bad=$(grep ' group_leader_chosen:' "$d/report" | awk '{
	for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
	if (v["sd_util"] < v["leader_util"] || (v["min_cpus"] != "" && v["min_util"] > v["leader_util"] && v["origin"] == "balance") ||
	    v["sd_capacity"] <= 0 || v["sd_capacity"] > 8192 || v["domain"] !~ /^(SMT|MC|PKG|NUMA)$/ ||
	    v["leader_cpus"] !~ /^[0-9,-]*$/) bad++ }
	END { print bad + 0 }')
is "$bad" 0 "events: group_leader_chosen fields consistent (leader within the domain, capacity at most 1024 a cpu)"
cmp_num "$(grep ' group_leader_chosen:' "$d/report" | grep -c 'origin=balance')" -gt 0 "events: group_leader_chosen from periodic balance"
cmp_num "$(grep ' group_leader_chosen:' "$d/report" | grep -c -E 'origin=(fork|exec|wakeup)')" -gt 0 "events: group_leader_chosen from placement"
bad=$(grep ' lazy_balance_skip:' "$d/report" | awk '{
	for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
	if (v["variant"] == "v7" && (!(v["recent"] > 0 || v["older"] > 4) || v["recent"] > 32 || v["older"] > 32)) bad++
	else if (v["variant"] == "shared" && !(v["since_ms"] + 0 <= v["window_ms"] + 0)) bad++
	else if (v["variant"] !~ /^(v7|shared)$/) bad++ }
	END { print bad + 0 }')
is "$bad" 0 "events: every lazy skip within its rule (shared: overloaded less than window_ms ago; v7: recent passes)"
for m in power performance none; do
	cmp_num "$(grep -c " balance_mode:.*mode=$m " "$d/report")" -gt 0 "events: balance_mode shows $m passes"
done
is "$(grep ' balance_mode:.*domain=SMT' "$d/report" | grep -c 'mode=power')" 0 "events: no power balance in SMT domains"
is "$(grep ' balance_mode:.*idle=busy' "$d/report" | grep -c 'mode=power')" 0 "events: busy cpus never pack"
cmp_num "$(grep -c ' balance_mode:.*why=overloaded' "$d/report")" -gt 0 "events: overloaded passes traced"
# overloaded as the kernel's power_group_overloaded() says: more runnable
# cfs tasks than cpus, runnable time above capacity * imbalance_pct / 100
bad=$(grep ' balance_mode:.*why=overloaded' "$d/report" | awk '
	function ncpus(list,   n, i, r, parts, k) {
		n = 0; k = split(list, parts, ",")
		for (i = 1; i <= k; i++) { if (split(parts[i], r, "-") == 2) n += r[2] - r[1] + 1; else n++ }
		return n }
	{ delete v; for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
	if (v["mode"] != "performance" || v["group_cpus"] == "" ||
	    v["group_runnable"] * 100 <= v["group_capacity"] * v["imbalance_pct"] ||
	    v["nr_runnable"] + 0 <= ncpus(v["group_cpus"]) || v["imbalance_pct"] + 0 < 100) bad++; n++ }
	END { print bad + 0 }')
is "$bad" 0 "events: an overloaded pass is a performance pass and names a group over the threshold (more runnable tasks than cpus, runnable time above capacity x imbalance_pct)"
is "$(grep ' balance_outcome:' "$d/report" | grep 'mode=power' | grep -c 'active=1.*idle=newly_idle\|idle=newly_idle.*active=1')" 0 \
	"events: power passes kick active balance only from periodic passes, never newly idle ones"
is "$(grep ' policy_change:' "$d/report" | grep -c 'old=performance new=powersaving')" 1 "events: policy_change names the switch"

# Every migration can be attributed from the trace alone: the record before
# a task's sched_migrate_task on the same cpu is balance_migrate for that
# task (load balance), or the cpu's records since the task's sched_waking
# are this policy's placement events (a wakeup), or the task's last
# placement was an exec one (sched_exec() moves it through the stopper).
read -r nmig nbal nwake nexec unattr < <(awk '
	{ cpu = $2; gsub(/[^0-9]/, "", cpu) }
	/ sched_migrate_task:/ { n++; match($0, /pid=[0-9]+/); pid = substr($0, RSTART + 4, RLENGTH - 4)
		if (last_bm[cpu] == pid) b++
		else if (waking[cpu] == pid) w++
		else if (execp[pid]) e++
		else u++
		delete execp[pid]; last_bm[cpu] = ""; waking[cpu] = ""; next }
	/ balance_migrate:/ { match($0, /pid=[0-9]+/); last_bm[cpu] = substr($0, RSTART + 4, RLENGTH - 4); waking[cpu] = ""; next }
	/ sched_waking:/ { match($0, /pid=[0-9]+/); waking[cpu] = substr($0, RSTART + 4, RLENGTH - 4); last_bm[cpu] = ""; next }
	/ power_pack_decision:.*origin=exec/ { match($0, /pid=[0-9]+/); execp[substr($0, RSTART + 4, RLENGTH - 4)] = 1 }
	/ (power_pack_decision|group_leader_chosen):/ { next }
	{ last_bm[cpu] = ""; waking[cpu] = "" }
	END { print n + 0, b + 0, w + 0, e + 0, u + 0 }' "$d/report")
diag "migrations: $nmig: $nbal by load balance, $nwake at wakeup, $nexec at exec, $unattr not attributable"
cmp_num "$nmig" -gt 20 "attribution: migrations traced"
cmp_num "$nbal" -gt 0 "attribution: load balance migrations named by balance_migrate"
cmp_num "$unattr" -le "$((nmig / 50))" "attribution: at most 2% of migrations have no cause in the trace"

# The bounded placement: a wakeup reads the cpus of one group and at most
# two more (its previous and the waking cpu), not the whole domain.
read -r sc gs nd < <(awk '
	{ cpu = $2; gsub(/[^0-9]/, "", cpu) }
	/ group_leader_chosen:.*origin=wakeup/ { match($0, /leader_cpus=[0-9,-]*/); l = substr($0, RSTART + 12, RLENGTH - 12)
		k = split(l, r, ","); w = 0
		for (i = 1; i <= k; i++) { if (split(r[i], ab, "-") == 2) w += ab[2] - ab[1] + 1; else w++ }
		size[cpu] = w; next }
	/ power_pack_decision:.*origin=wakeup/ { match($0, /scanned=[0-9]+/); s += substr($0, RSTART + 8, RLENGTH - 8)
		g += size[cpu]; n++; size[cpu] = 0 }
	END { if (n) printf "%.2f %.2f %d\n", s / n, g / n, n; else print "0 0 0" }' "$d/report")
diag "wakeup placements: $nd, cpus read $sc on average, chosen group's size $gs on average"
cmp_num "$nd" -gt 20 "bounded placement: wakeup placements traced"
cmp_num "$sc" -le "$(awk -v g="$gs" 'BEGIN { printf "%.2f", g + 2 }')" "bounded placement: cpus read per wakeup at most the chosen group's size + 2"

# What a burst changes: with every cpu in a burst, waking tasks count at
# their instantaneous load, domains fill up and the mainline path decides
# (reason=burst); with burst detection off, no decision says burst.
# Five hackbench rounds each (burst.sh): single rounds gave 4 to 111 burst
# decisions, five rounds 30 to 121 (6 runs each).
d=$TEST_TMP/burst
mkdir -p "$d" && cp "$G/burst.sh" "$d/"
guest "$d" --kernel powersched --topology server --policy powersaving --timeout 240 -- sh burst.sh ||
	fail "burst: guest run"
for m in on off; do
	trace-cmd report -N -q "$d/burst-$m/trace.dat" 2>/dev/null | grep ' power_pack_decision:' | grep 'origin=wakeup' >"$d/$m.txt"
done
cmp_num "$(wc -l <"$d/on.txt")" -gt 0 "burst: wakeup placements traced with the threshold at 1 s"
diag "wakeup placements with the threshold at 1 s: $(wc -l <"$d/on.txt"), $(grep -c 'reason=burst' "$d/on.txt") of them reason=burst"
cmp_num "$(grep -c 'reason=burst' "$d/on.txt")" -gt 0 "burst: threshold 1 s, decisions with reason=burst"
is "$(grep -c 'reason=burst' "$d/off.txt")" 0 "burst: threshold 0, no decision says burst"
share() { awk '{ n++ } /chosen_cpu=-1 / { m++ } END { printf "%.3f", n ? m / n : 0 }' "$1"; }
on=$(share "$d/on.txt") off=$(share "$d/off.txt")
diag "wakeups left to the mainline path: $on with bursts, $off without"
is "$(grep 'reason=burst' "$d/on.txt" | grep -vc 'chosen_cpu=-1 ')" 0 "burst: a burst always hands the wakeup to the mainline path"
