# as workloads/matrix records its spin-2-powersaving cell
trace-cmd record -q --compression none -b 4096 -e sched:sched_switch -e sched:sched_waking -e sched:sched_wakeup -e sched:sched_wakeup_new -e sched:sched_migrate_task -e powersched -o trace.dat sh -c 'kick-cpus && exec spin 2 -t 8' > workload.out 2>&1
cat workload.out
