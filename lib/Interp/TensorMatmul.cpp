//===- TensorMatmul.cpp - (batched) matrix multiply-accumulate ------------===//
//
// c + a x b with every product and every sum rounded to c's kind and k
// folded in increasing order for every output element (ktir.md §7.2).
//
// The order is fixed per output element only, so any schedule that keeps
// each element's k = 0, 1, ... fold is the same computation. The hot path
// keeps a block of c in vector registers across the whole k loop (c is
// read and written once per block, a block of b's columns stays in cache
// across the row blocks) and rounds with the processor's own IEEE
// conversions: F16C's round-to-nearest-even float -> half -> float, which
// gives exactly floatToHalfBits' results (subnormals, overflow to
// infinity, quieted NaN with its top payload bits), and an integer
// bfloat16 rounding identical to floatToBF16Bits. Two such kernels, chosen
// at run time: AVX-512 (8 rows x 32 columns, 16 independent accumulator
// chains, so the add -> round latency of one chain is hidden) and AVX2 +
// F16C (4 rows x 16 columns); elsewhere, and for the rows and columns that
// do not fill a block, the scalar loop runs. The conversions, not the
// arithmetic, bound both (two per product and two per sum), so AVX-512's
// 16 lanes per conversion are what make it about twice as fast.
//
// This file must be compiled with -ffp-contract=off (the whole library is):
// a fused multiply-add would skip a rounding the language requires.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Interp/Elementwise.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define KTFLOW_MATMUL_X86 1
#endif

using namespace ktflow;
using namespace ktflow::interp;

namespace {
/// How a float result is rounded to the accumulator's kind.
enum class Rounding { None, Half, BF16 };
} // namespace

template <Rounding R>
static inline float roundTo(float v) {
  if constexpr (R == Rounding::Half)
    return roundToHalf(v);
  else if constexpr (R == Rounding::BF16)
    return roundToBF16(v);
  else
    return v;
}

/// c[i, j] over rows [i0, i1) and columns [j0, j1), scalar, k in order.
template <class T, class Round>
static void matmulScalar(const T *a, const T *b, T *c, int64_t n, int64_t kk, int64_t i0,
                         int64_t i1, int64_t j0, int64_t j1, Round round) {
  // i-k-j order: each output element still folds k = 0, 1, ... in order.
  for (int64_t i = i0; i < i1; ++i) {
    T *crow = c + i * n;
    for (int64_t k = 0; k < kk; ++k) {
      T aik = a[i * kk + k];
      const T *brow = b + k * n;
      for (int64_t j = j0; j < j1; ++j)
        crow[j] = round(crow[j] + round(aik * brow[j]));
    }
  }
}

#ifdef KTFLOW_MATMUL_X86
#define KTFLOW_SIMD __attribute__((target("avx2,f16c")))

