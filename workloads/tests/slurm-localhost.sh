# SPDX-License-Identifier: GPL-2.0
#
# A single-node Slurm on this machine for the tests (sourced): its own
# munged, slurmctld and slurmd, every file under one folder, on loopback
# ports of their own, so nothing of an installed Slurm is used or touched.
#
#   slurm_start DIR   start it (sets SLURM_CONF, MUNGE_SOCKET); fails with
#                     a reason on stderr
#   slurm_stop        stop what slurm_start started

slurm_pids=()

# a TCP port nothing listens on at loopback (a connection is refused)
slurm_free_port() {
	local p
	while :; do
		p=$((20000 + RANDOM % 40000))
		(exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null || { echo "$p"; return; }
	done
}

slurm_start() {
	local d=$1 i cpus mem ctl_port d_port
	mkdir -p "$d/state" "$d/spool" "$d/munge" || return 1
	chmod 700 "$d/munge"
	# munged refuses a key or socket folder others can write
	dd if=/dev/urandom of="$d/munge/munge.key" bs=1024 count=1 status=none && chmod 400 "$d/munge/munge.key" || return 1
	MUNGE_SOCKET=$d/munge/munge.socket
	munged --force --key-file="$d/munge/munge.key" --socket="$MUNGE_SOCKET" \
		--pid-file="$d/munge/munged.pid" --log-file="$d/munge/munged.log" --seed-file="$d/munge/munged.seed" ||
		{ echo "slurm_start: munged did not start: $(tail -n 3 "$d/munge/munged.log" 2>/dev/null)" >&2; return 1; }
	slurm_pids+=("$(cat "$d/munge/munged.pid")")
	cpus=$(nproc)
	mem=$(awk '$1 == "MemTotal:" { print int($2 / 1024 * 0.9) }' /proc/meminfo)
	ctl_port=$(slurm_free_port) d_port=$(slurm_free_port)
	cat >"$d/slurm.conf" <<EOF
ClusterName=powersched-test
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$ctl_port
SlurmdPort=$d_port
AuthType=auth/munge
AuthInfo=socket=$MUNGE_SOCKET
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool
SlurmctldPidFile=$d/slurmctld.pid
SlurmdPidFile=$d/slurmd.pid
SlurmctldLogFile=$d/slurmctld.log
SlurmdLogFile=$d/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU_Memory
ReturnToService=2
SlurmdTimeout=300
InactiveLimit=0
MinJobAge=300
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=test Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
	export SLURM_CONF=$d/slurm.conf MUNGE_SOCKET
	slurmctld -i || { echo "slurm_start: slurmctld did not start: $(tail -n 5 "$d/slurmctld.log" 2>/dev/null)" >&2; return 1; }
	for ((i = 0; i < 50; i++)); do [ -s "$d/slurmctld.pid" ] && break; sleep 0.1; done
	slurm_pids+=("$(cat "$d/slurmctld.pid" 2>/dev/null)")
	slurmd -N localhost || { echo "slurm_start: slurmd did not start: $(tail -n 5 "$d/slurmd.log" 2>/dev/null)" >&2; return 1; }
	for ((i = 0; i < 50; i++)); do [ -s "$d/slurmd.pid" ] && break; sleep 0.1; done
	slurm_pids+=("$(cat "$d/slurmd.pid" 2>/dev/null)")
	# the node must come up idle before a job can run
	for ((i = 0; i < 60; i++)); do
		case "$(sinfo -h -n localhost -o '%T' 2>/dev/null)" in
		idle*) return 0 ;;
		esac
		sleep 0.5
	done
	echo "slurm_start: the node did not come up idle: $(sinfo -N -h -o '%N %T %E' 2>&1); slurmd.log ends: $(tail -n 5 "$d/slurmd.log")" >&2
	return 1
}

slurm_stop() {
	local p
	# the test's jobs first: a task still running would leave its guest
	[ -n "${SLURM_CONF:-}" ] && scancel --full --signal=TERM --user=root 2>/dev/null && sleep 2
	for p in "${slurm_pids[@]}"; do
		[ -n "$p" ] && kill "$p" 2>/dev/null
	done
	sleep 1
	for p in "${slurm_pids[@]}"; do
		[ -n "$p" ] && kill -9 "$p" 2>/dev/null
	done
	slurm_pids=()
}
