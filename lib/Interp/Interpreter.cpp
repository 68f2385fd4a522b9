//===- Interpreter.cpp - launching a kernel over its grid -----------------===//
//
// Launch in four steps:
//   1. pick the kernel and its grid (ktir.md §1.2, §1.3);
//   2. classify arguments: an index argument that is the base of a global
//      memory view is a buffer, a !ktdp.runtime_arg is checked against its
//      guarantees, everything else is a scalar (default 0);
//   3. size and place buffers: extent and element type from the views built
//      on them (sizes evaluated from constants and launch values), contents
//      from the bound .npy file or seeded random values; views at constant
//      addresses get a buffer of their own at exactly that address;
//   4. run the body once per tile in linear-id order, sharing global memory.
// Every failure is a diagnostic at a source location.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Interp/Interpreter.h"

#include "Executor.h"
#include "KernelAnalysis.h"
#include "ktflow/Interp/Npy.h"
#include "ktflow/Interp/RandomContents.h"
#include "ktflow/KTDP/LaunchArgs.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"

#include <cmath>
#include <map>

using namespace mlir;
using namespace ktflow;
using namespace ktflow::interp;

Interpreter::Interpreter(ModuleOp module, InterpOptions options, SourceNames names)
    : module(module), options(std::move(options)), names(std::move(names)) {}
Interpreter::~Interpreter() = default;

GlobalMemory &Interpreter::memory() { return state->global; }

//===----------------------------------------------------------------------===//
// Kernel and grid
//===----------------------------------------------------------------------===//

static LogicalResult readGrid(func::FuncOp kernel,
                              const std::optional<std::vector<int64_t>> &fallback,
                              std::array<int64_t, 3> &grid) {
  SmallVector<int64_t, 3> dims;
  Attribute attr = kernel->getAttr("grid");
  if (!attr) {
    if (fallback)
      dims.assign(fallback->begin(), fallback->end());
    else
      dims.push_back(1);
  } else if (auto arr = dyn_cast<ArrayAttr>(attr)) {
    for (Attribute a : arr) {
      auto i = dyn_cast<IntegerAttr>(a);
      if (!i)
        return kernel.emitError("'grid' entries must be integers");
      dims.push_back(i.getInt());
    }
  } else if (auto dense = dyn_cast<DenseI64ArrayAttr>(attr)) {
    dims.assign(dense.asArrayRef().begin(), dense.asArrayRef().end());
  } else {
    return kernel.emitError("'grid' must be an array of 1 to 3 positive integers");
  }
  if (dims.empty() || dims.size() > 3)
    return kernel.emitError("'grid' must have 1 to 3 entries, got ") << dims.size();
  for (int64_t d : dims)
    if (d <= 0)
      return kernel.emitError("'grid' entries must be positive, got ") << d;
  grid = {1, 1, 1};
  for (unsigned i = 0; i < dims.size(); ++i)
    grid[i] = dims[i];
  return success();
}

//===----------------------------------------------------------------------===//
// Launch-time evaluation of index expressions
//===----------------------------------------------------------------------===//

namespace {
/// Evaluates index values that depend only on constants and launch values.
class StaticEvaluator {
public:
  llvm::DenseMap<Value, int64_t> known;

