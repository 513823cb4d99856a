#!/bin/bash
# powersched record on the host, without tracing the host: a fixture
# machine under $POWERSCHED_SYSROOT (tracefs files, a powercap zone, the
# server guest's sysfs topology) and a stand-in for trace-cmd
# (fake-trace-cmd) that runs the recorded command as trace-cmd would and
# writes a stored trace.  What is checked: one clear line for each bad
# environment, the event set passed to trace-cmd, run.json (escaped,
# complete), the ring buffer's losses read after the recording, tracefs
# restored, energy.tsv, the result copy, --duration and an interrupt.
# The real recording is tested in guests (qemu/tests/40-record.t).
source "$(dirname "$0")/../../tests/lib.sh"
use_sanitizers
PS=$BUILD/test/powersched
DATA=$ROOT/analysis/tests/data
export POWERSCHED_TRACE_CMD=$ROOT/analysis/tests/fake-trace-cmd
export FAKE_ARGS=$TEST_TMP/args FAKE_TRACE=$DATA/pinned-vanilla/trace.dat
# never the host's own tracefs: by default a machine without one
mkdir -p "$TEST_TMP/empty"
export POWERSCHED_SYSROOT=$TEST_TMP/empty

# A fixture machine: one online cpu (the kick really pins a task to cpu 0
# of this host), the server guest's topology, tracefs with the sched and
# power:cpu_idle events but no powersched or cpu_frequency, one RAPL zone.
mk_sysroot() {
	local r=$1 t
	cp -r "$DATA/topology/server/sysroot" "$r"
	echo 0 >"$r/sys/devices/system/cpu/online"
	t=$r/sys/kernel/tracing
	for e in sched/sched_switch sched/sched_waking sched/sched_wakeup sched/sched_wakeup_new \
		sched/sched_migrate_task power/cpu_idle; do
		mkdir -p "$t/events/$e" && echo 0 >"$t/events/$e/enable"
	done
	echo 0 >"$t/events/enable"
	echo 0 >"$t/events/sched/enable"
	echo 0 >"$t/events/power/enable"
	: >"$t/trace_marker"
	echo "old contents" >"$t/trace"
	echo "[local] global counter uptime perf mono mono_raw boot" >"$t/trace_clock"
	echo 1408 >"$t/buffer_size_kb"
	echo 1 >"$t/tracing_on"
	mkdir -p "$t/per_cpu/cpu0"
	printf 'entries: 0\noverrun: 0\ncommit overrun: 0\nbytes: 0\ndropped events: 0\nread events: 1234\n' >"$t/per_cpu/cpu0/stats"
	mkdir -p "$r/sys/devices/system/cpu/sched_balance_policy" "$r/sys/kernel/debug/sched" \
		"$r/sys/class/powercap/intel-rapl:0" "$r/sys/class/dmi/id" \
		"$r/sys/devices/system/cpu/cpuidle" "$r/sys/devices/system/cpu/cpu0/cpuidle/state0" \
		"$r/sys/devices/system/cpu/cpu0/cpuidle/state1"
	echo powersaving >"$r/sys/devices/system/cpu/sched_balance_policy/current_sched_balance_policy"
	echo "performance powersaving" >"$r/sys/devices/system/cpu/sched_balance_policy/available_sched_balance_policy"
	echo "PLACE_LAG NO_POWER_LAZY_BALANCE POWER_PACK_TRANSITORY" >"$r/sys/kernel/debug/sched/features"
	echo 100000 >"$r/proc/sys/kernel/sched_burst_threshold_ns"
	printf 'processor\t: 0\nmodel name\t: Fixture CPU "quoted" @ 1.00GHz\n' >"$r/proc/cpuinfo"
	printf 'MemTotal: 2097152 kB\nMemAvailable: 1048576 kB\n' >"$r/proc/meminfo"
	echo "Fixture Vendor" >"$r/sys/class/dmi/id/sys_vendor"
	printf 'Model\twith tab\n' >"$r/sys/class/dmi/id/product_name"
	echo intel_idle >"$r/sys/devices/system/cpu/cpuidle/current_driver"
	echo menu >"$r/sys/devices/system/cpu/cpuidle/current_governor"
	echo POLL >"$r/sys/devices/system/cpu/cpu0/cpuidle/state0/name"
	echo C1E >"$r/sys/devices/system/cpu/cpu0/cpuidle/state1/name"
	echo package-0 >"$r/sys/class/powercap/intel-rapl:0/name"
	echo 262143328850 >"$r/sys/class/powercap/intel-rapl:0/max_energy_range_uj"
	echo 1000000 >"$r/sys/class/powercap/intel-rapl:0/energy_uj"
}

