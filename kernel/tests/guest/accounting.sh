#!/bin/sh
# accounting.sh: what the powersaving policy counts, on the server topology
# (cpus 0-3 package 0, 4-7 package 1; siblings 0-1, 2-3, ...).
#   dd-on, dd-off  6 periodic tasks (1 ms every 6 ms) sharing cpus 4-5,
#                  a cpu's worth of work in all, with DELAY_DEQUEUE on
#                  (6.12's default) and off: sleepers left queued must not
#                  make the two cpus look overloaded
#   rt             an rt task taking half of cpu 3 beside two cfs loops:
#                  the capacity the policy counts must shrink by that half
#   hb             hackbench: wakeups whose wake-affine domain is SMT
#   full           4 loops, which the policy packs into one package, beside
#                  a task running 1 ms in 20 on cpu 0: its wakeups must not
#                  make the full package overloaded
printf '#!/bin/sh\nwhile :; do :; done\n' > /tmp/spinloop
chmod +x /tmp/spinloop

sh trace-run.sh dd-on - taskset 0x30 periodic 6 -r 1 -p 6 -t 5 || exit 1
sh trace-run.sh dd-off NO_DELAY_DEQUEUE taskset 0x30 periodic 6 -r 1 -p 6 -t 5 || exit 1

taskset 0x8 periodic 1 -r 5 -p 10 -t 9 -f 10 > rt-task.log 2>&1 & rt=$!
sleep 2
sh trace-run.sh rt - sh -c '/tmp/spinloop & a=$!; /tmp/spinloop & b=$!; sleep 5; kill $a $b' || exit 1
wait $rt

sh trace-run.sh hb - hackbench -g 2 -l 50 || exit 1

sh trace-run.sh full - sh -c 'taskset 0x1 periodic 1 -r 1 -p 20 -t 6 & spin 4 -t 6; wait' || exit 1
