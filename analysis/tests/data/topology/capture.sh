#!/bin/sh
# capture.sh DIR: copy what powersched topology reads into DIR (a sysroot);
# see README.md.
R=$1
mkdir -p $R/proc/sys/kernel $R/sys/devices/system/cpu $R/sys/devices/system/node
cat /proc/schedstat > $R/proc/schedstat
cat /proc/sys/kernel/osrelease > $R/proc/sys/kernel/osrelease
cat /proc/sys/kernel/version > $R/proc/sys/kernel/version
for f in online possible; do cat /sys/devices/system/cpu/$f > $R/sys/devices/system/cpu/$f; done
for c in /sys/devices/system/cpu/cpu[0-9]*; do
	mkdir -p $R$c/topology
	for f in physical_package_id thread_siblings_list core_siblings_list package_cpus_list cluster_cpus_list core_cpus_list; do
		[ -f $c/topology/$f ] && cat $c/topology/$f > $R$c/topology/$f
	done
	for nd in $c/node[0-9]*; do [ -e $nd ] && mkdir -p $R$nd; done
	for idx in $c/cache/index*; do
		[ -d $idx ] || continue
		mkdir -p $R$idx
		cat $idx/level > $R$idx/level
		cat $idx/shared_cpu_list > $R$idx/shared_cpu_list
	done
done
for n in /sys/devices/system/node/node[0-9]*; do
	[ -d $n ] || continue
	mkdir -p $R$n && cat $n/cpulist > $R$n/cpulist
done
for d in /sys/kernel/debug/sched/domains/cpu*/domain*; do
	[ -d $d ] || continue
	mkdir -p $R$d
	cat $d/name > $R$d/name
	cat $d/flags > $R$d/flags
done
