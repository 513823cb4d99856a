#!/bin/bash
# No quiet wrong answers: each numbered case of the analyzer's review
# (issue "Analyzer v2"), on a crafted input.  A case either gets the right
# figures or a clear error, never a confident wrong one.  ASan/UBSan build.
source "$(dirname "$0")/../../tests/lib.sh"
source "$(dirname "$0")/crafted.sh"
use_sanitizers

# --- 1. write errors: a full disk is an error, and nothing partial is left
craft full <<EOF
$(known_at 1.0)
0 1.5 sched_switch prev_pid=0 next_pid=100
0 2.0 sched_switch prev_pid=100 next_pid=0
EOF
mkdir -p "$TEST_TMP/full/out"
ln -s /dev/full "$TEST_TMP/full/out/summary.json"
an full
ok "1: a full disk under summary.json fails" [ "$RC" = 1 ]
ok "1: and says which file and why" grep -q "summary.json: write error: No space left on device" "$TEST_TMP/full.err"
ok "1: no other result is left behind" bash -c "! ls '$TEST_TMP/full/out' | grep -v '^summary.json$' | grep -q ."
ok "1: and the link to the full device is left alone" [ -L "$TEST_TMP/full/out/summary.json" -a -c /dev/full ]
rm -rf "$TEST_TMP/full/out"
"$PS" analyze "$TEST_TMP/full/trace.dat" --out "$TEST_TMP/full/out2" >/dev/full 2>"$TEST_TMP/full2.err"
RC=$?
ok "1: a summary that cannot be printed fails" [ "$RC" = 1 ]
ok "1: and says so" grep -q "standard output: write error" "$TEST_TMP/full2.err"
ok "1: without leaving results behind" [ ! -e "$TEST_TMP/full/out2/summary.json" ]

# --- 2. a corrupt record is named, counted and skipped, not blamed on the topology
craft badrec <<EOF
$(known_at 1.0)
0 1.5 sched_migrate_task comm=a pid=200 orig_cpu=-1 dest_cpu=2
1 1.6 sched_migrate_task comm=b pid=201 orig_cpu=300 dest_cpu=2
2 1.7 sched_migrate_task comm=c pid=202 orig_cpu=0 dest_cpu=4
3 2.0 sched_switch prev_pid=0 next_pid=300
EOF
an badrec
ok "2: a migration from cpu -1 or 300 does not stop the analysis" [ "$RC" = 0 ]
is "$(sv badrec caveats.bad_records)" 2 "2: both bad records are counted"
is "$(sv badrec migrations.total)" 1 "2: the good migration is counted"
ok "2: the summary names the bad value" grep -q "sched_migrate_task orig_cpu=-1 on cpu 0" "$TEST_TMP/badrec.out"
ok "2: and the topology is not blamed" bash -c "! grep -q 'topology does not list' '$TEST_TMP/badrec.out' '$TEST_TMP/badrec.err'"