  std::optional<int64_t> eval(Value v, unsigned depth = 0) {
    if (auto it = known.find(v); it != known.end())
      return it->second;
    if (depth > 64)
      return std::nullopt;
    Operation *def = v.getDefiningOp();
    if (!def)
      return std::nullopt;
    if (auto c = dyn_cast<arith::ConstantOp>(def)) {
      if (auto i = dyn_cast<IntegerAttr>(c.getValue()))
        return i.getValue().getSExtValue();
      return std::nullopt;
    }
    auto sub = [&](Value x) { return eval(x, depth + 1); };
    if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp>(def))
      return sub(def->getOperand(0));
    if (def->getNumOperands() == 2 && isa<arith::AddIOp, arith::SubIOp, arith::MulIOp,
                                         arith::DivUIOp, arith::DivSIOp, arith::RemUIOp,
                                         arith::RemSIOp, arith::FloorDivSIOp,
                                         arith::CeilDivSIOp, arith::MinSIOp, arith::MaxSIOp,
                                         arith::MinUIOp, arith::MaxUIOp>(def)) {
      auto a = sub(def->getOperand(0)), b = sub(def->getOperand(1));
      if (!a || !b)
        return std::nullopt;
      if (isa<arith::AddIOp>(def))
        return *a + *b;
      if (isa<arith::SubIOp>(def))
        return *a - *b;
      if (isa<arith::MulIOp>(def))
        return *a * *b;
      // Sizes and extents are non-negative, where signed and unsigned agree.
      if (isa<arith::MinSIOp, arith::MinUIOp>(def))
        return std::min(*a, *b);
      if (isa<arith::MaxSIOp, arith::MaxUIOp>(def))
        return std::max(*a, *b);
      if (*b == 0 || *b == -1)
        return std::nullopt;
      if (isa<arith::RemUIOp, arith::RemSIOp>(def))
        return *a % *b;
      if (isa<arith::FloorDivSIOp>(def))
        return (*a / *b) - ((*a % *b != 0) && ((*a < 0) != (*b < 0)));
      if (isa<arith::CeilDivSIOp>(def))
        return (*a / *b) + ((*a % *b != 0) && ((*a < 0) == (*b < 0)));
      return *a / *b;
    }
    return evaluateLaunchTimeKTDP(def, [&](Value x) { return sub(x); });
  }
};

/// Where a view's offset comes from: argument + element offset.
struct BaseOf {
  BlockArgument arg;
  std::optional<int64_t> relative;
};
} // namespace

/// Follows `offset` through additions to a kernel argument.
static std::optional<BaseOf> findBaseArgument(Value offset, Block &entry,
                                              StaticEvaluator &eval) {
  if (auto arg = dyn_cast<BlockArgument>(offset))
    if (arg.getOwner() == &entry && arg.getType().isIndex())
      return BaseOf{arg, 0};
  Operation *def = offset.getDefiningOp();
  if (!def || !isa<arith::AddIOp, arith::SubIOp>(def))
    return std::nullopt;
  for (unsigned i = 0; i < 2; ++i) {
    if (isa<arith::SubIOp>(def) && i == 1)
      break;
    auto inner = findBaseArgument(def->getOperand(i), entry, eval);
    if (!inner)
      continue;
    auto other = eval.eval(def->getOperand(1 - i));
    if (inner->relative && other)
      inner->relative = *inner->relative + (isa<arith::SubIOp>(def) ? -*other : *other);
    else
      inner->relative = std::nullopt;
    return inner;
  }
  return std::nullopt;
}

/// Unbound buffers draw from one stream in binding order (RandomContents.h).
static void fillRandom(Buffer &buffer, RandomContents &rng) {
  rng.fill(buffer.kind, buffer.numElements(), buffer.bytes.data());
}

//===----------------------------------------------------------------------===//
// Argument binding
//===----------------------------------------------------------------------===//

static std::vector<int64_t> squeeze(llvm::ArrayRef<int64_t> shape) {
  std::vector<int64_t> out;
  for (int64_t d : shape)
    if (d != 1)
      out.push_back(d);
  return out;
}

namespace {
/// What the views built on one buffer say about it.
struct BufferPlan {
  std::string name;
  std::optional<ElemKind> kind;
  Operation *firstView = nullptr;
  /// Extent in elements from the views with fully known geometry.
  int64_t extent = 0;
  bool anyKnown = false, anyUnknown = false;
  /// The common dense row-major shape of the views at relative offset 0.
  std::optional<std::vector<int64_t>> shape;
  bool shapeConflict = false;
};
} // namespace

