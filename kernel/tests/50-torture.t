#!/bin/bash
# The debug kernel and the torture run: the checkers are really on, a
# failure is caught and reported with everything needed to replay it, and a
# short random mix (TORTURE_TEST_SECONDS, default 150) on the server
# topology passes.  The seed is random unless TORTURE_SEED is set; every
# failure prints it with the replay command.
source "$(dirname "$0")/../../tests/lib.sh"
T=$ROOT/kernel/torture
CFG=$BUILD/kernel/debug/config
SECS=${TORTURE_TEST_SECONDS:-150}

for opt in CONFIG_PROVE_LOCKING CONFIG_DEBUG_ATOMIC_SLEEP CONFIG_DEBUG_PREEMPT CONFIG_KASAN \
	   CONFIG_UBSAN CONFIG_SCHED_DEBUG CONFIG_DETECT_HUNG_TASK CONFIG_FAIR_GROUP_SCHED \
	   CONFIG_HOTPLUG_CPU CONFIG_NO_HZ_IDLE; do
	ok "debug kernel: $opt=y" grep -qx "$opt=y" "$CFG"
done
for f in vanilla powersched; do
	ok "$f kernel: cgroups with FAIR_GROUP_SCHED, cpu hotplug, NO_HZ_IDLE" \
		sh -c "grep -qx CONFIG_FAIR_GROUP_SCHED=y $BUILD/kernel/$f/config &&
		       grep -qx CONFIG_HOTPLUG_CPU=y $BUILD/kernel/$f/config &&
		       grep -qx CONFIG_NO_HZ_IDLE=y $BUILD/kernel/$f/config"
done

# The action sequence is a function of the seed (host-side dry run).
plan() { (cd "$TEST_TMP" && TORTURE_DRY_RUN=200 busybox sh "$ROOT/kernel/tests/guest/torture.sh" "$1" 60); }
plan 12345 >"$TEST_TMP/plan1"
plan 12345 >"$TEST_TMP/plan2"
plan 12346 >"$TEST_TMP/plan3"
ok "torture: one seed, one sequence of 200 actions" cmp -s "$TEST_TMP/plan1" "$TEST_TMP/plan2"
ok "torture: another seed, another sequence" sh -c "! cmp -s $TEST_TMP/plan1 $TEST_TMP/plan3"
kinds=$(sed 's/^step [0-9]*: //' "$TEST_TMP/plan1" | awk '{ print $1 }' | sort -u | tr '\n' ' ')
is "$kinds" "affinity cpu.weight hotplug move policy sched_burst_threshold_ns sched_feat start " \
	"torture: 200 actions draw on every kind of action"

# A kernel failure is caught: a crash injected at step 3.
"$T" --kernel debug --seconds 60 --seed 5 --panic-at 3 --out "$TEST_TMP/panic" >"$TEST_TMP/panic.out" 2>"$TEST_TMP/panic.err"
is "$?" 1 "torture: a crashing kernel fails the run"
ok "the failure names the kernel, the topology and the seed" \
	grep -q 'FAILED: kernel debug (6.12.[0-9]*-powersched-debug), topology server, seed 5' "$TEST_TMP/panic.err"
ok "the failure says what the kernel reported" grep -q 'kernel panic' "$TEST_TMP/panic.err"
ok "the failure shows the actions before it" \
	sh -c "grep -A8 'last actions before it:' $TEST_TMP/panic.err | grep -q 'torture: step 3: crashing the kernel on purpose'"
ok "the failure prints the console excerpt" grep -q 'Kernel panic - not syncing: sysrq triggered crash' "$TEST_TMP/panic.err"
ok "the failure prints the command that replays it" \
	grep -q 'replay: kernel/torture --kernel debug --topology server --seed 5 --seconds 60 --panic-at 3' "$TEST_TMP/panic.err"
[ -s "$TEST_TMP/panic.err" ] || diag "$(tail -n 20 "$TEST_TMP/panic.out")"

# The debug kernel's checkers are live at run time, and the mix survives.
seed=${TORTURE_SEED:-$(( $(od -An -N4 -tu4 /dev/urandom | tr -d ' ') % 2147483648 ))}
run_torture() {
	"$T" --kernel debug --topology server --seconds "$SECS" --seed "$seed" --out "$TEST_TMP/mix" \
		>"$TEST_TMP/mix.out" 2>"$TEST_TMP/mix.err"
}
run_torture
rc=$?
if [ $rc = 124 ]; then
	# qemu/run's rare stall of an idle guest (see the guest helper in
	# tests/lib.sh) looks the same as a hang: one more boot, said loudly
	diag "the torture guest stopped responding (seed $seed); booting it once more with the same seed"
	diag "$(tail -n 30 "$TEST_TMP/mix.err")"
	run_torture
	rc=$?
fi
is "$rc" 0 "torture: $SECS s of random mix on the debug kernel, server topology, seed $seed: no kernel report"
if [ $rc != 0 ]; then
	diag "$(cat "$TEST_TMP/mix.err")"
	mkdir -p "$BUILD/torture/failed"
	cp -r "$TEST_TMP/mix" "$BUILD/torture/failed/$seed-server" 2>/dev/null &&
		diag "results kept in build/torture/failed/$seed-server"
fi
D=$TEST_TMP/mix
ok "debug kernel: KASAN initialized" grep -q 'KernelAddressSanitizer initialized' "$D/dmesg.txt"
ok "debug kernel: lockdep validating" grep -q 'Lock dependency validator' "$D/dmesg.txt"
get() { awk -F'\t' -v k="$1" '$1 == k { print $2 }' "$D/torture-summary.tsv" 2>/dev/null; }
diag "mix (seed $seed): $(tr '\t\n' '= ' <"$D/torture-summary.tsv" 2>/dev/null)"
cmp_num "$(get actions)" -ge $((SECS / 6)) "torture: at least one action every 6 s"
cmp_num "$(get workloads)" -ge 1 "torture: workloads started"
cmp_num "$(get hotplug)" -ge 1 "torture: cpus went off and online"
cmp_num "$(($(get policy) + $(get feature)))" -ge 1 "torture: policy or sched_feat switches"