# --- 3. corrupt page timestamps, time gaps, bounded output
{
	known_at 1.0
	for i in $(seq 1 40); do
		t=$(awk -v i=$i 'BEGIN { printf "%.6f", 1 + i * 0.05 }')
		echo "0 $t sched_switch prev_pid=0 next_pid=100"
		echo "0 $t sched_switch prev_pid=100 next_pid=0"
		[ $i = 30 ] && echo "1 $t @page shift=1000"
		echo "1 $t sched_switch prev_pid=0 next_pid=101"
		echo "1 $t sched_switch prev_pid=101 next_pid=0"
		[ $i = 31 ] && echo "1 $t @page"
	done
} | craft jumpmid
an jumpmid
ok "3: a page 1000 s off in the middle of a cpu: analyzed" [ "$RC" = 0 ]
cmp_num "$(sv jumpmid duration_s)" -le 2.1 "3: the duration is the trace's, not 1000 s more"
cmp_num "$(sv jumpmid caveats.bad_timestamp_records)" -ge 2 "3: the records of that page are counted as bad"
ok "3: and the summary warns" grep -q "timestamps" "$TEST_TMP/jumpmid.out"
tail_records() {	# a last page of cpu 1 whose timestamp is $1 s off
	known_at 1.0
	echo "0 2.0 sched_switch prev_pid=0 next_pid=100"
	echo "0 3.0 sched_switch prev_pid=100 next_pid=0"
	echo "1 3.0 @page shift=$1"
	echo "1 3.0 sched_switch prev_pid=0 next_pid=101"
	echo "1 3.001 sched_switch prev_pid=101 next_pid=0"
}
tail_records 1000 | craft jumptail
an jumptail
ok "3: a last page 1000 s off: analyzed" [ "$RC" = 0 ]
cmp_num "$(sv jumptail duration_s)" -le 2.1 "3: the duration stops before the jump"
ok "3: and the summary warns" grep -q "timestamps" "$TEST_TMP/jumptail.out"
tail_records 18800000 | craft jumphuge
start=$SECONDS
timeout 60 "$PS" analyze "$TEST_TMP/jumphuge/trace.dat" --out "$TEST_TMP/jumphuge/out" >"$TEST_TMP/jumphuge.out" 2>&1
RC=$?
ok "3: a page 18.8 million s off: analyzed in seconds ($((SECONDS - start)) s)" [ "$RC" = 0 -a $((SECONDS - start)) -lt 30 ]
cmp_num "$(du -sk "$TEST_TMP/jumphuge/out" | cut -f1)" -lt 2000 "3: with small outputs (KiB)"
# a real gap of 100000 s (every cpu silent) is kept, but the timelines are capped
craft gap <<EOF
$(known_at 1.0)
$(known_at 100001.0)
EOF
timeout 120 "$PS" analyze "$TEST_TMP/gap/trace.dat" --out "$TEST_TMP/gap/out" --bucket 1 >"$TEST_TMP/gap.out" 2>&1
RC=$?
ok "3: a trace with a 100000 s silence is analyzed" [ "$RC" = 0 ]
cmp_num "$(grep -vc '^#' "$TEST_TMP/gap/out/util_cpu.tsv")" -le 1000000 "3: the timelines stop at the row cap"
ok "3: and the summary says the timelines were cut" grep -q "timelines cut" "$TEST_TMP/gap.out"
is "$(sv gap caveats.timeline_cut)" 1 "3: caveats.timeline_cut"

# --- 4. a crash of libtraceevent while reading records is a corrupt trace
craft crash <<EOF
$(known_at 1.0)
1 1.1 sched_switch prev_pid=0 next_pid=101
1 1.2 @garbage
1 1.3 sched_switch prev_pid=101 next_pid=0
0 2.0 sched_switch prev_pid=0 next_pid=100
EOF
an crash
ok "4: a sub-buffer that crashes libtraceevent: exit 1, no crash" exited crash 1
ok "4: reported as a corrupt trace at an offset" grep -q "crash/trace.dat: corrupt trace: .* at about offset [0-9]" "$TEST_TMP/crash.err"
ok "4: nothing left behind" [ ! -e "$TEST_TMP/crash/out/summary.json" ]

