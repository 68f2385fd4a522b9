//===- Encoding.cpp - binary bundle writer and checked reader -------------===//
//
// One field list per structure serves both directions: `transfer` functions
// take an archive that either writes a field or reads it, so the writer and
// the reader cannot disagree about the layout. The reader checks every read
// against the end of its section and records the first failure with its
// byte offset; after a failure reads return zeros, and the caller reports
// the error instead of using the result. The decoded bundle then goes
// through verifyBundle, which checks operand ranges.
//
//===----------------------------------------------------------------------===//
#include "ktflow/DeviceCode/Encoding.h"
#include "ktflow/DeviceCode/LaunchTable.h"

#include "llvm/Support/FileOutputBuffer.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstring>

using namespace ktflow;
using namespace ktflow::dc;
using llvm::StringRef;

namespace {

/// Upper bounds on element counts read from a file, so that a corrupt count
/// fails cleanly instead of allocating gigabytes. They bound the encoding,
/// not any device.
constexpr uint64_t kMaxListLength = uint64_t(1) << 26;

class Writer {
public:
  static constexpr bool reading = false;
  std::vector<uint8_t> out;
  uint32_t version = kBundleVersion;

  void u8(uint8_t &v) { out.push_back(v); }
  void u32(uint32_t &v) { raw(&v, 4); }
  void u64(uint64_t &v) { raw(&v, 8); }
  void i64(int64_t &v) { raw(&v, 8); }
  void f64(double &v) { raw(&v, 8); }
  void str(std::string &s) {
    uint32_t n = s.size();
    u32(n);
    out.insert(out.end(), s.begin(), s.end());
  }
  /// Writes the length of a list; the caller then transfers its elements.
  template <typename List>
  bool length(List &list) {
    uint32_t n = list.size();
    u32(n);
    return true;
  }
  bool ok() const { return true; }

private:
  void raw(const void *p, size_t n) {
    const uint8_t *b = static_cast<const uint8_t *>(p);
    out.insert(out.end(), b, b + n); // the format is little endian, as is the host
  }
};

class Reader {
public:
  static constexpr bool reading = true;
  Reader(llvm::ArrayRef<uint8_t> bytes, size_t base, uint32_t version = kBundleVersion)
      : version(version), bytes(bytes), base(base) {}
  uint32_t version;

  void u8(uint8_t &v) { raw(&v, 1); }
  void u32(uint32_t &v) { raw(&v, 4); }
  void u64(uint64_t &v) { raw(&v, 8); }
  void i64(int64_t &v) { raw(&v, 8); }
  void f64(double &v) { raw(&v, 8); }
  void str(std::string &s) {
    uint32_t n = 0;
    u32(n);
    if (!need(n, "string"))
      return;
    s.assign(reinterpret_cast<const char *>(bytes.data() + pos), n);
    pos += n;
  }
  template <typename List>
  bool length(List &list) {
    uint32_t n = 0;
    u32(n);
    if (failed)
      return false;
    // Every element takes at least one byte: a longer list cannot fit.
    if (n > kMaxListLength || n > bytes.size() - pos) {
      fail(llvm::formatv("list of {0} entries does not fit", n).str());
      return false;
    }
    list.resize(n);
    return true;
  }
  bool ok() const { return !failed; }
  void fail(const std::string &message) {
    if (failed)
      return;
    failed = true;
    error = llvm::formatv("at byte {0}: {1}", base + pos, message).str();
  }
  bool atEnd() const { return pos == bytes.size(); }

  std::string error;

private:
  bool need(size_t n, const char *what) {
    if (failed)
      return false;
    if (n > bytes.size() - pos) {
      fail(llvm::formatv("truncated {0} ({1} bytes needed, {2} left)", what, n,
                         bytes.size() - pos)
               .str());
      return false;
    }
    return true;
  }
  void raw(void *p, size_t n) {
    if (!need(n, "field")) {
      std::memset(p, 0, n);
      return;
    }
    std::memcpy(p, bytes.data() + pos, n);
    pos += n;
  }

