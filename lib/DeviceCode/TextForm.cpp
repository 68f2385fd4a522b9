//===- TextForm.cpp - printing and parsing the device-code text form ------===//
//
// The text form is line oriented: a header line, `device`, `launch` lines (the
// launch values the code was specialized for), `symbol` lines,
// then per program a `program` line with optional `instances`, `table` and
// `row` lines followed by one instruction per line. Operands are separated
// by commas or blanks and never contain either, so the parser splits a line
// into words and reads each operand from one word; `;` starts a comment.
//
//===----------------------------------------------------------------------===//
#include "ktflow/DeviceCode/TextForm.h"

#include "ktflow/DeviceCode/Encoding.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <cstring>

using namespace ktflow;
using namespace ktflow::dc;
using llvm::StringRef;

//===----------------------------------------------------------------------===//
// Printer
//===----------------------------------------------------------------------===//

std::string dc::printNodeRef(const NodeRef &ref) {
  std::string s = "@" + ref.name;
  switch (ref.instance.kind) {
  case InstanceSelector::Kind::Nearest:
    break;
  case InstanceSelector::Kind::Absolute:
    s += "[" + std::to_string(ref.instance.value) + "]";
    break;
  case InstanceSelector::Kind::TableColumn:
    s += "[t" + std::to_string(ref.instance.value) + "]";
    break;
  }
  return s;
}

std::string dc::printAddress(const Address &a, const Bundle &bundle) {
  std::string s;
  if (a.base == Address::Base::Symbol)
    s = "$" + (a.symbol < bundle.symbols.size() ? bundle.symbols[a.symbol].name
                                                : "#" + std::to_string(a.symbol));
  else
    s = printNodeRef(a.memory);
  if (a.offset.count() > 0)
    s += "+" + std::to_string(a.offset.count());
  else if (a.offset.count() < 0)
    s += std::to_string(a.offset.count());
  if (a.tableColumn)
    s += "+t" + std::to_string(*a.tableColumn);
  for (const LoopTerm &t : a.terms) {
    if (t.modulus)
      s += llvm::formatv("+(i{0}%{1})*{2}", t.depth, t.modulus, t.stride.count()).str();
    else
      s += llvm::formatv("+i{0}*{1}", t.depth, t.stride.count()).str();
  }
  return s;
}

static std::string reg(uint8_t r) { return "v" + std::to_string(r); }

