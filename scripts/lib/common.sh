# shellcheck shell=bash
# Shared helpers for scripts/test, scripts/demo and .ci/run. Source it; do not run it.
# Callers set NPURT_ROOT (the repository root) first and run under `set -euo pipefail`.

NPURT_JOBS="${NPURT_JOBS:-2}"                       # the build machine has 2 cores
NPURT_EXAMPLE_TIMEOUT="${NPURT_EXAMPLE_TIMEOUT:-120}"  # seconds per example run

# Debian packages the build, the tests and the examples need (reference-only tools stay optional); pyACL
# builds with python3-dev and pybind11-dev, and its tests use numpy.
NPURT_DEB_PACKAGES=(cmake ninja-build g++ python3 python3-dev pybind11-dev python3-numpy
                    libgtest-dev libgmock-dev googletest libbenchmark-dev
                    nlohmann-json3-dev libspdlog-dev libfmt-dev pkg-config
                    libdnnl-dev ocl-icd-opencl-dev
                    libflatbuffers-dev flatbuffers-compiler zlib1g-dev
                    libonnx-dev libprotobuf-dev protobuf-compiler
                    libgloo-dev libopenmpi-dev openmpi-bin
                    libturbojpeg0-dev libpng-dev)
# The reference of the model tests (tests/models/reference_check.py: torchvision models exported and run in
# PyTorch, against npurt's atc + msame); scripts/test installs them unless NPURT_MODEL_TESTS=0.
NPURT_MODEL_DEB_PACKAGES=(python3-torch python3-torchvision python3-onnx python3-numpy)
# What `scripts/test --fuzz` needs on top: clang 14 with libFuzzer and its sanitizer runtimes, and clang's
# OpenMP runtime (the operators build with -fopenmp).
NPURT_FUZZ_DEB_PACKAGES=(clang-14 libclang-rt-14-dev libomp-14-dev)

npurt_log() { printf '[%s] %s\n' "${NPURT_SCRIPT:-npurt}" "$*"; }
npurt_die() { printf '[%s] error: %s\n' "${NPURT_SCRIPT:-npurt}" "$*" >&2; exit 1; }

# Installs whichever of NPURT_DEB_PACKAGES is missing (apt-get update once, only when needed).
npurt_ensure_deps() {
    if ! command -v dpkg >/dev/null 2>&1; then
        npurt_log "dpkg not found: not a Debian system, assuming the dependencies are installed"
        return 0
    fi
    local missing=() p
    for p in "${NPURT_DEB_PACKAGES[@]}"; do
        # (no `| grep -q`: under pipefail an early grep exit can fail the pipeline with SIGPIPE)
        [[ "$(dpkg -s "$p" 2>/dev/null || true)" == *"Status: install ok installed"* ]] || missing+=("$p")
    done
    if ((${#missing[@]} == 0)); then
        return 0
    fi
    local sudo=()
    if [[ $(id -u) -ne 0 ]]; then
        command -v sudo >/dev/null 2>&1 || npurt_die "missing packages (${missing[*]}) and not root, no sudo"
        sudo=(sudo)
    fi
    npurt_log "installing missing packages: ${missing[*]}"
    "${sudo[@]}" apt-get update -q
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
}

# Directory of a configure preset (kept in step with CMakePresets.json).
npurt_preset_dir() {
    case "$1" in
        default) echo "$NPURT_ROOT/build" ;;
        *) echo "$NPURT_ROOT/build-$1" ;;
    esac
}

# A build directory configured earlier with another generator (e.g. plain `cmake -S . -B build`, Makefiles)
# cannot take a Ninja preset: drop its cache (not its outputs) so the preset can configure it afresh.
npurt_prepare_build_dir() {
    local bdir="$1" gen
    [[ -f "$bdir/CMakeCache.txt" ]] || return 0
    gen=$(sed -n 's/^CMAKE_GENERATOR:INTERNAL=//p' "$bdir/CMakeCache.txt")
    if [[ -n "$gen" && "$gen" != "Ninja" ]]; then
        npurt_log "$bdir was configured with '$gen'; reconfiguring it with Ninja"
        rm -rf "$bdir/CMakeCache.txt" "$bdir/CMakeFiles"
    fi
}

# Compiler/linker flags that make a user program match a sanitizer build of the libraries.
npurt_sanitizer_flags() {
    case "${1:-}" in
        address) echo "-fsanitize=address,undefined -fno-omit-frame-pointer" ;;
        thread) echo "-fsanitize=thread -fno-omit-frame-pointer" ;;
        '') ;;
        *) npurt_die "unknown sanitizer '$1' (address|thread)" ;;
    esac
}

