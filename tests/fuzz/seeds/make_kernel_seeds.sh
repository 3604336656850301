#!/usr/bin/env bash
# Regenerates the kernel-binary fuzz inputs from kernel_seed.c (needs cc and python3; outputs committed):
#   tests/fuzz/seeds/kernel_template.so        the valid minimal kernel binary fuzz_kernel_binary edits
#   tests/fuzz/corpus/fuzz_kernel_binary/*      its seed inputs, in the target's input format (see
#                                               fuzz_kernel_binary.cc): the template as is through each
#                                               load call, near-valid headers, truncations, and table
#                                               patches (bad magic, another ABI, too many kernels, an
#                                               unterminated name, a parameter past its block, a wild pointer)
# Usage: tests/fuzz/seeds/make_kernel_seeds.sh
set -euo pipefail
here="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd -- "$here/../../.." && pwd)"
out="$root/tests/fuzz/corpus/fuzz_kernel_binary"
mkdir -p "$out"
rm -f "$out"/*
cc -std=c99 -Os -fPIC -shared -nostdlib -fno-asynchronous-unwind-tables -I"$root/include" \
   -Wl,--hash-style=gnu -Wl,-z,noseparate-code -Wl,-z,norelro -Wl,--build-id=none -s \
   -o "$here/kernel_template.so" "$here/kernel_seed.c"
python3 "$here/make_kernel_seeds.py" "$here/kernel_template.so" "$out"
ls -l "$here/kernel_template.so" "$out"
