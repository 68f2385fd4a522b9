//===- EncodingTest.cpp - bundle encoding, text form and corruption -------===//
//
// A bundle survives encode/decode and print/parse unchanged; every
// truncation and every single-byte corruption of a valid bundle decodes to
// an error or to a verified bundle, never a crash, and a corruption that
// decodes prints to text that parses back to the same bundle.
//
//===----------------------------------------------------------------------===//
#include "ktflow/DeviceCode/Encoding.h"
#include "ktflow/DeviceCode/TextForm.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace ktflow;
using namespace ktflow::dc;

namespace {

Bundle sampleBundle() {
  Bundle b;
  b.device = "sample";
  b.launchValues.push_back({"n_rows", 2, "i32", "24"});
  b.launchValues.push_back({"eps", 5, "f32", "1e-05"});
  b.symbols.push_back({"A", "f16", {4, 64}, Bytes(512), true, false});
  b.symbols.push_back({"C", "f32", {64}, Bytes(256), false, true});
  ProgramBuilder dma(b, "dma", {0, 1}, 2);
  dma.addTableRow({0, 1});
  dma.addTableRow({128, 3});
  dma.loop(4);
  Address src = ProgramBuilder::symbolAddress(0, Bytes(64));
  src.tableColumn = 0;
  src.terms.push_back({0, Bytes(128), 0});
  Address dst = ProgramBuilder::memoryAddress("spad");
  dst.terms.push_back({0, Bytes(256), 2});
  dma.copy(dst, src, Bytes(64), {CopyDim{2, Bytes(64), Bytes(128)}});
  dma.signal(ProgramBuilder::node("ld", {InstanceSelector::Kind::TableColumn, 1}), 3);
  dma.end();
  dma.wait(1, 4);
  dma.credit(2, 3);
  // (Any unit's program may hold any instruction; the table lane needs a table.)
  dma.ext(9, 7, 8, 0, /*laneColumn=*/1);
  ProgramBuilder vec(b, "vec");
  vec.recv(0, ElemType::F16, Elements(32), ProgramBuilder::node("ld"));
  vec.vconst(1, ElemType::F16, Elements(32), -0.1);
  vec.binary(Opcode::Max, 2, 0, 1);
  vec.unary(Opcode::Exp, 3, 2);
  for (Opcode op : {Opcode::Sqrt, Opcode::Rsqrt, Opcode::Log, Opcode::Tanh, Opcode::Erf})
    vec.unary(op, 11, 3);
  vec.binary(Opcode::Pow, 12, 11, 3);
  vec.ternary(Opcode::Fma, 13, 12, 11, 3);
  vec.cast(4, ElemType::F32, 3);
  vec.cmp(CmpPredicate::Ge, 5, 0, 1);
  vec.select(6, 5, 0, 1);
  vec.reduce(Combiner::Min, 7, 6);
  vec.bcast(8, 7, 0, Elements(32));
  vec.ext(9, 8, 7, 5);
  vec.concat(9, 4, 4);
  vec.slice(10, 9, 16, Elements(32));
  vec.send(ProgramBuilder::node("st", {InstanceSelector::Kind::Absolute, 2}), 8);
  return b;
}

std::string text(const Bundle &b) {
  std::string s;
  llvm::raw_string_ostream os(s);
  printBundle(b, os);
  return s;
}

TEST(EncodingTest, RoundTripsThroughBinaryAndText) {
  Bundle b = sampleBundle();
  ASSERT_FALSE(bool(verifyBundle(b, "built")));
  std::vector<uint8_t> bytes = encodeBundle(b);
  llvm::Expected<Bundle> decoded = decodeBundle(bytes, "mem");
  ASSERT_TRUE(bool(decoded)) << llvm::toString(decoded.takeError());
  EXPECT_EQ(text(*decoded), text(b));
  EXPECT_EQ(encodeBundle(*decoded), bytes);
  llvm::Expected<Bundle> parsed = parseBundleText(text(b), "text");
  ASSERT_TRUE(bool(parsed)) << llvm::toString(parsed.takeError());
  EXPECT_EQ(encodeBundle(*parsed), bytes);
}

/// Reads the u32 / u64 at `pos` (little endian).
uint64_t readLE(const std::vector<uint8_t> &bytes, size_t pos, int n) {
  uint64_t v = 0;
  for (int i = 0; i < n; ++i)
    v |= uint64_t(bytes[pos + i]) << (8 * i);
  return v;
}

/// A version-2 encoding rewritten as version 1 would have written it: the
/// launch-values section (after the device and symbol sections) dropped.
std::vector<uint8_t> asVersionOne(const std::vector<uint8_t> &bytes) {
  size_t pos = 12;
  for (int section = 0; section < 2; ++section)
    pos += 12 + readLE(bytes, pos + 4, 8);
  EXPECT_EQ(readLE(bytes, pos, 4), uint64_t(SectionKind::LaunchValues));
  size_t launchBytes = 12 + readLE(bytes, pos + 4, 8);
  std::vector<uint8_t> v1(bytes.begin(), bytes.begin() + pos);
  v1.insert(v1.end(), bytes.begin() + pos + launchBytes, bytes.end());
  v1[4] = 1;
  v1[8] -= 1; // one section fewer
  return v1;
}

TEST(EncodingTest, VersionOneBundlesReadWithoutLaunchValues) {
  // A bundle without math instructions, which version 1 could hold.
  Bundle b = sampleBundle();
  auto &body = b.programs[1].body;
  body.erase(std::remove_if(body.begin(), body.end(),
                            [](const Instruction &i) { return firstVersionWith(i.op) > 1; }),
             body.end());
  std::vector<uint8_t> bytes = encodeBundle(b);
  ASSERT_EQ(readLE(bytes, 4, 4), 2u);
  llvm::Expected<Bundle> old = decodeBundle(asVersionOne(bytes), "v1");
  ASSERT_TRUE(bool(old)) << llvm::toString(old.takeError());
  EXPECT_TRUE(old->launchValues.empty());
  EXPECT_EQ(old->programs.size(), b.programs.size());
  Bundle expected = b;
  expected.launchValues.clear();
  EXPECT_EQ(text(*old), text(expected));
  // A version 1 bundle cannot carry them.
  std::vector<uint8_t> mixed = bytes;
  mixed[4] = 1;
  llvm::Expected<Bundle> bad = decodeBundle(mixed, "mixed");
  ASSERT_FALSE(bool(bad));
  EXPECT_NE(llvm::toString(bad.takeError()).find("launch-values section in a version 1"),
            std::string::npos);
}

TEST(EncodingTest, LaunchValuesCompareInTheirType) {
  LaunchValue block{"block", 4, "index", "256"};
  EXPECT_EQ(sameLaunchValue(block, "0x100"), std::optional<bool>(true));
  EXPECT_EQ(sameLaunchValue(block, "255"), std::optional<bool>(false));
  EXPECT_EQ(sameLaunchValue(block, "many"), std::nullopt);
  // Floats compare after rounding to the type: both spellings are one f16.
  LaunchValue scale{"scale", 5, "f16", "0.1"};
  EXPECT_EQ(sameLaunchValue(scale, "0.10000001"), std::optional<bool>(true));
  EXPECT_EQ(sameLaunchValue(scale, "0.2"), std::optional<bool>(false));
  // A value that is not one of its type fails verification.
  Bundle b = sampleBundle();
  b.launchValues.push_back({"bad", 7, "i32", "0.5"});
  llvm::Error e = verifyBundle(b, "built");
  ASSERT_TRUE(bool(e));
  EXPECT_NE(llvm::toString(std::move(e)).find("'bad' has value '0.5', which is not a i32 value"),
            std::string::npos);
}

// Version 2 added the math instructions: a bundle that claims version 1
// but holds `sqrt` is rejected.
TEST(EncodingTest, VersionOneBundlesHaveNoMathInstructions) {
  std::vector<uint8_t> bytes = encodeBundle(sampleBundle());
  ASSERT_EQ(bytes[4], 2u); // no launch table: written as version 2
  llvm::Expected<Bundle> r = decodeBundle(asVersionOne(bytes), "v1");
  ASSERT_FALSE(bool(r));
  EXPECT_NE(llvm::toString(r.takeError()).find("'sqrt' needs bundle version 2, the bundle "
                                               "is version 1"),
            std::string::npos);
}

// Version 5 added integer register types: a bundle loading, computing and
// storing i32 lanes is written as version 5, round-trips through the binary
// and the text form, and is rejected when it claims version 4.
TEST(EncodingTest, IntegerTypesNeedVersionFive) {
  Bundle b;
  b.device = "sample";
  ProgramBuilder vec(b, "vec");
  vec.recv(0, ElemType::I32, Elements(16), ProgramBuilder::node("ld"));
  vec.vconst(1, ElemType::I32, Elements(16), -7);
  vec.binary(Opcode::Mul, 2, 0, 1);
  vec.cast(3, ElemType::I8, 2);
  vec.send(ProgramBuilder::node("st"), 3);
  std::vector<uint8_t> bytes = encodeBundle(b);
  ASSERT_EQ(bytes[4], 5u);
  llvm::Expected<Bundle> decoded = decodeBundle(bytes, "mem");
  ASSERT_TRUE(bool(decoded)) << llvm::toString(decoded.takeError());
  EXPECT_NE(text(*decoded).find("vconst v1, i32, 16, -7"), std::string::npos) << text(*decoded);
  EXPECT_NE(text(*decoded).find("cast v3, i8, v2"), std::string::npos) << text(*decoded);
  llvm::Expected<Bundle> parsed = parseBundleText(text(b), "text");
  ASSERT_TRUE(bool(parsed)) << llvm::toString(parsed.takeError());
  EXPECT_EQ(encodeBundle(*parsed), bytes);
  std::vector<uint8_t> old = bytes;
  old[4] = 4;
  llvm::Expected<Bundle> r = decodeBundle(old, "v4");
  ASSERT_FALSE(bool(r));
  EXPECT_NE(llvm::toString(r.takeError()).find("'recv' of i32 needs bundle version 5, the "
                                               "bundle is version 4"),
            std::string::npos)
      << "";
}

// Version 4 added the matrix unit's `mma`: a bundle holding one is written
// as version 4, round-trips, and is rejected when it claims version 3.
TEST(EncodingTest, MatrixInstructionNeedsVersionFour) {
  Bundle b;
  b.device = "sample";
  ProgramBuilder mxu(b, "mxu");
  mxu.recv(0, ElemType::F16, Elements(32), ProgramBuilder::node("ld"));
  mxu.recv(1, ElemType::F16, Elements(32), ProgramBuilder::node("ld"));
  mxu.recv(2, ElemType::F32, Elements(16), ProgramBuilder::node("ld"));
  mxu.mma(2, 0, 1, Elements(8));
  mxu.send(ProgramBuilder::node("st"), 2);
  std::vector<uint8_t> bytes = encodeBundle(b);
  ASSERT_EQ(bytes[4], 4u);
  llvm::Expected<Bundle> decoded = decodeBundle(bytes, "mem");
  ASSERT_TRUE(bool(decoded)) << llvm::toString(decoded.takeError());
  EXPECT_NE(text(*decoded).find("mma v2, v0, v1, 8"), std::string::npos) << text(*decoded);
  llvm::Expected<Bundle> parsed = parseBundleText(text(b), "text");
  ASSERT_TRUE(bool(parsed)) << llvm::toString(parsed.takeError());
  EXPECT_EQ(encodeBundle(*parsed), bytes);
  std::vector<uint8_t> old = bytes;
  old[4] = 3;
  llvm::Expected<Bundle> r = decodeBundle(old, "v3");
  ASSERT_FALSE(bool(r));
  EXPECT_NE(llvm::toString(r.takeError()).find("'mma' needs bundle version 4, the bundle is "
                                               "version 3"),
            std::string::npos);
  // A depth of zero is no matrix operation.
  b.programs[0].body[3].count = 0;
  llvm::Error e = verifyBundle(b, "built");
  ASSERT_TRUE(bool(e));
  EXPECT_NE(llvm::toString(std::move(e)).find("depth 0"), std::string::npos);
}

TEST(EncodingTest, EveryTruncationIsAnError) {
  std::vector<uint8_t> bytes = encodeBundle(sampleBundle());
  for (size_t n = 0; n < bytes.size(); ++n) {
    llvm::Expected<Bundle> r =
        decodeBundle(llvm::ArrayRef<uint8_t>(bytes).take_front(n), "cut");
    ASSERT_FALSE(bool(r)) << "truncated to " << n << " bytes decoded";
    llvm::consumeError(r.takeError());
  }
}

TEST(EncodingTest, SingleByteCorruptionNeverCrashes) {
  std::vector<uint8_t> bytes = encodeBundle(sampleBundle());
  size_t errors = 0;
  for (size_t i = 0; i < bytes.size(); ++i)
    for (uint8_t flip : {uint8_t(0x01), uint8_t(0x80), uint8_t(0xff)}) {
      std::vector<uint8_t> bad = bytes;
      bad[i] ^= flip;
      llvm::Expected<Bundle> r = decodeBundle(bad, "bad");
      if (!r) {
        ++errors;
        llvm::consumeError(r.takeError());
      } else {
        // Whatever decodes is well formed.
        EXPECT_FALSE(bool(verifyBundle(*r, "bad")));
      }
    }
  EXPECT_GT(errors, bytes.size());
}

TEST(EncodingTest, RandomCorruptionNeverCrashes) {
  std::vector<uint8_t> bytes = encodeBundle(sampleBundle());
  uint32_t state = 12345; // fixed seed: the same corruptions every run
  auto next = [&] {
    state = state * 1664525u + 1013904223u;
    return state >> 8;
  };
  for (int trial = 0; trial < 3000; ++trial) {
    std::vector<uint8_t> bad = bytes;
    int changes = 1 + next() % 8;
    for (int c = 0; c < changes; ++c)
      bad[next() % bad.size()] = uint8_t(next());
    if (next() % 4 == 0)
      bad.resize(next() % bad.size());
    llvm::Expected<Bundle> r = decodeBundle(bad, "random");
    if (!r)
      llvm::consumeError(r.takeError());
  }
}

// kbin-fuzzer finding: a decoded bundle whose nearest-instance selector
// carried a value printed as `@ld` and parsed back with value 0.
TEST(EncodingTest, NearestInstanceCarriesNoValue) {
  Bundle b = sampleBundle();
  b.programs[1].body[0].peer.instance.value = 5; // recv v0, f16, 32, @ld
  llvm::Error e = verifyBundle(b, "built");
  ASSERT_TRUE(bool(e));
  EXPECT_NE(llvm::toString(std::move(e)).find("selects the nearest instance with value 5"),
            std::string::npos);
  llvm::Expected<Bundle> decoded = decodeBundle(encodeBundle(b), "mem");
  ASSERT_FALSE(bool(decoded));
  llvm::consumeError(decoded.takeError());
}

// kbin-fuzzer finding: names with characters that split or change a word
// of the text form (a blank, ',', '+', '[' ...) decoded, printed, and did
// not parse back.
TEST(EncodingTest, NamesAreWordsOfTheTextForm) {
  for (const char *name : {"a b", "a,b", "a+b", "a-b", "x[1]", "@ld", ""}) {
    Bundle b = sampleBundle();
    b.programs[1].body[0].peer.name = name; // recv v0, f16, 32, @ld
    llvm::Expected<Bundle> peer = decodeBundle(encodeBundle(b), "peer");
    EXPECT_FALSE(bool(peer)) << "peer '" << name << "'";
    if (!peer)
      llvm::consumeError(peer.takeError());
    b = sampleBundle();
    b.symbols[0].name = name;
    llvm::Expected<Bundle> symbol = decodeBundle(encodeBundle(b), "symbol");
    EXPECT_FALSE(bool(symbol)) << "symbol '" << name << "'";
    if (!symbol)
      llvm::consumeError(symbol.takeError());
  }
  Bundle b = sampleBundle();
  b.programs[0].unit = "dma x";
  llvm::Error unit = verifyBundle(b, "unit");
  ASSERT_TRUE(bool(unit));
  EXPECT_NE(llvm::toString(std::move(unit)).find("unit name is not a word"), std::string::npos);
}

TEST(EncodingTest, EveryDecodableCorruptionPrintsBackToItself) {
  std::vector<uint8_t> bytes = encodeBundle(sampleBundle());
  for (size_t i = 0; i < bytes.size(); ++i) {
    for (int value : {0, 1, 2, 3, 5, 0x40, 0x7f, 0x80, 0xff}) {
      std::vector<uint8_t> bad = bytes;
      bad[i] = uint8_t(value);
      llvm::Expected<Bundle> r = decodeBundle(bad, "bad");
      if (!r) {
        llvm::consumeError(r.takeError());
        continue;
      }
      llvm::Expected<Bundle> parsed = parseBundleText(text(*r), "text");
      ASSERT_TRUE(bool(parsed)) << "byte " << i << " = " << value << ": "
                                << llvm::toString(parsed.takeError());
      EXPECT_EQ(encodeBundle(*parsed), encodeBundle(*r))
          << "byte " << i << " = " << value << "\n"
          << text(*r);
    }
  }
}

TEST(EncodingTest, ParserReportsLineAndColumn) {
  llvm::Expected<Bundle> r = parseBundleText("ktdc 1\nprogram @vec\n  add v0, v1, v999\n",
                                             "x.kasm");
  ASSERT_FALSE(bool(r));
  EXPECT_EQ(llvm::toString(r.takeError()),
            "x.kasm:3:15: expected a register v0..v255, found 'v999'");
}

TEST(EncodingTest, VerifierRejectsLoopIndexOutsideItsLoop) {
  llvm::Expected<Bundle> r =
      parseBundleText("ktdc 1\nprogram @ld\n  push @vec, @spad+i0*64, 64\n", "x.kasm");
  ASSERT_FALSE(bool(r));
  EXPECT_NE(llvm::toString(r.takeError()).find("uses loop index i0 inside 0 loops"),
            std::string::npos);
}

// A lane from the table must name one of the program's columns, in the
// text form as in a built bundle.
TEST(EncodingTest, VerifierRejectsALaneColumnOutsideTheTable) {
  llvm::Expected<Bundle> r = parseBundleText(
      "ktdc 1\nprogram @vec\ntable 1\nrow 3\n  ext v2, v0, v1, t1\n", "x.kasm");
  ASSERT_FALSE(bool(r));
  EXPECT_NE(llvm::toString(r.takeError()).find("takes its lane from table column 1 of 1"),
            std::string::npos);
  llvm::Expected<Bundle> ok = parseBundleText(
      "ktdc 1\nprogram @vec\ntable 1\nrow 3\n  ext v2, v0, v1, t0\n", "x.kasm");
  EXPECT_TRUE(bool(ok)) << llvm::toString(ok.takeError());
  llvm::Expected<Bundle> bad =
      parseBundleText("ktdc 1\nprogram @vec\n  ext v2, v0, v1, -1\n", "x.kasm");
  ASSERT_FALSE(bool(bad));
  EXPECT_NE(llvm::toString(bad.takeError()).find("expected a lane or tCOLUMN"),
            std::string::npos);
}

} // namespace
