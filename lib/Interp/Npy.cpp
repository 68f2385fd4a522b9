//===- Npy.cpp - NumPy .npy reader and writer -----------------------------===//
//
// The header is a Python dict literal; only the three keys NumPy writes are
// parsed ('descr', 'fortran_order', 'shape'), with a tolerant scanner rather
// than a Python parser. Fortran order and big-endian data are rejected with
// a message instead of being converted.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Interp/Npy.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace ktflow;
using namespace ktflow::interp;

const char *interp::npyDtypeOf(ElemKind k) {
  switch (k) {
  case ElemKind::I1:
    return "b1";
  case ElemKind::I8:
    return "i1";
  case ElemKind::I16:
    return "i2";
  case ElemKind::I32:
    return "i4";
  case ElemKind::I64:
  case ElemKind::Index:
    return "i8";
  case ElemKind::F16:
    return "f2";
  case ElemKind::BF16:
    return "u2"; // raw bfloat16 bits: NumPy has no bfloat16
  case ElemKind::F32:
    return "f4";
  case ElemKind::F64:
    return "f8";
  }
  return "?";
}

static llvm::Error npyError(llvm::StringRef name, const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 (name + ": " + msg).str());
}

/// Finds `'key':` in the header dict and returns the text after the colon.
static std::optional<llvm::StringRef> findKey(llvm::StringRef header,
                                              llvm::StringRef key) {
  for (char quote : {'\'', '"'}) {
    std::string pattern = std::string(1, quote) + key.str() + quote;
    size_t pos = header.find(pattern);
    if (pos == llvm::StringRef::npos)
      continue;
    llvm::StringRef rest = header.drop_front(pos + pattern.size()).ltrim();
    if (!rest.consume_front(":"))
      return std::nullopt;
    return rest.ltrim();
  }
  return std::nullopt;
}

llvm::Expected<NpyArray> interp::parseNpy(llvm::ArrayRef<uint8_t> bytes,
                                          llvm::StringRef name) {
  static const char magic[] = "\x93NUMPY";
  if (bytes.size() < 10 || std::memcmp(bytes.data(), magic, 6) != 0)
    return npyError(name, "not a .npy file (bad magic)");
  unsigned major = bytes[6];
  size_t headerLen, headerStart;
  if (major == 1) {
    headerLen = bytes[8] | (size_t(bytes[9]) << 8);
    headerStart = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12)
      return npyError(name, "truncated .npy header");
    headerLen = bytes[8] | (size_t(bytes[9]) << 8) | (size_t(bytes[10]) << 16) |
                (size_t(bytes[11]) << 24);
    headerStart = 12;
  } else {
    return npyError(name, "unsupported .npy version " + llvm::Twine(major));
  }
  if (headerStart + headerLen > bytes.size())
    return npyError(name, "truncated .npy header");
  llvm::StringRef header(reinterpret_cast<const char *>(bytes.data()) + headerStart,
                         headerLen);
  NpyArray array;

  auto descr = findKey(header, "descr");
  if (!descr || descr->empty() || ((*descr)[0] != '\'' && (*descr)[0] != '"'))
    return npyError(name, "header has no 'descr'");
  char quote = (*descr)[0];
  llvm::StringRef d = descr->drop_front();
  d = d.take_until([&](char c) { return c == quote; });
  if (d.empty())
    return npyError(name, "empty dtype");
  char order = d[0];
  if (order == '<' || order == '|' || order == '=')
    d = d.drop_front();
  else if (order == '>') {
    if (d.size() >= 3 && d.drop_front().ends_with("1"))
      d = d.drop_front();
    else
      return npyError(name, "big-endian data ('" + d + "') is not supported");
  }
  array.dtype = d.str();
  if (array.dtype == "u1")
    array.dtype = "u1";

  auto fortran = findKey(header, "fortran_order");
  if (fortran && fortran->starts_with("True"))
    return npyError(name, "Fortran-order arrays are not supported; save in C order");

  auto shapeText = findKey(header, "shape");
  if (!shapeText || !shapeText->starts_with("("))
    return npyError(name, "header has no 'shape'");
  llvm::StringRef dims = shapeText->drop_front().take_until([](char c) { return c == ')'; });
  llvm::SmallVector<llvm::StringRef> parts;
  dims.split(parts, ',');
  for (llvm::StringRef p : parts) {
    p = p.trim();
    if (p.empty())
      continue;
    int64_t v;
    if (p.getAsInteger(10, v) || v < 0)
      return npyError(name, "bad shape entry '" + p + "'");
    array.shape.push_back(v);
  }

  size_t elemBytes = 0;
  if (array.dtype.size() >= 2 && llvm::StringRef(array.dtype).drop_front().getAsInteger(10, elemBytes))
    return npyError(name, "unsupported dtype '" + array.dtype + "'");
  if (elemBytes == 0)
    return npyError(name, "unsupported dtype '" + array.dtype + "'");
  int64_t count = 1;
  for (int64_t v : array.shape)
    count *= v;
  size_t dataStart = headerStart + headerLen;
  size_t need = size_t(count) * elemBytes;
  if (bytes.size() - dataStart < need)
    return npyError(name, "file holds " + llvm::Twine(bytes.size() - dataStart) +
                              " data bytes, shape and dtype need " + llvm::Twine(need));
  array.data.assign(bytes.begin() + dataStart, bytes.begin() + dataStart + need);
  return array;
}

