#!/bin/bash
# qemu/run reports what happened in the guest: the command's exit status,
# a kernel panic, a timeout, and bad input on its own command line.
source "$(dirname "$0")/../../tests/lib.sh"
RUN=$ROOT/qemu/run

# A failing guest command makes qemu/run fail with the command's status.
"$RUN" -q --kernel vanilla --topology 1x2x1 --out "$TEST_TMP/fail" --timeout 300 -- sh -c 'echo to-stdout; exit 7' \
	>"$TEST_TMP/fail.out" 2>"$TEST_TMP/fail.err"
is "$?" 7 "a guest command that exits 7 makes qemu/run exit 7"
ok "the command's output is in console.log" grep -q '^to-stdout' "$TEST_TMP/fail/console.log"

# Arguments reach the guest intact, quotes and spaces included.
"$RUN" -q --kernel vanilla --topology 1x2x1 --out "$TEST_TMP/args" --timeout 300 -- \
	sh -c 'printf "%s|" "$@" > args.txt' sh "a b" "it's" '$HOME' >/dev/null 2>&1
is "$(cat "$TEST_TMP/args/args.txt" 2>/dev/null)" "a b|it's|\$HOME|" "arguments with spaces, quotes and \$ reach the guest unchanged"

# run.json stays valid JSON whatever a command holds: newlines, tabs,
# quotes, backslashes, other control characters and bytes that are not
# UTF-8 (replaced by U+FFFD); the ASCII ones come back as they were.
hard=$'line one\nline two\t"q" back\\slash \x01 caf\xc3\xa9 \xff'
"$RUN" -q --kernel vanilla --topology 1x2x1 --out "$TEST_TMP/hard" --timeout 300 -- \
	sh -c ': "$1"' sh "$hard" >/dev/null 2>&1
is "$?" 0 "a command with newlines, tabs, quotes and odd bytes runs"
ok "run.json is valid JSON when the command holds newlines and control characters" \
	jq -e '.command | length == 5' "$TEST_TMP/hard/run.json"
is "$(jq -r '.command[4]' "$TEST_TMP/hard/run.json" 2>/dev/null | head -c 41 | od -An -c | tr -s ' ')" \
	"$(printf '%s' "$hard" | head -c 41 | od -An -c | tr -s ' ')" \
	"run.json gives the command back unchanged (control characters, quotes, UTF-8)"
ok "a byte that is not UTF-8 becomes U+FFFD in run.json" \
	bash -c "jq -r '.command[4]' '$TEST_TMP/hard/run.json' | grep -q $'\xef\xbf\xbd'"

# A kernel panic is reported as such, with the offending lines.
"$RUN" -q --kernel vanilla --topology 1x2x1 --out "$TEST_TMP/panic" --timeout 300 -- \
	sh -c 'echo c > /proc/sysrq-trigger' >/dev/null 2>"$TEST_TMP/panic.err"
is "$?" 126 "a guest that panics makes qemu/run exit 126"
ok "the panic is named in the error" grep -q 'kernel panic' "$TEST_TMP/panic.err"
ok "the offending console lines are printed" grep -q 'Kernel panic - not syncing' "$TEST_TMP/panic.err"

# A program that prints "BUG:" itself is not a kernel error.
"$RUN" -q --kernel vanilla --topology 1x2x1 --out "$TEST_TMP/bugtext" --timeout 300 -- \
	sh -c 'echo "BUG: not a kernel message"; echo "WARNING: neither"' >/dev/null 2>&1
is "$?" 0 "'BUG:' printed by the command itself is not taken for a kernel BUG"

# A guest that runs past --timeout is killed and reported.
start=$SECONDS
"$RUN" -q --kernel vanilla --topology 1x2x1 --out "$TEST_TMP/timeout" --timeout 25 -- sleep 600 \
	>/dev/null 2>"$TEST_TMP/timeout.err"
is "$?" 124 "a guest past --timeout makes qemu/run exit 124"
ok "the timeout is named in the error" grep -q 'did not finish within --timeout 25' "$TEST_TMP/timeout.err"
cmp_num $((SECONDS - start)) -lt 60 "the guest was killed soon after the timeout"

# --policy on a kernel without the powersched sysfs file is an error.
"$RUN" -q --kernel vanilla --topology 1x2x1 --policy powersaving --out "$TEST_TMP/nopolicy" --timeout 300 -- true \
	>/dev/null 2>"$TEST_TMP/nopolicy.err"
is "$?" 125 "--policy on the vanilla kernel fails"
ok "the error names the missing sysfs file" grep -q 'sched_balance_policy' "$TEST_TMP/nopolicy.err"

# Bad input on the host side: one clear line and exit 125, no guest started.
bad() {
	local desc=$1 pattern=$2; shift 2
	"$@" >"$TEST_TMP/bad.out" 2>"$TEST_TMP/bad.err"
	local rc=$?
	if [ $rc = 125 ] && grep -q -- "$pattern" "$TEST_TMP/bad.err" && [ "$(wc -l <"$TEST_TMP/bad.err")" -le 3 ]; then
		pass "$desc"
	else
		fail "$desc"; diag "rc=$rc: $(cat "$TEST_TMP/bad.err")"
	fi
}
bad "unknown topology" "--topology 'hexagon': unknown" "$RUN" --topology hexagon -- true
bad "unknown kernel" "--kernel 'nosuch'" "$RUN" --kernel nosuch -- true
bad "unknown policy" "--policy 'fast': unknown" "$RUN" --policy fast -- true
bad "missing bzImage names the build command" "make kernel" env BUILD_DIR="$TEST_TMP/empty-build" "$RUN" -- true
bad "QEMU not installed" "install qemu-system-x86" env QEMU=/nonexistent/qemu "$RUN" --kernel vanilla -- true
bad "no command" "no command given" "$RUN" --kernel vanilla
bad "bad timeout" "--timeout 'soon'" "$RUN" --timeout soon -- true
