# three busy loops pinned to cpu 0 for 3 s: each runs a third of the time
# and waits two thirds, while the 7 other cpus idle
printf '#!/bin/sh\nwhile :; do :; done\n' > /tmp/spinloop; chmod +x /tmp/spinloop
trace-cmd record -q --compression none -e sched:sched_switch -e sched:sched_waking -e sched:sched_wakeup -e sched:sched_wakeup_new -e sched:sched_migrate_task \
  -o trace.dat sh -c 'kick-cpus && { taskset 0x01 /tmp/spinloop & a=$!; taskset 0x01 /tmp/spinloop & b=$!; taskset 0x01 /tmp/spinloop & c=$!; sleep 3; kill $a $b $c; }'
