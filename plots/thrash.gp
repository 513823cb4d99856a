# Thrashing as it shows over time: the balance mode of the two highest
# domain levels and the ping-pong migrations that follow, for N runs of the
# same workload (lazy balance as the series has it, the 2013 rule, none),
# one panel each, over the same first 3 seconds.
# gnuplot -e "n=3; d1='DIR1'; t1='...'; d2=...; c1=6; n1='MC'; c2=10; n2='NUMA'; out='FILE.png'" thrash.gp
# dI: analysis folders (modes.tsv, pingpong.tsv); tI: the panel's title;
# c1, c2: the columns of mode_D of two domain levels in modes.tsv, n1, n2
# their names.  A ping-pong is a task moved away and back within the
# window (pingpong.tsv: column 4 its level), marked at the time it was
# undone, one row per level above the mode lines.
set terminal pngcairo size 1400,(280 * n + 90) font "DejaVu Sans,11"
set output out
set multiplot layout n,1 title "Balance mode and ping-pong migrations over time (mode 1 = power: packing, -1 = performance: spreading)" font ",13"
set yrange [-1.4:2.15]
set ytics ("performance" -1, "none" 0, "power" 1)
# the ping-pong rows, named on the right
set y2range [-1.4:2.15]
set y2tics ("smt" 1.35, "core" 1.65, "package" 1.95) textcolor rgb "#555555"
set xrange [0:3]
set key at graph 1.09, graph 1 left top vertical Left reverse width 1 samplen 2
set grid
set lmargin 14
set rmargin 36
set tmargin 3
set bmargin 2
set datafile separator "\t"
do for [i = 1:n] {
	d = value(sprintf("d%d", i))
	set title value(sprintf("t%d", i))
	if (i == n) { set xlabel "time (s)"; set bmargin 3.5 }
	# the key's ping-pong entry is drawn from nothing, so that every panel
	# has it, also one whose pingpong.tsv has no rows
	plot d."/modes.tsv" using 1:(column(c1) + 0.04) with steps lw 2 lc rgb "#1f77b4" title "mode: ".n1, \
	     ''             using 1:(column(c2) - 0.04) with steps lw 2 lc rgb "#ff7f0e" title "mode: ".n2, \
	     NaN with points pt 9 ps 1.3 lc rgb "#333333" title "ping-pong, by level", \
	     d."/pingpong.tsv" using 1:(strcol(4) eq "smt" ? 1.35 : 1/0) with points pt 9 ps 1.3 lc rgb "#2ca02c" notitle, \
	     ''                using 1:(strcol(4) eq "core" ? 1.65 : 1/0) with points pt 9 ps 1.3 lc rgb "#9467bd" notitle, \
	     ''                using 1:(strcol(4) eq "package" ? 1.95 : 1/0) with points pt 9 ps 1.3 lc rgb "#d62728" notitle
}
unset multiplot
