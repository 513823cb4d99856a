# The balance-mode timeline of two runs (lazy balance on and off), per domain.
# gnuplot -e "left='DIR1'; right='DIR2'; lt='...'; rt='...'; c1=6; n1='MC'; c2=10; n2='NUMA'; out='FILE.png'" modes.gp
# DIRn: analysis folders (modes.tsv: mode_D = 1 power, -1 performance, 0 none
# yet); c1, c2: the columns of mode_D for two domain levels, n1, n2 their names.
# The first 3 seconds are shown, so that single switches stay visible.
set terminal pngcairo size 1400,560 font "DejaVu Sans,11"
set output out
set multiplot layout 1,2 title "Balance mode over time (1 = power: packing, -1 = performance: spreading)" font ",13"
set xlabel "time (s)"
set ylabel "mode"
set yrange [-1.4:1.6]
set ytics ("performance" -1, "none" 0, "power" 1)
set xrange [0:3]
set key top right horizontal width 3 samplen 3
set grid
set title lt
plot left."/modes.tsv" using 1:(column(c1)+0.04) with steps lw 2 title n1, \
     ''                 using 1:(column(c2)-0.04) with steps lw 2 title n2
set title rt
plot right."/modes.tsv" using 1:(column(c1)+0.04) with steps lw 2 title n1, \
     ''                  using 1:(column(c2)-0.04) with steps lw 2 title n2
unset multiplot
