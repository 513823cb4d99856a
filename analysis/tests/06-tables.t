#!/bin/bash
# The latency histogram and the table of live tasks on their own
# (analysis/tests/tables-test.c, built with ASan and UBSan).
source "$(dirname "$0")/../../tests/lib.sh"
use_sanitizers
"$BUILD/test/tables-test"
rc=$?
[ $rc = 0 ] || fail "tables-test exited with status $rc"
