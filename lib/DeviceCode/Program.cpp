//===- Program.cpp - device code vocabulary, verifier and builder ---------===//
//
// The verifier is the single place that states what a well-formed bundle
// is, independent of any architecture: the decoder and the text parser run
// it on what they read, and the builder's output is checked by the same
// rules, so the simulator never sees an out-of-range operand.
//
//===----------------------------------------------------------------------===//
#include "ktflow/DeviceCode/Program.h"
#include "ktflow/DeviceCode/LaunchTable.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"

#include <limits>

using namespace ktflow;
using namespace ktflow::dc;
using llvm::StringRef;

//===----------------------------------------------------------------------===//
// Vocabulary
//===----------------------------------------------------------------------===//

StringRef dc::elemTypeName(ElemType type) {
  switch (type) {
  case ElemType::F16:
    return "f16";
  case ElemType::BF16:
    return "bf16";
  case ElemType::F32:
    return "f32";
  case ElemType::I8:
    return "i8";
  case ElemType::I32:
    return "i32";
  case ElemType::I64:
    return "i64";
  }
  return "?";
}

std::optional<ElemType> dc::parseElemType(StringRef name) {
  if (name == "f16")
    return ElemType::F16;
  if (name == "bf16")
    return ElemType::BF16;
  if (name == "f32")
    return ElemType::F32;
  if (name == "i8")
    return ElemType::I8;
  if (name == "i32")
    return ElemType::I32;
  if (name == "i64")
    return ElemType::I64;
  return std::nullopt;
}

ElementSize dc::elemTypeSize(ElemType type) {
  switch (type) {
  case ElemType::I8:
    return ElementSize{Bytes(1)};
  case ElemType::F16:
  case ElemType::BF16:
    return ElementSize{Bytes(2)};
  case ElemType::F32:
  case ElemType::I32:
    return ElementSize{Bytes(4)};
  case ElemType::I64:
    return ElementSize{Bytes(8)};
  }
  return ElementSize{Bytes(4)};
}

std::optional<ElementSize> dc::elementSizeOf(StringRef t) {
  if (t == "f16" || t == "bf16" || t == "i16")
    return ElementSize{Bytes(2)};
  if (t == "f32" || t == "i32")
    return ElementSize{Bytes(4)};
  if (t == "f64" || t == "i64")
    return ElementSize{Bytes(8)};
  if (t == "i8" || t == "i1" || t == "f8E4M3FN")
    return ElementSize{Bytes(1)};
  return std::nullopt;
}

namespace {
struct OpcodeInfo {
  Opcode op;
  const char *name;
  const char *opClass;
};
} // namespace

static const OpcodeInfo opcodeTable[] = {
    {Opcode::Loop, "loop", ""},     {Opcode::End, "end", ""},
    {Opcode::Signal, "signal", ""}, {Opcode::Wait, "wait", ""},
    {Opcode::Credit, "credit", ""},
    {Opcode::Copy, "copy", ""},     {Opcode::Push, "push", ""},
    {Opcode::Gather, "gather", ""}, {Opcode::Scatter, "scatter", ""},
    {Opcode::Pop, "pop", ""},       {Opcode::Recv, "recv", ""},
    {Opcode::Send, "send", ""},     {Opcode::VLoad, "vload", ""},
    {Opcode::VStore, "vstore", ""}, {Opcode::VConst, "vconst", "copy"},
    {Opcode::Add, "add", "add"},    {Opcode::Sub, "sub", "sub"},
    {Opcode::Mul, "mul", "mul"},    {Opcode::Div, "div", "div"},
    {Opcode::Max, "max", "max"},    {Opcode::Min, "min", "min"},
    {Opcode::Pow, "pow", "pow"},    {Opcode::Fma, "fma", "fma"},
    {Opcode::Neg, "neg", "neg"},    {Opcode::Abs, "abs", "abs"},
    {Opcode::Exp, "exp", "exp"},    {Opcode::Mov, "mov", "copy"},
    {Opcode::Sqrt, "sqrt", "sqrt"}, {Opcode::Rsqrt, "rsqrt", "rsqrt"},
    {Opcode::Log, "log", "log"},    {Opcode::Tanh, "tanh", "tanh"},
    {Opcode::Erf, "erf", "erf"},
    {Opcode::Cast, "cast", "cast"}, {Opcode::Cmp, "cmp", "cmp"},
    {Opcode::Select, "select", "select"},
    {Opcode::Bcast, "bcast", "copy"},
    {Opcode::Reduce, "reduce", "reduce"},
    {Opcode::Slide, "slide", "copy"},
    {Opcode::Ext, "ext", "copy"},
    {Opcode::Concat, "concat", "copy"},
    {Opcode::Slice, "slice", "copy"},
    {Opcode::Mma, "mma", "matmul"},
};

