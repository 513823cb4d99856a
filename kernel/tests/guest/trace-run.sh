#!/bin/sh
# trace-run.sh NAME FEATURES COMMAND...: set the sched_feats FEATURES
# (comma-separated, "-" for none), then record the sched and powersched
# events with powersched record into NAME/ (trace.dat, topology.tsv,
# run.json) while COMMAND runs (its output in NAME.log).  The
# features are set back afterwards, so that several recordings can follow
# one another in one boot.
name=$1 feats=$2
shift 2
F=/sys/kernel/debug/sched/features
set_feats() {
	for f in $(echo "$1" | tr ',' ' '); do
		[ "$f" = - ] && continue
		echo "$f" > $F || { echo "trace-run: cannot set sched_feat $f" >&2; exit 1; }
	done
}
undo() {
	echo "$1" | awk -F, '{ for (i = 1; i <= NF; i++) { f = $i
		if (!sub(/^NO_/, "", f)) f = "NO_" f
		printf "%s%s", (i > 1 ? "," : ""), f } }'
}
set_feats "$feats"
powersched record -o "$name" -- "$@" > "$name.log" 2>&1
rc=$?
[ "$feats" = - ] || set_feats "$(undo "$feats")"
exit $rc
