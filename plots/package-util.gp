# Per-package utilization over time, two runs side by side.
# gnuplot -e "left='DIR1'; right='DIR2'; lt='title 1'; rt='title 2'; out='FILE.png'" package-util.gp
# DIRn: analysis folders (util_package.tsv inside).
set terminal pngcairo size 1400,520 font "DejaVu Sans,11"
set output out
set multiplot layout 1,2 title "Per-package utilization (share of each 10 ms bucket with a busy cpu)" font ",13"
set xlabel "time (s)"
set ylabel "package busy share"
set yrange [-0.05:1.15]
set key top right horizontal width 3 samplen 3
set grid
set title lt
plot left."/util_package.tsv" using 1:2 with steps lw 2 title "package 0", \
     ''                         using 1:3 with steps lw 2 title "package 1"
set title rt
plot right."/util_package.tsv" using 1:2 with steps lw 2 title "package 0", \
     ''                          using 1:3 with steps lw 2 title "package 1"
unset multiplot
