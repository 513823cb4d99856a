#!/bin/bash
# powersched topology, the topology.tsv writer qemu/guest-init and
# powersched record share, on trees read below $POWERSCHED_SYSROOT:
# - sysfs, /proc/schedstat and debugfs captured in guests of three shapes
#   (analysis/tests/data/topology/*/sysroot, by capture.sh), against the
#   topology.tsv written in the same boots from the kernel's own
#   sched_verbose report (what guest-init wrote before it used this code);
# - the same trees without debugfs: names inferred from sysfs;
# - hand-made machines: SMT siblings numbered apart (0 and 8, as Intel
#   servers number them), 40 cpus (masks of several words), schedstat v17;
# - bad input.
source "$(dirname "$0")/../../tests/lib.sh"
use_sanitizers
PS=$BUILD/test/powersched
T=$ROOT/analysis/tests/data/topology
DATA=$ROOT/analysis/tests/data

for m in server laptop 2x3x1; do
	POWERSCHED_SYSROOT=$T/$m/sysroot "$PS" topology >"$TEST_TMP/$m.tsv" 2>"$TEST_TMP/$m.err"
	is "$?" 0 "$m: powersched topology succeeds"
	ok "$m: identical to the one from the kernel's sched_verbose report" diff -u "$T/$m/topology.tsv" "$TEST_TMP/$m.tsv"
	is "$(cat "$TEST_TMP/$m.err")" "" "$m: nothing to say"

	cp -r "$T/$m/sysroot" "$TEST_TMP/$m-nodebug"
	rm -r "$TEST_TMP/$m-nodebug/sys/kernel/debug"
	POWERSCHED_SYSROOT=$TEST_TMP/$m-nodebug "$PS" topology >"$TEST_TMP/$m-nd.tsv" 2>"$TEST_TMP/$m-nd.err"
	is "$?" 0 "$m without debugfs: succeeds"
	is "$(grep -v '^#' "$TEST_TMP/$m-nd.tsv" | cut -f1-6)" "$(grep -v '^#' "$T/$m/topology.tsv" | cut -f1-6)" \
		"$m without debugfs: spans, groups and inferred names as the kernel's"
	is "$(awk -F'\t' '$1 == "domain" { print $7 }' "$TEST_TMP/$m-nd.tsv" | sort -u)" "-" "$m without debugfs: flags unknown (-)"
	ok "$m without debugfs: said so" grep -q 'domain names inferred from sysfs' "$TEST_TMP/$m-nd.err"
done

POWERSCHED_SYSROOT=$T/server/sysroot "$PS" topology -o "$TEST_TMP/out.tsv"
is "$?" 0 "-o FILE: succeeds"
ok "-o FILE: the same file" cmp -s "$TEST_TMP/out.tsv" "$TEST_TMP/server.tsv"
"$PS" analyze "$DATA/pinned-vanilla/trace.dat" --topology "$TEST_TMP/out.tsv" --out "$TEST_TMP/an" >/dev/null 2>&1
is "$?" 0 "the analyzer reads the file written"

# cpulist of the bits in a number: for the hand-made schedstat masks
hexmask() { printf '%x' "$1"; }