/// Extent (in elements, from the view's first element) and dense shape of a
/// view whose sizes and strides are known.
static bool viewGeometry(const GlobalViewSite &site, StaticEvaluator &eval,
                         int64_t &span, std::vector<int64_t> &shape, bool &dense) {
  std::vector<int64_t> sizes, strides;
  for (const IndexEntry &e : site.sizes) {
    std::optional<int64_t> v = std::holds_alternative<int64_t>(e)
                                   ? std::optional<int64_t>(std::get<int64_t>(e))
                                   : eval.eval(std::get<Value>(e));
    if (!v)
      return false;
    sizes.push_back(*v);
  }
  for (const IndexEntry &e : site.strides) {
    std::optional<int64_t> v = std::holds_alternative<int64_t>(e)
                                   ? std::optional<int64_t>(std::get<int64_t>(e))
                                   : eval.eval(std::get<Value>(e));
    if (!v)
      return false;
    strides.push_back(*v);
  }
  span = 1;
  for (size_t k = 0; k < sizes.size(); ++k) {
    if (sizes[k] <= 0) {
      span = 0;
      break;
    }
    span += (sizes[k] - 1) * std::max<int64_t>(strides[k], 0);
  }
  dense = true;
  int64_t expect = 1;
  for (int k = int(sizes.size()) - 1; k >= 0; --k) {
    if (sizes[k] != 1 && strides[k] != expect)
      dense = false;
    expect *= sizes[k];
  }
  shape = sizes;
  return true;
}

