// msame: run an offline model on binary input files (or zeros) and write its outputs, with per-run times.
//
//   msame --model m.om [--input a.bin,b.bin | --input dir1,dir2] --output out/ [--outfmt BIN|TXT]
//         [--loop N] [--device D] [--debug true] [--dymBatch B | --dymHW H,W | --dymDims "x:1,3,224,224;..." |
//         --dymShape "x:1,128,768;..." [--outputSize n,...]]
//
// Inputs are files (one per model input, comma-separated) or directories holding files of the same names
// (one inference per file name; --loop is ignored then). Without --input every input is zeros. Outputs go
// to <output>/<date_time>/<model>_output_<i>.{bin,txt} (with a _<file> suffix per input file in directory
// mode). A gear model (atc --dynamic_*) runs the gear --dym* names, else its largest; its selector input
// (ascend_mbatch_shape_data) is set by msame, so --input names the data inputs only (or all of them), and the
// outputs hold the gear's output dims (aclmdlGetCurOutputDims). Exit status 0 on success.
#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "acl/acl.h"

namespace {

#define INFO(...) (std::printf("[INFO] " __VA_ARGS__), std::printf("\n"))
#define ERROR(...) (std::printf("[ERROR] " __VA_ARGS__), std::printf("\n"))

struct Options {
  std::string model, output = ".", outfmt = "TXT";
  std::vector<std::string> inputs;
  int loop = 1;
  int device = 0;
  bool debug = false;
  uint64_t dym_batch = 0;                // --dymBatch
  uint64_t dym_h = 0, dym_w = 0;         // --dymHW
  std::vector<int64_t> dym_dims;         // --dymDims: every dim of every input, in the order given
  // --dymShape "name:d,d,...;name:..." (a dynamic-shape model: each execution's input shapes) and
  // --outputSize "bytes,bytes,..." (its output buffers, where the model cannot say: unbounded dims).
  std::vector<std::pair<std::string, std::vector<int64_t>>> dym_shape;
  std::vector<size_t> output_size;
};

std::vector<std::string> Split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, sep)) {
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

void Usage() {
  std::printf(
      "usage: msame --model <model.om> [--input <file,...|dir,...>] --output <dir> [--outfmt TXT|BIN]\n"
      "             [--loop <1..100>] [--device <0..255>] [--debug true|false]\n"
      "  --model   the offline model (built by atc)\n"
      "  --input   one binary file per model input, comma-separated; or directories holding files of the\n"
      "            same names (one inference per name). Without it every input is zeros\n"
      "  --output  where a <date_time> directory with <model>_output_<i>.<bin|txt> is written\n"
      "  --outfmt  TXT (values as text) or BIN (raw bytes); default TXT\n"
      "  --loop    inferences on the same inputs (1..100, default 1; ignored with input directories)\n"
      "  --device  the device (default 0)\n"
      "  --debug   print the model's description\n"
      "  --dymBatch  a gear model's batch gear (atc --dynamic_batch_size), e.g. 4\n"
      "  --dymHW     a gear model's image-size gear (atc --dynamic_image_size), e.g. 416,416\n"
      "  --dymDims   a gear model's dims gear (atc --dynamic_dims), every input's dims: \"x:1,3,224,224;y:1,8\"\n"
      "  --dymShape  a dynamic-shape model's input shapes (atc ranges or -1): \"x:1,128,768;mask:1,128\"\n"
      "  --outputSize  its output buffers' bytes, one per output: \"393216\" (needed where dims are unbounded)\n");
}

bool Parse(int argc, char** argv, Options* o) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    std::string value;
    const size_t eq = arg.find('=');
    if (eq != std::string::npos) {
      value = arg.substr(eq + 1);
      arg = arg.substr(0, eq);
    } else if (arg == "--help" || arg == "-h") {
      Usage();
      std::exit(0);
    } else if (i + 1 < argc) {
      value = argv[++i];
    } else {
      ERROR("option %s needs a value", arg.c_str());
      return false;
    }
    if (arg == "--model") {
      o->model = value;
    } else if (arg == "--input") {
      o->inputs = Split(value, ',');
    } else if (arg == "--output") {
      o->output = value;
    } else if (arg == "--outfmt") {
      if (value != "TXT" && value != "BIN") {
        ERROR("--outfmt takes TXT or BIN, not %s", value.c_str());
        return false;
      }
      o->outfmt = value;
    } else if (arg == "--loop") {
      o->loop = std::atoi(value.c_str());
      if (o->loop < 1 || o->loop > 100) {
        ERROR("--loop must be in [1, 100], not %s", value.c_str());
        return false;
      }
    } else if (arg == "--device") {
      o->device = std::atoi(value.c_str());
      if (o->device < 0 || o->device > 255) {
        ERROR("--device must be in [0, 255], not %s", value.c_str());
        return false;
      }
    } else if (arg == "--debug") {
      o->debug = value == "true";
    } else if (arg == "--profiler" || arg == "--dump") {
      if (value == "true") {
        ERROR("%s: use msprof (profiling) or an acl.json dump configuration with npurt", arg.c_str());
        return false;
      }
    } else if (arg == "--dymBatch") {
      o->dym_batch = std::strtoull(value.c_str(), nullptr, 10);
      if (o->dym_batch == 0) return (ERROR("--dymBatch takes a positive batch size, not %s", value.c_str()), false);
    } else if (arg == "--dymHW") {
      const std::vector<std::string> hw = Split(value, ',');
      if (hw.size() == 2) {
        o->dym_h = std::strtoull(hw[0].c_str(), nullptr, 10);
        o->dym_w = std::strtoull(hw[1].c_str(), nullptr, 10);
      }
      if (o->dym_h == 0 || o->dym_w == 0) return (ERROR("--dymHW takes height,width, not %s", value.c_str()), false);
    } else if (arg == "--dymDims") {
      for (const std::string& input : Split(value, ';')) {
        const size_t colon = input.rfind(':');
        for (const std::string& d : Split(colon == std::string::npos ? input : input.substr(colon + 1), ',')) {
          o->dym_dims.push_back(std::strtoll(d.c_str(), nullptr, 10));
        }
      }
      if (o->dym_dims.empty()) return (ERROR("--dymDims takes \"name:d,d,...;name:d,...\", not %s", value.c_str()), false);
    } else if (arg == "--dymShape") {
      for (const std::string& input : Split(value, ';')) {
        const size_t colon = input.rfind(':');
        if (colon == std::string::npos || colon == 0) {
          return (ERROR("--dymShape takes \"name:d,d,...;name:d,...\", not %s", value.c_str()), false);
        }
        std::vector<int64_t> dims;
        for (const std::string& d : Split(input.substr(colon + 1), ',')) {
          char* end = nullptr;
          const long long v = std::strtoll(d.c_str(), &end, 10);
          if (*end != '\0' || v < 0) return (ERROR("--dymShape: '%s' is not a dim", d.c_str()), false);
          dims.push_back(v);
        }
        o->dym_shape.emplace_back(input.substr(0, colon), std::move(dims));
      }
      if (o->dym_shape.empty()) return (ERROR("--dymShape takes \"name:d,d,...;name:d,...\", not %s", value.c_str()), false);
    } else if (arg == "--outputSize") {
      for (const std::string& v : Split(value, ',')) {
        char* end = nullptr;
        const unsigned long long n = std::strtoull(v.c_str(), &end, 10);
        if (*end != '\0' || n == 0) return (ERROR("--outputSize takes byte counts \"n,n,...\", not %s", value.c_str()), false);
        o->output_size.push_back(static_cast<size_t>(n));
      }
    } else {
      ERROR("unknown option %s (msame --help)", arg.c_str());
      return false;
    }
  }
  if (o->model.empty()) {
    ERROR("--model is required");
    return false;
  }
  return true;
}

