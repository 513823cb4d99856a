#!/bin/sh
# pack.sh N SECONDS [CPUMASK|-] [nested]: run N busy loops (comm "spinloop")
# for SECONDS, optionally pinned with taskset CPUMASK, and write
#   busy.tsv     cpu <TAB> busy share over the last 5 s (from /proc/stat)
#   where.txt    the cpu of every loop, sampled 10 times in the last 5 s
#   cgroups.txt  the cgroup of every loop
# "nested" puts loop K in its own cpu cgroup /pack/job<K % 2>/task<K>, two
# levels below the root with the cpu controller on at every level, the way
# systemd nests services and sessions.
n=$1 dur=$2 mask=${3:-} cg=${4:-}
[ "$mask" = - ] && mask=""
printf '#!/bin/sh\nwhile :; do :; done\n' > /tmp/spinloop
chmod +x /tmp/spinloop

if [ "$cg" = nested ]; then
	base=/sys/fs/cgroup/pack
	mkdir -p $base/job0 $base/job1 || exit 1
	for d in /sys/fs/cgroup $base $base/job0 $base/job1; do
		echo +cpu >$d/cgroup.subtree_control || { echo "pack.sh: cannot enable the cpu controller in $d" >&2; exit 1; }
	done
fi

pids=""
i=0
while [ $i -lt "$n" ]; do
	run=/tmp/spinloop
	[ -n "$mask" ] && run="taskset $mask /tmp/spinloop"
	if [ "$cg" = nested ]; then
		leaf=$base/job$((i % 2))/task$i
		mkdir -p "$leaf" || exit 1
		sh -c "echo \$\$ >$leaf/cgroup.procs && exec $run" &
	else
		$run &
	fi
	pids="$pids $!"
	i=$((i + 1))
done
usleep 200000
for p in $pids; do echo "$p $(cat /proc/$p/cgroup)"; done > cgroups.txt

snap() { awk '/^cpu[0-9]/ { print substr($1, 4), $2 + $3 + $4 + $7 + $8, $5 + $6 }' /proc/stat; }

sleep $((dur - 5))
snap > /tmp/s1
: > where.txt
for s in 1 2 3 4 5 6 7 8 9 10; do
	for p in $pids; do awk '{ print $39 }' /proc/$p/stat; done >> where.txt
	usleep 500000
done
snap > /tmp/s2
kill $pids
wait 2>/dev/null

# busy share per cpu: busy ticks / all ticks over the window
awk 'NR == FNR { b[$1] = $2; i[$1] = $3; next }
     { db = $2 - b[$1]; di = $3 - i[$1]; printf "%d\t%.3f\n", $1, (db + di) ? db / (db + di) : 0 }' \
	/tmp/s1 /tmp/s2 > busy.tsv
