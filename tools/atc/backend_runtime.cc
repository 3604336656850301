#include "backend.h"

namespace npurt::atc {

StatusOr<core::OperatorBuild> BuildWithBackend(const core::OperatorCall& call) { return core::BuildOperator(call); }

}  // namespace npurt::atc