# --- 5. the state before a cpu's first switch comes from its prev_pid
craft late <<EOF
$(known_at 1.0 0 1 2 3 5 6 7)
4 1.0 sched_migrate_task comm=x pid=1 orig_cpu=4 dest_cpu=4
4 3.0 sched_switch prev_comm=loop prev_pid=500 next_pid=0
0 5.0 sched_switch prev_pid=0 next_pid=100
$(ticks 1.5 4.5)
EOF
an late
ok "5: a cpu whose first switch comes late: analyzed" [ "$RC" = 0 ]
cmp_num "$(sv late util.cpu4)" -ge 0.49 "5: it ran pid 500 until that switch: busy half the window"
cmp_num "$(sv late idle.package1)" -le 0.51 "5: its package is not counted idle"
craft noswitch <<EOF
$(known_at 1.0 0 1 2 3 5 6 7)
4 1.0 sched_waking comm=x pid=7 target_cpu=4
0 5.0 sched_switch prev_pid=0 next_pid=100
$(ticks 1.5 4.5)
EOF
an noswitch
ok "5: a cpu without any switch: analyzed" [ "$RC" = 0 ]
is "$(sv noswitch caveats.unknown_cpus)" 1 "5: reported as unknown"
is "$(jv noswitch '.utilization.cpu[4]')" null "5: its busy share is unknown (null), not 0"
ok "5: the summary says so loudly" grep -q "WARNING: cpu 4: UNKNOWN" "$TEST_TMP/noswitch.out"
craft latestart <<EOF
$(known_at 1.0 0 1 2 3 4 5 6)
0 1.5 sched_switch prev_pid=0 next_pid=100
0 1.6 sched_switch prev_pid=100 next_pid=0
7 2.0 sched_waking comm=x pid=7 target_cpu=7
7 2.5 sched_switch prev_pid=0 next_pid=97
7 2.5 sched_switch prev_pid=97 next_pid=0
0 4.0 sched_switch prev_pid=0 next_pid=100
$(ticks 3.0 3.5)
EOF
an latestart
is "$(sv latestart window_start_s)" 1.000000 "5: the window starts at the latest first record of a cpu"
is "$(sv latestart duration_s)" 2.000000 "5: and lasts to the last record"

# a recording in the guest: 3 loops running before tracing starts, on 16
# cpus, traced through sleep 4: kick-cpus makes every cpu switch once
out=$TEST_TMP/loops3
"$PS" analyze "$ROOT/analysis/tests/data/loops3-big/trace.dat" --out "$out" >"$TEST_TMP/loops3.txt" 2>&1
is "$?" 0 "5: three loops started before tracing (16 cpus): analyzed"
cmp_num "$(awk -F'\t' '$1 == "util.busy_cpus" { print $2 }' "$out/summary.tsv")" -ge 2.95 "5: three busy cpus, not two"
is "$(awk -F'\t' '$1 == "caveats.unknown_cpus" { print $2 }' "$out/summary.tsv")" 0 "5: no cpu unknown: each switched once (kick-cpus)"

# --- 6. a topology with more cpus than the trace
{ cat "$TOPO8"; printf 'cpu\t8\t1\t4\t0\t1\n'; } >"$TEST_TMP/topo9.tsv"
craft cpus9 <<EOF
$(known_at 1.0)
0 2.0 sched_switch prev_pid=0 next_pid=100
EOF
an cpus9 --topology "$TEST_TMP/topo9.tsv"
ok "6: a topology of 9 cpus for a trace of 8 is an error" [ "$RC" = 1 ]
ok "6: naming both" grep -q "topo9.tsv lists 9 cpus .*the trace has 8" "$TEST_TMP/cpus9.err"

# --- 7. a lost switch: the state break is found and the warning is true
craft lostswitch <<EOF
$(known_at 1.0)
0 1.5 sched_switch prev_pid=0 next_pid=100
0 3.0 @missed 3
0 3.0 sched_switch prev_pid=0 next_pid=200
0 3.5 sched_switch prev_pid=200 next_pid=0
1 4.0 sched_switch prev_pid=0 next_pid=0
EOF
an lostswitch
ok "7: a trace with a lost switch to idle is analyzed" [ "$RC" = 0 ]
is "$(sv lostswitch lost.state_breaks)" 1 "7: the state break is counted"
ok "7: the warning says busy time may be over-counted" grep -q "over- or under-count" "$TEST_TMP/lostswitch.out"
ok "7: and does not claim every figure undercounts" bash -c "! grep -q 'every figure above undercounts' '$TEST_TMP/lostswitch.out'"

