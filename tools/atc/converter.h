// Mode 0: the whole conversion, ONNX file -> <output>.om. Nothing is written unless every step passed.
#pragma once

#include <string>

#include "atc_options.h"
#include "base/status.h"

namespace npurt::atc {

struct ConversionReport {
  std::string om_path;
  std::string summary;  // the lines atc prints on success (memory plan, weights, nodes)
};

StatusOr<ConversionReport> ConvertModel(const Options& opts);

}  // namespace npurt::atc
