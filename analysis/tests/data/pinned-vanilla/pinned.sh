# two busy loops pinned to cpus 0 and 4 for 3 s
printf '#!/bin/sh\nwhile :; do :; done\n' > /tmp/spinloop; chmod +x /tmp/spinloop
trace-cmd record -q --compression none -e sched:sched_switch -e sched:sched_waking -e sched:sched_wakeup -e sched:sched_wakeup_new -e sched:sched_migrate_task -e power:cpu_idle \
  -o trace.dat sh -c 'kick-cpus && { taskset 0x01 /tmp/spinloop & a=$!; taskset 0x10 /tmp/spinloop & b=$!; sleep 3; kill $a $b; }'
