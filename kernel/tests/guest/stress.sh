#!/bin/sh
# stress.sh: wakeup storms, a thousand policy switches under load and cpu
# hotplug cycles under both policies.  qemu/run fails the run on any oops,
# WARNING or BUG in the console; this script fails on a step that fails.
P=/sys/devices/system/cpu/sched_balance_policy/current_sched_balance_policy
fail() { echo "stress: $*"; exit 1; }
printf '#!/bin/sh\nwhile :; do :; done\n' > /tmp/spinloop
chmod +x /tmp/spinloop

for pol in powersaving performance; do
	echo $pol > $P || fail "set $pol"
	hackbench -g 4 -l 100 > /dev/null || fail "hackbench under $pol"
	hackbench -g 2 -l 100 -T > /dev/null || fail "hackbench -T under $pol"
done
echo "stress: hackbench done"

loops=""
for i in 1 2 3 4; do /tmp/spinloop & loops="$loops $!"; done
hackbench -g 2 -l 400 > /dev/null & hb=$!
i=0
while [ $i -lt 1000 ]; do
	echo powersaving > $P || fail "switch $i"
	echo performance > $P || fail "switch $i"
	i=$((i + 2))
done
wait $hb || fail "hackbench during policy switches"
echo "stress: 1000 policy switches done"

ncpu=$(nproc)
for pol in powersaving performance; do
	echo $pol > $P
	hackbench -g 2 -l 300 > /dev/null & hb=$!
	for round in 1 2 3; do
		c=1
		while [ $c -lt $ncpu ]; do
			echo 0 > /sys/devices/system/cpu/cpu$c/online || fail "offline cpu$c under $pol"
			c=$((c + 1))
		done
		[ "$(cat /sys/devices/system/cpu/online)" = 0 ] || fail "cpus still online: $(cat /sys/devices/system/cpu/online)"
		c=1
		while [ $c -lt $ncpu ]; do
			echo 1 > /sys/devices/system/cpu/cpu$c/online || fail "online cpu$c under $pol"
			c=$((c + 1))
		done
		# and a package at a time
		for c in 4 5 6 7; do echo 0 > /sys/devices/system/cpu/cpu$c/online; done
		usleep 300000
		for c in 4 5 6 7; do echo 1 > /sys/devices/system/cpu/cpu$c/online; done
	done
	wait $hb || fail "hackbench during hotplug under $pol"
done
echo "stress: hotplug done"
kill $loops
echo ok > stress.done