void dc::printInstruction(const Instruction &i, const Bundle &b, llvm::raw_ostream &os) {
  StringRef name = opcodeName(i.op);
  switch (i.op) {
  case Opcode::Loop:
    os << "loop " << (i.countFromTable ? "t" : "") << i.count;
    return;
  case Opcode::End:
    os << "end";
    return;
  case Opcode::Signal:
    os << "signal " << printNodeRef(i.peer) << ", " << i.sem;
    return;
  case Opcode::Wait:
    os << "wait " << i.sem << ", " << i.count;
    return;
  case Opcode::Credit:
    os << "credit " << i.sem << ", " << i.count;
    return;
  case Opcode::Copy:
  case Opcode::Gather:
  case Opcode::Scatter:
    os << opcodeName(i.op) << " " << printAddress(i.dst, b) << ", " << printAddress(i.src, b)
       << ", run " << i.bytes.count();
    for (const CopyDim &d : i.dims)
      os << ", dim " << d.count << " " << d.srcStride.count() << " " << d.dstStride.count();
    if (i.op != Opcode::Copy)
      os << ", index " << printAddress(i.index, b) << ", " << elemTypeName(i.type) << ", bound "
         << i.indexBound;
    return;
  case Opcode::Push:
    os << "push " << printNodeRef(i.peer) << ", " << printAddress(i.src, b) << ", "
       << i.bytes.count();
    return;
  case Opcode::Pop:
    os << "pop " << printNodeRef(i.peer) << ", " << printAddress(i.dst, b) << ", "
       << i.bytes.count();
    return;
  case Opcode::Recv:
    os << "recv " << reg(i.vd) << ", " << elemTypeName(i.type) << ", " << i.count << ", "
       << printNodeRef(i.peer);
    return;
  case Opcode::Send:
    os << "send " << printNodeRef(i.peer) << ", " << reg(i.va);
    return;
  case Opcode::VLoad:
    os << "vload " << reg(i.vd) << ", " << elemTypeName(i.type) << ", " << i.count << ", "
       << printAddress(i.src, b);
    return;
  case Opcode::VStore:
    os << "vstore " << printAddress(i.dst, b) << ", " << reg(i.va);
    return;
  case Opcode::VConst:
    os << "vconst " << reg(i.vd) << ", " << elemTypeName(i.type) << ", " << i.count << ", "
       << llvm::format("%.17g", i.imm);
    return;
  case Opcode::Cast:
    os << "cast " << reg(i.vd) << ", " << elemTypeName(i.type) << ", " << reg(i.va);
    return;
  case Opcode::Cmp:
    os << "cmp." << predicateName(i.predicate) << " " << reg(i.vd) << ", " << reg(i.va)
       << ", " << reg(i.vb);
    return;
  case Opcode::Select:
    os << "select " << reg(i.vd) << ", " << reg(i.vc) << ", " << reg(i.va) << ", "
       << reg(i.vb);
    return;
  case Opcode::Bcast:
    os << "bcast " << reg(i.vd) << ", " << reg(i.va) << ", " << i.lane << ", " << i.count;
    return;
  case Opcode::Slice:
    os << "slice " << reg(i.vd) << ", " << reg(i.va) << ", " << i.lane << ", " << i.count;
    return;
  case Opcode::Concat:
    os << "concat " << reg(i.vd) << ", " << reg(i.va) << ", " << reg(i.vb);
    return;
  case Opcode::Mma:
    os << "mma " << reg(i.vd) << ", " << reg(i.va) << ", " << reg(i.vb) << ", " << i.count;
    return;
  case Opcode::Reduce:
    os << "reduce." << combinerName(i.combiner) << " " << reg(i.vd) << ", " << reg(i.va);
    return;
  case Opcode::Ext:
    os << "ext " << reg(i.vd) << ", " << reg(i.va) << ", " << reg(i.vb) << ", "
       << (i.laneFromTable ? "t" : "") << i.lane;
    return;
  default:
    break;
  }
  if (i.op == Opcode::Slide)
    os << name << " " << reg(i.vd) << ", " << reg(i.va);
  else if (isBinaryArith(i.op))
    os << name << " " << reg(i.vd) << ", " << reg(i.va) << ", " << reg(i.vb);
  else if (isUnaryArith(i.op))
    os << name << " " << reg(i.vd) << ", " << reg(i.va);
  else if (isTernaryArith(i.op))
    os << name << " " << reg(i.vd) << ", " << reg(i.va) << ", " << reg(i.vb) << ", "
       << reg(i.vc);
  else
    os << "<opcode " << unsigned(i.op) << ">";
}

void dc::printBundle(const Bundle &b, llvm::raw_ostream &os) {
  os << "ktdc " << kTextVersion << "\n";
  os << "device " << (b.device.empty() ? "-" : b.device) << "\n";
  for (const LaunchValue &v : b.launchValues) {
    os << "launch " << v.name << " arg" << v.arg << " " << v.type << " ";
    if (v.bound)
      os << v.value << "\n";
    else
      os << "unbound granularity " << v.granularity << " upperbound " << v.upperbound << "\n";
  }
  for (const Symbol &s : b.symbols) {
    os << "symbol $" << s.name << " " << s.elementType << " ";
    if (s.shape.empty())
      os << "scalar";
    for (size_t d = 0; d < s.shape.size(); ++d)
      os << (d ? "x" : "") << s.shape[d];
    os << " " << (s.isInput ? (s.isOutput ? "inout" : "in") : (s.isOutput ? "out" : "none"))
       << "\n";
  }
  for (const Program &p : b.programs) {
    os << "\nprogram @" << p.unit << "\n";
    if (!p.instances.empty()) {
      os << "instances";
      for (int64_t i : p.instances)
        os << " " << i;
      os << "\n";
    }
    if (p.tableColumns) {
      os << "table " << p.tableColumns << "\n";
      for (const auto &row : p.table) {
        os << "row";
        for (int64_t v : row)
          os << " " << v;
        os << "\n";
      }
      for (const LaunchCell &cell : p.launchCells)
        os << "cell " << cell.row << " " << cell.column << " = " << cell.expr << "\n";
    }
    unsigned depth = 1;
    for (const Instruction &i : p.body) {
      if (i.op == Opcode::End && depth > 1)
        --depth;
      os.indent(2 * depth);
      printInstruction(i, b, os);
      os << "\n";
      if (i.op == Opcode::Loop)
        ++depth;
    }
  }
}

