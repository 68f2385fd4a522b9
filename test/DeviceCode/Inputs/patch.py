# Copies a file, replacing the byte at OFFSET (negative: from the end) with
# VALUE: makes corrupt bundles for negative tests.
import sys
src, dst, offset, value = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
data = bytearray(open(src, "rb").read())
data[offset] = value
open(dst, "wb").write(bytes(data))