npurt_sanitizer_env() {
    case "${1:-}" in
        address)
            export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1}"
            # LeakSanitizer of GCC 12 crashes walking the dynamic TLS of kernel binaries that were dlclose()d
            # ("Tracer caught signal 11" on a stale DTLS range): it does not use TLS as a root.
            # tools/sanitizers/lsan.supp: what LSan cannot see is in use without TLS (libgomp's thread pool).
            export LSAN_OPTIONS="${LSAN_OPTIONS:-use_tls=0:suppressions=$NPURT_ROOT/tools/sanitizers/lsan.supp}"
            export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}" ;;
        thread)
            export TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1:suppressions=$NPURT_ROOT/tools/sanitizers/tsan.supp}" ;;
    esac
}

# npurt_install_package <build-dir> <prefix>: a fresh `cmake --install`, log in <build-dir>/install.log.
npurt_install_package() {
    local bdir="$1" pkg="$2"
    rm -rf "$pkg"
    if ! cmake --install "$bdir" --prefix "$pkg" >"$bdir/install.log" 2>&1; then
        tail -n 30 "$bdir/install.log" >&2
        npurt_die "cmake --install failed (log: $bdir/install.log)"
    fi
    npurt_log "package installed at $pkg"
}

# npurt_check_package <prefix> [sanitizer]: the layout users rely on, and that the filter libraries reach
# libascendcl.so through their own RUNPATH (no LD_LIBRARY_PATH) and resolve to the very same functions.
npurt_check_package() {
    local pkg="$1" san="${2:-}" bad=0 f filters=()
    for f in include/acl/acl.h runtime/include/acl/acl.h compiler/include/acl/acl.h \
             lib64/libascendcl.so lib64/libacl_rt.so lib64/libacl_rt_impl.so \
             runtime/lib64/libascendcl.so lib64/stub/libascendcl.so lib64/stub/libacl_rt.so \
             runtime/lib64/stub/libascendcl.so compiler/lib64/stub/libascendcl.so \
             lib64/libacl_mdl.so lib64/libacl_op_executor.so lib64/libopapi_nn.so lib64/libnpurt_shape_compiler.so \
             lib64/libacl_dvpp.so include/acl/ops/acl_dvpp.h \
             devlib/libascendcl.so bin/atc bin/msame \
             include/hccl/hccl.h lib64/libhccl.so bin/hccl_test bin/all_reduce_test \
             tools/ascendc/cmake/ascendc.cmake tools/ascendc/npurt_kernel_gen.py tools/ascendc/include/kernel_operator.h \
             tools/ascendc/cmake/ASCConfig.cmake compiler/tikcpp/ascendc_kernel_cmake/ASCConfig.cmake bin/npurt-ascc \
             compiler/ccec_compiler/bin/bisheng compiler/ccec_compiler/bin/ccec \
             compiler/tikcpp/ascendc_kernel_cmake/ascendc.cmake tools/tikcpp/ascendc_kernel_cmake/ascendc.cmake \
             tikcpp/ascendc_kernel_cmake/ascendc.cmake \
             set_env.sh bin/setenv.bash share/npurt/version.info; do
        if [[ ! -e "$pkg/$f" ]]; then
            echo "  missing: $f" >&2
            bad=1
        fi
    done
    if [[ -d "$pkg/opp" ]]; then :; else echo "  missing: opp/" >&2; bad=1; fi
    # Tests and benchmarks stay out: executables only in bin/, nothing named like a test or a benchmark (but
    # CANN's HCCL performance tools, bin/*_test, which users run by those names, and the compiler checks of the
    # kernel languages, tools/ascendc/cmake/CMakeTest{ASC,CCE}Compiler.cmake, which CMake looks up by those names).
    local extra
    extra=$( (find "$pkg" -path "$pkg/bin" -prune -o -type f -perm -u+x ! -name '*.so*' ! -name set_env.sh -print
              find "$pkg" \( -iname '*test*' -o -iname '*bench*' \) ! -name '*.h' ! -path "$pkg/bin/*_test" \
                   ! -name 'CMakeTest*Compiler.cmake' -print) | sort -u | head -5)
    if [[ -n "$extra" ]]; then
        echo "  unexpected files in the package (tests, benchmarks or stray executables):" >&2
        echo "$extra" | sed 's/^/    /' >&2
        bad=1
    fi
    # Filters: dlopen by full path with LD_LIBRARY_PATH unset.
    local tmp
    tmp=$(mktemp -d)
    cat >"$tmp/filter_check.c" <<'CEOF'
#include <dlfcn.h>
#include <stdio.h>
/* argv[1] = libascendcl.so, argv[2..] = filter libraries: each must load by full path and every checked
   function it exports must be libascendcl.so's own (at least one of them must be exported). */
int main(int argc, char** argv) {
    void* real = dlopen(argv[1], RTLD_NOW);
    if (!real) { fprintf(stderr, "dlopen %s: %s\n", argv[1], dlerror()); return 1; }
    const char* names[] = {"aclInit", "aclrtSetDevice", "aclrtMemcpyAsync", "aclGetRecentErrMsg",
                           "aclrtGetSocName", "aclFinalize", "HcclGetRootInfo", "HcclAllReduce"};
    for (int i = 2; i < argc; ++i) {
        void* filter = dlopen(argv[i], RTLD_NOW);
        if (!filter) { fprintf(stderr, "dlopen %s: %s\n", argv[i], dlerror()); return 1; }
        int same = 0;
        for (unsigned k = 0; k < sizeof names / sizeof names[0]; ++k) {
            void* a = dlsym(real, names[k]);
            void* b = dlsym(filter, names[k]);
            if (b && a != b) {
                fprintf(stderr, "%s: %s resolves to %p, libascendcl.so has %p\n", argv[i], names[k], b, a);
                return 1;
            }
            same += b != 0;
        }
        if (same == 0) { fprintf(stderr, "%s exports none of the checked ACL functions\n", argv[i]); return 1; }
    }
    return 0;
}
CEOF
    # shellcheck disable=SC2046
    if ! cc $(npurt_sanitizer_flags "$san") -o "$tmp/filter_check" "$tmp/filter_check.c" -ldl; then
        bad=1
    else
        # libacl_rt.so and libacl_rt_impl.so must be filters of libascendcl.so; so are the other CANN library
        # names; tool libraries (e.g. the API tracer) are not and are left alone.
        local lib dyn
        filters=()
        for lib in "$pkg"/lib64/lib*.so; do
            dyn=$(readelf -d "$lib" 2>/dev/null || true)
            if [[ "$dyn" == *"(FILTER)"*"[libascendcl.so]"* ]]; then
                filters+=("$lib")
            elif [[ "$(basename "$lib")" == libacl_rt.so || "$(basename "$lib")" == libacl_rt_impl.so ]]; then
                echo "  $(basename "$lib") is not an ELF filter of libascendcl.so" >&2
                bad=1
            fi
        done
        # Two runs: the filter semantics (with room for static TLS, so that a library needing it cannot mask
        # them), then plain dlopen as a Python ctypes or a framework would do it.
        if ! env -u LD_LIBRARY_PATH GLIBC_TUNABLES=glibc.rtld.optional_static_tls=65536 \
                "$tmp/filter_check" "$pkg/lib64/libascendcl.so" "${filters[@]}"; then
            echo "  the filter libraries do not resolve to libascendcl.so without LD_LIBRARY_PATH" >&2
            bad=1
        elif ! env -u LD_LIBRARY_PATH "$tmp/filter_check" "$pkg/lib64/libascendcl.so" "${filters[@]}"; then
            echo "  the libraries cannot be dlopen()ed by a program that did not link them (see the error above)" >&2
            bad=1
        fi
    fi
    rm -rf "$tmp"
    # pyACL (built without sanitizers only: it runs inside an uninstrumented python3): installed where CANN
    # keeps it, and importable with nothing but the PYTHONPATH set_env.sh sets (its RUNPATH finds lib64/).
    if [[ -z "$san" ]]; then
        if ! compgen -G "$pkg/python/site-packages/acl*.so" >/dev/null; then
            echo "  missing: python/site-packages/acl*.so (pyACL)" >&2
            bad=1
        elif ! env -u LD_LIBRARY_PATH PYTHONPATH="$pkg/python/site-packages" /usr/bin/python3 -c \
                'import acl, acl.rt, acl.mdl; assert acl.init() == 0 and acl.finalize() == 0'; then
            echo "  pyACL does not import from the package (PYTHONPATH=<P>/python/site-packages)" >&2
            bad=1
        fi
    fi
    if ((bad)); then
        npurt_log "package check: FAILED ($pkg)" >&2
        return 1
    fi
    npurt_log "package check: OK (layout, stub links, ${#filters[@]} filter libraries resolve via \$ORIGIN)"
}

