#!/bin/bash
# A guest that does not finish: before qemu/run kills it at --timeout, it
# captures the vCPUs' state from QEMU's monitor (hang-monitor.txt) and the
# guest kernel's task stacks through sysrq on the console, so that a hang
# in the soak (qemu/soak) can be read afterwards.  One boot of ~35 s.
source "$(dirname "$0")/../../tests/lib.sh"

out=$TEST_TMP/hang
"$ROOT/qemu/run" -q --kernel powersched --topology server --timeout 25 --out "$out" -- sleep 600 \
	>"$TEST_TMP/run.out" 2>"$TEST_TMP/run.err"
is "$?" 124 "a guest still sleeping at --timeout: qemu/run exits 124"
ok "the error points at the hang's state" grep -q 'its state before: .*hang-monitor.txt' "$TEST_TMP/run.err"
m=$out/hang-monitor.txt
ok "hang-monitor.txt written" test -s "$m"
ok "monitor: the run state" grep -q 'VM status: running' "$m"
is "$(grep -c '^\* CPU #[0-9]*:\|^  CPU #[0-9]*:' "$m")" 8 "monitor: info cpus lists the 8 vCPUs"
is "$(grep -c '^RIP=' "$m")" 8 "monitor: info registers -a gives the registers of the 8 vCPUs"
c=$out/console.log
ok "console: sysrq raised the log level" grep -q 'sysrq: Changing Loglevel' "$c"
ok "console: sysrq w, the blocked tasks" grep -q 'sysrq: Show Blocked State' "$c"
ok "console: sysrq t, every task's state" grep -q 'sysrq: Show State' "$c"
ok "console: the guest command's task with its stack (task:sleep)" grep -q 'task:sleep .*state:S' "$c"
ok "console: sysrq l, the cpus' backtraces" grep -q 'sysrq: Show backtrace of all active CPUs' "$c"
# the dump is evidence, not a kernel error: the verdict stays the timeout
is "$(jq -r .verdict "$out/run.json")" timeout "run.json: verdict timeout"
