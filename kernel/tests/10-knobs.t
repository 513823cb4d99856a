#!/bin/bash
# The powersched kernel's knobs, in the guest: defaults, round trips,
# -EINVAL with the state unchanged; the boot parameter; the trace system.
source "$(dirname "$0")/../../tests/lib.sh"
G=$ROOT/kernel/tests/guest

mkdir -p "$TEST_TMP/knobs"
cp "$G/knobs.sh" "$TEST_TMP/knobs/"
if guest "$TEST_TMP/knobs" --kernel powersched --topology 1x2x2 --timeout 120 -- sh -c 'sh knobs.sh > tap.txt 2>&1'; then
	pass "knobs: guest ran"
else
	fail "knobs: guest ran"
fi
cat "$TEST_TMP/knobs/tap.txt" 2>/dev/null || fail "knobs: guest results"

# The event formats the plugin and the analyzer are tested on
# (tracer/tests/formats/v2) are this kernel's, enum names included: a
# value the kernel added or renamed would otherwise print as "N?" or as
# the wrong name.  Only the event ids differ from kernel to kernel.
live=$TEST_TMP/knobs/live-formats
cmp_num "$(ls "$live" 2>/dev/null | wc -l)" -eq 7 "the guest gave the formats of the seven powersched events"
for f in "$live"/*.format; do
	[ -f "$f" ] || continue
	e=$(basename "$f" .format)
	if diff <(grep -v '^ID:' "$f") <(grep -v '^ID:' "$ROOT/tracer/tests/formats/v2/$e.format") >"$TEST_TMP/$e.diff" 2>&1; then
		pass "$e: tracer/tests/formats/v2 has the kernel's format"
	else
		fail "$e: tracer/tests/formats/v2 has the kernel's format"
		diag "$(head -n 8 "$TEST_TMP/$e.diff")"
	fi
done

# The boot parameter sets the policy; a bad one is ignored with a warning.
guest "$TEST_TMP/boot" --kernel powersched --topology 1x2x1 --timeout 120 --append sched_balance_policy=powersaving -- \
	sh -c 'cat /sys/devices/system/cpu/sched_balance_policy/current_sched_balance_policy > policy.txt'
is "$(cat "$TEST_TMP/boot/policy.txt" 2>/dev/null)" powersaving "sched_balance_policy=powersaving on the command line"
guest "$TEST_TMP/bootbad" --kernel powersched --topology 1x2x1 --timeout 120 --append sched_balance_policy=fast -- \
	sh -c 'cat /sys/devices/system/cpu/sched_balance_policy/current_sched_balance_policy > policy.txt'
is "$(cat "$TEST_TMP/bootbad/policy.txt" 2>/dev/null)" performance "an unknown sched_balance_policy= keeps performance"
ok "an unknown sched_balance_policy= is reported" grep -q "unknown sched_balance_policy=fast" "$TEST_TMP/bootbad/dmesg.txt"
# qemu/run --policy goes through the same sysfs file
guest "$TEST_TMP/runpol" --kernel powersched --topology 1x2x1 --policy powersaving --timeout 120 -- \
	sh -c 'cat /sys/devices/system/cpu/sched_balance_policy/current_sched_balance_policy > policy.txt'
is "$(cat "$TEST_TMP/runpol/policy.txt" 2>/dev/null)" powersaving "qemu/run --policy powersaving sets the policy"
