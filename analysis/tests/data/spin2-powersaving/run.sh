trace-cmd record -q -b 4096 -e sched:sched_switch -e sched:sched_migrate_task -e powersched -o trace.dat spin 2 -t 8 > workload.out 2>&1
cat workload.out
