#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# torture.sh SEED SECONDS [panic-at STEP]: the guest half of kernel/torture.
# For SECONDS, a random mix drawn from SEED of
#   - workloads: spin, wave, periodic and hackbench, each started in one of
#     four cpu cgroups (/torture/a/x, /torture/a/y, /torture/b/x at depth 2,
#     /torture/c at depth 1)
#   - affinity changes of running workload tasks
#   - balance policy switches, the POWER_LAZY_BALANCE and
#     POWER_PACK_TRANSITORY sched_feat switches, sched_burst_threshold_ns
#   - cpu hotplug (any cpu but 0, at most half of them offline at once)
#   - moves of tasks between cgroups and cpu.weight changes
# then stops everything, onlines every cpu and checks the machine still
# schedules.  The kernel's checkers do the judging: kernel/torture fails the
# run on anything they print.  Every action goes to torture.log and, through
# /dev/kmsg, into the console between the kernel's own messages, so a report
# shows what the mix was doing when it fired.
#
# Each step draws the same number of random values whatever it does, so the
# same SEED gives the same sequence of actions with the same parameters;
# what they act on (which pid, whether a cpu is online) and their timing,
# and so the kernel's interleaving, differ run to run.
# "panic-at STEP" crashes the guest (sysrq c) at STEP: the check that a
# kernel failure is caught and reported.
# TORTURE_DRY_RUN=STEPS prints the first STEPS actions without doing them
# (on any shell, no kernel needed).
# Exit status: 0, or 1 if the machine did not come back (a cpu that would
# not come online, workloads that would not die, a final workload failed).
seed=${1:?usage: torture.sh SEED SECONDS}
dur=${2:?usage: torture.sh SEED SECONDS}
seed0=$seed

POLICY=/sys/devices/system/cpu/sched_balance_policy/current_sched_balance_policy
FEATURES=/sys/kernel/debug/sched/features
BURST=/proc/sys/kernel/sched_burst_threshold_ns
CG=/sys/fs/cgroup/torture
LEAVES="$CG/a/x $CG/a/y $CG/b/x $CG/c"

# 31-bit linear congruential generator in shell arithmetic (busybox ash has
# no seedable RANDOM); draw sets V1..V6 to 15-bit values for one step.
rnd() {
	seed=$(((seed * 1103515245 + 12345) % 2147483648))
	R=$((seed / 65536))
}
draw() {
	rnd; V1=$R; rnd; V2=$R; rnd; V3=$R; rnd; V4=$R; rnd; V5=$R; rnd; V6=$R
}

step=0
log() {
	echo "torture: step $step: $*" >>torture.log
	echo "torture: step $step: $*" >/dev/kmsg
}
count() { eval "n_$1=\$((n_$1 + 1))"; }
n_workload=0 n_affinity=0 n_policy=0 n_hotplug=0 n_feature=0 n_burst=0 n_move=0 n_weight=0 n_refused=0

# nth K WORDS...: the word at index K (0-based) in NTH
nth() {
	k=$1
	shift
	shift "$k"
	NTH=$1
}

# pick_task V: the task of the workloads that V selects, in PID (empty when
# none runs); NTASKS: how many run
pick_task() {
	cat $(for l in $LEAVES; do echo "$l/cgroup.procs"; done) >/tmp/torture.pids 2>/dev/null
	NTASKS=$(wc -l </tmp/torture.pids)
	PID=""
	[ "$NTASKS" -gt 0 ] || return 0
	PID=$(sed -n "$(($1 % NTASKS + 1))p" /tmp/torture.pids)
}

start_workload() {
	nth $((V2 % 4)) $LEAVES
	leaf=$NTH
	case $((V3 % 4)) in
	0)	cmd="spin $((V4 % ncpu + 1)) -t $((V5 % 6 + 2))" ;;
	1)	cmd="wave -j $((V4 % ncpu + 1)) -n $((V5 % 40 + 10)) -s $step" ;;
	2)	r=$((V5 % 5 + 1))
		cmd="periodic $((V4 % 4 + 1)) -r $r -p $((r + V6 % 20 + 4)) -t 4" ;;
	3)	cmd="hackbench -g $((V4 % 2 + 1)) -l $((V5 % 20 + 10))" ;;
	esac
	[ -z "$DRY" ] || { echo "step $step: start '$cmd' in ${leaf#/sys/fs/cgroup}"; return; }
	pick_task 0
	# bound the load: TCG with every checker on is slow enough already
	if [ "$NTASKS" -ge $((ncpu * 6)) ]; then
		log "workload '$cmd' skipped: $NTASKS tasks already running"
		return
	fi
	mkdir -p /tmp/torture/w$step
	(cd /tmp/torture/w$step && exec sh -c "echo \$\$ >$leaf/cgroup.procs && exec $cmd" >/dev/null 2>&1) &
	log "start '$cmd' in ${leaf#/sys/fs/cgroup}"
	count workload
}

