#!/usr/bin/env bash
# The sanitizer runs: every test built with AddressSanitizer (with LeakSanitizer) and
# UndefinedBehaviorSanitizer, then the scene fuzzer (scene_fuzzer.cpp, clang's libFuzzer, with the
# same sanitizers) for SECONDS (default 60) on a corpus seeded with assets/scenes and the
# dictionary scene.dict. Any report fails the run; a crashing input is saved as
# build-fuzz/crash-*. Needs clang and libclang-rt-14-dev (third_party/install-deps.sh).
#   bash tests/fuzz/run.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-60}
sanitizers="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"

# The tests, with the release build's compiler (the same arithmetic, so the same answers).
cmake -S . -B build-sanitize -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS="$sanitizers" \
  -DCMAKE_EXE_LINKER_FLAGS="-static-libasan -static-libubsan"
cmake --build build-sanitize -j2
export ASAN_OPTIONS=detect_leaks=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# Leaks inside system libraries are theirs: lsan.supp names D-Bus and nothing else. Mesa's
# software renderer, which SDL loads and unloads, is kept loaded so that LeakSanitizer can see
# that what it holds is still reachable (once unloaded, its memory would count as leaked).
export LSAN_OPTIONS="suppressions=$PWD/tests/fuzz/lsan.supp:print_suppressions=0"
mesa=$(ls /usr/lib/x86_64-linux-gnu/dri/swrast_dri.so 2>/dev/null || true)
LD_PRELOAD="libGL.so.1 $mesa" ctest --test-dir build-sanitize --output-on-failure -j2

# The fuzzer (libFuzzer is clang's).
CC=clang CXX=clang++ cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCAROM_FUZZ=ON \
  -DCMAKE_CXX_FLAGS="$sanitizers"
cmake --build build-fuzz -j2 --target scene_fuzzer
corpus=build-fuzz/corpus
mkdir -p "$corpus"
cp assets/scenes/*.json "$corpus/"
build-fuzz/scene_fuzzer -max_len=4096 -timeout=20 -max_total_time="$seconds" \
  -dict=tests/fuzz/scene.dict -artifact_prefix=build-fuzz/ -print_final_stats=1 "$corpus"
