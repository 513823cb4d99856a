#!/bin/sh
# balance.sh WHAT: balance rules of the powersaving policy.
#   pinned  (server) 3 busy loops started on cpu 0, then allowed on cpus 0
#           and 4 only: cpu 4 must take one (mainline's handling of a group
#           imbalanced by affinity comes before packing)
#   sparse  (quad) busy loops started on cpus 0 and 12, an rt task taking a
#           tenth of cpu 8, then the loops let free: they must end up in one
#           package (packing of sparse tasks through the nohz balancer,
#           group_min never a group without cfs tasks)
#   thrash  (server) wave -j 2 (the make -j like load of workloads/wave.c),
#           300 jobs: lazy placement keeps waking tasks where they ran
#   thrash-off  the same with NO_POWER_LAZY_BALANCE
#   backoff (server) wave -j 8, 300 jobs: a load at what the domains hold,
#           overloading them again and again (the lazy hold backs off)
#   backoff-off  the same with NO_POWER_LAZY_BACKOFF
# Writes busy.tsv (cpu, busy share over the last 5 s) and the recording of
# the run (trace-run.sh) in WHAT/.
printf '#!/bin/sh\nwhile :; do :; done\n' > /tmp/spinloop
chmod +x /tmp/spinloop
busy() {
	awk 'NR == FNR { b[$1] = $2; i[$1] = $3; next }
	     { db = $2 - b[$1]; di = $3 - i[$1]; printf "%d\t%.3f\n", $1, (db + di) ? db / (db + di) : 0 }' \
		/tmp/s1 /tmp/s2 > busy.tsv
}

case "$1" in
pinned)
	cat > /tmp/run.sh <<'EOS'
p=""
for i in 1 2 3; do taskset 0x1 /tmp/spinloop & p="$p $!"; done
sleep 1
for i in $p; do taskset -p 0x11 $i > /dev/null; done
sleep 5
awk '/^cpu[0-9]/ { print substr($1, 4), $2 + $3 + $4 + $7 + $8, $5 + $6 }' /proc/stat > /tmp/s1
sleep 5
awk '/^cpu[0-9]/ { print substr($1, 4), $2 + $3 + $4 + $7 + $8, $5 + $6 }' /proc/stat > /tmp/s2
kill $p
EOS
	;;
sparse)
	cat > /tmp/run.sh <<'EOS'
taskset 0x100 periodic 1 -r 1 -p 10 -t 14 -f 10 > rt-task.log 2>&1 & rt=$!
taskset 0x1 /tmp/spinloop & a=$!
taskset 0x1000 /tmp/spinloop & b=$!
sleep 1
taskset -p 0xffff $a > /dev/null
taskset -p 0xffff $b > /dev/null
sleep 7
awk '/^cpu[0-9]/ { print substr($1, 4), $2 + $3 + $4 + $7 + $8, $5 + $6 }' /proc/stat > /tmp/s1
sleep 5
awk '/^cpu[0-9]/ { print substr($1, 4), $2 + $3 + $4 + $7 + $8, $5 + $6 }' /proc/stat > /tmp/s2
kill $a $b
wait $rt
EOS
	;;
thrash|thrash-off)
	printf 'cd /tmp && wave -j 2 -n 300\n' > /tmp/run.sh
	;;
backoff|backoff-off)
	printf 'cd /tmp && wave -j 8 -n 300\n' > /tmp/run.sh
	;;
*)	echo "balance.sh: unknown case '$1'" >&2; exit 2 ;;
esac
feats=-
[ "$1" = thrash-off ] && feats=NO_POWER_LAZY_BALANCE
[ "$1" = backoff-off ] && feats=NO_POWER_LAZY_BACKOFF
sh trace-run.sh "$1" "$feats" sh /tmp/run.sh || exit 1
if [ -f /tmp/s2 ]; then busy; fi
