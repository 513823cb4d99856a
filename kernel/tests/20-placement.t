#!/bin/bash
# Where busy loops end up on the server topology (2 packages x 2 cores x 2
# threads, cpus 0-3 and 4-7): packing under powersaving, spreading under
# performance, every cpu used when the system is full, and performance on
# the powersched kernel placing like the vanilla kernel.
#
# Mainline 6.12 lets up to imb_numa_nr (here 2) tasks stay on one NUMA node
# while the other is idle, so under performance (and on the vanilla kernel)
# two loops end up on one package or on two, run to run: what is certain is
# that they get a core each, never two SMT siblings of one core.
source "$(dirname "$0")/../../tests/lib.sh"
G=$ROOT/kernel/tests/guest

# run NAME KERNEL POLICY LOOPS [nested]: 10 s of LOOPS busy loops, busy.tsv
# back; "nested" runs each loop in its own cpu cgroup two levels down
run() {
	local name=$1 kernel=$2 policy=$3 loops=$4 cg=${5:-} dir=$TEST_TMP/$1
	local pol=()
	[ "$policy" != - ] && pol=(--policy "$policy")
	mkdir -p "$dir"
	cp "$G/pack.sh" "$dir/"
	guest "$dir" --kernel "$kernel" --topology "${TOPO:-server}" "${pol[@]}" --timeout 240 -- sh pack.sh "$loops" 10 - $cg ||
		fail "$name: guest run"
}

# package busy: the sum of the busy shares of a package's cpus (an upper
# bound of the share of time any of them was busy)
pkg_busy() { awk -v p="$2" '($1 < 4) == (p == 0) { s += $2 } END { printf "%.2f", s }' "$TEST_TMP/$1/busy.tsv"; }
min_cpu_busy() { sort -k2 -n "$TEST_TMP/$1/busy.tsv" | head -n1 | cut -f2; }
# busy packages / cores: those with at least half a cpu of work
busy_pkgs() { awk '{ s[$1 < 4] += $2 } END { n = 0; for (p in s) if (s[p] >= 0.5) n++; print n }' "$TEST_TMP/$1/busy.tsv"; }
busy_cores() { awk '{ s[int($1 / 2)] += $2 } END { n = 0; for (c in s) if (s[c] >= 0.5) n++; print n }' "$TEST_TMP/$1/busy.tsv"; }
# "a core each": no core carries more than one loop's worth of busy time
# (two siblings both busy sum to 2) while the loops add up to two cpus.  A
# count of busy cores would read 3 when mainline moves one loop across the
# NUMA domain mid-window (its time split 0.50/0.52 over two cores).
core_each() { awk '{ s[int($1 / 2)] += $2; t += $2 } END { m = 0; for (c in s) if (s[c] > m) m = s[c]
	print (m <= 1.25 && t >= 1.8) ? "yes" : sprintf("no (busiest core %.2f, all cpus %.2f)", m, t) }' "$TEST_TMP/$1/busy.tsv"; }
show() { diag "$1 busy per cpu: $(cut -f2 "$TEST_TMP/$1/busy.tsv" | tr '\n' ' ')"; }

run ps2 powersched powersaving 2
run pf2 powersched performance 2
run va2 vanilla - 2
run ps8 powersched powersaving 8
run pf8 powersched performance 8
run va8 vanilla - 8
run ps2cg powersched powersaving 2 nested
run pf2cg powersched performance 2 nested
run ps8cg powersched powersaving 8 nested
for r in ps2 pf2 va2 ps8 pf8 va8 ps2cg pf2cg ps8cg; do show $r; done

idle_pkg=$(printf '%s\n%s\n' "$(pkg_busy ps2 0)" "$(pkg_busy ps2 1)" | sort -n | head -n1)
cmp_num "$idle_pkg" -le 0.10 "powersaving, 2 loops: one package idle >= 90% of the last 5 s (its busy share)"
is "$(core_each pf2)" yes "performance, 2 loops: on two different cores"
is "$(busy_cores ps2)/$(busy_pkgs ps2)" 1/1 "powersaving, 2 loops: packed onto one core (SMT siblings) of one package"
cmp_num "$(min_cpu_busy ps8)" -ge 0.80 "powersaving, 8 loops: every cpu busy (least busy cpu)"
cmp_num "$(min_cpu_busy pf8)" -ge 0.80 "performance, 8 loops: every cpu busy (least busy cpu)"
is "$(core_each va2)" yes "vanilla, 2 loops: a core each too (what performance is held to)"
is "$(busy_pkgs pf8)/$(busy_cores pf8)" "$(busy_pkgs va8)/$(busy_cores va8)" \
	"8 loops: performance uses as many packages/cores as the vanilla kernel"

# The same with every loop in its own nested cpu cgroup: group scheduling
# (per-group cfs_rq, hierarchical h_nr_queued, utilization propagated up the
# group entities) must not change where the policy puts the tasks.
nested_loops() { grep -c ' 0::/pack/job[01]/task[0-9]*$' "$TEST_TMP/$1/cgroups.txt" 2>/dev/null; }
is "$(nested_loops ps2cg)/$(nested_loops pf2cg)/$(nested_loops ps8cg)" 2/2/8 \
	"cgroups: every loop runs in its own cgroup /pack/jobN/taskK"
idle_pkg=$(printf '%s\n%s\n' "$(pkg_busy ps2cg 0)" "$(pkg_busy ps2cg 1)" | sort -n | head -n1)
cmp_num "$idle_pkg" -le 0.10 "cgroups, powersaving, 2 loops: one package idle >= 90% of the last 5 s"
is "$(busy_cores ps2cg)/$(busy_pkgs ps2cg)" 1/1 "cgroups, powersaving, 2 loops: packed onto one core of one package"
is "$(core_each pf2cg)" yes "cgroups, performance, 2 loops: on two different cores"
cmp_num "$(min_cpu_busy ps8cg)" -ge 0.80 "cgroups, powersaving, 8 loops: every cpu busy (least busy cpu)"

# Four sockets (quad: 4 x 2 x 2, cpus 4p..4p+3 on package p): two loops
# still share one core and leave three packages idle under powersaving, and
# get two cores under performance.
TOPO=quad run ps2q powersched powersaving 2
TOPO=quad run pf2q powersched performance 2
show ps2q; show pf2q
q_busy_pkgs() { awk '{ s[int($1 / 4)] += $2 } END { n = 0; for (p in s) if (s[p] >= 0.5) n++; print n }' "$TEST_TMP/$1/busy.tsv"; }
q_idle_pkgs() { awk '{ s[int($1 / 4)] += $2 } END { n = 0; for (p in s) if (s[p] <= 0.10) n++; print n }' "$TEST_TMP/$1/busy.tsv"; }
is "$(busy_cores ps2q)/$(q_busy_pkgs ps2q)" 1/1 "quad, powersaving, 2 loops: packed onto one core of one package"
is "$(q_idle_pkgs ps2q)" 3 "quad, powersaving, 2 loops: three packages idle >= 90% of the last 5 s"
is "$(core_each pf2q)" yes "quad, performance, 2 loops: on two different cores"
