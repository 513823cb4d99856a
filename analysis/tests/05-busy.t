#!/bin/bash
# The busy-state machine on its own (analysis/tests/busy-test.c, built with
# ASan and UBSan): hand-made context switches, no trace file.
source "$(dirname "$0")/../../tests/lib.sh"
use_sanitizers
"$BUILD/test/busy-test"
rc=$?
[ $rc = 0 ] || fail "busy-test exited with status $rc"