static const OpcodeInfo *infoOf(Opcode op) {
  for (const OpcodeInfo &info : opcodeTable)
    if (info.op == op)
      return &info;
  return nullptr;
}

StringRef dc::opcodeName(Opcode op) {
  const OpcodeInfo *info = infoOf(op);
  return info ? info->name : "?";
}

std::optional<Opcode> dc::parseOpcode(StringRef name) {
  for (const OpcodeInfo &info : opcodeTable)
    if (name == info.name)
      return info.op;
  return std::nullopt;
}

StringRef dc::opClassOf(Opcode op, Combiner) {
  const OpcodeInfo *info = infoOf(op);
  return info ? info->opClass : "";
}

StringRef dc::predicateName(CmpPredicate p) {
  static const char *names[] = {"lt", "le", "gt", "ge", "eq", "ne"};
  unsigned i = unsigned(p);
  return i < 6 ? names[i] : "?";
}

std::optional<CmpPredicate> dc::parsePredicate(StringRef name) {
  for (unsigned i = 0; i <= unsigned(CmpPredicate::Ne); ++i)
    if (predicateName(CmpPredicate(i)) == name)
      return CmpPredicate(i);
  return std::nullopt;
}

StringRef dc::combinerName(Combiner c) {
  static const char *names[] = {"add", "max", "min"};
  unsigned i = unsigned(c);
  return i < 3 ? names[i] : "?";
}

bool dc::isBinaryArith(Opcode op) {
  return op == Opcode::Add || op == Opcode::Sub || op == Opcode::Mul ||
         op == Opcode::Div || op == Opcode::Max || op == Opcode::Min ||
         op == Opcode::Pow;
}
bool dc::isUnaryArith(Opcode op) {
  return op == Opcode::Neg || op == Opcode::Abs || op == Opcode::Exp ||
         op == Opcode::Mov || op == Opcode::Sqrt || op == Opcode::Rsqrt ||
         op == Opcode::Log || op == Opcode::Tanh || op == Opcode::Erf;
}
bool dc::isTernaryArith(Opcode op) { return op == Opcode::Fma; }
bool dc::isVectorArith(Opcode op) { return !opClassOf(op).empty(); }

llvm::SmallVector<uint8_t, 4> dc::registerOperands(const Instruction &inst) {
  switch (inst.op) {
  case Opcode::Recv:
  case Opcode::VLoad:
  case Opcode::VConst:
    return {inst.vd};
  case Opcode::Send:
  case Opcode::VStore:
    return {inst.va};
  case Opcode::Cast:
  case Opcode::Neg:
  case Opcode::Abs:
  case Opcode::Exp:
  case Opcode::Mov:
  case Opcode::Sqrt:
  case Opcode::Rsqrt:
  case Opcode::Log:
  case Opcode::Tanh:
  case Opcode::Erf:
  case Opcode::Bcast:
  case Opcode::Reduce:
  case Opcode::Slide:
  case Opcode::Slice:
    return {inst.vd, inst.va};
  case Opcode::Add:
  case Opcode::Sub:
  case Opcode::Mul:
  case Opcode::Div:
  case Opcode::Max:
  case Opcode::Min:
  case Opcode::Pow:
  case Opcode::Cmp:
  case Opcode::Ext:
  case Opcode::Concat:
  case Opcode::Mma:
    return {inst.vd, inst.va, inst.vb};
  case Opcode::Fma:
    return {inst.vd, inst.va, inst.vb, inst.vc};
  case Opcode::Select:
    return {inst.vd, inst.vc, inst.va, inst.vb};
  case Opcode::Loop:
  case Opcode::End:
  case Opcode::Signal:
  case Opcode::Wait:
  case Opcode::Credit:
  case Opcode::Copy:
  case Opcode::Gather:
  case Opcode::Scatter:
  case Opcode::Push:
  case Opcode::Pop:
    return {};
  }
  return {};
}

//===----------------------------------------------------------------------===//
// Verifier
//===----------------------------------------------------------------------===//

