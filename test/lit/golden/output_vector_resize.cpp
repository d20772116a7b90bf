// An output std::vector sized by the function (`out.resize(z.size())`):
// the gradient resizes it once, where f does, before its forward sweep;
// `out.size()` is the size it was given, and the backward sweep neither
// resizes again nor reads d_out's size.
// RUN: %unfad %s -- -std=c++17 -I%unfad_include > %t.out
// RUN: grep -v '^// *[A-Z-]*:' %t.out | FileCheck %s
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

UNFAD_GRADIENT void scaled_exp(const std::vector<double>& z, double k, std::vector<double>& out) {
  out.resize(z.size());
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = k * std::exp(z[i]);
}

// CHECK-LABEL: void scaled_exp_grad(const std::vector<double>& z, double k, std::vector<double>& out, std::vector<double>& d_z, double* d_k, std::vector<double>& d_out) {
// CHECK:         out.resize(static_cast<std::size_t>(
// CHECK-NOT:     resize
// CHECK-NOT:     d_out.size()
// CHECK:       // unfad:end scaled_exp_grad
