printf '#!/bin/sh\nwhile :; do :; done\n' > /tmp/spinloop; chmod +x /tmp/spinloop
trace-cmd record -q -e sched:sched_switch -e sched:sched_migrate_task -e sched:sched_wakeup -e power:cpu_idle -e powersched \
  -o trace.dat sh -c '/tmp/spinloop & a=$!; /tmp/spinloop & b=$!; sleep 4; kill $a $b'