//===----------------------------------------------------------------------===//
// Parser
//===----------------------------------------------------------------------===//

namespace {

struct Word {
  StringRef text;
  size_t column; // 1-based
};

class Parser {
public:
  Parser(StringRef text, StringRef fileName) : text(text), fileName(fileName) {}

  llvm::Expected<Bundle> run() {
    llvm::SmallVector<StringRef, 0> lines;
    text.split(lines, '\n');
    bool sawHeader = false;
    Program *current = nullptr;
    // Symbol references may precede nothing: symbols come first, so a name
    // is resolved when the address is read.
    for (size_t n = 0; n < lines.size(); ++n) {
      lineNo = n + 1;
      splitWords(lines[n]);
      if (words.empty())
        continue;
      StringRef key = words[0].text;
      if (!sawHeader) {
        if (key != "ktdc" || words.size() != 2)
          return error(words[0], "expected 'ktdc VERSION' as the first line");
        int64_t version;
        if (!integer(words[1], version))
          return takeError();
        if (version != kTextVersion)
          return error(words[1], llvm::formatv("unsupported text version {0} "
                                               "(expected {1})",
                                               version, kTextVersion));
        sawHeader = true;
        continue;
      }
      if (key == "device") {
        if (words.size() != 2)
          return error(words[0], "expected 'device NAME'");
        bundle.device = words[1].text == "-" ? "" : words[1].text.str();
        continue;
      }
      if (key == "launch") {
        if (current || !bundle.symbols.empty())
          return error(words[0], "launch values must precede the symbols and programs");
        if (!launchValue())
          return takeError();
        continue;
      }
      if (key == "symbol") {
        if (current)
          return error(words[0], "symbols must precede the programs");
        if (!symbol())
          return takeError();
        continue;
      }
      if (key == "program") {
        if (words.size() != 2 || !words[1].text.starts_with("@") || words[1].text.size() < 2)
          return error(words[0], "expected 'program @UNIT'");
        bundle.programs.emplace_back();
        current = &bundle.programs.back();
        current->unit = words[1].text.drop_front().str();
        depth = 0;
        continue;
      }
      if (!current)
        return error(words[0], "expected 'symbol' or 'program'");
      if (key == "instances" || key == "table" || key == "row" || key == "cell") {
        if (!current->body.empty())
          return error(words[0], "'" + key + "' must precede the instructions");
        if (!programHeader(*current))
          return takeError();
        continue;
      }
      Instruction inst;
      if (!instruction(*current, inst))
        return takeError();
      current->body.push_back(std::move(inst));
    }
    if (!sawHeader) {
      lineNo = 1;
      return error(Word{"", 1}, "empty input: expected 'ktdc VERSION'");
    }
    if (llvm::Error e = verifyBundle(bundle, fileName))
      return std::move(e);
    return std::move(bundle);
  }

private:
  void splitWords(StringRef line) {
    words.clear();
    size_t comment = line.find(';');
    if (comment != StringRef::npos)
      line = line.take_front(comment);
    size_t i = 0;
    while (i < line.size()) {
      while (i < line.size() && (isspace((unsigned char)line[i]) || line[i] == ','))
        ++i;
      size_t start = i;
      while (i < line.size() && !isspace((unsigned char)line[i]) && line[i] != ',')
        ++i;
      if (i > start)
        words.push_back(Word{line.slice(start, i), start + 1});
    }
  }

  llvm::Error error(const Word &at, const llvm::Twine &message) {
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        llvm::formatv("{0}:{1}:{2}: {3}", fileName, lineNo, at.column, message.str())
            .str());
  }
  bool fail(const Word &at, const llvm::Twine &message) {
    if (!pending)
      pending = error(at, message);
    else
      llvm::consumeError(error(at, message));
    return false;
  }
  llvm::Error takeError() {
    if (pending)
      return std::move(*pending);
    return error(Word{"", 1}, "syntax error");
  }

