#include "aipp_config.h"

#include <cctype>
#include <fstream>
#include <set>
#include <sstream>

#include "atc_options.h"

namespace npurt::atc {
namespace {


const std::set<std::string>& IntFields() {
  static const std::set<std::string> s = [] {
    std::set<std::string> f = {"related_input_rank", "input_edge_idx", "max_src_image_size", "src_image_size_w",
                               "src_image_size_h", "load_start_pos_w", "load_start_pos_h", "crop_size_w",
                               "crop_size_h", "resize_output_w", "resize_output_h", "left_padding_size",
                               "right_padding_size", "top_padding_size", "bottom_padding_size",
                               "mean_chn_0", "mean_chn_1", "mean_chn_2", "mean_chn_3",
                               "output_bias_0", "output_bias_1", "output_bias_2",
                               "input_bias_0", "input_bias_1", "input_bias_2"};
    for (int r = 0; r < 3; ++r) {
      for (int c = 0; c < 3; ++c) f.insert("matrix_r" + std::to_string(r) + "c" + std::to_string(c));
    }
    return f;
  }();
  return s;
}

const std::set<std::string>& FloatFields() {
  static const std::set<std::string> s = {"min_chn_0", "min_chn_1", "min_chn_2", "min_chn_3",
                                          "var_reci_chn_0", "var_reci_chn_1", "var_reci_chn_2", "var_reci_chn_3",
                                          "padding_value"};
  return s;
}

const std::set<std::string>& BoolFields() {
  static const std::set<std::string> s = {"support_rotation", "crop", "resize", "padding", "csc_switch",
                                          "rbuv_swap_switch", "ax_swap_switch", "single_line_mode"};
  return s;
}

const std::set<std::string>& InputFormats() {
  static const std::set<std::string> s = {"YUV420SP_U8", "XRGB8888_U8", "RGB888_U8", "YUV400_U8", "NC1HWC0DI_FP16",
                                          "NC1HWC0DI_S8", "ARGB8888_U8", "YUYV_U8", "YUV422SP_U8", "AYUV444_U8",
                                          "RAW10", "RAW12", "RAW16", "RAW24", "RGB16", "RGB20", "RGB24", "RGB8_IR",
                                          "RGB16_IR", "RGB24_IR"};
  return s;
}

class Lexer {
 public:
  Lexer(const std::string& t) : t_(t) {}
  // Next token: "{", "}", ":", a word/number, a quoted string (without quotes), or "" at the end.
  std::string Next() {
    Skip();
    if (pos_ >= t_.size()) return "";
    const char c = t_[pos_];
    if (c == '{' || c == '}' || c == ':') {
      ++pos_;
      return std::string(1, c);
    }
    if (c == '"' || c == '\'') {
      const size_t end = t_.find(c, pos_ + 1);
      std::string s = t_.substr(pos_ + 1, end == std::string::npos ? std::string::npos : end - pos_ - 1);
      pos_ = end == std::string::npos ? t_.size() : end + 1;
      return s;
    }
    const size_t start = pos_;
    while (pos_ < t_.size() && !std::isspace(static_cast<unsigned char>(t_[pos_])) && t_[pos_] != '{' &&
           t_[pos_] != '}' && t_[pos_] != ':' && t_[pos_] != '#') {
      ++pos_;
    }
    return t_.substr(start, pos_ - start);
  }
  int line() const {
    int l = 1;
    for (size_t i = 0; i < pos_ && i < t_.size(); ++i) l += t_[i] == '\n';
    return l;
  }

 private:
  void Skip() {
    while (pos_ < t_.size()) {
      if (std::isspace(static_cast<unsigned char>(t_[pos_]))) {
        ++pos_;
      } else if (t_[pos_] == '#') {
        while (pos_ < t_.size() && t_[pos_] != '\n') ++pos_;
      } else {
        break;
      }
    }
  }
  const std::string& t_;
  size_t pos_ = 0;
};

bool IsNumber(const std::string& v, bool allow_float) {
  if (v.empty()) return false;
  char* end = nullptr;
  if (allow_float) std::strtod(v.c_str(), &end);
  else std::strtoll(v.c_str(), &end, 10);
  return end != nullptr && *end == '\0';
}

}  // namespace

StatusOr<AippConfig> ParseAippConfig(const std::string& text, const std::string& source) {
  AippConfig cfg;
  Lexer lex(text);
  auto bad = [&](const std::string& why) {
    return Err(kFail, "E10001: Value [{}] for parameter [--insert_op_conf] is invalid. Reason: line {}: {}", source,
               lex.line(), why);
  };
  for (std::string tok = lex.Next(); !tok.empty(); tok = lex.Next()) {
    if (tok != "aipp_op") {
      if (tok == "multi_shape_op") return bad("multi_shape_op is not supported");
      return bad("'" + tok + "' is not a known section (expected aipp_op { ... })");
    }
    if (lex.Next() != "{") return bad("aipp_op must be followed by {");
    AippOp op;
    while (true) {
      std::string key = lex.Next();
      if (key.empty()) return bad("aipp_op { is not closed");
      if (key == "}") break;
      if (lex.Next() != ":") return bad("field " + key + " must be followed by ':'");
      std::string value = lex.Next();
      if (value.empty() || value == "{" || value == "}") return bad("field " + key + " has no value");
      if (key == "aipp_mode") {
        if (value != "static" && value != "dynamic") return bad("aipp_mode must be static or dynamic, not " + value);
      } else if (key == "input_format") {
        if (InputFormats().count(value) == 0) return bad("input_format " + value + " is unknown");
      } else if (key == "related_input_name") {
        // any string
      } else if (IntFields().count(key) != 0) {
        if (!IsNumber(value, false)) return bad("field " + key + " needs an integer, not " + value);
      } else if (FloatFields().count(key) != 0) {
        if (!IsNumber(value, true)) return bad("field " + key + " needs a number, not " + value);
      } else if (BoolFields().count(key) != 0) {
        if (value != "true" && value != "false" && value != "0" && value != "1") {
          return bad("field " + key + " needs true or false, not " + value);
        }
      } else {
        return bad("field " + key + " is not an AIPP parameter");
      }
      if (!op.fields.emplace(key, value).second) return bad("field " + key + " is given twice");
    }
    if (op.fields.count("aipp_mode") == 0) return bad("aipp_op has no aipp_mode (static or dynamic)");
    cfg.ops.push_back(std::move(op));
  }
  return cfg;
}

StatusOr<AippConfig> ParseAippConfigFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) {
    return Err(kFail, "E10001: Value [{}] for parameter [--insert_op_conf] is invalid. Reason: the file cannot be "
               "opened", path);
  }
  std::stringstream ss;
  ss << in.rdbuf();
  return ParseAippConfig(ss.str(), path);
}

}  // namespace npurt::atc
