// HCCL's communicator management (hccl/hccl_comm.h): thin entry points over src/hccl. Each checks its
// pointers, resolves the communicator, calls the collective layer and reports failures (the message for
// aclGetRecentErrMsg and the log) as HcclResult codes.
#include <cstring>

#include "api/api_common.h"
#include "api/hccl_report.h"
#include "dfx/log.h"
#include "hccl/communicator.h"
#include "hccl/group.h"
#include "hccl/hccl.h"
#include "hccl/rendezvous.h"
#include "hccl/root_info.h"

namespace {

using npurt::Err;
using npurt::Status;
namespace hc = npurt::hccl;

HcclResult Fail(const char* function, const Status& status) {
  return static_cast<HcclResult>(npurt::api::ReportHccl(function, status));
}

#define HCCL_API_CHECK(expr)                             \
  do {                                                   \
    ::npurt::Status hccl_status_ = (expr);               \
    if (!hccl_status_.ok()) return Fail(__func__, hccl_status_); \
  } while (0)

#define HCCL_API_NOT_NULL(ptr)                                                         \
  do {                                                                                 \
    if ((ptr) == nullptr) return Fail(__func__, Err(HCCL_E_PTR, "{} is a null pointer", #ptr)); \
  } while (0)

#define HCCL_API_COMM(var, handle)                            \
  auto var##_or_ = hc::LookupComm(handle);                    \
  if (!var##_or_.ok()) return Fail(__func__, var##_or_.status()); \
  hc::Communicator* var = var##_or_.value()

HcclResult NotSupported(const char* function, const char* why) {
  return Fail(function, Err(HCCL_E_NOT_SUPPORT, "{} is not supported by npurt: {} (docs/hccl.md)", function, why));
}

// The process-wide HcclSetConfig values: deterministic reductions (npurt's always are).
std::atomic<int32_t> g_deterministic{0};

}  // namespace

extern "C" {

HcclResult HcclGetRootInfo(HcclRootInfo* rootInfo) {
  NPURT_HANDLE_SCOPE();
  HCCL_API_NOT_NULL(rootInfo);
  auto device = hc::CurrentDevice();
  if (!device.ok()) return Fail(__func__, device.status());
  auto data = hc::StartRootListener(device.value());
  if (!data.ok()) return Fail(__func__, data.status());
  hc::EncodeRootInfo(data.value(), rootInfo);
  return HCCL_SUCCESS;
}

HcclResult HcclCommInitRootInfoConfig(uint32_t nRanks, const HcclRootInfo* rootInfo, uint32_t rank,
                                      const HcclCommConfig* config, HcclComm* comm) {
  NPURT_HANDLE_SCOPE();
  HCCL_API_NOT_NULL(rootInfo);
  HCCL_API_NOT_NULL(comm);
  *comm = nullptr;
  auto created = hc::CreateFromRootInfo(nRanks, rootInfo, rank, config);
  if (!created.ok()) return Fail(__func__, created.status());
  *comm = created.value();
  return HCCL_SUCCESS;
}

HcclResult HcclCommInitRootInfo(uint32_t nRanks, const HcclRootInfo* rootInfo, uint32_t rank, HcclComm* comm) {
  return HcclCommInitRootInfoConfig(nRanks, rootInfo, rank, nullptr, comm);
}

HcclResult HcclGetRootInfoScalable(HcclRootInfo* /*rootInfo*/) {
  return NotSupported(__func__, "multi-root rendezvous; one root (HcclGetRootInfo) serves any number of ranks here");
}

HcclResult HcclCommInitRootInfoScalable(uint32_t, uint32_t, const HcclRootInfo*, uint32_t, uint32_t, const HcclCommConfig*,
                                        HcclComm*) {
  return NotSupported(__func__, "multi-root rendezvous; one root (HcclGetRootInfo) serves any number of ranks here");
}

HcclResult HcclCommInitClusterInfoConfig(const char* clusterInfo, uint32_t rank, HcclCommConfig* config, HcclComm* comm) {
  NPURT_HANDLE_SCOPE();
  HCCL_API_NOT_NULL(clusterInfo);
  HCCL_API_NOT_NULL(comm);
  *comm = nullptr;
  auto created = hc::CreateFromRankTable(clusterInfo, rank, config);
  if (!created.ok()) return Fail(__func__, created.status());
  *comm = created.value();
  return HCCL_SUCCESS;
}

HcclResult HcclCommInitClusterInfo(const char* clusterInfo, uint32_t rank, HcclComm* comm) {
  return HcclCommInitClusterInfoConfig(clusterInfo, rank, nullptr, comm);
}

HcclResult HcclCommInitAll(uint32_t ndev, int32_t* devices, HcclComm* comms) {
  NPURT_HANDLE_SCOPE();
  HCCL_API_NOT_NULL(devices);
  HCCL_API_NOT_NULL(comms);
  HCCL_API_CHECK(hc::CreateAll(ndev, devices, comms));
  return HCCL_SUCCESS;
}

HcclResult HcclCreateSubCommConfig(HcclComm* comm, uint32_t rankNum, uint32_t* rankIds, uint64_t subCommId,
                                   uint32_t subCommRankId, HcclCommConfig* config, HcclComm* subComm) {
  NPURT_HANDLE_SCOPE();
  HCCL_API_NOT_NULL(comm);
  HCCL_API_NOT_NULL(rankIds);
  HCCL_API_NOT_NULL(subComm);
  HCCL_API_COMM(parent, *comm);
  *subComm = nullptr;
  auto created = hc::CreateSubComm(parent, rankNum, rankIds, subCommId, subCommRankId, config);
  if (!created.ok()) return Fail(__func__, created.status());
  *subComm = created.value();
  return HCCL_SUCCESS;
}

HcclResult HcclCommDestroy(HcclComm comm) {
  NPURT_HANDLE_SCOPE();
  HCCL_API_COMM(c, comm);
  HCCL_API_CHECK(c->Destroy());
  return HCCL_SUCCESS;
}

HcclResult HcclGetRankSize(HcclComm comm, uint32_t* rankSize) {
  NPURT_HANDLE_SCOPE();
  HCCL_API_NOT_NULL(rankSize);
  HCCL_API_COMM(c, comm);
  *rankSize = c->size();
  return HCCL_SUCCESS;
}

HcclResult HcclGetRankId(HcclComm comm, uint32_t* rank) {
  NPURT_HANDLE_SCOPE();
  HCCL_API_NOT_NULL(rank);
  HCCL_API_COMM(c, comm);
  *rank = c->rank();
  return HCCL_SUCCESS;
}

HcclResult HcclGetCommName(HcclComm comm, char* commName) {
  NPURT_HANDLE_SCOPE();
  HCCL_API_NOT_NULL(commName);
  HCCL_API_COMM(c, comm);
  const size_t n = std::min<size_t>(c->name().size(), COMM_NAME_MAX_LENGTH - 1);
  std::memcpy(commName, c->name().data(), n);
  commName[n] = '\0';
  return HCCL_SUCCESS;
}

HcclResult HcclCommGetHandleWithName(const char* commName, HcclComm* comm) {
  NPURT_HANDLE_SCOPE();
  HCCL_API_NOT_NULL(commName);
  HCCL_API_NOT_NULL(comm);
  auto found = hc::FindCommByName(std::string(commName, strnlen(commName, COMM_NAME_MAX_LENGTH)));
  if (!found.ok()) return Fail(__func__, found.status());
  *comm = found.value();
  return HCCL_SUCCESS;
}

HcclResult HcclGetCommAsyncError(HcclComm comm, HcclResult* asyncError) {
  NPURT_HANDLE_SCOPE();
  HCCL_API_NOT_NULL(asyncError);
  HCCL_API_COMM(c, comm);
  *asyncError = static_cast<HcclResult>(c->engine().async_error());
  return HCCL_SUCCESS;
}

const char* HcclGetErrorString(HcclResult code) {
  switch (static_cast<int>(code)) {
    case HCCL_SUCCESS: return "no error";
    case HCCL_E_PARA: return "parameter error";
    case HCCL_E_PTR: return "empty pointer";
    case HCCL_E_MEMORY: return "memory error";
    case HCCL_E_INTERNAL: return "internal error";
    case HCCL_E_NOT_SUPPORT: return "not support feature";
    case HCCL_E_NOT_FOUND: return "not found specific resource";
    case HCCL_E_UNAVAIL: return "resource unavailable";
    case HCCL_E_SYSCALL: return "call system interface error";
    case HCCL_E_TIMEOUT: return "timeout";
    case HCCL_E_OPEN_FILE_FAILURE: return "open file fail";
    case HCCL_E_TCP_CONNECT: return "tcp connect fail";
    case HCCL_E_ROCE_CONNECT: return "roce connect fail";
    case HCCL_E_TCP_TRANSFER: return "tcp transfer fail";
    case HCCL_E_ROCE_TRANSFER: return "roce transfer fail";
    case HCCL_E_RUNTIME: return "call runtime api fail";
    case HCCL_E_DRV: return "call driver api fail";
    case HCCL_E_PROFILING: return "call profiling api fail";
    case HCCL_E_CCE: return "call cce api fail";
    case HCCL_E_NETWORK: return "call network api fail";
    case HCCL_E_AGAIN: return "try again";
    case HCCL_E_REMOTE: return "error cqe";
    case HCCL_E_SUSPENDING: return "communicator is suspending";
    case HCCL_E_OPRETRY_FAIL: return "operation retry failed";
    case HCCL_E_OOM: return "out of memory";
    case HCCL_E_IN_STATUS: return "error information is in the status";
    default: return "unknow error";  // sic: HCCL's own string
  }
}

uint32_t HcclGetCommConfigCapability(void) { return HCCL_COMM_CONFIG_RESERVED; }

HcclResult HcclConfigGetInfo(HcclComm comm, HcclConfigType cfgType, uint32_t infoLen, void* info) {
  NPURT_HANDLE_SCOPE();
  HCCL_API_NOT_NULL(info);
  HCCL_API_COMM(c, comm);
  (void)c;
  if (cfgType != HCCL_CONFIG_TYPE_OP_EXPANSION_MODE) {
    return Fail(__func__, Err(HCCL_E_NOT_SUPPORT, "config type {} is not HCCL_CONFIG_TYPE_OP_EXPANSION_MODE", static_cast<int>(cfgType)));
  }
  if (infoLen < sizeof(int32_t)) return Fail(__func__, Err(HCCL_E_PARA, "infoLen {} is below 4 bytes", infoLen));
  // The simulated device expands collectives on the host (its communication engine).
  const int32_t mode = HCCL_OP_EXPANSION_MODE_HOST;
  std::memcpy(info, &mode, sizeof(mode));
  return HCCL_SUCCESS;
}

HcclResult HcclSetConfig(HcclConfig config, HcclConfigValue configValue) {
  NPURT_HANDLE_SCOPE();
  if (config != HCCL_DETERMINISTIC) return Fail(__func__, Err(HCCL_E_NOT_SUPPORT, "HcclConfig {} is not HCCL_DETERMINISTIC", static_cast<int>(config)));
  if (configValue.value < 0 || configValue.value > 2) {
    return Fail(__func__, Err(HCCL_E_PARA, "HCCL_DETERMINISTIC takes 0, 1 or 2, not {}", configValue.value));
  }
  g_deterministic.store(configValue.value);
  return HCCL_SUCCESS;
}

HcclResult HcclGetConfig(HcclConfig config, HcclConfigValue* configValue) {
  NPURT_HANDLE_SCOPE();
  HCCL_API_NOT_NULL(configValue);
  if (config != HCCL_DETERMINISTIC) return Fail(__func__, Err(HCCL_E_NOT_SUPPORT, "HcclConfig {} is not HCCL_DETERMINISTIC", static_cast<int>(config)));
  configValue->value = g_deterministic.load();
  return HCCL_SUCCESS;
}

HcclResult HcclSetCommConfig(HcclComm comm, HcclConfig config, HcclConfigValue configValue) {
  NPURT_HANDLE_SCOPE();
  HCCL_API_COMM(c, comm);
  (void)c;
  return HcclSetConfig(config, configValue);
}

HcclResult HcclGetCommConfig(HcclComm comm, HcclConfig config, HcclConfigValue* configValue) {
  NPURT_HANDLE_SCOPE();
  HCCL_API_COMM(c, comm);
  (void)c;
  return HcclGetConfig(config, configValue);
}

HcclResult HcclCommSuspend(HcclComm comm) {
  NPURT_HANDLE_SCOPE();
  HCCL_API_COMM(c, comm);
  (void)c;
  return NotSupported(__func__, "fault-recovery suspension; a failed communicator is destroyed and created again");
}

HcclResult HcclCommResume(HcclComm comm) {
  NPURT_HANDLE_SCOPE();
  HCCL_API_COMM(c, comm);
  (void)c;
  return NotSupported(__func__, "fault-recovery suspension; a failed communicator is destroyed and created again");
}

HcclResult HcclCommGetStatus(const char* commId, HcclCommStatus* status) {
  NPURT_HANDLE_SCOPE();
  HCCL_API_NOT_NULL(commId);
  HCCL_API_NOT_NULL(status);
  auto found = hc::FindCommByName(std::string(commId, strnlen(commId, COMM_NAME_MAX_LENGTH)));
  if (!found.ok()) return Fail(__func__, found.status());
  *status = found.value()->engine().async_error() == 0 ? HCCL_COMM_STATUS_READY : HCCL_COMM_STATUS_INVALID;
  return HCCL_SUCCESS;
}

HcclResult HcclCommRegCommStateCallback(const char*, HcclCommStateCallback, void*) {
  return NotSupported(__func__, "communicator state callbacks (fault recovery)");
}

HcclResult HcclCommWorkingDevNicSet(HcclComm, uint32_t*, bool*, uint32_t) {
  return NotSupported(__func__, "NIC fail-over: simulated devices have no NICs");
}

HcclResult HcclCommSetMemoryRange(HcclComm, void*, size_t, size_t, uint64_t) {
  return NotSupported(__func__, "zero-copy communication memory ranges; collectives read any device buffer directly");
}

HcclResult HcclCommUnsetMemoryRange(HcclComm, void*) {
  return NotSupported(__func__, "zero-copy communication memory ranges; collectives read any device buffer directly");
}

HcclResult HcclCommActivateCommMemory(HcclComm, void*, size_t, size_t, aclrtDrvMemHandle, uint64_t) {
  return NotSupported(__func__, "zero-copy communication memory ranges; collectives read any device buffer directly");
}

HcclResult HcclCommDeactivateCommMemory(HcclComm, void*) {
  return NotSupported(__func__, "zero-copy communication memory ranges; collectives read any device buffer directly");
}

HcclResult HcclCommSymWinRegister(HcclComm, void*, uint64_t, HcclCommSymWindow*, uint32_t) {
  return NotSupported(__func__, "symmetric memory windows");
}

HcclResult HcclCommSymWinDeregister(HcclCommSymWindow) { return NotSupported(__func__, "symmetric memory windows"); }

HcclResult HcclCommSymWinGet(HcclComm, void*, size_t, HcclCommSymWindow*, size_t*) {
  return NotSupported(__func__, "symmetric memory windows");
}

HcclResult HcclCommRegister(HcclComm, void*, uint64_t, void**, uint32_t) {
  return NotSupported(__func__, "memory registration (one-sided windows)");
}

HcclResult HcclCommDeregister(HcclComm, void*) { return NotSupported(__func__, "memory registration (one-sided windows)"); }

HcclResult HcclCommExchangeMem(HcclComm, void*, uint32_t*, uint32_t) {
  return NotSupported(__func__, "memory registration (one-sided windows)");
}

HcclResult HcclGroupStart(void) {
  HCCL_API_CHECK(hc::GroupStart());
  return HCCL_SUCCESS;
}

HcclResult HcclGroupEnd(void) {
  NPURT_HANDLE_SCOPE();
  HCCL_API_CHECK(hc::GroupEnd());
  return HCCL_SUCCESS;
}

HcclResult HcclGroupStatusGet(bool* isGroupEnabled) {
  HCCL_API_NOT_NULL(isGroupEnabled);
  *isGroupEnabled = hc::InGroup();
  return HCCL_SUCCESS;
}

}  // extern "C"
