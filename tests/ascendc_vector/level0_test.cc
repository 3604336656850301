// The level-0 (mask / repeat) forms of the element-wise vector instructions against a host model of the
// vector unit: random operands, random bit masks, continuous masks, the mask register (isSetMask = false)
// in normal and counter mode, repeats > 1, block and repeat strides other than the defaults (overlapping
// ones too), for half, float, int16 and int32. The destination starts with random contents, so an
// element written outside the mask shows.
#include <algorithm>
#include <cmath>

#include "aclrtlaunch_vec_count_form_resets_mask.h"
#include "aclrtlaunch_vec_leave_counter_mode.h"
#include "aclrtlaunch_vec_level0.h"
#include "vec_case.h"
#include "vec_model.h"
#include "vec_test_util.h"

namespace vectest {
namespace {

// The ops vec_level0_kernels.cpp runs in their count form too.
bool HasCountForm(uint32_t op) {
  return op == kVecAdd || op == kVecSub || op == kVecMul || op == kVecMax || op == kVecMin || op == kVecAdds ||
         op == kVecMuls || op == kVecMaxs || op == kVecMins || op == kVecAbs || op == kVecRelu || op == kVecDuplicate ||
         op == kVecAddRelu || op == kVecSubRelu;
}
bool IsBinaryOp(uint32_t op) { return op <= kVecMulAddDst || op >= kVecAddRelu; }
bool IsScalarOp(uint32_t op) { return op >= kVecAdds && op <= kVecLeakyRelu; }
bool IsIntOnly(uint32_t op) { return op == kVecAnd || op == kVecOr || op == kVecNot; }
bool IsFloatOnly(uint32_t op) {
  return op == kVecDiv || op == kVecMulAddDst || op == kVecLeakyRelu || (op >= kVecExp && op <= kVecRsqrt) ||
         op == kVecReciprocal || op == kVecFusedMulAdd || op == kVecFusedMulAddRelu;
}

template <typename T>
T L0Reference(uint32_t op, T x, T y, T old, float scalar) {
  using C = typename std::conditional<std::is_same<T, half>::value, float, T>::type;
  const C a = static_cast<C>(x), b = static_cast<C>(y), s = static_cast<C>(static_cast<T>(scalar));
  switch (op) {
    case kVecAdd: return static_cast<T>(a + b);
    case kVecSub: return static_cast<T>(a - b);
    case kVecMul: return static_cast<T>(a * b);
    case kVecMax: return static_cast<T>(a > b ? a : b);
    case kVecMin: return static_cast<T>(a < b ? a : b);
    case kVecAdds: return static_cast<T>(a + s);
    case kVecMuls: return static_cast<T>(a * s);
    case kVecMaxs: return static_cast<T>(a > s ? a : s);
    case kVecMins: return static_cast<T>(a < s ? a : s);
    case kVecAbs: return static_cast<T>(a < 0 ? -a : a);
    case kVecRelu: return static_cast<T>(a > 0 ? a : C(0));
    case kVecDuplicate: return static_cast<T>(scalar);
    case kVecCopy: return x;
    case kVecAddRelu: return static_cast<T>(a + b > 0 ? a + b : C(0));
    case kVecSubRelu: return static_cast<T>(a - b > 0 ? a - b : C(0));
    default: break;
  }
  if constexpr (std::is_integral<T>::value) {
    switch (op) {
      case kVecAnd: return static_cast<T>(a & b);
      case kVecOr: return static_cast<T>(a | b);
      case kVecNot: return static_cast<T>(~a);
      default: break;
    }
  } else {
    switch (op) {
      case kVecDiv: return static_cast<T>(a / b);
      case kVecMulAddDst: return static_cast<T>(std::fma(a, b, static_cast<C>(old)));
      case kVecFusedMulAdd: return static_cast<T>(std::fma(a, static_cast<C>(old), b));
      case kVecFusedMulAddRelu: {
        const C v = std::fma(a, static_cast<C>(old), b);
        return static_cast<T>(v > 0 ? v : C(0));
      }
      case kVecLeakyRelu: return static_cast<T>(a >= 0 ? a : a * s);
      case kVecExp: return static_cast<T>(std::exp(a));
      case kVecLn: return static_cast<T>(std::log(a));
      case kVecSqrt: return static_cast<T>(std::sqrt(a));
      case kVecRsqrt: return static_cast<T>(1 / std::sqrt(a));
      case kVecReciprocal: return static_cast<T>(1 / a);
      default: break;
    }
  }
  ADD_FAILURE() << "no reference for op " << op;
  return T(0);
}

// The case's plan. Copy's counter mode differs from the other instructions' (its reference says so): the
// count is each repeat's element count (ceil(count * sizeof(T) / 32) blocks at the block stride, more
// than 8 when it is above a repeat's elements) and repeatTimes counts.
template <typename T>
L0Plan L0PlanOf(const VecCase& c) {
  L0Plan p = PlanOf<T>(c);
  if (c.op == kVecCopy && (c.mask_form == kMaskCounterRegister || c.mask_form == kMaskCounterArg)) {
    p.per_repeat_count = true;
    p.repeats = c.repeat;
    p.per = static_cast<uint32_t>(c.count);
  }
  return p;
}

// The destination after the instruction: per repeat, all values first, then the writes.
template <typename T>
std::vector<T> L0Model(const VecCase& c, const std::vector<T>& a, const std::vector<T>& b, std::vector<T> d) {
  const L0Plan p = L0PlanOf<T>(c);
  for (uint32_t r = 0; r < p.repeats; ++r) {
    std::vector<std::pair<size_t, T>> writes;
    for (uint32_t k = 0; k < p.per; ++k) {
      if (!p.Active(r, k)) continue;
      const size_t od = L0Offset<T>(c.dst_blk, c.dst_rep, r, k);
      const T x = c.op == kVecDuplicate ? T(0) : a[L0Offset<T>(c.src0_blk, c.src0_rep, r, k)];
      const T y = IsBinaryOp(c.op) ? b[L0Offset<T>(c.src1_blk, c.src1_rep, r, k)] : T(0);
      writes.emplace_back(od, L0Reference<T>(c.op, x, y, d[od], c.scalar));
    }
    for (const auto& w : writes) d[w.first] = w.second;
  }
  return d;
}

// Operand values that keep the operation finite and exact where it should be.
template <typename T>
std::vector<T> L0Inputs(uint32_t op, bool second, size_t n, std::mt19937_64& rng) {
  if constexpr (std::is_integral<T>::value) {
    if (IsIntOnly(op)) return RandomValues<T>(n, rng, std::numeric_limits<T>::min(), std::numeric_limits<T>::max());
    return RandomValues<T>(n, rng, -100, 100);
  } else {
    if (op == kVecLn || op == kVecSqrt || op == kVecRsqrt) return RandomValues<T>(n, rng, 0.05, 8);
    if ((op == kVecDiv && second) || op == kVecReciprocal) {
      std::vector<T> v = RandomValues<T>(n, rng, 0.25, 4);
      for (size_t i = 0; i < n; i += 2) v[i] = -v[i];
      return v;
    }
    return RandomValues<T>(n, rng, -4, 4);
  }
}

// Strides a case draws from: the defaults, gaps, overlaps (repeat stride under 8) and zero.
struct L0Strides {
  uint32_t blk, rep;
};
const L0Strides kL0StrideChoices[] = {{1, 8}, {2, 16}, {1, 9}, {3, 24}, {1, 4}, {2, 3}, {0, 1}, {1, 0}};

class Level0Test : public VecTest {
 protected:
  // Runs the case on the device and checks dst (bit-exact; `ulps` for transcendental results).
  template <typename T>
  void RunAndCheck(VecCase c, std::mt19937_64& rng, uint64_t ulps = 0) {
    c.dtype = DtypeOf<T>();
    const L0Plan p = L0PlanOf<T>(c);
    c.n_dst = L0Extent<T>(p, c.dst_blk, c.dst_rep);
    c.n_src0 = L0Extent<T>(p, c.src0_blk, c.src0_rep);
    c.n_src1 = L0Extent<T>(p, c.src1_blk, c.src1_rep);
    const std::vector<T> a = L0Inputs<T>(c.op, false, c.n_src0, rng);
    const std::vector<T> b = L0Inputs<T>(c.op, true, c.n_src1, rng);
    const std::vector<T> d0 = L0Inputs<T>(c.op, false, c.n_dst, rng);
    DevMem da(a.size() * sizeof(T)), db(b.size() * sizeof(T)), dd(d0.size() * sizeof(T)), dc(sizeof(VecCase));
    CopyIn(da, a.data(), a.size() * sizeof(T));
    CopyIn(db, b.data(), b.size() * sizeof(T));
    CopyIn(dd, d0.data(), d0.size() * sizeof(T));
    CopyIn(dc, &c, sizeof c);
    ASSERT_EQ(aclrtlaunch_vec_level0(1, stream_, da.get(), db.get(), dd.get(), dc.get()), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << RecentError();
    std::vector<T> got(d0.size());
    CopyOut(got.data(), dd, got.size() * sizeof(T));
    const std::vector<T> want = L0Model(c, a, b, d0);
    EXPECT_NE(Mismatches(want, d0), "") << "the case writes nothing";
    const std::string bad = Mismatches(got, want, ulps);
    EXPECT_TRUE(bad.empty()) << "op " << c.op << " dtype " << c.dtype << " mask form " << c.mask_form << " repeat "
                             << c.repeat << " mask " << std::hex << c.mask[1] << ":" << c.mask[0] << std::dec
                             << " count " << c.count << " strides d " << c.dst_blk << "/" << c.dst_rep << " s0 "
                             << c.src0_blk << "/" << c.src0_rep << " s1 " << c.src1_blk << "/" << c.src1_rep << "\n"
                             << bad;
  }

  // Every mask form of `op` on T, with random masks, repeats and strides.
  template <typename T>
  void RunAllForms(uint32_t op, uint64_t seed) {
    std::mt19937_64 rng(seed);
    const uint32_t per = 256 / sizeof(T);
    const uint64_t ulps = (op == kVecExp || op == kVecLn) ? 1 : 0;
    for (uint32_t form = kMaskBits; form <= kMaskCounterArg; ++form) {
      for (int trial = 0; trial < 3; ++trial) {
        VecCase c{};
        c.op = op;
        c.mask_form = form;
        c.repeat = 1 + static_cast<uint32_t>(rng() % 4);
        c.mask[0] = rng();
        c.mask[1] = sizeof(T) == 4 ? 0 : rng();
        if (trial == 0) c.mask[0] |= 1;  // the first element of each repeat takes part
        c.count = form == kMaskContinuous ? 1 + rng() % per : 1 + rng() % (4 * per);
        if (form >= kMaskCounterRegister && trial == 1) c.count = 3 * per;  // whole repeats only
        const L0Strides sd = kL0StrideChoices[rng() % 8], s0 = kL0StrideChoices[rng() % 8],
                        s1 = kL0StrideChoices[rng() % 8];
        c.dst_blk = sd.blk;
        c.dst_rep = sd.rep;
        c.src0_blk = s0.blk;
        c.src0_rep = s0.rep;
        c.src1_blk = s1.blk;
        c.src1_rep = s1.rep;
        if (trial == 0) {  // the defaults
          c.dst_blk = c.src0_blk = c.src1_blk = 1;
          c.dst_rep = c.src0_rep = c.src1_rep = 8;
        }
        c.scalar = std::is_integral<T>::value ? -7.0f : -1.375f;
        RunAndCheck<T>(c, rng, ulps);
      }
    }
  }

  // The count forms, with the count as argument and in the mask register (isSetMask = false).
  template <typename T>
  void RunCountForms(uint32_t op, uint64_t seed) {
    std::mt19937_64 rng(seed);
    const uint32_t per = 256 / sizeof(T);
    for (uint32_t form = kMaskCountForm; form <= kMaskCountFormRegister; ++form) {
      for (int trial = 0; trial < 3; ++trial) {
        VecCase c{};
        c.op = op;
        c.mask_form = form;
        c.count = trial == 0 ? per : 1 + rng() % (5 * per);
        c.dst_blk = c.src0_blk = c.src1_blk = 1;
        c.dst_rep = c.src0_rep = c.src1_rep = 8;
        c.scalar = std::is_integral<T>::value ? 5.0f : 0.625f;
        RunAndCheck<T>(c, rng);
      }
    }
  }

  template <typename T>
  void RunOps(std::initializer_list<uint32_t> ops, uint64_t seed) {
    for (uint32_t op : ops) {
      if (std::is_integral<T>::value && IsFloatOnly(op)) continue;
      if (!std::is_integral<T>::value && IsIntOnly(op)) continue;
      RunAllForms<T>(op, seed + op);
      if (HasCountForm(op)) RunCountForms<T>(op, seed + 100 + op);
    }
  }
};

const std::initializer_list<uint32_t> kL0Binary = {kVecAdd, kVecSub, kVecMul, kVecDiv, kVecMax,
                                                   kVecMin, kVecAnd, kVecOr,  kVecMulAddDst};
const std::initializer_list<uint32_t> kL0Scalar = {kVecAdds, kVecMuls, kVecMaxs, kVecMins, kVecLeakyRelu};
const std::initializer_list<uint32_t> kL0Unary = {kVecExp, kVecLn, kVecAbs, kVecSqrt, kVecRsqrt,
                                                  kVecRelu, kVecReciprocal, kVecNot};
const std::initializer_list<uint32_t> kL0Moves = {kVecDuplicate, kVecCopy};
const std::initializer_list<uint32_t> kL0Fused = {kVecAddRelu, kVecSubRelu, kVecFusedMulAdd, kVecFusedMulAddRelu};

TEST_F(Level0Test, BinaryHalf) { RunOps<half>(kL0Binary, 100); }
TEST_F(Level0Test, BinaryFloat) { RunOps<float>(kL0Binary, 200); }
TEST_F(Level0Test, BinaryInt16) { RunOps<int16_t>(kL0Binary, 300); }
TEST_F(Level0Test, BinaryInt32) { RunOps<int32_t>(kL0Binary, 400); }
TEST_F(Level0Test, ScalarHalf) { RunOps<half>(kL0Scalar, 500); }
TEST_F(Level0Test, ScalarFloat) { RunOps<float>(kL0Scalar, 600); }
TEST_F(Level0Test, ScalarInt16) { RunOps<int16_t>(kL0Scalar, 700); }
TEST_F(Level0Test, ScalarInt32) { RunOps<int32_t>(kL0Scalar, 800); }
TEST_F(Level0Test, UnaryHalf) { RunOps<half>(kL0Unary, 900); }
TEST_F(Level0Test, UnaryFloat) { RunOps<float>(kL0Unary, 1000); }
TEST_F(Level0Test, UnaryInt16) { RunOps<int16_t>(kL0Unary, 1100); }
TEST_F(Level0Test, UnaryInt32) { RunOps<int32_t>(kL0Unary, 1200); }
TEST_F(Level0Test, DuplicateAndCopyHalf) { RunOps<half>(kL0Moves, 1300); }
TEST_F(Level0Test, DuplicateAndCopyFloat) { RunOps<float>(kL0Moves, 1400); }
TEST_F(Level0Test, DuplicateAndCopyInt16) { RunOps<int16_t>(kL0Moves, 1500); }
TEST_F(Level0Test, DuplicateAndCopyInt32) { RunOps<int32_t>(kL0Moves, 1600); }
TEST_F(Level0Test, FusedHalf) { RunOps<half>(kL0Fused, 1700); }
TEST_F(Level0Test, FusedFloat) { RunOps<float>(kL0Fused, 1800); }
TEST_F(Level0Test, FusedInt16) { RunOps<int16_t>(kL0Fused, 1900); }

// Each block starts in normal mode with the full mask, whatever the block before it on the core left.
TEST_F(Level0Test, EachBlockStartsWithTheNormalFullMask) {
  for (int i = 0; i < 4; ++i) ASSERT_EQ(aclrtlaunch_vec_leave_counter_mode(8, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << RecentError();
  std::mt19937_64 rng(5);
  VecCase c{};
  c.op = kVecAdd;
  c.mask_form = kMaskRegister;  // SetVectorMask only: the mode must be normal already
  c.repeat = 2;
  c.mask[0] = 0xf0f0f0f0f0f0f0f0ull;
  c.dst_blk = c.src0_blk = c.src1_blk = 1;
  c.dst_rep = c.src0_rep = c.src1_rep = 8;
  RunAndCheck<float>(c, rng);
}

// A count form with isSetMask = true leaves normal mode and the full mask in the register, as the
// hardware API does: a level-0 instruction with isSetMask = false after it covers all 64 floats.
TEST_F(Level0Test, CountFormLeavesTheNormalFullMask) {
  std::mt19937_64 rng(6);
  const std::vector<float> before = RandomValues<float>(128, rng, -4, 4);
  DevMem d(128 * 4);
  CopyIn(d, before.data(), 128 * 4);
  ASSERT_EQ(aclrtlaunch_vec_count_form_resets_mask(1, stream_, d.get()), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << RecentError();
  std::vector<float> got(128), want(128);
  CopyOut(got.data(), d, 128 * 4);
  for (int i = 0; i < 128; ++i) want[i] = before[i] + (i < 64 ? 1.0f : 2.0f);
  EXPECT_EQ(Mismatches(got, want), "");
}

// Runs a float Add case of 64-element buffers that must fail the kernel with `message`.
void ExpectAddFails(aclrtStream stream, VecCase c, const char* message) {
  c.op = kVecAdd;
  c.dtype = kVecF32;
  c.dst_blk = c.src0_blk = c.src1_blk = 1;
  c.n_dst = c.n_src0 = c.n_src1 = 64;
  std::vector<float> ones(64, 1.0f);
  DevMem da(256), db(256), dd(256), dc(sizeof(VecCase));
  CopyIn(da, ones.data(), 256);
  CopyIn(db, ones.data(), 256);
  CopyIn(dd, ones.data(), 256);
  CopyIn(dc, &c, sizeof c);
  ASSERT_EQ(aclrtlaunch_vec_level0(1, stream, da.get(), db.get(), dd.get(), dc.get()), ACL_SUCCESS);
  EXPECT_NE(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  EXPECT_NE(RecentError().find(message), std::string::npos) << RecentError();
}

// An instruction whose strides reach past the unified buffer fails the kernel, naming the instruction.
TEST_F(Level0Test, StridesPastTheUnifiedBufferFailTheKernel) {
  VecCase c{};
  c.mask_form = kMaskContinuous;
  c.count = 64;
  c.repeat = 255;
  c.dst_rep = 255;  // 255 repeats of 255 blocks: ~2 MB past dst
  c.src0_rep = c.src1_rep = 0;
  ExpectAddFails(stream_, c, "Add: local tensor");
}

// A continuous mask outside [1, elements per repeat] fails the kernel, naming the instruction.
TEST_F(Level0Test, ContinuousMaskOutOfRangeFailsTheKernel) {
  VecCase c{};
  c.mask_form = kMaskContinuous;
  c.count = 65;  // 64 floats in a repeat
  c.repeat = 1;
  c.dst_rep = c.src0_rep = c.src1_rep = 8;
  ExpectAddFails(stream_, c, "Add: continuous mask 65");
}

}  // namespace
}  // namespace vectest
