// OpAttr: the object behind aclopAttr*, a set of named, typed operator attributes (base/op_attrs.h).
#pragma once

#include "base/handle.h"
#include "base/op_attrs.h"
#include "ops/handle_tags.h"

namespace npurt::ops {

class OpAttr final : public HandleObject {
 public:
  OpAttr() : HandleObject(handle_tags::kOpAttr) {}
  static OpAttr* From(const void* p) { return LookupHandle<OpAttr>(p, handle_tags::kOpAttr); }
  AttrMap attrs;
};

}  // namespace npurt::ops
