# SPDX-License-Identifier: GPL-2.0
#
# qemu/kernel-errors.sh (sourced): what counts as a kernel error in a guest's
# console log, for qemu/run (its exit status 126 and --check-console) and
# kernel/torture (the mix's actions before the first error), and for
# workloads/run-cell and workloads/matrix (the excerpt of a failed run).

# Kernel messages carry a printk timestamp; the command's own output does not,
# so a program that prints "BUG:" is not mistaken for the kernel.  What counts
# as a kernel error: panics, oopses, every WARNING: (WARN_ON, SCHED_WARN_ON,
# lockdep's reports) and BUG: (KASAN, soft lockups, sleeping in atomic
# context, smp_processor_id() in preemptible code), UBSAN reports, hung
# tasks and RCU stalls.
KERNEL_ERROR_RE='Kernel panic|Oops|WARNING:|BUG:|general protection fault|UBSAN:|INFO: task .* blocked for more than|rcu: INFO: .*detected stall|detected stalls on CPUs|Call Trace'

# kernel_errors CONSOLE: the kernel-error lines of a console log
kernel_errors() {
	tr -d '\r' <"$1" | grep -E "^\[ *[0-9]+\.[0-9]+\] .*($KERNEL_ERROR_RE)" || true
}

# error_kind LINES: what the first of the kernel-error LINES reports, and
# whether the kernel panicked after it
error_kind() {
	local first=${1%%$'\n'*} kind
	kind=$(error_kind_of "$first")
	if [ "$kind" != "kernel panic" ] && [[ "$1" == *'Kernel panic'* ]]; then
		kind="$kind, then a kernel panic"
	fi
	echo "$kind"
}

error_kind_of() {
	case "$1" in
	*'Kernel panic'*)			echo "kernel panic" ;;
	*'BUG: KASAN'*)				echo "KASAN report" ;;
	*'UBSAN:'*)				echo "UBSAN report" ;;
	*'possible circular locking'*|*'possible recursive locking'*|*'inconsistent lock state'*|\
	*'lock held when returning'*|*'suspicious RCU usage'*|*'bad unlock balance'*|*'lockdep'*)
						echo "lockdep report" ;;
	*'blocked for more than'*)		echo "hung task" ;;
	*'detected stall'*)			echo "RCU stall" ;;
	*'soft lockup'*)			echo "soft lockup" ;;
	*'BUG:'*)				echo "BUG" ;;
	*'WARNING:'*)				echo "WARNING" ;;
	*)					echo "oops" ;;
	esac
}

# console_excerpt CONSOLE: each error with the kernel lines that follow it
console_excerpt() {
	tr -d '\r' <"$1" | grep -E -B4 -A14 "^\[ *[0-9]+\.[0-9]+\] .*($KERNEL_ERROR_RE)" |
		grep -E '^\[|^--' | head -60 | sed 's/^/  /'
}

# first_error_line CONSOLE: the line number of the first kernel error (empty
# when there is none)
first_error_line() {
	tr -d '\r' <"$1" | grep -n -E "^\[ *[0-9]+\.[0-9]+\] .*($KERNEL_ERROR_RE)" | head -n1 | cut -d: -f1
}

# run_log_excerpt LOG [LINES]: why a saved qemu/run output (a cell's
# qemu-run.log) failed, for a summary.  Its end is the excerpt's end, past
# the oops line and RIP that say where the kernel failed, so this starts at
# qemu/run's error line; a log without one shows its last lines.
run_log_excerpt() {
	local n=${2:-24}
	if grep -q '^qemu/run: error:' "$1"; then
		sed -n '/^qemu\/run: error:/,$p' "$1" | head -n "$n"
	else
		tail -n 5 "$1"
	fi
}
