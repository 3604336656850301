# Language ASC for npurt's simulated NPU: checks that the driver runs (npurt_kernel_language.cmake).
include("${CMAKE_CURRENT_LIST_DIR}/npurt_kernel_language.cmake")
_npurt_kernel_language_test(ASC)
