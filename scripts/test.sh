#!/usr/bin/env bash
# Set up (install missing packages, configure, build), then run every test:
# GoogleTest unit tests, lit golden tests and end-to-end gradient tests.
#
#   bash scripts/test.sh            # everything
#   bash scripts/test.sh -R e2e     # extra arguments go to ctest
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh
BUILD_DIR=${UNFAD_BUILD_DIR:-build}
exec ctest --test-dir "$BUILD_DIR" --output-on-failure -j"${UNFAD_JOBS:-2}" "$@" </dev/null
