#!/bin/sh
# burst.sh: a light hackbench (8 tasks) under powersaving, once with every cpu taken to be in
# a wakeup burst (threshold 1 s) and once with burst detection off (0).
T=/proc/sys/kernel/sched_burst_threshold_ns
for mode in on off; do
	if [ $mode = on ]; then echo 1000000000 > $T; else echo 0 > $T; fi
	powersched record -o burst-$mode -- hackbench -g 1 -f 4 -l 300 > hackbench-$mode.log 2>&1
done
echo 100000 > $T
