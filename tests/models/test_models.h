// Small models written with the .om writer for the aclmdl tests, and their reference results.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace npurt::test {

// conv_relu_add: inputs x [1,3,8,8] and r [1,4,8,8] (float32, NCHW); weights W [4,3,3,3] and b [4];
//   y = Conv2D(x, W, b; stride 1, pad 1)   (arena)
//   out0 = Relu(y)                         (output 0, [1,4,8,8])
//   out1 = Add(out0, r)                    (output 1, [1,4,8,8])
struct ConvReluAdd {
  std::vector<float> w, b;  // the model's weights (random, fixed seed)
  std::vector<uint8_t> file;  // the .om image
  uint64_t arena = 0, weights = 0;
  static constexpr size_t kX = 1 * 3 * 8 * 8, kR = 1 * 4 * 8 * 8, kOut = 1 * 4 * 8 * 8;
  // The reference (naive loops).
  void Reference(const std::vector<float>& x, const std::vector<float>& r, std::vector<float>* out0,
                 std::vector<float>* out1) const;
};

ConvReluAdd MakeConvReluAdd(uint32_t seed = 7);
std::vector<float> RandomFloats(size_t n, uint32_t seed);
// Writes `bytes` to a fresh file under the test's temporary directory and returns its path.
std::string WriteTemp(const std::string& name, const std::vector<uint8_t>& bytes);

}  // namespace npurt::test
