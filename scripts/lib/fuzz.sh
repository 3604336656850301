# shellcheck shell=bash
# `scripts/test --fuzz` (docs/fuzzing.md): builds the fuzz preset and runs every libFuzzer target of
# tests/fuzz for a bounded time on its seed corpus. Sourced by scripts/test after common.sh.

# The targets, one per directory of seeds (tests/fuzz/corpus/<target>/).
npurt_fuzz_targets() {
    if [[ -n "${NPURT_FUZZ_TARGETS:-}" ]]; then
        echo "$NPURT_FUZZ_TARGETS"
        return
    fi
    local d names=()
    for d in "$NPURT_ROOT"/tests/fuzz/corpus/*/; do names+=("$(basename "$d")"); done
    echo "${names[*]}"
}

# "cov: N ft: N exec/s: N" from a libFuzzer log: its final stats, else its last status line.
npurt_fuzz_summary() {
    local log="$1" line cov ft execs runs
    line=$(grep -E '^#[0-9]+[[:space:]]+(DONE|pulse|NEW|REDUCE|INITED)' "$log" | tail -n 1 || true)
    cov=$(sed -nE 's/.*cov: ([0-9]+).*/\1/p' <<<"$line")
    ft=$(sed -nE 's/.*ft: ([0-9]+).*/\1/p' <<<"$line")
    runs=$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+)/\1/p' "$log" | tail -n 1)
    execs=$(sed -nE 's/^stat::average_exec_per_sec: *([0-9]+)/\1/p' "$log" | tail -n 1)
    [[ -n "$execs" ]] || execs=$(sed -nE 's/.*exec\/s: ([0-9]+).*/\1/p' <<<"$line")
    echo "runs ${runs:-?} exec/s ${execs:-?} cov: ${cov:-?} ft: ${ft:-?}"
}

npurt_fuzz_run() {
    local bdir="${NPURT_BUILD_DIR:-$(npurt_preset_dir fuzz)}"
    local time="${NPURT_FUZZ_TIME:-60}" timeout="${NPURT_FUZZ_TIMEOUT:-25}"
    local start=$SECONDS
    command -v clang++-14 >/dev/null 2>&1 || npurt_die "clang++-14 not found (apt-get install ${NPURT_FUZZ_DEB_PACKAGES[*]})"
    cd "$NPURT_ROOT"
    bdir="$(mkdir -p "$bdir" && cd "$bdir" && pwd)"
    npurt_log "configure (preset fuzz -> $bdir)"
    npurt_prepare_build_dir "$bdir"
    cmake --preset fuzz -B "$bdir"
    npurt_log "build the fuzz targets (-j$NPURT_JOBS)"
    cmake --build "$bdir" -j "$NPURT_JOBS" --target fuzz
    npurt_log "built in $((SECONDS - start))s"

    npurt_sanitizer_env address
    # libFuzzer reports the findings itself (and writes the reproducer): no abort_on_error core dumps.
    export ASAN_OPTIONS="detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1"
    # clang's LeakSanitizer scans thread-local storage (GCC 12's crashes on it, hence use_tls=0 elsewhere):
    # the runtime's per-thread state is reachable only from there.
    export LSAN_OPTIONS="use_tls=1:suppressions=$NPURT_ROOT/tools/sanitizers/lsan.supp"
    local work="$bdir/fuzz" failed=() t rc summary
    mkdir -p "$work"
    for t in $(npurt_fuzz_targets); do
        local exe="$bdir/tests/fuzz/$t" seeds="$NPURT_ROOT/tests/fuzz/corpus/$t"
        [[ -x "$exe" ]] || npurt_die "no fuzz target $exe"
        [[ -d "$seeds" ]] || npurt_die "no seed corpus $seeds"
        mkdir -p "$work/corpus/$t" "$work/artifacts/$t"
        npurt_log "fuzz $t for ${time}s (log $work/$t.log)"
        local dict=()
        [[ -f "$NPURT_ROOT/tests/fuzz/dict/$t.dict" ]] && dict=(-dict="$NPURT_ROOT/tests/fuzz/dict/$t.dict")
        rc=0
        # The first directory receives new inputs; the seeds in the tree are only read.
        "$exe" -max_total_time="$time" -timeout="$timeout" -detect_leaks=1 -rss_limit_mb=4096 \
            -print_final_stats=1 -artifact_prefix="$work/artifacts/$t/" "${dict[@]}" \
            "$work/corpus/$t" "$seeds" >"$work/$t.log" 2>&1 || rc=$?
        summary=$(npurt_fuzz_summary "$work/$t.log")
        if ((rc == 0)); then
            echo "  $t: clean, $summary"
        else
            echo "  $t: FAILED (exit $rc), $summary; reproducer(s) in $work/artifacts/$t/:"
            grep -E 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error:|npurt fuzz:|SUMMARY' \
                "$work/$t.log" | head -n 5 | sed 's/^/    /'
            failed+=("$t")
        fi
    done
    echo
    npurt_log "fuzzing finished in $((SECONDS - start))s"
    if ((${#failed[@]})); then
        echo "fuzz: FAILED (${failed[*]})"
        return 1
    fi
    echo "fuzz: every target ran clean for ${time}s"
}
