#!/bin/sh
# Guest side of kernel/tests/10-knobs.t: the policy's sysfs files, the
# burst and lazy-window sysctls and the sched_feat switches.  Prints TAP-style lines.
P=/sys/devices/system/cpu/sched_balance_policy
CUR=$P/current_sched_balance_policy
AVAIL=$P/available_sched_balance_policy
BURST=/proc/sys/kernel/sched_burst_threshold_ns
FEAT=/sys/kernel/debug/sched/features

t() { if eval "$2"; then echo "ok - $1"; else echo "not ok - $1"; echo "# failed: $2 (rc=${rc:-} err=${err:-})"; fi; }
mode() { stat -c %a "$1"; }

t "default policy is performance" '[ "$(cat $CUR)" = performance ]'
t "available policies" '[ "$(cat $AVAIL)" = "performance powersaving" ]'
t "current_sched_balance_policy is 0644" '[ "$(mode $CUR)" = 644 ]'
t "available_sched_balance_policy is 0444" '[ "$(mode $AVAIL)" = 444 ]'
t "writing powersaving" 'echo powersaving > $CUR && [ "$(cat $CUR)" = powersaving ]'
t "writing performance" 'echo performance > $CUR && [ "$(cat $CUR)" = performance ]'
t "writing without a newline" 'printf powersaving > $CUR && [ "$(cat $CUR)" = powersaving ]'
for bad in balance Powersaving "powersaving x" "" " performance" perf 0 1; do
	before=$(cat $CUR)
	err=$( (echo "$bad" > $CUR) 2>&1 )
	rc=$?
	t "'$bad' is refused with EINVAL" '[ $rc != 0 ] && echo "$err" | grep -q "Invalid argument"'
	t "'$bad' leaves the policy unchanged" '[ "$(cat $CUR)" = "$before" ]'
done
t "available_sched_balance_policy is read-only" '! (echo performance > $AVAIL) 2>/dev/null'
echo performance > $CUR

t "sched_burst_threshold_ns defaults to 100000" '[ "$(cat $BURST)" = 100000 ]'
t "sched_burst_threshold_ns is 0644" '[ "$(mode $BURST)" = 644 ]'
t "sched_burst_threshold_ns round trip" 'echo 250000 > $BURST && [ "$(cat $BURST)" = 250000 ]'
t "sched_burst_threshold_ns accepts 0 (off)" 'echo 0 > $BURST && [ "$(cat $BURST)" = 0 ]'
t "sched_burst_threshold_ns accepts its maximum, 1 s" 'echo 1000000000 > $BURST && [ "$(cat $BURST)" = 1000000000 ]'
echo 100000 > $BURST
for bad in -1 1000000001 abc 4294967296 ""; do
	err=$( (echo "$bad" > $BURST) 2>&1 )
	rc=$?
	t "sched_burst_threshold_ns refuses '$bad' with EINVAL" '[ $rc != 0 ] && echo "$err" | grep -q "Invalid argument"'
	t "sched_burst_threshold_ns unchanged after '$bad'" '[ "$(cat $BURST)" = 100000 ]'
done

LAZYW=/proc/sys/kernel/sched_power_lazy_window
t "sched_power_lazy_window defaults to 8" '[ "$(cat $LAZYW)" = 8 ]'
t "sched_power_lazy_window is 0644" '[ "$(mode $LAZYW)" = 644 ]'
t "sched_power_lazy_window accepts 1" 'echo 1 > $LAZYW && [ "$(cat $LAZYW)" = 1 ]'
t "sched_power_lazy_window accepts its maximum, 1024" 'echo 1024 > $LAZYW && [ "$(cat $LAZYW)" = 1024 ]'
echo 8 > $LAZYW
for bad in 0 1025 -1 abc 4294967304 ""; do
	err=$( (echo "$bad" > $LAZYW) 2>&1 )
	rc=$?
	t "sched_power_lazy_window refuses '$bad' with EINVAL" '[ $rc != 0 ] && echo "$err" | grep -q "Invalid argument"'
	t "sched_power_lazy_window unchanged after '$bad'" '[ "$(cat $LAZYW)" = 8 ]'
done

for f in POWER_PACK_TRANSITORY POWER_LAZY_BALANCE POWER_LAZY_BACKOFF; do
	t "sched_feat $f on by default" 'tr " " "\n" < $FEAT | grep -qx $f'
	t "sched_feat $f can be switched off" 'echo NO_$f > $FEAT && tr " " "\n" < $FEAT | grep -qx NO_$f'
	t "sched_feat $f can be switched on again" 'echo $f > $FEAT && tr " " "\n" < $FEAT | grep -qx $f'
done

t "the powersched trace system has its seven events" \
	'[ "$(ls /sys/kernel/tracing/events/powersched | grep -v -e enable -e filter | sort | tr "\n" " ")" = "balance_migrate balance_mode balance_outcome group_leader_chosen lazy_balance_skip policy_change power_pack_decision " ]'
t "power_pack_decision format has a reason field" 'grep -q "field:int reason" /sys/kernel/tracing/events/powersched/power_pack_decision/format'
t "group_leader_chosen carries cpumasks" 'grep -q "__data_loc cpumask_t leader_cpus" /sys/kernel/tracing/events/powersched/group_leader_chosen/format'

# The formats of the powersched events as this kernel has them, for the
# host side to compare with the ones the plugin and analyzer are tested on.
mkdir -p live-formats
for e in /sys/kernel/tracing/events/powersched/*/; do
	[ -f "$e/format" ] && cat "$e/format" > "live-formats/$(basename "$e").format"
done
