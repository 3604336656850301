// CANN 9's kernel debugging headers (utils/debug/asc_printf.h, asc_dump.h) and DumpTensor. A source of its
// own: asc_printf.h changes how every printf of the source prints (the block prefix), so the other kernel
// sources keep AscendC::printf's plain lines.
#include "kernel_operator.h"
#include "utils/debug/asc_dump.h"
#include "utils/debug/asc_printf.h"

// Each block prints a line with arguments, one without, and one line made of two calls (the prefix once).
extern "C" __global__ __aicore__ void cts_asc_print(uint32_t value) {
  printf("hello %u from %ld\n", value, static_cast<long>(AscendC::GetBlockIdx()));
  printf("no arguments\n");
  printf("split ");
  AscendC::printf("line %u\n", value + 1);
}

// Copies n halves of x into the unified buffer and dumps them from there (desc 5) and from x (desc 6,
// asc_dump_gm), then n int32 from y in global memory (DumpTensor, desc 7), then y again nested by a shape of
// three rows (desc 8: [[row 0], [row 1], [row 2]]) and by a shape of one row covering n - 2 elements (desc 9:
// the last two follow flat). n is a multiple of 3.
extern "C" __global__ __aicore__ void cts_dump(GM_ADDR x, GM_ADDR y, uint32_t n) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 64 + n * sizeof(half));
  AscendC::GlobalTensor<half> xg;
  xg.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(x), n);
  AscendC::GlobalTensor<int32_t> yg;
  yg.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(y), n);
  AscendC::LocalTensor<half> ub = buf.Get<half>()[32];  // at byte 64 of the buffer
  AscendC::DataCopy(ub, xg, n);
  AscendC::DumpTensor(ub, 5, n);
  asc_dump_gm<half>(reinterpret_cast<__gm__ half*>(x), 6, n);
  AscendC::DumpTensor(yg, 7, n);
  const uint32_t rows[] = {3, n / 3};
  AscendC::DumpTensor(yg, 8, n, AscendC::ShapeInfo(2, rows));
  const uint32_t part[] = {1, n - 2};
  AscendC::DumpTensor(yg, 9, n, AscendC::ShapeInfo(2, part));
}