namespace {
/// Limits that keep a corrupt bundle from asking for absurd allocations;
/// they are encoding sanity bounds, not properties of any device
/// (kMaxVectorElements is in Program.h: the simulator bounds `concat`).
constexpr size_t kMaxCopyDims = 8;

/// Names (device, symbols, units, memories) are single words of the text
/// form: letters, digits, '_', '.' and '$'. Anything else (a blank, a
/// comma, '+', '-', '[', '@' ...) would split or change the word when the
/// bundle is printed, so a decoded bundle would not read back as itself.
static bool isTextName(StringRef name) {
  return !name.empty() && llvm::all_of(name, [](char c) {
    return llvm::isAlnum(c) || c == '_' || c == '.' || c == '$';
  });
}

class Verifier {
public:
  Verifier(const Bundle &bundle, StringRef where) : bundle(bundle), where(where) {}

  llvm::Error run() {
    llvm::StringSet<> names;
    if (!bundle.device.empty() && !isTextName(bundle.device))
      return fail("device", "name '" + bundle.device + "' is not a word of letters, digits, "
                                                       "'_', '.' and '$'");
    for (size_t i = 0; i < bundle.symbols.size(); ++i) {
      const Symbol &s = bundle.symbols[i];
      std::string at = llvm::formatv("symbol #{0}", i).str();
      if (s.name.empty())
        return fail(at, "has an empty name");
      if (!isTextName(s.name))
        return fail(at, "name '" + s.name + "' is not a word of letters, digits, '_', '.' "
                                            "and '$'");
      if (!names.insert(s.name).second)
        return fail(at, "'" + s.name + "' is declared twice");
      std::optional<ElementSize> size = elementSizeOf(s.elementType);
      if (!size)
        return fail(at, "'" + s.name + "' has unknown element type '" + s.elementType + "'");
      int64_t elements = 1;
      for (int64_t d : s.shape) {
        if (d < 0 || (d > 0 && elements > (int64_t(1) << 40) / d))
          return fail(at, "'" + s.name + "' has an invalid shape");
        elements *= d;
      }
      if (s.size != toBytes(Elements(elements), *size))
        return fail(at, llvm::formatv("'{0}' has size {1} bytes but its shape "
                                      "needs {2}",
                                      s.name, s.size.count(),
                                      toBytes(Elements(elements), *size).count())
                            .str());
    }
    llvm::StringSet<> launchNames;
    for (size_t i = 0; i < bundle.launchValues.size(); ++i) {
      const LaunchValue &v = bundle.launchValues[i];
      std::string at = llvm::formatv("launch value #{0}", i).str();
      if (!isTextName(v.name))
        return fail(at, "name '" + v.name + "' is not a word of letters, digits, '_', '.' "
                                            "and '$'");
      if (!launchNames.insert(v.name).second)
        return fail(at, "'" + v.name + "' is given twice");
      if (!v.bound) {
        if (!v.value.empty() || v.granularity < 1 || v.upperbound < 0)
          return fail(at, "'" + v.name + "' is unbound: it needs no value, a granularity of at "
                                         "least 1 and an upperbound of at least 0");
        continue;
      }
      if (!sameLaunchValue(v, v.value))
        return fail(at, "'" + v.name + "' has value '" + v.value + "', which is not a " +
                            v.type + " value (types: index, iN, f16, bf16, f32, f64)");
    }
    for (size_t p = 0; p < bundle.programs.size(); ++p)
      if (llvm::Error e = program(p, bundle.programs[p]))
        return e;
    return llvm::Error::success();
  }

private:
  llvm::Error fail(const std::string &at, const llvm::Twine &message) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   (where + ": " + at + " " + message).str());
  }

  llvm::Error program(size_t p, const Program &prog) {
    std::string at = llvm::formatv("program #{0} (@{1})", p, prog.unit).str();
    if (prog.unit.empty())
      return fail(at, "names no unit");
    if (!isTextName(prog.unit))
      return fail(at, "unit name is not a word of letters, digits, '_', '.' and '$'");
    llvm::SmallVector<int64_t, 8> seen;
    for (int64_t i : prog.instances) {
      if (i < 0)
        return fail(at, "lists a negative instance");
      if (llvm::is_contained(seen, i))
        return fail(at, llvm::formatv("lists instance {0} twice", i));
      seen.push_back(i);
    }
    if (!prog.instances.empty() && prog.tableColumns > 0 &&
        prog.table.size() != prog.instances.size())
      return fail(at, llvm::formatv("has {0} table rows for {1} instances",
                                    prog.table.size(), prog.instances.size()));
    if (prog.tableColumns > kMaxTableColumns)
      return fail(at, llvm::formatv("has {0} table columns (at most {1})", prog.tableColumns,
                                    kMaxTableColumns));
    if (prog.tableColumns == 0 && !prog.table.empty())
      return fail(at, "has table rows but no table columns");
    for (const auto &row : prog.table)
      if (row.size() != prog.tableColumns)
        return fail(at, llvm::formatv("has a table row of {0} values, expected {1}",
                                      row.size(), prog.tableColumns));
    for (const LaunchCell &cell : prog.launchCells) {
      if (cell.row >= prog.table.size() || cell.column >= prog.tableColumns)
        return fail(at, llvm::formatv("has a launch-table cell ({0}, {1}) outside its table",
                                      cell.row, cell.column));
      if (llvm::Error e = checkLaunchExpr(cell.expr, bundle.launchValues))
        return fail(at, llvm::formatv("launch-table cell ({0}, {1}): {2}", cell.row,
                                      cell.column, llvm::toString(std::move(e))));
    }
    unsigned depth = 0;
    for (size_t i = 0; i < prog.body.size(); ++i) {
      std::string iat = llvm::formatv("{0} instruction {1}", at, i).str();
      const Instruction &inst = prog.body[i];
      if (inst.op == Opcode::Loop) {
        if (inst.count < 0)
          return fail(iat, "loops a negative number of times");
        if (inst.countFromTable && inst.count >= prog.tableColumns)
          return fail(iat, llvm::formatv("takes its trip count from table column {0} of {1}",
                                         inst.count, prog.tableColumns));
        if (++depth > kMaxLoopDepth)
          return fail(iat, llvm::formatv("nests loops deeper than {0}", kMaxLoopDepth));
        continue;
      }
      if (inst.op == Opcode::End) {
        if (depth == 0)
          return fail(iat, "ends a loop that was not opened");
        --depth;
        continue;
      }
      if (llvm::Error e = instruction(iat, prog, inst, depth))
        return e;
    }
    if (depth != 0)
      return fail(at, "leaves a loop open");
    return llvm::Error::success();
  }

  llvm::Error nodeRef(const std::string &at, const Program &prog, const NodeRef &ref) {
    if (ref.name.empty())
      return fail(at, "names no node");
    if (!isTextName(ref.name))
      return fail(at, "node name '" + ref.name + "' is not a word of letters, digits, '_', "
                                                 "'.' and '$'");
    switch (ref.instance.kind) {
    case InstanceSelector::Kind::Nearest:
      // The text form has no place for a value here: a decoded bundle
      // carrying one would not print back to itself.
      if (ref.instance.value != 0)
        return fail(at, llvm::formatv("selects the nearest instance with value {0} "
                                      "(must be 0)",
                                      ref.instance.value));
      return llvm::Error::success();
    case InstanceSelector::Kind::Absolute:
      if (ref.instance.value < 0)
        return fail(at, "selects a negative instance");
      return llvm::Error::success();
    case InstanceSelector::Kind::TableColumn:
      if (ref.instance.value < 0 || ref.instance.value >= int64_t(prog.tableColumns))
        return fail(at, llvm::formatv("uses table column {0} of {1}",
                                      ref.instance.value, prog.tableColumns));
      return llvm::Error::success();
    }
    return fail(at, "has an unknown instance selector");
  }

  llvm::Error address(const std::string &at, const Program &prog, const Address &a,
                      unsigned depth) {
    if (a.base == Address::Base::Symbol) {
      if (a.symbol >= bundle.symbols.size())
        return fail(at, llvm::formatv("uses symbol #{0} of {1}", a.symbol,
                                      bundle.symbols.size()));
    } else if (a.base == Address::Base::Memory) {
      if (llvm::Error e = nodeRef(at, prog, a.memory))
        return e;
    } else {
      return fail(at, "has an unknown address base");
    }
    if (a.tableColumn && *a.tableColumn >= prog.tableColumns)
      return fail(at, llvm::formatv("adds table column {0} of {1}", *a.tableColumn,
                                    prog.tableColumns));
    for (const LoopTerm &t : a.terms) {
      if (t.depth >= depth)
        return fail(at, llvm::formatv("uses loop index i{0} inside {1} loops",
                                      t.depth, depth));
      if (t.modulus < 0)
        return fail(at, "has a negative loop-term modulus");
    }
    return llvm::Error::success();
  }

  // A register operand is one byte, so every value it holds is encodable: the
  // check is the type's range, kept in step with the encoding by this assert.
  static_assert(kEncodableVectorRegisters == size_t(std::numeric_limits<uint8_t>::max()) + 1,
                "register operands are one byte wide");
  llvm::Error reg(const std::string &, uint8_t) {
    return llvm::Error::success();
  }

  llvm::Error elementCount(const std::string &at, int64_t count) {
    if (count < 1 || count > kMaxVectorElements)
      return fail(at, llvm::formatv("has element count {0} (1..{1})", count,
                                    kMaxVectorElements));
    return llvm::Error::success();
  }

  llvm::Error typeOk(const std::string &at, ElemType t) {
    if (!parseElemType(elemTypeName(t)))
      return fail(at, "has an unknown element type");
    return llvm::Error::success();
  }

  llvm::Error instruction(const std::string &at, const Program &prog,
                          const Instruction &inst, unsigned depth) {
#define TRY(x)                                                                 \
  if (llvm::Error e = (x))                                                     \
    return e;
    switch (inst.op) {
    case Opcode::Signal:
      TRY(nodeRef(at, prog, inst.peer));
      [[fallthrough]];
    case Opcode::Wait:
    case Opcode::Credit:
      if (inst.sem >= kEncodableSemaphores)
        return fail(at, llvm::formatv("uses semaphore {0}, beyond the {1} an instruction "
                                      "encodes",
                                      inst.sem, kEncodableSemaphores));
      if (inst.op == Opcode::Wait && inst.count < 1)
        return fail(at, "waits for fewer than one signal");
      if (inst.op == Opcode::Credit && inst.count < 1)
        return fail(at, "credits fewer than one");
      return llvm::Error::success();
    case Opcode::Gather:
    case Opcode::Scatter:
      TRY(address(at, prog, inst.index, depth));
      if (inst.type != ElemType::I32 && inst.type != ElemType::I64)
        return fail(at, "has indices that are not i32 or i64");
      if (inst.dims.empty())
        return fail(at, inst.op == Opcode::Gather ? "has no dimension to gather along"
                                                  : "has no dimension to scatter along");
      if (inst.indexBound < 1)
        return fail(at, "has an index bound below one");
      [[fallthrough]];
    case Opcode::Copy: {
      TRY(address(at, prog, inst.dst, depth));
      TRY(address(at, prog, inst.src, depth));
      if (inst.bytes.count() < 1)
        return fail(at, "copies runs of fewer than one byte");
      if (inst.dims.size() > kMaxCopyDims)
        return fail(at, llvm::formatv("has more than {0} dimensions", kMaxCopyDims));
      int64_t total = inst.bytes.count();
      for (const CopyDim &d : inst.dims) {
        if (d.count < 1 || total > (int64_t(1) << 40) / d.count)
          return fail(at, "has an invalid dimension count");
        total *= d.count;
      }
      return llvm::Error::success();
    }
    case Opcode::Push:
    case Opcode::Pop:
      TRY(nodeRef(at, prog, inst.peer));
      TRY(address(at, prog, inst.op == Opcode::Push ? inst.src : inst.dst, depth));
      if (inst.bytes.count() < 1 || inst.bytes.count() > (int64_t(1) << 30))
        return fail(at, "moves an invalid number of bytes");
      return llvm::Error::success();
    case Opcode::Recv:
      TRY(reg(at, inst.vd));
      TRY(typeOk(at, inst.type));
      TRY(elementCount(at, inst.count));
      return nodeRef(at, prog, inst.peer);
    case Opcode::Send:
      TRY(reg(at, inst.va));
      return nodeRef(at, prog, inst.peer);
    case Opcode::VLoad:
      TRY(reg(at, inst.vd));
      TRY(typeOk(at, inst.type));
      TRY(elementCount(at, inst.count));
      return address(at, prog, inst.src, depth);
    case Opcode::VStore:
      TRY(reg(at, inst.va));
      return address(at, prog, inst.dst, depth);
    case Opcode::VConst:
      TRY(reg(at, inst.vd));
      TRY(typeOk(at, inst.type));
      return elementCount(at, inst.count);
    case Opcode::Cast:
      TRY(typeOk(at, inst.type));
      [[fallthrough]];
    case Opcode::Neg:
    case Opcode::Abs:
    case Opcode::Exp:
    case Opcode::Mov:
    case Opcode::Sqrt:
    case Opcode::Rsqrt:
    case Opcode::Log:
    case Opcode::Tanh:
    case Opcode::Erf:
      TRY(reg(at, inst.vd));
      return reg(at, inst.va);
    case Opcode::Add:
    case Opcode::Sub:
    case Opcode::Mul:
    case Opcode::Div:
    case Opcode::Max:
    case Opcode::Min:
    case Opcode::Pow:
      TRY(reg(at, inst.vd));
      TRY(reg(at, inst.va));
      return reg(at, inst.vb);
    case Opcode::Fma:
      TRY(reg(at, inst.vd));
      TRY(reg(at, inst.va));
      TRY(reg(at, inst.vb));
      return reg(at, inst.vc);
    case Opcode::Cmp:
      if (unsigned(inst.predicate) > unsigned(CmpPredicate::Ne))
        return fail(at, "has an unknown predicate");
      TRY(reg(at, inst.vd));
      TRY(reg(at, inst.va));
      return reg(at, inst.vb);
    case Opcode::Select:
      TRY(reg(at, inst.vd));
      TRY(reg(at, inst.vc));
      TRY(reg(at, inst.va));
      return reg(at, inst.vb);
    case Opcode::Bcast:
      TRY(reg(at, inst.vd));
      TRY(reg(at, inst.va));
      if (inst.lane < 0)
        return fail(at, "broadcasts a negative lane");
      return elementCount(at, inst.count);
    case Opcode::Reduce:
      if (unsigned(inst.combiner) > unsigned(Combiner::Min))
        return fail(at, "has an unknown combiner");
      TRY(reg(at, inst.vd));
      return reg(at, inst.va);
    case Opcode::Slide:
      TRY(reg(at, inst.vd));
      return reg(at, inst.va);
    case Opcode::Ext:
      TRY(reg(at, inst.vd));
      TRY(reg(at, inst.va));
      TRY(reg(at, inst.vb));
      if (inst.laneFromTable && (inst.lane < 0 || inst.lane >= int64_t(prog.tableColumns)))
        return fail(at, llvm::formatv("takes its lane from table column {0} of {1}", inst.lane,
                                      prog.tableColumns));
      if (!inst.laneFromTable && inst.lane < 0)
        return fail(at, "extracts from a negative lane");
      return llvm::Error::success();
    case Opcode::Concat:
      TRY(reg(at, inst.vd));
      TRY(reg(at, inst.va));
      return reg(at, inst.vb);
    case Opcode::Mma:
      TRY(reg(at, inst.vd));
      TRY(reg(at, inst.va));
      TRY(reg(at, inst.vb));
      if (inst.count <= 0)
        return fail(at, llvm::formatv("has depth {0} (must be positive)", inst.count));
      return elementCount(at, inst.count);
    case Opcode::Slice:
      TRY(reg(at, inst.vd));
      TRY(reg(at, inst.va));
      if (inst.lane < 0)
        return fail(at, "slices from a negative lane");
      return elementCount(at, inst.count);
    case Opcode::Loop:
    case Opcode::End:
      return llvm::Error::success();
    }
#undef TRY
    return fail(at, llvm::formatv("has unknown opcode {0}", unsigned(inst.op)));
  }

  const Bundle &bundle;
  StringRef where;
};
} // namespace

