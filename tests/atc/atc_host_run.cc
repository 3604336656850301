// atc_host_run: runs a converted .om on the host with om_host_runner.h, for check_numerics.py.
//   atc_host_run model.om out_prefix input0.bin [input1.bin ...]   -> out_prefix0.bin, out_prefix1.bin, ...
#include <cstdio>
#include <fstream>
#include <iterator>

#include "om_host_runner.h"

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s model.om out_prefix [input.bin ...]\n", argv[0]);
    return 2;
  }
  std::vector<std::vector<uint8_t>> inputs, outputs;
  for (int i = 3; i < argc; ++i) {
    std::ifstream in(argv[i], std::ios::binary);
    inputs.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  npurt::Status st = npurt::atc::testing::RunOmOnHost(argv[1], inputs, &outputs);
  if (!st.ok()) {
    std::fprintf(stderr, "atc_host_run: %s\n", st.message().c_str());
    return 1;
  }
  for (size_t i = 0; i < outputs.size(); ++i) {
    std::ofstream out(std::string(argv[2]) + std::to_string(i) + ".bin", std::ios::binary);
    out.write(reinterpret_cast<const char*>(outputs[i].data()), static_cast<std::streamsize>(outputs[i].size()));
  }
  return 0;
}
