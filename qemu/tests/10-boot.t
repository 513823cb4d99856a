#!/bin/bash
# Both kernels boot on laptop and server; topology.tsv matches the requested
# shape; powersched record in the guest yields a trace.dat that the host's
# trace-cmd reads, with events from every vCPU and nothing lost (an idle
# vCPU may not switch at all in a short recording: record's own pinned
# task on each cpu makes it).
source "$(dirname "$0")/../../tests/lib.sh"

# expected: topology cpus packages cores-per-package threads domain-levels
check_shape() {
	local dir=$1 label=$2 cpus=$3 pkgs=$4 cores=$5 threads=$6 levels=$7
	local t=$dir/topology.tsv
	[ -f "$t" ] || { fail "$label: topology.tsv written"; return; }
	is "$(grep -c '^cpu	' "$t")" "$cpus" "$label: topology.tsv lists $cpus cpus"
	is "$(awk '$1=="cpu"{print $3}' "$t" | sort -u | wc -l)" "$pkgs" "$label: $pkgs package(s)"
	is "$(awk '$1=="cpu"{print $4}' "$t" | sort -u | wc -l)" "$((pkgs * cores))" "$label: $((pkgs * cores)) cores"
	is "$(awk '$1=="cpu"{n[$4]++} END{for (c in n) print n[c]}' "$t" | sort -u)" "$threads" "$label: $threads threads in every core"
	is "$(awk '$1=="cpu"{print $6}' "$t" | sort -u | wc -l)" "$pkgs" "$label: one NUMA node per package"
	is "$(awk '$1=="domain" && $2==0 {printf "%s%s", s, $4; s=","}' "$t")" "$levels" "$label: cpu0's sched domains are $levels"
	# every cpu's SMT domain spans exactly its core
	is "$(awk '$1=="cpu"{core[$2]=$4} $1=="domain" && $4=="SMT"{split($5,a,"-"); if (core[a[1]] != core[a[2]] || core[$2] != core[a[1]]) bad++} END{print bad+0}' "$t")" 0 \
		"$label: SMT domains span the SMT siblings"
}

check_trace() {
	local dir=$1 label=$2 cpus=$3
	local tr=$dir/trace.dat
	[ -s "$tr" ] || { fail "$label: trace.dat brought back to the host"; return; }
	pass "$label: trace.dat brought back to the host"
	trace-cmd report -q "$tr" >"$TEST_TMP/report" 2>"$TEST_TMP/report.err"
	ok "$label: trace-cmd report reads it" test $? = 0
	local seen
	seen=$(grep -o 'sched_switch' "$TEST_TMP/report" | wc -l)
	cmp_num "$seen" -gt 0 "$label: sched_switch events in the trace"
	seen=$(sed -n 's/^.*\[\([0-9]*\)\] .*sched_switch.*$/\1/p' "$TEST_TMP/report" | sort -un | wc -l)
	is "$seen" "$cpus" "$label: sched_switch events from all $cpus vCPUs"
	trace-cmd report --stat "$tr" >"$TEST_TMP/stat" 2>&1
	is "$(awk '/^overrun:|^commit overrun:|^dropped events:/ {s += $NF} END {print s + 0}' "$TEST_TMP/stat")" 0 \
		"$label: no overrun or dropped events (trace-cmd report --stat)"
	is "$(grep -c '^CPU: ' "$TEST_TMP/stat")" "$cpus" "$label: buffer statistics for every cpu"
}

for kernel in vanilla powersched; do
	for topo in laptop server; do
		label="$kernel/$topo"
		dir=$TEST_TMP/$kernel-$topo
		if guest "$dir" --kernel "$kernel" --topology "$topo" --timeout 120 -- \
			powersched record -o . -- sleep 2; then
			pass "$label: boots and runs powersched record"
		else
			fail "$label: boots and runs powersched record"
		fi
		case $topo in
		laptop) check_shape "$dir" "$label" 8 1 4 2 "SMT,MC" ;;
		server) check_shape "$dir" "$label" 8 2 2 2 "SMT,MC,NUMA" ;;
		esac
		check_trace "$dir" "$label" 8
		ok "$label: run.json records the kernel flavour" grep -q "\"kernel\": \"$kernel\"" "$dir/run.json"
		is "$(jq -r '.record.complete' "$dir/run.json" 2>/dev/null)" true "$label: run.json carries the recording's, complete"
	done
done
