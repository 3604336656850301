// 4:2 structured sparsity (kernels/cube_sparse_kernels.cpp): a random B with at most 2 non-zeros in every 4
// elements of K, densified with the API reference's index encoding, through LoadDataWithSparse and
// MmadWithSparse (once, and accumulated), checked against the host product with the sparse B; shapes whose m
// and n end inside a fractal (the whole fractals are compared, as Mmad writes them).
#include <string>

#include "cube_sparse_kernels.h"
#include "cube_test_util.h"

namespace cube_test {
namespace {

class CubeSparseTest : public CubeTest {};

TEST_F(CubeSparseTest, DensifiedBAgainstTheSparseProduct) {
  const uint32_t m = 20, n = 40, k = 128, m16 = 32, n16 = 48, kd = k / 2, n1 = n16 / 16, k1 = k / 32;
  std::mt19937 rng(17);
  std::vector<int8_t> a(size_t{m16} * k);        // zZ
  std::vector<int32_t> aFull(size_t{m16} * k);   // row-major
  for (uint32_t r = 0; r < m16; ++r) {
    for (uint32_t c = 0; c < k; ++c) {
      const auto v = static_cast<int8_t>(static_cast<int32_t>(rng() % 255) - 127);
      aFull[size_t{r} * k + c] = v;
      a[((r / 16) * k1 + c / 32) * 512 + (r % 16) * 32 + c % 32] = v;
    }
  }
  std::vector<int32_t> bFull(size_t{k} * n16, 0);  // the sparse B, row-major
  std::vector<int8_t> b(size_t{kd} * n16);          // dense, zN
  std::vector<uint8_t> idx(b.size() / 4, 0);
  for (uint32_t j = 0; j < n16; ++j) {
    for (uint32_t g = 0; g < k / 4; ++g) {
      const uint32_t p0 = rng() % 3, p1 = p0 + 1 + rng() % (3 - p0);  // p0 < p1 <= 3
      const uint32_t pos[2] = {p0, p1};
      for (uint32_t h = 0; h < 2; ++h) {
        const uint32_t e = g * 2 + h;  // dense row
        const auto v = rng() % 5 == 0 ? int8_t{0} : static_cast<int8_t>(static_cast<int32_t>(rng() % 255) - 127);
        bFull[size_t{g * 4 + pos[h]} * n16 + j] = v;
        const size_t frac = size_t{e / 32} * n1 + j / 16;
        b[frac * 512 + (j % 16) * 32 + e % 32] = v;
        const uint32_t code = h == 0 ? pos[0] : pos[1] - 1;
        idx[frac * 128 + (j % 16) * 8 + (e % 32) / 4] |= static_cast<uint8_t>(code << (2 * (e % 4)));
      }
    }
  }
  for (uint32_t twice = 0; twice < 2; ++twice) {
    SCOPED_TRACE("twice " + std::to_string(twice));
    void* dc = Alloc(size_t{m16} * n16 * sizeof(int32_t));
    ASSERT_EQ(CubeSparseMm(stream_, Upload(a), Upload(b), Upload(idx), dc, m, n, k, twice), ACL_SUCCESS);
    ASSERT_EQ(Sync(), ACL_SUCCESS);
    const auto got = Download<int32_t>(dc, size_t{m16} * n16);
    size_t bad = 0;
    for (uint32_t r = 0; r < m16; ++r) {
      for (uint32_t j = 0; j < n16; ++j) {
        int32_t want = 0;
        for (uint32_t c = 0; c < k; ++c) want += aFull[size_t{r} * k + c] * bFull[size_t{c} * n16 + j];
        bad += got[(size_t{j / 16} * m16 + r) * 16 + j % 16] != want * static_cast<int32_t>(twice + 1);
      }
    }
    EXPECT_EQ(bad, 0u);
  }
}

}  // namespace
}  // namespace cube_test