# bad ENV_ASSIGNMENTS... -- ARGS: record refuses with status 1 (or $RC) and
# one line on stderr matching $PATTERN
refuse() {
	local desc=$1 pattern=$2 want=$3; shift 3
	local out=$TEST_TMP/refuse.err rc
	"$@" >/dev/null 2>"$out"
	rc=$?
	if [ "$rc" = "$want" ] && grep -q -- "$pattern" "$out"; then
		pass "$desc"
	else
		fail "$desc"
		diag "status $rc (wanted $want), stderr: $(cat "$out")"
	fi
	# one line of its own (usage text aside; trace-cmd may add its own)
	[ "$(grep -c '^powersched: ' "$out")" -le 1 ] || { fail "$desc: one line"; diag "$(cat "$out")"; }
}

# --- bad environments and options: one clear line each
refuse "not root: refused" "must run as root" 1 \
	setpriv --reuid=65534 --regid=65534 --clear-groups "$PS" record -o "$TEST_TMP/x" -- true
refuse "no tracefs: refused" "tracefs is not mounted" 1 \
	env POWERSCHED_SYSROOT="$TEST_TMP/empty" "$PS" record -o "$TEST_TMP/x" -- true
R=$TEST_TMP/root
mk_sysroot "$R"
rm -r "$R/sys/kernel/tracing/events/sched/sched_waking"
refuse "a missing sched event: refused, named" "no event sched:sched_waking" 1 \
	env POWERSCHED_SYSROOT="$R" "$PS" record -o "$TEST_TMP/x" -- true
mkdir -p "$R/sys/kernel/tracing/events/sched/sched_waking" && echo 0 >"$R/sys/kernel/tracing/events/sched/sched_waking/enable"
refuse "--events naming a missing event: refused" "no event irq:irq_handler_entry" 1 \
	env POWERSCHED_SYSROOT="$R" "$PS" record -o "$TEST_TMP/x" --events +irq:irq_handler_entry -- true
refuse "--events with a bad entry" "not SYSTEM or SYSTEM:EVENT" 1 \
	env POWERSCHED_SYSROOT="$R" "$PS" record -o "$TEST_TMP/x" --events 'sched:' -- true
refuse "--duration not a number" "--duration 'x'" 2 "$PS" record --duration x
refuse "--duration 0" "--duration '0'" 2 "$PS" record --duration 0
refuse "--buffer-kb 0" "--buffer-kb '0'" 2 "$PS" record --buffer-kb 0
refuse "--energy-interval 0" "--energy-interval '0'" 2 "$PS" record --energy-interval 0
refuse "nothing after --" "no command after --" 2 "$PS" record --
refuse "an unknown option" "usage:" 2 "$PS" record --frobnicate
refuse "--buffer-kb beyond half the memory" "more than half the available memory" 1 \
	env POWERSCHED_SYSROOT="$R" "$PS" record -o "$TEST_TMP/x" --buffer-kb 1000000 -- true
touch "$TEST_TMP/afile"
refuse "an output folder that cannot be made" "cannot create or write the results folder" 1 \
	env POWERSCHED_SYSROOT="$R" "$PS" record -o "$TEST_TMP/afile/sub" -- true
refuse "trace-cmd failing: said, status 1" "trace-cmd record failed (exit status 1): no trace.dat written" 1 \
	env POWERSCHED_SYSROOT="$R" FAKE_FAIL=1 "$PS" record -o "$TEST_TMP/fails" -- true
ok "trace-cmd failing: no run.json passed off as a recording" test ! -e "$TEST_TMP/fails/run.json"
refuse "trace-cmd missing: said" "trace-cmd is not installed (no /nonexistent/trace-cmd in PATH)" 1 \
	env POWERSCHED_SYSROOT="$R" POWERSCHED_TRACE_CMD=/nonexistent/trace-cmd "$PS" record -o "$TEST_TMP/notc" -- true

# tracefs lists every clock, whatever the last write (a fixture file keeps it)
echo "[local] global counter uptime perf mono mono_raw boot" >"$R/sys/kernel/tracing/trace_clock"

