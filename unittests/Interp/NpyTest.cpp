//===- NpyTest.cpp - .npy reading and writing -----------------------------===//
#include "ktflow/Interp/Npy.h"

#include <gtest/gtest.h>

using namespace ktflow::interp;

TEST(Npy, RoundTrip) {
  NpyArray a;
  a.dtype = "f2";
  a.shape = {2, 3};
  a.data = {0, 0x3c, 0, 0x40, 0, 0x42, 0, 0x44, 0, 0x45, 0, 0x46};
  std::vector<uint8_t> bytes = serializeNpy(a);
  EXPECT_EQ((10 + (bytes[8] | (bytes[9] << 8))) % 64, 0u); // data 64-byte aligned
  auto b = parseNpy(bytes, "mem");
  ASSERT_TRUE(bool(b)) << llvm::toString(b.takeError());
  EXPECT_EQ(b->dtype, "f2");
  EXPECT_EQ(b->shape, a.shape);
  EXPECT_EQ(b->data, a.data);
}

TEST(Npy, OneDimensionalAndScalarShapes) {
  for (std::vector<int64_t> shape : {std::vector<int64_t>{5}, std::vector<int64_t>{}}) {
    NpyArray a;
    a.dtype = "i4";
    a.shape = shape;
    a.data.assign(4 * (shape.empty() ? 1 : 5), 7);
    auto b = parseNpy(serializeNpy(a), "mem");
    ASSERT_TRUE(bool(b)) << llvm::toString(b.takeError());
    EXPECT_EQ(b->shape, shape);
  }
}

static std::vector<uint8_t> handMade(const std::string &header, unsigned version,
                                     size_t dataBytes) {
  std::vector<uint8_t> out = {0x93, 'N', 'U', 'M', 'P', 'Y', uint8_t(version), 0};
  size_t len = header.size();
  out.push_back(len & 0xff);
  out.push_back((len >> 8) & 0xff);
  if (version >= 2) {
    out.push_back((len >> 16) & 0xff);
    out.push_back((len >> 24) & 0xff);
  }
  out.insert(out.end(), header.begin(), header.end());
  out.insert(out.end(), dataBytes, 0);
  return out;
}

TEST(Npy, Version2HeaderAndBool) {
  auto b = parseNpy(handMade("{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }\n", 2, 3),
                    "v2");
  ASSERT_TRUE(bool(b)) << llvm::toString(b.takeError());
  EXPECT_EQ(b->dtype, "b1");
  EXPECT_EQ(b->shape, std::vector<int64_t>{3});
}

TEST(Npy, RejectsBadInput) {
  auto notNpy = parseNpy(std::vector<uint8_t>(16, 0), "x");
  ASSERT_FALSE(bool(notNpy));
  EXPECT_NE(llvm::toString(notNpy.takeError()).find("bad magic"), std::string::npos);
  auto fortran = parseNpy(
      handMade("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }\n", 1, 16), "f");
  ASSERT_FALSE(bool(fortran));
  EXPECT_NE(llvm::toString(fortran.takeError()).find("Fortran"), std::string::npos);
  auto bigEndian = parseNpy(
      handMade("{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }\n", 1, 8), "b");
  ASSERT_FALSE(bool(bigEndian));
  llvm::consumeError(bigEndian.takeError());
  auto truncated = parseNpy(
      handMade("{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }\n", 1, 8), "t");
  ASSERT_FALSE(bool(truncated));
  llvm::consumeError(truncated.takeError());
}

TEST(Npy, DtypesOfKinds) {
  EXPECT_STREQ(npyDtypeOf(ElemKind::F16), "f2");
  EXPECT_STREQ(npyDtypeOf(ElemKind::BF16), "u2");
  EXPECT_STREQ(npyDtypeOf(ElemKind::I1), "b1");
  EXPECT_STREQ(npyDtypeOf(ElemKind::Index), "i8");
}