LogicalResult Interpreter::bindArguments(func::FuncOp kernel) {
  Block &entry = kernel.getBody().front();
  unsigned numArgs = entry.getNumArguments();
  std::vector<std::string> argNames(numArgs);
  for (unsigned i = 0; i < numArgs; ++i) {
    auto it = names.find(entry.getArgument(i));
    argNames[i] = it != names.end() ? it->second : "arg" + std::to_string(i);
  }
  auto argIndex = [&](llvm::StringRef name) {
    return ktdp::resolveArgumentName(argNames, name);
  };

  // Parse the command-line bindings.
  std::map<unsigned, std::string> boundText;
  std::map<std::string, std::string> fixedBufferFiles;
  for (const std::string &binding : options.args) {
    std::optional<ktdp::ArgBinding> split = ktdp::splitArgBinding(binding);
    if (!split)
      return kernel.emitError("argument binding '") << binding
             << "' must have the form NAME=FILE.npy or NAME=VALUE";
    llvm::StringRef name = split->name, value = split->value;
    auto index = argIndex(name);
    if (!index) {
      if (name.starts_with("addr")) { // a buffer at a constant address
        fixedBufferFiles[name.str()] = value.str();
        continue;
      }
      std::string known;
      for (auto &n : argNames)
        known += (known.empty() ? "" : ", ") + n;
      return kernel.emitError("unknown argument name '")
             << name << "' in --arg " << binding << " (kernel @"
             << kernel.getName() << " has: " << known << ")";
    }
    if (boundText.count(*index))
      return kernel.emitError("argument '") << name << "' is bound twice";
    boundText[*index] = value.str();
  }

  // Which index arguments are buffers, and what their views say.
  StaticEvaluator eval;
  std::vector<GlobalViewSite> views = findGlobalViews(kernel);
  argBindings.assign(numArgs, {});
  std::vector<std::optional<BufferPlan>> plans(numArgs);
  for (const GlobalViewSite &site : views)
    if (auto base = findBaseArgument(site.offset, entry, eval))
      if (!plans[base->arg.getArgNumber()])
        plans[base->arg.getArgNumber()] = BufferPlan{};

  // Scalars and runtime arguments first: buffer sizes may depend on them.
  std::vector<Scalar> values(numArgs);
  for (unsigned i = 0; i < numArgs; ++i) {
    BlockArgument arg = entry.getArgument(i);
    ArgumentBinding &b = argBindings[i];
    b.name = argNames[i];
    if (plans[i]) {
      b.kind = ArgumentBinding::Kind::Buffer;
      continue;
    }
    std::string text = boundText.count(i) ? boundText[i] : "0";
    if (llvm::StringRef(text).ends_with(".npy"))
      return kernel.emitError("argument '")
             << b.name << "' is not a buffer (no global memory view is based "
             << "on it); bind it to a value, not to " << text;
    Type type = arg.getType();
    std::optional<RuntimeArgInfo> rt = runtimeArgInfo(type);
    if (rt) {
      b.kind = ArgumentBinding::Kind::RuntimeArg;
      type = rt->underlying;
    }
    std::optional<ElemKind> kind = kindOf(type);
    if (!kind)
      return kernel.emitError("argument '") << b.name << "' has type " << type
             << ", which the interpreter cannot bind (memref and tensor "
                "arguments do not occur in KTIR kernels)";
    std::string error;
    FailureOr<TypedAttr> launch = ktdp::parseLaunchValue(arg.getType(), text, b.name, error);
    if (failed(launch))
      return kernel.emitError(error);
    Scalar value;
    if (auto f = dyn_cast<FloatAttr>(*launch)) {
      value = Scalar::ofFloat(*kind, f.getValueAsDouble());
    } else {
      value = Scalar::ofInt(*kind, cast<IntegerAttr>(*launch).getValue().getSExtValue());
      eval.known[arg] = value.i;
    }
    b.value = text;
    values[i] = value;
  }

  // Size every buffer from its views.
  std::map<int64_t, std::pair<ElemKind, int64_t>> fixedRegions; // byte -> kind, bytes
  for (const GlobalViewSite &site : views) {
    int64_t span;
    std::vector<int64_t> shape;
    bool dense;
    bool known = viewGeometry(site, eval, span, shape, dense);
    auto base = findBaseArgument(site.offset, entry, eval);
    if (!base) {
      // A view at a constant address: reserve exactly that memory.
      auto start = eval.eval(site.offset);
      if (start && known) {
        int64_t esize = elementSize(site.kind).bytes.count();
        auto &region = fixedRegions[*start * esize];
        region.first = site.kind;
        region.second = std::max(region.second, span * esize);
      }
      continue;
    }
    BufferPlan &plan = *plans[base->arg.getArgNumber()];
    if (!plan.kind) {
      plan.kind = site.kind;
      plan.firstView = site.op;
    }
    if (!known || !base->relative) {
      plan.anyUnknown = true;
      continue;
    }
    plan.anyKnown = true;
    plan.extent = std::max(plan.extent, *base->relative + span);
    if (*base->relative == 0 && dense) {
      if (!plan.shape)
        plan.shape = shape;
      else if (squeeze(*plan.shape) != squeeze(shape) &&
               !(shape.size() > plan.shape->size()))
        plan.shapeConflict = true;
    } else {
      plan.shapeConflict = true;
    }
  }

  // Place views at constant addresses first, at exactly their address.
  RandomContents rng(options.seed);
  std::vector<std::pair<int64_t, std::pair<ElemKind, int64_t>>> regions(
      fixedRegions.begin(), fixedRegions.end());
  for (size_t r = 0; r < regions.size(); ++r) {
    int64_t start = regions[r].first;
    int64_t end = start + regions[r].second.second;
    ElemKind kind = regions[r].second.first;
    while (r + 1 < regions.size() && regions[r + 1].first < end) { // merge overlaps
      end = std::max(end, regions[r + 1].first + regions[r + 1].second.second);
      ++r;
    }
    int64_t esize = elementSize(kind).bytes.count();
    int64_t elements = (end - start + esize - 1) / esize;
    if (start < 0 || elements > (int64_t(1) << 34) / esize)
      return kernel.emitError("a view at constant element address ")
             << start / esize << " needs " << elements
             << " elements; the interpreter allocates at most 16 GiB per buffer";
    std::string name = "addr" + std::to_string(start / esize);
    Buffer &buffer = state->global.allocateAt(name, kind, {elements}, Bytes(start),
                                              Bytes(elements * esize));
    ArgumentBinding b;
    b.name = name;
    b.kind = ArgumentBinding::Kind::Buffer;
    b.buffer = &buffer;
    auto file = fixedBufferFiles.find(name);
    if (file != fixedBufferFiles.end()) {
      auto array = readNpy(file->second);
      if (!array)
        return kernel.emitError(llvm::toString(array.takeError()));
      if (array->dtype != npyDtypeOf(kind) || int64_t(array->data.size()) != elements * esize)
        return kernel.emitError("'") << file->second << "' (dtype " << array->dtype
               << ") does not match the " << elements << "-element " << kindName(kind)
               << " region at constant address " << start / esize;
      buffer.bytes = array->data;
      b.source = file->second;
      fixedBufferFiles.erase(file);
    } else {
      fillRandom(buffer, rng);
      b.source = "random";
    }
    fixedBindings.push_back(b);
  }
  if (!fixedBufferFiles.empty())
    return kernel.emitError("unknown argument name '")
           << fixedBufferFiles.begin()->first << "'";

  // Then the argument buffers.
  for (unsigned i = 0; i < numArgs; ++i) {
    if (!plans[i])
      continue;
    BufferPlan &plan = *plans[i];
    ArgumentBinding &b = argBindings[i];
    ElemKind kind = *plan.kind;
    int64_t esize = elementSize(kind).bytes.count();
    std::vector<int64_t> shape;
    std::optional<NpyArray> array;
    auto text = boundText.find(i);
    if (text != boundText.end()) {
      if (!llvm::StringRef(text->second).ends_with(".npy"))
        return kernel.emitError("argument '")
               << b.name << "' is a buffer (the base of a global memory view); "
               << "bind it to a .npy file, not to '" << text->second << "'";
      auto read = readNpy(text->second);
      if (!read)
        return kernel.emitError(llvm::toString(read.takeError()));
      array = std::move(*read);
      if (array->dtype != npyDtypeOf(kind))
        return emitError(plan.firstView->getLoc())
               << "buffer '" << b.name << "': '" << text->second << "' has dtype '"
               << array->dtype << "' but the views on it have element type "
               << kindName(kind) << " (expects dtype '" << npyDtypeOf(kind) << "')";
      int64_t count = 1;
      for (int64_t d : array->shape)
        count *= d;
      if (plan.anyKnown && !plan.anyUnknown) {
        bool shapeOk = plan.shape && !plan.shapeConflict
                           ? squeeze(array->shape) == squeeze(*plan.shape)
                           : count == plan.extent;
        if (!shapeOk || count != plan.extent)
          return emitError(plan.firstView->getLoc())
                 << "buffer '" << b.name << "': '" << text->second << "' has shape "
                 << formatShape(array->shape) << " but the views on it need "
                 << (plan.shape && !plan.shapeConflict ? formatShape(*plan.shape)
                                                       : std::to_string(plan.extent) +
                                                             " elements");
      } else if (plan.anyKnown && count < plan.extent) {
        return emitError(plan.firstView->getLoc())
               << "buffer '" << b.name << "': '" << text->second << "' holds " << count
               << " elements but the views on it reach " << plan.extent;
      }
      shape = array->shape;
    } else {
      if (plan.anyUnknown || !plan.anyKnown)
        return emitError(plan.firstView->getLoc())
               << "cannot infer the size of buffer '" << b.name
               << "' (a view on it has sizes or an offset known only while "
                  "running); bind it with --arg "
               << b.name << "=FILE.npy";
      if (plan.shape && !plan.shapeConflict) {
        shape = *plan.shape;
        int64_t count = 1;
        for (int64_t d : shape)
          count *= d;
        if (count != plan.extent)
          shape = {plan.extent};
      } else {
        shape = {plan.extent};
      }
    }
    int64_t count = 1;
    for (int64_t d : shape)
      count *= d;
    if (count < 0 || count > (int64_t(1) << 34) / esize)
      return emitError(plan.firstView->getLoc())
             << "buffer '" << b.name << "' would need " << count << " elements of "
             << kindName(kind) << "; the interpreter allocates at most 16 GiB per buffer";
    Buffer &buffer = state->global.allocate(b.name, kind, shape, Bytes(count * esize));
    if (array) {
      buffer.bytes = std::move(array->data);
      b.source = text->second;
    } else {
      fillRandom(buffer, rng);
      b.source = "random";
    }
    b.buffer = &buffer;
    values[i] = Scalar::ofInt(ElemKind::Index, buffer.base.count() / esize);
  }
  argValues = std::move(values);
  return success();
}

