#!/bin/bash
# powersched export --perfetto: the file is JSON in the Trace Event Format,
# and its task slices, migrations and powersched events are the trace's,
# counted independently from trace-cmd report.
source "$(dirname "$0")/../../tests/lib.sh"
source "$(dirname "$0")/crafted.sh"
use_sanitizers
DATA=$ROOT/analysis/tests/data

# expected counts from trace-cmd report -N (the kernel's own print formats)
expect() {	# expect TRACE: "slices migrations decisions"
	trace-cmd report -N "$1" 2>/dev/null | awk '
		match($0, / \[[0-9]+\] /) { cpu = substr($0, RSTART + 2, RLENGTH - 4) + 0 }
		/ sched_switch: / {
			split($0, a, "prev_pid="); split(a[2], b, " "); prev = b[1]
			split($0, a, "next_pid="); split(a[2], b, " "); next_pid = b[1]
			if (!(cpu in seen)) { seen[cpu] = 1; if (prev != 0) slices++ }
			if (next_pid != 0) slices++
		}
		/ sched_migrate_task: / {
			split($0, a, "orig_cpu="); split(a[2], b, " "); o = b[1]
			split($0, a, "dest_cpu="); split(a[2], b, " "); d = b[1]
			if (o != d) mig++
		}
		/ (power_pack_decision|group_leader_chosen|balance_mode|lazy_balance_skip|balance_outcome|balance_migrate|policy_change): / { dec++ }
		END { printf "%d %d %d\n", slices, mig, dec }'
}
# counts in the export: "slices migrations decisions"
counts() {
	jq -r '[([.traceEvents[] | select(.ph == "X" and .cat == "sched")] | length),
		([.traceEvents[] | select(.ph == "X" and .cat == "migration" and .flow_out)] | length),
		([.traceEvents[] | select(.ph == "i" and .cat == "powersched")] | length)] | map(tostring) | join(" ")' "$1"
}

for t in pack2-powersaving pinned-vanilla spin2-powersaving; do
	f=$TEST_TMP/$t.json
	"$PS" export "$DATA/$t/trace.dat" --perfetto "$f" >"$TEST_TMP/$t.out" 2>&1
	is "$?" 0 "$t: export succeeds"
	ok "$t: the file is JSON" jq -e '.traceEvents | length > 0' "$f" >/dev/null
	is "$(counts "$f")" "$(expect "$DATA/$t/trace.dat")" "$t: task slices, migrations and powersched events are the trace's"
	ok "$t: every event has ph, pid and ts (or is metadata)" \
		jq -e '[.traceEvents[] | select(.ph != "M" and (.pid == null or .ts == null))] | length == 0' "$f" >/dev/null
	ok "$t: no slice has a negative duration" jq -e '[.traceEvents[] | select(.ph == "X" and .dur < 0)] | length == 0' "$f" >/dev/null
	ok "$t: every migration flow has both ends" \
		jq -e '([.traceEvents[] | select(.flow_out)] | map(.bind_id) | sort) == ([.traceEvents[] | select(.flow_in)] | map(.bind_id) | sort)' "$f" >/dev/null
	ok "$t: the cpus are named tracks" jq -e '[.traceEvents[] | select(.ph == "M" and .name == "thread_name")] | length >= 8' "$f" >/dev/null
done
f=$TEST_TMP/pack2-powersaving.json
ok "pack2: busy-cpu counters per package" jq -e '[.traceEvents[] | select(.ph == "C" and (.name | startswith("package 1 busy")))] | length > 0' "$f" >/dev/null
ok "pack2: busy-cpu counters per core" jq -e '[.traceEvents[] | select(.ph == "C" and (.name | test("^core [0-9]+ busy cpus$")))] | length > 0' "$f" >/dev/null
ok "pack2: a core counts at most its 2 SMT cpus busy" \
	jq -e '[.traceEvents[] | select(.ph == "C" and (.name | startswith("core "))) | .args[]] | (min >= 0 and max <= 2)' "$f" >/dev/null
ok "pack2: a balance mode track per domain level" jq -e '[.traceEvents[] | select(.ph == "C" and (.name | startswith("mode ")))] | length > 0' "$f" >/dev/null
ok "pack2: powersched events carry their fields and enum names" \
	jq -e '[.traceEvents[] | select(.name == "balance_mode")][0].args | has("why") and has("why_name") and has("domain")' "$f" >/dev/null

# a crafted trace: every kind, exact counts, and the v2 events' fields
craft ex <<EOF
$(known_at 1.0)
0 1.1 sched_switch prev_pid=0 next_comm=a next_pid=100
0 1.2 balance_migrate comm=b pid=200 src_cpu=4 dst_cpu=0 level=5 domain=NUMA idle=0 mode=1 active=0
0 1.2 sched_migrate_task comm=b pid=200 orig_cpu=4 dest_cpu=0
0 1.3 power_pack_decision comm=c pid=300 origin=2 prev_cpu=1 waking_cpu=0 chosen_cpu=-1 level=0 domain=SMT util=5 burst_cpus=0-1 reason=9
0 1.4 sched_switch prev_comm=a prev_pid=100 prev_state=1 next_pid=0
EOF
"$PS" export "$TEST_TMP/ex/trace.dat" --perfetto "$TEST_TMP/ex.json" >"$TEST_TMP/ex.out" 2>&1
is "$?" 0 "crafted: export succeeds"
is "$(counts "$TEST_TMP/ex.json")" "9 1 2" "crafted: a kworker slice on each cpu and a's, one migration, two powersched events"
is "$(jq -r '[.traceEvents[] | select(.name == "power_pack_decision")][0].args | "\(.reason_name) \(.burst_cpus)"' "$TEST_TMP/ex.json")" \
	"9? 0-1" "crafted: an unknown reason is 'N?', a cpumask a cpu list"
is "$(jq -r '[.traceEvents[] | select(.cat == "sched" and .name == "a:100")][0] | "\(.ts) \(.dur)"' "$TEST_TMP/ex.json")" \
	"100000 300000" "crafted: a's slice from 0.1 s to 0.4 s, in microseconds"

# bad input: a clear error, no file left
"$PS" export "$TEST_TMP/ex/trace.dat" --perfetto /dev/full >/dev/null 2>"$TEST_TMP/full.err"
ok "a full disk: export fails and says so" grep -q "/dev/full: write error: No space left on device" "$TEST_TMP/full.err"
ok "and the device is not removed as a partial output" [ -c /dev/full ]
craft excrash <<EOF
$(known_at 1.0)
1 1.2 @garbage
1 1.3 sched_switch prev_pid=0 next_pid=101
EOF
"$PS" export "$TEST_TMP/excrash/trace.dat" --perfetto "$TEST_TMP/excrash.json" >/dev/null 2>"$TEST_TMP/excrash.err"
rc=$?
ok "a trace that crashes libtraceevent: exit 1, no crash" [ $rc = 1 ]
ok "and says where" grep -q "corrupt trace: .* at about offset" "$TEST_TMP/excrash.err"
ok "and leaves no file" [ ! -e "$TEST_TMP/excrash.json" ]
"$PS" export "$DATA/pinned-vanilla/trace.dat" >/dev/null 2>&1
is "$?" 2 "without --perfetto: usage, exit 2"
