# SPDX-License-Identifier: GPL-2.0
# Helpers for the project's *.t tests (sourced).  Each check prints one TAP
# line; tests/run counts them.

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD_DIR:-$ROOT/build}
TEST_TMP=$(mktemp -d "${TMPDIR:-/tmp}/powersched-test.XXXXXX")
trap 'rm -rf "$TEST_TMP"' EXIT

pass() { echo "ok - $*"; }
fail() { echo "not ok - $*"; }
diag() { sed 's/^/# /' <<<"$*"; }

# ok DESCRIPTION COMMAND...: passes when COMMAND succeeds
ok() {
	local desc=$1; shift
	if "$@"; then pass "$desc"; else fail "$desc"; fi
}

# is GOT EXPECTED DESCRIPTION
is() {
	if [ "$1" = "$2" ]; then pass "$3"; else fail "$3"; diag "got '$1', expected '$2'"; fi
}

# cmp_num GOT OP LIMIT DESCRIPTION (OP: -ge -le -gt -lt -eq; GOT may be a decimal)
cmp_num() {
	local got=$1 op=$2 lim=$3 desc=$4
	if awk -v g="$got" -v l="$lim" -v op="$op" 'BEGIN {
		if (g == "") exit 1
		if (op == "-ge") exit !(g + 0 >= l + 0); if (op == "-le") exit !(g + 0 <= l + 0)
		if (op == "-gt") exit !(g + 0 > l + 0);  if (op == "-lt") exit !(g + 0 < l + 0)
		if (op == "-eq") exit !(g + 0 == l + 0); exit 1 }'; then
		pass "$desc ($got $op $lim)"
	else
		fail "$desc"; diag "got '$got', wanted $op $lim"
	fi
}

# guest OUTDIR [qemu/run options] -- COMMAND: boot a guest; sets GUEST_RC.
# A guest that did not finish (timeout, or no exit status: a very rare hang
# of a guest before its command ran) is booted once more, and said so.
guest() {
	local out=$1; shift
	# POWERSCHED_KERNEL=bzImage runs the tests that boot the powersched
	# kernel on another build of the series (patch work)
	if [ -n "${POWERSCHED_KERNEL:-}" ]; then
		local a args=() prev=""
		for a in "$@"; do
			[ "$prev" = --kernel ] && [ "$a" = powersched ] && a=$POWERSCHED_KERNEL
			args+=("$a"); prev=$a
		done
		set -- "${args[@]}"
	fi
	"$ROOT/qemu/run" -q --out "$out" "$@" >"$out.stdout" 2>"$out.stderr"
	GUEST_RC=$?
	if [ $GUEST_RC = 124 ] || { [ $GUEST_RC = 125 ] && grep -q 'without reporting' "$out.stderr"; }; then
		diag "the guest did not finish (qemu/run status $GUEST_RC); booting it once more"
		"$ROOT/qemu/run" -q --out "$out" "$@" >"$out.stdout" 2>"$out.stderr"
		GUEST_RC=$?
	fi
	if [ $GUEST_RC = 126 ]; then
		# a kernel error: its excerpt starts with the report's first
		# lines (BUG:, RIP:), which the run's log must keep
		diag "qemu/run $* found a kernel error (exit 126):"
		diag "$(head -n 90 "$out.stderr")"
	elif [ $GUEST_RC != 0 ]; then
		diag "qemu/run $* exited with $GUEST_RC:"
		diag "$(tail -n 20 "$out.stderr")"
	fi
	return $GUEST_RC
}

# Sanitizer settings for the ASan/UBSan builds under build/test/: fail on
# the first report.  libtracecmd's own known leaks are suppressed by name
# (analysis/tests/lsan.supp), which needs the slow unwinder to see its
# frames; an allocation above 1 GB returns NULL, as the real allocator may,
# since libtracecmd asks for whatever a corrupt header says and handles NULL.
use_sanitizers() {
	export ASAN_OPTIONS=abort_on_error=0:detect_leaks=1:fast_unwind_on_malloc=0:allocator_may_return_null=1:max_allocation_size_mb=1024
	export LSAN_OPTIONS=suppressions=$ROOT/analysis/tests/lsan.supp
	export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
}