//===----------------------------------------------------------------------===//
// Running
//===----------------------------------------------------------------------===//

LogicalResult Interpreter::run() {
  // 1. The kernel.
  func::FuncOp kernel;
  SmallVector<func::FuncOp> funcs(module.getOps<func::FuncOp>());
  if (!options.funcName.empty()) {
    kernel = module.lookupSymbol<func::FuncOp>(options.funcName);
    if (!kernel)
      return module.emitError("no function named '") << options.funcName << "'";
  } else if (funcs.size() == 1) {
    kernel = funcs.front();
  } else {
    InFlightDiagnostic diag = module.emitError(
        funcs.empty() ? "the module has no function to launch"
                      : "the module has several functions; choose one with --func:");
    for (func::FuncOp f : funcs)
      diag << " " << f.getName();
    return diag;
  }
  kernelName = kernel.getName().str();
  if (kernel.isExternal())
    return kernel.emitError("kernel @") << kernelName << " has no body";
  if (kernel.getFunctionType().getNumResults() != 0)
    return kernel.emitError("a kernel must not return values; @")
           << kernelName << " returns " << kernel.getFunctionType().getNumResults();

  // 2. Grid and memories.
  if (failed(readGrid(kernel, options.grid, grid)))
    return failure();
  int64_t numTiles = grid[0] * grid[1] * grid[2];
  state = std::make_unique<LaunchState>(numTiles, options.scratchpadCapacity,
                                        options.scratchpadSource);
  state->grid = grid;

  // 3. Arguments.
  if (failed(bindArguments(kernel)))
    return failure();
  if (options.checkRaces)
    state->global.enableRaceChecks();
  if (options.bindOnly)
    return success();

  // 4. Tiles, one after another by linear id (x fastest); cooperatively when
  // inter-tile ops make tiles wait for each other.
  Block &entry = kernel.getBody().front();
  SmallVector<RtValue, 8> args(argValues.begin(), argValues.end());
  auto coordsOf = [&](int64_t linear) -> std::array<int64_t, 3> {
    return {linear % grid[0], (linear / grid[0]) % grid[1], linear / (grid[0] * grid[1])};
  };
  auto runTile = [&](int64_t linear) -> std::optional<TileFailure> {
    TileExecutor tile(*state, linear, coordsOf(linear));
    try {
      tile.run(entry, args);
    } catch (const InterpError &error) {
      return TileFailure{linear, tile.currentOp(), error.message};
    } catch (const std::bad_alloc &) {
      return TileFailure{linear, tile.currentOp(),
                         "out of host memory while interpreting this op"};
    } catch (const std::exception &error) {
      return TileFailure{linear, tile.currentOp(),
                         std::string("internal interpreter error: ") + error.what()};
    }
    return std::nullopt;
  };
  bool interTile = false;
  kernel.walk([&](Operation *op) {
    StringRef name = op->getName().getStringRef();
    if (name.starts_with("ktdp.inter_tile_"))
      interTile = true;
  });
  std::optional<TileFailure> tileFailure;
  if (interTile) {
    TileScheduler scheduler(numTiles);
    state->scheduler = &scheduler;
    tileFailure = scheduler.run(runTile);
    state->scheduler = nullptr;
  } else {
    for (int64_t linear = 0; linear < numTiles && !tileFailure; ++linear)
      tileFailure = runTile(linear);
  }
  if (tileFailure) {
    Operation *op = tileFailure->op ? tileFailure->op : kernel.getOperation();
    InFlightDiagnostic diag = op->emitError() << tileFailure->message;
    if (tileFailure->tile >= 0) {
      auto c = coordsOf(tileFailure->tile);
      diag << " [tile " << tileFailure->tile << ", grid point (" << c[0] << ", " << c[1]
           << ", " << c[2] << ")]";
    }
    return mlir::failure();
  }
  return success();
}

