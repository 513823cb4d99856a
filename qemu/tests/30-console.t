#!/bin/bash
# What qemu/run counts as a kernel error in a console log: every report the
# debug kernel's checkers print, named by kind, with an excerpt that keeps
# the torture actions logged just before it.  The logs are trimmed copies
# of the checkers' report formats (no guest boots).
source "$(dirname "$0")/../../tests/lib.sh"
RUN=$ROOT/qemu/run
D=$ROOT/qemu/tests/data

check() {
	local log=$1 kind=$2 rc
	"$RUN" --check-console "$D/$log" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
	rc=$?
	is "$rc" 126 "$log: a kernel error (exit 126)"
	ok "$log: named as '$kind'" grep -q "$kind in the console" "$TEST_TMP/err"
}

check console-lockdep.log "lockdep report"
check console-kasan.log "KASAN report"
check console-ubsan.log "UBSAN report"
check console-hung.log "hung task"
check console-rcu.log "RCU stall"
check console-schedwarn.log "WARNING"
check console-atomic-sleep.log "BUG"

"$RUN" --check-console "$D/console-lockdep.log" 2>"$TEST_TMP/err" >/dev/null
ok "the excerpt keeps the torture action before the report" grep -q 'torture: step 57: cpu3 going offline' "$TEST_TMP/err"
ok "the excerpt has the report's lines after its first" grep -q 'sched_balance_policy_store' "$TEST_TMP/err"

"$RUN" --check-console "$D/console-clean.log" >"$TEST_TMP/out" 2>&1
is "$?" 0 "a clean console (WARNING:/BUG: printed by a program, not the kernel) is no error"

"$RUN" --check-console "$TEST_TMP/missing.log" >/dev/null 2>"$TEST_TMP/err"
is "$?" 125 "a console log that does not exist: exit 125"
ok "the error names the file" grep -q 'missing.log: cannot read it' "$TEST_TMP/err"

# An oops in interrupt context: the panic follows it.  A summary of a failed
# run (run-cell, the matrix) shows where the kernel failed, not the panic's
# last lines only.
check console-pagefault.log "BUG, then a kernel panic"
"$RUN" --check-console "$D/console-pagefault.log" >/dev/null 2>"$TEST_TMP/run.log"
source "$ROOT/qemu/kernel-errors.sh"
run_log_excerpt "$TEST_TMP/run.log" >"$TEST_TMP/excerpt"
ok "a run's failure excerpt starts at qemu/run's error line" bash -c "head -n1 '$TEST_TMP/excerpt' | grep -q '^qemu/run: error:'"
ok "it has the faulting address" grep -q 'unable to handle page fault for address: 000055d1c38b9070' "$TEST_TMP/excerpt"
ok "it has the RIP" grep -q 'RIP: 0010:update_sd_lb_stats' "$TEST_TMP/excerpt"
printf 'spin: 1 tasks\nsome tail line\n' >"$TEST_TMP/plain.log"
is "$(run_log_excerpt "$TEST_TMP/plain.log" | tail -n1)" "some tail line" "a log without qemu/run's error line: its last lines"