# --- a recording: the command changes the energy counter half-way
D=$TEST_TMP/run1
work=$TEST_TMP/work && mkdir -p "$work"
cat >"$work/job.sh" <<EOF
sleep 0.4
echo 5000000 >"$R/sys/class/powercap/intel-rapl:0/energy_uj"
sleep 0.4
printf 'runtime_s\t0.8\n' >result.tsv
EOF
(cd "$work" && POWERSCHED_SYSROOT="$R" "$PS" record -o "$D" -- sh job.sh 'quote"d' $'tab\there' >"$TEST_TMP/run1.out" 2>&1)
is "$?" 0 "record: exit status 0"
diag "$(cat "$TEST_TMP/run1.out")"
for f in trace.dat topology.tsv run.json energy.tsv result.tsv; do
	ok "record: $f written" test -s "$D/$f"
done
ok "record: run.json is valid JSON" jq -e . "$D/run.json" >/dev/null
j() { jq -r "$1" "$D/run.json"; }
is "$(j .format)" powersched-run-1 "run.json: format"
is "$(j .kernel)" "$(cat "$R/proc/sys/kernel/osrelease")" "run.json: kernel release"
is "$(j .policy)" powersaving "run.json: the policy"
is "$(j '.sched_features | join(" ")')" "PLACE_LAG NO_POWER_LAZY_BALANCE POWER_PACK_TRANSITORY" "run.json: sched_features"
is "$(j .burst_threshold_ns)" 100000 "run.json: burst threshold"
is "$(j .machine.model)" 'Fixture CPU "quoted" @ 1.00GHz' "run.json: machine model, quotes escaped"
is "$(j .machine.product)" $'Model\twith tab' "run.json: DMI product, tab escaped"
is "$(j '[.machine.cpus, .machine.packages, .machine.cores, .machine.numa_nodes] | join(" ")')" "8 2 4 2" \
	"run.json: cpus, packages, cores, nodes of the topology written"
is "$(j '.cpuidle.states | join(",")')" "POLL,C1E" "run.json: cpuidle state names"
is "$(j '.command | join("|")')" "sh|job.sh|quote\"d|$(printf 'tab\there')" "run.json: the command, each argument escaped"
is "$(j .command_status)" 0 "run.json: the command's exit status"
is "$(j .trace_clock)" mono "run.json: trace clock mono (the kernel has it)"
is "$(j .buffer_kb)" 8192 "run.json: buffer 1/16 of the available memory over 1 cpu, capped at 8192 KB"
is "$(j '.events | join(",")')" "sched:sched_switch,sched:sched_waking,sched:sched_wakeup,sched:sched_wakeup_new,sched:sched_migrate_task,power:cpu_idle" \
	"run.json: the events recorded"
is "$(j '.events_missing | join(",")')" "powersched,power:cpu_frequency" "run.json: the events this kernel lacks"
is "$(j .kick.cpus_switched)" 1 "run.json: the one online cpu was made to switch"
is "$(j .complete)" true "run.json: complete"
is "$(j .lost_events.ring_buffer)" 0 "run.json: nothing lost"
is "$(j .result)" result.tsv "run.json: the workload's result copied"
is "$(cat "$D/result.tsv")" "$(printf 'runtime_s\t0.8')" "result.tsv copied from the working directory"
is "$(j .trace_events)" "$(trace-cmd report -q "$FAKE_TRACE" 2>/dev/null | grep -c ': ')" "run.json: events read back = trace-cmd report's"
ok "trace-cmd got -k, -C mono, --compression none, the buffer size" \
	grep -qzP -- '-k\n-C\nmono\n-b\n8192\n--compression\nnone\n' "$FAKE_ARGS"
is "$(grep -A1 -x -- -e "$FAKE_ARGS" | grep -v -x -- -e | grep -v -x -- -- | tr '\n' ' ')" \
	"sched:sched_switch sched:sched_waking sched:sched_wakeup sched:sched_wakeup_new sched:sched_migrate_task power:cpu_idle " \
	"trace-cmd got exactly the present events"
