#!/bin/bash
# Stress the policy: wakeup storms, policy switching under load, cpu
# hotplug under both policies.  Any oops, WARNING or BUG fails the run
# (qemu/run exits 126 and prints the console lines).
source "$(dirname "$0")/../../tests/lib.sh"
G=$ROOT/kernel/tests/guest

d=$TEST_TMP/stress
mkdir -p "$d" && cp "$G/stress.sh" "$d/"
guest "$d" --kernel powersched --topology server --timeout 480 -- sh stress.sh
rc=$GUEST_RC
is "$rc" 0 "stress: no oops, WARNING or BUG, every step succeeded"
ok "stress: the script ran to the end" test -f "$d/stress.done"
grep '^stress:' "$d/console.log" | tr -d '\r' | sed 's/^/# /'