# 2 packages x 4 cores x 2 threads, siblings c and c+8, a node per package
r=$TEST_TMP/inter
mkdir -p "$r/proc/sys/kernel" "$r/sys/devices/system/node/node0" "$r/sys/devices/system/node/node1"
echo 6.12.0-test >"$r/proc/sys/kernel/osrelease"
echo "#1 SMP test" >"$r/proc/sys/kernel/version"
echo 0-3,8-11 >"$r/sys/devices/system/node/node0/cpulist"
echo 4-7,12-15 >"$r/sys/devices/system/node/node1/cpulist"
echo 0-15 >"$r/sys/devices/system/cpu/online" 2>/dev/null || { mkdir -p "$r/sys/devices/system/cpu"; echo 0-15 >"$r/sys/devices/system/cpu/online"; }
{
	echo "version 16"
	echo "timestamp 1"
	for c in $(seq 0 15); do
		b=$((c % 8)) p=$(((c % 8) / 4))
		d=$r/sys/devices/system/cpu/cpu$c
		mkdir -p "$d/topology" "$d/node$p"
		echo $p >"$d/topology/physical_package_id"
		echo "$b,$((b + 8))" >"$d/topology/thread_siblings_list"
		[ $p = 0 ] && echo 0-3,8-11 >"$d/topology/package_cpus_list" || echo 4-7,12-15 >"$d/topology/package_cpus_list"
		echo "cpu$c 0 0 0 0 0 0 0 0 0"
		echo "domain0 $(printf '%04x' $(((1 << b) | (1 << (b + 8))))) 0 0"
		echo "domain1 $([ $p = 0 ] && echo 0f0f || echo f0f0) 0 0"
		echo "domain2 ffff 0 0"
	done
} >"$r/proc/schedstat"
POWERSCHED_SYSROOT=$r "$PS" topology >"$TEST_TMP/inter.tsv" 2>/dev/null
is "$?" 0 "siblings numbered apart: succeeds"
has() { grep -qxF "$(printf "$2")" "$TEST_TMP/$1.tsv"; }
ok "siblings apart: cpu 8 is thread 1 of core 0" has inter 'cpu\t8\t0\t0\t1\t0'
ok "siblings apart: cpu 12 is thread 1 of core 4, package 1, node 1" has inter 'cpu\t12\t1\t4\t1\t1'
ok "siblings apart: cpu 8's SMT domain, its own group first" has inter 'domain\t8\t0\tSMT\t0,8\t8;0\t-'
ok "siblings apart: cpu 9's MC groups walk the span from 9, wrapping" has inter 'domain\t9\t1\tMC\t0-3,8-11\t1,9;2,10;3,11;0,8\t-'
ok "siblings apart: cpu 0's NUMA groups are the packages" has inter 'domain\t0\t2\tNUMA\t0-15\t0-3,8-11;4-7,12-15\t-'
ok "siblings apart: cpu 12's NUMA groups start with its own package" has inter 'domain\t12\t2\tNUMA\t0-15\t4-7,12-15;0-3,8-11\t-'
is "$(grep -c '^domain' "$TEST_TMP/inter.tsv")" 48 "siblings apart: 16 cpus x 3 levels"

# 40 cpus in 2 packages, no SMT; schedstat v17 names the domains; masks of two words
r=$TEST_TMP/forty
mkdir -p "$r/proc/sys/kernel" "$r/sys/devices/system/cpu"
echo 6.14.0 >"$r/proc/sys/kernel/osrelease"
echo "#1" >"$r/proc/sys/kernel/version"
{
	echo "version 17"
	for c in $(seq 0 39); do
		p=$((c / 20))
		d=$r/sys/devices/system/cpu/cpu$c
		mkdir -p "$d/topology" "$d/node$p"
		echo $p >"$d/topology/physical_package_id"
		echo $c >"$d/topology/thread_siblings_list"
		echo "cpu$c 0 0 0"
		echo "domain0 MC $([ $p = 0 ] && echo 00,000fffff || echo ff,fff00000) 0 0"
		echo "domain1 NUMA ff,ffffffff 0 0"
	done
} >"$r/proc/schedstat"
POWERSCHED_SYSROOT=$r "$PS" topology >"$TEST_TMP/forty.tsv" 2>"$TEST_TMP/forty.err"
is "$?" 0 "40 cpus, schedstat v17: succeeds"
ok "40 cpus: cpu 39 in package 1, core 39" has forty 'cpu\t39\t1\t39\t0\t1'
ok "40 cpus: cpu 25's MC span and single-cpu groups from 25, wrapping" \
	has forty "domain\t25\t0\tMC\t20-39\t$(seq 25 39 | tr '\n' ';')$(seq 20 24 | tr '\n' ';' | sed 's/;$//')\t-"
ok "40 cpus: cpu 25's NUMA groups" has forty 'domain\t25\t1\tNUMA\t0-39\t20-39;0-19\t-'
ok "40 cpus: names from schedstat v17, nothing inferred" test ! -s "$TEST_TMP/forty.err"

