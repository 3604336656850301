// ResNet-50 classification the way the CANN samples do it: query the model's sizes, load it into memory
// the program allocated, describe it, bind one input and one output, run it, print the top 5 and the
// throughput.
//
//   main <model.om> <image.bin> [iterations]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <numeric>
#include <vector>

#include "acl/acl.h"

#define CHECK(call)                                                                       \
  do {                                                                                    \
    aclError rc_ = (call);                                                                \
    if (rc_ != ACL_SUCCESS) {                                                             \
      std::printf("[ERROR] %s failed: %d %s\n", #call, rc_, aclGetRecentErrMsg());       \
      return 1;                                                                           \
    }                                                                                     \
  } while (0)

int main(int argc, char** argv) {
  if (argc < 3) {
    std::printf("usage: %s <model.om> <image.bin> [iterations]\n", argv[0]);
    return 2;
  }
  const int iterations = argc > 3 ? std::atoi(argv[3]) : 20;
  CHECK(aclInit(nullptr));
  CHECK(aclrtSetDevice(0));
  aclrtContext ctx;
  CHECK(aclrtCreateContext(&ctx, 0));
  aclrtStream stream;
  CHECK(aclrtCreateStream(&stream));

  size_t work = 0, weight = 0;
  CHECK(aclmdlQuerySize(argv[1], &work, &weight));
  void *work_mem = nullptr, *weight_mem = nullptr;
  CHECK(aclrtMalloc(&work_mem, work, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMalloc(&weight_mem, weight, ACL_MEM_MALLOC_HUGE_FIRST));
  uint32_t model = 0;
  const auto t_load = std::chrono::steady_clock::now();
  CHECK(aclmdlLoadFromFileWithMem(argv[1], &model, work_mem, work, weight_mem, weight));
  const double load_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t_load).count();
  std::printf("[INFO] load model %s success (%.1f ms; weights %.1f MiB, feature maps %.1f MiB)\n", argv[1], load_ms,
              weight / 1048576.0, work / 1048576.0);

  aclmdlDesc* desc = aclmdlCreateDesc();
  CHECK(aclmdlGetDesc(desc, model));
  const size_t in_size = aclmdlGetInputSizeByIndex(desc, 0);
  const size_t out_size = aclmdlGetOutputSizeByIndex(desc, 0);
  std::ifstream f(argv[2], std::ios::binary);
  std::vector<char> image((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  if (image.size() != in_size) {
    std::printf("[ERROR] %s has %zu bytes, the model's input takes %zu\n", argv[2], image.size(), in_size);
    return 1;
  }
  void *in_mem = nullptr, *out_mem = nullptr;
  CHECK(aclrtMalloc(&in_mem, in_size, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMalloc(&out_mem, out_size, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMemcpy(in_mem, in_size, image.data(), in_size, ACL_MEMCPY_HOST_TO_DEVICE));
  aclmdlDataset* input = aclmdlCreateDataset();
  aclmdlDataset* output = aclmdlCreateDataset();
  aclDataBuffer* in_buf = aclCreateDataBuffer(in_mem, in_size);
  aclDataBuffer* out_buf = aclCreateDataBuffer(out_mem, out_size);
  CHECK(aclmdlAddDatasetBuffer(input, in_buf));
  CHECK(aclmdlAddDatasetBuffer(output, out_buf));

  CHECK(aclmdlExecute(model, input, output));  // warm-up
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < iterations; ++i) CHECK(aclmdlExecute(model, input, output));
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("[INFO] model execute success: %d runs, %.2f ms each, %.1f img/s\n", iterations,
              1000.0 * secs / iterations, iterations / secs);

  std::vector<float> logits(out_size / sizeof(float));
  CHECK(aclrtMemcpy(logits.data(), out_size, out_mem, out_size, ACL_MEMCPY_DEVICE_TO_HOST));
  const float top = *std::max_element(logits.begin(), logits.end());
  double sum = 0;
  for (float v : logits) sum += std::exp(v - top);
  std::vector<size_t> order(logits.size());
  std::iota(order.begin(), order.end(), 0);
  std::partial_sort(order.begin(), order.begin() + 5, order.end(),
                    [&](size_t a, size_t b) { return logits[a] > logits[b]; });
  for (int i = 0; i < 5; ++i) {
    std::printf("[INFO] top %d: index[%zu] value[%f]\n", i + 1, order[i], std::exp(logits[order[i]] - top) / sum);
  }

  aclDestroyDataBuffer(in_buf);
  aclDestroyDataBuffer(out_buf);
  aclmdlDestroyDataset(input);
  aclmdlDestroyDataset(output);
  aclrtFree(in_mem);
  aclrtFree(out_mem);
  CHECK(aclmdlUnload(model));
  aclmdlDestroyDesc(desc);
  aclrtFree(work_mem);
  aclrtFree(weight_mem);
  CHECK(aclrtDestroyStream(stream));
  CHECK(aclrtDestroyContext(ctx));
  CHECK(aclrtResetDevice(0));
  CHECK(aclFinalize());
  std::printf("[INFO] SAMPLE PASSED\n");
  return 0;
}
