# a 4 KB buffer per cpu under hackbench: events are lost
trace-cmd record -q --compression none -b 4 -e sched -e powersched -o trace.dat sh -c 'kick-cpus && exec hackbench -g 1 -l 10' > /dev/null
