#!/bin/sh
# burst.sh: a light hackbench (8 tasks) under powersaving, once with every cpu taken to be in
# a wakeup burst (threshold 1 s) and once with burst detection off (0).  Five rounds each:
# how many wakeups a burst hands to mainline depends on where a round's forks left its
# tasks (4 to 111 in single rounds on one kernel), and fresh rounds average over that.
T=/proc/sys/kernel/sched_burst_threshold_ns
for mode in on off; do
	if [ $mode = on ]; then echo 1000000000 > $T; else echo 0 > $T; fi
	powersched record -o burst-$mode -- sh -c \
		'for r in 1 2 3 4 5; do hackbench -g 1 -f 4 -l 300 || exit 1; done' > hackbench-$mode.log 2>&1 ||
		echo "burst.sh: the recording with bursts $mode failed" >&2
done
echo 100000 > $T
