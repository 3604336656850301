#include "single_op.h"

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/dtype.h"
#include "dfx/plog_file.h"
#include "models/om/om_writer.h"
#include "ops/op_compiler.h"

namespace npurt::atc {
namespace {

using Json = nlohmann::json;

// Data types by the names the op lists use ("float16", "float", "DT_FLOAT16", ...).
bool ParseDataType(const std::string& text, int32_t* out) {
  std::string t = text;
  if (t.rfind("DT_", 0) == 0) t = t.substr(3);
  for (char& c : t) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  static const std::pair<const char*, int32_t> kAliases[] = {
      {"float", ACL_FLOAT}, {"float32", ACL_FLOAT}, {"fp32", ACL_FLOAT}, {"float16", ACL_FLOAT16},
      {"fp16", ACL_FLOAT16}, {"half", ACL_FLOAT16}, {"bfloat16", ACL_BF16}, {"bf16", ACL_BF16},
      {"double", ACL_DOUBLE}, {"float64", ACL_DOUBLE}, {"int8", ACL_INT8}, {"int16", ACL_INT16},
      {"int32", ACL_INT32}, {"int64", ACL_INT64}, {"uint8", ACL_UINT8}, {"uint16", ACL_UINT16},
      {"uint32", ACL_UINT32}, {"uint64", ACL_UINT64}, {"bool", ACL_BOOL}};
  for (const auto& [name, dt] : kAliases) {
    if (t == name) {
      *out = dt;
      return true;
    }
  }
  return false;
}

bool ParseFormat(const std::string& text, int32_t* out) {
  for (int32_t f = 0; f < 64; ++f) {
    if (text == FormatName(f) && std::strcmp(FormatName(f), "an unsupported format") != 0) {
      *out = f;
      return true;
    }
  }
  return false;
}

class EntryParser {
 public:
  EntryParser(size_t index, const Json& j) : index_(index), j_(j) {}

  StatusOr<SingleOpEntry> Parse() {
    if (!j_.is_object()) return Bad("", "is not an object");
    static const std::set<std::string> kKnown = {"op", "name", "input_desc", "output_desc", "attr", "compile_flag"};
    for (const auto& [key, value] : j_.items()) {
      if (kKnown.count(key) == 0) Log(LogLevel::kWarning, fmt::format("op {}: field '{}' is ignored", index_, key));
    }
    if (!j_.contains("op") || !j_["op"].is_string() || j_["op"].get<std::string>().empty()) {
      return Bad("op", "is required: the operator type, a non-empty string");
    }
    entry_.op.op_type = j_["op"].get<std::string>();
    if (j_.contains("compile_flag") && !(j_["compile_flag"].is_number_integer() &&
                                         (j_["compile_flag"] == 0 || j_["compile_flag"] == 1))) {
      return Bad("compile_flag", "must be 0 or 1");
    }
    NPURT_RETURN_IF_ERROR(Descs("input_desc", &entry_.op.inputs));
    NPURT_RETURN_IF_ERROR(Descs("output_desc", &entry_.op.outputs));
    if (entry_.op.outputs.empty()) return Bad("output_desc", "lists no output");
    if (j_.contains("attr")) NPURT_RETURN_IF_ERROR(Attrs(j_["attr"]));
    if (j_.contains("name")) {
      if (!j_["name"].is_string()) return Bad("name", "must be a string");
      std::string name = j_["name"].get<std::string>();
      if (name.empty() || name.find('/') != std::string::npos || name == "." || name == ".." || name.size() > 250) {
        return Bad("name", fmt::format("'{}' is not a file name", name));
      }
      if (name.size() < 3 || name.compare(name.size() - 3, 3, ".om") != 0) name += ".om";
      entry_.file_name = name;
    } else {
      entry_.file_name = om::SingleOpFileName(index_, entry_.op);
    }
    return std::move(entry_);
  }

 private:
  Status Bad(const std::string& field, const std::string& why) const {
    const std::string op = entry_.op.op_type.empty() ? "" : fmt::format(" ({})", entry_.op.op_type);
    return Err(kFail, "E10003: op {}{} of the --singleop list: {}{}", index_, op,
               field.empty() ? "" : "'" + field + "' ", why);
  }

