#!/bin/bash
# plugin_powersched.so: the handlers print records as expected (no kernel
# needed; built with ASan and UBSan), and trace-cmd report picks the plugin
# up on a real guest trace.
source "$(dirname "$0")/../../tests/lib.sh"

"$BUILD/test/plugin-test" "$BUILD/test/plugin_powersched.so" "$ROOT/tracer/tests/formats"
rc=$?
[ $rc = 0 ] || fail "plugin-test exited with status $rc"

# A trace recorded in the guest under powersaving (analysis/tests/data).
tr=$ROOT/analysis/tests/data/pack2-powersaving/trace.dat
TRACEEVENT_PLUGIN_DIR=$BUILD/lib/traceevent/plugins trace-cmd report "$tr" >"$TEST_TMP/with" 2>/dev/null
trace-cmd report -N "$tr" >"$TEST_TMP/without" 2>/dev/null
ok "without the plugin, power_pack_decision prints the kernel's key=value format" \
	grep -q 'power_pack_decision: *comm=.* reason=' "$TEST_TMP/without"
ok "with the plugin, power_pack_decision is spelled out" \
	grep -q 'power_pack_decision: .* -> cpu [0-9]*: idlest cpu of the group leader \[prev cpu' "$TEST_TMP/with"
ok "with the plugin, balance_mode names the mode and why" \
	grep -q 'balance_mode: *for cpu [0-9]* idle in MC (sd->level 2): no balance (the local group is idle)' "$TEST_TMP/with"
ok "with the plugin, group_leader_chosen prints cpu ranges" \
	grep -Eq 'group_leader_chosen: .*leader [0-9]+(-[0-9]+)?(,[0-9]+(-[0-9]+)?)* \(util' "$TEST_TMP/with"
is "$(grep -c 'reason=' "$TEST_TMP/with")" 0 "with the plugin, no record falls back to the raw format"
is "$(grep -c ' power_pack_decision:' "$TEST_TMP/with")" "$(grep -c ' power_pack_decision:' "$TEST_TMP/without")" \
	"the plugin prints every power_pack_decision record"
