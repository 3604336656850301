#include "gear_options.h"

#include <cerrno>
#include <cstdlib>
#include <set>

namespace npurt::atc {
namespace {

constexpr size_t kMinGears = 2;
constexpr size_t kMaxGears = 100;

Status Bad(const char* option, const std::string& value, const std::string& why) {
  return Err(kFail, "E10001: Value [{}] for parameter [--{}] is invalid. Reason: {}", value, option, why);
}

// "a,b;c,d" -> gears; each value a positive integer; `per_gear` values each (0: any, the same for all).
StatusOr<std::vector<std::vector<int64_t>>> ParseGearList(const char* option, const std::string& text, char gear_sep,
                                                          size_t per_gear) {
  std::vector<std::vector<int64_t>> gears;
  std::string list = Trim(text);
  if (!list.empty() && list.back() == gear_sep) list.pop_back();  // "1,2,4," and "224,224;448,448;"
  for (const std::string& raw : SplitOn(list, gear_sep)) {
    std::vector<int64_t> gear;
    for (const std::string& v : gear_sep == ',' ? std::vector<std::string>{raw} : SplitOn(raw, ',')) {
      const std::string t = Trim(v);
      char* end = nullptr;
      errno = 0;
      const long long n = std::strtoll(t.c_str(), &end, 10);
      if (t.empty() || errno != 0 || *end != '\0' || n <= 0) {
        return Bad(option, text, fmt::format("'{}' is not a positive integer", t));
      }
      gear.push_back(n);
    }
    if (per_gear != 0 && gear.size() != per_gear) {
      return Bad(option, text, fmt::format("gear '{}' has {} values, each gear takes {}", Trim(raw), gear.size(), per_gear));
    }
    gears.push_back(std::move(gear));
  }
  if (gears.size() < kMinGears || gears.size() > kMaxGears) {
    return Bad(option, text, fmt::format("it gives {} gears; give {} to {}", gears.size(), kMinGears, kMaxGears));
  }
  std::set<std::vector<int64_t>> seen;
  for (const auto& g : gears) {
    if (!seen.insert(g).second) return Bad(option, text, fmt::format("gear '{}' is given twice", fmt::join(g, ",")));
  }
  return gears;
}

size_t CountDynamic(const std::vector<InputShape>& shapes) {
  size_t n = 0;
  for (const InputShape& s : shapes) {
    for (int64_t d : s.dims) n += d == -1 ? 1 : 0;
  }
  return n;
}

}  // namespace

Status ParseGearOptions(const GearOptionText& text, Options* opts) {
  const int given = (text.batch != nullptr) + (text.image_size != nullptr) + (text.dims != nullptr);
  const size_t dynamic_dims = CountDynamic(opts->input_shapes);
  if (given == 0) {
    // -1 or ranges without gears: a dynamic-shape model, compiled at run time for the shapes it meets.
    if (dynamic_dims != 0) {
      if (!opts->insert_op_conf.empty()) {
        return Err(kFail, "E10001: --insert_op_conf (AIPP) needs static input shapes or gears; dynamic shapes "
                   "(-1 or ranges without --dynamic_batch_size, --dynamic_image_size or --dynamic_dims) exclude it");
      }
      opts->dynamic_kind = om::DynamicKind::kShape;
    }
    return Status::Ok();
  }
  if (given > 1) {
    return Err(kFail, "E10001: --dynamic_batch_size, --dynamic_image_size and --dynamic_dims exclude each other: give "
               "one of them");
  }
  const char* option = text.batch != nullptr ? "dynamic_batch_size"
                       : text.image_size != nullptr ? "dynamic_image_size" : "dynamic_dims";
  const std::string& value = text.batch != nullptr ? *text.batch : text.image_size != nullptr ? *text.image_size : *text.dims;
  for (const InputShape& s : opts->input_shapes) {
    if (s.ranged()) {
      return Bad(option, value, fmt::format("input {} has a range (min~max): ranges make a dynamic-shape model, "
                                            "gears take -1 dims; give one or the other", s.name));
    }
  }
  if (opts->input_shapes.empty() || dynamic_dims == 0) {
    return Bad(option, value, "--input_shape must mark the dims the gears set with -1 (e.g. --input_shape=\"x:-1,3,224,224\")");
  }
  StatusOr<std::vector<std::vector<int64_t>>> gears = std::vector<std::vector<int64_t>>{};
  if (text.batch != nullptr) {
    opts->dynamic_kind = om::DynamicKind::kBatch;
    for (const InputShape& s : opts->input_shapes) {
      for (size_t i = 1; i < s.dims.size(); ++i) {
        if (s.dims[i] == -1) {
          return Bad(option, value, fmt::format("input {} has -1 in dim {}: batch gears set the first dim only", s.name, i));
        }
      }
    }
    gears = ParseGearList(option, value, ',', 1);
  } else if (text.image_size != nullptr) {
    opts->dynamic_kind = om::DynamicKind::kImageSize;
    const bool nhwc = opts->input_format == "NHWC";
    if (!opts->input_format.empty() && opts->input_format != "NCHW" && !nhwc) {
      return Bad(option, value, fmt::format("image-size gears need NCHW or NHWC inputs, not --input_format={}",
                                            opts->input_format));
    }
    for (const InputShape& s : opts->input_shapes) {
      if (CountDynamic({s}) == 0) continue;
      const size_t h = nhwc ? 1 : 2, w = nhwc ? 2 : 3;
      bool ok = s.dims.size() == 4;
      for (size_t i = 0; ok && i < 4; ++i) ok = (s.dims[i] == -1) == (i == h || i == w);
      if (!ok) {
        return Bad(option, value, fmt::format("input {} must be -1 in H and W only ({}), it is {}", s.name,
                                              nhwc ? "n,-1,-1,c" : "n,c,-1,-1", fmt::join(s.dims, ",")));
      }
    }
    gears = ParseGearList(option, value, ';', 2);
  } else {
    opts->dynamic_kind = om::DynamicKind::kDims;
    if (opts->input_format != "ND") return Bad(option, value, "dims gears need --input_format=ND");
    if (!opts->insert_op_conf.empty()) return Bad(option, value, "dims gears exclude --insert_op_conf (AIPP)");
    gears = ParseGearList(option, value, ';', dynamic_dims);
  }
  if (!gears.ok()) return std::move(gears).status();
  opts->gears = std::move(gears).value();
  return Status::Ok();
}

size_t LargestGear(const Options& opts) {
  size_t best = 0;
  int64_t best_elems = -1;
  for (size_t g = 0; g < opts.gears.size(); ++g) {
    int64_t elems = 0;
    for (const InputShape& s : GearShapes(opts, g)) {
      int64_t n = 1;
      for (int64_t d : s.dims) n *= d;
      elems += n;
    }
    if (elems >= best_elems) {
      best = g;
      best_elems = elems;
    }
  }
  return best;
}

std::vector<InputShape> GearShapes(const Options& opts, size_t g) {
  std::vector<om::InputTemplate> templates;
  for (const InputShape& s : opts.input_shapes) templates.push_back({s.name, s.dims, {}, {}});
  std::vector<std::vector<int64_t>> dims;
  std::vector<InputShape> out = opts.input_shapes;
  if (g < opts.gears.size() && om::ApplyGear(opts.dynamic_kind, templates, opts.gears[g], &dims)) {
    for (size_t i = 0; i < out.size(); ++i) out[i].dims = dims[i];
  }
  return out;
}

}  // namespace npurt::atc
