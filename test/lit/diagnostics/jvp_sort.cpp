// Forward mode has no rule for sorting yet: refused at the call, located.
// RUN: not %unfad %s -- -std=c++17 -I%unfad_include 2>&1 | FileCheck %s
#include <unfad/unfad.h>
#include <algorithm>
#include <vector>
UNFAD_JVP double jvp_sorted(std::vector<double> v) {
// CHECK: jvp_sort.cpp:[[@LINE+1]]:3: error: cannot differentiate 'jvp_sorted': forward mode (UNFAD_JVP) does not support sorting (std::sort, std::stable_sort, std::nth_element, std::partial_sort) yet
  std::sort(v.begin(), v.end());
  return v[0];
}
