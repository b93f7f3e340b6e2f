#!/usr/bin/env bash
# The sanitizer runs: every test built with AddressSanitizer (with LeakSanitizer) and
# UndefinedBehaviorSanitizer, then the scene fuzzer (scene_fuzzer.cpp, clang's libFuzzer, with the
# same sanitizers) for SECONDS (default 60) on a corpus seeded with assets/scenes and
# tests/fuzz/seeds (soft bodies of every kind; a saved world with its contacts and where they were
# found) and the dictionary scene.dict. Any report fails
# the run; a crashing input is saved as build-fuzz/crash-*. Needs clang and libclang-rt-14-dev
# (third_party/install-deps.sh).
#   bash tests/fuzz/run.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-60}

# The tests: the asan preset (CMakePresets.json): RelWithDebInfo, the release build's compiler
# and arithmetic (so the same answers), CAROM_SANITIZE=ON, in build-asan/. Its test preset sets
# the sanitizers' options: leaks inside system libraries are theirs (lsan.supp names D-Bus and
# nothing else), and Mesa's software renderer, which SDL loads and unloads, is preloaded so that
# it stays loaded and LeakSanitizer can see that what it holds is still reachable (once
# unloaded, its memory would count as leaked).
cmake --preset asan
cmake --build --preset asan
ctest --preset asan

# The fuzzer (libFuzzer is clang's).
CC=clang CXX=clang++ cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCAROM_FUZZ=ON \
  -DCAROM_SANITIZE=ON -DCAROM_BUILD_APP=OFF -DCAROM_BUILD_TESTS=OFF
cmake --build build-fuzz -j2 --target scene_fuzzer
corpus=build-fuzz/corpus
mkdir -p "$corpus"
cp assets/scenes/*.json tests/fuzz/seeds/*.json "$corpus/"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  build-fuzz/scene_fuzzer -max_len=4096 -timeout=20 -max_total_time="$seconds" \
  -dict=tests/fuzz/scene.dict -artifact_prefix=build-fuzz/ -print_final_stats=1 "$corpus"