bool IsDir(const std::string& p) {
  struct stat st;
  return stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::vector<std::string> FilesIn(const std::string& dir) {
  std::vector<std::string> names;
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d)) {
      if (e->d_name[0] != '.') names.push_back(e->d_name);
    }
    closedir(d);
  }
  std::sort(names.begin(), names.end());
  return names;
}

bool ReadFile(const std::string& path, std::vector<char>* bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  bytes->assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return true;
}

std::string Stamp() {
  const auto now = std::chrono::system_clock::now();
  const std::time_t t = std::chrono::system_clock::to_time_t(now);
  std::tm tm{};
  localtime_r(&t, &tm);
  const auto us = std::chrono::duration_cast<std::chrono::microseconds>(now.time_since_epoch()).count() % 1000000;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04d%02d%02d_%02d_%02d_%02d_%06lld", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<long long>(us));
  return buf;
}

void WriteValue(std::ostream& os, const char* p, aclDataType dt) {
  switch (dt) {
    case ACL_FLOAT: { float v; std::memcpy(&v, p, 4); os << v; break; }
    case ACL_FLOAT16: { aclFloat16 v; std::memcpy(&v, p, 2); os << aclFloat16ToFloat(v); break; }
    case ACL_INT32: { int32_t v; std::memcpy(&v, p, 4); os << v; break; }
    case ACL_INT64: { int64_t v; std::memcpy(&v, p, 8); os << v; break; }
    case ACL_INT8: os << static_cast<int>(static_cast<int8_t>(*p)); break;
    case ACL_UINT8: os << static_cast<int>(static_cast<uint8_t>(*p)); break;
    case ACL_BOOL: os << static_cast<int>(*p != 0); break;
    default: os << "?"; break;
  }
}

