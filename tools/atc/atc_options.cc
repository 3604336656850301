#include "atc_options.h"

#include "gear_options.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <set>

namespace npurt::atc {
namespace {


LogLevel g_level = LogLevel::kWarning;

Status BadValue(const std::string& option, const std::string& value, const std::string& reason) {
  return Err(kFail, "E10001: Value [{}] for parameter [--{}] is invalid. Reason: {}", value, option, reason);
}

StatusOr<int64_t> ParseInt(const std::string& option, const std::string& s) {
  if (s.empty()) return BadValue(option, s, "an integer is expected");
  char* end = nullptr;
  errno = 0;
  const long long v = std::strtoll(s.c_str(), &end, 10);
  if (errno != 0 || end == nullptr || *end != '\0') return BadValue(option, s, "an integer is expected");
  return static_cast<int64_t>(v);
}


// Options accepted and recorded without effect: tuning knobs of CANN's compiler and runtime.
const std::set<std::string>& RecordedOptions() {
  static const std::set<std::string> s = {
      "oo_level", "op_compiler_cache_mode",
      "op_compiler_cache_dir", "deterministic", "buffer_optimize", "fusion_switch_file", "keep_dtype",
      "modify_mixlist", "host_env_os", "host_env_cpu", "virtual_type", "core_type", "aicore_num",
      "atomic_clean_policy", "enable_small_channel", "compression_optimize_conf",
      "sparsity", "status_check", "op_debug_level", "debug_dir", "op_debug_config", "multi_stream_parallel_mode",
      "allow_hf32", "customize_dtypes", "op_precision_mode", "input_hint_shape", "dump_mode", "tiling_schedule_optimize",
      "auto_tune_mode", "shape_generalized_build_mode", "display_model_info", "quant_dumpable", "ac_parallel_enable",
      "framework_version", "check_report"};
  return s;
}

// Options npurt's atc refuses, with the reason.
const std::map<std::string, std::string>& RefusedOptions() {
  static const std::map<std::string, std::string> m = {
      {"weight", "Caffe models are not supported by npurt's atc: export the model to ONNX"},
      {"is_input_adjust_hw_layout", "NC1HWC0 model inputs are not supported by npurt"},
      {"is_output_adjust_hw_layout", "NC1HWC0 model outputs are not supported by npurt"},
  };
  return m;
}

bool IsBoolOption(const std::string& name) {
  return name == "help" || name == "h" || name == "fusion" || name == "blocked_layout" || name == "enable_single_stream";
}

}  // namespace

std::vector<std::string> SplitOn(const std::string& s, char sep) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    const size_t pos = s.find(sep, start);
    parts.push_back(s.substr(start, pos == std::string::npos ? std::string::npos : pos - start));
    if (pos == std::string::npos) break;
    start = pos + 1;
  }
  return parts;
}

