# SPDX-License-Identifier: GPL-2.0
# Helpers for tests on crafted traces (sourced after tests/lib.sh): traces
# built by analysis/tests/mktrace from records written in the test, on the
# server topology (2 packages x 2 cores x 2 threads, cpus 0-3 and 4-7).
MK=$BUILD/test/mktrace
PS=${PS_UNDER_TEST:-$BUILD/test/powersched}
FORMATS=$ROOT/analysis/tests/formats
V2FORMATS=$ROOT/tracer/tests/formats/v2
TOPO8=$ROOT/analysis/tests/data/pinned-vanilla/topology.tsv

# craft NAME [mktrace options]: the records on stdin become
# $TEST_TMP/NAME/trace.dat, with topology.tsv beside it
craft() {
	local name=$1; shift
	mkdir -p "$TEST_TMP/$name"
	cp "$TOPO8" "$TEST_TMP/$name/topology.tsv"
	cat >"$TEST_TMP/$name/records.txt"
	"$MK" --formats "$FORMATS" --system "powersched:$V2FORMATS" "$@" \
		-o "$TEST_TMP/$name/trace.dat" "$TEST_TMP/$name/records.txt" ||
		fail "mktrace could not build $name"
}

# known_at T [CPUS...]: each cpu (default 0-7) switches idle -> kworker ->
# idle at T, so that what it runs is known from T on
known_at() {
	local t=$1 c; shift
	for c in ${@:-0 1 2 3 4 5 6 7}; do
		echo "$c $t sched_switch prev_comm=swapper prev_pid=0 next_comm=kworker next_pid=9$c"
		echo "$c $t sched_switch prev_comm=kworker prev_pid=9$c prev_state=1 next_comm=swapper next_pid=0"
	done
}

# ticks FROM TO: a record on cpu 0 every 0.5 s, as a real trace never has
# every cpu silent for a second (the analyzer takes a lone cpu's records
# after such a silence at the end of a trace for a corrupt page)
ticks() {
	awk -v f="$1" -v t="$2" 'BEGIN { for (x = f; x <= t + 1e-9; x += 0.5)
		printf "0 %.6f sched_waking comm=tick pid=1 prio=120 target_cpu=0\n", x }'
}

# an NAME [analyze options]: analyze it into $TEST_TMP/NAME/out; sets RC,
# stdout in NAME.out, stderr in NAME.err
an() {
	local name=$1; shift
	"$PS" analyze "$TEST_TMP/$name/trace.dat" --out "$TEST_TMP/$name/out" "$@" \
		>"$TEST_TMP/$name.out" 2>"$TEST_TMP/$name.err"
	RC=$?
}

# sv NAME KEY: a value of NAME's summary.tsv
sv() { awk -F'\t' -v k="$2" '$1 == k { print $2 }' "$TEST_TMP/$1/out/summary.tsv" 2>/dev/null; }
# jv NAME JQ: a value of NAME's summary.json
jv() { jq -r "$2" "$TEST_TMP/$1/out/summary.json" 2>/dev/null; }
# clean NAME: no sanitizer report and no crash
clean() { [ "$RC" -lt 128 ] && ! grep -qE 'ERROR: AddressSanitizer|runtime error|ERROR: LeakSanitizer' "$TEST_TMP/$1.err"; }
# exited NAME CODE: analyze of NAME exited with CODE, without a sanitizer report or a crash
exited() { [ "$RC" = "$2" ] && clean "$1"; }
