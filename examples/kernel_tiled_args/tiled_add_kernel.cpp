// A tiled, double-buffered half-precision add in the style of the CANN add_custom sample: every block copies
// tiles of x and y from global memory into its unified buffer (TQue, two buffers each), adds them with the
// vector unit and copies the result back. The total length and the tile count are read through pointers:
// the host passes them as placeholders, so the runtime carries them to the device with the launch.
#include "kernel_operator.h"

namespace {
constexpr int32_t kBufferNum = 2;

class TiledAdd {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t totalLength, uint32_t tileNum)
    {
        blockLength_ = totalLength / AscendC::GetBlockNum();
        tileNum_ = tileNum;
        tileLength_ = blockLength_ / tileNum / kBufferNum;
        const uint64_t start = static_cast<uint64_t>(blockLength_) * AscendC::GetBlockIdx();
        xGm_.SetGlobalBuffer((__gm__ half*)x + start, blockLength_);
        yGm_.SetGlobalBuffer((__gm__ half*)y + start, blockLength_);
        zGm_.SetGlobalBuffer((__gm__ half*)z + start, blockLength_);
        pipe_.InitBuffer(inX_, kBufferNum, tileLength_ * sizeof(half));
        pipe_.InitBuffer(inY_, kBufferNum, tileLength_ * sizeof(half));
        pipe_.InitBuffer(outZ_, kBufferNum, tileLength_ * sizeof(half));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < tileNum_ * kBufferNum; ++i) {
            CopyIn(i);
            Compute();
            CopyOut(i);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t progress)
    {
        AscendC::LocalTensor<half> x = inX_.AllocTensor<half>();
        AscendC::LocalTensor<half> y = inY_.AllocTensor<half>();
        AscendC::DataCopy(x, xGm_[progress * tileLength_], tileLength_);
        AscendC::DataCopy(y, yGm_[progress * tileLength_], tileLength_);
        inX_.EnQue(x);
        inY_.EnQue(y);
    }
    __aicore__ inline void Compute()
    {
        AscendC::LocalTensor<half> x = inX_.DeQue<half>();
        AscendC::LocalTensor<half> y = inY_.DeQue<half>();
        AscendC::LocalTensor<half> z = outZ_.AllocTensor<half>();
        AscendC::Add(z, x, y, tileLength_);
        outZ_.EnQue<half>(z);
        inX_.FreeTensor(x);
        inY_.FreeTensor(y);
    }
    __aicore__ inline void CopyOut(uint32_t progress)
    {
        AscendC::LocalTensor<half> z = outZ_.DeQue<half>();
        AscendC::DataCopy(zGm_[progress * tileLength_], z, tileLength_);
        outZ_.FreeTensor(z);
    }

    AscendC::TPipe pipe_;
    AscendC::TQue<AscendC::QuePosition::VECIN, kBufferNum> inX_, inY_;
    AscendC::TQue<AscendC::QuePosition::VECOUT, kBufferNum> outZ_;
    AscendC::GlobalTensor<half> xGm_, yGm_, zGm_;
    uint32_t blockLength_ = 0;
    uint32_t tileNum_ = 0;
    uint32_t tileLength_ = 0;
};
} // namespace

extern "C" __global__ __aicore__ void tiled_add(GM_ADDR x, GM_ADDR y, GM_ADDR z, __gm__ uint32_t* totalLength,
                                                __gm__ uint32_t* tileNum)
{
    TiledAdd op;
    op.Init(x, y, z, *totalLength, *tileNum);
    op.Process();
}
