#!/bin/sh
# events.sh: under powersaving, record (powersched record: the powersched
# events, sched_switch, sched_waking, sched_migrate_task, ...) through loops that come and
# go in waves, so that packing, spreading and lazy skips all happen, after a
# policy switch there and back.
printf '#!/bin/sh\nwhile :; do :; done\n' > /tmp/spinloop
chmod +x /tmp/spinloop
# short-lived tasks for the wakeup placement
printf '#!/bin/sh\nfor i in 1 2 3 4 5 6 7 8 9 10; do usleep 20000; done\n' > /tmp/ticker
chmod +x /tmp/ticker

P=/sys/devices/system/cpu/sched_balance_policy/current_sched_balance_policy
powersched record -o . -- sh -c '
	echo performance > '$P'; echo powersaving > '$P'
	/tmp/spinloop & a=$!; /tmp/spinloop & b=$!
	sleep 3
	r=0
	while [ $r -lt 20 ]; do
		p=""
		for i in 1 2 3 4 5 6 7 8 9 10; do /tmp/spinloop & p="$p $!"; done
		/tmp/ticker & /tmp/ticker &
		usleep 400000
		kill $p
		usleep 300000
		r=$((r + 1))
	done
	sleep 1
	kill $a $b' > record.log 2>&1