change_affinity() {
	mask=$(printf '%x' $(((V3 * 32768 + V4) % ((1 << ncpu) - 1) + 1)))
	[ -z "$DRY" ] || { echo "step $step: affinity of task #$V2 to 0x$mask"; return; }
	pick_task "$V2"
	[ -n "$PID" ] || return 0
	if taskset -p "$mask" "$PID" >/dev/null 2>&1; then
		log "affinity of pid $PID set to 0x$mask"
	else
		log "affinity of pid $PID to 0x$mask refused (offline cpus only, or the task exited)"
		count refused
	fi
	count affinity
}

switch_policy() {
	p=performance
	[ $((V2 % 2)) = 1 ] && p=powersaving
	[ -z "$DRY" ] || { echo "step $step: policy $p"; return; }
	[ $has_policy = 1 ] || return 0
	echo $p >"$POLICY" || { log "policy $p refused"; count refused; }
	log "policy $p"
	count policy
}

hotplug() {
	[ "$ncpu" -gt 1 ] || return 0
	c=$((V2 % (ncpu - 1) + 1))
	[ -z "$DRY" ] || { echo "step $step: hotplug cpu$c"; return; }
	f=/sys/devices/system/cpu/cpu$c/online
	if [ "$(cat $f)" = 1 ]; then
		off=$(cat /sys/devices/system/cpu/offline | tr ',' '\n' |
			awk -F- 'NF == 1 && $1 != "" { n++ } NF == 2 { n += $2 - $1 + 1 } END { print n + 0 }')
		[ "$off" -lt $((ncpu / 2)) ] || return 0
		log "cpu$c going offline"
		echo 0 >$f || { log "cpu$c offline refused"; count refused; }
	else
		log "cpu$c coming online"
		echo 1 >$f || { log "cpu$c online refused"; count refused; }
	fi
	count hotplug
}

toggle_feature() {
	f=POWER_LAZY_BALANCE
	[ $((V2 % 2)) = 1 ] && f=POWER_PACK_TRANSITORY
	[ $((V3 % 2)) = 1 ] && f=NO_$f
	[ -z "$DRY" ] || { echo "step $step: sched_feat $f"; return; }
	[ -w "$FEATURES" ] && grep -q POWER_LAZY_BALANCE $FEATURES || return 0
	echo $f >$FEATURES || { log "sched_feat $f refused"; count refused; }
	log "sched_feat $f"
	count feature
}

set_burst() {
	nth $((V2 % 4)) 0 100000 1000000 100000000
	[ -z "$DRY" ] || { echo "step $step: sched_burst_threshold_ns $NTH"; return; }
	[ -w "$BURST" ] || return 0
	echo "$NTH" >$BURST || { log "sched_burst_threshold_ns $NTH refused"; count refused; }
	log "sched_burst_threshold_ns $NTH"
	count burst
}

move_task() {
	nth $((V3 % 4)) $LEAVES
	leaf=$NTH
	[ -z "$DRY" ] || { echo "step $step: move task #$V2 to ${leaf#/sys/fs/cgroup}"; return; }
	pick_task "$V2"
	[ -n "$PID" ] || return 0
	if echo "$PID" >"$leaf/cgroup.procs" 2>/dev/null; then
		log "pid $PID moved to ${leaf#/sys/fs/cgroup}"
	else
		log "pid $PID move to ${leaf#/sys/fs/cgroup} failed (exited)"
		count refused
	fi
	count move
}

set_weight() {
	nth $((V2 % 6)) $CG/a $CG/b $CG/c $CG/a/x $CG/a/y $CG/b/x
	g=$NTH
	nth $((V3 % 4)) 1 100 1000 10000
	[ -z "$DRY" ] || { echo "step $step: cpu.weight of ${g#/sys/fs/cgroup} $NTH"; return; }
	echo "$NTH" >"$g/cpu.weight" || { log "cpu.weight $NTH refused"; count refused; }
	log "cpu.weight of ${g#/sys/fs/cgroup} set to $NTH"
	count weight
}

