//===- Executor.cpp - one tile's execution: dispatch, func and scf --------===//
//
// Ops run in program order. Dispatch goes by dialect first, then by op
// class within the dialect's evaluator; an op no evaluator claims is an
// "op not supported by the interpreter" error. Structured control flow
// (scf.for/if/while) runs its regions through runBlock, which binds block
// arguments and returns the terminator's operands.
//
//===----------------------------------------------------------------------===//
#include "Executor.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace ktflow;
using namespace ktflow::interp;

ElemKind interp::elemKindOf(Type type) {
  if (auto shaped = dyn_cast<ShapedType>(type))
    type = shaped.getElementType();
  if (auto kind = kindOf(type))
    return *kind;
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "element type " << type << " is not supported by the interpreter";
  throw InterpError{s};
}

SmallVector<int64_t, 4> interp::resolveShape(Type type,
                                             ArrayRef<int64_t> dynamicSizes) {
  auto shaped = cast<ShapedType>(type);
  SmallVector<int64_t, 4> shape;
  unsigned next = 0;
  for (int64_t d : shaped.getShape()) {
    if (ShapedType::isDynamic(d)) {
      if (next >= dynamicSizes.size())
        throw InterpError{"missing dynamic size"};
      d = dynamicSizes[next++];
      if (d < 0)
        throw InterpError{"negative dynamic size " + std::to_string(d)};
    }
    shape.push_back(d);
  }
  return shape;
}

TileExecutor::TileExecutor(LaunchState &launch, int64_t linearId,
                           std::array<int64_t, 3> coords)
    : launch(launch), tileId(linearId), tileCoords(coords) {}

void TileExecutor::fail(const llvm::Twine &message) {
  throw InterpError{message.str()};
}

const RtValue &TileExecutor::get(Value v) {
  auto it = env.find(v);
  if (it == env.end() || std::holds_alternative<std::monostate>(it->second))
    fail("internal: value used before it was computed");
  return it->second;
}

Scalar TileExecutor::scalar(Value v) {
  const RtValue &r = get(v);
  if (auto *s = std::get_if<Scalar>(&r))
    return *s;
  fail("expected a scalar operand");
}

TensorPtr TileExecutor::tensor(Value v) {
  const RtValue &r = get(v);
  if (auto *t = std::get_if<TensorPtr>(&r))
    return *t;
  fail("expected a tensor operand");
}

void TileExecutor::run(Block &body, ArrayRef<RtValue> args) {
  runBlock(body, args);
}

SmallVector<RtValue, 4> TileExecutor::runBlock(Block &block,
                                               ArrayRef<RtValue> args) {
  for (auto [arg, value] : llvm::zip(block.getArguments(), args))
    env[arg] = value;
  for (Operation &op : block) {
    if (op.hasTrait<OpTrait::IsTerminator>()) {
      current = &op;
      SmallVector<RtValue, 4> results;
      for (Value v : op.getOperands())
        results.push_back(get(v));
      return results;
    }
    exec(&op);
  }
  return {};
}

void TileExecutor::exec(Operation *op) {
  current = op;
  StringRef ns = op->getName().getDialectNamespace();
  bool handled = false;
  if (ns == "arith")
    handled = execArith(op);
  else if (ns == "math")
    handled = execMath(op);
  else if (ns == "scf")
    handled = execSCF(op);
  else if (ns == "linalg")
    handled = execLinalg(op);
  else if (ns == "tensor")
    handled = execTensor(op);
  else if (ns == "ktdp")
    handled = execKTDP(op);
  if (!handled)
    fail("op '" + op->getName().getStringRef() +
         "' is not supported by the interpreter");
}

//===----------------------------------------------------------------------===//
// scf
//===----------------------------------------------------------------------===//

bool TileExecutor::execSCF(Operation *op) {
  if (auto forOp = dyn_cast<scf::ForOp>(op)) {
    Scalar lb = scalar(forOp.getLowerBound());
    int64_t ub = scalar(forOp.getUpperBound()).i;
    int64_t step = scalar(forOp.getStep()).i;
    if (step <= 0)
      fail("scf.for step must be positive, got " + llvm::Twine(step));
    SmallVector<RtValue, 4> carried;
    for (Value init : forOp.getInitArgs())
      carried.push_back(get(init));
    Block &body = *forOp.getBody();
    SmallVector<RtValue, 4> args;
    for (int64_t iv = lb.i; iv < ub; iv += step) {
      args.clear();
      args.push_back(Scalar::ofInt(lb.kind, iv));
      args.append(carried.begin(), carried.end());
      carried = runBlock(body, args);
      current = op;
      if (iv > INT64_MAX - step)
        break;
    }
    for (auto [res, value] : llvm::zip(forOp.getResults(), carried))
      set(res, value);
    return true;
  }
  if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
    bool cond = scalar(ifOp.getCondition()).i != 0;
    Region &region = cond ? ifOp.getThenRegion() : ifOp.getElseRegion();
    SmallVector<RtValue, 4> results;
    if (!region.empty())
      results = runBlock(region.front(), {});
    current = op;
    for (auto [res, value] : llvm::zip(ifOp.getResults(), results))
      set(res, value);
    return true;
  }
  if (auto whileOp = dyn_cast<scf::WhileOp>(op)) {
    SmallVector<RtValue, 4> values;
    for (Value init : whileOp.getInits())
      values.push_back(get(init));
    while (true) {
      SmallVector<RtValue, 4> cond = runBlock(whileOp.getBefore().front(), values);
      current = op;
      // scf.condition(%c) %args...: first operand is the condition.
      bool keepGoing = std::get<Scalar>(cond.front()).i != 0;
      SmallVector<RtValue, 4> forwarded(cond.begin() + 1, cond.end());
      if (!keepGoing) {
        for (auto [res, value] : llvm::zip(whileOp.getResults(), forwarded))
          set(res, value);
        return true;
      }
      values = runBlock(whileOp.getAfter().front(), forwarded);
      current = op;
    }
  }
  if (auto exec = dyn_cast<scf::ExecuteRegionOp>(op)) {
    if (!exec.getRegion().hasOneBlock())
      fail("scf.execute_region with several blocks is not supported");
    SmallVector<RtValue, 4> results = runBlock(exec.getRegion().front(), {});
    current = op;
    for (auto [res, value] : llvm::zip(exec.getResults(), results))
      set(res, value);
    return true;
  }
  if (isa<scf::ParallelOp, scf::ForallOp, scf::ReduceOp>(op))
    fail("'" + op->getName().getStringRef() +
         "' is not supported (KTIR programs do not use it)");
  return false;
}
