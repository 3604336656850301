// register/tilingdata_base.h for npurt: host-side tiling structures (CANN's TilingDef and the
// BEGIN_TILING_DATA_DEF macros; libregister.so).
//
//   namespace optiling {
//   BEGIN_TILING_DATA_DEF(AddCustomTilingData)
//     TILING_DATA_FIELD_DEF(uint32_t, totalLength);
//     TILING_DATA_FIELD_DEF_ARR(uint16_t, 4, shape);
//     TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cubeTiling);
//   END_TILING_DATA_DEF;
//   REGISTER_TILING_DATA_CLASS(AddCustom, AddCustomTilingData)
//   }
//
// Each field gets set_<name>/get_<name> (a struct field is a public member of its own tiling class).
// SaveToBuffer writes the fields in declaration order with no padding, the layout of the kernel-side
// struct CANN generates from the same definition (#pragma pack(1)), so a kernel reading the buffer as
// that struct sees what the host set. GetDataSize is that layout's size. Like CANN, a field should start
// at a multiple of its element size (order fields from the widest down); one that does not is reported
// in the log, and still packed.
//
// Objects may be copied and assigned: field positions are kept relative to the object.
#ifndef NPURT_REGISTER_TILINGDATA_BASE_H_
#define NPURT_REGISTER_TILINGDATA_BASE_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>
// CANN's copy brings in securec.h (memcpy_s ...): host tiling code calls it after including only the
// tiling headers.
#include "securec.h"

namespace optiling {

// One field of a tiling structure, as GetFieldInfo lists them.
struct FieldInfo {
  const char* name;      // the field's name
  const char* dtype;     // its type as written in the definition
  size_t offset;         // bytes from the start of the saved data
  size_t size;           // bytes it takes (an array: all elements; a struct: its data size)
  size_t count;          // elements (1 unless an array)
};

class TilingDef {
 public:
  virtual ~TilingDef() = default;
  // Writes the fields to `pdata` (GetDataSize() bytes). Nothing is written, and an error is logged,
  // when `capacity` is smaller.
  void SaveToBuffer(void* pdata, size_t capacity) const;
  size_t GetDataSize() const { return dataSize_; }
  const char* GetTilingClassName() const { return className_; }
  std::vector<FieldInfo> GetFieldInfo() const;

 protected:
  // Registers one field when the object is built: declared right after the field, so fields register in
  // declaration order. Copying a registrar does nothing: the copied object's field list comes with it.
  class FieldRegistrar {
   public:
    FieldRegistrar(TilingDef* owner, const char* name, const char* type, size_t elemSize, size_t count,
                   const void* storage, const TilingDef* nested) {
      owner->AddField(name, type, elemSize, count, storage, nested);
    }
    FieldRegistrar(const FieldRegistrar&) {}
    FieldRegistrar& operator=(const FieldRegistrar&) { return *this; }
  };

  void AddField(const char* name, const char* type, size_t elemSize, size_t count, const void* storage,
                const TilingDef* nested);
  const char* className_ = "";

 private:
  struct Field {
    FieldInfo info;
    std::ptrdiff_t where;  // the value (or the nested structure) relative to this object
    bool nested;
  };
  std::vector<Field> fields_;
  size_t dataSize_ = 0;
};

using TilingDataConstructor = std::shared_ptr<TilingDef> (*)();

// The tiling classes registered by REGISTER_TILING_DATA_CLASS, by operator type (process-wide).
class CTilingDataClassFactory {
 public:
  static CTilingDataClassFactory& GetInstance();
  void RegisterTilingData(const char* opType, TilingDataConstructor constructor);
  void RegisterTilingData(const std::string& opType, TilingDataConstructor constructor) {
    RegisterTilingData(opType.c_str(), constructor);
  }
  // A new object of the class registered for `opType`; null if none is.
  std::shared_ptr<TilingDef> CreateTilingDataInstance(const char* opType);
  std::shared_ptr<TilingDef> CreateTilingDataInstance(const std::string& opType) {
    return CreateTilingDataInstance(opType.c_str());
  }

 private:
  CTilingDataClassFactory() = default;
};

}  // namespace optiling

#define BEGIN_TILING_DATA_DEF(class_name)            \
  class class_name : public ::optiling::TilingDef {  \
   public:                                           \
    class_name() { className_ = #class_name; }

#define TILING_DATA_FIELD_DEF(data_type, field_name)                                                    \
 public:                                                                                               \
  void set_##field_name(data_type field_name##Value) { field_name##_ = field_name##Value; }             \
  data_type get_##field_name() const { return field_name##_; }                                          \
                                                                                                       \
 private:                                                                                              \
  data_type field_name##_ = 0;                                                                         \
  ::optiling::TilingDef::FieldRegistrar field_name##Field_{this, #field_name, #data_type, sizeof(data_type), 1, \
                                                           &field_name##_, nullptr};

#define TILING_DATA_FIELD_DEF_ARR(arr_type, arr_size, field_name)                                          \
 public:                                                                                                   \
  void set_##field_name(const arr_type* field_name##Value) {                                               \
    std::memcpy(field_name##_, field_name##Value, sizeof(field_name##_));                                  \
  }                                                                                                        \
  arr_type* get_##field_name() { return field_name##_; }                                                   \
                                                                                                           \
 private:                                                                                                  \
  arr_type field_name##_[arr_size] = {};                                                                   \
  ::optiling::TilingDef::FieldRegistrar field_name##Field_{this, #field_name, #arr_type, sizeof(arr_type), \
                                                           (arr_size), field_name##_, nullptr};

#define TILING_DATA_FIELD_DEF_STRUCT(struct_type, field_name)                                          \
 public:                                                                                              \
  struct_type field_name;                                                                             \
                                                                                                      \
 private:                                                                                             \
  ::optiling::TilingDef::FieldRegistrar field_name##Field_{this, #field_name, #struct_type, 0, 1, nullptr, \
                                                           &field_name};

#define END_TILING_DATA_DEF }

#define REGISTER_TILING_DATA_CLASS(op_type, class_name)                                                   \
  class op_type##class_name##Helper {                                                                     \
   public:                                                                                                \
    op_type##class_name##Helper() {                                                                       \
      ::optiling::CTilingDataClassFactory::GetInstance().RegisterTilingData(#op_type, Create);            \
    }                                                                                                     \
    static std::shared_ptr<::optiling::TilingDef> Create() { return std::make_shared<class_name>(); }     \
  };                                                                                                      \
  static op_type##class_name##Helper g_##op_type##class_name##Helper;

#endif  // NPURT_REGISTER_TILINGDATA_BASE_H_
