# What lazy balance buys and what it costs: ping-pong migrations per second
# against estimated watts and against throughput, per workload and variant
# (powersaving, lazyv7, nolazy, performance, ...), each point the median
# over a cell's runs, its bars the smallest and largest run.
# gnuplot -e "data='workloads.tsv'; wls='wave-4 wave-8'; out='FILE.png'" tradeoff.gp
# data: plots/workloads-table's TSV (columns: workload config runs, then
# each figure as median, lo, hi: power.watts 4-6, throughput 7-9,
# migrations.pingpong.per_s 13-15); wls: the workloads to draw.
set terminal pngcairo size 1400,600 font "DejaVu Sans,11"
set output out
set datafile separator "\t"
set datafile missing "-"
set multiplot layout 1,2 title "Thrashing against power and throughput (median of the runs; bars: smallest to largest)" font ",13"
set grid
set key top left
set xlabel "ping-pong migrations per second"
set offsets 0, graph 0.15, graph 0.08, graph 0.08
set xrange [0:*]
# a column of the rows of workload w (the loop's), else undefined: every
# coordinate and bar tests it, as a row with an undefined x still widens the
# autoscaled y range by its bars
sel(c) = (strcol(1) eq w) ? column(c) : NaN
set title "estimated watts"
set ylabel "estimated watts"
plot for [w in wls] data using (sel(13)):(sel(4)):(sel(14)):(sel(15)):(sel(5)):(sel(6)) with xyerrorbars lw 1.5 pt 7 title w, \
     for [w in wls] data using (sel(13)):(sel(4)):2 with labels offset 1.2,0.6 left font ",9" notitle
set title "throughput"
set ylabel "throughput (jobs per second)"
plot for [w in wls] data using (sel(13)):(sel(7)):(sel(14)):(sel(15)):(sel(8)):(sel(9)) with xyerrorbars lw 1.5 pt 7 title w, \
     for [w in wls] data using (sel(13)):(sel(7)):2 with labels offset 1.2,0.6 left font ",9" notitle
unset multiplot
