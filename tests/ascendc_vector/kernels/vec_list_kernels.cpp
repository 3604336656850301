// Test kernels of ListTensorDesc / TensorDesc (kernel_operator_list_tensor_intf.h): a tensor list laid out by
// the host in global memory.
#include "kernel_operator_list_tensor_intf.h"

// out: [count, then per tensor: dim, index, shape[0..dim), then the sum of its elements (as float bits)].
// length / shape_size: the constructor's check values (0xffffffff: unchecked).
extern "C" __global__ __aicore__ void vec_list_describe(GM_ADDR list, GM_ADDR out, uint32_t length,
                                                        uint32_t shape_size) {
  AscendC::ListTensorDesc l(reinterpret_cast<__gm__ void*>(list), length, shape_size);
  __gm__ uint64_t* o = reinterpret_cast<__gm__ uint64_t*>(out);
  uint32_t w = 0;
  o[w++] = l.GetSize();
  for (uint32_t i = 0; i < l.GetSize(); ++i) {
    uint64_t shape[8] = {0};
    AscendC::TensorDesc<float> d;
    d.SetShapeAddr(shape);
    l.GetDesc(d, i);
    o[w++] = d.GetDim();
    o[w++] = d.GetIndex();
    uint64_t n = 1;
    for (uint32_t k = 0; k < d.GetDim(); ++k) {
      o[w++] = d.GetShape(k);
      n *= d.GetShape(k);
    }
    AscendC::GlobalTensor<float> g = d.GetDataObj();
    float sum = 0;
    for (uint64_t e = 0; e < n; ++e) sum += g.GetValue(e);
    if (d.GetDataPtr() != l.GetDataPtr<float>(i)) sum = -1;
    uint32_t bits = 0;
    std::memcpy(&bits, &sum, sizeof bits);
    o[w++] = bits;
  }
}
