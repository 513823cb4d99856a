# The balance-mode timeline of two runs (lazy balance on and off), per domain.
# gnuplot -e "left='DIR1'; right='DIR2'; lt='...'; rt='...'; out='FILE.png'" modes.gp
# DIRn: analysis folders (modes.tsv: mode_D = 1 power, -1 performance, 0 none yet).
set terminal pngcairo size 1400,560 font "DejaVu Sans,11"
set output out
set multiplot layout 1,2 title "Balance mode over time (1 = power: packing, -1 = performance: spreading)" font ",13"
set xlabel "time (s)"
set ylabel "mode"
set yrange [-1.4:1.6]
set ytics ("performance" -1, "none" 0, "power" 1)
set key top right horizontal
set grid
set title lt
plot left."/modes.tsv" using 1:(column("mode_MC")+0.04) with steps lw 2 title "MC (cores)", \
     ''                 using 1:(column("mode_NUMA")-0.04) with steps lw 2 title "NUMA (packages)"
set title rt
plot right."/modes.tsv" using 1:(column("mode_MC")+0.04) with steps lw 2 title "MC (cores)", \
     ''                  using 1:(column("mode_NUMA")-0.04) with steps lw 2 title "NUMA (packages)"
unset multiplot
