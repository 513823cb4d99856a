#!/bin/bash
# make kernel-deb, the part make test can afford: bad configurations are
# refused with a line that names them, and the small configuration
# (CONFIG=tiny: tinyconfig + the guests' fragment + kernel/deb.config) is
# made and checked: every option powersched needs, and a release ending in
# -powersched.  Building the packages and booting the packaged kernel (7-9
# minutes cold) is kernel/tests/slow/60-kernel-deb-boot.t, run by
# make test-slow.
# Cost: a cold run unpacks and patches its own source tree under build/deb/
# (which make kernel-deb shares) and runs tinyconfig + olddefconfig.
source "$(dirname "$0")/../../tests/lib.sh"

if [ ! -r "/boot/config-$(uname -r)" ]; then
	out=$("$ROOT/kernel/deb" 2>&1)
	is "$?" 1 "no configuration: status 1"
	ok "no configuration: says so and how to give one" grep -q "no configuration: this machine runs $(uname -r), and there is no /boot/config-$(uname -r).*CONFIG=FILE" <<<"$out"
fi
out=$("$ROOT/kernel/deb" --config /nonexistent/config 2>&1)
is "$?" 1 "a configuration that is not there: status 1"
ok "a configuration that is not there: named" grep -q "CONFIG=/nonexistent/config: cannot read it" <<<"$out"
echo "CONFIG_ARM64=y" >"$TEST_TMP/arm.config"
out=$("$ROOT/kernel/deb" --config "$TEST_TMP/arm.config" 2>&1)
ok "a configuration for another architecture: refused" grep -q "not an x86_64 kernel configuration" <<<"$out"

start=$SECONDS
out=$("$ROOT/kernel/deb" --config tiny --configure-only 2>&1)
rc=$?
is "$rc" 0 "kernel-deb CONFIG=tiny --configure-only: succeeds"
[ $rc = 0 ] || diag "$(tail -n 20 <<<"$out")"
diag "kernel/deb --config tiny --configure-only took $((SECONDS - start)) s"
ok "it says the configuration has what powersched needs and names the release" \
	grep -q "tiny: build/deb/tiny/obj/.config has what powersched needs; the kernel would be .*-powersched\$" <<<"$out"
cfg=$BUILD/deb/tiny/obj/.config
for opt in CONFIG_SMP=y CONFIG_SCHED_MC=y CONFIG_EVENT_TRACING=y CONFIG_SCHEDSTATS=y; do
	ok "the tiny configuration has $opt" grep -qx "$opt" "$cfg"
done
ok "and no debug info" bash -c "! grep -qx CONFIG_DEBUG_INFO=y '$cfg'"
