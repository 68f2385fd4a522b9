"""Writes hand-scheduled device code for the simulator benchmark on `spyre`
(32 cores x 2 corelets): a ROWS x COLS f16 elementwise add (C = A + B) and a
row sum (S[r] = sum of row r of X). Usage:

    gen_spyre.py add|rowsum ROWS COLS > K.kasm

Each core's DMA double-buffers tiles of TILE rows into LX, each corelet's
load unit streams its half of a tile as 128-byte sticks to the vector unit,
the store unit writes results back to LX, and the DMA copies them out.
Buffers rotate with (i%2) address terms; semaphores: DMA->ld 0 (tile ready),
ld->DMA 1 (buffer free), st->DMA 2 (result ready), DMA->st 0 (out buffer free).
The layout constants (stick, lanes, cores) are spyre's and belong to this
benchmark only, not to the simulator.
"""
import sys

CORES, CORELETS, STICK, LANES = 32, 2, 128, 64
TILE = 16  # rows per DMA tile (both corelets)

def tables(row_bytes, rows_per_core):
    core_bytes = rows_per_core * row_bytes
    # Columns: offset of the core's rows in the input/output, the ld and st
    # instances of its corelets, and the offset of its sums in a row-sum output.
    dma = [[c * core_bytes, 2 * c, 2 * c + 1, 2 * c, 2 * c + 1, c * rows_per_core * 2]
           for c in range(CORES)]
    unit = [[(i % 2) * (TILE // 2) * row_bytes, i // 2, (i % 2) * STICK] for i in range(CORES * 2)]
    return dma, unit

def emit_table(out, rows):
    out.append("table %d" % len(rows[0]))
    for r in rows:
        out.append("row " + " ".join(str(v) for v in r))

def program(kind, rows, cols):
    row_bytes = cols * 2
    rows_per_core = rows // CORES
    if kind == "rowsum" and rows_per_core // 2 != LANES:
        sys.exit("rowsum collects one stick of sums per corelet: ROWS must be %d"
                 % (CORES * CORELETS * LANES))
    tiles = rows_per_core // TILE
    tile_bytes = TILE * row_bytes
    half = tile_bytes // 2
    sticks_per_half = half // STICK
    a0, b0, c0 = 0, 2 * tile_bytes, 4 * tile_bytes   # LX buffers (2 each)
    dma_t, unit_t = tables(row_bytes, rows_per_core)
    out = ["ktdc 1", "device spyre"]
    if kind == "add":
        out += ["symbol $A f16 %dx%d in" % (rows, cols), "symbol $B f16 %dx%d in" % (rows, cols),
                "symbol $C f16 %dx%d out" % (rows, cols)]
    else:
        out += ["symbol $X f16 %dx%d in" % (rows, cols), "symbol $S f16 %d out" % rows]

    # DMA: each tile holds TILE/2 rows of each corelet's contiguous row range.
    per_corelet = rows_per_core // 2 * row_bytes
    def load(tile_expr, buf_expr):
        srcs = [("A", a0), ("B", b0)] if kind == "add" else [("X", a0)]
        lines = []
        for sym, base in srcs:
            lines.append("    copy @lx+%d%s, $%s+t0%s, run %d, dim 2 %d %d"
                         % (base, buf_expr, sym, tile_expr, half, per_corelet, half))
        return lines
    out += ["", "program @dma"]
    emit_table(out, dma_t)
    if kind == "add":
        out += ["  signal @st[t3], 0", "  signal @st[t3], 0", "  signal @st[t4], 0", "  signal @st[t4], 0"]
    out += ["  wait 1, 2"] + [l[2:] for l in load("", "")]
    out += ["  signal @ld[t1], 0", "  signal @ld[t2], 0"]
    out += ["  loop %d" % (tiles - 1), "    wait 1, 2"]
    out += load("+%d+i0*%d" % (half, half), "+%d+(i0%%2)*-%d" % (tile_bytes, tile_bytes))
    out += ["    signal @ld[t1], 0", "    signal @ld[t2], 0"]
    if kind == "add":
        out += ["    wait 2, 2",
                "    copy $C+t0+i0*%d, @lx+%d+(i0%%2)*%d, run %d, dim 2 %d %d"
                % (half, c0, tile_bytes, half, half, per_corelet),
                "    signal @st[t3], 0", "    signal @st[t4], 0"]
    out += ["  end", "  wait 2, 2"]
    if kind == "add":
        last = tiles - 1
        out += ["  copy $C+t0+%d, @lx+%d, run %d, dim 2 %d %d"
                % (last * half, c0 + (last % 2) * tile_bytes, half, half, per_corelet)]
    else:
        out += ["  copy $S+t5, @lx+%d, run %d" % (c0, 2 * STICK)]
    # Load units.
    out += ["", "program @ld"]
    emit_table(out, unit_t)
    out += ["  signal @dma[t1], 1", "  signal @dma[t1], 1", "  loop %d" % tiles, "    wait 0, 1",
            "    loop %d" % sticks_per_half]
    for base in ([a0, b0] if kind == "add" else [a0]):
        out.append("      push @sfp, @lx+%d+t0+(i0%%2)*%d+i1*%d, %d" % (base, tile_bytes, STICK, STICK))
    out += ["    end", "    signal @dma[t1], 1", "  end"]
    # Vector units.
    out += ["", "program @sfp"]
    if kind == "add":
        out += ["  loop %d" % (tiles * sticks_per_half), "    recv v0, f16, %d, @ld" % LANES,
                "    recv v1, f16, %d, @ld" % LANES, "    add v2, v0, v1", "    send @st, v2", "  end"]
    else:
        sticks_per_row = row_bytes // STICK
        out += ["  vconst v3, f16, %d, 0" % LANES, "  loop %d" % (rows_per_core // 2),
                "    recv v0, f16, %d, @ld" % LANES, "    loop %d" % (sticks_per_row - 1),
                "      recv v1, f16, %d, @ld" % LANES, "      add v0, v0, v1", "    end",
                "    reduce.add v2, v0", "    slide v3, v2", "  end", "  send @st, v3"]
    # Store units.
    out += ["", "program @st"]
    emit_table(out, unit_t)
    if kind == "add":
        out += ["  loop %d" % tiles, "    wait 0, 1", "    loop %d" % sticks_per_half,
                "      pop @sfp, @lx+%d+t0+(i0%%2)*%d+i1*%d, %d" % (c0, tile_bytes, STICK, STICK),
                "    end", "    signal @dma[t1], 2", "  end"]
    else:
        out += ["  pop @sfp, @lx+%d+t2, %d" % (c0, STICK), "  signal @dma[t1], 2"]
    return "\n".join(out) + "\n"

if __name__ == "__main__":
    kind, rows, cols = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    text = program(kind, rows, cols)
    sys.stdout.write(text)
