printf '#!/bin/sh\nwhile :; do :; done\n' > /tmp/spinloop; chmod +x /tmp/spinloop
trace-cmd record -q -e sched:sched_switch -e sched:sched_migrate_task -e sched:sched_wakeup -e power:cpu_idle \
  -o trace.dat sh -c 'taskset 0x01 /tmp/spinloop & a=$!; taskset 0x10 /tmp/spinloop & b=$!; sleep 3; kill $a $b'
