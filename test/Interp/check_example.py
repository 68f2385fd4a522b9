#!/usr/bin/env python3
"""Checks `ktflow interp` on the shipped KTIR examples against their header
formulas, computed here independently of the interpreter.

  check_example.py gen EXAMPLE DIR    write inputs (and zero outputs) to DIR/in
  check_example.py args EXAMPLE DIR   print the --arg flags (for humans)
  check_example.py check EXAMPLE DIR  compare DIR/out/*.npy with the formula

EXAMPLE is the file's number (01 .. 16). Inputs follow the examples'
README: uniform in [-1, 1] rounded to f16, divisors at least 0.5 in
magnitude, logits in [-4, 4], index vectors drawn from a permutation; the
seed is fixed. Comparison uses the tolerances of ktir.md §7.3.

Pure Python (numpy is not assumed): .npy files are read and written with
struct, and f16 rounding uses struct's 'e' format (round to nearest even).
"""
import math
import os
import random
import struct
import sys

# --------------------------------------------------------------------------
# .npy and rounding

DTYPES = {"f2": ("e", 2), "f4": ("f", 4), "i4": ("i", 4), "i8": ("q", 8)}


def write_npy(path, dtype, shape, values):
    fmt, size = DTYPES[dtype]
    shape_text = "(" + ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"
    header = "{'descr': '<%s', 'fortran_order': False, 'shape': %s, }" % (dtype, shape_text)
    total = 10 + len(header) + 1
    header += " " * ((64 - total % 64) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        f.write(struct.pack("<%d%s" % (len(values), fmt), *values))


def read_npy(path):
    with open(path, "rb") as f:
        data = f.read()
    assert data[:6] == b"\x93NUMPY", path
    major = data[6]
    if major == 1:
        hlen = struct.unpack("<H", data[8:10])[0]
        start = 10
    else:
        hlen = struct.unpack("<I", data[8:12])[0]
        start = 12
    header = data[start:start + hlen].decode()
    d = eval(header)  # a dict literal written by NumPy's format
    dtype = d["descr"][1:]
    shape = tuple(d["shape"])
    fmt, size = DTYPES[dtype]
    n = 1
    for s in shape:
        n *= s
    body = data[start + hlen:start + hlen + n * size]
    return dtype, shape, list(struct.unpack("<%d%s" % (n, fmt), body))


def r16(x):
    """Rounds to the nearest f16 (ties to even); overflow gives infinity."""
    if math.isnan(x) or math.isinf(x):
        return x
    try:
        return struct.unpack("<e", struct.pack("<e", x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


def r32(x):
    if math.isnan(x) or math.isinf(x):
        return x
    try:
        return struct.unpack("<f", struct.pack("<f", x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


EPS16 = 2.0 ** -10
EPS32 = 2.0 ** -23
TINY16 = 2.0 ** -14

# --------------------------------------------------------------------------
# Input generation


def uniform(rng, n):
    return [r16(rng.uniform(-1.0, 1.0)) for _ in range(n)]


def divisors(rng, n):
    return [r16(rng.choice((-1.0, 1.0)) * rng.uniform(0.5, 1.0)) for _ in range(n)]


def logits(rng, n):
    return [r16(rng.uniform(-4.0, 4.0)) for _ in range(n)]


def size(shape):
    n = 1
    for s in shape:
        n *= s
    return n


def at(values, shape, *idx):
    lin = 0
    for i, s in zip(idx, shape):
        lin = lin * s + i
    return values[lin]


# Each example: inputs {name: (dtype, shape, generator)}, outputs
# {name: (dtype, shape)}, scalars {name: text}, and expected(inputs) ->
# {output: (values, tolerance)} where tolerance is "exact", ("reduce",
# eps_acc, magnitudes) or ("composite",).


def ex01(x):
    a, b = x["lhs"], x["rhs"]
    return {
        "sum": ([r16(p + q) for p, q in zip(a, b)], "exact"),
        "dif": ([r16(p - q) for p, q in zip(a, b)], "exact"),
        "prd": ([r16(p * q) for p, q in zip(a, b)], "exact"),
        "quo": ([r16(p / q) for p, q in zip(a, b)], "exact"),
    }


def ex02(x):
    a, b = x["p"], x["q"]
    return {
        "o_add": ([r16(p + q) for p, q in zip(a, b)], "exact"),
        "o_sub": ([r16(p - q) for p, q in zip(a, b)], "exact"),
        "o_mul": ([r16(p * q) for p, q in zip(a, b)], "exact"),
        "o_div": ([r16(p / q) for p, q in zip(a, b)], "exact"),
    }


def ex03(x):
    shift = r16(0.375)
    out = []
    for r in range(32):
        for c in range(128):
            v = r16(at(x["x"], (32, 128), r, c) * x["gain"][0])
            v = r16(v + x["bias"][c])
            out.append(r16(v + shift))
    return {"out": (out, "exact")}


def ex04(x):
    src = x["src"]
    sums, mags, maxes = [], [], []
    for r in range(64):
        row = src[r * 256:(r + 1) * 256]
        sums.append(math.fsum(row))
        mags.append(math.fsum(abs(v) for v in row))
        maxes.append(max(row))
    return {"sums": (sums, ("reduce", EPS16, mags)), "maxes": (maxes, "exact")}


def ex05(x):
    return {"y": ([max(r16(r16(a * b) + c), 0.0) for a, b, c in zip(x["a"], x["b"], x["c"])],
                  "exact")}


def ex06(x):
    out = []
    for r in range(24):
        for c in range(128):
            v = at(x["x"], (24, 128), r, c)
            out.append(r16(r16(v * v) + x["w"][c]))
    return {"y": (out, "exact")}


def ex07(x):
    sums, mags = [], []
    for c in range(128):
        col = [at(x["m"], (64, 128), r, c) for r in range(64)]
        sums.append(r16(math.fsum(col)))
        mags.append(math.fsum(abs(v) for v in col))
    return {"colsum": (sums, ("reduce", EPS32, mags))}


def ex08(x):
    out = []
    for r in range(32):
        row = x["logits"][r * 128:(r + 1) * 128]
        m = max(row)
        e = [math.exp(v - m) for v in row]
        s = math.fsum(e)
        out.extend(v / s for v in e)
    return {"probs": (out, ("composite",))}


def ex09(x):
    out = []
    eps = 1e-5
    for r in range(16):
        row = x["x"][r * 256:(r + 1) * 256]
        mean = math.fsum(row) / 256
        var = math.fsum((v - mean) ** 2 for v in row) / 256
        for c in range(256):
            out.append((row[c] - mean) / math.sqrt(var + eps) * x["gamma"][c] + x["beta"][c])
    return {"y": (out, ("composite",))}


def ex10(x):
    out, mags = [], []
    for i in range(32):
        for j in range(64):
            terms = [at(x["A"], (32, 128), i, k) * at(x["B"], (128, 64), k, j) for k in range(128)]
            out.append(r16(math.fsum(terms)))
            mags.append(math.fsum(abs(t) for t in terms))
    return {"C": (out, ("reduce", EPS32, mags))}


def ex11(x):
    return {"dst": ([r16(v + r16(v * v)) for v in x["src"]], "exact")}


def ex12(x):
    return {"y": ([r16(v * r16(v + 1.0)) for v in x["x"]], "exact")}


def ex13(x):
    return {"outp": ([min(max(v, -0.5), 0.5) for v in x["inp"]], "exact")}


def ex14(x):
    return {"Y": ([at(x["X"], (32, 64), i, j) for j in range(64) for i in range(32)], "exact")}


def ex15(x):
    whole = x["top"] + x["bottom"]
    out = [r16(2 * at(whole, (64, 128), r + 8, c)) for r in range(48) for c in range(128)]
    return {"win": (out, "exact")}


def ex16(x):
    out = [at(x["table"], (64, 128), x["ids"][r], c) for r in range(16) for c in range(128)]
    return {"out": (out, "exact")}


F16 = "f2"
EXAMPLES = {
    "01": ({"lhs": (F16, (1024,), uniform), "rhs": (F16, (1024,), divisors)},
           {n: (F16, (1024,)) for n in ("sum", "dif", "prd", "quo")}, {}, ex01),
    "02": ({"p": (F16, (64, 256), uniform), "q": (F16, (64, 256), divisors)},
           {n: (F16, (64, 256)) for n in ("o_add", "o_sub", "o_mul", "o_div")}, {}, ex02),
    "03": ({"x": (F16, (32, 128), uniform), "bias": (F16, (128,), uniform),
            "gain": (F16, (1,), uniform)},
           {"out": (F16, (32, 128))}, {"shift": "0.375"}, ex03),
    "04": ({"src": (F16, (64, 256), uniform)},
           {"sums": (F16, (64,)), "maxes": (F16, (64,))}, {}, ex04),
    "05": ({n: (F16, (2, 32, 128), uniform) for n in ("a", "b", "c")},
           {"y": (F16, (2, 32, 128))}, {}, ex05),
    "06": ({"x": (F16, (24, 128), uniform), "w": (F16, (128,), uniform)},
           {"y": (F16, (24, 128))}, {}, ex06),
    "07": ({"m": (F16, (64, 128), uniform)}, {"colsum": (F16, (128,))}, {}, ex07),
    "08": ({"logits": (F16, (32, 128), logits)}, {"probs": (F16, (32, 128))}, {}, ex08),
    "09": ({"x": (F16, (16, 256), uniform), "gamma": (F16, (256,), uniform),
            "beta": (F16, (256,), uniform)},
           {"y": (F16, (16, 256))}, {"eps": "1e-5"}, ex09),
    "10": ({"A": (F16, (32, 128), uniform), "B": (F16, (128, 64), uniform)},
           {"C": (F16, (32, 64))}, {}, ex10),
    "11": ({"src": (F16, (4, 256), uniform)}, {"dst": (F16, (4, 256))}, {}, ex11),
    "12": ({"x": (F16, (20, 64), uniform)}, {"y": (F16, (20, 64))}, {"rows": "20"}, ex12),
    "13": ({"inp": (F16, (16, 64), uniform)}, {"outp": (F16, (16, 64))}, {}, ex13),
    "14": ({"X": (F16, (32, 64), uniform)}, {"Y": (F16, (64, 32))}, {}, ex14),
    "15": ({"top": (F16, (32, 128), uniform), "bottom": (F16, (32, 128), uniform)},
           {"win": (F16, (48, 128))}, {}, ex15),
    "16": ({"table": (F16, (64, 128), uniform),
            "ids": ("i4", (16,), lambda rng, n: rng.sample(range(64), n))},
           {"out": (F16, (16, 128))}, {}, ex16),
}

# --------------------------------------------------------------------------


def gen(example, root):
    inputs, outputs, scalars, _ = EXAMPLES[example]
    rng = random.Random(int(example) * 7919)
    os.makedirs(os.path.join(root, "in"), exist_ok=True)
    for name, (dtype, shape, make) in inputs.items():
        write_npy(os.path.join(root, "in", name + ".npy"), dtype, shape, make(rng, size(shape)))
    for name, (dtype, shape) in outputs.items():
        write_npy(os.path.join(root, "in", name + ".npy"), dtype, shape, [0] * size(shape))


def args(example, root):
    inputs, outputs, scalars, _ = EXAMPLES[example]
    flags = ["--arg %s=%s" % (n, os.path.join(root, "in", n + ".npy"))
             for n in list(inputs) + list(outputs)]
    flags += ["--arg %s=%s" % (n, v) for n, v in scalars.items()]
    print(" ".join(flags))


def within(got, ref, tol, i):
    if math.isnan(ref):
        return math.isnan(got)
    if math.isinf(ref):
        return got == ref
    if tol == "exact":
        return got == ref
    if tol[0] == "reduce":
        return abs(got - ref) <= EPS16 * abs(ref) + 4 * tol[1] * tol[2][i]
    return abs(got - ref) <= 1e-3 + 1e-2 * abs(ref)  # composite f16 kernels


def check(example, root):
    inputs, outputs, _, expected = EXAMPLES[example]
    x = {n: read_npy(os.path.join(root, "in", n + ".npy"))[2] for n in inputs}
    ok = True
    for name, (values, tol) in expected(x).items():
        dtype, shape, got = read_npy(os.path.join(root, "out", name + ".npy"))
        want_dtype, want_shape = outputs[name]
        if dtype != want_dtype or size(shape) != size(want_shape):
            print("FAIL %s: %s has dtype %s shape %s, expected %s %s"
                  % (example, name, dtype, shape, want_dtype, want_shape))
            ok = False
            continue
        bad = [i for i, (g, r) in enumerate(zip(got, values)) if not within(g, r, tol, i)]
        worst = max((abs(g - r) for g, r in zip(got, values) if not math.isnan(r)), default=0.0)
        if bad:
            i = bad[0]
            print("FAIL %s: %s has %d of %d elements outside tolerance; first at %d: got %r, "
                  "expected %r" % (example, name, len(bad), len(values), i, got[i], values[i]))
            ok = False
        else:
            print("PASS %s: %s (%d elements, max abs error %.3g)"
                  % (example, name, len(values), worst))
    return ok


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("gen", "args", "check"):
        print(__doc__)
        return 2
    mode, example, root = sys.argv[1:]
    if mode == "gen":
        gen(example, root)
    elif mode == "args":
        args(example, root)
    else:
        return 0 if check(example, root) else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