  bool integer(const Word &w, int64_t &value) {
    if (w.text.getAsInteger(10, value))
      return fail(w, "expected an integer, found '" + w.text + "'");
    return true;
  }
  bool operand(size_t index, Word &w, const char *what) {
    if (index >= words.size())
      return fail(words[0], llvm::formatv("'{0}' needs {1} as operand {2}",
                                          words[0].text, what, index));
    w = words[index];
    return true;
  }
  bool expectCount(size_t count) {
    if (words.size() != count)
      return fail(words[0], llvm::formatv("'{0}' takes {1} operands, found {2}",
                                          words[0].text, count - 1, words.size() - 1));
    return true;
  }
  bool intOperand(size_t index, int64_t &value, const char *what) {
    Word w;
    return operand(index, w, what) && integer(w, value);
  }
  bool regOperand(size_t index, uint8_t &r) {
    Word w;
    if (!operand(index, w, "a register"))
      return false;
    unsigned n;
    if (!w.text.starts_with("v") || w.text.drop_front().getAsInteger(10, n) ||
        n >= kEncodableVectorRegisters)
      return fail(w, llvm::formatv("expected a register v0..v{0}, found '{1}'",
                                   kEncodableVectorRegisters - 1, w.text));
    r = uint8_t(n);
    return true;
  }
  bool typeOperand(size_t index, ElemType &type) {
    Word w;
    if (!operand(index, w, "an element type"))
      return false;
    std::optional<ElemType> t = parseElemType(w.text);
    if (!t)
      return fail(w, "expected f16, bf16 or f32, found '" + w.text + "'");
    type = *t;
    return true;
  }

  /// NAME, NAME[N] or NAME[tC] after the '@' (already dropped).
  bool nodeRefText(const Word &w, StringRef s, NodeRef &ref) {
    size_t bracket = s.find('[');
    ref.name = s.take_front(bracket).str();
    if (ref.name.empty())
      return fail(w, "expected a node name after '@'");
    if (bracket == StringRef::npos)
      return true;
    StringRef sel = s.drop_front(bracket + 1);
    if (!sel.consume_back("]"))
      return fail(w, "expected ']' after the instance");
    bool column = sel.consume_front("t");
    int64_t v;
    if (sel.getAsInteger(10, v) || v < 0)
      return fail(w, "expected an instance number or tCOLUMN in '[...]'");
    ref.instance.kind = column ? InstanceSelector::Kind::TableColumn
                               : InstanceSelector::Kind::Absolute;
    ref.instance.value = v;
    return true;
  }
  bool peerOperand(size_t index, NodeRef &ref) {
    Word w;
    if (!operand(index, w, "a unit"))
      return false;
    if (!w.text.starts_with("@"))
      return fail(w, "expected @UNIT, found '" + w.text + "'");
    return nodeRefText(w, w.text.drop_front(), ref);
  }

  bool addressOperand(size_t index, Address &a) {
    Word w;
    if (!operand(index, w, "an address"))
      return false;
    StringRef s = w.text;
    // Split the base from the terms at the first '+' or '-' outside brackets.
    size_t cut = s.find_first_of("+-");
    StringRef base = s.take_front(cut), rest = s.drop_front(std::min(cut, s.size()));
    if (base.starts_with("$")) {
      a.base = Address::Base::Symbol;
      StringRef name = base.drop_front();
      auto it = llvm::find_if(bundle.symbols, [&](const Symbol &sym) { return sym.name == name; });
      if (it == bundle.symbols.end())
        return fail(w, "unknown symbol '$" + name + "'");
      a.symbol = it - bundle.symbols.begin();
    } else if (base.starts_with("@")) {
      a.base = Address::Base::Memory;
      if (!nodeRefText(w, base.drop_front(), a.memory))
        return false;
    } else {
      return fail(w, "expected an address ($SYMBOL or @MEMORY), found '" + s + "'");
    }
    while (!rest.empty()) {
      bool negative = rest.front() == '-';
      rest = rest.drop_front();
      size_t next = 0;
      int parens = 0;
      while (next < rest.size() && !(parens == 0 && (rest[next] == '+' ||
                                                     (rest[next] == '-' && next > 0 &&
                                                      rest[next - 1] != '*'))))
        parens += rest[next] == '(' ? 1 : rest[next] == ')' ? -1 : 0, ++next;
      StringRef term = rest.take_front(next);
      rest = rest.drop_front(next);
      if (!addressTerm(w, term, negative, a))
        return false;
    }
    return true;
  }