std::string Trim(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  const size_t e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

void SetLogLevel(LogLevel level) { g_level = level; }

namespace {
void (*g_sink)(LogLevel, const std::string&) = nullptr;
}  // namespace

void SetLogSink(void (*sink)(LogLevel, const std::string&)) { g_sink = sink; }

void Log(LogLevel level, const std::string& message) {
  if (g_sink != nullptr) {
    g_sink(level, message);
    return;
  }
  if (level < g_level) return;
  static const char* kNames[] = {"DEBUG", "INFO", "WARNING", "ERROR"};
  std::fprintf(stderr, "[%s] ATC: %s\n", kNames[static_cast<int>(level)], message.c_str());
}

StatusOr<std::vector<InputShape>> ParseInputShape(const std::string& text, bool range_syntax) {
  std::vector<InputShape> shapes;
  const std::string option = range_syntax ? "input_shape_range" : "input_shape";
  for (const std::string& raw : SplitOn(text, ';')) {
    const std::string item = Trim(raw);
    if (item.empty()) continue;
    // The last ':' separates the name from the dims (names may hold ':', e.g. "x:0").
    const size_t colon = item.rfind(':');
    if (colon == std::string::npos || colon == 0) {
      return BadValue(option, text, fmt::format("'{}' is not name:dim,dim,... (e.g. \"input:1,3,224,224\")", item));
    }
    InputShape s;
    s.name = Trim(item.substr(0, colon));
    std::string dims = Trim(item.substr(colon + 1));
    if (range_syntax) {  // CANN's deprecated spelling: the dims in brackets
      if (dims.size() < 2 || dims.front() != '[' || dims.back() != ']') {
        return BadValue(option, text, fmt::format("'{}' is not name:[dim,dim,...] (e.g. \"x:[1~8,3,224,224]\")", item));
      }
      dims = Trim(dims.substr(1, dims.size() - 2));
    }
    auto number = [](const std::string& t, int64_t* v) {
      char* end = nullptr;
      errno = 0;
      const long long n = std::strtoll(t.c_str(), &end, 10);
      *v = n;
      return !t.empty() && errno == 0 && *end == '\0' && n >= 0;
    };
    if (!dims.empty()) {  // "name:" is a scalar
      for (const std::string& d : SplitOn(dims, ',')) {
        const std::string dim = Trim(d);
        if (dim == "-1") {  // a dim gears set (gear_options.h), or one that varies without bound
          s.dims.push_back(-1);
          s.range_min.push_back(1);
          s.range_max.push_back(-1);
          continue;
        }
        if (const size_t tilde = dim.find('~'); tilde != std::string::npos) {  // a range: min~max (max -1: unbounded)
          int64_t lo = 0, hi = 0;
          const std::string hi_text = Trim(dim.substr(tilde + 1));
          if (!number(Trim(dim.substr(0, tilde)), &lo) || (hi_text != "-1" && !number(hi_text, &hi)) || lo < 1 ||
              (hi_text != "-1" && hi < lo)) {
            return BadValue(option, text, fmt::format("the range '{}' of input {} is not min~max with 1 <= min <= max "
                                                      "(max -1: unbounded)", dim, s.name));
          }
          s.dims.push_back(-1);
          s.range_min.push_back(lo);
          s.range_max.push_back(hi_text == "-1" ? -1 : hi);
          continue;
        }
        int64_t v = 0;
        if (!number(dim, &v)) {
          return BadValue(option, text, fmt::format("dim '{}' of input {} is not a non-negative integer", dim, s.name));
        }
        s.dims.push_back(v);
        s.range_min.push_back(v);
        s.range_max.push_back(v);
      }
    }
    for (const InputShape& prev : shapes) {
      if (prev.name == s.name) return BadValue(option, text, fmt::format("input {} is given twice", s.name));
    }
    shapes.push_back(std::move(s));
  }
  if (shapes.empty()) return BadValue(option, text, "no input is given");
  return shapes;
}

StatusOr<std::vector<OutputNode>> ParseOutNodes(const std::string& text) {
  std::vector<OutputNode> nodes;
  for (const std::string& raw : SplitOn(text, ';')) {
    const std::string item = Trim(raw);
    if (item.empty()) continue;
    const size_t colon = item.rfind(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 == item.size()) {
      return BadValue("out_nodes", text, fmt::format("'{}' is not node_name:output_index", item));
    }
    auto idx = ParseInt("out_nodes", item.substr(colon + 1));
    if (!idx.ok() || idx.value() < 0) {
      return BadValue("out_nodes", text, fmt::format("'{}' has no valid output index", item));
    }
    nodes.push_back({item.substr(0, colon), static_cast<int32_t>(idx.value())});
  }
  if (nodes.empty()) return BadValue("out_nodes", text, "no output is given");
  return nodes;
}

StatusOr<Options> ParseOptions(int argc, const char* const* argv) {
  Options o;
  for (int i = 0; i < argc; ++i) {
    if (i > 0) o.command_line += ' ';
    const std::string a = argv[i];
    const size_t eq = a.find('=');
    if (a.find_first_of(" ;\t") != std::string::npos && eq != std::string::npos) {
      o.command_line += a.substr(0, eq + 1) + "\"" + a.substr(eq + 1) + "\"";  // as a shell would need it
    } else {
      o.command_line += a;
    }
  }
  std::map<std::string, std::string> given;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.size() < 2 || arg[0] != '-') {
      return Err(kFail, "E10001: Argument [{}] is invalid. Reason: options are written --name=value", arg);
    }
    arg = arg.substr(arg[1] == '-' ? 2 : 1);
    std::string name = arg, value;
    bool has_value = false;
    const size_t eq = arg.find('=');
    if (eq != std::string::npos) {
      name = arg.substr(0, eq);
      value = arg.substr(eq + 1);
      has_value = true;
    } else if (!IsBoolOption(name) && i + 1 < argc && argv[i + 1][0] != '-') {
      value = argv[++i];
      has_value = true;
    }
    if (!has_value && IsBoolOption(name)) value = "true";
    if (given.count(name) != 0) return Err(kFail, "E10001: Option [--{}] is given twice", name);
    given[name] = value;
  }

  static const std::set<std::string> kKnown = {
      "mode", "model", "om", "json", "framework", "output", "input_shape", "input_format", "soc_version",
      "out_nodes", "output_type", "precision_mode", "log", "insert_op_conf", "disable_reuse_memory",
      "fusion", "blocked_layout", "enable_single_stream", "help", "h", "external_weight", "dynamic_batch_size", "dynamic_image_size",
      "dynamic_dims", "singleop", "input_fp16_nodes", "input_shape_range", "precision_mode_v2",
      "op_select_implmode", "optypelist_for_implmode"};
  for (const auto& [name, value] : given) {
    if (kKnown.count(name) != 0) continue;
    if (RecordedOptions().count(name) != 0) {
      o.recorded[name] = value;
      continue;
    }
    auto refused = RefusedOptions().find(name);
    if (refused != RefusedOptions().end()) return BadValue(name, value, refused->second);
    return Err(kFail, "E10016: Option [--{}] is not supported by npurt's atc. Try 'atc --help' for the options", name);
  }
  auto get = [&](const char* name) -> const std::string* {
    auto it = given.find(name);
    return it == given.end() ? nullptr : &it->second;
  };
  auto parse_bool = [&](const char* name, bool* out) -> Status {
    const std::string* v = get(name);
    if (v == nullptr) return Status::Ok();
    if (*v == "true" || *v == "1") *out = true;
    else if (*v == "false" || *v == "0") *out = false;
    else return BadValue(name, *v, "true/false or 1/0 is expected");
    return Status::Ok();
  };
  NPURT_RETURN_IF_ERROR(parse_bool("help", &o.help));
  bool h = false;
  NPURT_RETURN_IF_ERROR(parse_bool("h", &h));
  o.help = o.help || h;
  if (o.help) return o;

  if (const std::string* v = get("log")) {
    static const std::map<std::string, LogLevel> kLevels = {{"debug", LogLevel::kDebug},
                                                            {"info", LogLevel::kInfo},
                                                            {"warning", LogLevel::kWarning},
                                                            {"error", LogLevel::kError},
                                                            {"null", LogLevel::kWarning}};
    auto it = kLevels.find(*v);
    if (it == kLevels.end()) return BadValue("log", *v, "use debug, info, warning, error or null");
    o.log = it->second;
  }
  if (const std::string* v = get("mode")) {
    auto m = ParseInt("mode", *v);
    if (!m.ok()) return std::move(m).status();
    if (m.value() != 0 && m.value() != 1 && m.value() != 6) {
      return BadValue("mode", *v, "npurt's atc supports mode 0 (generate an .om), 1 (model to JSON) and 6 (model "
                                  "information); modes 3, 5, 7 and 30 are not supported");
    }
    o.mode = static_cast<int32_t>(m.value());
  }
  if (const std::string* v = get("framework")) {
    auto f = ParseInt("framework", *v);
    if (!f.ok()) return std::move(f).status();
    switch (f.value()) {
      case 5: break;
      case 0: return BadValue("framework", *v, "framework 0 (Caffe) is not supported by npurt's atc: export the model to ONNX");
      case 1: return BadValue("framework", *v, "framework 1 (MindSpore) is not supported by npurt's atc: export the model to ONNX");
      case 3: return BadValue("framework", *v, "framework 3 (TensorFlow) is not supported by npurt's atc: export the model to ONNX");
      default: return BadValue("framework", *v, "use 5 (ONNX); 0 Caffe, 1 MindSpore and 3 TensorFlow are not supported");
    }
    o.framework = static_cast<int32_t>(f.value());
  }
  if (const std::string* v = get("model")) o.model = *v;
  if (const std::string* v = get("singleop")) o.singleop = *v;
  if (const std::string* v = get("om")) o.om = *v;
  if (const std::string* v = get("json")) o.json = *v;
  if (const std::string* v = get("output")) o.output = *v;
  if (const std::string* v = get("soc_version")) o.soc_version = *v;
  if (const std::string* v = get("precision_mode")) {
    static const std::set<std::string> kModes = {"force_fp16", "force_fp32", "cube_fp16in_fp32out",
                                                 "allow_fp32_to_fp16", "must_keep_origin_dtype", "allow_mix_precision",
                                                 "allow_mix_precision_fp16", "allow_mix_precision_bf16",
                                                 "allow_fp32_to_bf16"};
    if (kModes.count(*v) == 0) {
      return BadValue("precision_mode", *v, "use force_fp16, force_fp32, cube_fp16in_fp32out, allow_fp32_to_fp16, "
                                            "must_keep_origin_dtype, allow_mix_precision[_fp16|_bf16] or allow_fp32_to_bf16");
    }
    o.precision_mode = *v;
  }
  if (const std::string* v = get("precision_mode_v2")) {
    static const std::set<std::string> kModes = {"fp16", "origin", "cube_fp16in_fp32out", "mixed_float16",
                                                 "mixed_bfloat16", "cube_hif8", "mixed_hif8"};
    if (kModes.count(*v) == 0) {
      return BadValue("precision_mode_v2", *v, "use fp16, origin, cube_fp16in_fp32out, mixed_float16, mixed_bfloat16, "
                                               "cube_hif8 or mixed_hif8");
    }
    if (get("precision_mode") != nullptr) {
      return BadValue("precision_mode_v2", *v, "--precision_mode and --precision_mode_v2 cannot be given together");
    }
    o.precision_mode_v2 = *v;
  }
  if (const std::string* v = get("op_select_implmode")) {
    static const std::set<std::string> kModes = {"high_performance", "high_precision", "high_performance_for_all",
                                                 "high_precision_for_all"};
    if (kModes.count(*v) == 0) {
      return BadValue("op_select_implmode", *v, "use high_performance, high_precision, high_performance_for_all or "
                                                "high_precision_for_all");
    }
    o.op_select_implmode = *v;
  }
  if (const std::string* v = get("optypelist_for_implmode")) {
    if (o.op_select_implmode != "high_performance" && o.op_select_implmode != "high_precision") {
      return BadValue("optypelist_for_implmode", *v, "it needs --op_select_implmode=high_precision or high_performance");
    }
    for (const std::string& t : SplitOn(*v, ',')) {
      if (Trim(t).empty()) return BadValue("optypelist_for_implmode", *v, "an empty op type");
      o.optypelist_for_implmode.push_back(Trim(t));
    }
  }
  if (const std::string* v = get("input_shape")) {
    auto s = ParseInputShape(*v);
    if (!s.ok()) return std::move(s).status();
    o.input_shapes = std::move(s.value());
  }
  if (const std::string* v = get("input_shape_range")) {
    if (get("input_shape") != nullptr) {
      return BadValue("input_shape_range", *v, "give the shapes once: --input_shape (with ranges a~b) or "
                                               "--input_shape_range, not both");
    }
    auto s = ParseInputShape(*v, true);
    if (!s.ok()) return std::move(s).status();
    o.input_shapes = std::move(s.value());
  }
  if (const std::string* v = get("input_format")) {
    if (*v == "NCHW" || *v == "ND" || *v == "NCDHW") {
      o.input_format = *v;
    } else if (*v == "NHWC" || *v == "NDHWC") {
      // Recorded as asked; the operators keep ONNX's channels-first layout (their data_format says so).
      Log(LogLevel::kWarning, fmt::format("--input_format={}: ONNX models are channels-first; the inputs are recorded "
                                          "as {} but their data is read as NCHW/NCDHW", *v, *v));
      o.input_format = *v;
    } else {
      return BadValue("input_format", *v, "use NCHW, NCDHW, ND or NHWC");
    }
  }
  if (const std::string* v = get("out_nodes")) {
    auto n = ParseOutNodes(*v);
    if (!n.ok()) return std::move(n).status();
    o.out_nodes = std::move(n.value());
  }
  if (const std::string* v = get("output_type")) {
    if (*v != "FP32" && *v != "FP16") {
      return BadValue("output_type", *v, "npurt's atc supports FP32 and FP16 (per-node output types and "
                                         "integer types are not supported)");
    }
    o.output_type = *v;
  }
  if (const std::string* v = get("input_fp16_nodes")) {
    // CANN's form: input names separated by ';' (checked against the model's inputs by the converter).
    std::set<std::string> seen;
    for (size_t start = 0; start <= v->size();) {
      size_t end = v->find(';', start);
      if (end == std::string::npos) end = v->size();
      std::string name = v->substr(start, end - start);
      if (name.empty()) return BadValue("input_fp16_nodes", *v, "an empty input name");
      if (!seen.insert(name).second) return BadValue("input_fp16_nodes", *v, fmt::format("'{}' is named twice", name));
      o.input_fp16_nodes.push_back(std::move(name));
      start = end + 1;
    }
  }
  if (const std::string* v = get("insert_op_conf")) o.insert_op_conf = *v;
  if (const std::string* v = get("disable_reuse_memory")) {
    if (*v != "0" && *v != "1") return BadValue("disable_reuse_memory", *v, "use 0 or 1");
    o.disable_reuse_memory = *v == "1";
  }
  if (const std::string* v = get("external_weight")) {
    if (*v != "0") {
      return BadValue("external_weight", *v, "external weight files are not supported yet: weights are kept in the .om (0)");
    }
  }
  if (o.mode == 0) {
    NPURT_RETURN_IF_ERROR(
        ParseGearOptions({get("dynamic_batch_size"), get("dynamic_image_size"), get("dynamic_dims")}, &o));
  }
  NPURT_RETURN_IF_ERROR(parse_bool("fusion", &o.fusion));
  NPURT_RETURN_IF_ERROR(parse_bool("blocked_layout", &o.blocked_layout));
  NPURT_RETURN_IF_ERROR(parse_bool("enable_single_stream", &o.single_stream));

  auto required = [&](const std::string& value, const char* name) -> Status {
    if (!value.empty()) return Status::Ok();
    return Err(kFail, "E10054: The required parameter [--{}] for ATC is empty. Check whether the parameter is "
               "specified and whether it is enclosed by quotation marks", name);
  };
  if (o.mode == 0 && !o.singleop.empty()) {
    if (!o.model.empty()) return Err(kFail, "E10001: --singleop and --model cannot be given together");
    NPURT_RETURN_IF_ERROR(required(o.output, "output"));
    NPURT_RETURN_IF_ERROR(required(o.soc_version, "soc_version"));
  } else if (o.mode == 0) {
    NPURT_RETURN_IF_ERROR(required(o.model, "model"));
    if (o.framework < 0) NPURT_RETURN_IF_ERROR(required("", "framework"));
    NPURT_RETURN_IF_ERROR(required(o.output, "output"));
    NPURT_RETURN_IF_ERROR(required(o.soc_version, "soc_version"));
  } else if (o.mode == 1) {
    NPURT_RETURN_IF_ERROR(required(o.om, "om"));
    NPURT_RETURN_IF_ERROR(required(o.json, "json"));
  } else {
    NPURT_RETURN_IF_ERROR(required(o.om, "om"));
  }
  return o;
}

