#!/bin/sh
# record.sh: powersched record in the guest, with three busy loops pinned to
# cpus 1, 2 and 5 from before the recording starts (cpus that run one task
# throughout: only the recording's own kick makes them switch), and the
# topology from the kernel's sched_verbose report for comparison.
cp topology.tsv topology-init.tsv
sh topology-dmesg.sh >topology-dmesg.tsv
printf '#!/bin/sh\nwhile :; do :; done\n' >/tmp/spinloop
chmod +x /tmp/spinloop
p=""
for c in 1 2 5; do taskset $(printf %x $((1 << c))) /tmp/spinloop & p="$p $!"; done
usleep 500000
powersched record -o . -- spin 2 -t 3 >record.out 2>&1
echo $? >record.rc
kill $p
