//===- Encoding.h - binary bundle encoding ----------------------*- C++ -*-===//
//
// The binary form of a Bundle (docs/devicecode.md, "Binary bundle"): a
// versioned header followed by length-prefixed sections (device name,
// symbol table, one section per unit program). Decoding validates every
// length, offset, opcode and operand, so a corrupt or truncated file gives
// an error message and never a crash.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_DEVICECODE_ENCODING_H
#define KTFLOW_DEVICECODE_ENCODING_H

#include "ktflow/DeviceCode/Program.h"
#include "llvm/ADT/ArrayRef.h"

namespace ktflow::dc {

/// "KTDC" little endian.
constexpr uint32_t kBundleMagic = 0x4344544b;
/// The version written. Version 2 added the launch-values section (written
/// by every version-2 bundle, between the symbols and the programs) and the
/// math instructions (pow, fma, sqrt, rsqrt, log, tanh, erf). Version 1
/// bundles still read (as specialized on no launch values); one that uses a
/// math instruction is rejected. Version 3 added the launch table: unbound
/// launch values (with their granularity and upperbound), per-program
/// launch-table cells and loops whose count is a table column. A bundle is
/// written in the oldest version that holds it (2 without a launch table).
/// Version 4 added the matrix unit's `mma`; a bundle using it is version 4.
/// Version 5 added the integer element types (i8, i32, i64) of registers; a
/// bundle whose instructions name one is version 5.
constexpr uint32_t kBundleVersion = 6;
/// The oldest version the reader accepts.
constexpr uint32_t kOldestBundleVersion = 1;

/// The version a bundle is written in: 5 with an integer register type,
/// else 4 with an `mma`, else 3 with a launch table, else 2.
uint32_t versionNeeded(const Bundle &bundle);

/// Whether `inst` names an integer element type (version 5 and later).
bool holdsIntegerType(const Instruction &inst);

/// The first bundle version that has `op`.
uint32_t firstVersionWith(Opcode op);

enum class SectionKind : uint32_t { Device = 1, Symbols = 2, Program = 3, LaunchValues = 4 };

std::vector<uint8_t> encodeBundle(const Bundle &bundle);
/// Decodes and verifies; `name` (a file name) prefixes error messages.
llvm::Expected<Bundle> decodeBundle(llvm::ArrayRef<uint8_t> bytes, llvm::StringRef name);

/// Reads and decodes a bundle file.
llvm::Expected<Bundle> readBundleFile(llvm::StringRef path);
llvm::Error writeBundleFile(llvm::StringRef path, const Bundle &bundle);

} // namespace ktflow::dc

#endif // KTFLOW_DEVICECODE_ENCODING_H
