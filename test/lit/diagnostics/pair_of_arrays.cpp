// A std::pair or std::tuple holds scalars or structs: one holding an array is an error at its use, and nothing is written.
// RUN: not %unfad %s -- -std=c++17 -I%unfad_include 2>&1 | FileCheck %s
#include <unfad/unfad.h>
#include <array>
#include <utility>
UNFAD_GRADIENT double f(double x) {
  // CHECK: pair_of_arrays.cpp:[[@LINE+1]]:41: error: cannot differentiate 'f': 'std::pair<std::array<double, 2>, int>' is not supported: the elements of a std::pair or std::tuple must be scalars or structs (not 'std::array<double, 2>')
  std::pair<std::array<double, 2>, int> p{{x, x}, 1};
  return p.first[0] * p.second;
}