# one_step: draw this step's values, do its action, sleep 0.1-1 s
one_step() {
	step=$((step + 1))
	draw
	case $((V1 % 12)) in
	0|1|2)	start_workload ;;
	3|4)	change_affinity ;;
	5)	switch_policy ;;
	6|7)	hotplug ;;
	8)	toggle_feature ;;
	9)	set_burst ;;
	10)	move_task ;;
	11)	set_weight ;;
	esac
	if [ -n "$panic_at" ] && [ "$step" = "$panic_at" ]; then
		log "crashing the kernel on purpose (panic-at $panic_at)"
		echo c >/proc/sysrq-trigger
	fi
	[ -n "$DRY" ] || usleep $(((V6 % 10 + 1) * 100000))
}

panic_at=""
[ "${3:-}" = panic-at ] && panic_at=${4:?panic-at needs a step}
DRY=${TORTURE_DRY_RUN:-}
if [ -n "$DRY" ]; then
	ncpu=${TORTURE_DRY_CPUS:-8}
	while [ $step -lt "$DRY" ]; do one_step; done
	exit 0
fi

ncpu=$(ls -d /sys/devices/system/cpu/cpu[0-9]* | wc -l)
has_policy=0
[ -w "$POLICY" ] && has_policy=1
policy0=$([ $has_policy = 1 ] && cat "$POLICY")
: >torture.log

mkdir -p $CG/a/x $CG/a/y $CG/b/x $CG/c || { echo "torture.sh: cannot create cgroups under $CG" >&2; exit 1; }
for d in /sys/fs/cgroup $CG $CG/a $CG/b; do
	echo +cpu >$d/cgroup.subtree_control || { echo "torture.sh: cannot enable the cpu controller in $d" >&2; exit 1; }
done

echo "torture.sh: seed $seed, $dur s, $ncpu cpus, kernel $(uname -r)"
log "begin: seed $seed, $dur s, $ncpu cpus"
end=$(($(date +%s) + dur))
while [ "$(date +%s)" -lt $end ]; do one_step; done

step=end
log "stopping the workloads, onlining every cpu"
rc=0
echo 1 >$CG/cgroup.kill
for f in /sys/devices/system/cpu/cpu[0-9]*/online; do
	[ "$(cat $f)" = 1 ] || echo 1 >$f
done
t=0
while [ -n "$(cat $(for l in $LEAVES; do echo "$l/cgroup.procs"; done))" ] && [ $t -lt 60 ]; do
	sleep 1
	t=$((t + 1))
done
wait 2>/dev/null
left=$(cat $(for l in $LEAVES; do echo "$l/cgroup.procs"; done) | wc -l)
[ "$left" = 0 ] || { echo "torture.sh: $left workload tasks still alive 60 s after cgroup.kill"; rc=1; }
online=$(cat /sys/devices/system/cpu/online)
[ "$online" = "0-$((ncpu - 1))" ] || { echo "torture.sh: cpus online after the run: $online, not 0-$((ncpu - 1))"; rc=1; }

if [ $has_policy = 1 ]; then
	echo "$policy0" >"$POLICY"
	echo POWER_LAZY_BALANCE >$FEATURES
	echo POWER_PACK_TRANSITORY >$FEATURES
	echo 100000 >$BURST
fi

# The machine still schedules: a loop on every cpu runs to the end.
log "final check: spin $ncpu -t 2"
if ! (cd /tmp && spin "$ncpu" -t 2 >/tmp/final.txt 2>&1); then
	echo "torture.sh: the final 'spin $ncpu -t 2' failed:"
	cat /tmp/final.txt
	rc=1
fi

step=$(grep -c 'torture: step [0-9]' torture.log)
summary="$step actions: $n_workload workloads, $n_affinity affinity changes, $n_policy policy switches, $n_hotplug hotplug operations, $n_feature sched_feat toggles, $n_burst burst thresholds, $n_move cgroup moves, $n_weight weight changes ($n_refused refused by the kernel)"
echo "torture.sh: $summary"
printf 'seed\t%s\nseconds\t%s\nactions\t%s\nworkloads\t%s\naffinity\t%s\npolicy\t%s\nhotplug\t%s\nfeature\t%s\nburst\t%s\nmove\t%s\nweight\t%s\nrefused\t%s\n' \
	"$seed0" "$dur" "$step" $n_workload $n_affinity $n_policy $n_hotplug $n_feature $n_burst $n_move $n_weight $n_refused >torture-summary.tsv
exit $rc
