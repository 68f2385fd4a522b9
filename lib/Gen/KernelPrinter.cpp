//===- KernelPrinter.cpp - KernelSpec to KTIR text ------------------------===//
//
// Strategy: print text directly, in the idiom of the shipped examples, so a
// generated kernel reads like a hand-written one and exercises the parser
// the way user input does. Sets and orders become `#aliases` collected while
// the body is printed and emitted first. Offsets are computed once from
// get_compute_tile_id (or the loop variable) and every access tile is
// anchored at them; ragged tiles are left to the views' coordinate sets,
// which mask points past the end. Splat constants are printed once and
// reused, which is legal because the loop body is the only nested scope and
// nothing after the loop reads a constant printed inside it.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Gen/KernelPrinter.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Format.h"

#include <cassert>
#include <cmath>

using namespace ktflow;
using namespace ktflow::gen;

namespace {

std::string formatValue(double v) {
  std::string s;
  llvm::raw_string_ostream(s) << llvm::format("%.2f", v);
  return s;
}

/// The hexadecimal spelling of +inf / -inf in `type` (reduction inits).
llvm::StringRef infinityHex(ElemType type, bool negative) {
  if (type == ElemType::F16)
    return negative ? "0xFC00" : "0x7C00";
  return negative ? "0xFF800000" : "0x7F800000";
}

class Printer {
public:
  explicit Printer(const KernelSpec &spec) : spec(spec), body(bodyText) {}

  void print(llvm::raw_ostream &os);

private:
  // Text helpers.
  std::string fresh(llvm::StringRef prefix) {
    return "%" + prefix.str() + std::to_string(nextId++);
  }
  std::string alias(llvm::StringRef name, const std::string &text);
  std::string boxSet(llvm::ArrayRef<int64_t> extents);
  std::string identityOrder(unsigned rank);
  std::string indexConstant(int64_t value);
  std::string shapeText(llvm::ArrayRef<int64_t> shape) const;
  std::string tensorType(llvm::ArrayRef<int64_t> shape, ElemType type) const;
  std::string tileType() const;
  llvm::SmallVector<int64_t, 2> tileShape() const;

  // Kernel pieces.
  llvm::SmallVector<int64_t, 2> bufferShape(const Buffer &b) const;
  void printHeader(llvm::raw_ostream &os);
  void printAnchors();
  void printViews();
  std::string accessTile(unsigned buffer, llvm::ArrayRef<std::string> anchor,
                         llvm::ArrayRef<int64_t> extents);
  std::string splat(double value);
  std::string cast(const std::string &value, ElemType from, ElemType to,
                   llvm::ArrayRef<int64_t> shape);
  /// `math.OP a` on the tile type; returns the result's name.
  std::string mathUnary(llvm::StringRef mathOp, const std::string &a);
  std::string elementwise(llvm::StringRef arithOp, llvm::StringRef linalgOp,
                          const std::string &a, const std::string &b, bool named);
  void printNode(unsigned index);
  void printOutput(const Output &output);
  /// A reduction's pieces: its identity init, the reduce of its node's
  /// value from `init`, the store of a reduced value.
  std::string reductionInit(const Output &output);
  /// A scalar accumulator's init: the combiner's identity as a scalar constant.
  std::string scalarIdentity(const Output &output);
  std::string reduction(const Output &output, const std::string &init);
  void storeReduction(const Output &output, const std::string &reduced);
  static llvm::StringRef combinerOf(const Output &output);
  /// The body inside the loops: the nodes not printed yet and the outputs,
  /// inside the inner loop when there is one.
  void printLoopBody(std::vector<bool> &printed);

