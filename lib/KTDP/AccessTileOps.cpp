//===- AccessTileOps.cpp - the two access-tile constructors ---------------===//
//
// Custom syntax and verifiers of construct_access_tile (§5.4) and
// construct_indirect_access_tile (§5.5).
//
// construct_access_tile's subscripts use MLIR's "affine map of SSA ids"
// parser, which builds the hidden `base_map`. The indirect form is parsed
// one subscript at a time with the affine-expression-of-SSA-ids parser; each
// expression is then renumbered so that its dimensions are the intermediate
// variables and its symbols are the captured outer values (in order of first
// appearance), and stored as one affine map per subscript
// (`per_dim_subscript_maps`) next to its kind (`per_dim_subscript_kinds`).
// The intermediate variables become the block arguments of the hidden
// region, which holds only its implicit terminator.
//
//===----------------------------------------------------------------------===//
#include "VerifyUtils.h"
#include "ktflow/KTDP/IntegerSetUtils.h"
#include "ktflow/KTDP/KTDPOps.h"

using namespace mlir;
using namespace ktflow::ktdp;
using namespace ktflow::ktdp::detail;

//===----------------------------------------------------------------------===//
// Shared rules
//===----------------------------------------------------------------------===//

LogicalResult ktflow::ktdp::detail::verifyTileShape(
    Operation *op, StringRef setName, IntegerSet set, ArrayRef<unsigned> perm,
    AccessTileType resultType, StringRef ruleName) {
  if (set.getNumSymbols() != 0)
    return success(); // checked at run time, once the symbols are known
  TileShape tile = computeTileShape(set, perm);
  switch (tile.box.status) {
  case BoundingBox::Status::Unbounded:
    return op->emitOpError() << setName << " is unbounded in dimension "
                             << tile.box.unboundedDim << " (spec §4.2)";
  case BoundingBox::Status::Bounded:
  case BoundingBox::Status::Empty:
    break;
  default:
    return success();
  }
  ArrayRef<int64_t> declared = resultType.getShape();
  for (unsigned i = 0; i < declared.size(); ++i) {
    // A '?' dimension is accepted: the type is less precise, not wrong.
    if (ShapedType::isDynamic(declared[i]))
      continue;
    if (declared[i] != tile.shape[i])
      return op->emitOpError()
             << "result shape " << shapeString(declared)
             << " differs from the tile shape " << shapeString(tile.shape)
             << " (the extent of order(" << setName << ")) (" << ruleName
             << ")";
  }
  return success();
}

/// Rule 5.4.7 / 5.5.8: only permutation orders are supported.
static std::optional<SmallVector<unsigned>>
verifyPermutationOrder(Operation *op, StringRef orderName, AffineMap order,
                       StringRef ruleName) {
  std::optional<SmallVector<unsigned>> perm = getPermutation(order);
  if (!perm)
    op->emitOpError() << orderName << " " << AffineMapAttr::get(order)
                      << " is not a permutation of its dimensions; other "
                         "orders are not supported ("
                      << ruleName << ")";
  return perm;
}

//===----------------------------------------------------------------------===//
// construct_access_tile
//===----------------------------------------------------------------------===//

ParseResult ConstructAccessTileOp::parse(OpAsmParser &parser,
                                         OperationState &result) {
  Builder &builder = parser.getBuilder();
  Type indexType = builder.getIndexType();
  OpAsmParser::UnresolvedOperand base;
  SmallVector<OpAsmParser::UnresolvedOperand> indices, symbolOperands;
  Attribute baseMap;
  if (parser.parseOperand(base) ||
      parser.parseAffineMapOfSSAIds(indices, baseMap,
                                    getBaseMapAttrName(result.name),
                                    result.attributes))
    return failure();
  if (succeeded(parser.parseOptionalKeyword("symbols")) &&
      parser.parseOperandList(symbolOperands, OpAsmParser::Delimiter::Paren))
    return failure();
  Type baseType, resultType;
  if (parser.parseOptionalAttrDict(result.attributes) || parser.parseColon() ||
      parser.parseType(baseType) || parser.parseArrow() ||
      parser.parseType(resultType))
    return failure();
  if (parser.resolveOperand(base, baseType, result.operands) ||
      parser.resolveOperands(indices, indexType, result.operands) ||
      parser.resolveOperands(symbolOperands, indexType, result.operands))
    return failure();
  result.attributes.set(
      getOperandSegmentSizesAttrName(result.name),
      builder.getDenseI32ArrayAttr({1, int32_t(indices.size()),
                                    int32_t(symbolOperands.size())}));
  result.addTypes(resultType);
  return success();
}

