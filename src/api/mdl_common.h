// The objects behind aclmdlDesc*, aclmdlDataset*, aclmdlConfigHandle* and aclmdlExecConfigHandle*, and
// what the aclmdl entry points share. Private to npurt.
#pragma once
#ifndef NPURT_INTERNAL_BUILD
#error "src/api/mdl_common.h is private to the npurt runtime"
#endif

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "api/handle_tags.h"
#include "base/handle.h"
#include "base/status.h"
#include "models/model_manager.h"

namespace npurt::api::mdl {

struct Desc final : public HandleObject {
  Desc() : HandleObject(handle_tags::kMdlDesc) {}
  static Desc* From(const void* p) { return LookupHandle<Desc>(p, handle_tags::kMdlDesc); }
  models::ModelInfo info;
  bool filled = false;
};

struct Dataset final : public HandleObject {
  Dataset() : HandleObject(handle_tags::kMdlDataset) {}
  ~Dataset() override;  // destroys its tensor-descriptor copies
  static Dataset* From(const void* p) { return LookupHandle<Dataset>(p, handle_tags::kMdlDataset); }
  std::vector<aclDataBuffer*> buffers;
  std::vector<aclTensorDesc*> descs;  // owned copies, parallel to buffers (null: none)
  // The gear an execution with this input dataset runs (aclmdlSetDynamic*, aclmdlSetInputDynamicDims):
  // batch {b}, image size {h, w}, or every dim of the dynamic inputs; kNone: the largest.
  om::DynamicKind gear_request = om::DynamicKind::kNone;
  std::vector<int64_t> gear_values;
};

struct Config final : public HandleObject {
  Config() : HandleObject(handle_tags::kMdlConfig) {}
  static Config* From(const void* p) { return LookupHandle<Config>(p, handle_tags::kMdlConfig); }
  std::map<int, uint64_t> values;  // attribute -> integer value or address
  std::string path;                // ACL_MDL_PATH_PTR (copied)
  std::string weight_path;         // ACL_MDL_WEIGHT_PATH_PTR (copied)
};

struct ExecConfig final : public HandleObject {
  ExecConfig() : HandleObject(handle_tags::kMdlExecConfig) {}
  static ExecConfig* From(const void* p) { return LookupHandle<ExecConfig>(p, handle_tags::kMdlExecConfig); }
  int32_t stream_timeout_ms = -1;
  int32_t event_timeout_ms = -1;
  int32_t priority = 0;
};

// True if `b` is a live aclDataBuffer (data_buffer.cc's registry).
bool DataBufferLive(const aclDataBuffer* b);

// The descriptor of a handle argument, or ACL_ERROR_INVALID_PARAM naming the argument.
StatusOr<Desc*> ResolveDesc(const aclmdlDesc* desc, const char* what);
StatusOr<Dataset*> ResolveDataset(const aclmdlDataset* dataset, const char* what);

// The gear `input`'s request selects in `model` (-1: none, the model's default), or why it fits none.
StatusOr<int32_t> RequestedGear(const models::LoadedModel& model, const Dataset& input);

// The dataset's buffers as the model layer takes them (each buffer a live aclDataBuffer).
StatusOr<std::vector<models::UserBuffer>> Buffers(const Dataset* dataset, const char* what);

// A dynamic-shape model's execution: each input's dims as the dataset's tensor descriptors give them
// (aclmdlSetDatasetTensorDesc; an input without one: empty), and the output dataset's descriptors set to
// what the execution writes (aclmdlGetDatasetTensorDesc).
std::vector<std::vector<int64_t>> DescribedShapes(const Dataset* dataset);
Status SetOutputDescs(Dataset* dataset, const std::vector<models::IoDesc>& outputs,
                      const std::vector<std::vector<int64_t>>& dims);

}  // namespace npurt::api::mdl
