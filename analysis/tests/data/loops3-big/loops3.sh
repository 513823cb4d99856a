# three busy loops started before tracing on 16 cpus, traced through sleep 4:
# the cpus that run them switch only when kick-cpus runs a task on them
printf '#!/bin/sh\nwhile :; do :; done\n' > /tmp/spinloop; chmod +x /tmp/spinloop
/tmp/spinloop & a=$!; /tmp/spinloop & b=$!; /tmp/spinloop & c=$!
sleep 1
trace-cmd record -q --compression none -e sched:sched_switch -e sched:sched_waking -e sched:sched_wakeup -e sched:sched_wakeup_new -e sched:sched_migrate_task -o trace.dat sh -c 'kick-cpus && sleep 4'
kill $a $b $c
