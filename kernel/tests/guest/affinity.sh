#!/bin/sh
# affinity.sh: under powersaving, 3 loops pinned to package 1 (cpus 4-7)
# next to 1 unpinned loop on package 0, traced for 8 s.
printf '#!/bin/sh\nwhile :; do :; done\n' > /tmp/spinloop
printf '#!/bin/sh\nwhile :; do :; done\n' > /tmp/freeloop
chmod +x /tmp/spinloop /tmp/freeloop
taskset 0x1 /tmp/freeloop & f=$!
usleep 500000
taskset -p 0xff $f > /dev/null
powersched record -o . -- sh -c '
	p=""
	for i in 1 2 3; do taskset 0xf0 /tmp/spinloop & p="$p $!"; done
	sleep 8
	kill $p' > record.log 2>&1
kill $f