class Runner {
 public:
  explicit Runner(const Options& o) : o_(o) {}
  ~Runner() { Release(); }

  int Run() {
    if (aclInit(nullptr) != ACL_SUCCESS) return Fail("aclInit");
    inited_ = true;
    INFO("acl init success");
    if (aclrtSetDevice(o_.device) != ACL_SUCCESS) return Fail("aclrtSetDevice");
    device_set_ = true;
    INFO("open device %d success", o_.device);
    const auto t_load = std::chrono::steady_clock::now();
    if (aclmdlLoadFromFile(o_.model.c_str(), &model_id_) != ACL_SUCCESS) return Fail("load model");
    loaded_ = true;
    INFO("load model %s success (%.1f ms)", o_.model.c_str(),
         std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t_load).count());
    desc_ = aclmdlCreateDesc();
    if (aclmdlGetDesc(desc_, model_id_) != ACL_SUCCESS) return Fail("aclmdlGetDesc");
    if (o_.debug) PrintDesc();
    if (!ShapeInputs()) return 1;
    if (!CreateBuffers()) return 1;
    if (!SelectGear()) return 1;
    if (!DescribeInputs()) return 1;
    std::string base = o_.model.substr(o_.model.find_last_of('/') + 1);
    if (base.size() > 3 && base.compare(base.size() - 3, 3, ".om") == 0) base.resize(base.size() - 3);
    mkdir(o_.output.c_str(), 0775);
    const std::string dir = o_.output + "/" + Stamp();
    std::printf("%s\n", dir.c_str());
    if (mkdir(dir.c_str(), 0775) != 0 || !IsDir(dir)) return (ERROR("cannot create %s", dir.c_str()), 1);

