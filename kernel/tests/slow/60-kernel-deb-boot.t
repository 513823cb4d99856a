#!/bin/bash
# make kernel-deb CONFIG=tiny, the whole way (make test-slow): the package
# must hold a bootable image whose version ends in -powersched; it is
# unpacked and booted in QEMU, where the policy knob and powersched
# record's events are there.
# Cost: a cold run unpacks and patches its own source tree under build/deb/
# (which make kernel-deb shares) and builds the tiny configuration: the 6
# minutes a tinyconfig build takes on 2 idle cores plus about a minute of
# packaging; a warm run only repackages (77-87 s measured).
source "$(dirname "$0")/../../../tests/lib.sh"

start=$SECONDS
"$ROOT/kernel/deb" --config tiny >"$TEST_TMP/build.log" 2>&1
rc=$?
is "$rc" 0 "kernel-deb CONFIG=tiny: builds"
[ $rc = 0 ] || diag "$(tail -n 20 "$TEST_TMP/build.log")"
diag "kernel/deb --config tiny took $((SECONDS - start)) s"
info=$BUILD/deb/tiny/kernel-deb.txt
release=$(awk -F'\t' '$1 == "release" { print $2 }' "$info" 2>/dev/null)
ok "the release ends in -powersched ($release)" bash -c "[[ '$release' == *-powersched ]]"
deb=$(ls "$BUILD/deb/tiny"/linux-image-"$release"_*.deb 2>/dev/null | head -n1)
ok "a linux-image-$release package" test -n "$deb"
ok "the package holds /boot/vmlinuz-$release" bash -c "dpkg-deb -c '$deb' | grep ' ./boot/vmlinuz-$release\$' >/dev/null"
ok "the package is a Debian binary package of that name" bash -c "dpkg-deb -f '$deb' Package | grep -qx 'linux-image-$release'"
mkdir -p "$TEST_TMP/x" && dpkg-deb -x "$deb" "$TEST_TMP/x"
img=$TEST_TMP/x/boot/vmlinuz-$release
ok "the image is an x86 bzImage of $release" bash -c "file '$img' | grep -q 'bzImage, version $release '"

d=$TEST_TMP/boot
mkdir -p "$d"
guest "$d" --kernel "$img" --topology 1x2x2 --timeout 240 -- sh -c \
	'uname -r >uname.txt; cat /sys/devices/system/cpu/sched_balance_policy/available_sched_balance_policy >policies.txt;
	 powersched record -o rec -- true >rec.out 2>&1; echo $? >rec.rc' ||
	fail "the packaged kernel boots in QEMU"
is "$(cat "$d/uname.txt" 2>/dev/null)" "$release" "booted: uname -r is $release"
is "$(cat "$d/policies.txt" 2>/dev/null)" "performance powersaving" "booted: the series' policy knob is there"
is "$(cat "$d/rec.rc" 2>/dev/null)" 0 "booted: powersched record works on it"
ok "booted: the powersched events are recorded" bash -c "jq -e '.events | index(\"powersched\")' '$d/rec/run.json' >/dev/null"
