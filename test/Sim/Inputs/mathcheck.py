# Recomputes the rows of math.kasm's output C from its inputs A and B with
# Python's own math (double precision, then rounded once to f16 as
# struct's 'e' format rounds: to nearest even) and prints, per op, the
# largest distance in f16 units in the last place between the simulator's
# result and that reference. Without numpy.
#   mathcheck.py A.npy B.npy C.npy
import math, struct, sys
from fractions import Fraction

def read(path):
    raw = open(path, "rb").read()
    n = struct.unpack("<H", raw[8:10])[0]
    body = raw[10 + n:]
    return [struct.unpack("<e", body[i:i + 2])[0] for i in range(0, len(body), 2)]

def bits(v):
    return struct.unpack("<H", struct.pack("<e", v))[0]

def ordered(v):
    # f16 bit patterns mapped to integers in the order of their values.
    b = bits(v)
    return -(b & 0x7fff) if b & 0x8000 else b

def fma(a, b, c):
    # The exact a * b + c, rounded once to double (then to f16 by the caller).
    return float(Fraction(a) * Fraction(b) + Fraction(c))

ops = [
    ("sqrt", lambda a, b: math.sqrt(a)),
    ("rsqrt", lambda a, b: 1.0 / math.sqrt(a)),
    ("log", lambda a, b: math.log(a)),
    ("tanh", lambda a, b: math.tanh(b)),
    ("erf", lambda a, b: math.erf(b)),
    ("pow", lambda a, b: math.pow(a, b)),
    ("fma", lambda a, b: fma(a, b, a)),
    ("div", lambda a, b: b / a),
    ("exp", lambda a, b: math.exp(b)),
]
A, B, C = read(sys.argv[1]), read(sys.argv[2]), read(sys.argv[3])
n = len(A)
for row, (name, f) in enumerate(ops):
    worst = 0
    for i in range(n):
        want = struct.unpack("<e", struct.pack("<e", f(A[i], B[i])))[0]
        worst = max(worst, abs(ordered(C[row * n + i]) - ordered(want)))
    print("%s: max ulp %d" % (name, worst))
