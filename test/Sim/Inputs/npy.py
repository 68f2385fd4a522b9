# Minimal .npy writer/reader for tests, without numpy.
#   npy.py write FILE DTYPE COUNT START STEP   (values START + i*STEP)
#   npy.py list FILE DTYPE V0,V1,...            (the values given)
#   npy.py read FILE INDEX...                  (prints the values)
import struct, sys

FORMATS = {"f2": "e", "f4": "f", "i4": "i"}

def write(path, dtype, count, start, step):
    write_values(path, dtype, [start + i * step for i in range(count)])

def write_values(path, dtype, values):
    count = len(values)
    header = "{'descr': '<%s', 'fortran_order': False, 'shape': (%d,), }" % (dtype, count)
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    if dtype.startswith("i"):
        values = [int(v) for v in values]
    data = struct.pack("<%d%s" % (count, FORMATS[dtype]), *values)
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode() + data)

def read(path, indices):
    raw = open(path, "rb").read()
    n = struct.unpack("<H", raw[8:10])[0]
    header = raw[10:10 + n].decode()
    dtype = header.split("'descr': '<")[1][:2]
    size = struct.calcsize(FORMATS[dtype])
    body = raw[10 + n:]
    for i in indices:
        v = struct.unpack("<" + FORMATS[dtype], body[i * size:(i + 1) * size])[0]
        print("%s[%d] = %g" % (dtype, i, v))

if sys.argv[1] == "write":
    write(sys.argv[2], sys.argv[3], int(sys.argv[4]), float(sys.argv[5]), float(sys.argv[6]))
elif sys.argv[1] == "list":
    write_values(sys.argv[2], sys.argv[3], [float(v) for v in sys.argv[4].split(",")])
else:
    read(sys.argv[2], [int(i) for i in sys.argv[3:]])