# --- 8. a cpu in more than 11 groups: every group is counted
{
	grep -v '^domain' "$TOPO8"
	for c in 0 1 2 3 4 5 6 7; do
		groups=$(for g in 0 1 2 3 4 5 6 7 8 9 10 11; do printf '0-%d;' $(((g % 7) + 1)); done)
		printf 'domain\t%d\t0\tNUMA\t0-7\t%s\t-\n' $c "${groups%;}"
		printf 'domain\t%d\t1\tBIG\t0-7\t0,%d;%s\t-\n' $c $(((c % 7) + 1)) 0-7
	done
} >"$TEST_TMP/topo-groups.tsv"
craft groups <<EOF
$(known_at 1.0)
0 1.0 sched_switch prev_pid=0 next_pid=100
0 3.0 sched_switch prev_pid=100 next_pid=0
$(ticks 1.5 2.5)
EOF
an groups --topology "$TEST_TMP/topo-groups.tsv"
ok "8: a topology with 14 groups holding cpu 0: analyzed" [ "$RC" = 0 ]
ok "8: every group holding cpu 0 is busy while it is" awk -F'\t' '
	/^# time_s/ { for (i = 2; i <= NF; i++) if ($i ~ /:0[-,]/ || $i ~ /:0-/) want[i] = 1; n = 0; for (i in want) n++; next }
	/^#/ { next }
	$1 < 1.9 { for (i in want) if ($i < 0.99) bad++ }
	END { exit !(n >= 12 && !bad) }' "$TEST_TMP/groups/out/util_group.tsv"

# --- 9. a malformed run.json is not pasted into summary.json
craft runjson <<EOF
$(known_at 1.0)
0 2.0 sched_switch prev_pid=0 next_pid=100
EOF
printf '{ "kernel": "powersched", "policy": \n' >"$TEST_TMP/runjson/run.json"
an runjson
ok "9: a truncated run.json: analyzed" [ "$RC" = 0 ]
ok "9: summary.json is valid JSON" jq -e . "$TEST_TMP/runjson/out/summary.json" >/dev/null
is "$(jv runjson .run)" null "9: run is null"
ok "9: and the summary says why" grep -q "run.json.*not valid JSON" "$TEST_TMP/runjson.out"
printf '{ "kernel": "powersched", "policy": "powersaving", "x": [1, {"y": null}] }\n' >"$TEST_TMP/runjson/run.json"
an runjson
is "$(jv runjson .run.policy)" powersaving "9: a valid run.json is embedded"
is "$(sv runjson run.policy)" powersaving "9: and its members are in summary.tsv"

# --- 10. summary.tsv names cpus and packages by their numbers
awk -F'\t' 'BEGIN { OFS = "\t" }
	$1 == "cpu" && $2 == 0 { next }
	$1 == "cpu" { $3 = $3 + 1 }
	$1 == "domain" { next } { print }' "$TOPO8" >"$TEST_TMP/topo-ids.tsv"
craft ids <<EOF
$(known_at 1.0 1 2 3 4 5 6 7)
5 1.0 sched_switch prev_pid=0 next_pid=100
5 3.0 sched_switch prev_pid=100 next_pid=0
$(ticks 1.5 2.5 | sed 's/^0 /1 /')
EOF
an ids --topology "$TEST_TMP/topo-ids.tsv"
ok "10: a topology without cpu 0, packages 1 and 2: analyzed" [ "$RC" = 0 ]
cmp_num "$(sv ids util.cpu5)" -ge 0.99 "10: util.cpu5 is cpu 5"
is "$(sv ids util.cpu0)" "" "10: there is no util.cpu0"
cmp_num "$(sv ids util.package2)" -ge 0.99 "10: util.package2 is physical package 2 (cpu 5's)"
is "$(head -2 "$TEST_TMP/ids/out/util_package.tsv" | tail -1 | cut -f2-)" "package1	package2	system" \
	"10: util_package.tsv names the same packages"

# --- 11. small buckets
craft small <<EOF
$(known_at 1.0)
0 1.0005 sched_switch prev_pid=0 next_pid=100
0 1.002 sched_switch prev_pid=100 next_pid=0
EOF
an small --bucket 0.1
ok "11: --bucket 0.1: analyzed" [ "$RC" = 0 ]
ok "11: time_s never repeats" awk -F'\t' '!/^#/ { if (seen[$1]++) exit 1; if (NR > 3 && $1 <= last) exit 1; last = $1 }' "$TEST_TMP/small/out/util_cpu.tsv"
ok "11: the header says 0.1 ms" grep -q "per 0.1 ms bucket" "$TEST_TMP/small/out/util_cpu.tsv"

