//===- InterTileOps.cpp - experimental inter-tile communication -----------===//
//
// Syntax and verifiers of inter_tile_produce / reduce / consume and their
// terminators (spec §5.9). Rules that depend on set contents (disjoint
// producer sets, one sender per consumer) are checked by enumeration when
// every set involved is bounded; tile ids are limited to 0..T-1 when the
// enclosing kernel has a grid. Enumeration is capped so that the verifier
// stays fast on large sets; beyond the cap those rules are left to run time.
//
//===----------------------------------------------------------------------===//
#include "VerifyUtils.h"
#include "ktflow/KTDP/IntegerSetUtils.h"
#include "ktflow/KTDP/KTDPOps.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseMap.h"

using namespace mlir;
using namespace ktflow::ktdp;
using namespace ktflow::ktdp::detail;

/// Enumeration budget (points) for the set-content rules.
static constexpr int64_t kEnumerationLimit = 1 << 16;

/// Checks that `set` has one dimension and a number of symbols in
/// [minSymbols, maxSymbols].
static LogicalResult verifyTileSetShape(Operation *op, StringRef name,
                                        IntegerSet set, unsigned minSymbols,
                                        unsigned maxSymbols,
                                        StringRef expected) {
  if (set.getNumDims() != 1 || set.getNumSymbols() < minSymbols ||
      set.getNumSymbols() > maxSymbols)
    return op->emitOpError()
           << name << " must be a set " << expected << ", got "
           << set.getNumDims() << " dimension(s) and " << set.getNumSymbols()
           << " symbol(s) (spec §5.9)";
  return success();
}

/// Collects the points of a 1-D set (symbols bound), restricted to tile ids
/// [0, tiles) when the tile count is known. std::nullopt when the set is
/// unbounded or too large to enumerate.
static std::optional<SmallVector<int64_t>>
collectTiles(IntegerSet set, ArrayRef<int64_t> symbols,
             std::optional<int64_t> tiles) {
  BoundingBox box = computeBoundingBox(set, symbols);
  if (box.status == BoundingBox::Status::Empty)
    return SmallVector<int64_t>();
  if (!box.isBounded())
    return std::nullopt;
  int64_t lo = box.lower[0], hi = box.upper[0];
  if (tiles) {
    lo = std::max<int64_t>(lo, 0);
    hi = std::min<int64_t>(hi, *tiles - 1);
  }
  if (hi - lo + 1 > kEnumerationLimit)
    return std::nullopt;
  SmallVector<int64_t> points;
  for (int64_t t = lo; t <= hi; ++t)
    if (containsPoint(set, {t}, symbols).value_or(false))
      points.push_back(t);
  return points;
}

/// The producer tiles P(g) of every group, when everything is bounded.
static std::optional<SmallVector<std::pair<int64_t, SmallVector<int64_t>>>>
collectProducers(IntegerSet groups, IntegerSet producers,
                 std::optional<int64_t> tiles) {
  std::optional<SmallVector<int64_t>> groupIds =
      collectTiles(groups, {}, /*tiles=*/std::nullopt);
  if (!groupIds)
    return std::nullopt;
  SmallVector<std::pair<int64_t, SmallVector<int64_t>>> result;
  for (int64_t g : *groupIds) {
    std::optional<SmallVector<int64_t>> members =
        collectTiles(producers, {g}, tiles);
    if (!members)
      return std::nullopt;
    result.emplace_back(g, std::move(*members));
  }
  return result;
}

//===----------------------------------------------------------------------===//
// The future type in op syntax
//===----------------------------------------------------------------------===//

// MLIR's lexer requires the body of a type written `!dialect.name<...>` to
// have balanced brackets and takes the `>` of `>=` as a closing bracket, so
// `!ktdp.tile_future<(...), groups = affine_set<(g) : (g >= 0)>>` fails in
// the generic type parser before the dialect sees it. The stripped form
// `<...>` is parsed by TileFutureType::parse directly and has no such limit.
// In the op positions of spec §3.4 the full form is accepted too: the generic
// parser is tried with its diagnostics held back; when it fails on the body,
// it has consumed only the `!ktdp.tile_future` token, and the body is then
// parsed as the stripped form.
ParseResult ktflow::ktdp::detail::parseFutureType(OpAsmParser &parser,
                                                  Type &type) {
  static constexpr StringLiteral kFullName = "!ktdp.tile_future";
  SMLoc loc = parser.getCurrentLocation();
  const char *text = loc.getPointer();
  // parseOptionalType does not start at the `<` of the stripped form. The
  // text is not read before the parser has consumed it: a buffer parsed from
  // a string need not be NUL-terminated (found by fuzz/ktir-fuzzer).
  SmallVector<std::pair<Location, std::string>> heldBack;
  Type generic;
  OptionalParseResult parsed;
  {
    ScopedDiagnosticHandler holdBack(parser.getContext(), [&](Diagnostic &diag) {
      heldBack.emplace_back(diag.getLocation(), diag.str());
      return success();
    });
    parsed = parser.parseOptionalType(generic);
  }
  if (parsed.has_value()) {
    if (succeeded(*parsed)) {
      if (!isa<TileFutureType>(generic))
        return parser.emitError(loc) << "expected a tile_future type, got "
                                     << generic;
      type = generic;
      return success();
    }
    bool atBody =
        parser.getCurrentLocation().getPointer() == text + kFullName.size() &&
        StringRef(text, kFullName.size()) == kFullName;
    if (!atBody) {
      for (auto &[diagLoc, message] : heldBack)
        mlir::emitError(diagLoc) << message;
      return failure();
    }
  }
  TileFutureType future;
  if (parser.parseCustomTypeWithFallback(future))
    return failure();
  type = future;
  return success();
}

