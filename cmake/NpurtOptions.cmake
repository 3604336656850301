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