void ConstructAccessTileOp::print(OpAsmPrinter &p) {
  p << ' ' << getBase() << '[';
  p.printAffineMapOfSSAIds(getBaseMapAttr(), getIndices());
  p << ']';
  if (!getSymbolOperands().empty())
    p << " symbols(" << getSymbolOperands() << ')';
  p.printOptionalAttrDict((*this)->getAttrs(),
                          {getBaseMapAttrName(), "operandSegmentSizes"});
  p << " : " << getBase().getType() << " -> " << getType();
}

std::optional<SmallVector<unsigned>>
ConstructAccessTileOp::getOrderPermutation() {
  return getPermutation(getAccessTileOrder());
}

LogicalResult ConstructAccessTileOp::verify() {
  IntegerSet set = getAccessTileSet();
  AffineMap order = getAccessTileOrder();
  AffineMap baseMap = getBaseMap();
  unsigned setDims = set.getNumDims();
  int64_t baseRank = getBaseType().getRank();
  // Rule 2.
  if (baseMap.getNumResults() != setDims || int64_t(setDims) != baseRank)
    return emitOpError() << "has " << baseMap.getNumResults()
                         << " subscripts, access_tile_set has " << setDims
                         << " dimensions and the base has rank " << baseRank
                         << "; all three must be equal (spec §5.4 rule 2)";
  // Rule 3.
  if (baseMap.getNumInputs() != getIndices().size())
    return emitOpError() << "base_map has " << baseMap.getNumInputs()
                         << " inputs but " << getIndices().size()
                         << " index operands were given (spec §5.4 rule 3)";
  // Rule 4.
  if (set.getNumSymbols() != getSymbolOperands().size())
    return emitOpError() << "access_tile_set has " << set.getNumSymbols()
                         << " symbols but symbols(...) lists "
                         << getSymbolOperands().size()
                         << " operands (spec §5.4 rule 4)";
  // Rule 5.
  if (order.getNumDims() != order.getNumResults() ||
      order.getNumDims() != setDims || order.getNumSymbols() != 0)
    return emitOpError() << "access_tile_order " << AffineMapAttr::get(order) << " must map "
                         << setDims << " dimensions to " << setDims
                         << " results, one per dimension of access_tile_set "
                            "(spec §5.4 rule 5)";
  // Rule 6.
  if (getType().getRank() != int64_t(setDims))
    return emitOpError() << "result rank " << getType().getRank()
                         << " differs from the " << setDims
                         << " dimensions of access_tile_set (spec §5.4 rule 6)";
  // Rule 7.
  std::optional<SmallVector<unsigned>> perm =
      verifyPermutationOrder(*this, "access_tile_order", order,
                             "spec §5.4 rule 7");
  if (!perm)
    return failure();
  // Rule 8.
  return verifyTileShape(*this, "access_tile_set", set, *perm, getType(),
                         "spec §5.4 rule 8");
}

//===----------------------------------------------------------------------===//
// construct_indirect_access_tile
//===----------------------------------------------------------------------===//

namespace {
std::string exprString(AffineExpr expr) {
  std::string text;
  llvm::raw_string_ostream os(text);
  expr.print(os);
  return text;
}

bool sameName(const OpAsmParser::UnresolvedOperand &a,
              const OpAsmParser::UnresolvedOperand &b) {
  return a.name == b.name && a.number == b.number;
}
} // namespace

