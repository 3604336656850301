// atc: npurt's model converter (ONNX -> .om), with CANN ATC's command line, banners and exit codes
// (shared reference models.md §3.2): 0 on success, 255 (GE's FAILED) on failure.
#include <cstdio>
#include <exception>
#include <string>

#include "atc_options.h"
#include "converter.h"
#include "model_dump.h"
#include "single_op.h"

namespace {

constexpr int kExitFailed = 255;

int Fail(const npurt::Status& st) {
  std::printf("ATC run failed, Please check the detail log, Try 'atc --help' for more information\n");
  std::printf("%s\n", st.message().empty() ? "E19999: Internal Error!" : st.message().c_str());
  std::fflush(stdout);
  return kExitFailed;
}

int Run(int argc, char** argv) {
  using namespace npurt::atc;
  auto parsed = ParseOptions(argc, argv);
  if (!parsed.ok()) {
    std::printf("ATC start working now, please wait for a moment.\n");
    return Fail(parsed.status());
  }
  const Options& o = parsed.value();
  if (o.help) {
    std::printf("%s", HelpText("atc").c_str());
    return 0;
  }
  SetLogLevel(o.log);
  std::printf("ATC start working now, please wait for a moment.\n");
  std::fflush(stdout);
  if (o.mode == 1) {
    npurt::Status st = DumpModelJson(o.om, o.framework, o.json);
    if (!st.ok()) return Fail(st);
  } else if (o.mode == 6) {
    auto info = ModelInfo(o.om);
    if (!info.ok()) return Fail(info.status());
    std::printf("%s\n", info->c_str());
  } else if (!o.singleop.empty()) {
    auto r = BuildSingleOpModels(o);
    if (!r.ok()) return Fail(r.status());
    std::printf("%s\n", r->summary.c_str());
  } else {
    auto r = ConvertModel(o);
    if (!r.ok()) return Fail(r.status());
    std::printf("...\n%s\n", r->summary.c_str());
  }
  std::printf("ATC run success, welcome to the next use.\n");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return Run(argc, argv);
  } catch (const std::exception& e) {
    return Fail(npurt::Status(1, std::string("E19999: Internal Error! ") + e.what()));
  } catch (...) {
    return Fail(npurt::Status(1, "E19999: Internal Error!"));
  }
}
