// The operator backend atc converts with: it infers every lowered node's outputs and checks (or compiles) the
// node. Two definitions, chosen at link time: backend_runtime.cc (the atc executable and its tests: the
// runtime's own core::BuildOperator) and shape_compiler.cc (the runtime's shape compiler, a library that a
// program's libascendcl loads: the host runtime's, lent to it, so that one process has one runtime).
#pragma once

#include "base/status.h"
#include "core/operators.h"

namespace npurt::atc {

StatusOr<core::OperatorBuild> BuildWithBackend(const core::OperatorCall& call);

}  // namespace npurt::atc
