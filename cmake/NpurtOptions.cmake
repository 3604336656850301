# Compiler settings shared by every npurt target.
# Our own code builds with warnings as errors; public headers are checked separately (tests/headers).

function(npurt_target_defaults target)
  # No -Wrestrict: GCC 12 reports false positives inside libstdc++'s std::string at -O3
  # (`"x" + std::to_string(n)`; GCC bug 105329), which broke the Release build (preset "release").
  target_compile_options(${target} PRIVATE -Wall -Wextra -Werror -Wno-unused-parameter
                         $<$<COMPILE_LANGUAGE:CXX>:-Wnon-virtual-dtor>
                         $<$<CXX_COMPILER_ID:GNU>:-Wno-restrict>)
  set_target_properties(${target} PROPERTIES CXX_VISIBILITY_PRESET hidden C_VISIBILITY_PRESET hidden
                        VISIBILITY_INLINES_HIDDEN ON)
endfunction()

if(NPURT_SANITIZE STREQUAL "address")
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
  # -fPIC everywhere, executables too: GCC 12's UBSan null check on a thread-local's address reuses the flags
  # of the initial-exec `add x@gottpoff(%rip), %reg` that computes it, and the linker's mandatory IE->LE
  # relaxation rewrites that add into a flag-less `lea x@tpoff(%reg), %reg`, so the check reads stale flags
  # and reports "member access within null pointer" (seen on base/handle_reclaim.h's t_state in the unit
  # tests). Position-independent code reaches an extern thread-local through __tls_get_addr instead, whose
  # result the compiler tests explicitly.
  add_compile_options($<$<CXX_COMPILER_ID:GNU>:-fPIC>)
elseif(NPURT_SANITIZE STREQUAL "fuzzer")
  # libFuzzer build (preset "fuzz", clang only): everything is instrumented for coverage, ASan and UBSan;
  # only the fuzz targets (tests/fuzz) link libFuzzer's main (-fsanitize=fuzzer).
  add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer
                      -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
elseif(NPURT_SANITIZE STREQUAL "thread")
  add_compile_options(-fsanitize=thread -fno-omit-frame-pointer)
  add_link_options(-fsanitize=thread)
elseif(NOT NPURT_SANITIZE STREQUAL "")
  message(FATAL_ERROR "NPURT_SANITIZE must be '', 'address', 'thread' or 'fuzzer'")
endif()