/// The float semantics of a launch value's type name, if it is a float.
static const llvm::fltSemantics *floatSemantics(StringRef type) {
  if (type == "f16")
    return &llvm::APFloat::IEEEhalf();
  if (type == "bf16")
    return &llvm::APFloat::BFloat();
  if (type == "f32")
    return &llvm::APFloat::IEEEsingle();
  if (type == "f64")
    return &llvm::APFloat::IEEEdouble();
  return nullptr;
}

std::optional<bool> dc::sameLaunchValue(const LaunchValue &launch, StringRef text) {
  text = text.trim();
  StringRef recorded = StringRef(launch.value).trim();
  if (const llvm::fltSemantics *semantics = floatSemantics(launch.type)) {
    double a, b;
    if (text.getAsDouble(a) || recorded.getAsDouble(b))
      return std::nullopt;
    llvm::APFloat x(a), y(b);
    bool lost;
    x.convert(*semantics, llvm::APFloat::rmNearestTiesToEven, &lost);
    y.convert(*semantics, llvm::APFloat::rmNearestTiesToEven, &lost);
    return x.bitwiseIsEqual(y);
  }
  unsigned width = 0;
  StringRef type = launch.type;
  if (type != "index" && (!type.consume_front("i") || type.getAsInteger(10, width) ||
                          width == 0 || width > 64))
    return std::nullopt;
  int64_t a, b;
  if (text.getAsInteger(0, a) || recorded.getAsInteger(0, b))
    return std::nullopt;
  return a == b;
}

