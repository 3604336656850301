// Small models written with the .om writer for the aclmdl tests, and their reference results.
#pragma once

#include <cstddef>
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
// Its input and output sizes in bytes.
inline constexpr size_t kBytesX = ConvReluAdd::kX * 4, kBytesR = ConvReluAdd::kR * 4, kBytesOut = ConvReluAdd::kOut * 4;

// gear_conv_relu: a gear model (atc --dynamic_*): input x (float32) and the hidden selector
// ascend_mbatch_shape_data (int32, last); y = Relu(Conv2D(x, W, b; 3x3, stride 1, pad 1)), W [4,3,3,3].
//   kind 1 batch:      x [-1,3,8,8],  gears {1} {2} {4}            (default: 4)
//   kind 2 image size: x [1,3,-1,-1], gears {8,8} {16,16} {4,12}   (default: 16x16)
//   kind 3 dims (ND):  x [-1,3,-1,8], gears {1,8} {2,4} {1,16}     (default: 1,16)
// Every gear is its own graph over one weight region and one arena (sized for the largest gear).
struct GearConvRelu {
  int kind = 1;
  std::vector<float> w, b;
  std::vector<uint8_t> file;
  std::vector<std::vector<int64_t>> values;  // per gear
  std::vector<std::vector<int64_t>> x_dims;  // per gear: [n,3,h,w]
  size_t default_gear = 0;
  uint64_t arena = 0;
  static size_t Elements(const std::vector<int64_t>& d) { return static_cast<size_t>(d[0] * d[1] * d[2] * d[3]); }
  // y for x of dims `x_dims` ([n,4,h,w]).
  std::vector<float> Reference(const std::vector<float>& x, const std::vector<int64_t>& x_dims) const;
};

GearConvRelu MakeGearConvRelu(int kind, uint32_t seed = 11);

// aipp_relu: static AIPP in front of a Relu: input "image" uint8 [1,8,8,3] (RGB888_U8) -> Aipp (crop 6x8 at
// (1, 0), padding left 1 and right 1, mean 10/20/30, var_reci 0.5/0.25/0.125) -> "x" [1,3,8,8] -> Relu -> "y".
std::vector<uint8_t> MakeAippRelu();
// The reference of aipp_relu.
std::vector<float> AippReluReference(const std::vector<uint8_t>& image);
std::vector<float> RandomFloats(size_t n, uint32_t seed);
// Writes `bytes` to a fresh file under the test's temporary directory and returns its path.
std::string WriteTemp(const std::string& name, const std::vector<uint8_t>& bytes);

}  // namespace npurt::test
