#!/usr/bin/env bash
# The main job: set up and build unfad, then differentiate a real example
# and use its gradient.
#
#   bash scripts/quickstart.sh
#   bash scripts/quickstart.sh --no-setup   # skip step 1 (the test suite runs this)
#
# 1. scripts/setup.sh (installs missing Debian packages, builds build/bin/unfad)
# 2. copies examples/quickstart/ to build/quickstart/ (the example in the
#    source tree stays unmarked by generated code)
# 3. `unfad -i energy.cpp` writes energy_grad into the copy
# 4. compiles the copy with g++ and runs it: a finite-difference check of the
#    gradient, gradient descent with the objective falling, and the measured
#    gradient/primal time ratio.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

if [[ ${1:-} != --no-setup ]]; then
  bash scripts/setup.sh
fi
BUILD_DIR=${UNFAD_BUILD_DIR:-build}
[[ $BUILD_DIR = /* ]] || BUILD_DIR="$ROOT/$BUILD_DIR"
UNFAD="$BUILD_DIR/bin/unfad"
WORK="$BUILD_DIR/quickstart"

rm -rf "$WORK"
mkdir -p "$WORK"
cp examples/quickstart/energy.cpp examples/quickstart/energy.h examples/quickstart/main.cpp "$WORK/"
cd "$WORK"

echo
echo "== unfad -i energy.cpp"
"$UNFAD" -i energy.cpp -- -std=c++17 -I"$ROOT/include" </dev/null
"$UNFAD" --check energy.cpp -- -std=c++17 -I"$ROOT/include" </dev/null
echo
echo "== the generated gradient ($WORK/energy.cpp)"
sed -n '/^\/\/ unfad:begin/,/^\/\/ unfad:end/p' energy.cpp

echo
echo "== g++ -O2 main.cpp energy.cpp && ./quickstart"
g++ -std=c++17 -O2 -Wall -Wextra -I"$ROOT/include" main.cpp energy.cpp -o quickstart
./quickstart </dev/null

# One of the examples end to end (issue 5): fitting a damped oscillator's
# parameters through its RK4 integrator, with the gradient the refactoring
# command wrote into examples/ode_fit/ode.cpp (kept honest by --check).
cd "$ROOT"
echo
echo "== unfad --check examples/ode_fit/ode.cpp"
"$UNFAD" --check examples/ode_fit/ode.cpp -- -std=c++17 -I"$ROOT/include" </dev/null
echo
echo "== examples/ode_fit: estimate (k, c, x0, v0) from observations"
cmake -S examples/ode_fit -B "$BUILD_DIR/ode_fit" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$BUILD_DIR/ode_fit" -j2 >/dev/null
"$BUILD_DIR/ode_fit/ode_fit" </dev/null
