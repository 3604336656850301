# Language ASC for npurt's simulated NPU: compile, link and archive rules (npurt_kernel_language.cmake).
include("${CMAKE_CURRENT_LIST_DIR}/npurt_kernel_language.cmake")
_npurt_kernel_language_information(ASC "-x asc")
