//===- Npy.h - NumPy .npy files ---------------------------------*- C++ -*-===//
//
// Reading and writing NumPy's .npy format (versions 1.0, 2.0 and 3.0 are
// read, 1.0 or 2.0 written), little endian, C order. NumPy has no bfloat16
// dtype: a bf16 buffer is stored as '<u2' holding the raw bf16 bit patterns
// (docs/interp.md).
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_INTERP_NPY_H
#define KTFLOW_INTERP_NPY_H

#include "ktflow/Interp/Value.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ktflow::interp {

/// An array as stored in a .npy file: raw little-endian element bytes.
struct NpyArray {
  /// The dtype descriptor without its byte-order character, e.g. "f2", "b1".
  std::string dtype;
  std::vector<int64_t> shape;
  std::vector<uint8_t> data;
};

/// The .npy dtype (without byte order) used for element kind `k`.
const char *npyDtypeOf(ElemKind k);

llvm::Expected<NpyArray> readNpy(llvm::StringRef path);
/// Parses an in-memory .npy image (`name` is used in messages).
llvm::Expected<NpyArray> parseNpy(llvm::ArrayRef<uint8_t> bytes,
                                  llvm::StringRef name);
llvm::Error writeNpy(llvm::StringRef path, const NpyArray &array);
std::vector<uint8_t> serializeNpy(const NpyArray &array);

} // namespace ktflow::interp

#endif // KTFLOW_INTERP_NPY_H
