#!/bin/bash
# powersched record in guests: the topology.tsv it writes is the one
# qemu/guest-init wrote and the kernel's own sched_verbose report; every cpu
# switches in the trace (three of them run one busy loop throughout);
# run.json as qemu/run merges it; the trace analyzes; lost events, a disk
# that fills and a missing tracefs are each said in one line.
source "$(dirname "$0")/../../tests/lib.sh"
G=$ROOT/qemu/tests/guest
PS=$BUILD/bin/powersched

d=$TEST_TMP/rec
mkdir -p "$d" && cp "$G/record.sh" "$G/topology-dmesg.sh" "$d/"
guest "$d" --kernel powersched --topology server --policy powersaving --timeout 240 -- sh record.sh ||
	fail "record: guest run"
is "$(cat "$d/record.rc" 2>/dev/null)" 0 "record: powersched record exits 0 in the guest"
diag "$(cat "$d/record.out" 2>/dev/null)"
ok "record: topology.tsv equals guest-init's" cmp "$d/topology.tsv" "$d/topology-init.tsv"
ok "record: topology.tsv equals the kernel's sched_verbose report" diff -u "$d/topology-dmesg.tsv" "$d/topology.tsv"
trace-cmd report -q "$d/trace.dat" >"$d/report" 2>/dev/null
is "$(sed -n 's/^.*\[\([0-9]*\)\] .*sched_switch.*$/\1/p' "$d/report" | awk '{ print $1 + 0 }' | sort -un | tr '\n' ' ')" "0 1 2 3 4 5 6 7 " \
	"record: sched_switch on all 8 cpus, the three running one loop throughout included"
for e in sched_switch sched_waking sched_wakeup sched_wakeup_new sched_migrate_task; do
	cmp_num "$(grep -c " $e: " "$d/report")" -gt 0 "record: $e recorded"
done
cmp_num "$(grep -c -E ' (power_pack_decision|group_leader_chosen|balance_mode|lazy_balance_skip): ' "$d/report")" -gt 0 \
	"record: powersched events recorded"
ok "record: spin's phase markers recorded" grep -q 'powersched-phase: spin begin' "$d/report"
j() { jq -r "$1" "$d/run.json"; }
is "$(j .kernel)" powersched "run.json: qemu/run's kernel flavour on top"
ok "run.json: the guest's kernel release under .record" bash -c "[[ '$(j .record.kernel)' == *-powersched ]]"
is "$(j .policy) $(j .record.policy)" "powersaving powersaving" "run.json: the policy, requested and read back"
is "$(j '.record.command | join(" ")')" "spin 2 -t 3" "run.json: the recorded command"
is "$(j .burst_threshold_ns)" 100000 "run.json: the burst threshold"
ok "run.json: the sched_feats, POWER_LAZY_BALANCE among them" bash -c "jq -e '.sched_features | index(\"POWER_LAZY_BALANCE\")' '$d/run.json' >/dev/null"
is "$(j .complete) $(j .lost_events.ring_buffer) $(j '.cpus_without_switch | length')" "true 0 0" "run.json: complete, nothing lost, every cpu switched"
is "$(j .kick.cpus_switched)" 8 "run.json: 8 cpus kicked"
is "$(j .machine.cpus) $(j .machine.packages) $(j .machine.cores)" "8 2 4" "run.json: the machine's shape"
is "$(j .energy)" null "run.json: no energy counters in a guest"
is "$(awk -F'\t' '$1 == "tasks" { print $2 }' "$d/result.tsv" 2>/dev/null)" 2 "record: spin's result.tsv in the folder"
"$PS" analyze "$d/trace.dat" --phase --out "$d/analysis" >"$d/analyze.log" 2>&1
is "$?" 0 "record: powersched analyze reads the recording"
is "$(jq -r .modes.available "$d/analysis/summary.json" 2>/dev/null)" true "record: the analysis has the balance modes"
cmp_num "$(jq -r .utilization.busy_cpus "$d/analysis/summary.json" 2>/dev/null)" -ge 4.5 \
	"record: spin's 2 and the 3 pinned loops busy in the phase"

d=$TEST_TMP/limits
mkdir -p "$d" && cp "$G/record-limits.sh" "$d/"
guest "$d" --kernel vanilla --topology 1x2x2 --timeout 400 -- sh record-limits.sh ||
	fail "limits: guest run"
is "$(cat "$d/lossy.rc" 2>/dev/null)" 3 "4 KB buffers: exit status 3"
ok "4 KB buffers: said loudly" grep -q 'WARNING: EVENTS WERE LOST' "$d/lossy.out"
is "$(jq -r .complete "$d/lossy/run.json" 2>/dev/null)" false "4 KB buffers: run.json complete=false"
cmp_num "$(jq -r .lost_events.ring_buffer "$d/lossy/run.json" 2>/dev/null)" -gt 0 "4 KB buffers: the ring buffers' count of lost events"
diag "$(cat "$d/diskfull.out" 2>/dev/null)"
is "$(cat "$d/diskfull.rc" 2>/dev/null)" 3 "disk filling: exit status 3"
ok "disk filling: said so" grep -q 'STOPPED EARLY: the disk holding /tmp/small/r was nearly full' "$d/diskfull.out"
is "$(jq -r .command_stopped "$d/diskfull/run.json" 2>/dev/null)" request "disk filling: the command was stopped"
ok "disk filling: run.json says why" bash -c "jq -r .stopped_early '$d/diskfull/run.json' | grep -q 'nearly full'"
trace-cmd report -q "$d/diskfull/trace.dat" >/dev/null 2>&1
ok "disk filling: the trace kept is whole (trace-cmd reads it)" test $? = 0
cmp_num "$(jq -r .trace_events "$d/diskfull/run.json" 2>/dev/null)" -gt 10000 "disk filling: what was recorded is in it"
is "$(cat "$d/notracefs.rc" 2>/dev/null)" 1 "no tracefs: status 1"
ok "no tracefs: one line says so" grep -q 'tracefs is not mounted' "$d/notracefs.out"
