// acl.mdl: gears (dynamic batch, image size and dims), AIPP, model dump, bundles and the failed operator's
// descriptors.
#include <algorithm>
#include <cstring>
#include <mutex>
#include <optional>

#include "acl/acl_dump.h"
#include "mdl_internal.h"

namespace pyacl {
namespace {

// CANN's bound on the arrays it allocates for an answer sized by the caller.
constexpr size_t kMaxCallerCount = 4096;

// {"name", "dimCount", "dims"} (a dict as the getters return) into an aclmdlIODims; every field is checked,
// since the C struct has fixed capacities.
aclmdlIODims IODimsFromDict(const py::dict& dict) {
  aclmdlIODims dims{};
  if (!dict.contains("dims")) {
    throw py::value_error("the dims dict needs a \"dims\" list");
  }
  std::vector<int64_t> values = py::cast<std::vector<int64_t>>(dict["dims"]);
  size_t count = dict.contains("dimCount") ? py::cast<size_t>(dict["dimCount"]) : values.size();
  if (count > values.size() || count > ACL_MAX_DIM_CNT) {
    throw py::value_error("dimCount " + std::to_string(count) + " exceeds the dims given (" +
                          std::to_string(values.size()) + ") or ACL_MAX_DIM_CNT (" + std::to_string(ACL_MAX_DIM_CNT) +
                          ")");
  }
  dims.dimCount = count;
  std::copy_n(values.begin(), count, dims.dims);
  if (dict.contains("name")) {
    std::string name = py::cast<std::string>(dict["name"]);
    std::strncpy(dims.name, name.c_str(), sizeof dims.name - 1);
  }
  return dims;
}

void DefineGears(py::module_& m) {
  m.def("set_dynamic_batch_size", [](uint32_t id, Addr ds, Index i, uint64_t batch) {
    return static_cast<int>(aclmdlSetDynamicBatchSize(id, As<aclmdlDataset>(ds), AsIndex(i), batch));
  });
  m.def("set_dynamic_hw_size", [](uint32_t id, Addr ds, Index i, uint64_t h, uint64_t w) {
    return static_cast<int>(aclmdlSetDynamicHWSize(id, As<aclmdlDataset>(ds), AsIndex(i), h, w));
  });
  m.def("set_input_dynamic_dims", [](uint32_t id, Addr ds, Index i, const py::dict& dims_dict) {
    aclmdlIODims dims = IODimsFromDict(dims_dict);
    return static_cast<int>(aclmdlSetInputDynamicDims(id, As<aclmdlDataset>(ds), AsIndex(i), &dims));
  });
  m.def("get_dynamic_batch", [](Addr desc) {
    aclmdlBatch batch{};
    aclError ret = aclmdlGetDynamicBatch(As<const aclmdlDesc>(desc), &batch);
    py::dict dict;
    if (ret == ACL_SUCCESS) {
      const size_t n = std::min<size_t>(batch.batchCount, ACL_MAX_BATCH_NUM);
      dict["batchCount"] = batch.batchCount;
      dict["batch"] = std::vector<uint64_t>(batch.batch, batch.batch + n);
    }
    return WithRet(ret, dict);
  });
  m.def("get_dynamic_hw", [](Addr desc, Index i) {
    aclmdlHW hw{};
    aclError ret = aclmdlGetDynamicHW(As<const aclmdlDesc>(desc), AsIndex(i), &hw);
    py::dict dict;
    if (ret == ACL_SUCCESS) {
      py::list pairs;
      for (size_t g = 0; g < std::min<size_t>(hw.hwCount, ACL_MAX_HW_NUM); ++g) {
        pairs.append(py::cast(std::vector<uint64_t>{hw.hw[g][0], hw.hw[g][1]}));
      }
      dict["hwCount"] = hw.hwCount;
      dict["hw"] = pairs;
    }
    return WithRet(ret, dict);
  });
  m.def("get_input_dynamic_gear_count", [](Addr desc, Index i) {
    size_t count = 0;
    aclError ret = aclmdlGetInputDynamicGearCount(As<const aclmdlDesc>(desc), AsIndex(i), &count);
    return WithRet(ret, count);
  });
  m.def("get_input_dynamic_dims", [](Addr desc, Index i, size_t count) -> py::tuple {
    if (count > kMaxCallerCount) {
      return WithRet(ACL_ERROR_INVALID_PARAM, py::none());
    }
    std::vector<aclmdlIODims> gears(count + 1);
    aclError ret = aclmdlGetInputDynamicDims(As<const aclmdlDesc>(desc), AsIndex(i), gears.data(), count);
    py::list list;
    if (ret == ACL_SUCCESS) {
      for (size_t g = 0; g < count; ++g) {
        list.append(IODimsDict(gears[g]));
      }
    }
    return WithRet(ret, list);
  });
}

py::dict AippDimsDict(const aclAippDims& dims) {
  py::dict dict;
  dict["srcDims"] = IODimsDict(dims.srcDims);
  dict["srcSize"] = dims.srcSize;
  dict["aippOutdims"] = IODimsDict(dims.aippOutdims);
  dict["aippOutSize"] = dims.aippOutSize;
  return dict;
}

// Every field of aclAippInfo under its C name, outDims as a list of shapeCount dicts (CANN's keys).
py::dict AippInfoDict(const aclAippInfo& a) {
  py::dict d;
  d["inputFormat"] = static_cast<int>(a.inputFormat);
  d["srcImageSizeW"] = a.srcImageSizeW;
  d["srcImageSizeH"] = a.srcImageSizeH;
  d["cropSwitch"] = a.cropSwitch;
  d["loadStartPosW"] = a.loadStartPosW;
  d["loadStartPosH"] = a.loadStartPosH;
  d["cropSizeW"] = a.cropSizeW;
  d["cropSizeH"] = a.cropSizeH;
  d["resizeSwitch"] = a.resizeSwitch;
  d["resizeOutputW"] = a.resizeOutputW;
  d["resizeOutputH"] = a.resizeOutputH;
  d["paddingSwitch"] = a.paddingSwitch;
  d["leftPaddingSize"] = a.leftPaddingSize;
  d["rightPaddingSize"] = a.rightPaddingSize;
  d["topPaddingSize"] = a.topPaddingSize;
  d["bottomPaddingSize"] = a.bottomPaddingSize;
  d["cscSwitch"] = a.cscSwitch;
  d["rbuvSwapSwitch"] = a.rbuvSwapSwitch;
  d["axSwapSwitch"] = a.axSwapSwitch;
  d["singleLineMode"] = a.singleLineMode;
  const std::pair<const char*, int32_t> matrix[] = {
      {"matrixR0C0", a.matrixR0C0},   {"matrixR0C1", a.matrixR0C1},   {"matrixR0C2", a.matrixR0C2},
      {"matrixR1C0", a.matrixR1C0},   {"matrixR1C1", a.matrixR1C1},   {"matrixR1C2", a.matrixR1C2},
      {"matrixR2C0", a.matrixR2C0},   {"matrixR2C1", a.matrixR2C1},   {"matrixR2C2", a.matrixR2C2},
      {"outputBias0", a.outputBias0}, {"outputBias1", a.outputBias1}, {"outputBias2", a.outputBias2},
      {"inputBias0", a.inputBias0},   {"inputBias1", a.inputBias1},   {"inputBias2", a.inputBias2},
      {"meanChn0", a.meanChn0},       {"meanChn1", a.meanChn1},       {"meanChn2", a.meanChn2},
      {"meanChn3", a.meanChn3},
  };
  for (const auto& [key, value] : matrix) {
    d[key] = value;
  }
  const std::pair<const char*, float> floats[] = {
      {"minChn0", a.minChn0},         {"minChn1", a.minChn1},         {"minChn2", a.minChn2},
      {"minChn3", a.minChn3},         {"varReciChn0", a.varReciChn0}, {"varReciChn1", a.varReciChn1},
      {"varReciChn2", a.varReciChn2}, {"varReciChn3", a.varReciChn3},
  };
  for (const auto& [key, value] : floats) {
    d[key] = value;
  }
  d["srcFormat"] = static_cast<int>(a.srcFormat);
  d["srcDatatype"] = static_cast<int>(a.srcDatatype);
  d["srcDimNum"] = a.srcDimNum;
  d["shapeCount"] = a.shapeCount;
  py::list out;
  for (size_t i = 0; i < std::min<size_t>(a.shapeCount, ACL_MAX_SHAPE_COUNT); ++i) {
    out.append(AippDimsDict(a.outDims[i]));
  }
  d["outDims"] = out;
  d["aippExtend"] = ToInt(a.aippExtend);
  return d;
}

void DefineAipp(py::module_& m) {
  m.def("create_aipp", [](uint64_t batch) { return ToInt(aclmdlCreateAIPP(batch)); });
  m.def("destroy_aipp", [](Addr aipp) { return static_cast<int>(aclmdlDestroyAIPP(As<const aclmdlAIPP>(aipp))); });
  m.def("get_aipp_data_size", [](uint64_t batch) {
    size_t size = 0;
    aclError ret = aclmdlGetAippDataSize(batch, &size);
    return WithRet(ret, size);
  });
  m.def("set_aipp_input_format", [](Addr aipp, int format) {
    return static_cast<int>(aclmdlSetAIPPInputFormat(As<aclmdlAIPP>(aipp), static_cast<aclAippInputFormat>(format)));
  });
  m.def("set_aipp_csc_params", [](Addr aipp, int8_t sw, int16_t r0c0, int16_t r0c1, int16_t r0c2, int16_t r1c0,
                                  int16_t r1c1, int16_t r1c2, int16_t r2c0, int16_t r2c1, int16_t r2c2, uint8_t ob0,
                                  uint8_t ob1, uint8_t ob2, uint8_t ib0, uint8_t ib1, uint8_t ib2) {
    return static_cast<int>(aclmdlSetAIPPCscParams(As<aclmdlAIPP>(aipp), sw, r0c0, r0c1, r0c2, r1c0, r1c1, r1c2, r2c0,
                                                   r2c1, r2c2, ob0, ob1, ob2, ib0, ib1, ib2));
  });
  m.def("set_aipp_rbuv_swap_switch",
        [](Addr aipp, int8_t sw) { return static_cast<int>(aclmdlSetAIPPRbuvSwapSwitch(As<aclmdlAIPP>(aipp), sw)); });
  m.def("set_aipp_ax_swap_switch",
        [](Addr aipp, int8_t sw) { return static_cast<int>(aclmdlSetAIPPAxSwapSwitch(As<aclmdlAIPP>(aipp), sw)); });
  m.def("set_aipp_src_image_size", [](Addr aipp, int32_t w, int32_t h) {
    return static_cast<int>(aclmdlSetAIPPSrcImageSize(As<aclmdlAIPP>(aipp), w, h));
  });
  m.def("set_aipp_scf_params", [](Addr aipp, int8_t sw, int32_t in_w, int32_t in_h, int32_t out_w, int32_t out_h,
                                  uint64_t batch_index) {
    return static_cast<int>(aclmdlSetAIPPScfParams(As<aclmdlAIPP>(aipp), sw, in_w, in_h, out_w, out_h, batch_index));
  });
  m.def("set_aipp_crop_params",
        [](Addr aipp, int8_t sw, int32_t x, int32_t y, int32_t w, int32_t h, uint64_t batch_index) {
          return static_cast<int>(aclmdlSetAIPPCropParams(As<aclmdlAIPP>(aipp), sw, x, y, w, h, batch_index));
        });
  m.def("set_aipp_padding_params",
        [](Addr aipp, int8_t sw, int32_t top, int32_t bottom, int32_t left, int32_t right, uint64_t batch_index) {
          return static_cast<int>(
              aclmdlSetAIPPPaddingParams(As<aclmdlAIPP>(aipp), sw, top, bottom, left, right, batch_index));
        });
  m.def("set_aipp_dtc_pixel_mean", [](Addr aipp, int16_t c0, int16_t c1, int16_t c2, int16_t c3, uint64_t batch_index) {
    return static_cast<int>(aclmdlSetAIPPDtcPixelMean(As<aclmdlAIPP>(aipp), c0, c1, c2, c3, batch_index));
  });
  m.def("set_aipp_dtc_pixel_min", [](Addr aipp, float c0, float c1, float c2, float c3, uint64_t batch_index) {
    return static_cast<int>(aclmdlSetAIPPDtcPixelMin(As<aclmdlAIPP>(aipp), c0, c1, c2, c3, batch_index));
  });
  m.def("set_aipp_pixel_var_reci", [](Addr aipp, float c0, float c1, float c2, float c3, uint64_t batch_index) {
    return static_cast<int>(aclmdlSetAIPPPixelVarReci(As<aclmdlAIPP>(aipp), c0, c1, c2, c3, batch_index));
  });
  m.def("set_input_aipp", [](uint32_t id, Addr ds, Index i, Addr aipp) {
    return static_cast<int>(aclmdlSetInputAIPP(id, As<aclmdlDataset>(ds), AsIndex(i), As<const aclmdlAIPP>(aipp)));
  });
  m.def("set_aipp_by_input_index", [](uint32_t id, Addr ds, Index i, Addr aipp) {
    return static_cast<int>(
        aclmdlSetAIPPByInputIndex(id, As<aclmdlDataset>(ds), AsIndex(i), As<const aclmdlAIPP>(aipp)));
  });
  m.def("get_aipp_type", [](uint32_t id, Index i) {
    aclmdlInputAippType type = ACL_DATA_WITHOUT_AIPP;
    size_t attached = 0;
    aclError ret = aclmdlGetAippType(id, AsIndex(i), &type, &attached);
    return WithRet(ret, static_cast<int>(type), attached);
  });
  m.def("get_first_aipp_info", [](uint32_t id, Index i) -> py::tuple {
    aclAippInfo info{};
    aclError ret = aclmdlGetFirstAippInfo(id, AsIndex(i), &info);
    if (ret != ACL_SUCCESS) {
      return WithRet(ret, py::none());
    }
    return WithRet(ret, AippInfoDict(info));
  });
}

// The dump callback: one Python callable for the process (the C API registers one function), called on
// the thread that writes dump data with a dict per chunk. data_buf is the chunk's address, valid during
// the call only (read it with acl.util.ptr_to_bytes(data_buf, buf_len)).
std::mutex g_dump_mutex;
py::object* g_dump_callback = nullptr;  // leaked at exit on purpose: no Python object outlives the interpreter

int32_t DumpTrampoline(const acldumpChunk* chunk, int32_t) {
  if (!PythonAlive()) return -1;  // dump data written while the interpreter exits goes nowhere
  py::gil_scoped_acquire gil;
  py::object callback;
  {
    std::lock_guard<std::mutex> lock(g_dump_mutex);
    if (g_dump_callback == nullptr || chunk == nullptr) {
      return -1;
    }
    callback = *g_dump_callback;
  }
  py::dict d;
  d["file_name"] = std::string(chunk->fileName, strnlen(chunk->fileName, sizeof chunk->fileName));
  d["data_buf"] = ToInt(chunk->dataBuf);
  d["buf_len"] = chunk->bufLen;
  d["is_last_chunk"] = chunk->isLastChunk;
  d["offset"] = chunk->offset;
  d["flag"] = chunk->flag;
  try {
    callback(d);
    return 0;
  } catch (py::error_already_set& error) {
    error.discard_as_unraisable("acl.mdl.dump_reg_callback callback");
    return -1;
  }
}

void DefineDump(py::module_& m) {
  m.def("init_dump", [] { return static_cast<int>(aclmdlInitDump()); });
  m.def(
      "set_dump",
      [](std::optional<std::string> path) { return static_cast<int>(aclmdlSetDump(path ? path->c_str() : nullptr)); },
      py::arg("dump_cfg_path") = py::none());
  m.def("finalize_dump", [] { return static_cast<int>(aclmdlFinalizeDump()); });
  m.def("dump_reg_callback", [](py::function callback, int32_t flag) {
    aclError ret = acldumpRegCallback(DumpTrampoline, flag);
    if (ret == ACL_SUCCESS) {
      std::lock_guard<std::mutex> lock(g_dump_mutex);
      delete g_dump_callback;
      g_dump_callback = new py::object(std::move(callback));
    }
    return static_cast<int>(ret);
  });
  m.def("dump_unreg_callback", [] {
    acldumpUnregCallback();
    std::lock_guard<std::mutex> lock(g_dump_mutex);
    delete g_dump_callback;
    g_dump_callback = nullptr;
  });
}

void DefineBundles(py::module_& m) {
  m.def("bundle_load_from_file", [](const std::string& path) {
    uint32_t id = 0;
    aclError ret = aclmdlBundleLoadFromFile(path.c_str(), &id);
    return WithRet(ret, id);
  });
  m.def("bundle_load_from_mem", [](Addr model, size_t size) {
    uint32_t id = 0;
    aclError ret = aclmdlBundleLoadFromMem(As<const void>(model), size, &id);
    return WithRet(ret, id);
  });
  m.def("bundle_unload", [](uint32_t id) { return static_cast<int>(aclmdlBundleUnload(id)); });
  m.def("bundle_get_model_num", [](uint32_t id) {
    size_t n = 0;
    aclError ret = aclmdlBundleGetModelNum(id, &n);
    return WithRet(ret, n);
  });
  m.def("bundle_get_model_id", [](uint32_t id, Index i) {
    uint32_t model = 0;
    aclError ret = aclmdlBundleGetModelId(id, AsIndex(i), &model);
    return WithRet(ret, model);
  });
}

void DefineFaultQueries(py::module_& m) {
  // op_name, input descs, input count, output descs, output count, ret (the arrays are the caller's to
  // destroy with acl.destroy_tensor_desc, as in C).
  m.def("create_and_get_op_desc", [](uint32_t device, uint32_t stream_id, uint32_t task_id, size_t name_len) {
    if (name_len > kMaxCallerCount) {
      return py::make_tuple(std::string(), 0, 0, 0, 0, static_cast<int>(ACL_ERROR_INVALID_PARAM));
    }
    std::vector<char> name(name_len + 1, '\0');
    aclTensorDesc* in = nullptr;
    aclTensorDesc* out = nullptr;
    size_t n_in = 0, n_out = 0;
    aclError ret =
        aclmdlCreateAndGetOpDesc(device, stream_id, task_id, name.data(), name_len, &in, &n_in, &out, &n_out);
    name[name_len] = '\0';
    return WithRet(ret, std::string(name.data()), ToInt(in), n_in, ToInt(out), n_out);
  });
}

}  // namespace

void DefineMdlDynamic(py::module_& mdl) {
  DefineGears(mdl);
  DefineAipp(mdl);
  DefineDump(mdl);
  DefineBundles(mdl);
  DefineFaultQueries(mdl);
}

}  // namespace pyacl