ParseResult ConstructIndirectAccessTileOp::parse(OpAsmParser &parser,
                                                 OperationState &result) {
  Builder &builder = parser.getBuilder();
  MLIRContext *ctx = builder.getContext();
  Type indexType = builder.getIndexType();

  SmallVector<OpAsmParser::Argument> vars;
  if (parser.parseKeyword("intermediate_variables") ||
      parser.parseArgumentList(vars, OpAsmParser::Delimiter::Paren,
                               /*allowType=*/false))
    return failure();

  OpAsmParser::UnresolvedOperand base;
  if (parser.parseOperand(base) || parser.parseLSquare())
    return failure();

  SmallVector<OpAsmParser::UnresolvedOperand> indexViews, captured;
  SmallVector<int32_t> kinds;
  SmallVector<SmallVector<AffineExpr>> subscriptExprs;

  // Parses one affine expression and renumbers it: intermediate variables
  // become dimensions, other SSA names become captured symbols.
  auto parseExpr = [&](AffineExpr &out) -> ParseResult {
    SMLoc loc = parser.getCurrentLocation();
    SmallVector<OpAsmParser::UnresolvedOperand> dims, syms;
    AffineExpr expr;
    if (parser.parseAffineExprOfSSAIds(dims, syms, expr))
      return failure();
    if (!syms.empty())
      return parser.emitError(loc)
             << "symbol(...) is not allowed in the subscripts of "
                "construct_indirect_access_tile (spec §5.5 rule 3)";
    SmallVector<AffineExpr> replacements;
    for (const OpAsmParser::UnresolvedOperand &name : dims) {
      auto var = llvm::find_if(vars, [&](const OpAsmParser::Argument &arg) {
        return sameName(arg.ssaName, name);
      });
      if (var != vars.end()) {
        replacements.push_back(getAffineDimExpr(var - vars.begin(), ctx));
        continue;
      }
      auto cap = llvm::find_if(captured, [&](const auto &c) {
        return sameName(c, name);
      });
      unsigned pos = cap - captured.begin();
      if (cap == captured.end())
        captured.push_back(name);
      replacements.push_back(getAffineSymbolExpr(pos, ctx));
    }
    out = expr.replaceDimsAndSymbols(replacements, {});
    return success();
  };

  if (failed(parser.parseOptionalRSquare())) {
    do {
      SmallVector<AffineExpr> exprs;
      if (succeeded(parser.parseOptionalKeyword("ind"))) {
        OpAsmParser::UnresolvedOperand view;
        if (parser.parseLParen() || parser.parseOperand(view) ||
            parser.parseLSquare())
          return failure();
        do {
          AffineExpr expr;
          if (parseExpr(expr))
            return failure();
          exprs.push_back(expr);
        } while (succeeded(parser.parseOptionalComma()));
        if (parser.parseRSquare() || parser.parseRParen())
          return failure();
        indexViews.push_back(view);
        kinds.push_back(int32_t(SubscriptKind::Indirect));
      } else {
        AffineExpr expr;
        if (parser.parseLParen() || parseExpr(expr) || parser.parseRParen())
          return failure();
        exprs.push_back(expr);
        kinds.push_back(int32_t(SubscriptKind::Direct));
      }
      subscriptExprs.push_back(std::move(exprs));
    } while (succeeded(parser.parseOptionalComma()));
    if (parser.parseRSquare())
      return failure();
  }

  SmallVector<OpAsmParser::UnresolvedOperand> symbolOperands;
  if (succeeded(parser.parseOptionalKeyword("symbols")) &&
      parser.parseOperandList(symbolOperands, OpAsmParser::Delimiter::Paren))
    return failure();

  Type baseType, resultType;
  SmallVector<Type> viewTypes;
  if (parser.parseOptionalAttrDict(result.attributes) || parser.parseColon() ||
      parser.parseType(baseType))
    return failure();
  SMLoc viewTypesLoc = parser.getCurrentLocation();
  while (succeeded(parser.parseOptionalComma())) {
    Type viewType;
    if (parser.parseType(viewType))
      return failure();
    viewTypes.push_back(viewType);
  }
  if (viewTypes.size() != indexViews.size())
    return parser.emitError(viewTypesLoc)
           << "expected " << indexViews.size()
           << " index view type(s) after the base type, one per ind(...) "
              "subscript, got "
           << viewTypes.size() << " (spec §5.5)";
  if (parser.parseArrow() || parser.parseType(resultType))
    return failure();

  if (parser.resolveOperand(base, baseType, result.operands) ||
      parser.resolveOperands(indexViews, viewTypes, viewTypesLoc,
                             result.operands) ||
      parser.resolveOperands(captured, indexType, result.operands) ||
      parser.resolveOperands(symbolOperands, indexType, result.operands))
    return failure();

  SmallVector<Attribute> maps;
  for (ArrayRef<AffineExpr> exprs : subscriptExprs)
    maps.push_back(AffineMapAttr::get(
        AffineMap::get(vars.size(), captured.size(), exprs, ctx)));
  result.attributes.set(getPerDimSubscriptKindsAttrName(result.name),
                        builder.getDenseI32ArrayAttr(kinds));
  result.attributes.set(getPerDimSubscriptMapsAttrName(result.name),
                        builder.getArrayAttr(maps));
  result.attributes.set(
      getOperandSegmentSizesAttrName(result.name),
      builder.getDenseI32ArrayAttr(
          {1, int32_t(indexViews.size()), int32_t(captured.size()),
           int32_t(symbolOperands.size())}));
  result.addTypes(resultType);

  Region *region = result.addRegion();
  auto *block = new Block();
  region->push_back(block);
  for (OpAsmParser::Argument &var : vars)
    block->addArgument(indexType, var.ssaName.location.isValid()
                                      ? parser.getEncodedSourceLoc(
                                            var.ssaName.location)
                                      : result.location);
  ensureTerminator(*region, builder, result.location);
  return success();
}

