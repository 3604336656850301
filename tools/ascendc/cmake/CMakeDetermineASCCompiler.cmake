# Language ASC for npurt's simulated NPU: the compiler is the package's kernel-language driver (bisheng).
include("${CMAKE_CURRENT_LIST_DIR}/npurt_kernel_language.cmake")
_npurt_kernel_language_determine(ASC bisheng asc)
