#!/usr/bin/env python3
"""Exits 0 when a PNG screenshot shows a drawn page: at least MIN_COLOURS
distinct colours and at least MIN_INK of its pixels not the background
(the most common colour). Standard library only (zlib), 8-bit RGB/RGBA."""
import struct
import sys
import zlib

MIN_COLOURS = 6
MIN_INK = 0.01


def pixels(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit(f"{path}: not a PNG")
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", chunk)
        elif kind == b"IDAT":
            idat += chunk
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in (2, 6) or interlace:
        sys.exit(f"{path}: only 8-bit RGB/RGBA, non-interlaced PNGs are read")
    bpp = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * bpp
    previous = bytearray(stride)
    rows = []
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = previous[i]
            c = previous[i - bpp] if i >= bpp else 0
            if kind == 1:
                line[i] = (line[i] + a) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + b) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 0xFF
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[i] = (line[i] + pred) & 0xFF
        rows.append(bytes(line))
        previous = line
    return [row[i:i + 3] for row in rows for i in range(0, stride, bpp)]


def main():
    counts = {}
    for p in pixels(sys.argv[1]):
        counts[p] = counts.get(p, 0) + 1
    total = sum(counts.values())
    ink = 1 - max(counts.values()) / total
    print(f"colours: {len(counts)}, non-background: {ink:.3f}")
    if len(counts) < MIN_COLOURS or ink < MIN_INK:
        sys.exit(f"{sys.argv[1]}: looks blank")


main()