  bool addressTerm(const Word &w, StringRef term, bool negative, Address &a) {
    int64_t v;
    // The magnitude is read unsigned so the most negative offset, which the
    // printer writes as -9223372036854775808, reads back.
    if (uint64_t magnitude; !term.getAsInteger(10, magnitude)) {
      uint64_t limit = negative ? uint64_t(INT64_MAX) + 1 : uint64_t(INT64_MAX);
      int64_t sum;
      if (magnitude > limit ||
          llvm::AddOverflow(a.offset.count(),
                            negative ? int64_t(0 - magnitude) : int64_t(magnitude), sum))
        return fail(w, "offset out of range in '" + w.text + "'");
      a.offset = Bytes(sum);
      return true;
    }
    if (negative)
      return fail(w, "only a constant offset may be subtracted in '" + w.text + "'");
    if (term.consume_front("t")) {
      if (term.getAsInteger(10, v) || v < 0)
        return fail(w, "expected tCOLUMN in '" + w.text + "'");
      if (a.tableColumn)
        return fail(w, "two table columns in one address '" + w.text + "'");
      a.tableColumn = uint32_t(v);
      return true;
    }
    LoopTerm t;
    StringRef index, stride;
    if (term.consume_front("(")) {
      auto [inner, after] = term.split(')');
      auto [idx, mod] = inner.split('%');
      index = idx;
      if (mod.getAsInteger(10, t.modulus) || t.modulus <= 0 || !after.consume_front("*"))
        return fail(w, "expected (iD%MODULUS)*STRIDE in '" + w.text + "'");
      stride = after;
    } else {
      auto [idx, str] = term.split('*');
      index = idx;
      stride = str;
    }
    int64_t depthValue, strideValue;
    if (!index.consume_front("i") || index.getAsInteger(10, depthValue) || depthValue < 0 ||
        stride.getAsInteger(10, strideValue))
      return fail(w, "expected OFFSET, tCOLUMN, iD*STRIDE or (iD%MODULUS)*STRIDE in '" +
                         w.text + "'");
    t.depth = uint32_t(depthValue);
    t.stride = Bytes(strideValue);
    a.terms.push_back(t);
    return true;
  }

  bool launchValue() {
    bool unbound = words.size() == 9 && words[4].text == "unbound";
    if (words.size() != 5 && !unbound)
      return fail(words[0], "expected 'launch NAME argN TYPE VALUE' or 'launch NAME argN TYPE "
                            "unbound granularity G upperbound U'");
    LaunchValue v;
    v.name = words[1].text.str();
    StringRef arg = words[2].text;
    if (!arg.consume_front("arg") || arg.getAsInteger(10, v.arg))
      return fail(words[2], "expected argN, the kernel argument's position");
    v.type = words[3].text.str();
    if (unbound) {
      v.bound = false;
      if (words[5].text != "granularity" || words[7].text != "upperbound")
        return fail(words[5], "expected 'granularity G upperbound U'");
      if (!intOperand(6, v.granularity, "a granularity") ||
          !intOperand(8, v.upperbound, "an upperbound"))
        return false;
      bundle.launchValues.push_back(std::move(v));
      return true;
    }
    v.value = words[4].text.str();
    if (!sameLaunchValue(v, v.value))
      return fail(words[4], "'" + words[4].text + "' is not a " + v.type + " value");
    bundle.launchValues.push_back(std::move(v));
    return true;
  }

