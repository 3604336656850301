// HCCL communicator management: creating and destroying communicators, queries, process-wide and
// per-communicator settings, fault recovery hooks, memory registration and group calls.
//
// Signatures follow hcomm include/hccl/hccl_comm.h; the few calls that only the older single-file
// hccl.h had (HcclSetCommConfig, HcclCommRegister, ...) are declared here as well, so every name of
// either layout is reachable through hccl/hccl.h.
//
// A communicator is bound to the device that is current on the calling thread when it is created.
// Functions that take an aclrtStream only enqueue work on it and return before that work runs; wait
// with aclrtSynchronizeStream or an event.
// The /* ==== [group] ... ==== */ markers sort the functions into topics as in the ACL headers.
#ifndef NPURT_HCCL_HCCL_COMM_H
#define NPURT_HCCL_HCCL_COMM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "hccl_types.h"
#include "acl/acl_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------------------- */
/* Enumerations                                                                                   */
/* ---------------------------------------------------------------------------------------------- */

// Where the library expands an operation into device tasks (HcclCommConfig.hcclOpExpansionMode,
// HcclConfigGetInfo). A hardware detail; the simulator accepts every value. Note that the last
// value has no _MODE_ infix in HCCL.
typedef enum {
    HCCL_OP_EXPANSION_MODE_INVALID = -1,
    HCCL_OP_EXPANSION_MODE_AI_CPU = 0,
    HCCL_OP_EXPANSION_MODE_AIV = 1,
    HCCL_OP_EXPANSION_MODE_HOST = 2,
    HCCL_OP_EXPANSION_MODE_HOST_TS = 3,
    HCCL_OP_EXPANSION_MODE_CCU_MS = 4,
    HCCL_OP_EXPANSION_MODE_CCU_SCHED = 5,
    HCCL_OP_EXPANSION_AIV_ONLY = 6
} HcclOpExpansionMode;

// What HcclConfigGetInfo reports.
typedef enum {
    HCCL_CONFIG_TYPE_INVALID = -1,
    HCCL_CONFIG_TYPE_OP_EXPANSION_MODE = 0   // info receives one HcclConfigTypeOpExpansionMode
} HcclConfigType;

typedef HcclOpExpansionMode HcclConfigTypeOpExpansionMode;

// Called around destroy and resume of every communicator (see HcclCommStatePhase). A result other
// than HCCL_SUCCESS is reported as a failure of the surrounding call.
typedef HcclResult (*HcclCommStateCallback)(HcclComm comm, HcclCommStatePhase state, void* args);

/* ---------------------------------------------------------------------------------------------- */
/* Configuration defaults (header only)                                                           */
/* ---------------------------------------------------------------------------------------------- */

// Layout of HcclCommConfig.reserved as written by HcclCommConfigInit.
typedef struct HcclCommConfigHeaderDef {
    size_t size;          // sizeof(HcclCommConfig) as the caller compiled it
    uint32_t magicWord;   // HCCL_COMM_CONFIG_MAGIC_WORD
    uint32_t version;     // HCCL_COMM_CONFIG_VERSION
    uint64_t reserved;    // 0
} HcclCommConfigHeader;

// Compile-time check that the header fits into HcclCommConfig.reserved.
typedef char HcclCommConfigHeaderFits_[(sizeof(HcclCommConfigHeader) <= HCCL_COMM_CONFIG_INFO_BYTES) ? 1 : -1];