llvm::Error dc::verifyBundle(const Bundle &bundle, StringRef where) {
  return Verifier(bundle, where).run();
}

std::vector<size_t> dc::matchLoops(const Program &program) {
  std::vector<size_t> match(program.body.size(), 0);
  std::vector<size_t> open;
  for (size_t i = 0; i < program.body.size(); ++i) {
    if (program.body[i].op == Opcode::Loop) {
      open.push_back(i);
    } else if (program.body[i].op == Opcode::End && !open.empty()) {
      match[i] = open.back();
      match[open.back()] = i;
      open.pop_back();
    }
  }
  return match;
}

//===----------------------------------------------------------------------===//
// Builder
//===----------------------------------------------------------------------===//

ProgramBuilder::ProgramBuilder(Bundle &bundle, StringRef unit,
                               std::vector<int64_t> instances, uint32_t tableColumns)
    : bundle(bundle), index(bundle.programs.size()) {
  Program prog;
  prog.unit = unit.str();
  prog.instances = std::move(instances);
  prog.tableColumns = tableColumns;
  bundle.programs.push_back(std::move(prog));
}

void ProgramBuilder::addTableRow(std::vector<int64_t> row) {
  program().table.push_back(std::move(row));
}

Address ProgramBuilder::symbolAddress(uint32_t symbol, Bytes offset) {
  Address a;
  a.base = Address::Base::Symbol;
  a.symbol = symbol;
  a.offset = offset;
  return a;
}

