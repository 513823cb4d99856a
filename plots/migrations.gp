# Migrations by topology level per run, stacked.
# gnuplot -e "data='migrations.tsv'; out='FILE.png'" migrations.gp
# data: "# cell smt core package" rows.
set terminal pngcairo size 1400,600 font "DejaVu Sans,11"
set output out
set title "Task migrations per second by the lowest topology level crossed" font ",13"
set style data histograms
set style histogram rowstacked
set style fill solid 0.85 border -1
set boxwidth 0.75
set ylabel "migrations per second"
set xtics rotate by -40 scale 0
set key top left
set grid ytics
set yrange [0:*]
set offsets graph 0, graph 0, graph 0.08, graph 0
set rmargin 8
plot data using 2:xtic(1) title "SMT (siblings)", '' using 3 title "core (same package)", '' using 4 title "package"