  const KernelSpec &spec;
  std::string bodyText;
  llvm::raw_string_ostream body;
  std::string aliasText;
  llvm::StringMap<std::string> aliasByText;
  llvm::StringMap<std::string> constants;
  unsigned nextId = 0;
  std::string indent = "    ";
  std::string rowAnchor, colAnchor, linearId, gridX, gridY;
  std::vector<std::string> views;
  std::vector<std::string> nodeValues;
};

std::string Printer::alias(llvm::StringRef name, const std::string &text) {
  auto it = aliasByText.find(text);
  if (it != aliasByText.end())
    return it->second;
  std::string full = "#" + name.str();
  aliasText += full + " = " + text + "\n";
  aliasByText[text] = full;
  return full;
}

std::string Printer::boxSet(llvm::ArrayRef<int64_t> extents) {
  std::string dims, constraints, name = "box";
  for (size_t d = 0; d < extents.size(); ++d) {
    std::string dim = "d" + std::to_string(d);
    dims += (d ? ", " : "") + dim;
    constraints += (d ? ", " : "") + dim + " >= 0, -" + dim + " + " +
                   std::to_string(extents[d] - 1) + " >= 0";
    name += (d ? "x" : "_") + std::to_string(extents[d]);
  }
  return alias(name, "affine_set<(" + dims + ") : (" + constraints + ")>");
}

std::string Printer::identityOrder(unsigned rank) {
  std::string dims;
  for (unsigned d = 0; d < rank; ++d)
    dims += (d ? ", d" : "d") + std::to_string(d);
  return alias("id" + std::to_string(rank), "affine_map<(" + dims + ") -> (" + dims + ")>");
}

std::string Printer::indexConstant(int64_t value) {
  std::string key = "index:" + std::to_string(value);
  auto it = constants.find(key);
  if (it != constants.end())
    return it->second;
  std::string name = "%c" + std::to_string(value);
  body << indent << name << " = arith.constant " << value << " : index\n";
  constants[key] = name;
  return name;
}

std::string Printer::shapeText(llvm::ArrayRef<int64_t> shape) const {
  std::string s;
  for (int64_t d : shape)
    s += std::to_string(d) + "x";
  return s;
}

std::string Printer::tensorType(llvm::ArrayRef<int64_t> shape, ElemType type) const {
  return "tensor<" + shapeText(shape) + elemTypeName(type).str() + ">";
}

llvm::SmallVector<int64_t, 2> Printer::tileShape() const {
  if (spec.rank == 1)
    return {spec.tileCols()};
  llvm::SmallVector<int64_t, 2> tile = {spec.tileRows(), spec.tileCols()};
  // An inner loop moves one block of the walked dimension per iteration.
  if (spec.innerBlock > 0)
    tile[spec.walkedDim()] = spec.innerBlock;
  return tile;
}

std::string Printer::tileType() const { return tensorType(tileShape(), spec.computeType); }

llvm::SmallVector<int64_t, 2> Printer::bufferShape(const Buffer &b) const {
  switch (b.shape) {
  case BufferShape::Full:
    if (spec.rank == 1)
      return {spec.cols};
    return {spec.rows, spec.cols};
  case BufferShape::Row:
    return {spec.cols};
  case BufferShape::Column:
    return {spec.rows};
  case BufferShape::Scalar:
    return {1};
  case BufferShape::Halves:
    return {spec.rows, 2 * spec.cols};
  }
  return {1};
}

void Printer::printHeader(llvm::raw_ostream &os) {
  os << "// Generated by `ktflow gen`";
  if (!spec.origin.empty())
    os << " (" << spec.origin << ")";
  os << ". Do not edit: regenerate.\n//\n";
  os << "// Shape ";
  if (spec.rank == 2)
    os << spec.rows << "x";
  os << spec.cols << ", grid [";
  for (size_t i = 0; i < spec.grid.size(); ++i)
    os << (i ? ", " : "") << spec.grid[i];
  std::string tile = shapeText(tileShape());
  tile.pop_back(); // the trailing 'x'
  os << "], " << distributionName(spec.distribution) << ", tile " << tile << ", computed in "
     << elemTypeName(spec.computeType) << ".\n";
  os << "// Arguments (base addresses in elements of the buffer's type, global memory):\n";
  for (const Buffer &b : spec.buffers) {
    llvm::SmallVector<int64_t, 2> shape = bufferShape(b);
    os << "//   %" << b.name << "  " << elemTypeName(b.type) << "[";
    for (size_t i = 0; i < shape.size(); ++i)
      os << (i ? ", " : "") << shape[i];
    os << "]" << (b.isOutput ? "  output" : "  input") << "\n";
  }
  std::vector<std::string> launch = spec.launchArgs();
  if (!launch.empty()) {
    os << "// Launch values (index, they bound the loops):";
    for (const std::string &arg : launch)
      os << " --arg " << arg;
    os << "\n";
  }
  if (spec.innerBlock > 0)
    os << "// An inner loop walks d" << spec.walkedDim() << " in blocks of " << spec.innerBlock
       << (spec.walkedDim() == spec.reduceDim &&
                   llvm::any_of(spec.outputs,
                                [](const Output &o) { return o.kind != OutputKind::Store; })
               ? (spec.scalarAccumulator ? ", carrying the reductions as scalar iter_args"
                                         : ", carrying the reductions as iter_args")
               : "")
       << ".\n";
  os << "// Expected result (each op rounded to " << elemTypeName(spec.computeType) << "):\n";
  for (unsigned i = 0; i < spec.outputs.size(); ++i)
    os << "//   " << describeOutput(spec, i) << "\n";
  os << "\n";
}

void Printer::printAnchors() {
  if (spec.grid.size() == 1) {
    gridX = "%t";
    body << indent << gridX << " = ktdp.get_compute_tile_id : index\n";
    linearId = gridX;
  } else {
    gridX = "%gx";
    gridY = "%gy";
    body << indent << "%gx, %gy = ktdp.get_compute_tile_id : index, index\n";
    if (spec.distribution != Distribution::Blocks2D) {
      std::string width = indexConstant(spec.grid[0]);
      body << indent << "%gy_scaled = arith.muli %gy, " << width << " : index\n";
      body << indent << "%lin = arith.addi %gx, %gy_scaled : index\n";
      linearId = "%lin";
    }
  }
  std::string zero = indexConstant(0);
  rowAnchor = colAnchor = zero;
  auto scaled = [&](const std::string &name, const std::string &id, int64_t step) {
    std::string c = indexConstant(step);
    body << indent << name << " = arith.muli " << id << ", " << c << " : index\n";
    return name;
  };
  switch (spec.distribution) {
  case Distribution::RowBlocks:
    if (spec.rank == 1)
      colAnchor = scaled("%col_first", linearId, spec.tileCols());
    else
      rowAnchor = scaled("%row_first", linearId, spec.tileRows());
    break;
  case Distribution::ColBlocks:
    colAnchor = scaled("%col_first", linearId, spec.tileCols());
    break;
  case Distribution::Blocks2D:
    rowAnchor = scaled("%row_first", gridX, spec.tileRows());
    colAnchor = scaled("%col_first", gridY, spec.tileCols());
    break;
  case Distribution::RowLoop:
    rowAnchor = "%r"; // the loop variable, printed with the loop
    break;
  case Distribution::ClampedRowLoop:
    scaled("%row_first", linearId, spec.chunkRows());
    rowAnchor = "%r";
    break;
  }
  if (spec.innerBlock > 0)
    (spec.walkedDim() == 0 ? rowAnchor : colAnchor) = "%blk";
}

void Printer::printViews() {
  for (const Buffer &b : spec.buffers) {
    llvm::SmallVector<int64_t, 2> shape = bufferShape(b);
    std::string sizes, strides;
    int64_t stride = 1;
    llvm::SmallVector<int64_t, 2> strideList(shape.size());
    for (int d = int(shape.size()) - 1; d >= 0; --d) {
      strideList[d] = stride;
      stride *= shape[d];
    }
    for (size_t d = 0; d < shape.size(); ++d) {
      sizes += (d ? ", " : "") + std::to_string(shape[d]);
      strides += (d ? ", " : "") + std::to_string(strideList[d]);
    }
    std::string set = b.shape == BufferShape::Scalar
                          ? alias("single", "affine_set<(d0) : (d0 == 0)>")
                          : boxSet(shape);
    std::string view = "%" + b.name + "_view";
    body << indent << view << " = ktdp.construct_memory_view %" << b.name << ", sizes: ["
         << sizes << "], strides: [" << strides << "] {\n"
         << indent << "    coordinate_set = " << set
         << ", memory_space = #ktdp.memory_space<global>\n"
         << indent << "} : memref<" << shapeText(shape) << elemTypeName(b.type) << ">\n";
    views.push_back(view);
  }
}

std::string Printer::accessTile(unsigned buffer, llvm::ArrayRef<std::string> anchor,
                                llvm::ArrayRef<int64_t> extents) {
  const Buffer &b = spec.buffers[buffer];
  llvm::SmallVector<int64_t, 2> shape = bufferShape(b);
  std::string memref = "memref<" + shapeText(shape) + elemTypeName(b.type).str() + ">";
  std::string set = b.shape == BufferShape::Scalar
                        ? alias("single", "affine_set<(d0) : (d0 == 0)>")
                        : boxSet(extents);
  std::string name = fresh(b.name + "_tile");
  std::string subscripts;
  for (size_t i = 0; i < anchor.size(); ++i)
    subscripts += (i ? ", " : "") + anchor[i];
  body << indent << name << " = ktdp.construct_access_tile " << views[buffer] << "["
       << subscripts << "] {\n"
       << indent << "    access_tile_set = " << set
       << ", access_tile_order = " << identityOrder(extents.size()) << "\n"
       << indent << "} : " << memref << " -> !ktdp.access_tile<" << shapeText(extents)
       << "index>\n";
  return name;
}

std::string Printer::splat(double value) {
  std::string text = spec.computeType == ElemType::I32 ? std::to_string(int64_t(value))
                                                       : formatValue(value);
  std::string key = "splat:" + text;
  auto it = constants.find(key);
  if (it != constants.end())
    return it->second;
  std::string name = fresh("k");
  body << indent << name << " = arith.constant dense<" << text << "> : " << tileType() << "\n";
  constants[key] = name;
  return name;
}

std::string Printer::cast(const std::string &value, ElemType from, ElemType to,
                          llvm::ArrayRef<int64_t> shape) {
  if (from == to)
    return value;
  std::string name = fresh("cast");
  body << indent << name << " = arith." << (from == ElemType::F16 ? "extf " : "truncf ")
       << value << " : " << tensorType(shape, from) << " to " << tensorType(shape, to) << "\n";
  return name;
}

std::string Printer::mathUnary(llvm::StringRef mathOp, const std::string &a) {
  std::string name = fresh("v");
  body << indent << name << " = math." << mathOp << " " << a << " : " << tileType() << "\n";
  return name;
}

std::string Printer::elementwise(llvm::StringRef arithOp, llvm::StringRef linalgOp,
                                 const std::string &a, const std::string &b, bool named) {
  // Integer data: the float op's integer twin (signed, wrapping).
  if (spec.computeType == ElemType::I32)
    arithOp = llvm::StringSwitch<llvm::StringRef>(arithOp)
                  .Case("addf", "addi")
                  .Case("subf", "subi")
                  .Case("mulf", "muli")
                  .Case("maximumf", "maxsi")
                  .Case("minimumf", "minsi")
                  .Default(arithOp);
  std::string name = fresh("v");
  std::string type = tileType();
  if (named && !linalgOp.empty()) {
    std::string init = fresh("init");
    body << indent << init << " = tensor.empty() : " << type << "\n";
    body << indent << name << " = linalg." << linalgOp << " ins(" << a << ", " << b << " : "
         << type << ", " << type << ") outs(" << init << " : " << type << ") -> " << type
         << "\n";
  } else {
    body << indent << name << " = arith." << arithOp << " " << a << ", " << b << " : " << type
         << "\n";
  }
  return name;
}

void Printer::printNode(unsigned index) {
  const Node &n = spec.nodes[index];
  std::string type = tileType();
  llvm::SmallVector<int64_t, 2> tile = tileShape();
  auto operand = [&](unsigned i) { return nodeValues[n.operands[i]]; };
  std::string result;
  switch (n.kind) {
  case NodeKind::Load: {
    const Buffer &b = spec.buffers[n.buffer];
    llvm::SmallVector<std::string, 2> anchor;
    if (spec.rank == 2)
      anchor.push_back(rowAnchor);
    anchor.push_back(n.half ? indexConstant(spec.cols) : colAnchor);
    std::string at = accessTile(n.buffer, anchor, tile);
    std::string loaded = fresh(b.name + "_");
    body << indent << loaded << " = ktdp.load " << at << " : !ktdp.access_tile<"
         << shapeText(tile) << "index> -> " << tensorType(tile, b.type) << "\n";
    result = cast(loaded, b.type, spec.computeType, tile);
    break;
  }
  case NodeKind::Broadcast: {
    const Buffer &b = spec.buffers[n.buffer];
    llvm::SmallVector<int64_t, 2> part;
    std::string anchor, dims;
    switch (b.shape) {
    case BufferShape::Row:
      part = {tile.back()};
      anchor = colAnchor;
      dims = "0";
      break;
    case BufferShape::Column:
      part = {tile.front()};
      anchor = rowAnchor;
      dims = "1";
      break;
    default:
      part = {1};
      anchor = indexConstant(0);
      dims = spec.rank == 1 ? "0" : "0, 1";
      break;
    }
    std::string at = accessTile(n.buffer, {anchor}, part);
    std::string loaded = fresh(b.name + "_");
    body << indent << loaded << " = ktdp.load " << at << " : !ktdp.access_tile<"
         << shapeText(part) << "index> -> " << tensorType(part, b.type) << "\n";
    std::string narrow = loaded;
    std::string narrowType = tensorType(part, b.type);
    if (b.shape == BufferShape::Scalar) {
      narrow = fresh(b.name + "_scalar");
      narrowType = tensorType({}, b.type);
      body << indent << narrow << " = tensor.collapse_shape " << loaded << " [] : "
           << tensorType(part, b.type) << " into " << narrowType << "\n";
    }
    std::string init = fresh("init");
    std::string wideType = tensorType(tile, b.type);
    std::string wide = fresh(b.name + "_wide");
    body << indent << init << " = tensor.empty() : " << wideType << "\n";
    body << indent << wide << " = linalg.broadcast ins(" << narrow << " : " << narrowType
         << ") outs(" << init << " : " << wideType << ") dimensions = [" << dims << "]\n";
    result = cast(wide, b.type, spec.computeType, tile);
    break;
  }
  case NodeKind::Constant:
    result = splat(n.value);
    break;
  case NodeKind::Unary: {
    std::string a = operand(0);
    switch (n.unary) {
    case UnaryOp::Neg:
      if (spec.computeType == ElemType::I32) { // no arith.negi: 0 - a
        result = elementwise("subf", "", splat(0), a, false);
        break;
      }
      result = fresh("v");
      body << indent << result << " = arith.negf " << a << " : " << type << "\n";
      break;
    case UnaryOp::Abs:
      result = fresh("v");
      body << indent << result << " = math.absf " << a << " : " << type << "\n";
      break;
    case UnaryOp::Relu:
      result = elementwise("maximumf", "", a, splat(0), false);
      break;
    case UnaryOp::SafeExp: {
      std::string capped = elementwise("minimumf", "", a, splat(2), false);
      result = fresh("v");
      body << indent << result << " = math.exp " << capped << " : " << type << "\n";
      break;
    }
    case UnaryOp::Clamp: {
      std::string low = elementwise("maximumf", "", a, splat(-n.value), false);
      result = elementwise("minimumf", "", low, splat(n.value), false);
      break;
    }
    case UnaryOp::SafeSqrt:
      result = mathUnary("sqrt", mathUnary("absf", a));
      break;
    case UnaryOp::SafeRsqrt:
      result = mathUnary("rsqrt", elementwise("addf", "", mathUnary("absf", a), splat(1), false));
      break;
    case UnaryOp::SafeLog:
      result = mathUnary("log", elementwise("addf", "", mathUnary("absf", a), splat(1), false));
      break;
    case UnaryOp::Tanh:
      result = mathUnary("tanh", a);
      break;
    case UnaryOp::Erf:
      result = mathUnary("erf", a);
      break;
    case UnaryOp::Exp:
      result = mathUnary("exp", a);
      break;
    case UnaryOp::Rsqrt:
      result = mathUnary("rsqrt", a);
      break;
    }
    break;
  }
  case NodeKind::RowReduce: {
    Output fold{n.binary == BinaryOp::Max   ? OutputKind::ReduceMax
                : n.binary == BinaryOp::Min ? OutputKind::ReduceMin
                                            : OutputKind::ReduceSum,
                n.operands[0], 0};
    std::string reduced = reduction(fold, reductionInit(fold));
    std::string init = fresh("init");
    result = fresh("row");
    body << indent << init << " = tensor.empty() : " << type << "\n";
    body << indent << result << " = linalg.broadcast ins(" << reduced << " : "
         << tensorType({tile.front()}, spec.computeType) << ") outs(" << init << " : " << type
         << ") dimensions = [1]\n";
    break;
  }
  case NodeKind::Fma: {
    result = fresh("v");
    body << indent << result << " = math.fma " << operand(0) << ", " << operand(1) << ", "
         << operand(2) << " : " << type << "\n";
    break;
  }
  case NodeKind::Binary: {
    std::string a = operand(0), b = operand(1);
    switch (n.binary) {
    case BinaryOp::Add:
      result = elementwise("addf", "add", a, b, n.namedOp);
      break;
    case BinaryOp::Sub:
      result = elementwise("subf", "sub", a, b, n.namedOp);
      break;
    case BinaryOp::Mul:
      result = elementwise("mulf", "mul", a, b, n.namedOp);
      break;
    case BinaryOp::Max:
      result = elementwise("maximumf", "max", a, b, n.namedOp);
      break;
    case BinaryOp::Min:
      result = elementwise("minimumf", "min", a, b, n.namedOp);
      break;
    case BinaryOp::Div:
      result = elementwise("divf", "div", a, b, n.namedOp);
      break;
    case BinaryOp::SafeDiv: {
      std::string magnitude = fresh("v");
      body << indent << magnitude << " = math.absf " << b << " : " << type << "\n";
      std::string divisor = elementwise("addf", "", magnitude, splat(1), false);
      result = elementwise("divf", "div", a, divisor, n.namedOp);
      break;
    }
    case BinaryOp::SafePow: {
      std::string base = elementwise("addf", "", mathUnary("absf", a), splat(1), false);
      std::string low = elementwise("maximumf", "", b, splat(-2), false);
      std::string exponent = elementwise("minimumf", "", low, splat(2), false);
      result = fresh("v");
      body << indent << result << " = math.powf " << base << ", " << exponent << " : " << type
           << "\n";
      break;
    }
    case BinaryOp::Select: {
      std::string mask = fresh("m");
      body << indent << mask << " = arith."
           << (spec.computeType == ElemType::I32 ? "cmpi " : "cmpf ") << n.predicate << ", "
           << a << ", " << b << " : " << type << "\n";
      result = fresh("v");
      body << indent << result << " = arith.select " << mask << ", " << a << ", " << b
           << " : tensor<" << shapeText(tile) << "i1>, " << type << "\n";
      break;
    }
    }
    break;
  }
  }
  nodeValues[index] = result;
}

void Printer::printOutput(const Output &output) {
  const Buffer &b = spec.buffers[output.buffer];
  llvm::SmallVector<int64_t, 2> tile = tileShape();
  std::string value = nodeValues[output.node];
  if (output.kind == OutputKind::Store) {
    llvm::SmallVector<std::string, 2> anchor;
    if (spec.rank == 2)
      anchor.push_back(rowAnchor);
    anchor.push_back(output.half ? indexConstant(spec.cols) : colAnchor);
    std::string stored = cast(value, spec.computeType, b.type, tile);
    std::string at = accessTile(output.buffer, anchor, tile);
    body << indent << "ktdp.store " << stored << ", " << at << " : " << tensorType(tile, b.type)
         << ", !ktdp.access_tile<" << shapeText(tile) << "index>\n";
    return;
  }
  storeReduction(output, reduction(output, reductionInit(output)));
}

std::string Printer::reductionInit(const Output &output) {
  llvm::SmallVector<int64_t, 2> tile = tileShape();
  unsigned dim = spec.reduceDim;
  int64_t length = dim == 1 ? tile[0] : tile[1];
  llvm::StringRef elem = elemTypeName(spec.computeType);
  std::string accType = tensorType({length}, spec.computeType);
  std::string init = fresh("acc");
  if (output.kind == OutputKind::ReduceSum) {
    body << indent << init << " = arith.constant dense<0.0> : " << accType << "\n";
  } else {
    bool isMax = output.kind == OutputKind::ReduceMax;
    std::string inf = fresh("inf"), empty = fresh("init");
    body << indent << inf << " = arith.constant " << infinityHex(spec.computeType, isMax)
         << " : " << elem << "\n";
    body << indent << empty << " = tensor.empty() : " << accType << "\n";
    body << indent << init << " = linalg.fill ins(" << inf << " : " << elem << ") outs("
         << empty << " : " << accType << ") -> " << accType << "\n";
  }
  return init;
}

llvm::StringRef Printer::combinerOf(const Output &output) {
  if (output.kind == OutputKind::ReduceSum)
    return "addf";
  return output.kind == OutputKind::ReduceMax ? "maximumf" : "minimumf";
}

void Printer::storeReduction(const Output &output, const std::string &reduced) {
  llvm::SmallVector<int64_t, 2> tile = tileShape();
  unsigned dim = spec.reduceDim;
  int64_t length = dim == 1 ? tile[0] : tile[1];
  std::string anchor = dim == 1 ? rowAnchor : colAnchor;
  std::string accType = tensorType({length}, spec.computeType);
  std::string at = accessTile(output.buffer, {anchor}, {length});
  body << indent << "ktdp.store " << reduced << ", " << at << " : " << accType
       << ", !ktdp.access_tile<" << length << "xindex>\n";
}

std::string Printer::reduction(const Output &output, const std::string &init) {
  llvm::SmallVector<int64_t, 2> tile = tileShape();
  std::string value = nodeValues[output.node];
  unsigned dim = spec.reduceDim;
  int64_t length = dim == 1 ? tile[0] : tile[1];
  llvm::StringRef elem = elemTypeName(spec.computeType);
  std::string accType = tensorType({length}, spec.computeType);
  llvm::StringRef combiner = combinerOf(output);
  std::string reduced = fresh("red");
  if (output.explicitCombiner) {
    std::string in = fresh("elem").substr(1), acc = fresh("partial").substr(1), r = fresh("comb");
    body << indent << reduced << " = linalg.reduce ins(" << value << " : " << tileType()
         << ") outs(" << init << " : " << accType << ") dimensions = [" << dim << "]\n"
         << indent << "  (%" << in << ": " << elem << ", %" << acc << ": " << elem << ") {\n"
         << indent << "    " << r << " = arith." << combiner << " %" << in << ", %" << acc
         << " : " << elem << "\n"
         << indent << "    linalg.yield " << r << " : " << elem << "\n"
         << indent << "  }\n";
  } else {
    body << indent << reduced << " = linalg.reduce { arith." << combiner << " } ins(" << value
         << " : " << tileType() << ") outs(" << init << " : " << accType
         << ") dimensions = [" << dim << "]\n";
  }
  return reduced;
}

void Printer::print(llvm::raw_ostream &os) {
  nodeValues.assign(spec.nodes.size(), "");
  printAnchors();
  printViews();

  bool loop = spec.distribution == Distribution::RowLoop;
  std::vector<bool> printed(spec.nodes.size(), false);
  if (loop && spec.hoistInvariantLoads) {
    // Row vectors and scalars do not depend on the row: load them once.
    for (unsigned i = 0; i < spec.nodes.size(); ++i) {
      const Node &n = spec.nodes[i];
      if (n.kind == NodeKind::Broadcast &&
          spec.buffers[n.buffer].shape != BufferShape::Column) {
        printNode(i);
        printed[i] = true;
      }
    }
  }
  std::string outerIndent = indent;
  // Printed only where a loop uses it (indexConstant prints the constant).
  auto rowsBound = [&]() {
    return spec.launchValues ? std::string("%n_rows") : indexConstant(spec.rows);
  };
  if (loop) {
    std::string upper = rowsBound();
    std::string step = indexConstant(spec.numTiles());
    body << indent << "scf.for %r = " << linearId << " to " << upper << " step " << step
         << " {\n";
    indent += "  ";
  } else if (spec.distribution == Distribution::ClampedRowLoop) {
    std::string chunk = indexConstant(spec.chunkRows()), one = indexConstant(1);
    std::string upper = rowsBound();
    body << indent << "%row_end = arith.addi %row_first, " << chunk << " : index\n";
    body << indent << "%row_last = arith.minsi %row_end, " << upper << " : index\n";
    body << indent << "scf.for %r = %row_first to %row_last step " << one << " {\n";
    indent += "  ";
  }
  printLoopBody(printed);
  if (indent != outerIndent) {
    indent = outerIndent;
    body << indent << "}\n";
  }

  printHeader(os);
  os << aliasText << "\nmodule {\n  func.func @" << spec.name << "(";
  for (size_t i = 0; i < spec.buffers.size(); ++i)
    os << (i ? ", " : "") << "%" << spec.buffers[i].name << ": index";
  if (spec.launchValues)
    os << ", %n_rows: index, %n_cols: index";
  os << ")\n      attributes {grid = [";
  for (size_t i = 0; i < spec.grid.size(); ++i)
    os << (i ? ", " : "") << spec.grid[i];
  os << "]} {\n" << bodyText << "    return\n  }\n}\n";
}

void Printer::printLoopBody(std::vector<bool> &printed) {
  auto printNodes = [&]() {
    for (unsigned i = 0; i < spec.nodes.size(); ++i)
      if (!printed[i])
        printNode(i);
  };
  if (spec.innerBlock <= 0) {
    printNodes();
    for (const Output &output : spec.outputs)
      printOutput(output);
    return;
  }
  unsigned dim = spec.walkedDim();
  std::string bound = spec.launchValues ? (dim == 0 ? "%n_rows" : "%n_cols")
                                        : indexConstant(dim == 0 ? spec.rows : spec.cols);
  std::string zero = indexConstant(0), step = indexConstant(spec.innerBlock);
  std::string outer = indent;
  bool accumulates = llvm::any_of(spec.outputs, [](const Output &o) {
    return o.kind != OutputKind::Store;
  });
  if (!accumulates) {
    body << indent << "scf.for %blk = " << zero << " to " << bound << " step " << step << " {\n";
    indent += "  ";
    printNodes();
    for (const Output &output : spec.outputs)
      printOutput(output);
    indent = outer;
    body << indent << "}\n";
    return;
  }
  // An accumulation: each reduction's running value is an iter_arg that
  // starts from the identity and takes every block's reduction (its one
  // element, for a scalar accumulator).
  llvm::SmallVector<int64_t, 2> tile = tileShape();
  int64_t length = spec.reduceDim == 1 ? tile[0] : tile[1];
  bool scalar = spec.scalarAccumulator;
  llvm::StringRef elem = elemTypeName(spec.computeType);
  std::string reducedType = tensorType({length}, spec.computeType);
  std::string accType = scalar ? elem.str() : reducedType;
  std::vector<std::string> inits, carried;
  for (const Output &output : spec.outputs)
    inits.push_back(scalar ? scalarIdentity(output) : reductionInit(output));
  std::string results = fresh("carried");
  std::string iterArgs, types;
  for (size_t i = 0; i < inits.size(); ++i) {
    carried.push_back(fresh("running"));
    iterArgs += (i ? ", " : "") + carried.back() + " = " + inits[i];
    types += (i ? ", " : "") + accType;
  }
  body << indent << results << ":" << inits.size() << " = scf.for %blk = " << zero << " to "
       << bound << " step " << step << " iter_args(" << iterArgs << ") -> (" << types
       << ") {\n";
  indent += "  ";
  printNodes();
  std::vector<std::string> next;
  for (auto [i, output] : llvm::enumerate(spec.outputs)) {
    std::string part = reduction(output, reductionInit(output));
    if (scalar) {
      std::string element = fresh("part");
      body << indent << element << " = tensor.extract " << part << "[" << zero
           << "] : " << reducedType << "\n";
      part = element;
    }
    std::string combined = fresh("next");
    body << indent << combined << " = arith." << combinerOf(output) << " " << carried[i] << ", "
         << part << " : " << accType << "\n";
    next.push_back(combined);
  }
  body << indent << "scf.yield ";
  for (size_t i = 0; i < next.size(); ++i)
    body << (i ? ", " : "") << next[i];
  body << " : " << types << "\n";
  indent = outer;
  body << indent << "}\n";
  for (auto [i, output] : llvm::enumerate(spec.outputs)) {
    std::string result = results + "#" + std::to_string(i);
    if (scalar) {
      std::string tensor = fresh("reduced");
      body << indent << tensor << " = tensor.from_elements " << result << " : " << reducedType
           << "\n";
      result = tensor;
    }
    storeReduction(output, result);
  }
}

std::string Printer::scalarIdentity(const Output &output) {
  llvm::StringRef elem = elemTypeName(spec.computeType);
  std::string init = fresh("identity");
  std::string value = output.kind == OutputKind::ReduceSum
                          ? std::string("0.0")
                          : infinityHex(spec.computeType, output.kind == OutputKind::ReduceMax).str();
  body << indent << init << " = arith.constant " << value << " : " << elem << "\n";
  return init;
}

std::string describeNode(const KernelSpec &spec, unsigned index, size_t budget) {
  if (budget == 0)
    return "...";
  const Node &n = spec.nodes[index];
  auto sub = [&](unsigned i) { return describeNode(spec, n.operands[i], budget / 2); };
  switch (n.kind) {
  case NodeKind::Load:
    if (spec.buffers[n.buffer].shape == BufferShape::Halves)
      return spec.buffers[n.buffer].name + (n.half ? "_hi" : "_lo");
    return spec.buffers[n.buffer].name;
  case NodeKind::Broadcast: {
    const Buffer &b = spec.buffers[n.buffer];
    if (b.shape == BufferShape::Row)
      return b.name + "[c]";
    if (b.shape == BufferShape::Column)
      return b.name + "[r]";
    return b.name + "[0]";
  }
  case NodeKind::Constant:
    return formatValue(n.value);
  case NodeKind::Unary:
    switch (n.unary) {
    case UnaryOp::Neg:
      return "-" + sub(0);
    case UnaryOp::Abs:
      return "abs(" + sub(0) + ")";
    case UnaryOp::Relu:
      return "max(" + sub(0) + ", 0)";
    case UnaryOp::SafeExp:
      return "exp(min(" + sub(0) + ", 2))";
    case UnaryOp::Clamp:
      return "clamp(" + sub(0) + ", +-" + formatValue(n.value) + ")";
    case UnaryOp::SafeSqrt:
      return "sqrt(abs(" + sub(0) + "))";
    case UnaryOp::SafeRsqrt:
      return "rsqrt(abs(" + sub(0) + ") + 1)";
    case UnaryOp::SafeLog:
      return "log(abs(" + sub(0) + ") + 1)";
    case UnaryOp::Tanh:
      return "tanh(" + sub(0) + ")";
    case UnaryOp::Erf:
      return "erf(" + sub(0) + ")";
    case UnaryOp::Exp:
      return "exp(" + sub(0) + ")";
    case UnaryOp::Rsqrt:
      return "rsqrt(" + sub(0) + ")";
    }
    break;
  case NodeKind::RowReduce:
    return std::string(n.binary == BinaryOp::Max   ? "rowmax("
                       : n.binary == BinaryOp::Min ? "rowmin("
                                                   : "rowsum(") +
           sub(0) + ")";
  case NodeKind::Fma:
    return "fma(" + sub(0) + ", " + sub(1) + ", " + sub(2) + ")";
  case NodeKind::Binary:
    switch (n.binary) {
    case BinaryOp::Add:
      return "(" + sub(0) + " + " + sub(1) + ")";
    case BinaryOp::Sub:
      return "(" + sub(0) + " - " + sub(1) + ")";
    case BinaryOp::Mul:
      return "(" + sub(0) + " * " + sub(1) + ")";
    case BinaryOp::SafeDiv:
      return "(" + sub(0) + " / (abs(" + sub(1) + ") + 1))";
    case BinaryOp::Div:
      return "(" + sub(0) + " / " + sub(1) + ")";
    case BinaryOp::Max:
      return "max(" + sub(0) + ", " + sub(1) + ")";
    case BinaryOp::Min:
      return "min(" + sub(0) + ", " + sub(1) + ")";
    case BinaryOp::SafePow:
      return "pow(abs(" + sub(0) + ") + 1, clamp(" + sub(1) + ", +-2))";
    case BinaryOp::Select:
      return "(" + sub(0) + " " + n.predicate + " " + sub(1) + " ? " + sub(0) + " : " + sub(1) +
             ")";
    }
    break;
  }
  return "?";
}

} // namespace

std::string gen::describeOutput(const KernelSpec &spec, unsigned index) {
  const Output &o = spec.outputs[index];
  std::string expr = describeNode(spec, o.node, 64);
  std::string name = spec.buffers[o.buffer].name;
  if (spec.buffers[o.buffer].shape == BufferShape::Halves)
    name += o.half ? "_hi" : "_lo";
  std::string dim = "over d" + std::to_string(spec.reduceDim) + " of ";
  switch (o.kind) {
  case OutputKind::Store:
    return name + " = " + expr;
  case OutputKind::ReduceSum:
    return name + " = sum " + dim + expr;
  case OutputKind::ReduceMax:
    return name + " = max " + dim + expr;
  case OutputKind::ReduceMin:
    return name + " = min " + dim + expr;
  }
  return name;
}

void gen::printKernel(const KernelSpec &spec, llvm::raw_ostream &os) {
  assert(!spec.validate() && "printing an invalid kernel spec");
  Printer(spec).print(os);
}

std::string gen::printKernel(const KernelSpec &spec) {
  std::string text;
  llvm::raw_string_ostream os(text);
  printKernel(spec, os);
  return text;
}