void ConstructIndirectAccessTileOp::print(OpAsmPrinter &p) {
  Block::BlockArgListType vars = getIntermediateVariableArgs();
  p << " intermediate_variables(";
  llvm::interleaveComma(vars, p, [&](BlockArgument arg) { p << arg; });
  p << ") " << getBase() << '[';
  // printAffineMapOfSSAIds names dimensions only by operand, so the captured
  // symbols are printed as extra dimensions (they are plain SSA ids).
  SmallVector<Value> names(vars.begin(), vars.end());
  llvm::append_range(names, getCaptured());
  unsigned numVars = vars.size();
  SmallVector<AffineExpr> symbolsAsDims;
  for (unsigned i = 0, e = getCaptured().size(); i < e; ++i)
    symbolsAsDims.push_back(getAffineDimExpr(numVars + i, getContext()));
  SmallVector<AffineExpr> varDims;
  for (unsigned i = 0; i < numVars; ++i)
    varDims.push_back(getAffineDimExpr(i, getContext()));
  unsigned viewIndex = 0;
  for (unsigned d = 0, e = getNumSubscripts(); d < e; ++d) {
    if (d)
      p << ", ";
    AffineMap map = getSubscriptMap(d).replaceDimsAndSymbols(
        varDims, symbolsAsDims, names.size(), 0);
    if (getSubscriptKind(d) == SubscriptKind::Indirect) {
      p << "ind(" << getIndexViews()[viewIndex++] << '[';
      p.printAffineMapOfSSAIds(AffineMapAttr::get(map), names);
      p << "])";
    } else {
      p << '(';
      p.printAffineMapOfSSAIds(AffineMapAttr::get(map), names);
      p << ')';
    }
  }
  p << ']';
  if (!getSymbolOperands().empty())
    p << " symbols(" << getSymbolOperands() << ')';
  p.printOptionalAttrDict((*this)->getAttrs(),
                          {getPerDimSubscriptKindsAttrName(),
                           getPerDimSubscriptMapsAttrName(),
                           "operandSegmentSizes"});
  p << " : " << getBase().getType();
  for (Value view : getIndexViews())
    p << ", " << view.getType();
  p << " -> " << getType();
}

void ConstructIndirectAccessTileOp::getAsmBlockArgumentNames(
    Region &region, OpAsmSetValueNameFn setNameFn) {
  for (BlockArgument arg : region.getArguments())
    setNameFn(arg, "v");
}

Value ConstructIndirectAccessTileOp::getIndexViewForDim(unsigned dim) {
  unsigned viewIndex = 0;
  for (unsigned d = 0; d < dim; ++d)
    if (getSubscriptKind(d) == SubscriptKind::Indirect)
      ++viewIndex;
  if (getSubscriptKind(dim) != SubscriptKind::Indirect)
    return {};
  return getIndexViews()[viewIndex];
}

std::optional<SmallVector<unsigned>>
ConstructIndirectAccessTileOp::getOrderPermutation() {
  return getPermutation(getVariablesSpaceOrder());
}