  llvm::ArrayRef<uint8_t> bytes;
  size_t base;
  size_t pos = 0;
  bool failed = false;
};

template <typename IO, typename E>
void enumField(IO &io, E &value) {
  uint8_t v = uint8_t(value);
  io.u8(v);
  value = E(v);
}

template <typename IO>
void bytesField(IO &io, Bytes &b) {
  int64_t v = b.count();
  io.i64(v);
  b = Bytes(v);
}

template <typename IO>
void transfer(IO &io, NodeRef &ref) {
  io.str(ref.name);
  enumField(io, ref.instance.kind);
  io.i64(ref.instance.value);
}

template <typename IO>
void transfer(IO &io, Address &a) {
  enumField(io, a.base);
  if (a.base == Address::Base::Symbol)
    io.u32(a.symbol);
  else
    transfer(io, a.memory);
  bytesField(io, a.offset);
  uint8_t hasColumn = a.tableColumn.has_value();
  io.u8(hasColumn);
  uint32_t column = a.tableColumn.value_or(0);
  if (hasColumn)
    io.u32(column);
  a.tableColumn = hasColumn ? std::optional<uint32_t>(column) : std::nullopt;
  if (!io.length(a.terms))
    return;
  for (LoopTerm &t : a.terms) {
    io.u32(t.depth);
    bytesField(io, t.stride);
    io.i64(t.modulus);
  }
}

template <typename IO>
void transfer(IO &io, Instruction &inst) {
  enumField(io, inst.op);
  switch (inst.op) {
  case Opcode::Loop: {
    io.i64(inst.count);
    // Version 3: the count may be a table column (a launch-table entry).
    uint8_t fromTable = inst.countFromTable;
    if (io.version >= 3)
      io.u8(fromTable);
    if constexpr (IO::reading)
      if (fromTable > 1)
        io.fail("unknown loop flags");
    inst.countFromTable = fromTable;
    return;
  }
  case Opcode::End:
    return;
  case Opcode::Signal:
    transfer(io, inst.peer);
    io.u32(inst.sem);
    return;
  case Opcode::Wait:
  case Opcode::Credit:
    io.u32(inst.sem);
    io.i64(inst.count);
    return;
  case Opcode::Copy:
  case Opcode::Gather:
  case Opcode::Scatter:
    transfer(io, inst.dst);
    transfer(io, inst.src);
    bytesField(io, inst.bytes);
    if (!io.length(inst.dims))
      return;
    for (CopyDim &d : inst.dims) {
      io.i64(d.count);
      bytesField(io, d.srcStride);
      bytesField(io, d.dstStride);
    }
    if (inst.op == Opcode::Gather || inst.op == Opcode::Scatter) {
      transfer(io, inst.index);
      enumField(io, inst.type);
      io.i64(inst.indexBound);
    }
    return;
  case Opcode::Push:
    transfer(io, inst.peer);
    transfer(io, inst.src);
    bytesField(io, inst.bytes);
    return;
  case Opcode::Pop:
    transfer(io, inst.peer);
    transfer(io, inst.dst);
    bytesField(io, inst.bytes);
    return;
  case Opcode::Recv:
    io.u8(inst.vd);
    enumField(io, inst.type);
    io.i64(inst.count);
    transfer(io, inst.peer);
    return;
  case Opcode::Send:
    transfer(io, inst.peer);
    io.u8(inst.va);
    return;
  case Opcode::VLoad:
    io.u8(inst.vd);
    enumField(io, inst.type);
    io.i64(inst.count);
    transfer(io, inst.src);
    return;
  case Opcode::VStore:
    transfer(io, inst.dst);
    io.u8(inst.va);
    return;
  case Opcode::VConst:
    io.u8(inst.vd);
    enumField(io, inst.type);
    io.i64(inst.count);
    io.f64(inst.imm);
    return;
  case Opcode::Add:
  case Opcode::Sub:
  case Opcode::Mul:
  case Opcode::Div:
  case Opcode::Max:
  case Opcode::Min:
  case Opcode::Pow:
  case Opcode::Concat:
    io.u8(inst.vd);
    io.u8(inst.va);
    io.u8(inst.vb);
    return;
  case Opcode::Fma:
    io.u8(inst.vd);
    io.u8(inst.va);
    io.u8(inst.vb);
    io.u8(inst.vc);
    return;
  case Opcode::Neg:
  case Opcode::Abs:
  case Opcode::Exp:
  case Opcode::Mov:
  case Opcode::Sqrt:
  case Opcode::Rsqrt:
  case Opcode::Log:
  case Opcode::Tanh:
  case Opcode::Erf:
  case Opcode::Slide:
    io.u8(inst.vd);
    io.u8(inst.va);
    return;
  case Opcode::Cast:
    io.u8(inst.vd);
    enumField(io, inst.type);
    io.u8(inst.va);
    return;
  case Opcode::Cmp:
    enumField(io, inst.predicate);
    io.u8(inst.vd);
    io.u8(inst.va);
    io.u8(inst.vb);
    return;
  case Opcode::Select:
    io.u8(inst.vd);
    io.u8(inst.vc);
    io.u8(inst.va);
    io.u8(inst.vb);
    return;
  case Opcode::Bcast:
  case Opcode::Slice:
    io.u8(inst.vd);
    io.u8(inst.va);
    io.i64(inst.lane);
    io.i64(inst.count);
    return;
  case Opcode::Mma:
    io.u8(inst.vd);
    io.u8(inst.va);
    io.u8(inst.vb);
    io.i64(inst.count);
    return;
  case Opcode::Reduce:
    enumField(io, inst.combiner);
    io.u8(inst.vd);
    io.u8(inst.va);
    return;
  case Opcode::Ext: {
    io.u8(inst.vd);
    io.u8(inst.va);
    io.u8(inst.vb);
    // Lane kind (0 immediate, 1 table column), then the lane or column.
    uint8_t kind = inst.laneFromTable ? 1 : 0;
    io.u8(kind);
    if constexpr (IO::reading)
      if (kind > 1)
        io.fail(llvm::formatv("unknown lane kind {0}", unsigned(kind)).str());
    inst.laneFromTable = kind == 1;
    io.i64(inst.lane);
    return;
  }
  }
  if constexpr (IO::reading)
    io.fail(llvm::formatv("unknown opcode {0}", unsigned(inst.op)).str());
}

template <typename IO>
void transfer(IO &io, LaunchValue &v) {
  io.str(v.name);
  io.u32(v.arg);
  io.str(v.type);
  io.str(v.value);
  // Version 3: an unbound value, with the guarantees of its runtime_arg.
  uint8_t unbound = !v.bound;
  if (io.version >= 3) {
    io.u8(unbound);
    io.i64(v.granularity);
    io.i64(v.upperbound);
  }
  if constexpr (IO::reading)
    if (unbound > 1)
      io.fail("unknown launch-value flags");
  v.bound = !unbound;
}

template <typename IO>
void transfer(IO &io, Symbol &s) {
  io.str(s.name);
  io.str(s.elementType);
  if (io.length(s.shape))
    for (int64_t &d : s.shape)
      io.i64(d);
  bytesField(io, s.size);
  uint8_t flags = (s.isInput ? 1 : 0) | (s.isOutput ? 2 : 0);
  io.u8(flags);
  if constexpr (IO::reading)
    if (flags & ~3u)
      io.fail("unknown symbol flags");
  s.isInput = flags & 1;
  s.isOutput = flags & 2;
}

template <typename IO>
void transfer(IO &io, Program &p) {
  io.str(p.unit);
  if (io.length(p.instances))
    for (int64_t &i : p.instances)
      io.i64(i);
  io.u32(p.tableColumns);
  if (io.length(p.table))
    for (auto &row : p.table) {
      if (!io.length(row))
        return;
      for (int64_t &v : row)
        io.i64(v);
    }
  // Version 3: the launch-table cells.
  if (io.version >= 3 && io.length(p.launchCells))
    for (LaunchCell &cell : p.launchCells) {
      io.u32(cell.row);
      io.u32(cell.column);
      io.str(cell.expr);
    }
  if (io.length(p.body))
    for (Instruction &inst : p.body) {
      if (!io.ok())
        return;
      transfer(io, inst);
    }
}

void putU32(std::vector<uint8_t> &out, uint32_t v) {
  for (int i = 0; i < 4; ++i)
    out.push_back(uint8_t(v >> (8 * i)));
}

void appendSection(std::vector<uint8_t> &out, SectionKind kind,
                   const std::vector<uint8_t> &payload) {
  putU32(out, uint32_t(kind));
  uint64_t n = payload.size();
  for (int i = 0; i < 8; ++i)
    out.push_back(uint8_t(n >> (8 * i)));
  out.insert(out.end(), payload.begin(), payload.end());
}

} // namespace

