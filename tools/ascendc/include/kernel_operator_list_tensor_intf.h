// CANN's header of ListTensorDesc / TensorDesc (npurt_kernel/list_tensor.h), with the rest of kernel_operator.h.
#pragma once

#include "kernel_operator.h"