# One line saying what an example shows: the first '> ' line of its README.md.
npurt_example_summary() {
    local dir="$1" line=""
    if [[ -f "$dir/README.md" ]]; then
        line=$(grep -m1 '^> ' "$dir/README.md" | sed 's/^> //' || true)
    fi
    echo "${line:-$(basename "$dir")}"
}

# A Python example (examples/<name>/main.py, no CMakeLists.txt): run with Debian's python3 after sourcing
# set_env.sh (which puts pyACL on PYTHONPATH), from a scratch directory. pyACL is not built under the
# sanitizers, so those runs skip it (neither passed nor failed).
npurt_run_python_example() {
    local pkg="$1" bdir="$2" san="$3" banners="$4" dir="$5" name rc=0 work
    name=$(basename "$dir")
    if [[ -n "$san" ]]; then
        npurt_log "example $name: skipped (pyACL is not built with sanitizers)"
        return 0
    fi
    if ((banners)); then
        printf '\n==> %s: %s\n' "$name" "$(npurt_example_summary "$dir")"
    else
        npurt_log "example $name"
    fi
    work="$bdir/examples/$name"
    rm -rf "$work"
    mkdir -p "$work"
    set +e
    (
        # shellcheck source=/dev/null
        source "$pkg/set_env.sh"
        cd "$work"
        timeout -k 10 "$NPURT_EXAMPLE_TIMEOUT" /usr/bin/python3 -u "$dir/main.py"
    ) 2>&1 | sed -u 's/^/  | /'
    rc=${PIPESTATUS[0]}
    set -e
    npurt_count_example "$name" "$rc"
}