std::vector<uint8_t> dc::encodeBundle(const Bundle &input) {
  Bundle bundle = input; // transfer() takes non-const references
  std::vector<uint8_t> out;
  uint32_t version = versionNeeded(bundle);
  putU32(out, kBundleMagic);
  putU32(out, version);
  putU32(out, uint32_t(3 + bundle.programs.size()));
  {
    Writer w;
    w.version = version;
    w.str(bundle.device);
    appendSection(out, SectionKind::Device, w.out);
  }
  {
    Writer w;
    w.version = version;
    if (w.length(bundle.symbols))
      for (Symbol &s : bundle.symbols)
        transfer(w, s);
    appendSection(out, SectionKind::Symbols, w.out);
  }
  {
    Writer w;
    w.version = version;
    if (w.length(bundle.launchValues))
      for (LaunchValue &v : bundle.launchValues)
        transfer(w, v);
    appendSection(out, SectionKind::LaunchValues, w.out);
  }
  for (Program &p : bundle.programs) {
    Writer w;
    w.version = version;
    transfer(w, p);
    appendSection(out, SectionKind::Program, w.out);
  }
  return out;
}

static llvm::Error decodeError(StringRef name, const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 (name + ": " + message).str());
}

uint32_t dc::versionNeeded(const Bundle &bundle) {
  bool launchTable = hasUnboundLaunchValues(bundle) ||
                     llvm::any_of(bundle.programs, [](const Program &p) {
                       return !p.launchCells.empty() ||
                              llvm::any_of(p.body, [](const Instruction &i) {
                                return i.op == Opcode::Loop && i.countFromTable;
                              });
                     });
  bool matrix = llvm::any_of(bundle.programs, [](const Program &p) {
    return llvm::any_of(p.body, [](const Instruction &i) { return isMatrixArith(i.op); });
  });
  // A gather's indices are an integer type: holdsIntegerType makes it 5.
  bool integers = llvm::any_of(bundle.programs, [](const Program &p) {
    return llvm::any_of(p.body, holdsIntegerType);
  });
  bool scatters = llvm::any_of(bundle.programs, [](const Program &p) {
    return llvm::any_of(p.body, [](const Instruction &i) { return i.op == Opcode::Scatter; });
  });
  return scatters ? 6 : integers ? 5 : matrix ? 4 : launchTable ? 3 : 2;
}