std::string HelpText(const std::string& program) {
  return fmt::format(R"(usage: {0} <args>
npurt's ATC: converts an ONNX model into an npurt offline model (.om) that aclmdlLoadFromFile runs.
example:
  {0} --model=resnet50.onnx --framework=5 --output=resnet50 --input_shape="actual_input_1:1,3,224,224" --soc_version=Ascend310

===== Basic Functionality =====
[General]
  --h/help             Show this help message
  --mode               Run mode. 0 (default): generate an offline model; 1: convert a model to JSON
                       (--om=<model.om> or, with --framework=5, an ONNX model; --json=<file.json>);
                       6: display the information of an offline model (--om=<model.om>)
[Input]
  --model              Model file (ONNX .onnx)
  --om                 The model file for --mode=1 and --mode=6
  --singleop           A JSON list of single operators (CANN's format: op, input_desc, output_desc, attr);
                       each is compiled and written to the --output directory as a single-operator .om
                       for aclopSetModelDir / aclopLoad (instead of --model)
  --framework          Framework type. 5: ONNX (0 Caffe, 1 MindSpore, 3 TensorFlow are not supported)
  --input_format       Format of the inputs: NCHW (default), NCDHW, ND (NHWC, NDHWC); recorded as the
                       inputs' format (ONNX data stays channels-first whatever is recorded)
  --input_shape        Shapes of the inputs, e.g. "input_name1:n1,c1,h1,w1;input_name2:n2,c2,h2,w2";
                       a scalar input is written "name:". -1 marks a dim that gears set (with one
                       of the three options below), or, without them, a dim that varies at run time
                       (a dynamic-shape model); min~max bounds it (1~8; max -1: unbounded)
  --input_shape_range  The ranges in CANN's older spelling, e.g. "x:[1~8,3,224,224]"
  --dynamic_batch_size Batch gears, e.g. "1,2,4,8" (2 to 100; -1 in the first dim of --input_shape)
  --dynamic_image_size Image-size gears "h1,w1;h2,w2" (-1 in H and W of NCHW/NHWC inputs)
  --dynamic_dims       Dims gears "d1,d2;d3,d4", one value per -1 of --input_shape in its order
                       (needs --input_format=ND). A program picks a gear per execution through the
                       hidden last input ascend_mbatch_shape_data (aclmdlSetDynamicBatchSize, ...);
                       without one the largest gear runs
[Output]
  --output             Output file path and name; ".om" is appended (with --singleop: a directory)
  --output_type        Data type of the outputs: FP32 (default: the model's own) or FP16 (a Cast is added)
  --out_nodes          Outputs of the model, e.g. "node_name1:0;node_name2:1" (default: the graph outputs)
  --json               The JSON file of --mode=1
[Target]
  --soc_version        The SoC the model is for (e.g. Ascend310, Ascend310P3, Ascend910B1); stored in the
                       model and checked when it is loaded
[Precision]
  --precision_mode     force_fp16 (CANN's default), force_fp32, cube_fp16in_fp32out, allow_fp32_to_fp16,
                       must_keep_origin_dtype, allow_mix_precision[_fp16|_bf16], allow_fp32_to_bf16.
                       Recorded in the model. npurt computes fp32 models in fp32 (no fp16 arithmetic on the
                       CPU), except in allow_mix_precision_bf16 and allow_fp32_to_bf16: convolutions then
                       compute in bf16 with fp32 accumulation where the CPU has AVX512-BF16
  --precision_mode_v2  fp16, origin, cube_fp16in_fp32out, mixed_float16, mixed_bfloat16, cube_hif8,
                       mixed_hif8; not with --precision_mode. mixed_bfloat16 as allow_mix_precision_bf16
[Operator tuning]
  --op_select_implmode high_performance (default): 3x3 convolutions with stride 1 use Winograd's algorithm;
                       high_precision: the direct algorithm (bit-for-bit as aclopExecuteV2's Conv2D);
                       high_performance_for_all / high_precision_for_all: the same
  --optypelist_for_implmode  Op types the mode applies to, e.g. "Conv2D" (the others keep the default)
  --insert_op_conf     Static AIPP configuration file (text protobuf, aipp_op {{ ... }}): an Aipp node in
                       front of each input it names (crop, colour conversion, mean/min/var_reci, padding)
  --disable_reuse_memory  1: every feature map gets its own memory (no reuse); 0 (default)
  --external_weight    0 (default): weights are stored in the .om (1 and 2 are not supported yet)
  --enable_single_stream  true (default): every operator on one stream; false: independent branches go to
                       up to 4 streams that the loaded model replays concurrently
[Debug]
  --log                Verbosity of atc's messages on stderr: debug, info, warning (default), error, null
Other tuning options of CANN's compiler (--oo_level, --allow_hf32, ...) are
accepted and recorded in the model; they do not change what npurt's atc builds.
)", program);
}

}  // namespace npurt::atc