template <Rounding R>
KTFLOW_SIMD static inline __m256 roundLanes(__m256 v) {
  if constexpr (R == Rounding::Half) {
    return _mm256_cvtph_ps(_mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
  } else if constexpr (R == Rounding::BF16) {
    // floatToBF16Bits: NaN keeps its top bits and is quieted; everything
    // else rounds to nearest even on the upper 16 bits.
    __m256i x = _mm256_castps_si256(v);
    __m256i abs = _mm256_and_si256(x, _mm256_set1_epi32(0x7fffffff));
    __m256i isNaN = _mm256_cmpgt_epi32(abs, _mm256_set1_epi32(0x7f800000));
    __m256i odd = _mm256_and_si256(_mm256_srli_epi32(x, 16), _mm256_set1_epi32(1));
    __m256i rounded = _mm256_add_epi32(_mm256_add_epi32(x, _mm256_set1_epi32(0x7fff)), odd);
    __m256i quiet = _mm256_or_si256(x, _mm256_set1_epi32(0x400000));
    __m256i bits = _mm256_blendv_epi8(rounded, quiet, isNaN);
    return _mm256_castsi256_ps(_mm256_and_si256(bits, _mm256_set1_epi32(int(0xffff0000u))));
  } else {
    return v;
  }
}

constexpr int64_t kBlockRows = 4, kBlockCols = 16;

/// The whole 4 x 16 blocks of c; returns how many rows and columns they
/// cover (the rest is left to the scalar loop).
template <Rounding R>
KTFLOW_SIMD static void matmulBlocks(const float *a, const float *b, float *c, int64_t m,
                                     int64_t n, int64_t kk) {
  int64_t rows = m - m % kBlockRows, cols = n - n % kBlockCols;
  for (int64_t j = 0; j < cols; j += kBlockCols)
    for (int64_t i = 0; i < rows; i += kBlockRows) {
      __m256 acc[kBlockRows][2];
      for (int64_t r = 0; r < kBlockRows; ++r) {
        acc[r][0] = _mm256_loadu_ps(c + (i + r) * n + j);
        acc[r][1] = _mm256_loadu_ps(c + (i + r) * n + j + 8);
      }
      for (int64_t k = 0; k < kk; ++k) {
        __m256 b0 = _mm256_loadu_ps(b + k * n + j);
        __m256 b1 = _mm256_loadu_ps(b + k * n + j + 8);
        for (int64_t r = 0; r < kBlockRows; ++r) {
          __m256 aik = _mm256_broadcast_ss(a + (i + r) * kk + k);
          acc[r][0] = roundLanes<R>(
              _mm256_add_ps(acc[r][0], roundLanes<R>(_mm256_mul_ps(aik, b0))));
          acc[r][1] = roundLanes<R>(
              _mm256_add_ps(acc[r][1], roundLanes<R>(_mm256_mul_ps(aik, b1))));
        }
      }
      for (int64_t r = 0; r < kBlockRows; ++r) {
        _mm256_storeu_ps(c + (i + r) * n + j, acc[r][0]);
        _mm256_storeu_ps(c + (i + r) * n + j + 8, acc[r][1]);
      }
    }
}

#define KTFLOW_SIMD512 __attribute__((target("avx512f")))

template <Rounding R>
KTFLOW_SIMD512 static inline __m512 roundLanes512(__m512 v) {
  if constexpr (R == Rounding::Half) {
    return _mm512_cvtph_ps(_mm512_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
  } else if constexpr (R == Rounding::BF16) {
    // As roundLanes: NaN quieted with its top bits, else nearest even.
    __m512i x = _mm512_castps_si512(v);
    __m512i abs = _mm512_and_si512(x, _mm512_set1_epi32(0x7fffffff));
    __mmask16 isNaN = _mm512_cmpgt_epi32_mask(abs, _mm512_set1_epi32(0x7f800000));
    __m512i odd = _mm512_and_si512(_mm512_srli_epi32(x, 16), _mm512_set1_epi32(1));
    __m512i rounded = _mm512_add_epi32(_mm512_add_epi32(x, _mm512_set1_epi32(0x7fff)), odd);
    __m512i quiet = _mm512_or_si512(x, _mm512_set1_epi32(0x400000));
    __m512i bits = _mm512_mask_blend_epi32(isNaN, rounded, quiet);
    return _mm512_castsi512_ps(_mm512_and_si512(bits, _mm512_set1_epi32(int(0xffff0000u))));
  } else {
    return v;
  }
}

constexpr int64_t kBlockRows512 = 8, kBlockCols512 = 32;

/// The whole 8 x 32 blocks of c, as matmulBlocks.
template <Rounding R>
KTFLOW_SIMD512 static void matmulBlocks512(const float *a, const float *b, float *c, int64_t m,
                                           int64_t n, int64_t kk) {
  int64_t rows = m - m % kBlockRows512, cols = n - n % kBlockCols512;
  for (int64_t j = 0; j < cols; j += kBlockCols512)
    for (int64_t i = 0; i < rows; i += kBlockRows512) {
      __m512 acc[kBlockRows512][2];
      for (int64_t r = 0; r < kBlockRows512; ++r) {
        acc[r][0] = _mm512_loadu_ps(c + (i + r) * n + j);
        acc[r][1] = _mm512_loadu_ps(c + (i + r) * n + j + 16);
      }
      for (int64_t k = 0; k < kk; ++k) {
        __m512 b0 = _mm512_loadu_ps(b + k * n + j);
        __m512 b1 = _mm512_loadu_ps(b + k * n + j + 16);
        for (int64_t r = 0; r < kBlockRows512; ++r) {
          __m512 aik = _mm512_set1_ps(a[(i + r) * kk + k]);
          acc[r][0] = roundLanes512<R>(
              _mm512_add_ps(acc[r][0], roundLanes512<R>(_mm512_mul_ps(aik, b0))));
          acc[r][1] = roundLanes512<R>(
              _mm512_add_ps(acc[r][1], roundLanes512<R>(_mm512_mul_ps(aik, b1))));
        }
      }
      for (int64_t r = 0; r < kBlockRows512; ++r) {
        _mm512_storeu_ps(c + (i + r) * n + j, acc[r][0]);
        _mm512_storeu_ps(c + (i + r) * n + j + 16, acc[r][1]);
      }
    }
}
#endif

bool interp::canRunMatmulKernel(MatmulKernel kernel) {
  switch (kernel) {
  case MatmulKernel::Scalar:
    return true;
#ifdef KTFLOW_MATMUL_X86
  case MatmulKernel::Avx2: {
    static const bool has = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("f16c");
    return has;
  }
  case MatmulKernel::Avx512: {
    static const bool has = __builtin_cpu_supports("avx512f");
    return has;
  }
#endif
  default:
    return false;
  }
}

static MatmulKernel fastestMatmulKernel() {
  for (MatmulKernel k : {MatmulKernel::Avx512, MatmulKernel::Avx2})
    if (canRunMatmulKernel(k))
      return k;
  return MatmulKernel::Scalar;
}

/// One (unbatched) float-storage matmul rounded by R.
template <Rounding R>
static void matmulFloat(MatmulKernel kernel, const float *a, const float *b, float *c,
                        int64_t m, int64_t n, int64_t kk) {
  auto round = [](float v) { return roundTo<R>(v); };
  int64_t rows = 0, cols = 0;
#ifdef KTFLOW_MATMUL_X86
  if (kernel == MatmulKernel::Avx512) {
    matmulBlocks512<R>(a, b, c, m, n, kk);
    rows = m - m % kBlockRows512, cols = n - n % kBlockCols512;
  } else if (kernel == MatmulKernel::Avx2) {
    matmulBlocks<R>(a, b, c, m, n, kk);
    rows = m - m % kBlockRows, cols = n - n % kBlockCols;
  }
#endif
  // The columns right of the blocks, then the rows below them.
  matmulScalar(a, b, c, n, kk, 0, rows, cols, n, round);
  matmulScalar(a, b, c, n, kk, rows, m, 0, n, round);
}

TensorPtr interp::matmul(const Tensor &a, const Tensor &b, const Tensor &c) {
  static const MatmulKernel fastest = fastestMatmulKernel();
  return matmulWith(fastest, a, b, c);
}

TensorPtr interp::matmulWith(MatmulKernel kernel, const Tensor &a, const Tensor &b,
                             const Tensor &c) {
  if (!canRunMatmulKernel(kernel))
    kernel = MatmulKernel::Scalar;
  auto out = std::make_shared<Tensor>(c);
  unsigned r = c.rank();
  int64_t batch = r == 3 ? c.shape()[0] : 1;
  int64_t m = c.shape()[r - 2], n = c.shape()[r - 1], kk = a.shape()[r - 1];
  for (int64_t bi = 0; bi < batch; ++bi) {
    int64_t ao = bi * m * kk, bo = bi * kk * n, co = bi * m * n;
    switch (c.kind()) {
    case ElemKind::F16:
      matmulFloat<Rounding::Half>(kernel, a.f32() + ao, b.f32() + bo, out->f32() + co, m, n, kk);
      break;
    case ElemKind::BF16:
      matmulFloat<Rounding::BF16>(kernel, a.f32() + ao, b.f32() + bo, out->f32() + co, m, n, kk);
      break;
    case ElemKind::F32:
      matmulFloat<Rounding::None>(kernel, a.f32() + ao, b.f32() + bo, out->f32() + co, m, n, kk);
      break;
    case ElemKind::F64:
      matmulScalar(a.f64() + ao, b.f64() + bo, out->f64() + co, n, kk, 0, m, 0, n,
                   [](double v) { return v; });
      break;
    default: {
      ElemKind kind = c.kind();
      matmulScalar(a.i64() + ao, b.i64() + bo, out->i64() + co, n, kk, 0, m, 0, n,
                   [kind](int64_t v) { return wrapInt(kind, v); });
    }
    }
  }
  return out;
}