bool dc::holdsIntegerType(const Instruction &inst) {
  switch (inst.op) {
  case Opcode::Gather:
  case Opcode::Scatter:
  case Opcode::Recv:
  case Opcode::VLoad:
  case Opcode::VConst:
  case Opcode::Cast:
    return isIntegerType(inst.type);
  default:
    return false;
  }
}

uint32_t dc::firstVersionWith(Opcode op) {
  switch (op) {
  case Opcode::Pow:
  case Opcode::Fma:
  case Opcode::Sqrt:
  case Opcode::Rsqrt:
  case Opcode::Log:
  case Opcode::Tanh:
  case Opcode::Erf:
    return 2;
  case Opcode::Mma:
    return 4;
  case Opcode::Gather:
    return 5;
  case Opcode::Scatter:
    return 6;
  default:
    return 1;
  }
}

llvm::Expected<Bundle> dc::decodeBundle(llvm::ArrayRef<uint8_t> bytes, StringRef name) {
  Reader header(bytes.take_front(std::min<size_t>(bytes.size(), 12)), 0);
  uint32_t magic = 0, version = 0, sections = 0;
  header.u32(magic);
  if (!header.ok() || magic != kBundleMagic)
    return decodeError(name, "not a ktflow device-code bundle (bad magic)");
  header.u32(version);
  header.u32(sections);
  if (!header.ok())
    return decodeError(name, "truncated header");
  if (version < kOldestBundleVersion || version > kBundleVersion)
    return decodeError(name, llvm::formatv("unsupported bundle version {0} "
                                           "(this ktflow reads versions {1} to {2})",
                                           version, kOldestBundleVersion, kBundleVersion));
  Bundle bundle;
  bool sawDevice = false, sawSymbols = false, sawLaunchValues = false;
  size_t pos = 12;
  for (uint32_t s = 0; s < sections; ++s) {
    if (bytes.size() - pos < 12)
      return decodeError(name, llvm::formatv("at byte {0}: truncated header of "
                                             "section {1} of {2}",
                                             pos, s, sections));
    uint32_t kind = 0;
    uint64_t length = 0;
    std::memcpy(&kind, bytes.data() + pos, 4);
    std::memcpy(&length, bytes.data() + pos + 4, 8);
    pos += 12;
    if (length > bytes.size() - pos)
      return decodeError(name, llvm::formatv("at byte {0}: section {1} claims {2} "
                                             "bytes but {3} remain",
                                             pos, s, length, bytes.size() - pos));
    Reader r(bytes.slice(pos, length), pos, version);
    switch (SectionKind(kind)) {
    case SectionKind::Device:
      if (sawDevice)
        return decodeError(name, "two device sections");
      sawDevice = true;
      r.str(bundle.device);
      break;
    case SectionKind::Symbols:
      if (sawSymbols)
        return decodeError(name, "two symbol sections");
      sawSymbols = true;
      if (r.length(bundle.symbols))
        for (Symbol &sym : bundle.symbols) {
          if (!r.ok())
            break;
          transfer(r, sym);
        }
      break;
    case SectionKind::LaunchValues:
      if (version < 2)
        return decodeError(name, llvm::formatv("at byte {0}: a launch-values section in a "
                                               "version {1} bundle",
                                               pos - 12, version));
      if (sawLaunchValues)
        return decodeError(name, "two launch-values sections");
      if (!sawSymbols || !bundle.programs.empty())
        return decodeError(name, "the launch-values section must follow the symbols and "
                                 "precede the programs");
      sawLaunchValues = true;
      if (r.length(bundle.launchValues))
        for (LaunchValue &v : bundle.launchValues) {
          if (!r.ok())
            break;
          transfer(r, v);
        }
      break;
    case SectionKind::Program:
      if (!sawSymbols)
        return decodeError(name, "program section before the symbol section");
      if (version >= 2 && !sawLaunchValues)
        return decodeError(name, "program section before the launch-values section");
      bundle.programs.emplace_back();
      transfer(r, bundle.programs.back());
      break;
    default:
      return decodeError(name, llvm::formatv("at byte {0}: unknown section kind {1}",
                                             pos - 12, kind));
    }
    if (!r.ok())
      return decodeError(name, r.error);
    if (!r.atEnd())
      r.fail("section has trailing bytes");
    if (!r.ok())
      return decodeError(name, r.error);
    pos += length;
  }
  if (pos != bytes.size())
    return decodeError(name, llvm::formatv("{0} unexpected bytes after the last "
                                           "section",
                                           bytes.size() - pos));
  if (!sawDevice || !sawSymbols)
    return decodeError(name, "missing device or symbol section");
  if (version >= 2 && !sawLaunchValues)
    return decodeError(name, "missing launch-values section");
  // An older bundle cannot hold an instruction its version did not have.
  for (const Program &p : bundle.programs)
    for (const Instruction &inst : p.body)
      if (firstVersionWith(inst.op) > version)
        return decodeError(name, llvm::formatv("program @{0}: '{1}' needs bundle version "
                                               "{2}, the bundle is version {3}",
                                               p.unit, opcodeName(inst.op),
                                               firstVersionWith(inst.op), version));
      else if (version < 5 && holdsIntegerType(inst))
        return decodeError(name, llvm::formatv("program @{0}: '{1}' of {2} needs bundle "
                                               "version 5, the bundle is version {3}",
                                               p.unit, opcodeName(inst.op),
                                               elemTypeName(inst.type), version));
  if (llvm::Error e = verifyBundle(bundle, name))
    return std::move(e);
  return bundle;
}

llvm::Expected<Bundle> dc::readBundleFile(StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(path, /*IsText=*/false);
  if (!buffer)
    return decodeError(path, buffer.getError().message());
  StringRef data = (*buffer)->getBuffer();
  return decodeBundle(
      llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(data.data()), data.size()),
      path);
}

llvm::Error dc::writeBundleFile(StringRef path, const Bundle &bundle) {
  std::vector<uint8_t> bytes = encodeBundle(bundle);
  auto file = llvm::FileOutputBuffer::create(path, bytes.size());
  if (!file)
    return decodeError(path, llvm::toString(file.takeError()));
  std::memcpy((*file)->getBufferStart(), bytes.data(), bytes.size());
  if (llvm::Error e = (*file)->commit())
    return decodeError(path, llvm::toString(std::move(e)));
  return llvm::Error::success();
}
