#!/bin/bash
# Bad input gets one clear message naming the file and the problem, a
# non-zero exit, no crash (ASan/UBSan build) and no results left behind.
source "$(dirname "$0")/../../tests/lib.sh"
use_sanitizers
PS=$BUILD/test/powersched
DATA=$ROOT/analysis/tests/data

# bad DESC PATTERN ARGS...: analyze fails with PATTERN in its message
bad() {
	local desc=$1 pattern=$2; shift 2
	rm -rf "$TEST_TMP/out"
	"$PS" analyze "$@" --out "$TEST_TMP/out" >"$TEST_TMP/stdout" 2>"$TEST_TMP/stderr"
	local rc=$?
	if [ $rc != 0 ] && [ $rc -lt 128 ] && grep -q -- "$pattern" "$TEST_TMP/stderr" &&
	   ! grep -qE 'ERROR: AddressSanitizer|runtime error|ERROR: LeakSanitizer' "$TEST_TMP/stderr" &&
	   [ ! -e "$TEST_TMP/out/summary.json" ]; then
		pass "$desc"
	else
		fail "$desc"
		diag "rc=$rc stderr: $(head -c 600 "$TEST_TMP/stderr")"
	fi
}

mk() { mkdir -p "$TEST_TMP/$1"; cp "$DATA/pinned-vanilla/topology.tsv" "$TEST_TMP/$1/"; echo "$TEST_TMP/$1/trace.dat"; }

t=$(mk empty); : >"$t"
bad "an empty file" "$t: empty file" "$t"
t=$(mk random); head -c 200000 /dev/urandom >"$t"
bad "random bytes" "$t: not a trace.dat" "$t"
for n in 100 5000 60000 200000 300000; do
	t=$(mk trunc$n); head -c $n "$DATA/pinned-vanilla/trace.dat" >"$t"
	bad "a trace truncated to $n bytes" "$t: " "$t"
done
t=$(mk text); yes 'tracing is fun' | head -n 1000 >"$t"
bad "a text file" "$t: not a trace.dat" "$t"
bad "a missing file" "nosuch.dat: No such file" "$TEST_TMP/nosuch.dat"
bad "a folder" "not a regular file" "$TEST_TMP"
bad "a trace without sched_switch" "no sched:sched_switch events" "$DATA/noswitch-vanilla/trace.dat"

# topology problems
mkdir -p "$TEST_TMP/notopo" && cp "$DATA/pinned-vanilla/trace.dat" "$TEST_TMP/notopo/"
bad "no topology.tsv beside the trace" "topology.tsv: no topology for" "$TEST_TMP/notopo/trace.dat"
grep -v -E '^cpu	[4-7]	' "$DATA/pinned-vanilla/topology.tsv" | grep -v '^domain' >"$TEST_TMP/topo4.tsv"
bad "a topology with fewer cpus than the trace" "inconsistent with $TEST_TMP/topo4.tsv: events on cpu [4-7]" \
	"$DATA/pinned-vanilla/trace.dat" --topology "$TEST_TMP/topo4.tsv"
printf 'hello\tworld\n' >"$TEST_TMP/topo-garbage.tsv"
bad "a file that is not a topology" "no cpu records" "$DATA/pinned-vanilla/trace.dat" --topology "$TEST_TMP/topo-garbage.tsv"
sed 's/^cpu	3	0	1	1	0$/cpu	3	1	1	1	0/' "$DATA/pinned-vanilla/topology.tsv" >"$TEST_TMP/topo-split.tsv"
bad "a core split over two packages" "share core" "$DATA/pinned-vanilla/trace.dat" --topology "$TEST_TMP/topo-split.tsv"
sed 's/^cpu	2	0	1	0	0$/cpu	2	0	x	0	0/' "$DATA/pinned-vanilla/topology.tsv" >"$TEST_TMP/topo-nan.tsv"
bad "a cpu record with a non-number" "topo-nan.tsv:7: a cpu record needs 5 numbers" "$DATA/pinned-vanilla/trace.dat" --topology "$TEST_TMP/topo-nan.tsv"
sed 's/	0-3;4-7	/	0-3;4-9	/' "$DATA/pinned-vanilla/topology.tsv" >"$TEST_TMP/topo-group.tsv"
bad "a group with cpus the topology lacks" "holds cpu 8" "$DATA/pinned-vanilla/trace.dat" --topology "$TEST_TMP/topo-group.tsv"

# options and the model
bad "a bucket of 0 ms" "--bucket '0'" "$DATA/pinned-vanilla/trace.dat" --bucket 0
bad "a bucket that is not a number" "--bucket 'ten'" "$DATA/pinned-vanilla/trace.dat" --bucket ten
printf 'base_watts 1\n' >"$TEST_TMP/model.conf"
bad "a model file missing keys" "missing key 'package_watts'" "$DATA/pinned-vanilla/trace.dat" --model "$TEST_TMP/model.conf"
printf 'base_watts lots\n' >"$TEST_TMP/model2.conf"
bad "a model file with a non-number" "model2.conf:1: expected 'key value'" "$DATA/pinned-vanilla/trace.dat" --model "$TEST_TMP/model2.conf"

"$PS" frobnicate >/dev/null 2>"$TEST_TMP/stderr"
is "$?" 2 "an unknown command exits 2"
ok "an unknown command is named" grep -q "unknown command 'frobnicate'" "$TEST_TMP/stderr"

# Found by make fuzz: this file crashes libtracecmd 1.3.1 inside
# tracecmd_open(); the analyzer reports it as corrupt instead.
t=$(mk fuzzcrash); cp "$DATA/corrupt/open-crash.dat" "$t"
bad "a corrupt trace that crashes libtracecmd's open" "$t: corrupt trace: libtracecmd crashed opening it" "$t"
# Found by make fuzz: a header that makes libtracecmd ask for 4 EiB (under
# ASan: allocator_may_return_null, as the real allocator returns NULL), and
# a file libtracecmd leaks memory on as it gives up (lsan.supp)
t=$(mk hugealloc); cp "$DATA/corrupt/huge-alloc.dat" "$t"
bad "a trace header asking for 4 EiB" "$t: not a trace.dat" "$t"
t=$(mk bigalloc); cp "$DATA/corrupt/big-alloc.dat" "$t"
bad "a trace header asking for 4 GB" "$t: not a trace.dat" "$t"
t=$(mk openleak); cp "$DATA/corrupt/open-leak.dat" "$t"
bad "a trace libtracecmd leaks on as it fails to open it" "$t: not a trace.dat" "$t"
