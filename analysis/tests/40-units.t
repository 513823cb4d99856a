#!/bin/bash
# The C unit tests of single modules (analysis/tests/unit/*-test.c, built
# with ASan and UBSan by make test-tools); each prints its own TAP lines.
source "$(dirname "$0")/../../tests/lib.sh"
use_sanitizers
for t in energy-test model-test idle-test; do
	if [ ! -x "$BUILD/test/$t" ]; then
		fail "$t: not built (make test-tools)"
		continue
	fi
	args=()
	[ $t = idle-test ] && args=("$ROOT/analysis/tests/data/pinned-vanilla/trace.dat")
	"$BUILD/test/$t" "${args[@]}" | sed "s/^\(not \)\{0,1\}ok - /&$t: /"
	rc=${PIPESTATUS[0]}
	[ "$rc" = 0 ] || fail "$t: exited with status $rc"
done
