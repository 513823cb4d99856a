#!/bin/sh
# live-patch.sh: turn sched_wakeup and sched_switch on and off, which
# live-patches their call sites (static keys, text_poke_bp), for SECS seconds
# while hackbench keeps all cpus waking and switching.  Under QEMU's
# multi-threaded TCG this is what once oopsed on an int3 that was already
# patched out (kernel/quirks/0001).  Writes toggles (the count),
# hackbench-alive (yes/no at the end) and resumed (the quirk's messages).
T=/sys/kernel/tracing/events/sched
SECS=${SECS:-60}
hackbench -g 4 -l 2000000 >/dev/null 2>&1 &
hb=$!
end=$(($(cut -d. -f1 /proc/uptime) + SECS))
n=0
while [ "$(cut -d. -f1 /proc/uptime)" -lt "$end" ]; do
	for v in 1 0; do
		echo $v >$T/sched_wakeup/enable || exit 1
		echo $v >$T/sched_switch/enable || exit 1
	done
	n=$((n + 1))
done
echo "$n" >toggles
if kill -0 "$hb" 2>/dev/null; then echo yes; else echo no; fi >hackbench-alive
kill "$hb" 2>/dev/null
wait
# grep -c exits 1 when it counts none: the count is the result, not the status
r=$(dmesg | grep -c 'was patched out before it trapped')
echo "$r" >resumed
