# a 4 KB buffer per cpu under hackbench: events are lost
trace-cmd record -q --compression none -b 4 -e sched -e timer -e irq -e powersched -o trace.dat sh -c 'kick-cpus && exec hackbench -g 2 -l 20' > /dev/null
