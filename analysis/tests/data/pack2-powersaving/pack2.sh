# two unpinned busy loops for 4 s
printf '#!/bin/sh\nwhile :; do :; done\n' > /tmp/spinloop; chmod +x /tmp/spinloop
trace-cmd record -q --compression none -e sched:sched_switch -e sched:sched_waking -e sched:sched_wakeup -e sched:sched_wakeup_new -e sched:sched_migrate_task -e power:cpu_idle -e powersched \
  -o trace.dat sh -c 'kick-cpus && { /tmp/spinloop & a=$!; /tmp/spinloop & b=$!; sleep 4; kill $a $b; }'