    const bool dirs = !o_.inputs.empty() && IsDir(o_.inputs[0]);
    std::vector<std::string> names = dirs ? FilesIn(o_.inputs[0]) : std::vector<std::string>{""};
    const int loops = dirs ? 1 : o_.loop;
    std::vector<double> times;
    for (const std::string& name : names) {
      if (!FillInputs(dirs ? name : std::string())) return 1;
      for (int l = 0; l < loops; ++l) {
        const auto t0 = std::chrono::steady_clock::now();
        if (aclmdlExecute(model_id_, input_, output_) != ACL_SUCCESS) return Fail("aclmdlExecute");
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        std::printf("Inference time: %.3fms\n", ms);
        times.push_back(ms);
      }
      if (!WriteOutputs(dir, base, dirs ? name : std::string())) return 1;
    }
    double total = 0;
    for (double t : times) total += t;
    std::printf("Inference average time: %f ms\n", total / times.size());
    if (times.size() > 1) {
      std::printf("Inference average time without first time: %f ms\n", (total - times[0]) / (times.size() - 1));
    }
    INFO("unload model success, model Id is %u", model_id_);
    return 0;
  }

 private:
  int Fail(const char* what) {
    const char* msg = aclGetRecentErrMsg();
    ERROR("%s failed: %s", what, msg != nullptr ? msg : "");
    return 1;
  }

  // A gear model: its selector input, and the gear --dym* asks for.
  bool SelectGear() {
    size_t index = 0;
    gear_model_ = aclmdlGetInputIndexByName(desc_, ACL_DYNAMIC_TENSOR_NAME, &index) == ACL_SUCCESS;
    const bool asked = o_.dym_batch != 0 || o_.dym_h != 0 || !o_.dym_dims.empty();
    if (!gear_model_) {
      if (asked) ERROR("--dymBatch/--dymHW/--dymDims: the model has no gears (it was converted without --dynamic_*)");
      return !asked;
    }
    selector_ = index;
    aclError ret = ACL_SUCCESS;
    if (o_.dym_batch != 0) {
      ret = aclmdlSetDynamicBatchSize(model_id_, input_, index, o_.dym_batch);
    } else if (o_.dym_h != 0) {
      ret = aclmdlSetDynamicHWSize(model_id_, input_, index, o_.dym_h, o_.dym_w);
    } else if (!o_.dym_dims.empty()) {
      aclmdlIODims dims{};
      if (o_.dym_dims.size() > ACL_MAX_DIM_CNT) return (ERROR("--dymDims has too many dims"), false);
      for (int64_t d : o_.dym_dims) dims.dims[dims.dimCount++] = d;
      ret = aclmdlSetInputDynamicDims(model_id_, input_, index, &dims);
    } else {
      INFO("gear model: no --dymBatch/--dymHW/--dymDims, the largest gear runs");
      return true;
    }
    if (ret != ACL_SUCCESS) return Fail("selecting the gear") == 0;
    INFO("gear selected");
    return true;
  }

  // A dynamic-shape model (--dymShape): each input's dims (by name; the others keep the model's) and bytes.
  bool ShapeInputs() {
    const size_t ni = aclmdlGetNumInputs(desc_);
    shapes_.assign(ni, {});
    for (const auto& [name, dims] : o_.dym_shape) {
      size_t index = 0;
      if (aclmdlGetInputIndexByName(desc_, name.c_str(), &index) != ACL_SUCCESS) {
        return (ERROR("--dymShape: the model has no input %s", name.c_str()), false);
      }
      shapes_[index] = dims;
    }
    return true;
  }

  size_t InputBytes(size_t i) {
    if (shapes_.empty() || shapes_[i].empty()) return aclmdlGetInputSizeByIndex(desc_, i);
    size_t n = aclDataTypeSize(aclmdlGetInputDataType(desc_, i));
    for (int64_t d : shapes_[i]) n *= static_cast<size_t>(d);
    return n;
  }

  bool DescribeInputs() {
    for (size_t i = 0; i < shapes_.size(); ++i) {
      if (shapes_[i].empty()) continue;
      aclTensorDesc* d = aclCreateTensorDesc(aclmdlGetInputDataType(desc_, i), static_cast<int>(shapes_[i].size()),
                                             shapes_[i].data(), aclmdlGetInputFormat(desc_, i));
      const aclError ret = aclmdlSetDatasetTensorDesc(input_, d, i);
      aclDestroyTensorDesc(d);
      if (ret != ACL_SUCCESS) return Fail("aclmdlSetDatasetTensorDesc") == 0;
    }
    return true;
  }

  // The bytes of output i in the gear that runs (a dynamic-shape model, or outputs whose dims depend on the data:
  // as its execution described it in the output dataset).
  size_t OutputBytes(size_t i, aclmdlIODims* dims) {
    if (aclTensorDesc* t = aclmdlGetDatasetTensorDesc(output_, i); t != nullptr) {
      dims->dimCount = std::min<size_t>(aclGetTensorDescNumDims(t), ACL_MAX_DIM_CNT);
      for (size_t k = 0; k < dims->dimCount; ++k) aclGetTensorDescDimV2(t, k, &dims->dims[k]);
      return std::min(aclGetTensorDescSize(t), aclGetDataBufferSizeV2(aclmdlGetDatasetBuffer(output_, i)));
    }
    if (aclmdlGetCurOutputDims(desc_, i, dims) != ACL_SUCCESS) aclmdlGetOutputDims(desc_, i, dims);
    size_t n = aclDataTypeSize(aclmdlGetOutputDataType(desc_, i));
    for (size_t k = 0; k < dims->dimCount; ++k) n *= dims->dims[k] > 0 ? static_cast<size_t>(dims->dims[k]) : 1;
    return std::min(n, aclmdlGetOutputSizeByIndex(desc_, i));
  }

  void PrintDesc() {
    for (int output = 0; output < 2; ++output) {
      const size_t n = output ? aclmdlGetNumOutputs(desc_) : aclmdlGetNumInputs(desc_);
      for (size_t i = 0; i < n; ++i) {
        aclmdlIODims d{};
        (output ? aclmdlGetOutputDims : aclmdlGetInputDims)(desc_, i, &d);
        std::printf("%s %zu: %s, %zu bytes, dims [", output ? "output" : "input", i, d.name,
                    output ? aclmdlGetOutputSizeByIndex(desc_, i) : aclmdlGetInputSizeByIndex(desc_, i));
        for (size_t k = 0; k < d.dimCount; ++k) std::printf("%s%lld", k ? "," : "", static_cast<long long>(d.dims[k]));
        std::printf("], type %d, format %d\n",
                    output ? aclmdlGetOutputDataType(desc_, i) : aclmdlGetInputDataType(desc_, i),
                    output ? aclmdlGetOutputFormat(desc_, i) : aclmdlGetInputFormat(desc_, i));
      }
    }
  }

  bool CreateBuffers() {
    input_ = aclmdlCreateDataset();
    output_ = aclmdlCreateDataset();
    const size_t ni = aclmdlGetNumInputs(desc_), no = aclmdlGetNumOutputs(desc_);
    size_t selector = 0;
    const bool gears = aclmdlGetInputIndexByName(desc_, ACL_DYNAMIC_TENSOR_NAME, &selector) == ACL_SUCCESS;
    if (!o_.inputs.empty() && o_.inputs.size() != ni && !(gears && o_.inputs.size() == ni - 1)) {
      ERROR("the model has %zu inputs%s, --input names %zu", ni, gears ? " (the last: the gear selector)" : "",
            o_.inputs.size());
      return false;
    }
    if (!o_.output_size.empty() && o_.output_size.size() != no) {
      return (ERROR("--outputSize gives %zu sizes, the model has %zu outputs", o_.output_size.size(), no), false);
    }
    for (size_t i = 0; i < ni + no; ++i) {
      const size_t size = i < ni                   ? InputBytes(i)
                          : !o_.output_size.empty() ? o_.output_size[i - ni]
                                                    : aclmdlGetOutputSizeByIndex(desc_, i - ni);
      if (size == 0 && i >= ni && o_.output_size.empty() && !o_.dym_shape.empty()) {
        return (ERROR("output %zu has unbounded dims: give its buffer's bytes with --outputSize", i - ni), false);
      }
      void* p = nullptr;
      if (aclrtMalloc(&p, size == 0 ? 1 : size, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return Fail("aclrtMalloc") == 0;
      memory_.push_back(p);
      aclDataBuffer* b = aclCreateDataBuffer(p, size);
      buffers_.push_back(b);
      aclmdlAddDatasetBuffer(i < ni ? input_ : output_, b);
    }
    return true;
  }

  bool FillInputs(const std::string& name) {
    for (size_t i = 0; i < aclmdlGetNumInputs(desc_); ++i) {
      const size_t size = InputBytes(i);
      void* dst = memory_[i];
      if (gear_model_ && i == selector_) continue;  // SelectGear wrote it
      if (o_.inputs.empty()) {
        if (aclrtMemset(dst, size, 0, size) != ACL_SUCCESS) return Fail("aclrtMemset") == 0;
        continue;
      }
      const std::string path = name.empty() ? o_.inputs[i] : o_.inputs[i] + "/" + name;
      std::vector<char> bytes;
      if (!ReadFile(path, &bytes)) return (ERROR("cannot read input file %s", path.c_str()), false);
      // A gear reads up to the largest gear's bytes (the runtime checks the gear's own).
      if (gear_model_ ? bytes.size() > size : bytes.size() != size) {
        ERROR("input file %s has %zu bytes; input %zu of the model takes %s%zu", path.c_str(), bytes.size(), i,
              gear_model_ ? "at most " : "", size);
        return false;
      }
      if (!name.empty()) INFO("start to process file:%s", path.c_str());
      if (aclrtMemcpy(dst, size, bytes.data(), bytes.size(), ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS) {
        return Fail("aclrtMemcpy") == 0;
      }
    }
    return true;
  }

  bool WriteOutputs(const std::string& dir, const std::string& base, const std::string& name) {
    const size_t ni = aclmdlGetNumInputs(desc_);
    for (size_t i = 0; i < aclmdlGetNumOutputs(desc_); ++i) {
      aclmdlIODims d{};
      const size_t size = OutputBytes(i, &d);
      std::vector<char> host(size);
      if (aclrtMemcpy(host.data(), size, memory_[ni + i], size, ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS) {
        return Fail("aclrtMemcpy") == 0;
      }
      std::string stem = name.substr(0, name.find_last_of('.'));
      const std::string path = dir + "/" + base + "_output_" + std::to_string(i) + (stem.empty() ? "" : "_" + stem) +
                               (o_.outfmt == "BIN" ? ".bin" : ".txt");
      std::ofstream out(path, std::ios::binary);
      if (o_.outfmt == "BIN") {
        out.write(host.data(), static_cast<std::streamsize>(host.size()));
      } else {
        const aclDataType dt = aclmdlGetOutputDataType(desc_, i);
        const size_t es = aclDataTypeSize(dt);
        const size_t row = d.dimCount > 0 && d.dims[d.dimCount - 1] > 0 ? static_cast<size_t>(d.dims[d.dimCount - 1]) : 1;
        for (size_t k = 0; es > 0 && k < size / es; ++k) {
          WriteValue(out, host.data() + k * es, dt);
          out << ((k + 1) % row == 0 ? "\n" : " ");
        }
      }
      if (!out) return (ERROR("cannot write %s", path.c_str()), false);
    }
    INFO("output data success");
    return true;
  }

  void Release() {
    if (input_ != nullptr) aclmdlDestroyDataset(input_);
    if (output_ != nullptr) aclmdlDestroyDataset(output_);
    for (aclDataBuffer* b : buffers_) aclDestroyDataBuffer(b);
    for (void* p : memory_) aclrtFree(p);
    if (desc_ != nullptr) aclmdlDestroyDesc(desc_);
    if (loaded_) aclmdlUnload(model_id_);
    if (device_set_) aclrtResetDevice(o_.device);
    if (inited_) aclFinalize();
  }

  const Options& o_;
  uint32_t model_id_ = 0;
  aclmdlDesc* desc_ = nullptr;
  aclmdlDataset* input_ = nullptr;
  aclmdlDataset* output_ = nullptr;
  std::vector<aclDataBuffer*> buffers_;
  std::vector<void*> memory_;
  bool inited_ = false, device_set_ = false, loaded_ = false;
  bool gear_model_ = false;
  size_t selector_ = 0;
  std::vector<std::vector<int64_t>> shapes_;  // --dymShape, per input (empty: the model's dims)
};

}  // namespace

int main(int argc, char** argv) {
  Options o;
  if (!Parse(argc, argv, &o)) return 1;
  Runner r(o);
  return r.Run();
}
