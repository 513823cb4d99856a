#!/bin/sh
# accounting.sh: what the powersaving policy counts, on the server topology
# (cpus 0-3 package 0, 4-7 package 1; siblings 0-1, 2-3, ...).
#   dd-on, dd-off  6 periodic tasks (1 ms every 6 ms) sharing cpus 4-5,
#                  a cpu's worth of work in all, with DELAY_DEQUEUE on
#                  (6.12's default) and off: sleepers left queued must not
#                  make the two cpus look overloaded.  Their periods are
#                  staggered (-s): started together, they wake together
#                  more or less closely run to run, and a run where they
#                  queue deep is overloaded for real (0.0 and 41/s, then
#                  56 and 0.4/s, on and off, in two runs of one kernel)
#   rt             an rt task taking half of cpu 3 beside two cfs loops:
#                  the capacity the policy counts must shrink by that half
#   hb             hackbench: wakeups whose wake-affine domain is SMT
#   full           4 loops, which the policy packs into one package, beside
#                  a task running 1 ms in 20 on cpu 0: its wakeups must not
#                  make the full package overloaded
printf '#!/bin/sh\nwhile :; do :; done\n' > /tmp/spinloop
chmod +x /tmp/spinloop

# Every recording is made even when one fails, so that one bad recording
# costs its own checks only; each failure is said with its log's end.
failed=0
rec() {
	sh trace-run.sh "$@" && return 0
	echo "accounting: recording $1 failed (exit $?); the end of $1.log:" >&2
	tail -n 5 "$1.log" >&2
	failed=$((failed + 1))
}

rec dd-on - taskset 0x30 periodic 6 -r 1 -p 6 -t 5 -s
rec dd-off NO_DELAY_DEQUEUE taskset 0x30 periodic 6 -r 1 -p 6 -t 5 -s

taskset 0x8 periodic 1 -r 5 -p 10 -t 9 -f 10 > rt-task.log 2>&1 & rt=$!
sleep 2
rec rt - sh -c '/tmp/spinloop & a=$!; /tmp/spinloop & b=$!; sleep 5; kill $a $b'
wait $rt || { echo "accounting: the rt task failed: $(cat rt-task.log)" >&2; failed=$((failed + 1)); }

rec hb - hackbench -g 2 -l 50

rec full - sh -c 'taskset 0x1 periodic 1 -r 1 -p 20 -t 6 & spin 4 -t 6; wait'
exit $failed