LogicalResult Interpreter::writeBuffers(llvm::StringRef dir) {
  if (std::error_code ec = llvm::sys::fs::create_directories(dir)) {
    emitError(UnknownLoc::get(module.getContext()))
        << "cannot create output directory '" << dir << "': " << ec.message();
    return failure();
  }
  for (auto &buffer : state->global.buffers()) {
    NpyArray array;
    array.dtype = npyDtypeOf(buffer->kind);
    array.shape = buffer->shape;
    array.data = buffer->bytes;
    llvm::SmallString<256> path(dir);
    llvm::sys::path::append(path, buffer->name + ".npy");
    if (llvm::Error err = writeNpy(path, array)) {
      emitError(UnknownLoc::get(module.getContext())) << llvm::toString(std::move(err));
      return failure();
    }
  }
  return success();
}

void Interpreter::printSummary(llvm::raw_ostream &os) const {
  int64_t tiles = grid[0] * grid[1] * grid[2];
  os << "kernel @" << kernelName << ": grid [" << grid[0] << ", " << grid[1] << ", "
     << grid[2] << "], " << tiles << (tiles == 1 ? " tile" : " tiles") << "\n";
  auto printBuffer = [&](const ArgumentBinding &b) {
    const Buffer &buf = *b.buffer;
    os << "  buffer " << b.name << ": " << kindName(buf.kind) << formatShape(buf.shape)
       << " at byte " << llvm::format_hex(buf.base.count(), 1) << " from " << b.source
       << (buf.written ? ", written" : ", not written") << "\n";
  };
  for (const ArgumentBinding &b : fixedBindings)
    printBuffer(b);
  for (const ArgumentBinding &b : argBindings) {
    if (b.kind == ArgumentBinding::Kind::Buffer && b.buffer)
      printBuffer(b);
    else if (b.kind != ArgumentBinding::Kind::Buffer)
      os << "  " << (b.kind == ArgumentBinding::Kind::RuntimeArg ? "runtime arg " : "scalar ")
         << b.name << " = " << b.value << "\n";
  }
}