# bad input: one line naming the file and the problem, status 1
bad() {
	local desc=$1 root=$2 pattern=$3
	POWERSCHED_SYSROOT=$root "$PS" topology >"$TEST_TMP/bad.out" 2>"$TEST_TMP/bad.err"
	local rc=$?
	if [ $rc = 1 ] && grep -q -- "$pattern" "$TEST_TMP/bad.err" && [ "$(wc -l <"$TEST_TMP/bad.err")" = 1 ]; then
		pass "$desc"
	else
		fail "$desc"; diag "status $rc: $(cat "$TEST_TMP/bad.err")"
	fi
}
mkdir -p "$TEST_TMP/nocpu/sys/devices/system/cpu"
bad "no cpus: refused" "$TEST_TMP/nocpu" "no cpu with a topology directory"
bad "no sysfs at all: refused" "$TEST_TMP/nothing-here" "cannot list the cpus"
cp -r "$T/server/sysroot" "$TEST_TMP/badmask"
sed -i '4s/^domain0 03/domain0 zz/' "$TEST_TMP/badmask/proc/schedstat"
bad "a bad schedstat mask: refused with the line" "$TEST_TMP/badmask" "proc/schedstat:4: bad domain span 'zz' for cpu 0"
cp -r "$T/server/sysroot" "$TEST_TMP/wide"
sed -i '4s/^domain0 03/domain0 1ff/' "$TEST_TMP/wide/proc/schedstat"
bad "a schedstat mask beyond the cpus: refused" "$TEST_TMP/wide" "bad domain span '1ff'"
cp -r "$T/server/sysroot" "$TEST_TMP/skip"
sed -i '5d' "$TEST_TMP/skip/proc/schedstat"
bad "a domain level missing: refused" "$TEST_TMP/skip" "unexpected domain line for cpu 0"
cp -r "$T/server/sysroot" "$TEST_TMP/nover"
sed -i '/^version/d' "$TEST_TMP/nover/proc/schedstat"
bad "schedstat without a version: refused" "$TEST_TMP/nover" "no version line"
cp -r "$T/server/sysroot" "$TEST_TMP/badsib"
echo "x-y" >"$TEST_TMP/badsib/sys/devices/system/cpu/cpu3/topology/thread_siblings_list"
bad "a bad sibling list: refused" "$TEST_TMP/badsib" "cpu3/topology/thread_siblings_list: bad cpulist 'x-y'"
cp -r "$T/server/sysroot" "$TEST_TMP/badpkg"
echo "one" >"$TEST_TMP/badpkg/sys/devices/system/cpu/cpu2/topology/physical_package_id"
bad "a bad package id: refused" "$TEST_TMP/badpkg" "cpu2/topology/physical_package_id: not a number"
cp -r "$T/server/sysroot" "$TEST_TMP/nostat"
rm "$TEST_TMP/nostat/proc/schedstat"
POWERSCHED_SYSROOT=$TEST_TMP/nostat "$PS" topology >"$TEST_TMP/nostat.tsv" 2>"$TEST_TMP/nostat.err"
is "$?" 0 "no /proc/schedstat: still a topology (cpu records)"
is "$(grep -c '^cpu' "$TEST_TMP/nostat.tsv") $(grep -c '^domain' "$TEST_TMP/nostat.tsv")" "8 0" "no /proc/schedstat: 8 cpus, no domain records"
ok "no /proc/schedstat: said so" grep -q 'CONFIG_SCHEDSTATS' "$TEST_TMP/nostat.err"
POWERSCHED_SYSROOT=$T/server/sysroot "$PS" topology -o "$TEST_TMP/no/such/dir/t.tsv" 2>"$TEST_TMP/w.err"
is "$?" 1 "an unwritable -o: status 1"
ok "an unwritable -o: named" grep -q "no/such/dir/t.tsv.tmp: cannot write" "$TEST_TMP/w.err"
"$PS" topology extra >/dev/null 2>&1
is "$?" 2 "an extra argument: usage, status 2"