// Fills *config with the header and the defaults: every "not set" field (buffer size, determinism,
// RDMA class and level, exec timeout, QoS) becomes all ones so that the environment or the built-in
// default applies, strings become empty, the symmetric window reserve becomes 16 GB and everything
// else 0. NULL is ignored. This is inline so that the size recorded in the header is the size of the
// caller's structure; the library reads only the fields that structure has.
static inline void HcclCommConfigInit(HcclCommConfig* config)
{
    HcclCommConfigHeader header;
    if (config == NULL) {
        return;
    }
    memset(config, 0, sizeof(*config));
    header.size = sizeof(HcclCommConfig);
    header.magicWord = HCCL_COMM_CONFIG_MAGIC_WORD;
    header.version = HCCL_COMM_CONFIG_VERSION;
    header.reserved = 0;
    memcpy(config->reserved, &header, sizeof(header));

    config->hcclBufferSize = HCCL_COMM_BUFFSIZE_CONFIG_NOT_SET;
    config->hcclDeterministic = HCCL_COMM_DETERMINISTIC_CONFIG_NOT_SET;
    config->hcclOpExpansionMode = HCCL_COMM_DEFAULT_OP_EXPANSION_MODE;
    config->hcclRdmaTrafficClass = HCCL_COMM_TRAFFIC_CLASS_CONFIG_NOT_SET;
    config->hcclRdmaServiceLevel = HCCL_COMM_SERVICE_LEVEL_CONFIG_NOT_SET;
    config->hcclWorldRankID = 0;
    config->hcclJobID = 0;
    config->aclGraphZeroCopyEnable = 0;
    config->hcclExecTimeOut = HCCL_COMM_EXECTIMEOUT_CONFIG_NOT_SET;
    config->hcclQos = HCCL_COMM_QOS_CONFIG_NOT_SET;
    config->hcclSymWinMaxMemSizePerRank = HCCL_DEFAULT_SYMMETRIC_MEMORY_STRIDE;
}

/* ==== [hccl-init] Creating and destroying communicators ==== */

// Root rank only, with its device set: starts listening for the other ranks (address from
// HCCL_IF_IP / HCCL_SOCKET_IFNAME, ports from HCCL_IF_BASE_PORT) and writes the token they need into
// *rootInfo. Returns at once; may be called again after switching devices to make more tokens.
HCCL_API HcclResult HcclGetRootInfo(HcclRootInfo* rootInfo);

// Every rank, once: joins the communicator of nRanks ranks described by the root's token and
// becomes rank `rank` (0 <= rank < nRanks, independent of the device id). Blocks until all ranks
// have joined or HCCL_CONNECT_TIMEOUT expires. All ranks must pass the same nRanks and token.
HCCL_API HcclResult HcclCommInitRootInfo(uint32_t nRanks, const HcclRootInfo* rootInfo, uint32_t rank,
                                         HcclComm* comm);

// HcclCommInitRootInfo with options; config must come from HcclCommConfigInit and be identical on
// all ranks. The structure is only read during the call.
HCCL_API HcclResult HcclCommInitRootInfoConfig(uint32_t nRanks, const HcclRootInfo* rootInfo, uint32_t rank,
                                               const HcclCommConfig* config, HcclComm* comm);

// Multi-root variant of HcclGetRootInfo: each of several roots makes its own token.
HCCL_API HcclResult HcclGetRootInfoScalable(HcclRootInfo* rootInfo);

// Multi-root variant of HcclCommInitRootInfoConfig: the ranks are split into nRoot groups
// (0 < nRoot <= nRanks), each led by one root; rootInfoList holds the nRoot tokens in the same order
// on every rank. nExtRoot is reserved and must be 0.
HCCL_API HcclResult HcclCommInitRootInfoScalable(uint32_t nRanks, uint32_t nRoot, const HcclRootInfo* rootInfoList,
                                                 uint32_t rank, uint32_t nExtRoot, const HcclCommConfig* config,
                                                 HcclComm* comm);

// Joins the communicator described by a rank-table JSON file (path at most 4095 characters).
// `rank` must be this process's rank_id in that file.
HCCL_API HcclResult HcclCommInitClusterInfo(const char* clusterInfo, uint32_t rank, HcclComm* comm);

// HcclCommInitClusterInfo with options (see HcclCommInitRootInfoConfig). A name already used by
// another communicator gives HCCL_E_PARA.
HCCL_API HcclResult HcclCommInitClusterInfoConfig(const char* clusterInfo, uint32_t rank, HcclCommConfig* config,
                                                  HcclComm* comm);

