// libregister.so: TilingDef's serialisation and the tiling-class registry.
#include "register/tilingdata_base.h"

#include <acl/acl_base.h>

#include <map>
#include <mutex>
#include <string>

namespace optiling {

void TilingDef::AddField(const char* name, const char* type, size_t elemSize, size_t count, const void* storage,
                         const TilingDef* nested) {
  Field f{};
  f.info.name = name;
  f.info.dtype = type;
  f.info.offset = dataSize_;
  f.info.count = count;
  f.nested = nested != nullptr;
  const char* self = reinterpret_cast<const char*>(this);
  if (f.nested) {
    f.info.size = nested->GetDataSize();
    f.where = reinterpret_cast<const char*>(nested) - self;
  } else {
    f.info.size = elemSize * count;
    f.where = reinterpret_cast<const char*>(storage) - self;
    if (elemSize > 1 && dataSize_ % elemSize != 0) {
      aclAppLog(ACL_WARNING, __func__, __FILE__, __LINE__,
                "tiling field %s (%s) starts at byte %zu, not a multiple of its size %zu: the kernel reads it "
                "unaligned (order the fields from the widest down)",
                name, type, dataSize_, elemSize);
    }
  }
  dataSize_ += f.info.size;
  fields_.push_back(f);
}

void TilingDef::SaveToBuffer(void* pdata, size_t capacity) const {
  if (pdata == nullptr || capacity < dataSize_) {
    aclAppLog(ACL_ERROR, __func__, __FILE__, __LINE__,
              "SaveToBuffer of %s: the buffer holds %zu bytes, the tiling data %zu", className_, capacity,
              dataSize_);
    return;
  }
  auto* out = static_cast<char*>(pdata);
  const char* self = reinterpret_cast<const char*>(this);
  for (const Field& f : fields_) {
    if (f.nested) {
      reinterpret_cast<const TilingDef*>(self + f.where)->SaveToBuffer(out + f.info.offset, f.info.size);
    } else {
      std::memcpy(out + f.info.offset, self + f.where, f.info.size);
    }
  }
}

std::vector<FieldInfo> TilingDef::GetFieldInfo() const {
  std::vector<FieldInfo> out;
  out.reserve(fields_.size());
  for (const Field& f : fields_) out.push_back(f.info);
  return out;
}

namespace {
struct Registry {
  std::mutex mu;
  std::map<std::string, TilingDataConstructor> classes;
};
Registry& TheRegistry() {
  static Registry* r = new Registry;  // never destroyed: static registrations may outlive main
  return *r;
}
}  // namespace

CTilingDataClassFactory& CTilingDataClassFactory::GetInstance() {
  static CTilingDataClassFactory factory;
  return factory;
}

void CTilingDataClassFactory::RegisterTilingData(const char* opType, TilingDataConstructor constructor) {
  if (opType == nullptr || constructor == nullptr) return;
  Registry& r = TheRegistry();
  std::lock_guard<std::mutex> lock(r.mu);
  r.classes[opType] = constructor;
}

std::shared_ptr<TilingDef> CTilingDataClassFactory::CreateTilingDataInstance(const char* opType) {
  if (opType == nullptr) return nullptr;
  TilingDataConstructor ctor = nullptr;
  {
    Registry& r = TheRegistry();
    std::lock_guard<std::mutex> lock(r.mu);
    auto it = r.classes.find(opType);
    if (it == r.classes.end()) {
      aclAppLog(ACL_ERROR, __func__, __FILE__, __LINE__, "no tiling data class is registered for op %s", opType);
      return nullptr;
    }
    ctor = it->second;
  }
  return ctor();
}

}  // namespace optiling
