//===- KernelPrinter.h - KernelSpec to KTIR text ----------------*- C++ -*-===//
//
// Writes a KernelSpec as an idiomatic KTIR module: set and order aliases,
// one global memory view per buffer, access tiles anchored at offsets
// computed from get_compute_tile_id, loads, the expression, stores.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_GEN_KERNELPRINTER_H
#define KTFLOW_GEN_KERNELPRINTER_H

#include "ktflow/Gen/KernelSpec.h"
#include "llvm/Support/raw_ostream.h"

namespace ktflow::gen {

/// Prints `spec` (which must pass KernelSpec::validate) as KTIR text.
void printKernel(const KernelSpec &spec, llvm::raw_ostream &os);
std::string printKernel(const KernelSpec &spec);

/// A one-line formula of output `index` (for header comments and reports).
std::string describeOutput(const KernelSpec &spec, unsigned index);

} // namespace ktflow::gen

#endif // KTFLOW_GEN_KERNELPRINTER_H