  bool symbol() {
    if (words.size() != 5)
      return fail(words[0], "expected 'symbol $NAME TYPE SHAPE in|out|inout|none'");
    Symbol s;
    if (!words[1].text.starts_with("$") || words[1].text.size() < 2)
      return fail(words[1], "expected $NAME");
    s.name = words[1].text.drop_front().str();
    s.elementType = words[2].text.str();
    std::optional<ElementSize> size = elementSizeOf(s.elementType);
    if (!size)
      return fail(words[2], "unknown element type '" + words[2].text + "'");
    int64_t elements = 1;
    if (words[3].text != "scalar") {
      llvm::SmallVector<StringRef, 4> dims;
      words[3].text.split(dims, 'x');
      for (StringRef d : dims) {
        int64_t v;
        if (d.getAsInteger(10, v) || v < 0 || (v > 0 && elements > (int64_t(1) << 40) / v))
          return fail(words[3], "expected a shape like 64x128 or 'scalar'");
        s.shape.push_back(v);
        elements *= v;
      }
    }
    s.size = toBytes(Elements(elements), *size);
    StringRef dir = words[4].text;
    if (dir != "in" && dir != "out" && dir != "inout" && dir != "none")
      return fail(words[4], "expected in, out, inout or none");
    s.isInput = dir == "in" || dir == "inout";
    s.isOutput = dir == "out" || dir == "inout";
    bundle.symbols.push_back(std::move(s));
    return true;
  }

  bool programHeader(Program &p) {
    StringRef key = words[0].text;
    if (key == "instances") {
      if (!p.instances.empty())
        return fail(words[0], "'instances' given twice");
      for (size_t i = 1; i < words.size(); ++i) {
        int64_t v;
        if (!integer(words[i], v))
          return false;
        p.instances.push_back(v);
      }
      if (p.instances.empty())
        return fail(words[0], "'instances' lists no instance");
      return true;
    }
    if (key == "table") {
      int64_t columns;
      if (!expectCount(2) || !intOperand(1, columns, "a column count"))
        return false;
      if (columns < 1 || columns > kMaxTableColumns)
        return fail(words[1], llvm::formatv("expected 1..{0} table columns", kMaxTableColumns)
                                  .str());
      p.tableColumns = uint32_t(columns);
      return true;
    }
    if (key == "cell") {
      // cell ROW COLUMN = EXPR: the expression is the rest of the line.
      int64_t row, column;
      if (words.size() < 5 || words[3].text != "=")
        return fail(words[0], "expected 'cell ROW COLUMN = EXPR'");
      if (!intOperand(1, row, "a table row") || !intOperand(2, column, "a table column"))
        return false;
      if (row < 0 || column < 0)
        return fail(words[1], "table rows and columns count from 0");
      const char *begin = words[4].text.data(), *end = words.back().text.end();
      p.launchCells.push_back({uint32_t(row), uint32_t(column), std::string(begin, end)});
      return true;
    }
    // row
    if (p.tableColumns == 0)
      return fail(words[0], "'row' before 'table'");
    std::vector<int64_t> row;
    for (size_t i = 1; i < words.size(); ++i) {
      int64_t v;
      if (!integer(words[i], v))
        return false;
      row.push_back(v);
    }
    if (row.size() != p.tableColumns)
      return fail(words[0], llvm::formatv("row has {0} values, the table has {1} columns",
                                          row.size(), p.tableColumns));
    p.table.push_back(std::move(row));
    return true;
  }