// One process, one machine: creates ndev communicators at once, comms[i] for device devices[i]
// with rank i. comms must have room for ndev handles. If any device fails, none is left created.
HCCL_API HcclResult HcclCommInitAll(uint32_t ndev, int32_t* devices, HcclComm* comms);

// Splits a sub-communicator off *comm without a new rendezvous: rankIds lists the rankNum members
// as ranks of *comm, subCommId names the split (the same on all members) and subCommRankId is the
// caller's rank inside it. Note that comm is passed by address.
HCCL_API HcclResult HcclCreateSubCommConfig(HcclComm* comm, uint32_t rankNum, uint32_t* rankIds, uint64_t subCommId,
                                            uint32_t subCommRankId, HcclCommConfig* config, HcclComm* subComm);

// Frees the communicator. Returns HCCL_E_AGAIN while an operation or init is still using it; pending
// work on a stuck communicator fails. The handle must not be used afterwards.
HCCL_API HcclResult HcclCommDestroy(HcclComm comm);

/* ==== [hccl-query] Communicator queries ==== */

// Number of ranks in the communicator.
HCCL_API HcclResult HcclGetRankSize(HcclComm comm, uint32_t* rankSize);

// The caller's rank in the communicator.
HCCL_API HcclResult HcclGetRankId(HcclComm comm, uint32_t* rank);

// Copies the communicator's name, NUL included, into commName, which must hold
// COMM_NAME_MAX_LENGTH bytes.
HCCL_API HcclResult HcclGetCommName(HcclComm comm, char* commName);

// Finds a live communicator of this process by name.
HCCL_API HcclResult HcclCommGetHandleWithName(const char* commName, HcclComm* comm);

// Asynchronous error recorded for the communicator, HCCL_SUCCESS when there is none. This is a
// query: it does not wait for outstanding work.
HCCL_API HcclResult HcclGetCommAsyncError(HcclComm comm, HcclResult* asyncError);

// Short English message for a result code; the string is static and must not be freed.
HCCL_API const char* HcclGetErrorString(HcclResult code);

// Number of HcclCommConfigCapability items this library understands (see that enum).
HCCL_API uint32_t HcclGetCommConfigCapability(void);

// Copies one item of the communicator's effective configuration into info (infoLen bytes).
HCCL_API HcclResult HcclConfigGetInfo(HcclComm comm, HcclConfigType cfgType, uint32_t infoLen, void* info);

/* ==== [hccl-sync] Barrier ==== */

// Enqueues a barrier: work queued on `stream` after it starts only when every rank has reached it.
// Blocks the stream, not the calling thread.
HCCL_API HcclResult HcclBarrier(HcclComm comm, aclrtStream stream);

/* ==== [hccl-config] Process-wide and per-communicator settings ==== */

// Sets a process-wide option: HCCL_DETERMINISTIC takes 0, 1 or 2 like the variable of that name.
HCCL_API HcclResult HcclSetConfig(HcclConfig config, HcclConfigValue configValue);

// Reads a process-wide option.
HCCL_API HcclResult HcclGetConfig(HcclConfig config, HcclConfigValue* configValue);

// Older per-communicator form of HcclSetConfig (only in the single-file hccl.h).
HCCL_API HcclResult HcclSetCommConfig(HcclComm comm, HcclConfig config, HcclConfigValue configValue);

// Older per-communicator form of HcclGetConfig.
HCCL_API HcclResult HcclGetCommConfig(HcclComm comm, HcclConfig config, HcclConfigValue* configValue);

/* ==== [hccl-fault] Fault recovery ==== */

// Suspends the communicator after a fault; it reports HCCL_COMM_STATUS_SUSPENDING until resumed.
HCCL_API HcclResult HcclCommSuspend(HcclComm comm);

// Clears the communicator's state after a fault so that it can be used again.
HCCL_API HcclResult HcclCommResume(HcclComm comm);

// Status of the communicator whose name is commId.
HCCL_API HcclResult HcclCommGetStatus(const char* commId, HcclCommStatus* status);

