// CANN's header name for ListTensorDesc / TensorDesc (npurt_kernel/list_tensor.h).
#pragma once

#include "kernel_operator.h"
