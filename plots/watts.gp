# Estimated watts against the number of busy loops, per policy, beside the
# SNB-EP measurements of the v7 cover letter.
# gnuplot -e "data='watts.tsv'; snbep='snbep.tsv'; cpus=8; out='FILE.png'" watts.gp
# data: "# loops powersaving performance vanilla" (estimated W);
# snbep: "# loops powersaving performance" (measured W, 32 threads).
set terminal pngcairo size 1400,560 font "DejaVu Sans,11"
set output out
set multiplot layout 1,2 title "Power against load" font ",13"
set grid
set key top left
set xlabel sprintf("busy loops (guest: %d cpus)", cpus)
set ylabel "estimated watts (model calibrated on SNB-EP)"
set logscale x 2
set title "this run: estimated from the traces"
plot data using 1:2 with linespoints lw 2 pt 7 title "powersaving", \
     ''   using 1:3 with linespoints lw 2 pt 5 title "performance", \
     ''   using 1:4 with linespoints lw 2 pt 9 dt 2 title "vanilla"
set xlabel "busy loops (SNB-EP: 32 threads)"
set ylabel "measured watts"
set title "v7 cover letter: SNB-EP 2 sockets x 8 cores x HT, measured"
plot snbep using 1:2 with linespoints lw 2 pt 7 title "powersaving", \
     ''    using 1:3 with linespoints lw 2 pt 5 title "performance"
unset multiplot