# --- 12. the record that opens the window is counted
craft opening <<EOF
$(known_at 1.0 0 1 2 3 4 5 6)
7 1.2 balance_mode cpu=7 level=2 domain=MC idle=1 mode=1 why=8
7 1.3 sched_switch prev_pid=0 next_pid=97
7 1.3 sched_switch prev_pid=97 next_pid=0
0 3.0 sched_switch prev_pid=0 next_pid=100
$(ticks 1.5 2.5)
EOF
an opening
is "$(sv opening modes.passes.power)" 1 "12: the balance pass that opens the window is counted"

# --- 13. LeakSanitizer on version 6 traces, --out, CRLF topologies
# (libtracecmd has no frame pointers: LeakSanitizer sees the whole stack of
# the leak its suppression names only with the slow unwinder)
trace-cmd convert --file-version 6 -i "$ROOT/analysis/tests/data/pinned-vanilla/trace.dat" \
	-o "$TEST_TMP/v6.dat" >/dev/null 2>&1
mkdir -p "$TEST_TMP/v6" && mv "$TEST_TMP/v6.dat" "$TEST_TMP/v6/trace.dat" && cp "$TOPO8" "$TEST_TMP/v6/"
ASAN_OPTIONS=$ASAN_OPTIONS:fast_unwind_on_malloc=0 an v6
ok "13: a version 6 trace under ASan: no leak report" exited v6 0
craft out <<EOF
$(known_at 1.0)
0 2.0 sched_switch prev_pid=0 next_pid=100
EOF
: >"$TEST_TMP/afile"
"$PS" analyze "$TEST_TMP/out/trace.dat" --out "$TEST_TMP/afile" >/dev/null 2>"$TEST_TMP/outfile.err"
ok "13: --out FILE fails" [ $? = 1 ]
is "$(wc -l <"$TEST_TMP/outfile.err")" 1 "13: with one line"
ok "13: which says it is not a folder" grep -q "afile: not a directory" "$TEST_TMP/outfile.err"
"$PS" analyze "$TEST_TMP/out/trace.dat" --out "$TEST_TMP/new/parent/out" >/dev/null 2>"$TEST_TMP/parent.err"
ok "13: --out into a missing parent creates it" [ -s "$TEST_TMP/new/parent/out/summary.json" ]
an out
sed 's/$/\r/' "$TOPO8" >"$TEST_TMP/crlf.tsv"
mv "$TEST_TMP/out/out" "$TEST_TMP/out/lf"
an out --topology "$TEST_TMP/crlf.tsv"
ok "13: a topology with CRLF line ends is read" [ "$RC" = 0 ]
ok "13: and gives the same results as with LF" diff -q "$TEST_TMP/out/lf/util_group.tsv" "$TEST_TMP/out/out/util_group.tsv"

# --- 14. the plugin: documented loading, the balanced cpu, which level
ok "14: README says the plugin loads from TRACEEVENT_PLUGIN_DIR" grep -q 'TRACEEVENT_PLUGIN_DIR' "$ROOT/README.md"
# (the README's lines are wrapped: read it as one line)
ok "14: and that TRACE_CMD_PLUGIN_DIR is not it" bash -c "tr -s '\\n' ' ' <'$ROOT/README.md' |
	grep -q 'TRACE_CMD_PLUGIN_DIR. is for trace-cmd.s own plugins and is not searched for event plugins'"
TRACEEVENT_PLUGIN_DIR=$BUILD/lib/traceevent/plugins trace-cmd report "$ROOT/analysis/tests/data/pack2-powersaving/trace.dat" \
	>"$TEST_TMP/report.txt" 2>/dev/null
ok "14: balance_mode names the balanced cpu as 'for cpu N'" grep -q 'balance_mode: *for cpu [0-9]' "$TEST_TMP/report.txt"
ok "14: and says its level is sd->level" grep -q 'balance_mode: .*(sd->level 2)' "$TEST_TMP/report.txt"
ok "14: FORMATS.md says which level the analyzer maps" grep -q 'sd->level' "$ROOT/analysis/FORMATS.md"