ok "record-exec left its markers in trace_marker" grep -q 'powersched-record: command start' "$R/sys/kernel/tracing/trace_marker"
diff <(grep -v '^# kernel' "$D/topology.tsv") <(grep -v '^# kernel' "$DATA/topology/server/topology.tsv") >/dev/null
ok "topology.tsv is the machine's (the server fixture)" test $? = 0
# tracefs as trace-cmd without -k would leave it, and what it changed restored
is "$(cat "$R/sys/kernel/tracing/events/enable")" 0 "tracefs: events disabled afterwards"
is "$(cat "$R/sys/kernel/tracing/trace" | wc -c)" 0 "tracefs: the buffer cleared afterwards"
is "$(cat "$R/sys/kernel/tracing/buffer_size_kb")" 1408 "tracefs: buffer size restored"
is "$(cat "$R/sys/kernel/tracing/trace_clock")" local "tracefs: clock restored"
is "$(cat "$R/sys/kernel/tracing/tracing_on")" 1 "tracefs: tracing_on restored"
# in the project's guests (POWERSCHED_RECORD_KEEP_EVENTS=1): the events
# stay on, as trace-cmd -k left them, with tracing off: turning them off
# would live-patch their call sites (analysis/record.c)
echo 1 >"$R/sys/kernel/tracing/events/enable"
(cd "$work" && POWERSCHED_SYSROOT="$R" POWERSCHED_RECORD_KEEP_EVENTS=1 "$PS" record -o "$TEST_TMP/keep" -- true >"$TEST_TMP/keep.out" 2>&1)
is "$?" 0 "record keeping the events: exit status 0"
is "$(cat "$R/sys/kernel/tracing/events/enable") $(cat "$R/sys/kernel/tracing/tracing_on") $(wc -c <"$R/sys/kernel/tracing/trace")" \
	"1 0 0" "record keeping the events: events still on, tracing off, the buffer cleared"
is "$(cat "$R/sys/kernel/tracing/buffer_size_kb") $(cat "$R/sys/kernel/tracing/trace_clock")" "1408 local" \
	"record keeping the events: buffer size and clock restored"
echo 0 >"$R/sys/kernel/tracing/events/enable"
echo 1 >"$R/sys/kernel/tracing/tracing_on"
# energy: 1 J -> 5 J during the command
ok "energy.tsv: one zone" grep -qP '^zone\t0\tpackage-0\tintel-rapl:0\t262143328850$' "$D/energy.tsv"
cmp_num "$(grep -c '^sample' "$D/energy.tsv")" -ge 6 "energy.tsv: sampled every 100 ms over about a second"
is "$(awk -F'\t' '$1=="sample" {v=$3} END {print v}' "$D/energy.tsv")" 5000000 "energy.tsv: the last sample has the counter's end value"
ok "record printed the zone's energy: 4 J" grep -q 'energy package-0: 4.000 J' "$TEST_TMP/run1.out"
is "$(j .energy.zones[0])" package-0 "run.json: the energy zone"

# --- the ring buffer lost events: said loudly, status 3, run.json incomplete
printf 'entries: 0\noverrun: 17\ncommit overrun: 0\nbytes: 0\ndropped events: 3\n' >"$R/sys/kernel/tracing/per_cpu/cpu0/stats"
D=$TEST_TMP/lossy
POWERSCHED_SYSROOT="$R" "$PS" record -o "$D" -- true >"$TEST_TMP/lossy.out" 2>&1
is "$?" 3 "lost events: exit status 3"
ok "lost events: said loudly" grep -q 'WARNING: EVENTS WERE LOST: 20 by the ring buffers' "$TEST_TMP/lossy.out"
is "$(jq -r '.complete, .lost_events.ring_buffer, .lost_events.per_cpu[0].overrun' "$D/run.json" | tr '\n' ' ')" "false 20 17 " \
	"lost events: run.json complete=false with the counts"
# the next run's buffer: at least twice what the reader fell behind by
suggest() { sed -n 's/.*record again with --buffer-kb \([0-9]*\) or more (it was \([0-9]*\);.*/\1 \2/p' "$1"; }
read -r small was <<<"$(suggest "$TEST_TMP/lossy.out")"
diag "20 lost: --buffer-kb $small suggested, the buffer was $was KB"
cmp_num "${small:-0}" -ge "$((2 * ${was:-1}))" "lost events: the suggested buffer is at least twice the one used"
printf 'entries: 0\noverrun: 4000000\ncommit overrun: 0\nbytes: 0\ndropped events: 0\n' >"$R/sys/kernel/tracing/per_cpu/cpu0/stats"
POWERSCHED_SYSROOT="$R" "$PS" record -o "$TEST_TMP/lossy2" -- true >"$TEST_TMP/lossy2.out" 2>&1
read -r big was2 <<<"$(suggest "$TEST_TMP/lossy2.out")"
diag "4 million lost: --buffer-kb $big suggested"
cmp_num "${big:-0}" -gt "${small:-0}" "lost events: more lost, a larger buffer suggested"
ok "lost events: the busiest cpu's event rate is said" grep -q 'the busiest cpu wrote [0-9]* events a second' "$TEST_TMP/lossy2.out"
printf 'entries: 0\noverrun: 0\ncommit overrun: 0\nbytes: 0\ndropped events: 0\n' >"$R/sys/kernel/tracing/per_cpu/cpu0/stats"