  Status Descs(const char* field, std::vector<TensorSpec>* out) {
    if (!j_.contains(field)) return Bad(field, "is required: an array of tensor descriptions");
    const Json& list = j_[field];
    if (!list.is_array()) return Bad(field, "must be an array");
    for (size_t i = 0; i < list.size(); ++i) {
      const std::string where = fmt::format("{}[{}]", field, i);
      const Json& d = list[i];
      if (!d.is_object()) return Bad(where, "is not an object");
      TensorSpec s;
      if (!d.contains("type") || !d["type"].is_string() || !ParseDataType(d["type"].get<std::string>(), &s.dtype)) {
        return Bad(where + ".type", fmt::format("{} is not a data type npurt computes on (float16, float, bfloat16, "
                                                "double, int8 to int64, uint8 to uint64, bool)",
                                                d.contains("type") ? d["type"].dump() : "(missing)"));
      }
      if (!d.contains("format") || !d["format"].is_string() || !ParseFormat(d["format"].get<std::string>(), &s.format)) {
        return Bad(where + ".format", fmt::format("{} is not a format (ND, NCHW, NHWC, NCDHW, NC1HWC0, ...)",
                                                  d.contains("format") ? d["format"].dump() : "(missing)"));
      }
      if (!d.contains("shape") || !d["shape"].is_array()) return Bad(where + ".shape", "is required: an array of dims");
      const Json& shape = d["shape"];
      if (shape.size() > 8) return Bad(where + ".shape", fmt::format("has {} dims (8 at most)", shape.size()));
      for (const Json& dim : shape) {
        const bool too_big = dim.is_number_unsigned() && dim.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX);
        if (!dim.is_number_integer() || too_big || dim.get<int64_t>() < -2 ||
            (dim.get<int64_t>() == -2 && shape.size() != 1)) {
          return Bad(where + ".shape", fmt::format("{} is not a shape (dims >= 0, -1 for a dynamic dim, [-2] for an "
                                                   "unknown rank)", shape.dump()));
        }
        s.dims.push_back(dim.get<int64_t>());
        if (dim.get<int64_t>() < 0) entry_.dynamic = true;
      }
      if (d.contains("is_const") && d["is_const"].is_boolean() && d["is_const"].get<bool>()) {
        return Bad(where + ".is_const", "constant inputs are not supported by npurt's --singleop: pass the value as "
                                        "an input buffer at execution");
      }
      out->push_back(std::move(s));
    }
    return Status::Ok();
  }

  template <typename T, typename Check>
  Status List(const Json& v, const std::string& where, Check check, std::vector<T>* out) {
    if (!v.is_array()) return Bad(where, "must be an array");
    for (const Json& x : v) {
      if (!check(x)) return Bad(where, fmt::format("has the element {} of the wrong type", x.dump()));
      out->push_back(x.get<T>());
    }
    return Status::Ok();
  }

  Status Attrs(const Json& list) {
    if (!list.is_array()) return Bad("attr", "must be an array");
    for (size_t i = 0; i < list.size(); ++i) {
      const Json& a = list[i];
      const std::string where = fmt::format("attr[{}]", i);
      if (!a.is_object() || !a.contains("name") || !a["name"].is_string() || a["name"].get<std::string>().empty()) {
        return Bad(where, "needs a non-empty 'name'");
      }
      const std::string name = a["name"].get<std::string>();
      const std::string at = fmt::format("{} ({})", where, name);
      if (!a.contains("type") || !a["type"].is_string()) return Bad(at, "needs a 'type'");
      if (!a.contains("value")) return Bad(at, "needs a 'value'");
      const std::string type = a["type"].get<std::string>();
      const Json& v = a["value"];
      const auto is_int = [](const Json& x) { return x.is_number_integer(); };
      const auto is_num = [](const Json& x) { return x.is_number(); };
      AttrValue value;
      auto wrong = [&]() { return Bad(at, fmt::format("has the value {}, which is not a {}", v.dump(), type)); };
      if (type == "bool") {
        if (!v.is_boolean()) return wrong();
        value = v.get<bool>();
      } else if (type == "int") {
        if (!is_int(v)) return wrong();
        value = v.get<int64_t>();
      } else if (type == "float") {
        if (!is_num(v)) return wrong();
        value = v.get<float>();
      } else if (type == "string") {
        if (!v.is_string()) return wrong();
        value = v.get<std::string>();
      } else if (type == "data_type") {
        int32_t dt = 0;
        if (v.is_number_integer()) {
          dt = v.get<int32_t>();
        } else if (!v.is_string() || !ParseDataType(v.get<std::string>(), &dt)) {
          return wrong();
        }
        value = DataTypeValue{dt};
      } else if (type == "list_bool") {
        if (!v.is_array()) return wrong();
        std::vector<uint8_t> bits;
        for (const Json& x : v) {
          if (!x.is_boolean()) return wrong();
          bits.push_back(x.get<bool>() ? 1 : 0);
        }
        value = std::move(bits);
      } else if (type == "list_int") {
        std::vector<int64_t> ints;
        NPURT_RETURN_IF_ERROR(List(v, at, is_int, &ints));
        value = std::move(ints);
      } else if (type == "list_float") {
        std::vector<float> floats;
        NPURT_RETURN_IF_ERROR(List(v, at, is_num, &floats));
        value = std::move(floats);
      } else if (type == "list_string") {
        std::vector<std::string> strings;
        NPURT_RETURN_IF_ERROR(List(v, at, [](const Json& x) { return x.is_string(); }, &strings));
        value = std::move(strings);
      } else if (type == "list_list_int") {
        if (!v.is_array()) return wrong();
        std::vector<std::vector<int64_t>> lists;
        for (const Json& l : v) {
          std::vector<int64_t> ints;
          NPURT_RETURN_IF_ERROR(List(l, at, is_int, &ints));
          lists.push_back(std::move(ints));
        }
        value = std::move(lists);
      } else if (type == "list_data_type") {
        if (!v.is_array()) return wrong();
        std::vector<int32_t> dts;
        for (const Json& x : v) {
          int32_t dt = 0;
          if (x.is_number_integer()) {
            dt = x.get<int32_t>();
          } else if (!x.is_string() || !ParseDataType(x.get<std::string>(), &dt)) {
            return wrong();
          }
          dts.push_back(dt);
        }
        value = std::move(dts);
      } else {
        return Bad(at, fmt::format("has the type '{}' (use bool, int, float, string, data_type, list_bool, list_int, "
                                   "list_float, list_string, list_list_int or list_data_type)", type));
      }
      if (!entry_.op.attrs.emplace(name, std::move(value)).second) return Bad(at, "is given twice");
    }
    return Status::Ok();
  }