LogicalResult ConstructIndirectAccessTileOp::verify() {
  ArrayRef<int32_t> kinds = getPerDimSubscriptKinds();
  ArrayAttr maps = getPerDimSubscriptMaps();
  IntegerSet set = getVariablesSpaceSet();
  AffineMap order = getVariablesSpaceOrder();
  unsigned numVars = set.getNumDims();

  // Hidden attributes: consistent with each other and the operands.
  if (kinds.size() != maps.size())
    return emitOpError() << "per_dim_subscript_kinds has " << kinds.size()
                         << " entries but per_dim_subscript_maps has "
                         << maps.size();
  unsigned numIndirect = 0;
  for (int32_t kind : kinds) {
    if (kind != int32_t(SubscriptKind::Direct) &&
        kind != int32_t(SubscriptKind::Indirect))
      return emitOpError() << "per_dim_subscript_kinds entry " << kind
                           << " is neither direct (0) nor indirect (1)";
    numIndirect += kind == int32_t(SubscriptKind::Indirect);
  }
  if (numIndirect != getIndexViews().size())
    return emitOpError() << "has " << numIndirect
                         << " ind(...) subscripts but "
                         << getIndexViews().size()
                         << " index view operands (spec §5.5)";

  // Rule 1.
  int64_t baseRank = getBaseType().getRank();
  if (int64_t(kinds.size()) != baseRank)
    return emitOpError() << "has " << kinds.size()
                         << " subscripts but the base has rank " << baseRank
                         << " (spec §5.5 rule 1)";
  // Rule 4 (the intermediate-variable count is the region's).
  unsigned numDeclared = getIntermediateVariables().front().getNumArguments();
  if (numDeclared != numVars)
    return emitOpError() << "declares " << numDeclared
                         << " intermediate variables but variables_space_set "
                            "has "
                         << numVars << " dimensions (spec §5.5 rule 4)";
  if (order.getNumDims() != numVars || order.getNumResults() != numVars ||
      order.getNumSymbols() != 0)
    return emitOpError() << "variables_space_order " << AffineMapAttr::get(order) << " must map "
                         << numVars << " dimensions to " << numVars
                         << " results (spec §5.5 rule 4)";
  // Rule 5.
  if (set.getNumSymbols() != getSymbolOperands().size())
    return emitOpError() << "variables_space_set has " << set.getNumSymbols()
                         << " symbols but symbols(...) lists "
                         << getSymbolOperands().size()
                         << " operands (spec §5.5 rule 5)";
  // Rules 2, 3 and 7, per subscript.
  unsigned viewIndex = 0;
  for (unsigned d = 0; d < kinds.size(); ++d) {
    auto mapAttr = dyn_cast<AffineMapAttr>(maps[d]);
    if (!mapAttr)
      return emitOpError() << "per_dim_subscript_maps entry " << d
                           << " is not an affine map";
    AffineMap map = mapAttr.getValue();
    if (map.getNumDims() != numVars ||
        map.getNumSymbols() != getCaptured().size())
      return emitOpError() << "subscript " << d << " map " << AffineMapAttr::get(map)
                           << " must have one dimension per intermediate "
                              "variable and one symbol per captured value";
    for (AffineExpr expr : map.getResults())
      if (!expr.isPureAffine())
        return emitOpError() << "subscript " << d << " expression '" << exprString(expr) << "'"
                             << " is not affine (spec §5.5 rule 3)";
    if (getSubscriptKind(d) == SubscriptKind::Direct) {
      if (map.getNumResults() != 1)
        return emitOpError() << "direct subscript " << d
                             << " must be exactly one expression, got "
                             << map.getNumResults() << " (spec §5.5 rule 2)";
      continue;
    }
    Value view = getIndexViews()[viewIndex++];
    auto viewType = cast<MemRefType>(view.getType());
    if (map.getNumResults() != viewType.getRank())
      return emitOpError() << "ind(...) subscript " << d << " has "
                           << map.getNumResults()
                           << " expressions but its index view has rank "
                           << viewType.getRank() << " (spec §5.5 rule 2)";
    Type element = viewType.getElementType();
    if (!element.isIndex() && !element.isSignlessInteger(8) &&
        !element.isSignlessInteger(16) && !element.isSignlessInteger(32) &&
        !element.isSignlessInteger(64))
      return emitOpError() << "index view of subscript " << d
                           << " has element type " << element
                           << "; it must be i8 to i64 or index (spec §5.5 "
                              "rule 7)";
  }
  // Rule 6.
  if (getType().getRank() != int64_t(numVars))
    return emitOpError() << "result rank " << getType().getRank()
                         << " differs from the " << numVars
                         << " dimensions of variables_space_set (spec §5.5 "
                            "rule 6)";
  // Rule 8.
  std::optional<SmallVector<unsigned>> perm = verifyPermutationOrder(
      *this, "variables_space_order", order, "spec §5.5 rule 8");
  if (!perm)
    return failure();
  // Rule 6, shape.
  return verifyTileShape(*this, "variables_space_set", set, *perm, getType(),
                         "spec §5.5 rule 6");
}

LogicalResult ConstructIndirectAccessTileOp::verifyRegions() {
  Block &block = getIntermediateVariables().front();
  for (BlockArgument arg : block.getArguments())
    if (!arg.getType().isIndex())
      return emitOpError() << "intermediate variable #" << arg.getArgNumber()
                           << " must be index, got " << arg.getType();
  if (!llvm::hasSingleElement(block.getOperations()))
    return emitOpError() << "the intermediate_variables region must hold "
                            "only its terminator";
  return success();
}
