#!/bin/sh
# record-limits.sh: powersched record where it cannot keep everything:
# 4 KB ring buffers under hackbench (events lost), and a 24 MB tmpfs that
# fills during a long hackbench (the recording stops early).
powersched record -o lossy --buffer-kb 4 -- hackbench -g 2 -l 20 >lossy.out 2>&1
echo $? >lossy.rc
mkdir -p /tmp/small && mount -t tmpfs -o size=24m tmpfs /tmp/small || exit 1
powersched record -o /tmp/small/r --buffer-kb 256 -- hackbench -g 4 -l 3000 >diskfull.out 2>&1
echo $? >diskfull.rc
df -k /tmp/small >>diskfull.out
mkdir -p diskfull && cp /tmp/small/r/* diskfull/
# tracefs is also reachable through debugfs (an automount): neither stays
umount /sys/kernel/tracing
umount /sys/kernel/debug/tracing 2>/dev/null
umount /sys/kernel/debug
powersched record -o notracefs -- true >notracefs.out 2>&1
echo $? >notracefs.rc
