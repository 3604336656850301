// Reading a .om container: the header, then the FlatBuffers verifier, then the semantic checks that make
// every index, offset and size safe to use without further checks (om_reader.cc lists them). Nothing of a
// file is trusted before it passed them; each refusal says what was wrong, where.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "base/status.h"
#include "models/om/om_format.h"
#include "models/om/om_model.h"

namespace npurt::om {

struct ModelFile {
  FileHeader header{};
  ModelDef def;
  const uint8_t* weights = nullptr;  // the weight region, inside the buffer given to ReadModel
  uint64_t weights_size = 0;
};

// Parses the whole file image [data, data + size). `source` names it in messages (a path, or "memory").
// check_weights: verify the weight region's CRC too (loading does; describing does not need the weights).
// Errors: ACL_ERROR_GE_EXEC_MODEL_DATA_SIZE_INVALID for what is not a complete npurt model (with what it
// looks like instead: a CANN OM1/OM2 model, an ONNX file), ACL_ERROR_GE_EXEC_LOAD_MODEL_PARTITION_FAILED for
// a corrupt model part, ACL_ERROR_GE_EXEC_LOAD_WEIGHT_PARTITION_FAILED for corrupt weights.
StatusOr<ModelFile> ReadModel(const void* data, size_t size, std::string_view source, bool check_weights = true);

// The header and model of the file at `path`, without reading its weights (aclmdlQuerySize,
// aclmdlGetDescFromFile). A missing or unreadable file is ACL_ERROR_GE_EXEC_MODEL_PATH_INVALID.
StatusOr<ModelFile> ReadModelDescFromFile(const std::string& path);

// The whole file at `path` into `bytes` (aclmdlLoadFromFile reads it once).
Status ReadFileBytes(const std::string& path, std::string* bytes);

}  // namespace npurt::om