// Registers, for the whole process, a callback run at each HcclCommStatePhase of every
// communicator. regName names the registering service (e.g. "HCCL"); args is passed back unchanged
// and must stay valid while the callback is registered.
HCCL_API HcclResult HcclCommRegCommStateCallback(const char* regName, HcclCommStateCallback cb, void* args);

// Switches the listed ranks between their primary and backup network ports: useBackup[i] applies to
// ranks[i], both arrays have nRanks entries.
HCCL_API HcclResult HcclCommWorkingDevNicSet(HcclComm comm, uint32_t* ranks, bool* useBackup, uint32_t nRanks);

/* ==== [hccl-memory] Communication memory ==== */

// Reserves a virtual address range [baseVirPtr, baseVirPtr + size) bytes for communication memory.
// alignment and flags must be 0.
HCCL_API HcclResult HcclCommSetMemoryRange(HcclComm comm, void* baseVirPtr, size_t size, size_t alignment,
                                           uint64_t flags);

// Releases a range set with HcclCommSetMemoryRange.
HCCL_API HcclResult HcclCommUnsetMemoryRange(HcclComm comm, void* baseVirPtr);

// Backs size bytes at virPtr, inside a range set above, with the physical allocation `handle`
// (from aclrtMallocPhysical). offset and flags must be 0. The handle is borrowed, not freed.
HCCL_API HcclResult HcclCommActivateCommMemory(HcclComm comm, void* virPtr, size_t size, size_t offset,
                                               aclrtDrvMemHandle handle, uint64_t flags);

// Undoes HcclCommActivateCommMemory for virPtr.
HCCL_API HcclResult HcclCommDeactivateCommMemory(HcclComm comm, void* virPtr);

// Registers `size` bytes of user memory at addr as a symmetric window of the communicator and
// returns its handle. flag must be 1. The memory stays owned by the caller.
HCCL_API HcclResult HcclCommSymWinRegister(HcclComm comm, void* addr, uint64_t size, HcclCommSymWindow* winHandle,
                                           uint32_t flag);

// Removes a window registered with HcclCommSymWinRegister.
HCCL_API HcclResult HcclCommSymWinDeregister(HcclCommSymWindow winHandle);

// Finds the registered window that holds [ptr, ptr + size) bytes and the offset of ptr inside the
// symmetric heap.
HCCL_API HcclResult HcclCommSymWinGet(HcclComm comm, void* ptr, size_t size, HcclCommSymWindow* winHandle,
                                      size_t* offset);

// Older registration call (single-file hccl.h): registers size bytes at addr and returns a handle.
// flag is reserved (0). The memory stays owned by the caller.
HCCL_API HcclResult HcclCommRegister(HcclComm comm, void* addr, uint64_t size, void** handle, uint32_t flag);

// Removes a registration made with HcclCommRegister.
HCCL_API HcclResult HcclCommDeregister(HcclComm comm, void* handle);

// Shares the memory registered as windowHandle with the peerRankNum ranks listed in peerRanks.
HCCL_API HcclResult HcclCommExchangeMem(HcclComm comm, void* windowHandle, uint32_t* peerRanks,
                                        uint32_t peerRankNum);

/* ==== [hccl-group] Group calls ==== */

// Opens a group on the calling thread: the communicator inits/destroys, or the Send/Recv calls and
// collectives, issued until HcclGroupEnd are collected and then carried out together, so that paired
// sends and receives cannot deadlock. Kinds must not be mixed in one group. Experimental in HCCL.
HCCL_API HcclResult HcclGroupStart(void);

// Closes the group and launches (or performs) everything collected since HcclGroupStart.
HCCL_API HcclResult HcclGroupEnd(void);

// Sets *isGroupEnabled to true while the calling thread is inside a group.
HCCL_API HcclResult HcclGroupStatusGet(bool* isGroupEnabled);

#ifdef __cplusplus
}
#endif

#endif  // NPURT_HCCL_HCCL_COMM_H