void ktflow::ktdp::detail::printFutureType(OpAsmPrinter &printer,
                                           Operation *, Type type) {
  printer.printStrippedAttrOrType(cast<TileFutureType>(type));
}

//===----------------------------------------------------------------------===//
// inter_tile_produce
//===----------------------------------------------------------------------===//

ParseResult InterTileProduceOp::parse(OpAsmParser &parser,
                                      OperationState &result) {
  IntegerSetAttr producers;
  if (parser.parseKeyword("producer_tiles_per_group") || parser.parseEqual() ||
      parser.parseAttribute(producers,
                            getProducerTilesPerGroupAttrName(result.name),
                            result.attributes) ||
      parser.parseOptionalAttrDict(result.attributes))
    return failure();
  // Older form: `: tensor-type` before the arrow, naming the one partial.
  Type legacyPartial;
  SMLoc legacyLoc = parser.getCurrentLocation();
  if (succeeded(parser.parseOptionalColon())) {
    legacyLoc = parser.getCurrentLocation();
    if (parser.parseType(legacyPartial))
      return failure();
  }
  Type futureType;
  if (parser.parseArrow() || parseFutureType(parser, futureType))
    return failure();
  auto future = cast<TileFutureType>(futureType);
  if (legacyPartial && (future.getPartialTypes().size() != 1 ||
                        future.getPartialTypes()[0] != legacyPartial))
    return parser.emitError(legacyLoc)
           << "partial type " << legacyPartial
           << " does not match the tile_future's partial types (spec §5.9)";
  result.addTypes(future);
  Region *body = result.addRegion();
  return parser.parseRegion(*body, /*arguments=*/{});
}

void InterTileProduceOp::print(OpAsmPrinter &p) {
  p << " producer_tiles_per_group = ";
  p.printAttribute(getProducerTilesPerGroupAttr());
  p.printOptionalAttrDict((*this)->getAttrs(),
                          {getProducerTilesPerGroupAttrName()});
  // Stripped form: see the note on TileFutureType about `>=` in full form.
  p << " -> ";
  p.printStrippedAttrOrType(getType());
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/true,
                /*printBlockTerminators=*/true);
}

void InterTileProduceOp::getAsmBlockArgumentNames(
    Region &region, OpAsmSetValueNameFn setNameFn) {
  if (!region.empty() && region.getNumArguments() == 1)
    setNameFn(region.getArgument(0), "gid");
}

LogicalResult InterTileProduceOp::verify() {
  IntegerSet producers = getProducerTilesPerGroup();
  if (failed(verifyTileSetShape(*this, "producer_tiles_per_group", producers,
                                1, 1, "(i)[g]")))
    return failure();
  if (!getResult().hasOneUse())
    return emitOpError() << "result must have exactly one use (its delivery "
                            "op), has "
                         << std::distance(getResult().use_begin(),
                                          getResult().use_end())
                         << " (spec §5.9)";
  BoundingBox groupsBox = computeBoundingBox(getType().getGroups());
  if (groupsBox.status == BoundingBox::Status::Unbounded)
    return emitOpError() << "the tile_future's groups set is unbounded "
                            "(spec §4.2)";
  // P(g) of distinct groups must be disjoint.
  auto perGroup =
      collectProducers(getType().getGroups(), producers, getTileCount(*this));
  if (!perGroup)
    return success();
  llvm::DenseMap<int64_t, int64_t> groupOfTile;
  for (auto &[g, members] : *perGroup)
    for (int64_t t : members) {
      auto [it, inserted] = groupOfTile.try_emplace(t, g);
      if (!inserted)
        return emitOpError() << "tile " << t << " is a producer of both group "
                             << it->second << " and group " << g
                             << "; producer sets must be disjoint (spec §5.9)";
    }
  return success();
}

LogicalResult InterTileProduceOp::verifyRegions() {
  Block &block = getBody().front();
  if (block.getNumArguments() != 1 || !block.getArgument(0).getType().isIndex())
    return emitOpError() << "region must have exactly one index argument "
                            "(the group index) (spec §5.9)";
  auto yield = dyn_cast<YieldPartialOp>(block.getTerminator());
  if (!yield)
    return emitOpError() << "region must end with ktdp.yield_partial "
                            "(spec §5.9)";
  ArrayRef<Type> partials = getType().getPartialTypes();
  if (TypeRange(yield.getValues()) != TypeRange(partials))
    return yield.emitOpError()
           << "yields " << yield.getValues().size()
           << " value(s) that must match the future's partial types "
           << TypeRange(partials) << " exactly (spec §5.9)";
  return success();
}

