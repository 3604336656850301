// atc's command line: gflags-style options (--name=value or --name value; a bool option alone means
// true), validated into one Options value. The option set follows CANN's ATC (shared reference
// models.md §3.1): what npurt implements, what it accepts and records (tuning knobs of the real
// compiler), and what it refuses with a reason.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "base/status.h"
#include "models/om/om_model.h"

namespace npurt::atc {

enum class LogLevel : int { kDebug = 0, kInfo = 1, kWarning = 2, kError = 3 };

struct InputShape {
  std::string name;
  std::vector<int64_t> dims;
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
  std::string precision_mode;  // recorded
  LogLevel log = LogLevel::kWarning;
  std::string insert_op_conf;
  // Gears (gear_options.h): --dynamic_batch_size / --dynamic_image_size / --dynamic_dims.
  om::DynamicKind dynamic_kind = om::DynamicKind::kNone;
  std::vector<std::vector<int64_t>> gears;
  bool disable_reuse_memory = false;
  bool fusion = true;  // hidden (--fusion=false turns it off): residual adds and activations as post_ops
  bool blocked_layout = true;  // hidden (--blocked_layout=false): the layout pass (layout_pass.h)
  bool help = false;
  std::map<std::string, std::string> recorded;  // accepted tuning options, for --mode=6
  std::string command_line;                     // argv joined
};

// Parses argv (argv[0] is the program). Errors name the option and say why (E10001-style text).
StatusOr<Options> ParseOptions(int argc, const char* const* argv);

// Parsers of single option values (unit-tested).
StatusOr<std::vector<InputShape>> ParseInputShape(const std::string& text);
StatusOr<std::vector<OutputNode>> ParseOutNodes(const std::string& text);

// "a;b" -> {"a", "b"} (empty parts kept), and surrounding whitespace trimmed: the option parsers' tools.
std::vector<std::string> SplitOn(const std::string& s, char sep);
std::string Trim(const std::string& s);

// The text of --help.
std::string HelpText(const std::string& program);

// atc's own stderr messages, filtered by --log.
void SetLogLevel(LogLevel level);
void Log(LogLevel level, const std::string& message);

}  // namespace npurt::atc
