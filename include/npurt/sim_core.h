/* The local memories of one simulated AI core, in bytes: what npurt's tiling SDK (libplatform.so,
 * PlatformAscendC::GetCoreMemSize) reports and what the simulated core gives a kernel. They are the
 * Ascend910B's sizes, so tiling computed for that SoC fits the sim too. The unified buffer is the
 * runtime's (aclrtGetDeviceInfo ACL_DEV_ATTR_UBUF_PER_VECTOR_CORE); the cube buffers (L1, L0A/B/C, the
 * bias table and the fixpipe buffer) are declared here because no ACL attribute reports them: a kernel
 * library modelling the cube unit must size its buffers from these, not restate the numbers.
 *
 * NPURT_SIM_LIB_API_WORKSPACE_BYTES is the system workspace that CANN's kernel libraries (Matmul and
 * the other high-level APIs) reserve at the start of a launch's workspace on this SoC family
 * (PlatformAscendC::GetLibApiWorkSpaceSize); GetUserWorkspace(workspace) skips it. */
#ifndef NPURT_SIM_CORE_H_
#define NPURT_SIM_CORE_H_

#define NPURT_SIM_L1_BYTES (512u * 1024u)
#define NPURT_SIM_L0A_BYTES (64u * 1024u)
#define NPURT_SIM_L0B_BYTES (64u * 1024u)
#define NPURT_SIM_L0C_BYTES (128u * 1024u)
#define NPURT_SIM_BT_BYTES (1024u)
#define NPURT_SIM_FB_BYTES (2048u)
#define NPURT_SIM_UB_BYTES (192u * 1024u)
#define NPURT_SIM_LIB_API_WORKSPACE_BYTES (16u * 1024u * 1024u)

#endif /* NPURT_SIM_CORE_H_ */
