// The cube side of Ascend C's basic API on the sim: the cube positions' memories (local_memory.h, through
// TPipe), DataCopy GM -> A1/B1 with ND-to-NZ conversion and LoadData L1 -> L0A/L0B (cube_copy.h; img2col:
// load3d.h), Mmad (mmad.h; 4:2 sparse: mmad_sparse.h) and Fixpipe CO1 -> GM / L1 / UB (fixpipe.h;
// DataCopyCO12DstParams: fixpipe_copy.h). Part of kernel_operator.h.
#pragma once

#include "npurt_kernel/cube_copy.h"
#include "npurt_kernel/fixpipe.h"
#include "npurt_kernel/fixpipe_copy.h"
#include "npurt_kernel/load3d.h"
#include "npurt_kernel/mmad.h"
#include "npurt_kernel/mmad_sparse.h"
