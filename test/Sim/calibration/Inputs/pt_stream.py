# The PT matrix unit of `spyre` fed by its load unit, hand-written device
# code (the compiler does not schedule matmul yet):
#   pt_stream.py kasm REUSE ITERATIONS      prints a bundle in text form
#   pt_stream.py rate REUSE RUN1 RUN2 ITER1 ITER2 [PUBLISHED TOLERANCE]
#                                           steady-state MAC/ns per core, and
#                                           WITHIN or OUTSIDE the published
#                                           MAC/ns per core +- TOLERANCE
# Each corelet of core 0 keeps REUSE f16 8x8 accumulators in registers and,
# per iteration, receives one 8x8 block of B (K = 8) and REUSE 8x8 blocks of
# A (one 128-byte stick each) and issues REUSE mma (8x8x8 = 512 MACs, one
# issue each on the 8x8 array with 8 f16 lanes). The rate is extra MACs
# over extra cycles of two runs, at the description's 1500 MHz.
import re, sys

def kasm(reuse, iterations):
    out = ["ktdc 1", "device spyre", "symbol $X f16 %d in" % (64 * (reuse + 1)),
           "symbol $Y f16 %d out" % (64 * reuse), "",
           "program @dma", "instances 0",
           "  copy @lx, $X, run %d" % (128 * (reuse + 1)),
           "  signal @ld[0], 0", "  signal @ld[1], 0", "  wait 0, 2",
           "  copy $Y, @lx+%d, run %d" % (128 * (reuse + 1), 128 * reuse), "",
           "program @ld", "instances 0 1", "  wait 0, 1"]
    for r in range(reuse):
        out.append("  push @pt, @lx+%d, 128" % (128 * (r + 1)))
    out.append("  loop %d" % iterations)
    out.append("    push @pt, @lx, 128")
    for r in range(reuse):
        out.append("    push @pt, @lx+%d, 128" % (128 * (r + 1)))
    out += ["  end", "", "program @pt", "instances 0 1"]
    for r in range(reuse):
        out.append("  recv v%d, f16, 64, @ld" % (8 + r))
    out.append("  loop %d" % iterations)
    out.append("    recv v0, f16, 64, @ld")
    for r in range(reuse):
        out.append("    recv v1, f16, 64, @ld")
        out.append("    mma v%d, v1, v0, 8" % (8 + r))
    out.append("  end")
    for r in range(reuse):
        out.append("  send @st, v%d" % (8 + r))
    out += ["", "program @st", "instances 0 1"]
    for r in range(reuse):
        out.append("  pop @pt, @lx+%d, 128" % (128 * (reuse + 1 + r)))
    out.append("  signal @dma[0], 0")
    return "\n".join(out) + "\n"

def cycles(path):
    m = re.search(r"total cycles: (\d+)", open(path).read())
    return int(m.group(1))

if sys.argv[1] == "kasm":
    sys.stdout.write(kasm(int(sys.argv[2]), int(sys.argv[3])))
else:
    reuse = int(sys.argv[2])
    c1, c2 = cycles(sys.argv[3]), cycles(sys.argv[4])
    i1, i2 = int(sys.argv[5]), int(sys.argv[6])
    macs = 2 * reuse * 512 * (i2 - i1)  # two corelets
    per_cycle = macs / (c2 - c1)
    rate = per_cycle * 1.5
    line = "reuse %d: %.1f MAC/cycle per core, %.0f MAC/ns per core" % (reuse, per_cycle, rate)
    if len(sys.argv) > 8:
        published, tolerance = float(sys.argv[7]), float(sys.argv[8])
        inside = abs(rate - published) <= tolerance * published
        line += ", published %g: %s" % (published, "WITHIN" if inside else "OUTSIDE")
    print(line)