Address ProgramBuilder::memoryAddress(StringRef memory, Bytes offset,
                                      InstanceSelector instance) {
  Address a;
  a.base = Address::Base::Memory;
  a.memory = node(memory, instance);
  a.offset = offset;
  return a;
}

NodeRef ProgramBuilder::node(StringRef name, InstanceSelector instance) {
  return NodeRef{name.str(), instance};
}

Instruction &ProgramBuilder::emit(Opcode op) {
  program().body.emplace_back();
  program().body.back().op = op;
  return program().body.back();
}

void ProgramBuilder::loop(int64_t count) {
  emit(Opcode::Loop).count = count;
  ++depth;
}
void ProgramBuilder::loopFromTable(uint32_t column) {
  Instruction &i = emit(Opcode::Loop);
  i.count = column;
  i.countFromTable = true;
  ++depth;
}
void ProgramBuilder::end() {
  assert(depth > 0 && "end() without loop()");
  emit(Opcode::End);
  --depth;
}
void ProgramBuilder::signal(NodeRef peer, uint32_t sem) {
  Instruction &i = emit(Opcode::Signal);
  i.peer = std::move(peer);
  i.sem = sem;
}
void ProgramBuilder::wait(uint32_t sem, int64_t count) {
  Instruction &i = emit(Opcode::Wait);
  i.sem = sem;
  i.count = count;
}
void ProgramBuilder::credit(uint32_t sem, int64_t count) {
  Instruction &i = emit(Opcode::Credit);
  i.sem = sem;
  i.count = count;
}
void ProgramBuilder::copy(Address dst, Address src, Bytes runBytes,
                          llvm::ArrayRef<CopyDim> dims) {
  Instruction &i = emit(Opcode::Copy);
  i.dst = std::move(dst);
  i.src = std::move(src);
  i.bytes = runBytes;
  i.dims.assign(dims.begin(), dims.end());
}
void ProgramBuilder::gather(Address dst, Address src, Bytes runBytes,
                            llvm::ArrayRef<CopyDim> dims, Address index, ElemType indexType,
                            int64_t indexBound) {
  indexedCopy(Opcode::Gather, std::move(dst), std::move(src), runBytes, dims,
              std::move(index), indexType, indexBound);
}
void ProgramBuilder::scatter(Address dst, Address src, Bytes runBytes,
                             llvm::ArrayRef<CopyDim> dims, Address index, ElemType indexType,
                             int64_t indexBound) {
  indexedCopy(Opcode::Scatter, std::move(dst), std::move(src), runBytes, dims,
              std::move(index), indexType, indexBound);
}
void ProgramBuilder::indexedCopy(Opcode op, Address dst, Address src, Bytes runBytes,
                                 llvm::ArrayRef<CopyDim> dims, Address index,
                                 ElemType indexType, int64_t indexBound) {
  Instruction &i = emit(op);
  i.dst = std::move(dst);
  i.src = std::move(src);
  i.bytes = runBytes;
  i.dims.assign(dims.begin(), dims.end());
  i.index = std::move(index);
  i.type = indexType;
  i.indexBound = indexBound;
}
void ProgramBuilder::push(NodeRef peer, Address src, Bytes bytes) {
  Instruction &i = emit(Opcode::Push);
  i.peer = std::move(peer);
  i.src = std::move(src);
  i.bytes = bytes;
}
void ProgramBuilder::pop(NodeRef peer, Address dst, Bytes bytes) {
  Instruction &i = emit(Opcode::Pop);
  i.peer = std::move(peer);
  i.dst = std::move(dst);
  i.bytes = bytes;
}
void ProgramBuilder::recv(uint8_t vd, ElemType type, Elements count, NodeRef peer) {
  Instruction &i = emit(Opcode::Recv);
  i.vd = vd;
  i.type = type;
  i.count = count.count();
  i.peer = std::move(peer);
}
void ProgramBuilder::send(NodeRef peer, uint8_t va) {
  Instruction &i = emit(Opcode::Send);
  i.peer = std::move(peer);
  i.va = va;
}
void ProgramBuilder::vload(uint8_t vd, ElemType type, Elements count, Address src) {
  Instruction &i = emit(Opcode::VLoad);
  i.vd = vd;
  i.type = type;
  i.count = count.count();
  i.src = std::move(src);
}
void ProgramBuilder::vstore(Address dst, uint8_t va) {
  Instruction &i = emit(Opcode::VStore);
  i.dst = std::move(dst);
  i.va = va;
}
void ProgramBuilder::vconst(uint8_t vd, ElemType type, Elements count, double value) {
  Instruction &i = emit(Opcode::VConst);
  i.vd = vd;
  i.type = type;
  i.count = count.count();
  i.imm = value;
}
void ProgramBuilder::binary(Opcode op, uint8_t vd, uint8_t va, uint8_t vb) {
  assert(isBinaryArith(op) && "not a binary op");
  Instruction &i = emit(op);
  i.vd = vd;
  i.va = va;
  i.vb = vb;
}
void ProgramBuilder::unary(Opcode op, uint8_t vd, uint8_t va) {
  assert(isUnaryArith(op) && "not a unary op");
  Instruction &i = emit(op);
  i.vd = vd;
  i.va = va;
}
void ProgramBuilder::ternary(Opcode op, uint8_t vd, uint8_t va, uint8_t vb, uint8_t vc) {
  assert(isTernaryArith(op) && "not a ternary op");
  Instruction &i = emit(op);
  i.vd = vd;
  i.va = va;
  i.vb = vb;
  i.vc = vc;
}
void ProgramBuilder::cast(uint8_t vd, ElemType type, uint8_t va) {
  Instruction &i = emit(Opcode::Cast);
  i.vd = vd;
  i.type = type;
  i.va = va;
}
void ProgramBuilder::cmp(CmpPredicate p, uint8_t vd, uint8_t va, uint8_t vb) {
  Instruction &i = emit(Opcode::Cmp);
  i.predicate = p;
  i.vd = vd;
  i.va = va;
  i.vb = vb;
}
void ProgramBuilder::select(uint8_t vd, uint8_t vm, uint8_t va, uint8_t vb) {
  Instruction &i = emit(Opcode::Select);
  i.vd = vd;
  i.vc = vm;
  i.va = va;
  i.vb = vb;
}
void ProgramBuilder::bcast(uint8_t vd, uint8_t va, int64_t lane, Elements count) {
  Instruction &i = emit(Opcode::Bcast);
  i.vd = vd;
  i.va = va;
  i.lane = lane;
  i.count = count.count();
}
void ProgramBuilder::reduce(Combiner c, uint8_t vd, uint8_t va) {
  Instruction &i = emit(Opcode::Reduce);
  i.combiner = c;
  i.vd = vd;
  i.va = va;
}
void ProgramBuilder::slide(uint8_t vd, uint8_t va) {
  Instruction &i = emit(Opcode::Slide);
  i.vd = vd;
  i.va = va;
}
void ProgramBuilder::ext(uint8_t vd, uint8_t va, uint8_t vb, int64_t lane,
                         std::optional<uint32_t> laneColumn) {
  Instruction &i = emit(Opcode::Ext);
  i.vd = vd;
  i.va = va;
  i.vb = vb;
  i.lane = laneColumn ? int64_t(*laneColumn) : lane;
  i.laneFromTable = laneColumn.has_value();
}
void ProgramBuilder::concat(uint8_t vd, uint8_t va, uint8_t vb) {
  Instruction &i = emit(Opcode::Concat);
  i.vd = vd;
  i.va = va;
  i.vb = vb;
}
void ProgramBuilder::slice(uint8_t vd, uint8_t va, int64_t lane, Elements count) {
  Instruction &i = emit(Opcode::Slice);
  i.vd = vd;
  i.va = va;
  i.lane = lane;
  i.count = count.count();
}
void ProgramBuilder::mma(uint8_t vd, uint8_t va, uint8_t vb, Elements depth) {
  Instruction &i = emit(Opcode::Mma);
  i.vd = vd;
  i.va = va;
  i.vb = vb;
  i.count = depth.count();
}
