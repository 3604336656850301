// Mixed cube/vector kernels: vector sub-blocks (GetSubBlockIdx/Num, GetTaskRation, GetBlockIdx), the cube
// part (ASCEND_IS_AIC / g_coreType) and cross-core flags between them.
#include "kernel_operator.h"
#include "mix_kernels.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void mix_sub_blocks(GM_ADDR ids, GM_ADDR x, GM_ADDR y, uint32_t n_per_block) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
  const int64_t p = GetBlockIdx();
  __gm__ int32_t* id = reinterpret_cast<__gm__ int32_t*>(ids) + p * 4;
  id[0] = static_cast<int32_t>(p);
  id[1] = static_cast<int32_t>(GetSubBlockIdx());
  id[2] = static_cast<int32_t>(GetSubBlockNum());
  id[3] = static_cast<int32_t>(GetTaskRation());
  // This sub-block's half of its block's slice (the first half rounded up).
  const uint32_t half = (n_per_block + 1) / 2;
  const uint32_t start = GetSubBlockIdx() == 0 ? 0 : half;
  const uint32_t count = GetSubBlockIdx() == 0 ? half : n_per_block - half;
  const uint64_t base = static_cast<uint64_t>(p / GetTaskRation()) * n_per_block + start;
  GlobalTensor<float> xg, yg;
  xg.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x) + base);
  yg.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y) + base);
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, (count * sizeof(float) + 31) / 32 * 32);
  LocalTensor<float> t = buf.Get<float>();
  DataCopy(t, xg, count);
  Muls(t, t, 2.0f, count);
  DataCopy(yg, t, count);
}

extern "C" __mix__(1, 2) __global__ void mix_flags(GM_ADDR x, GM_ADDR vals, GM_ADDR peer, GM_ADDR sums, GM_ADDR echo,
                                                   uint32_t rounds) {
  __gm__ int32_t* xs = reinterpret_cast<__gm__ int32_t*>(x);
  volatile __gm__ int32_t* v = reinterpret_cast<__gm__ int32_t*>(vals);
  __gm__ int32_t* pr = reinterpret_cast<__gm__ int32_t*>(peer);
  volatile __gm__ int32_t* sm = reinterpret_cast<__gm__ int32_t*>(sums);
  __gm__ int32_t* ec = reinterpret_cast<__gm__ int32_t*>(echo);
  for (uint32_t r = 0; r < rounds; ++r) {
    if ASCEND_IS_AIC {
      const int64_t b = GetBlockIdx();
      CrossCoreWaitFlag(3);
      sm[b * rounds + r] = v[2 * b] + v[2 * b + 1] + 1000 * g_coreType;
      CrossCoreSetFlag<2, PIPE_FIX>(4);
    } else {
      const int64_t p = GetBlockIdx();
      const int64_t b = p / GetTaskRation();
      v[p] = xs[p * rounds + r];
      CrossCoreSetFlag<1, PIPE_MTE3>(5);
      CrossCoreWaitFlag<1, PIPE_MTE3>(5);
      pr[p * rounds + r] = v[p ^ 1];
      CrossCoreSetFlag<2, PIPE_MTE3>(3);
      CrossCoreWaitFlag(4);
      ec[p * rounds + r] = sm[b * rounds + r];
      // Both sub-blocks read this round's values before either overwrites them in the next.
      CrossCoreSetFlag<1, PIPE_MTE3>(6);
      CrossCoreWaitFlag<1, PIPE_MTE3>(6);
    }
  }
}

extern "C" __global__ __aicore__ void mix_mode_zero(GM_ADDR x, GM_ADDR vals, GM_ADDR sums) {
  const int64_t b = GetBlockIdx();
  volatile __gm__ int32_t* v = reinterpret_cast<__gm__ int32_t*>(vals);
  v[b] = reinterpret_cast<__gm__ int32_t*>(x)[b];
  CrossCoreSetFlag<0, PIPE_MTE3>(7);
  CrossCoreWaitFlag<0, PIPE_MTE3>(7);
  int32_t sum = 0;
  for (int64_t k = 0; k < GetBlockNum(); ++k) sum += v[k];
  reinterpret_cast<__gm__ int32_t*>(sums)[b] = sum;
}

extern "C" __global__ __aicore__ void mix_flag_without_cube(GM_ADDR out) {
  CrossCoreSetFlag<2, PIPE_MTE3>(1);
  reinterpret_cast<__gm__ int32_t*>(out)[0] = 1;
}

int32_t MixSubBlocks(uint32_t blocks, void* stream, void* ids, const void* x, void* y, uint32_t n_per_block) {
  return static_cast<int32_t>(
      mix_sub_blocks<<<blocks, nullptr, stream>>>((GM_ADDR)ids, (GM_ADDR)x, (GM_ADDR)y, n_per_block));
}
int32_t MixFlags(uint32_t blocks, void* stream, const void* x, void* vals, void* peer, void* sums, void* echo,
                 uint32_t rounds) {
  return static_cast<int32_t>(mix_flags<<<blocks, nullptr, stream>>>((GM_ADDR)x, (GM_ADDR)vals, (GM_ADDR)peer,
                                                                     (GM_ADDR)sums, (GM_ADDR)echo, rounds));
}
int32_t MixModeZero(uint32_t blocks, void* stream, const void* x, void* vals, void* sums) {
  return static_cast<int32_t>(mix_mode_zero<<<blocks, nullptr, stream>>>((GM_ADDR)x, (GM_ADDR)vals, (GM_ADDR)sums));
}
int32_t MixFlagWithoutCube(void* stream, void* out) {
  return static_cast<int32_t>(mix_flag_without_cube<<<1, nullptr, stream>>>((GM_ADDR)out));
}
