// Operators as the layers above core see them (aclop, aclnn, CBLAS, the model executor): a call compiled by
// the operator backend of the runtime's driver (hal/op_backend.h) into a program, and the dispatch of a
// program on a stream. Core owns the dispatch; what an operator computes is the backend's.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/op_attrs.h"
#include "base/status.h"
#include "base/tensor_spec.h"
#include "hal/executable.h"

namespace npurt::core {

class Device;
class OperatorProgram;
class Stream;

struct OperatorCall {
  std::string_view type;
  const std::vector<TensorSpec>* inputs = nullptr;
  const std::vector<TensorSpec>* requested = nullptr;  // the caller's output descriptors (dims may be dynamic)
  const AttrMap* attrs = nullptr;                      // never null
  bool compile = true;                                 // false: validate and infer only
  // Per input: host-readable constant data or null (hal::OpRequest::constants says what a backend may do
  // with it). The program built is specific to that data; the op layer never sets it, so its compile cache
  // only ever holds programs built without constants.
  const std::vector<const void*>* constants = nullptr;
  // A program built before for this type, attributes, data types, ranks and constants at other shapes, whose
  // code the backend may re-tile for these shapes instead of compiling (hal::OpRequest::reuse). Null: none.
  const OperatorProgram* reuse = nullptr;
  // Compile for these shapes alone, never re-tiling: a compile cache replaces a re-tiled entry of the same key
  // with the result (a dynamic-shape model specialising a shape it meets again).
  bool specialize = false;
  // Shapes known on the device only (hal::OpRequest::shape_slots): the specs are upper bounds, and each run
  // reads and writes actual dims in shape slots (OperatorDispatch::Bind's `shapes`). Never cached.
  bool shape_slots = false;
};

// An operator the backend compiled: immutable, shared by the compile cache and the launches in flight.
class OperatorProgram {
 public:
  explicit OperatorProgram(std::unique_ptr<hal::Executable> executable) : executable_(std::move(executable)) {}
  const hal::Executable* executable() const { return executable_.get(); }

 private:
  std::unique_ptr<hal::Executable> executable_;
};

struct OperatorBuild {
  std::vector<TensorSpec> outputs;                 // inferred
  std::shared_ptr<const OperatorProgram> program;  // null unless call.compile
  bool reused = false;                             // the program re-tiles call.reuse's code
};

// What decides whether two operator calls are of one family, whose kernels may differ in tiling alone: the
// type, each input's and requested output's data type, format and rank, and the attributes (not the dims).
// Callers that keep programs per family (the op compile cache, a dynamic-shape model) key them by it (plus
// the constants' addresses where there are constants).
std::string OperatorFamilyKey(const OperatorCall& call);
// Whether re-tiling is on (NPURT_KERNEL_RETILE, default 1; 0 compiles every new shape from scratch).
bool KernelRetileEnabled();
// The backend's Warm (hal::OpBackend::Warm), where there is a backend; blocking.
void WarmOperatorBackend();

// Validates, infers and (call.compile) compiles through the backend of the runtime's driver (brought up
// with the environment's defaults if aclInit was not called). A driver without a backend:
// ACL_ERROR_RT_FEATURE_NOT_SUPPORT.
StatusOr<OperatorBuild> BuildOperator(const OperatorCall& call);

// An operator compile cache that a layer above keeps (ops/compile_cache.h registers its own when the library
// loads): BuildOperatorCached finds or compiles a call without constants there, keyed by type, specs and
// attributes, so that a model's operators share compiles across its shapes, its re-records and other models
// (and count in the cache's hits, misses and evictions). A call with constants, or no cache registered:
// BuildOperator.
using CachedBuildFn = StatusOr<OperatorBuild> (*)(const OperatorCall& call);
void SetOperatorCache(CachedBuildFn fn);
StatusOr<OperatorBuild> BuildOperatorCached(const OperatorCall& call);

// One run of a program: embedded in the launching layer's record, which keeps the program and the buffers
// alive until the cleanup passed to SubmitOperator ran.
class OperatorDispatch {
 public:
  // Binds the run to `program` and the buffers, for `stream` (whose overflow switch and device it reads).
  // `shapes`: a program built with shape_slots, its inputs' then its outputs' shape slots (hal::Dispatch).
  void Bind(const OperatorProgram& program, const void* const* inputs, uint32_t num_inputs, void* const* outputs,
            uint32_t num_outputs, Stream* stream, const char* name, int64_t* const* shapes = nullptr);
  // The run's result once it ran (0, or the stream's error code): for work ordered after it.
  int32_t status() const { return dispatch_.status; }
  // From the cleanup: raises the device's overflow status when the run reported an overflow.
  void Finish();

 private:
  friend void SubmitOperator(Stream* stream, OperatorDispatch* run, void (*cleanup)(void*), void* cleanup_arg,
                             uint32_t task_id);
  hal::Dispatch dispatch_;
  Device* raise_overflow_ = nullptr;
};

// Submits the bound run in stream order; cleanup(cleanup_arg) runs once after it (and should call Finish).
// `task_id`: its id in profiles and dumps (0: the stream assigns one).
void SubmitOperator(Stream* stream, OperatorDispatch* run, void (*cleanup)(void*), void* cleanup_arg,
                    uint32_t task_id);

// Runs `program` inline on the calling thread with up to `parallelism` cores (the op layer's tests).
Status RunOperatorNow(const OperatorProgram& program, const void* const* inputs, uint32_t num_inputs,
                      void* const* outputs, uint32_t num_outputs, int parallelism, const char* name);

}  // namespace npurt::core
