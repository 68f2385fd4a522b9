#!/usr/bin/env python3
"""Global-memory stream rate from two `ktflow sim` reports of one kernel kind
at two sizes.

Usage: stream_rate.py MEMORY SMALL.txt LARGE.txt PUBLISHED_GBPS TOLERANCE

Reads from each report the total cycles, the clock (from "... at N MHz")
and the bytes through MEMORY's ports, and prints the steady-state rate
(extra bytes / extra cycles of the larger run, so the pipeline's fill and
drain, which a long measured stream amortises, cancel out) in GB/s, and
its error against the published figure. Prints "WITHIN" when
|error| <= TOLERANCE (a fraction), else "OUTSIDE".
"""
import re
import sys


def parse(path, memory):
    text = open(path).read()
    m = re.search(r"total cycles: (\d+) \(.* at (\d+) MHz\)", text)
    if not m:
        sys.exit(f"{path}: no 'total cycles: N (... at M MHz)' line")
    cycles, mhz = int(m.group(1)), int(m.group(2))
    port = re.compile(r"^\s*@" + re.escape(memory) + r"(\[[^\]]*\])? port\s+bytes\s+(\d+)", re.M)
    total = sum(int(b) for _, b in port.findall(text))
    if total == 0:
        sys.exit(f"{path}: no traffic through @{memory}'s ports")
    return cycles, mhz, total


def main():
    memory, small, large, published, tolerance = sys.argv[1:6]
    c1, mhz1, b1 = parse(small, memory)
    c2, mhz2, b2 = parse(large, memory)
    if mhz1 != mhz2 or c2 <= c1 or b2 <= b1:
        sys.exit("the larger run must take more cycles and bytes at the same clock")
    gbps = (b2 - b1) / (c2 - c1) * mhz1 / 1000.0
    whole = b2 / c2 * mhz2 / 1000.0
    error = gbps / float(published) - 1.0
    verdict = "WITHIN" if abs(error) <= float(tolerance) else "OUTSIDE"
    print(f"steady rate {gbps:.1f} GB/s (whole larger run {whole:.1f} GB/s), "
          f"published {float(published):.0f} GB/s, error {100 * error:+.1f}%: {verdict}")


if __name__ == "__main__":
    main()
