// atc's command line: gflags-style options (--name=value or --name value; a bool option alone means
// true), validated into one Options value. The option set follows CANN's ATC (shared reference
// models.md §3.1): what npurt implements, what it accepts and records (tuning knobs of the real
// compiler), and what it refuses with a reason.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "base/status.h"
#include "models/om/om_model.h"

namespace npurt::atc {

// The status code of every conversion failure (atc exits with it; the message says why).
inline constexpr int32_t kFail = 1;

// "12.34 MiB", as atc's summaries print sizes.
inline std::string MiB(uint64_t bytes) {
  return fmt::format("{:.2f} MiB", static_cast<double>(bytes) / (1024.0 * 1024.0));
}

enum class LogLevel : int { kDebug = 0, kInfo = 1, kWarning = 2, kError = 3 };

struct InputShape {
  std::string name;
  std::vector<int64_t> dims;  // -1: a dim that gears set, or that varies (a dynamic-shape model)
  // Per dim [min, max] as given (a static dim: its value twice; "-1": [1, -1], unbounded; "a~b": [a, b]).
  std::vector<int64_t> range_min;
  std::vector<int64_t> range_max;
  bool ranged() const {  // a dim written as a range a~b
    for (size_t i = 0; i < dims.size(); ++i) {
      if (dims[i] == -1 && (range_min[i] != 1 || range_max[i] != -1)) return true;
    }
    return false;
  }
};

struct OutputNode {
  std::string node;
  int32_t index = 0;
};

struct Options {
  int32_t mode = 0;         // 0 convert, 1 to JSON, 6 model info
  std::string model;        // --model
  std::string singleop;     // --singleop (mode 0): a JSON op list -> single-operator models in --output (a directory)
  std::string om;           // --om (mode 1 / 6)
  std::string json;         // --json (mode 1)
  int32_t framework = -1;   // --framework
  std::string output;       // --output (without .om)
  std::vector<InputShape> input_shapes;  // --input_shape (-1: a dim the gears set)
  std::string input_format;              // --input_format ("" = the default)
  std::string soc_version;
  std::vector<OutputNode> out_nodes;
  std::string output_type;     // "" / FP32 / FP16
  std::vector<std::string> input_fp16_nodes;  // --input_fp16_nodes: float inputs the model takes as fp16
  std::string precision_mode;     // recorded; the bf16 modes set Conv2D's compute_dtype (impl_select.h)
  std::string precision_mode_v2;  // recorded; mixed_bfloat16 as the bf16 modes above
  // --op_select_implmode (high_performance, CANN's default; high_precision; *_for_all) and
  // --optypelist_for_implmode (the op types high_precision applies to): Conv2D's algorithm (impl_select.h).
  std::string op_select_implmode;
  std::vector<std::string> optypelist_for_implmode;
  LogLevel log = LogLevel::kWarning;
  std::string insert_op_conf;
  // Gears (gear_options.h): --dynamic_batch_size / --dynamic_image_size / --dynamic_dims.
  om::DynamicKind dynamic_kind = om::DynamicKind::kNone;
  std::vector<std::vector<int64_t>> gears;
  bool disable_reuse_memory = false;
  bool fusion = true;  // hidden (--fusion=false turns it off): residual adds and activations as post_ops
  bool blocked_layout = true;  // hidden (--blocked_layout=false): the layout pass (layout_pass.h)
  // --enable_single_stream (stream_assign.h): true (npurt's default) every operator on one stream; false independent
  // branches on up to 4 streams. CANN defaults to false; on the simulated NPU several streams measured slower (the
  // operators already use every core; docs/atc.md, "Streams").
  bool single_stream = true;
  bool help = false;
  std::map<std::string, std::string> recorded;  // accepted tuning options, for --mode=6
  std::string command_line;                     // argv joined
};

// Parses argv (argv[0] is the program). Errors name the option and say why (E10001-style text).
StatusOr<Options> ParseOptions(int argc, const char* const* argv);

// Parsers of single option values (unit-tested).
// --input_shape ("x:1,3,-1,-1;y:1~8,128"), or with `range_syntax` --input_shape_range ("x:[1~8,3,224,224]").
StatusOr<std::vector<InputShape>> ParseInputShape(const std::string& text, bool range_syntax = false);
StatusOr<std::vector<OutputNode>> ParseOutNodes(const std::string& text);

// "a;b" -> {"a", "b"} (empty parts kept), and surrounding whitespace trimmed: the option parsers' tools.
std::vector<std::string> SplitOn(const std::string& s, char sep);
std::string Trim(const std::string& s);

// The text of --help.
std::string HelpText(const std::string& program);

// atc's own stderr messages, filtered by --log.
void SetLogLevel(LogLevel level);
void Log(LogLevel level, const std::string& message);
// Where Log's messages go instead of stderr (the runtime's shape compiler: the runtime's log); null: stderr.
void SetLogSink(void (*sink)(LogLevel, const std::string&));

}  // namespace npurt::atc
