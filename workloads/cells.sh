# SPDX-License-Identifier: GPL-2.0
#
# workloads/cells.sh: what the cells of the experiment matrix are and what
# each one runs (sourced by workloads/matrix and workloads/run-cell, so that
# the list, REUSE=1's comparison and the cell that runs agree by
# construction).
#
# Cells are WORKLOAD-PARAM-CONFIG[-REPEAT]:
#   spin-N    N busy loops (spin N -t SPIN_SECONDS), N = 1 2 4 8
#   wave-J    a make -j J like load (wave -j J -n WAVE_JOBS), J = 2 4 8
#   periodic-N, hackbench-G: extra cells, run only when RUNS names them
# and CONFIG is
#   powersaving, performance   the powersched kernel under that policy
#   vanilla                    the unpatched kernel
#   nolazy                     powersaving with NO_POWER_LAZY_BALANCE (wave,
#                              and periodic as an extra cell)
#   lazyv7                     powersaving with POWER_LAZY_V7, v7's lazy rule
#                              (wave, and periodic as an extra cell)
#   lazywN                     powersaving with sched_power_lazy_window=N
#                              (extra cells wave-J-lazyw32, wave-J-lazyw128)
#   lazyfixed                  powersaving with NO_POWER_LAZY_BACKOFF, the
#                              default rule with its window fixed (extra
#                              cells wave-J-lazyfixed)

CELLS_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=${OUT:-$CELLS_ROOT/build/report/runs}
TOPOLOGY=${TOPOLOGY:-server}
SPIN_SECONDS=${SPIN_SECONDS:-8}
WAVE_JOBS=${WAVE_JOBS:-800}
REPEATS=${REPEATS:-3}
REPEAT_CONFIGS=${REPEAT_CONFIGS:-performance vanilla}
PERIODIC_SECONDS=${PERIODIC_SECONDS:-8}
RUNS=${RUNS:-}

all_cells() {
	local n j c
	for n in 1 2 4 8; do
		for c in powersaving performance vanilla; do echo "spin-$n-$c"; done
	done
	for j in 2 4 8; do
		for c in powersaving performance vanilla nolazy lazyv7; do echo "wave-$j-$c"; done
	done
}

extra_cells() {
	local c
	for c in powersaving performance vanilla; do
		echo "periodic-4-$c"
		echo "hackbench-4-$c"
	done
	echo periodic-4-nolazy
	echo periodic-4-lazyv7
	for c in 2 4 8; do
		echo "wave-$c-lazyw32"
		echo "wave-$c-lazyw128"
		echo "wave-$c-lazyfixed"
	done
}

selected() {
	local cell=$1 w
	[ -z "$RUNS" ] && return 0
	for w in $RUNS; do
		case "$cell" in "$w"|"$w"-*) return 0 ;; esac
	done
	return 1
}

with_repeats() {
	local c r cfg
	while read -r c; do
		echo "$c"
		for cfg in $REPEAT_CONFIGS; do
			[ "${c##*-}" = "$cfg" ] || continue
			for ((r = 2; r <= REPEATS; r++)); do echo "$c-$r"; done
		done
	done
}

# the cells RUNS selects, in the matrix's order, one per line
selected_cells() {
	local c
	while read -r c; do selected "$c" && echo "$c"; done < <(all_cells | with_repeats)
	if [ -n "$RUNS" ]; then
		while read -r c; do selected "$c" && echo "$c"; done < <(extra_cells | with_repeats)
	fi
}

# A short identity of a kernel build (the first 16 hex digits of its
# bzImage's sha256), so that REUSE=1 runs a cell again after the kernel
# was rebuilt.  "missing" when there is no such kernel (the cell then
# fails in qemu/run with the reason).  About 20 ms a cell.
kernel_build_id() {
	local k=$1 img
	case "$k" in
	vanilla|powersched|debug) img=${BUILD_DIR:-$CELLS_ROOT/build}/kernel/$k/bzImage ;;
	*) img=$k ;;
	esac
	if [ -f "$img" ]; then
		sha256sum "$img" | cut -c1-16
	else
		echo missing
	fi
}

# cell_define CELL: sets workload param config repeat cmd kernel policy
# events features sysctl limit for CELL; fails on a name that is no cell.
cell_define() {
	local cell=$1
	IFS=- read -r workload param config repeat <<<"$cell"
	repeat=${repeat:-1}
	# a number where one belongs, nothing after the repeat
	[[ "$param" =~ ^[1-9][0-9]*$ ]] && [[ "$repeat" =~ ^[1-9][0-9]*$ ]] || return 1
	case $workload in
	spin)		cmd="spin $param -t $SPIN_SECONDS" ;;
	wave)		cmd="wave -j $param -n $WAVE_JOBS" ;;
	periodic)	cmd="periodic $param -r 2 -p 20 -t $PERIODIC_SECONDS" ;;
	hackbench)	cmd="hackbench -g $param -l 200" ;;
	*)		return 1 ;;
	esac
	kernel=powersched policy=$config events="-e powersched" features="" sysctl=""
	case $config in
	powersaving|performance) ;;
	vanilla)	kernel=vanilla policy="" events="" ;;
	nolazy)		policy=powersaving features=NO_POWER_LAZY_BALANCE ;;
	lazyv7)		policy=powersaving features=POWER_LAZY_V7 ;;
	lazyfixed)	policy=powersaving features=NO_POWER_LAZY_BACKOFF ;;
	lazyw[1-9]*)	policy=powersaving sysctl=sched_power_lazy_window=${config#lazyw} ;;
	*)		return 1 ;;
	esac
	# patch work: another build of the series in place of the powersched kernel
	[ "$kernel" = powersched ] && [ -n "${POWERSCHED_KERNEL:-}" ] && kernel=$POWERSCHED_KERNEL
	# A guest very rarely hangs before the workload starts (seen once in
	# several hundred boots: vCPUs idle, trace-cmd never created its
	# files); a cell gets a bounded time (and run-cell one more try).
	case $workload in
	spin)		limit=$((SPIN_SECONDS + 150)) ;;
	periodic)	limit=$((PERIODIC_SECONDS + 150)) ;;
	*)		limit=600 ;;
	esac
	return 0
}

# cell_env CELL: the cell.env text of CELL (after cell_define), which is
# what REUSE=1 compares: a complete cell is kept only when it ran exactly
# this (SPIN_SECONDS, TOPOLOGY, the kernel build: all in it).
cell_env() {
	echo "# what this cell ran"
	printf 'cell\t%s\nworkload\t%s\nparam\t%s\nconfig\t%s\nrepeat\t%s\nkernel\t%s\nkernel_build\t%s\npolicy\t%s\nfeatures\t%s\nsysctl\t%s\ncommand\t%s\ntopology\t%s\n' \
		"$1" "$workload" "$param" "$config" "$repeat" "$kernel" "$(kernel_build_id "$kernel")" \
		"${policy:-default}" "${features:--}" "${sysctl:--}" "$cmd" "$TOPOLOGY"
}