  bool instruction(Program &p, Instruction &i) {
    StringRef mnemonic = words[0].text;
    // Named, not a structured binding: the predicate and combiner lookups
    // below capture it in lambdas.
    auto [base, dotted] = mnemonic.split('.');
    StringRef suffix = dotted;
    std::optional<Opcode> op = parseOpcode(base);
    if (!op)
      return fail(words[0], "unknown instruction '" + mnemonic + "'");
    if (!suffix.empty() && *op != Opcode::Cmp && *op != Opcode::Reduce)
      return fail(words[0], "unknown instruction '" + mnemonic + "'");
    i.op = *op;
    switch (*op) {
    case Opcode::Loop:
      if (!expectCount(2))
        return false;
      // `loop tN`: the trip count is table column N (a launch-table entry).
      if (words[1].text.starts_with("t")) {
        if (words[1].text.drop_front().getAsInteger(10, i.count) || i.count < 0)
          return fail(words[1], "expected a trip count or a table column tN");
        i.countFromTable = true;
      } else if (!intOperand(1, i.count, "a trip count")) {
        return false;
      }
      ++depth;
      return true;
    case Opcode::End:
      if (depth == 0)
        return fail(words[0], "'end' without 'loop'");
      --depth;
      return expectCount(1);
    case Opcode::Signal: {
      int64_t sem;
      if (!expectCount(3) || !peerOperand(1, i.peer) || !intOperand(2, sem, "a semaphore"))
        return false;
      if (sem < 0 || sem >= kEncodableSemaphores)
        return fail(words[2], llvm::formatv("semaphores are 0..{0}", kEncodableSemaphores - 1));
      i.sem = uint32_t(sem);
      return true;
    }
    case Opcode::Wait:
    case Opcode::Credit: {
      int64_t sem;
      if (!expectCount(3) || !intOperand(1, sem, "a semaphore") ||
          !intOperand(2, i.count, "a count"))
        return false;
      if (sem < 0 || sem >= kEncodableSemaphores)
        return fail(words[1], llvm::formatv("semaphores are 0..{0}", kEncodableSemaphores - 1));
      i.sem = uint32_t(sem);
      return true;
    }
    case Opcode::Copy:
    case Opcode::Gather:
    case Opcode::Scatter: {
      int64_t run;
      // A gather or scatter ends in `index ADDR, TYPE, bound N` (five words).
      size_t tail = i.op == Opcode::Copy ? 0 : 5;
      if (words.size() < 5 + tail || (words.size() - 5 - tail) % 4 != 0)
        return fail(words[0], i.op == Opcode::Copy
                                  ? "expected 'copy DST, SRC, run BYTES[, dim COUNT SRCSTRIDE "
                                    "DSTSTRIDE]...'"
                                  : "expected '" + opcodeName(i.op) +
                                        " DST, SRC, run BYTES, dim COUNT SRCSTRIDE "
                                        "DSTSTRIDE[, dim ...]..., index ADDR, TYPE, bound N'");
      if (tail) {
        size_t at = words.size() - tail;
        if (words[at].text != "index")
          return fail(words[at], "expected 'index'");
        if (!addressOperand(at + 1, i.index) || !typeOperand(at + 2, i.type))
          return false;
        if (words[at + 3].text != "bound")
          return fail(words[at + 3], "expected 'bound'");
        if (!intOperand(at + 4, i.indexBound, "an index bound"))
          return false;
      }
      if (!addressOperand(1, i.dst) || !addressOperand(2, i.src))
        return false;
      if (words[3].text != "run")
        return fail(words[3], "expected 'run'");
      if (!intOperand(4, run, "a run size"))
        return false;
      i.bytes = Bytes(run);
      for (size_t k = 5; k + tail < words.size(); k += 4) {
        if (words[k].text != "dim")
          return fail(words[k], "expected 'dim'");
        CopyDim d;
        int64_t s, t;
        if (!intOperand(k + 1, d.count, "a count") || !intOperand(k + 2, s, "a stride") ||
            !intOperand(k + 3, t, "a stride"))
          return false;
        d.srcStride = Bytes(s);
        d.dstStride = Bytes(t);
        i.dims.push_back(d);
      }
      return true;
    }
    case Opcode::Push:
    case Opcode::Pop: {
      int64_t bytes;
      if (!expectCount(4) || !peerOperand(1, i.peer) ||
          !addressOperand(2, *op == Opcode::Push ? i.src : i.dst) ||
          !intOperand(3, bytes, "a byte count"))
        return false;
      i.bytes = Bytes(bytes);
      return true;
    }
    case Opcode::Recv:
      return expectCount(5) && regOperand(1, i.vd) && typeOperand(2, i.type) &&
             intOperand(3, i.count, "an element count") && peerOperand(4, i.peer);
    case Opcode::Send:
      return expectCount(3) && peerOperand(1, i.peer) && regOperand(2, i.va);
    case Opcode::VLoad:
      return expectCount(5) && regOperand(1, i.vd) && typeOperand(2, i.type) &&
             intOperand(3, i.count, "an element count") && addressOperand(4, i.src);
    case Opcode::VStore:
      return expectCount(3) && addressOperand(1, i.dst) && regOperand(2, i.va);
    case Opcode::VConst: {
      if (!expectCount(5) || !regOperand(1, i.vd) || !typeOperand(2, i.type) ||
          !intOperand(3, i.count, "an element count"))
        return false;
      if (words[4].text.getAsDouble(i.imm))
        return fail(words[4], "expected a number, found '" + words[4].text + "'");
      return true;
    }
    case Opcode::Cast:
      return expectCount(4) && regOperand(1, i.vd) && typeOperand(2, i.type) &&
             regOperand(3, i.va);
    case Opcode::Cmp: {
      static const CmpPredicate all[] = {CmpPredicate::Lt, CmpPredicate::Le,
                                         CmpPredicate::Gt, CmpPredicate::Ge,
                                         CmpPredicate::Eq, CmpPredicate::Ne};
      auto it = llvm::find_if(all, [&](CmpPredicate p) { return predicateName(p) == suffix; });
      if (it == std::end(all))
        return fail(words[0], "expected cmp.lt|le|gt|ge|eq|ne");
      i.predicate = *it;
      return expectCount(4) && regOperand(1, i.vd) && regOperand(2, i.va) &&
             regOperand(3, i.vb);
    }
    case Opcode::Select:
      return expectCount(5) && regOperand(1, i.vd) && regOperand(2, i.vc) &&
             regOperand(3, i.va) && regOperand(4, i.vb);
    case Opcode::Bcast:
    case Opcode::Slice:
      return expectCount(5) && regOperand(1, i.vd) && regOperand(2, i.va) &&
             intOperand(3, i.lane, "a lane") && intOperand(4, i.count, "an element count");
    case Opcode::Ext: {
      if (!expectCount(5) || !regOperand(1, i.vd) || !regOperand(2, i.va) ||
          !regOperand(3, i.vb))
        return false;
      // A lane, or tCOLUMN: the lane is in that column of the instance's row.
      Word w = words[4];
      StringRef lane = w.text;
      i.laneFromTable = lane.consume_front("t");
      if (lane.getAsInteger(10, i.lane) || i.lane < 0)
        return fail(w, "expected a lane or tCOLUMN, found '" + w.text + "'");
      return true;
    }
    case Opcode::Concat:
      return expectCount(4) && regOperand(1, i.vd) && regOperand(2, i.va) &&
             regOperand(3, i.vb);
    case Opcode::Mma:
      return expectCount(5) && regOperand(1, i.vd) && regOperand(2, i.va) &&
             regOperand(3, i.vb) && intOperand(4, i.count, "a depth");
    case Opcode::Reduce: {
      static const Combiner all[] = {Combiner::Add, Combiner::Max, Combiner::Min};
      auto it = llvm::find_if(all, [&](Combiner c) { return combinerName(c) == suffix; });
      if (it == std::end(all))
        return fail(words[0], "expected reduce.add|max|min");
      i.combiner = *it;
      return expectCount(3) && regOperand(1, i.vd) && regOperand(2, i.va);
    }
    default:
      break;
    }
    if (isBinaryArith(*op))
      return expectCount(4) && regOperand(1, i.vd) && regOperand(2, i.va) &&
             regOperand(3, i.vb);
    if (isTernaryArith(*op))
      return expectCount(5) && regOperand(1, i.vd) && regOperand(2, i.va) &&
             regOperand(3, i.vb) && regOperand(4, i.vc);
    return expectCount(3) && regOperand(1, i.vd) && regOperand(2, i.va);
  }

  StringRef text, fileName;
  Bundle bundle;
  llvm::SmallVector<Word, 16> words;
  size_t lineNo = 0;
  unsigned depth = 0;
  std::optional<llvm::Error> pending;
};

} // namespace

llvm::Expected<Bundle> dc::parseBundleText(StringRef text, StringRef fileName) {
  Parser parser(text, fileName);
  return parser.run();
}

llvm::Expected<Bundle> dc::loadBundleFile(StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(path, /*IsText=*/false);
  if (!buffer)
    return llvm::createStringError(buffer.getError(),
                                   path + ": " + buffer.getError().message());
  StringRef data = (*buffer)->getBuffer();
  uint32_t magic = 0;
  if (data.size() >= 4)
    std::memcpy(&magic, data.data(), 4);
  if (magic == kBundleMagic || data.starts_with("KT"))
    return decodeBundle(
        llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(data.data()), data.size()),
        path);
  return parseBundleText(data, path);
}
