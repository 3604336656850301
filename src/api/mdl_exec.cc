// Entry points: executing loaded models. The synchronous forms run on the model's own stream and wait;
// the asynchronous ones queue on the caller's stream. Only the synchronous forms allocate an output
// that the program left empty (aclCreateDataBuffer(NULL, 0)), as CANN's do; the program frees it.
#include "api/api_common.h"
#include "api/mdl_common.h"
#include "core/stream.h"

using npurt::Err;
using npurt::api::mdl::Dataset;
using npurt::api::mdl::ExecConfig;

namespace {

struct Prepared {
  std::shared_ptr<npurt::models::LoadedModel> model;
  std::vector<npurt::models::UserBuffer> inputs;
  std::vector<npurt::models::UserBuffer> outputs;
  int32_t gear = -1;
  // A dynamic-shape model: the inputs' dims from the input dataset. Models whose output dims are known per
  // execution (dynamic shapes, dims that depend on the data): where the outputs' dims arrive.
  bool shapes = false;
  std::vector<std::vector<int64_t>> input_dims;
  std::shared_ptr<npurt::models::OutputShapes> output_shapes;
  Dataset* output_dataset = nullptr;

  const std::vector<std::vector<int64_t>>* in_dims() const { return shapes ? &input_dims : nullptr; }
  // A synchronous execution, once it ended: its output dims into the output dataset.
  npurt::Status FinishSync() {
    if (output_shapes == nullptr) return npurt::Status::Ok();
    return npurt::api::mdl::SetOutputDescs(output_dataset, model->outputs(), output_shapes->dims);
  }
  // An asynchronous one, before it is queued: its output dims go into the output dataset when they are final (at
  // once, or after the device computed them), the dataset kept alive until then; one the program destroyed
  // meanwhile is left alone.
  void DeliverAsync() {
    if (output_shapes == nullptr) return;
    output_dataset->Retain();
    std::shared_ptr<Dataset> hold(output_dataset, [](Dataset* d) { d->Release(); });
    output_shapes->done = [hold, outputs = model->outputs()](const npurt::models::OutputShapes& s) {
      if (hold->alive()) (void)npurt::api::mdl::SetOutputDescs(hold.get(), outputs, s.dims);
    };
  }
};

npurt::StatusOr<Prepared> Prepare(uint32_t modelId, const aclmdlDataset* input, aclmdlDataset* output,
                                  bool allocate_outputs) {
  auto m = npurt::models::FindModel(modelId);
  if (!m.ok()) return m.status();
  auto in = npurt::api::mdl::ResolveDataset(input, "input");
  if (!in.ok()) return in.status();
  auto out = npurt::api::mdl::ResolveDataset(output, "output");
  if (!out.ok()) return out.status();
  Prepared p;
  p.model = std::move(m).value();
  auto ib = npurt::api::mdl::Buffers(in.value(), "input");
  if (!ib.ok()) return ib.status();
  auto ob = npurt::api::mdl::Buffers(out.value(), "output");
  if (!ob.ok()) return ob.status();
  p.inputs = std::move(ib).value();
  auto gear = npurt::api::mdl::RequestedGear(*p.model, *in.value());
  if (!gear.ok()) return gear.status();
  p.gear = gear.value();
  p.outputs = std::move(ob).value();
  p.output_dataset = out.value();
  p.shapes = p.model->gears().shapes();
  if (p.shapes) p.input_dims = npurt::api::mdl::DescribedShapes(in.value());
  if (p.model->per_execution_output_shapes()) p.output_shapes = std::make_shared<npurt::models::OutputShapes>();
  if (allocate_outputs && p.outputs.size() == p.model->outputs().size()) {
    for (size_t i = 0; i < p.outputs.size(); ++i) {
      if (p.outputs[i].data != nullptr || p.outputs[i].size != 0) continue;
      const size_t bytes = p.model->outputs()[i].bytes;
      void* mem = nullptr;
      if (aclrtMalloc(&mem, bytes == 0 ? 1 : bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
        return Err(ACL_ERROR_GE_MEMORY_ALLOCATION, "cannot allocate {} bytes for output {} of model {}", bytes, i,
                   modelId);
      }
      aclUpdateDataBuffer(out.value()->buffers[i], mem, bytes);
      p.outputs[i] = {mem, bytes};
    }
  }
  return p;
}

aclError Sync(const char* fn, uint32_t modelId, const aclmdlDataset* input, aclmdlDataset* output, int32_t timeout_ms) {
  auto p = Prepare(modelId, input, output, true);
  if (!p.ok()) return npurt::api::Report(fn, p.status());
  Prepared& r = p.value();
  auto st = r.model->Execute(r.inputs, r.outputs, timeout_ms, r.gear, r.in_dims(), r.output_shapes);
  if (!st.ok()) return npurt::api::Report(fn, st);
  NPURT_API_CHECK(r.FinishSync());
  return ACL_SUCCESS;
}

aclError Async(const char* fn, uint32_t modelId, const aclmdlDataset* input, aclmdlDataset* output,
               aclrtStream stream) {
  auto p = Prepare(modelId, input, output, false);
  if (!p.ok()) return npurt::api::Report(fn, p.status());
  NPURT_API_ASSIGN(s, npurt::api::ResolveStream(stream));
  Prepared& r = p.value();
  r.DeliverAsync();
  auto st = r.model->ExecuteAsync(r.inputs, r.outputs, s, r.gear, r.in_dims(), r.output_shapes);
  if (!st.ok()) return npurt::api::Report(fn, st);
  return ACL_SUCCESS;
}

npurt::StatusOr<const ExecConfig*> ResolveExecConfig(const aclmdlExecConfigHandle* handle) {
  if (handle == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "handle is a null pointer");
  const ExecConfig* c = ExecConfig::From(handle);
  if (c == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "handle is not a live execution configuration");
  return c;
}

}  // namespace

aclError aclmdlExecute(uint32_t modelId, const aclmdlDataset* input, aclmdlDataset* output) {
  NPURT_HANDLE_SCOPE();
  return Sync(__func__, modelId, input, output, -1);
}

aclError aclmdlExecuteAsync(uint32_t modelId, const aclmdlDataset* input, aclmdlDataset* output, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  return Async(__func__, modelId, input, output, stream);
}

aclError aclmdlExecuteV2(uint32_t modelId, const aclmdlDataset* input, aclmdlDataset* output, aclrtStream stream,
                         const aclmdlExecConfigHandle* handle) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(c, ResolveExecConfig(handle));
  if (stream == nullptr) return Sync(__func__, modelId, input, output, c->stream_timeout_ms);
  // On the given stream, then wait for it with the configured timeout.
  aclError rc = Async(__func__, modelId, input, output, stream);
  if (rc != ACL_SUCCESS) return rc;
  NPURT_API_ASSIGN(s, npurt::api::ResolveStream(stream));
  NPURT_API_CHECK(s->Synchronize(c->stream_timeout_ms));
  return ACL_SUCCESS;
}