//===----------------------------------------------------------------------===//
// inter_tile_reduce / inter_tile_consume
//===----------------------------------------------------------------------===//

/// Checks the consumer and dependency sets shared by reduce and consume.
static LogicalResult
verifyConsumerSets(Operation *op, IntegerSet consumers,
                   std::optional<IntegerSet> dependency) {
  if (failed(verifyTileSetShape(op, "consumer_tiles_per_group", consumers, 1,
                                1, "(i)[g]")))
    return failure();
  if (dependency &&
      failed(verifyTileSetShape(op, "producer_dependency_per_consumer",
                                *dependency, 1, 2, "(p)[c] or (p)[c, g]")))
    return failure();
  return success();
}

LogicalResult InterTileReduceOp::verify() {
  auto future = cast<TileFutureType>(getFuture().getType());
  TypeRange partials(future.getPartialTypes());
  if (TypeRange(getResultTypes()) != partials)
    return emitOpError() << "result types " << getResultTypes()
                         << " must equal the future's partial types "
                         << partials << " (spec §5.9)";
  if (TypeRange(getIdentity()) != partials)
    return emitOpError() << "identity types " << TypeRange(getIdentity())
                         << " must equal the result types " << partials
                         << " (spec §5.9)";
  return verifyConsumerSets(*this, getConsumerTilesPerGroup(),
                            getProducerDependencyPerConsumer());
}

LogicalResult InterTileReduceOp::verifyRegions() {
  auto future = cast<TileFutureType>(getFuture().getType());
  ArrayRef<Type> partials = future.getPartialTypes();
  Block &block = getCombiner().front();
  SmallVector<Type> expected(partials.begin(), partials.end());
  expected.append(partials.begin(), partials.end());
  if (TypeRange(block.getArgumentTypes()) != TypeRange(expected))
    return emitOpError() << "combiner must take " << expected.size()
                         << " arguments (the left then the right partials) "
                            "of types "
                         << TypeRange(expected) << " (spec §5.9)";
  auto yield = dyn_cast<YieldReducedOp>(block.getTerminator());
  if (!yield)
    return emitOpError() << "combiner must end with ktdp.yield_reduced "
                            "(spec §5.9)";
  if (TypeRange(yield.getValues()) != TypeRange(partials))
    return yield.emitOpError() << "must yield values of the partial types "
                               << TypeRange(partials) << " (spec §5.9)";
  for (Operation &op : block.without_terminator())
    if (!isMemoryEffectFree(&op))
      return op.emitOpError() << "has side effects, but the combiner of "
                                 "ktdp.inter_tile_reduce must be side-effect "
                                 "free (spec §5.9)";
  return success();
}

LogicalResult InterTileConsumeOp::verify() {
  auto future = cast<TileFutureType>(getFuture().getType());
  TypeRange partials(future.getPartialTypes());
  if (TypeRange(getResultTypes()) != partials)
    return emitOpError() << "result types " << getResultTypes()
                         << " must equal the future's partial types "
                         << partials << " (spec §5.9)";
  std::optional<IntegerSet> dependency = getProducerDependencyPerConsumer();
  if (failed(verifyConsumerSets(*this, getConsumerTilesPerGroup(),
                                dependency)))
    return failure();

  // Sender rules need the producer's sets.
  auto produce = getFuture().getDefiningOp<InterTileProduceOp>();
  if (!produce)
    return success();
  std::optional<int64_t> tiles = getTileCount(*this);
  auto perGroup = collectProducers(future.getGroups(),
                                   produce.getProducerTilesPerGroup(), tiles);
  if (!perGroup)
    return success();
  for (auto &[g, producers] : *perGroup) {
    if (producers.size() <= 1 && !dependency)
      continue;
    if (!dependency)
      return emitOpError() << "group " << g << " has " << producers.size()
                           << " producers, so producer_dependency_per_consumer "
                              "is required (spec §5.9)";
    std::optional<SmallVector<int64_t>> consumers =
        collectTiles(getConsumerTilesPerGroup(), {g}, tiles);
    if (!consumers)
      continue;
    for (int64_t c : *consumers) {
      SmallVector<int64_t> symbols = {c};
      if (dependency->getNumSymbols() == 2)
        symbols.push_back(g);
      unsigned senders = 0;
      for (int64_t p : producers)
        senders += containsPoint(*dependency, {p}, symbols).value_or(false);
      if (senders != 1)
        return emitOpError() << "consumer tile " << c << " of group " << g
                             << " receives from " << senders
                             << " producers; it must receive from exactly "
                                "one (spec §5.9)";
    }
  }
  return success();
}
