// Test kernel of DataCopyPad (GM->UB) padding with SetPadValue, reached through the global GetTPipePtr()
// (no `AscendC::`, as CANN declares it) and TPipe's event ids.
#include <cstring>

#include "kernel_operator.h"

// dst (n_dst floats, holding its initial contents) is staged into the unified buffer, `rows` rows of
// `cols` floats of src (rows `src_gap` bytes apart in global memory) are copied into it by DataCopyPad with
// `left` / `right` padding elements, and dst is written back. mode 0: isPad with paddingValue = value;
// 1: !isPad after SetPadValue(value); 2: !isPad with no SetPadValue (the padding keeps its contents);
// 3: as 0 through the older DataCopyParams / DataCopyPadParams forms (the pad's bits in paddingValue), also
// writing dst back with DataCopyPad(GM, UB, DataCopyParams), with L2 cache hints set on both tensors.
extern "C" __global__ __aicore__ void vec_copy_pad(GM_ADDR src, GM_ADDR dst, uint32_t rows, uint32_t cols,
                                                   uint32_t src_gap, uint32_t left, uint32_t right, uint32_t n_dst,
                                                   uint32_t mode, float value) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECIN> buf;
  GetTPipePtr()->InitBuffer(buf, (n_dst * 4 + 31) / 32 * 32);
  AscendC::GlobalTensor<float> gs, gd;
  gs.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(src));
  gd.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(dst), n_dst);
  AscendC::LocalTensor<float> l = buf.Get<float>();
  AscendC::DataCopy(l, gd, n_dst);
  const AscendC::TEventID id = GetTPipePtr()->AllocEventID<AscendC::HardEvent::MTE2_V>();
  AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(id);
  AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(id);
  GetTPipePtr()->ReleaseEventID<AscendC::HardEvent::MTE2_V>(id);
  if (mode == 3) {
    static_assert(AscendC::Std::is_same_v<AscendC::Std::remove_volatile_t<volatile int>, int>);
    gs.SetL2CacheHint(AscendC::CacheMode::CACHE_MODE_DISABLE);
    gd.SetL2CacheHint<AscendC::CacheRwMode::RW>(AscendC::CacheMode::CACHE_MODE_NORMAL);
    uint32_t bits = 0;
    std::memcpy(&bits, &value, sizeof(bits));
    AscendC::DataCopyPadParams old_pad{true, static_cast<uint8_t>(left), static_cast<uint8_t>(right), bits};
    AscendC::DataCopyPad(l, gs, {static_cast<uint16_t>(rows), static_cast<uint16_t>(cols * 4),
                                 static_cast<uint16_t>(src_gap), 0}, old_pad);
    AscendC::DataCopyPad(gd, l, {1, static_cast<uint16_t>(n_dst * 4), 0, 0});
    return;
  }
  AscendC::DataCopyExtParams p{static_cast<uint16_t>(rows), cols * 4, src_gap, 0, 0};
  AscendC::DataCopyPadExtParams<float> pad{mode == 0, static_cast<uint8_t>(left), static_cast<uint8_t>(right),
                                           mode == 0 ? value : -1.0f};
  if (mode == 1) AscendC::SetPadValue(value);
  AscendC::DataCopyPad(l, gs, p, pad);
  AscendC::DataCopy(gd, l, n_dst);
}

// ids[0..2] = AllocEventID twice then FetchEventID; ids[3] = FetchEventID after releasing the first.
extern "C" __global__ __aicore__ void vec_event_ids(GM_ADDR ids) {
  AscendC::TPipe pipe;
  __gm__ int32_t* out = reinterpret_cast<__gm__ int32_t*>(ids);
  const AscendC::TEventID a = pipe.AllocEventID<AscendC::HardEvent::V_S>();
  const AscendC::TEventID b = pipe.AllocEventID<AscendC::HardEvent::V_S>();
  out[0] = a;
  out[1] = b;
  out[2] = GetTPipePtr()->FetchEventID(AscendC::HardEvent::V_S);
  pipe.ReleaseEventID<AscendC::HardEvent::V_S>(a);
  out[3] = GetTPipePtr()->FetchEventID<AscendC::HardEvent::V_S>();
  out[4] = pipe.FetchEventID(AscendC::HardEvent::S_V);  // other events have their own ids
}

// ListTensorDesc over `list` (length bytes): out[0] = GetSize(); per tensor i, out[1 + 8 i ..] = dim,
// index, the first 4 shape values (0 past dim) and the first two int32 elements of its data (through
// GetDataObj), as int64.
extern "C" __global__ __aicore__ void vec_list_tensor(GM_ADDR list, GM_ADDR out, uint32_t length) {
  AscendC::ListTensorDesc l(reinterpret_cast<__gm__ void*>(list), length);
  __gm__ int64_t* o = reinterpret_cast<__gm__ int64_t*>(out);
  o[0] = l.GetSize();
  for (uint32_t i = 0; i < l.GetSize(); ++i) {
    uint64_t shape[8] = {};
    AscendC::TensorDesc<int32_t> d;
    d.SetShapeAddr(shape);
    l.GetDesc(d, i);
    __gm__ int64_t* t = o + 1 + 8 * i;
    t[0] = static_cast<int64_t>(d.GetDim());
    t[1] = static_cast<int64_t>(d.GetIndex());
    for (uint32_t k = 0; k < 4; ++k) t[2 + k] = k < d.GetDim() ? static_cast<int64_t>(d.GetShape(k)) : 0;
    AscendC::GlobalTensor<int32_t> g = d.GetDataObj();
    t[6] = g.GetValue(0);
    t[7] = l.GetDataPtr<int32_t>(i)[1];
  }
}

// Slice DataCopy of floats, GM -> UB with (dst, src) slice infos (dims dimensions, 5 uint32 each in
// `infos`: dst then src), then the whole UB tensor (n_ub floats, staged from ub_init) back to out.
extern "C" __global__ __aicore__ void vec_slice_copy(GM_ADDR src, GM_ADDR ub_init, GM_ADDR out, GM_ADDR infos,
                                                     uint32_t dims, uint32_t n_ub) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECIN> buf;
  pipe.InitBuffer(buf, (n_ub * 4 + 31) / 32 * 32);
  AscendC::GlobalTensor<float> gs, gi, go;
  gs.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(src));
  gi.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(ub_init), n_ub);
  go.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out), n_ub);
  AscendC::LocalTensor<float> l = buf.Get<float>();
  AscendC::DataCopy(l, gi, n_ub);
  const __gm__ uint32_t* in = reinterpret_cast<const __gm__ uint32_t*>(infos);
  AscendC::SliceInfo d[AscendC::K_MAX_DIM], s[AscendC::K_MAX_DIM];
  for (uint32_t i = 0; i < dims; ++i) {
    d[i] = AscendC::SliceInfo(in[5 * i], in[5 * i + 1], in[5 * i + 2], in[5 * i + 3], in[5 * i + 4]);
    const uint32_t j = 5 * (dims + i);
    s[i] = AscendC::SliceInfo(in[j], in[j + 1], in[j + 2], in[j + 3], in[j + 4]);
  }
  AscendC::DataCopy(l, gs, d, s, dims);
  AscendC::DataCopy(go, l, n_ub);
}