aclError aclmdlExecuteAsyncV2(uint32_t modelId, const aclmdlDataset* input, aclmdlDataset* output, aclrtStream stream,
                              const aclmdlExecConfigHandle* handle) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(c, ResolveExecConfig(handle));
  (void)c;
  return Async(__func__, modelId, input, output, stream);
}

aclError aclmdlSetAttribute(uint32_t modelId, aclmdlAttr attr, aclmdlAttrValue_t* attrValue) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(attrValue);
  NPURT_API_ASSIGN(m, npurt::models::FindModel(modelId));
  if (npurt::RawEnum(attr) != ACL_MDL_ATTR_PRIORITY_INT32) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "unknown model attribute {}", npurt::RawEnum(attr)));
  }
  if (attrValue->mdlPriority > 7) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "priority {} is outside 0..7", attrValue->mdlPriority));
  }
  m->set_priority(attrValue->mdlPriority);
  return ACL_SUCCESS;
}

aclError aclmdlGetAttribute(uint32_t modelId, aclmdlAttr attr, aclmdlAttrValue_t* attrValue) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(attrValue);
  NPURT_API_ASSIGN(m, npurt::models::FindModel(modelId));
  if (npurt::RawEnum(attr) != ACL_MDL_ATTR_PRIORITY_INT32) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "unknown model attribute {}", npurt::RawEnum(attr)));
  }
  *attrValue = aclmdlAttrValue_t{};
  attrValue->mdlPriority = m->priority();
  return ACL_SUCCESS;
}
