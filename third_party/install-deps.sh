#!/usr/bin/env bash
# Installs Carom's build and test dependencies from Debian's packages, and nothing else.
# Safe to run again: packages already present are skipped, so a ready machine needs no network.
set -euo pipefail

packages=(
  cmake g++ make pkg-config
  libsdl2-dev libimgui-dev libglm-dev nlohmann-json3-dev
  libgtest-dev
  libgl-dev
  libpng-dev                           # the app's PNG screenshots
  libgif-dev                           # the app's animated GIF exports
  xvfb xdotool imagemagick x11-utils   # app tests and screenshots under a virtual X server
  xclip                                # app tests: text put on and read from the clipboard
  fonts-dejavu-core                    # the app's UI font
  clang libclang-rt-14-dev             # the scene fuzzer (libFuzzer) and sanitizers, tests/fuzz/run.sh
  clang-format                         # the format check of .ci/check-format.sh
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
echo "install-deps: installing ${missing[*]}"
$sudo apt-get update -q
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
