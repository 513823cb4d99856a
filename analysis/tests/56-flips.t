#!/bin/bash
# Flip-flops per sched-domain instance (issue "Thrashing as users feel
# it"): a flip is one domain instance (a cpu's domain at a level, the cpu
# the pass balances for) changing its mode, not two cpus disagreeing.  On
# crafted traces whose answer follows from how they were built.
source "$(dirname "$0")/../../tests/lib.sh"
source "$(dirname "$0")/crafted.sh"
use_sanitizers

# passes LIST: balance_mode records "CPU T MODE" (1 power why=pack,
# 2 performance why=overloaded) at the MC level, each for its own cpu
passes() {
	awk '{ printf "%d %.6f balance_mode cpu=%d level=1 domain=MC idle=1 mode=%d why=%d\n",
		$1, $2, $1, $3, $3 == 1 ? 8 : 3 }'
}

# Two cpus that each keep their mode, interleaved every 10 ms for 2 s:
# the coarse measure (all cpus merged) counts a switch at nearly every
# pass, the per-instance one counts none.
craft steady <<EOF
$(known_at 1.0)
$(awk 'BEGIN { for (i = 0; i < 200; i++) printf "%d %.3f %d\n", i % 2, 1.01 + i * 0.01, i % 2 ? 2 : 1 }' | passes)
$(ticks 1.0 3.5)
EOF
an steady
ok "steady: analyzed" exited steady 0
cmp_num "$(sv steady modes.switches)" -ge 150 "steady: the coarse count sees the interleaving as switches"
is "$(sv steady modes.flips)" 0 "steady: no domain instance changed its mind: 0 flips"
is "$(sv steady modes.domains.MC.flips)" 0 "steady: 0 flips at MC"
is "$(sv steady modes.domains.MC.instances)" 2 "steady: two MC instances had a mode"
# cpu 0 power from 1.01 s, cpu 1 performance from 1.02 s, to the end (3.5 s)
ok "steady: half the instance time in each mode" \
	awk -v p="$(sv steady modes.domains.MC.power_share)" -v f="$(sv steady modes.domains.MC.performance_share)" \
	'BEGIN { exit !(p > 0.49 && p < 0.51 && f > 0.49 && f < 0.51) }'

# One cpu flipping every 100 ms from 1.0 s to 2.0 s (11 passes, 10 flips),
# beside a steady one; the last mode held to the end of the trace (3.5 s).
craft flip <<EOF
$(known_at 1.0)
$(awk 'BEGIN { for (i = 0; i <= 10; i++) printf "4 %.3f %d\n", 1.0 + i * 0.1, i % 2 ? 2 : 1
	for (i = 0; i < 20; i++) printf "5 %.3f 1\n", 1.0 + i * 0.1 }' | passes)
$(ticks 1.0 3.5)
EOF
an flip
ok "flip: analyzed" exited flip 0
is "$(sv flip modes.domains.MC.flips)" 10 "flip: 10 flips, all of cpu 4's domain"
is "$(sv flip modes.flips)" 10 "flip: the total is the levels' sum"
dur=$(sv flip duration_s)
ok "flip: flips per second over the trace's duration" \
	awk -v r="$(sv flip modes.flips_per_s)" -v d="$dur" 'BEGIN { exit !(d > 0 && (r - 10 / d) ^ 2 < 1e-6) }'
# cpu 4: power 0.5 s (five 100 ms turns) + 1.5 s at the end, performance
# 0.5 s; cpu 5: power 2.5 s.  Power 4.5 of 5.0 instance-seconds.
ok "flip: time in each mode per instance, summed (power 0.9 of it)" \
	awk -v p="$(sv flip modes.domains.MC.power_share)" 'BEGIN { exit !(p > 0.89 && p < 0.91) }'
is "$(jv flip '.modes.domains.MC.flips')" 10 "flip: summary.json has it too"
ok "flip: FORMATS.md documents the keys" grep -q 'modes.domains.D.{.*flips' "$ROOT/analysis/FORMATS.md"

# A pass that names a cpu outside the topology is a bad record, not an instance
craft badcpu <<EOF
$(known_at 1.0)
0 1.1 balance_mode cpu=300 level=1 domain=MC idle=1 mode=1 why=8
$(ticks 1.0 2.0)
EOF
an badcpu
ok "bad cpu: analyzed" exited badcpu 0
is "$(sv badcpu modes.domains.MC.instances)" 0 "bad cpu: no instance made of it"
ok "bad cpu: named as a bad record" grep -q 'balance_mode cpu=300' "$TEST_TMP/badcpu.err" "$TEST_TMP/badcpu.out"
