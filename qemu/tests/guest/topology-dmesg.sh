#!/bin/sh
# topology-dmesg.sh: topology.tsv (qemu/topology.md) from the kernel's own
# sched_verbose report in dmesg ("CPUn attaching sched-domain(s)") and the
# debugfs flags, as qemu/guest-init wrote it before it ran `powersched
# topology`.  The guest tests keep it as a second, independent source to
# compare the C writer's spans and groups with.
cpulist() {
	echo "$1" | tr ',' '\n' | awk -F- 'NF==1{print $1} NF==2{for(i=$1;i<=$2;i++)print i}'
}
tmp=/tmp/topology.cpus
: >"$tmp"
for c in /sys/devices/system/cpu/cpu[0-9]*; do
	[ -d "$c/topology" ] || continue
	n=${c##*/cpu}
	pkg=$(cat "$c/topology/physical_package_id")
	sib=$(cat "$c/topology/thread_siblings_list")
	node=0
	for d in "$c"/node[0-9]*; do [ -e "$d" ] && node=${d##*/node}; done
	first=$(cpulist "$sib" | head -n1)
	thread=0
	for s in $(cpulist "$sib"); do [ "$s" -lt "$n" ] && thread=$((thread + 1)); done
	echo "$n $pkg $first $thread $node" >>"$tmp"
done
echo "# powersched topology v1 (format: qemu/topology.md in the powersched sources)"
echo "# kernel	$(uname -r)	$(uname -v)"
echo "# nr_cpus	$(wc -l <"$tmp")"
echo "# cpu	cpu	package	core	thread	node"
sort -n "$tmp" | awk '{ if (!($3 in core)) core[$3] = ncores++;
	printf "cpu\t%d\t%d\t%d\t%d\t%d\n", $1, $2, core[$3], $4, $5 }'
echo "# domain	cpu	level	name	span	groups	flags"
dmesg | sed 's/^\[[ 0-9.]*\] //' | awk '
	/^CPU[0-9]+ attaching sched-domain/ { cpu = substr($1, 4) + 0; lvl = -1;
		for (k in dom) if (index(k, cpu SUBSEP) == 1) delete dom[k]; next }
	/^CPU[0-9]+ attaching NULL sched-domain/ { cpu = substr($1, 4) + 0; lvl = -1;
		for (k in dom) if (index(k, cpu SUBSEP) == 1) delete dom[k]; next }
	/^ *domain-[0-9]+: span=/ { lvl = substr($1, 8) + 0; span = substr($2, 6);
		name = substr($3, 7); dom[cpu, lvl] = span "\t"; names[cpu, lvl] = name; next }
	/^ *groups:/ && lvl >= 0 { g = ""; line = $0;
		while (match(line, /span=[0-9,-]+/)) {
			g = g (g == "" ? "" : ";") substr(line, RSTART + 5, RLENGTH - 5);
			line = substr(line, RSTART + RLENGTH) }
		dom[cpu, lvl] = dom[cpu, lvl] g; next }
	END { for (k in dom) { split(k, a, SUBSEP);
		printf "%d\t%d\t%s\t%s\n", a[1], a[2], names[k], dom[k] } }' |
sort -n -k1,1 -k2,2 | while IFS='	' read -r cpu lvl name span groups; do
	f=/sys/kernel/debug/sched/domains/cpu$cpu/domain$lvl/flags
	flags=$(cat "$f" 2>/dev/null | tr -s ' \n' '||' | sed 's/^|//; s/|$//')
	printf 'domain\t%s\t%s\t%s\t%s\t%s\t%s\n' "$cpu" "$lvl" "$name" "$span" "$groups" "${flags:--}"
done
