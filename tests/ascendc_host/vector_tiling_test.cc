// The vector APIs' host tilings (tiling/vector_tiling.h) on random shapes: the temporary sizes, the row
// split against the workspace, the tails, and the optiling classes holding the kernel structs' bytes.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "tiling/tiling_api.h"

namespace {

constexpr uint32_t kBlk = 32;

// The kernel struct's bytes as SaveToBuffer writes the host class (same fields, same order).
template <typename Host, typename Kernel>
void ExpectSameBytes(Host& host, const Kernel& kernel) {
  std::vector<uint8_t> buf(host.GetDataSize());
  ASSERT_EQ(buf.size(), sizeof(Kernel));
  host.SaveToBuffer(buf.data(), buf.size());
  EXPECT_EQ(std::memcmp(buf.data(), &kernel, sizeof(Kernel)), 0);
}

void ExpectSoftmaxSplit(const AscendC::tiling::SoftMaxTiling& t, uint32_t m, uint32_t k, uint32_t elem,
                        uint32_t workspace, uint64_t row) {
  EXPECT_EQ(t.srcM, m);
  EXPECT_EQ(t.srcK, k);
  EXPECT_EQ(t.srcSize, m * k);
  EXPECT_EQ(t.outMaxM, m);
  EXPECT_EQ(t.outMaxK, kBlk / elem);
  EXPECT_EQ(t.outMaxSize, m * (kBlk / elem));
  ASSERT_GE(t.splitM, 1u);
  EXPECT_LE(t.splitM * row, workspace);                           // a step fits the workspace
  EXPECT_TRUE(t.splitM == m || (t.splitM + 1) * row > workspace);  // and is as large as it may be
  EXPECT_EQ(t.splitK, k);
  EXPECT_EQ(t.splitSize, t.splitM * k);
  EXPECT_EQ(t.reduceM, t.splitM);
  EXPECT_EQ(t.reduceK, t.outMaxK);
  EXPECT_EQ(t.reduceSize, t.splitM * t.reduceK);
  EXPECT_EQ(t.rangeM * t.splitM + t.tailM, m);
  EXPECT_LT(t.tailM, t.splitM);
  EXPECT_EQ(t.tailSplitSize, t.tailM * k);
  EXPECT_EQ(t.tailReduceSize, t.tailM * t.reduceK);
}

TEST(VectorTiling, SoftMaxSplitsRowsIntoTheWorkspace) {
  std::mt19937 rng(20261205);
  for (int i = 0; i < 200; ++i) {
    const uint32_t a = 1 + rng() % 5, b = 1 + rng() % 40, k = 8 * (1 + rng() % 64);
    const uint32_t elem = (rng() & 1) ? 2 : 4;
    const ge::Shape shape({a, b, k});
    const uint32_t m = a * b;
    const uint64_t row = 4ull * k + 2 * kBlk;
    const uint32_t min = AscendC::GetSoftMaxMinTmpSize(shape, elem, false);
    const uint32_t max = AscendC::GetSoftMaxMaxTmpSize(shape, elem, true);
    EXPECT_EQ(min, row);
    EXPECT_EQ(max, row * m);
    EXPECT_EQ(AscendC::GetLogSoftMaxMinTmpSize(shape, elem, false), min);
    EXPECT_EQ(AscendC::GetLogSoftMaxMaxTmpSize(shape, elem, false), max);
    const uint32_t workspace = min + rng() % (max - min + 1);
    AscendC::tiling::SoftMaxTiling t;
    AscendC::SoftMaxTilingFunc(shape, elem, workspace, t);
    ExpectSoftmaxSplit(t, m, k, elem, workspace, row);
    optiling::SoftMaxTiling host;
    SoftMaxTilingFunc(shape, elem, workspace, host);  // found through the optiling argument
    ExpectSameBytes(host, t);
    AscendC::tiling::LogSoftMaxTiling lt;
    AscendC::LogSoftMaxTilingFunc(shape, elem, workspace, lt);
    ExpectSoftmaxSplit(lt, m, k, elem, workspace, row);
    optiling::LogSoftMaxTiling lhost;
    AscendC::LogSoftMaxTilingFunc(shape, elem, workspace, lhost);
    ExpectSameBytes(lhost, lt);
  }
}

TEST(VectorTiling, SoftMaxFlashV2CountsThePreviousMaxAndSum) {
  const ge::Shape shape({std::vector<int64_t>{37, 256}});
  EXPECT_EQ(AscendC::GetSoftMaxFlashV2MinTmpSize(shape, 2, 4, false), 4u * 256 + 2 * kBlk);
  EXPECT_EQ(AscendC::GetSoftMaxFlashV2MinTmpSize(shape, 2, 4, true), 4u * 256 + 4 * kBlk);
  EXPECT_EQ(AscendC::GetSoftMaxFlashV2MaxTmpSize(shape, 2, 4, true), 37u * (4 * 256 + 4 * kBlk));
  AscendC::tiling::SoftMaxTiling t;
  const uint32_t row = 4 * 256 + 4 * kBlk;
  AscendC::SoftMaxFlashV2TilingFunc(shape, 2, 4, 5 * row + 7, t, true);
  ExpectSoftmaxSplit(t, 37, 256, 4, 5 * row + 7, row);
  EXPECT_EQ(t.splitM, 5u);
  EXPECT_EQ(t.tailM, 2u);
  AscendC::SoftMaxFlashV2TilingFunc(shape, 2, 4, 5 * row, t, true, false, true);
  EXPECT_EQ(t.outMaxK, 1u);  // not broadcast: one element per row
  EXPECT_EQ(t.reduceK, 1u);
}

TEST(VectorTiling, SoftMaxRefusesWhatCannotWork) {
  AscendC::tiling::SoftMaxTiling t;
  t.srcM = 99;
  AscendC::SoftMaxTilingFunc(ge::Shape({4, 64}), 4, 4 * 64 + 2 * kBlk - 1, t);  // below one row
  EXPECT_EQ(t.splitM, 0u);
  EXPECT_EQ(t.srcM, 4u);
  AscendC::SoftMaxTilingFunc(ge::Shape({4, 0}), 4, 1 << 20, t);
  EXPECT_EQ(t.srcM, 0u);
  AscendC::SoftMaxTilingFunc(ge::Shape({4, 64}), 3, 1 << 20, t);
  EXPECT_EQ(t.srcM, 0u);
  EXPECT_EQ(AscendC::GetSoftMaxMinTmpSize(ge::Shape(), 4, false), 0u);
}

TEST(VectorTiling, PadAndUnPadStageWholeRows) {
  std::mt19937 rng(7);
  auto* platform = platform_ascendc::PlatformAscendCManager::GetInstance();
  ASSERT_NE(platform, nullptr);
  for (int i = 0; i < 200; ++i) {
    const uint32_t elem = (rng() & 1) ? 2 : 4;
    const uint32_t h = 1 + rng() % 400, w = (kBlk / elem) * (1 + rng() % 8), ow = w - rng() % (kBlk / elem);
    const uint32_t row = w * elem;  // w is a whole number of blocks
    uint32_t max = 0, min = 0;
    AscendC::GetPadMaxMinTmpSize(ge::Shape({h, w}), elem, max, min);
    EXPECT_EQ(min, row);
    EXPECT_EQ(max, row * h);
    const uint32_t stack = min + rng() % (max - min + 1);
    AscendC::tiling::PadTiling p;
    AscendC::PadTilingFunc(ge::Shape({h, w}), ge::Shape({h, ow}), stack, elem, p);
    EXPECT_EQ(p.srcHeight, h);
    EXPECT_EQ(p.srcWidth, w);
    EXPECT_EQ(p.srcOriWidth, ow);
    EXPECT_EQ(p.blocksPerRow, row / kBlk);
    EXPECT_EQ(p.widthWithoutLastBlock, w - kBlk / elem);
    ASSERT_GE(p.heightTiling, 1u);
    EXPECT_LE(p.heightTiling * row, stack);
    EXPECT_TRUE(p.heightTiling == h || (p.heightTiling + 1) * row > stack);
    EXPECT_EQ(p.heightFractal * p.heightTiling + p.heightFractalTail, h);
    EXPECT_EQ(p.mainLoopOffset, p.heightTiling * w);
    EXPECT_EQ(p.tailBlockOffset, p.heightFractal * p.heightTiling * w);
    EXPECT_EQ(p.tmpBuffer1RowNum, p.heightTiling);
    EXPECT_EQ(p.tmpBuffer1BlockNum * kBlk, p.heightTiling * row);
    EXPECT_EQ(p.tmpBuffer2Offset * elem, p.tmpBuffer1BlockNum * kBlk);
    optiling::PadTiling ph;
    PadTilingFunc(ge::Shape({h, w}), ge::Shape({h, ow}), stack, elem, ph);
    ExpectSameBytes(ph, p);

    uint32_t umax = 0, umin = 0;
    AscendC::GetUnPadMaxMinTmpSize(*platform, ge::Shape({h, w}), elem, umax, umin);
    EXPECT_EQ(umin, row);
    EXPECT_EQ(umax, row * h);
    AscendC::tiling::UnPadTiling u;
    AscendC::UnPadTilingFunc(ge::Shape({h, w}), stack, elem, u);
    EXPECT_EQ(u.srcHeight, h);
    EXPECT_EQ(u.srcWidth, w);
    EXPECT_EQ(u.tmpBuffer1RowNum, p.heightTiling);
    EXPECT_EQ(u.tmpBuffer1BlockNum, p.tmpBuffer1BlockNum);
    EXPECT_EQ(u.tmpBuffer2Offset, p.tmpBuffer2Offset);
    EXPECT_EQ(u.widthTiling, w);
    optiling::UnPadTiling uh;
    UnPadTilingFunc(ge::Shape({h, w}), stack, elem, uh);
    ExpectSameBytes(uh, u);
  }
}

TEST(VectorTiling, PadRefusesWhatCannotWork) {
  AscendC::tiling::PadTiling p;
  AscendC::PadTilingFunc(ge::Shape({8, 16}), ge::Shape({8, 17}), 1 << 16, 2, p);  // oriWidth > width
  EXPECT_EQ(p.srcHeight, 0u);
  AscendC::PadTilingFunc(ge::Shape({8, 16, 1}), ge::Shape({8, 16}), 1 << 16, 2, p);  // not 2-D
  EXPECT_EQ(p.srcHeight, 0u);
  AscendC::PadTilingFunc(ge::Shape({8, 16}), ge::Shape({8, 15}), 31, 2, p);  // not one row
  EXPECT_EQ(p.srcHeight, 8u);
  EXPECT_EQ(p.heightTiling, 0u);
  AscendC::tiling::UnPadTiling u;
  AscendC::UnPadTilingFunc(ge::Shape({8, 16}), 1 << 16, 8, u);  // type size
  EXPECT_EQ(u.srcHeight, 0u);
}

}  // namespace
