//===- KTDPDialect.td - the KTIR input dialect --------------*- tablegen -*-===//
//
// The `ktdp` dialect is ktflow's input language, KTIR, as defined by
// ../shared/docs/ktir.md: memory views, access tiles, loads and stores, and
// the experimental inter-tile collectives.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_KTDP_DIALECT_TD
#define KTFLOW_KTDP_DIALECT_TD

include "mlir/IR/OpBase.td"

def KTDP_Dialect : Dialect {
  let name = "ktdp";
  let summary = "KTIR: tiled multi-core kernels with explicit memory views";
  let description = [{
    A KTIR kernel says where each tensor lives (`construct_memory_view`),
    which coordinates each access touches (`construct_access_tile`,
    `construct_indirect_access_tile`) and moves data between memory and
    tensor values (`load`, `store`).
  }];
  let cppNamespace = "::ktflow::ktdp";
  let useDefaultTypePrinterParser = 1;
  // The attribute parser is hand-written: the older mnemonic
  // `spyre_memory_space` is normalised to `memory_space` on input.
  let useDefaultAttributePrinterParser = 0;
  let extraClassDeclaration = [{
    ::mlir::Attribute parseAttribute(::mlir::DialectAsmParser &parser,
                                     ::mlir::Type type) const override;
    void printAttribute(::mlir::Attribute attr,
                        ::mlir::DialectAsmPrinter &printer) const override;

  private:
    void registerTypes();
    void registerAttributes();
  }];
}

class KTDP_Op<string mnemonic, list<Trait> traits = []>
    : Op<KTDP_Dialect, mnemonic, traits>;

#endif // KTFLOW_KTDP_DIALECT_TD