# npurt_count_example <name> <exit status>: one example's result, said and added to the NPURT_EXAMPLES_*
# totals (a build failure has said why already; 124/137 are the run's timeout).
npurt_count_example() {
    if (($2 == 124 || $2 == 137)); then
        echo "  TIMED OUT after ${NPURT_EXAMPLE_TIMEOUT}s"
    elif (($2 != 0)); then
        echo "  FAILED (exit $2)"
    fi
    if (($2 == 0)); then
        NPURT_EXAMPLES_PASSED=$((NPURT_EXAMPLES_PASSED + 1))
        echo "  $1: passed"
    else
        NPURT_EXAMPLES_FAILED=$((NPURT_EXAMPLES_FAILED + 1))
        NPURT_EXAMPLES_FAILED_NAMES+=("$1")
        echo "  $1: FAILED"
    fi
}

# npurt_run_examples <prefix> <build-dir> <sanitizer> <banners:0|1>
# Builds every examples/*/ against the installed package the way a user would (source set_env.sh, a
# separate CMake project per example with -DASCEND_CANN_PACKAGE_PATH), runs its `main` with a timeout,
# and sets NPURT_EXAMPLES_PASSED / NPURT_EXAMPLES_FAILED.
npurt_run_examples() {
    local pkg="$1" bdir="$2" san="$3" banners="$4"
    local flags dir name ebuild log rc
    flags=$(npurt_sanitizer_flags "$san")
    NPURT_EXAMPLES_PASSED=0
    NPURT_EXAMPLES_FAILED=0
    NPURT_EXAMPLES_FAILED_NAMES=()
    for dir in "$NPURT_ROOT"/examples/*/; do
        dir="${dir%/}"
        name=$(basename "$dir")
        if [[ ! -f "$dir/CMakeLists.txt" && -f "$dir/main.py" ]]; then
            npurt_run_python_example "$pkg" "$bdir" "$san" "$banners" "$dir"
            continue
        fi
        [[ -f "$dir/CMakeLists.txt" ]] || continue
        ebuild="$bdir/examples/$name"
        log="$ebuild.build.log"
        if ((banners)); then
            printf '\n==> %s: %s\n' "$name" "$(npurt_example_summary "$dir")"
        else
            npurt_log "example $name"
        fi
        rm -rf "$ebuild"
        mkdir -p "$ebuild"
        rc=0
        (
            # shellcheck source=/dev/null
            source "$pkg/set_env.sh"
            cmake -S "$dir" -B "$ebuild" -DASCEND_CANN_PACKAGE_PATH="$ASCEND_CANN_PACKAGE_PATH" \
                  ${flags:+"-DCMAKE_CXX_FLAGS=$flags" "-DCMAKE_EXE_LINKER_FLAGS=$flags"}
            cmake --build "$ebuild" -j "$NPURT_JOBS"
        ) >"$log" 2>&1 || rc=$?
        if ((rc != 0)); then
            echo "  build FAILED (exit $rc); last lines of $log:"
            tail -n 25 "$log" | sed 's/^/  | /'
        else
            # Line-buffered output when no sanitizer runtime must come first in the process.
            local run=(./main)
            if [[ -z "$san" ]] && command -v stdbuf >/dev/null 2>&1; then
                run=(stdbuf -oL -eL ./main)
            fi
            set +e
            (
                # shellcheck source=/dev/null
                source "$pkg/set_env.sh"
                npurt_sanitizer_env "$san"
                cd "$ebuild"
                timeout -k 10 "$NPURT_EXAMPLE_TIMEOUT" "${run[@]}"
            ) 2>&1 | sed -u 's/^/  | /'
            rc=${PIPESTATUS[0]}
            set -e
        fi
        npurt_count_example "$name" "$rc"
    done
}