LogicalResult Interpreter::printBuffer(llvm::StringRef name, llvm::raw_ostream &os) const {
  for (const auto &buffer : state->global.buffers()) {
    if (buffer->name != name)
      continue;
    int64_t n = buffer->numElements();
    int64_t esize = elementSize(buffer->kind).bytes.count();
    int64_t row = buffer->shape.empty() ? 1 : std::max<int64_t>(buffer->shape.back(), 1);
    os << name << " " << kindName(buffer->kind) << formatShape(buffer->shape) << ":\n";
    for (int64_t i = 0; i < n; ++i) {
      const uint8_t *p = buffer->bytes.data() + i * esize;
      os << (i % row == 0 ? "  " : " ");
      switch (buffer->kind) {
      case ElemKind::F16: {
        uint16_t h;
        std::memcpy(&h, p, 2);
        os << llvm::format("%g", halfBitsToFloat(h));
        break;
      }
      case ElemKind::BF16: {
        uint16_t h;
        std::memcpy(&h, p, 2);
        os << llvm::format("%g", bf16BitsToFloat(h));
        break;
      }
      case ElemKind::F32: {
        float f;
        std::memcpy(&f, p, 4);
        os << llvm::format("%g", f);
        break;
      }
      case ElemKind::F64: {
        double d;
        std::memcpy(&d, p, 8);
        os << llvm::format("%g", d);
        break;
      }
      default: {
        int64_t v = 0;
        std::memcpy(&v, p, esize);
        os << (buffer->kind == ElemKind::I1 ? (v & 1) : wrapInt(buffer->kind, v));
      }
      }
      if (i % row == row - 1)
        os << "\n";
    }
    return success();
  }
  emitError(UnknownLoc::get(const_cast<ModuleOp &>(module).getContext())) << "no buffer named '" << name << "'";
  return failure();
}