  size_t index_;
  const Json& j_;
  SingleOpEntry entry_;
};

}  // namespace

StatusOr<std::vector<SingleOpEntry>> ParseSingleOpList(const std::string& json_text) {
  Json j = Json::parse(json_text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return Err(kFail, "E10003: the --singleop file is not valid JSON");
  if (j.is_object()) j = Json::array({j});  // one operator without the enclosing list
  if (!j.is_array() || j.empty()) return Err(kFail, "E10003: the --singleop file must hold a non-empty array of operators");
  std::vector<SingleOpEntry> entries;
  std::set<std::string> names;
  for (size_t i = 0; i < j.size(); ++i) {
    auto e = EntryParser(i, j[i]).Parse();
    if (!e.ok()) return std::move(e).status();
    if (!names.insert(e.value().file_name).second) {
      return Err(kFail, "E10003: op {} ({}) of the --singleop list: its file name {} is used by another operator", i,
                 e.value().op.op_type, e.value().file_name);
    }
    entries.push_back(std::move(e).value());
  }
  return entries;
}

StatusOr<ConversionReport> BuildSingleOpModels(const Options& opts) {
  std::ifstream in(opts.singleop);
  if (!in) return Err(kFail, "E10001: --singleop {}: the file cannot be read: {}", opts.singleop, std::strerror(errno));
  std::stringstream text;
  text << in.rdbuf();
  auto entries = ParseSingleOpList(text.str());
  if (!entries.ok()) return std::move(entries).status();

  // Compile everything before writing anything: a failing operator leaves no partial output.
  std::vector<std::string> lines;
  size_t compiled = 0;
  for (size_t i = 0; i < entries->size(); ++i) {
    const SingleOpEntry& e = (*entries)[i];
    if (e.dynamic) {
      lines.push_back(fmt::format("op {}: {} has dynamic dims: no file (npurt compiles each new shape when "
                                  "aclopExecuteV2 first sees it)", i, e.op.op_type));
      continue;
    }
    ops::OpCall call;
    call.type = e.op.op_type;
    call.inputs = e.op.inputs;
    call.requested = e.op.outputs;
    call.attrs = &e.op.attrs;
    const auto t0 = std::chrono::steady_clock::now();
    auto op = ops::CompileOp(call);
    if (!op.ok()) {
      return Err(kFail, "E10003: op {} ({}) of the --singleop list cannot be compiled: {}", i, e.op.op_type,
                 op.status().message());
    }
    const auto us = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - t0);
    lines.push_back(fmt::format("op {}: {} -> {}/{} (compiled in {} us)", i, e.op.op_type, opts.output, e.file_name,
                                us.count()));
    ++compiled;
  }
  if (!dfx::MakeDirs(opts.output)) {
    return Err(kFail, "E10001: --output {}: the directory cannot be created: {}", opts.output, std::strerror(errno));
  }
  const std::string producer = fmt::format("npurt atc {}", NPURT_VERSION);
  for (const SingleOpEntry& e : *entries) {
    if (e.dynamic) continue;
    const om::ModelDef def = om::SingleOpModel(e.op, opts.soc_version, producer, opts.command_line);
    NPURT_RETURN_IF_ERROR(om::WriteModelFile(def, {}, opts.output + "/" + e.file_name));
  }
  ConversionReport report;
  report.om_path = opts.output;
  report.summary = fmt::format("single-operator models: {} of {} operators written to {}\n", compiled,
                               entries->size(), opts.output);
  for (const std::string& l : lines) report.summary += "  " + l + "\n";
  if (!report.summary.empty() && report.summary.back() == '\n') report.summary.pop_back();
  return report;
}

}  // namespace npurt::atc