llvm::Expected<NpyArray> interp::readNpy(llvm::StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return npyError(path, "cannot read: " + buffer.getError().message());
  llvm::ArrayRef<uint8_t> bytes(
      reinterpret_cast<const uint8_t *>((*buffer)->getBufferStart()),
      (*buffer)->getBufferSize());
  return parseNpy(bytes, path);
}

std::vector<uint8_t> interp::serializeNpy(const NpyArray &array) {
  std::string dict = "{'descr': '";
  dict += (array.dtype == "b1" || array.dtype == "i1" || array.dtype == "u1") ? "|" : "<";
  dict += array.dtype + "', 'fortran_order': False, 'shape': (";
  for (size_t i = 0; i < array.shape.size(); ++i)
    dict += std::to_string(array.shape[i]) + (array.shape.size() == 1 || i + 1 < array.shape.size() ? "," : "") +
            (i + 1 < array.shape.size() ? " " : "");
  dict += "), }";
  // Pad with spaces and a newline so that the data starts 64-byte aligned.
  bool v2 = dict.size() + 1 + 10 > 65535;
  size_t prefix = v2 ? 12 : 10;
  size_t total = prefix + dict.size() + 1;
  size_t padded = (total + 63) / 64 * 64;
  dict.append(padded - total, ' ');
  dict += '\n';
  std::vector<uint8_t> out;
  out.reserve(padded + array.data.size());
  const char magic[] = "\x93NUMPY";
  out.insert(out.end(), magic, magic + 6);
  out.push_back(v2 ? 2 : 1);
  out.push_back(0);
  size_t len = dict.size();
  out.push_back(len & 0xff);
  out.push_back((len >> 8) & 0xff);
  if (v2) {
    out.push_back((len >> 16) & 0xff);
    out.push_back((len >> 24) & 0xff);
  }
  out.insert(out.end(), dict.begin(), dict.end());
  out.insert(out.end(), array.data.begin(), array.data.end());
  return out;
}

llvm::Error interp::writeNpy(llvm::StringRef path, const NpyArray &array) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_None);
  if (ec)
    return npyError(path, "cannot write: " + ec.message());
  std::vector<uint8_t> bytes = serializeNpy(array);
  os.write(reinterpret_cast<const char *>(bytes.data()), bytes.size());
  os.close();
  if (os.has_error())
    return npyError(path, "write failed");
  return llvm::Error::success();
}
