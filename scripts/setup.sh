#!/usr/bin/env bash
# Set up a Debian bookworm machine for unfad and build it.
#
# Idempotent: installs (with apt-get) only what is missing, skipping apt
# entirely when everything is present, then configures and builds into
# build/. Runs non-interactively; uses sudo when not root.
#
#   bash scripts/setup.sh
#
# Environment: UNFAD_BUILD_DIR (default: build), UNFAD_BUILD_TYPE
# (default: RelWithDebInfo), UNFAD_JOBS (default: 2).
set -euo pipefail
cd "$(dirname "$0")/.."

export DEBIAN_FRONTEND=noninteractive

PACKAGES=(
  llvm-19-dev libclang-19-dev clang-19 llvm-19-tools
  nlohmann-json3-dev libgtest-dev libgmock-dev libbenchmark-dev libadolc-dev
  cmake ninja-build g++ python3 git libclang-rt-19-dev
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if ((${#missing[@]})); then
  echo "setup: installing missing packages: ${missing[*]}"
  if [[ $(id -u) -eq 0 ]]; then
    SUDO=()
  elif command -v sudo >/dev/null 2>&1; then
    SUDO=(sudo -n)
    # -n: never prompt (no stdin); fall back to a prompting sudo only on a terminal.
    if ! sudo -n true 2>/dev/null; then
      if [[ -t 0 ]]; then SUDO=(sudo); else
        echo "setup: need root or passwordless sudo to install: ${missing[*]}" >&2
        exit 1
      fi
    fi
  else
    echo "setup: not root and no sudo; please install: ${missing[*]}" >&2
    exit 1
  fi
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update </dev/null
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
    "${missing[@]}" </dev/null
else
  echo "setup: all packages present, skipping apt"
fi

BUILD_DIR=${UNFAD_BUILD_DIR:-build}
BUILD_TYPE=${UNFAD_BUILD_TYPE:-RelWithDebInfo}
JOBS=${UNFAD_JOBS:-2}

# A cache made for another source tree or generator (e.g. a build/ directory
# copied or committed from elsewhere) makes cmake refuse to configure: start
# that configuration afresh.
cache="$BUILD_DIR/CMakeCache.txt"
if [[ -f $cache ]]; then
  home=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$cache")
  gen=$(sed -n 's/^CMAKE_GENERATOR:INTERNAL=//p' "$cache")
  here=$(pwd -P)
  there=$(cd "$home" 2>/dev/null && pwd -P || true)
  if [[ $there != "$here" || $gen != Ninja ]]; then
    echo "setup: $cache was made for '$home' with '$gen'; configuring afresh"
    rm -rf "$cache" "$BUILD_DIR/CMakeFiles"
  fi
fi

cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE="$BUILD_TYPE" </dev/null
cmake --build "$BUILD_DIR" -j"$JOBS" </dev/null
