//===- KTDPAttrs.cpp - ktdp attributes ------------------------------------===//
//
// The memory-space attribute has two spellings (spec §4.1). Both parse into
// one MemorySpaceAttr, so nothing downstream ever sees the older one; the
// printer always writes the current spelling. Rules that need no context
// (ct_id >= 0, ct_id only with ct_local) are checked here at parse time;
// the grid-dependent rule (ct_id < tile count) is checked by the ops.
//
//===----------------------------------------------------------------------===//
#include "ktflow/KTDP/KTDPAttrs.h"
#include "ktflow/KTDP/KTDPDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace ktflow::ktdp;

#include "ktflow/KTDP/KTDPEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "ktflow/KTDP/KTDPAttrs.cpp.inc"

void KTDPDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "ktflow/KTDP/KTDPAttrs.cpp.inc"
      >();
}

Attribute KTDPDialect::parseAttribute(DialectAsmParser &parser,
                                      Type type) const {
  SMLoc loc = parser.getCurrentLocation();
  StringRef mnemonic;
  Attribute attr;
  OptionalParseResult result =
      generatedAttributeParser(parser, &mnemonic, type, attr);
  if (result.has_value())
    return succeeded(*result) ? attr : Attribute();
  if (mnemonic == "spyre_memory_space")
    return MemorySpaceAttr::parseLegacy(parser);
  parser.emitError(loc) << "unknown ktdp attribute '#ktdp." << mnemonic
                        << "'";
  return {};
}

void KTDPDialect::printAttribute(Attribute attr,
                                 DialectAsmPrinter &printer) const {
  (void)generatedAttributePrinter(attr, printer);
}

LogicalResult
MemorySpaceAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                        MemorySpaceKind kind, std::optional<int64_t> ctId) {
  if (!ctId)
    return success();
  if (*ctId < 0)
    return emitError() << "memory space: ct_id must be >= 0, got " << *ctId
                       << " (spec §4.1)";
  if (kind != MemorySpaceKind::CtLocal)
    return emitError() << "memory space: ct_id is only allowed with "
                          "ct_local, got '"
                       << stringifyMemorySpaceKind(kind)
                       << ", ct_id = " << *ctId << "' (spec §4.1)";
  return success();
}

/// Parses `, <keyword> = <int>` after the kind, if present.
static ParseResult parseOptionalTileId(AsmParser &parser, StringRef keyword,
                                       std::optional<int64_t> &id,
                                       SMLoc &idLoc) {
  if (failed(parser.parseOptionalComma()))
    return success();
  idLoc = parser.getCurrentLocation();
  if (parser.parseKeyword(keyword) || parser.parseEqual())
    return failure();
  idLoc = parser.getCurrentLocation();
  int64_t value;
  if (parser.parseInteger(value))
    return failure();
  id = value;
  return success();
}

Attribute MemorySpaceAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef kindName;
  if (parser.parseLess() || parser.parseKeyword(&kindName))
    return {};
  std::optional<MemorySpaceKind> kind = symbolizeMemorySpaceKind(kindName);
  if (!kind) {
    parser.emitError(loc) << "memory space must be global, ct_local or "
                             "unspecified, got '"
                          << kindName << "'";
    return {};
  }
  std::optional<int64_t> ctId;
  SMLoc idLoc = parser.getCurrentLocation();
  if (parseOptionalTileId(parser, "ct_id", ctId, idLoc) ||
      parser.parseGreater())
    return {};
  return getChecked([&] { return parser.emitError(idLoc); },
                    parser.getContext(), *kind, ctId);
}

Attribute MemorySpaceAttr::parseLegacy(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef kindName;
  if (parser.parseLess() || parser.parseKeyword(&kindName))
    return {};
  std::optional<MemorySpaceKind> kind;
  bool onChip = false;
  if (kindName == "HBM") {
    kind = MemorySpaceKind::Global;
  } else if (kindName == "LX" || kindName == "L0") {
    kind = MemorySpaceKind::CtLocal;
    onChip = true;
  } else if (kindName == "unspecified") {
    kind = MemorySpaceKind::Unspecified;
  } else {
    parser.emitError(loc) << "spyre memory space must be HBM, LX, L0 or "
                             "unspecified, got '"
                          << kindName << "'";
    return {};
  }
  std::optional<int64_t> core;
  SMLoc idLoc = parser.getCurrentLocation();
  if (parseOptionalTileId(parser, "core", core, idLoc) ||
      parser.parseGreater())
    return {};
  if (core && !onChip) {
    parser.emitError(idLoc) << "spyre memory space: core is only allowed "
                               "with LX or L0, got '"
                            << kindName << ", core = " << *core
                            << "' (spec §4.1)";
    return {};
  }
  if (core && *core < 0) {
    parser.emitError(idLoc) << "spyre memory space: core must be >= 0, got "
                            << *core << " (spec §4.1)";
    return {};
  }
  return get(parser.getContext(), *kind, core);
}

void MemorySpaceAttr::print(AsmPrinter &printer) const {
  printer << '<' << stringifyMemorySpaceKind(getKind());
  if (getCtId())
    printer << ", ct_id = " << *getCtId();
  printer << '>';
}
