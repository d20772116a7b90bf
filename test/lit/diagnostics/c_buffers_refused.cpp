// memcpy/memset on arrays of numbers are copies and fills of `n * sizeof(T)`
// bytes (lib/frontend/std_algorithms.cpp); other byte counts, memmove
// (overlapping ranges) and memset to other than 0 are refused at the call,
// located, and nothing is written.
// RUN: not %unfad %s -- -std=c++17 -I%unfad_include 2>&1 | FileCheck %s
#include <unfad/unfad.h>
#include <cstring>

UNFAD_GRADIENT double bytes(const double* x, int n) {
  double buf[8];
// CHECK: c_buffers_refused.cpp:[[@LINE+1]]:23: error: cannot differentiate 'bytes': the byte count of 'memcpy' is not supported: write it as 'n * sizeof(double)'
  std::memcpy(buf, x, 8 * n);
  return buf[0] * x[1];
}

UNFAD_GRADIENT double moved(double* x, int n) {
// CHECK: c_buffers_refused.cpp:[[@LINE+1]]:3: error: cannot differentiate 'moved': 'memmove' is not supported (ranges that may overlap: write the loop, or 'std::copy')
  std::memmove(x + 1, x, (n - 1) * sizeof(double));
  return x[0] * x[1];
}

UNFAD_GRADIENT double ones(const double* x) {
  double buf[4];
// CHECK: c_buffers_refused.cpp:[[@LINE+1]]:20: error: cannot differentiate 'ones': 'memset' with a value other than 0 is not supported (use 'std::fill')
  std::memset(buf, 1, sizeof buf);
  return buf[0] * x[0];
}

// CHECK-NOT: unfad:begin
