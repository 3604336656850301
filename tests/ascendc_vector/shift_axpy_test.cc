// ShiftLeft / ShiftRight (int16/uint16/int32/uint32; count and mask/repeat forms, shifts 0..width, roundEn),
// Axpy (half, float, half into float; count and mask/repeat forms) and CreateVecIndex against host models
// on random data; dst starts with random contents, so writes outside the mask show.
#include <cmath>

#include "aclrtlaunch_vec_axpy.h"
#include "aclrtlaunch_vec_axpy_mixed.h"
#include "aclrtlaunch_vec_create_index.h"
#include "aclrtlaunch_vec_shift.h"
#include "vec_test_util.h"

namespace vectest {
namespace {

class ShiftAxpyTest : public VecTest {};

// The reference's shifts: unsigned logical; signed right arithmetic (round: + the last bit shifted out),
// signed left keeps the sign bit.
template <typename T>
T ModelShift(T a, uint32_t s, bool left, bool round) {
  using U = typename std::make_unsigned<T>::type;
  const uint32_t bits = 8 * sizeof(T);
  if (left) {
    const U u = static_cast<U>(a);
    const U sh = s >= bits ? U(0) : static_cast<U>(u << s);
    if (!std::is_signed<T>::value) return static_cast<T>(sh);
    const U sign = static_cast<U>(U(1) << (bits - 1));
    return static_cast<T>(static_cast<U>((sh & static_cast<U>(~sign)) | (u & sign)));
  }
  if (!std::is_signed<T>::value) return s >= bits ? T(0) : static_cast<T>(a >> s);
  const int64_t v = a;
  int64_t r = s >= bits ? (v < 0 ? -1 : 0) : v >> s;
  if (round && s >= 1 && s <= bits) r += (v >> (s - 1)) & 1;
  return static_cast<T>(r);
}

struct L0 {
  uint32_t mask, repeat, src_rep, dst_rep;  // mask 0: the count form
};

template <typename T>
void Extents(const L0& f, uint32_t n, uint32_t& n_src, uint32_t& n_dst) {
  const uint32_t per_blk = 32 / sizeof(T);
  if (f.mask == 0) {
    n_src = n;
    n_dst = n + per_blk;
    return;
  }
  n_src = ((f.repeat - 1) * f.src_rep + 8) * per_blk;
  n_dst = ((f.repeat - 1) * f.dst_rep + 8) * per_blk;
}

// Calls set(dst_index, src_index) for every element the form computes.
template <typename T, typename F>
void ForEach(const L0& f, uint32_t n, F set) {
  const uint32_t per_blk = 32 / sizeof(T);
  if (f.mask == 0) {
    for (uint32_t i = 0; i < n; ++i) set(i, i);
    return;
  }
  for (uint32_t r = 0; r < f.repeat; ++r) {
    for (uint32_t k = 0; k < f.mask; ++k) set(r * f.dst_rep * per_blk + k, r * f.src_rep * per_blk + k);
  }
}

template <typename T>
void RunShifts(aclrtStream stream, uint32_t dtype, uint64_t seed) {
  std::mt19937_64 rng(seed);
  const uint32_t bits = 8 * sizeof(T), per = 256 / sizeof(T);
  const double lo = std::is_signed<T>::value ? -std::ldexp(1.0, bits - 1) : 0, hi = std::ldexp(1.0, bits - 1) * 2 + lo;
  for (const L0& f : {L0{0, 0, 0, 0}, L0{per, 2, 8, 8}, L0{per / 2 + 3, 3, 9, 10}, L0{5, 2, 16, 8}}) {
    for (uint32_t shift : {0u, 1u, 5u, bits - 1, bits}) {
      for (uint32_t left = 0; left < 2; ++left) {
        for (uint32_t round = 0; round < (left == 0 && f.mask != 0 ? 2u : 1u); ++round) {
          uint32_t n_src = 0, n_dst = 0;
          Extents<T>(f, 300, n_src, n_dst);
          const std::vector<T> src = RandomValues<T>(n_src, rng, lo, hi);
          const std::vector<T> dst0 = RandomValues<T>(n_dst, rng, lo, hi);
          DevMem ds(n_src * sizeof(T)), dd(n_dst * sizeof(T));
          CopyIn(ds, src.data(), n_src * sizeof(T));
          CopyIn(dd, dst0.data(), n_dst * sizeof(T));
          ASSERT_EQ(aclrtlaunch_vec_shift(1, stream, ds.get(), dd.get(), dtype, n_src, n_dst, left, shift, f.mask,
                                          f.repeat, f.src_rep, f.dst_rep, round),
                    ACL_SUCCESS);
          ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS) << RecentError();
          std::vector<T> got(n_dst);
          CopyOut(got.data(), dd, n_dst * sizeof(T));
          std::vector<T> want = dst0;
          ForEach<T>(f, n_src, [&](uint32_t d, uint32_t s) { want[d] = ModelShift(src[s], shift, left != 0, round != 0); });
          EXPECT_EQ(Mismatches(got, want), "") << "dtype " << dtype << " mask " << f.mask << " shift " << shift
                                               << " left " << left << " round " << round;
        }
      }
    }
  }
}

TEST_F(ShiftAxpyTest, Shifts) {
  RunShifts<int16_t>(stream_, 0, 81);
  RunShifts<uint16_t>(stream_, 1, 82);
  RunShifts<int32_t>(stream_, 2, 83);
  RunShifts<uint32_t>(stream_, 3, 84);
}

// A shift past the element width fails the kernel (the hardware takes 0..width).
TEST_F(ShiftAxpyTest, ShiftPastTheWidthFails) {
  DevMem ds(64), dd(64);
  ASSERT_EQ(aclrtlaunch_vec_shift(1, stream_, ds.get(), dd.get(), 0, 16, 16, 1, 17, 0, 0, 0, 0, 0), ACL_SUCCESS);
  EXPECT_NE(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  const std::string message = RecentError();
  EXPECT_NE(message.find("ShiftLeft: shift by 17 bits"), std::string::npos) << message;
}

template <typename T>
void RunAxpy(aclrtStream stream, uint32_t is_half, uint64_t seed) {
  std::mt19937_64 rng(seed);
  const uint32_t per = 256 / sizeof(T);
  for (const L0& f : {L0{0, 0, 0, 0}, L0{per, 2, 8, 8}, L0{per / 2 + 3, 3, 9, 10}, L0{7, 2, 16, 8}}) {
    uint32_t n_src = 0, n_dst = 0;
    Extents<T>(f, 777, n_src, n_dst);
    const std::vector<T> src = RandomValues<T>(n_src, rng, -4, 4);
    const std::vector<T> dst0 = RandomValues<T>(n_dst, rng, -4, 4);
    const float scalar = -1.75f;
    DevMem ds(n_src * sizeof(T)), dd(n_dst * sizeof(T));
    CopyIn(ds, src.data(), n_src * sizeof(T));
    CopyIn(dd, dst0.data(), n_dst * sizeof(T));
    ASSERT_EQ(aclrtlaunch_vec_axpy(1, stream, ds.get(), dd.get(), is_half, n_src, n_dst, scalar, f.mask, f.repeat,
                                   f.src_rep, f.dst_rep),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS) << RecentError();
    std::vector<T> got(n_dst);
    CopyOut(got.data(), dd, n_dst * sizeof(T));
    std::vector<T> want = dst0;
    ForEach<T>(f, n_src, [&](uint32_t d, uint32_t s) {
      want[d] = static_cast<T>(std::fma(scalar, static_cast<float>(src[s]), static_cast<float>(dst0[d])));
    });
    EXPECT_EQ(Mismatches(got, want), "") << "half " << is_half << " mask " << f.mask;
  }
}

TEST_F(ShiftAxpyTest, Axpy) {
  RunAxpy<float>(stream_, 0, 91);
  RunAxpy<half>(stream_, 1, 92);
}

TEST_F(ShiftAxpyTest, AxpyHalfIntoFloat) {
  std::mt19937_64 rng(93);
  const uint32_t n = 300;
  const std::vector<half> src = RandomValues<half>(n, rng, -4, 4);
  const std::vector<float> dst0 = RandomValues<float>(n, rng, -4, 4);
  DevMem ds(n * 2), dd(n * 4);
  CopyIn(ds, src.data(), n * 2);
  CopyIn(dd, dst0.data(), n * 4);
  ASSERT_EQ(aclrtlaunch_vec_axpy_mixed(1, stream_, ds.get(), dd.get(), n, 0.5f), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << RecentError();
  std::vector<float> got(n);
  CopyOut(got.data(), dd, n * 4);
  std::vector<float> want(n);
  for (uint32_t i = 0; i < n; ++i) want[i] = std::fma(0.5f, static_cast<float>(src[i]), dst0[i]);
  EXPECT_EQ(Mismatches(got, want), "");
}

TEST_F(ShiftAxpyTest, CreateVecIndex) {
  std::mt19937_64 rng(94);
  for (uint32_t is_float = 0; is_float < 2; ++is_float) {
    const uint32_t n = 200, n_dst = 216;
    const int32_t first = -37;
    std::vector<int32_t> dst0 = RandomValues<int32_t>(n_dst, rng, -1000, 1000);
    DevMem dd(n_dst * 4);
    CopyIn(dd, dst0.data(), n_dst * 4);
    ASSERT_EQ(aclrtlaunch_vec_create_index(1, stream_, dd.get(), is_float, n, n_dst, first), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << RecentError();
    std::vector<int32_t> got(n_dst);
    CopyOut(got.data(), dd, n_dst * 4);
    std::vector<int32_t> want = dst0;
    for (uint32_t i = 0; i < n; ++i) {
      if (is_float != 0) {
        const float v = static_cast<float>(first + static_cast<int32_t>(i));
        std::memcpy(&want[i], &v, 4);
      } else {
        want[i] = first + static_cast<int32_t>(i);
      }
    }
    EXPECT_EQ(Mismatches(got, want), "") << "float " << is_float;
  }
}

}  // namespace
}  // namespace vectest