# --- a kernel with the series and cpufreq: the powersched system and
# power:cpu_frequency are recorded too
R2=$TEST_TMP/sysroot-full
mk_sysroot "$R2"
for e in powersched/balance_mode powersched/power_pack_decision power/cpu_frequency; do
	mkdir -p "$R2/sys/kernel/tracing/events/$e" && echo 0 >"$R2/sys/kernel/tracing/events/$e/enable"
done
echo 0 >"$R2/sys/kernel/tracing/events/powersched/enable"
D=$TEST_TMP/full
POWERSCHED_SYSROOT="$R2" "$PS" record -o "$D" -- true >"$TEST_TMP/full.out" 2>&1
is "$?" 0 "full kernel: exit status 0"
is "$(jq -r '.events | join(",")' "$D/run.json")" \
	"sched:sched_switch,sched:sched_waking,sched:sched_wakeup,sched:sched_wakeup_new,sched:sched_migrate_task,powersched,power:cpu_idle,power:cpu_frequency" \
	"full kernel: run.json lists powersched and power:cpu_frequency among the events recorded"
is "$(jq -r '.events_missing | length' "$D/run.json")" 0 "full kernel: no event missing"
is "$(grep -A1 -x -- -e "$FAKE_ARGS" | grep -v -x -- -e | grep -v -x -- -- | tr '\n' ' ')" \
	"sched:sched_switch sched:sched_waking sched:sched_wakeup sched:sched_wakeup_new sched:sched_migrate_task powersched power:cpu_idle power:cpu_frequency " \
	"full kernel: trace-cmd got the powersched system and power:cpu_frequency"

# --- a trace in which no cpu switched: warned
D=$TEST_TMP/noswitch
FAKE_TRACE=$DATA/noswitch-vanilla/trace.dat POWERSCHED_SYSROOT="$R" "$PS" record -o "$D" -- true >"$TEST_TMP/nosw.out" 2>&1
ok "a cpu without sched_switch: warned" grep -q 'cpus 0 show no sched_switch' "$TEST_TMP/nosw.out"
is "$(jq -c .cpus_without_switch "$D/run.json")" "[0]" "run.json: cpus_without_switch"

# --- the command's own failure is the exit status; --duration stops a long command
POWERSCHED_SYSROOT="$R" "$PS" record -o "$TEST_TMP/f7" -- sh -c 'exit 7' >/dev/null 2>&1
is "$?" 7 "the command's exit status 7 is record's"
is "$(jq .command_status "$TEST_TMP/f7/run.json")" 7 "run.json: command_status 7"
POWERSCHED_SYSROOT="$R" "$PS" record -o "$TEST_TMP/nocmd" -- /nonexistent/prog >"$TEST_TMP/nocmd.out" 2>&1
is "$?" 127 "a command that cannot run: status 127"
ok "a command that cannot run: said" grep -q "cannot run '/nonexistent/prog'" "$TEST_TMP/nocmd.out"
start=$SECONDS
POWERSCHED_SYSROOT="$R" "$PS" record -o "$TEST_TMP/dur" --duration 1 -- sleep 60 >/dev/null 2>&1
is "$?" 0 "--duration 1 on sleep 60: status 0"
cmp_num "$((SECONDS - start))" -le 10 "--duration 1 on sleep 60: stopped in time"
is "$(jq -r '.command_stopped, .duration_limit_s' "$TEST_TMP/dur/run.json" | tr '\n' ' ')" "duration 1 " "run.json: stopped by the duration"
POWERSCHED_SYSROOT="$R" "$PS" record -o "$TEST_TMP/dur2" --duration 0.5 >/dev/null 2>&1
is "$?" 0 "--duration without a command: records that long"
is "$(jq -r .command "$TEST_TMP/dur2/run.json")" null "run.json: no command"
# an interrupt: the command is stopped, the recording kept, said so
POWERSCHED_SYSROOT="$R" "$PS" record -o "$TEST_TMP/int" -- sleep 60 >"$TEST_TMP/int.out" 2>&1 &
rp=$!
sleep 1.5
kill -INT $rp
wait $rp
is "$?" 0 "SIGINT: record ends with status 0"
is "$(jq -r '.interrupted, .command_stopped' "$TEST_TMP/int/run.json" | tr '\n' ' ')" "true request " "SIGINT: run.json says interrupted, the command stopped"
ok "SIGINT: trace.dat kept" test -s "$TEST_TMP/int/trace.dat"
