// `out.resize(n)` / `out.assign(n, v)` on an output std::vector parameter is
// supported as the first use of `out`, a statement of the marked function's
// body (lib/frontend/output_vectors.cpp). Elsewhere it is an error at the
// call, and nothing is written.
// RUN: not %unfad %s -- -std=c++17 -I%unfad_include 2>&1 | FileCheck %s
#include <unfad/unfad.h>
#include <vector>

UNFAD_GRADIENT void in_branch(const std::vector<double>& z, std::vector<double>& out) {
// CHECK: output_vector_resize_refused.cpp:[[@LINE+1]]:34: error: cannot differentiate 'in_branch': 'resize' of output 'out' is only supported as the first use of 'out', a statement of the marked function's body (not in a loop, a branch or a helper)
  if (out.size() < z.size()) out.resize(z.size());
  for (std::size_t i = 0; i < z.size(); ++i) out[i] = 2 * z[i];
}

UNFAD_GRADIENT void with_value(const std::vector<double>& z, std::vector<double>& out) {
// CHECK: output_vector_resize_refused.cpp:[[@LINE+1]]:7: error: cannot differentiate 'with_value': 'resize' with a value fills only the elements it adds; write 'out.assign(n, value)' or 'out.resize(n)'
  out.resize(z.size(), 1.0);
  for (std::size_t i = 0; i < z.size(); ++i) out[i] *= z[i];
}

static void fill_helper(const std::vector<double>& z, std::vector<double>& out) {
// CHECK: output_vector_resize_refused.cpp:[[@LINE+1]]:7: error: cannot differentiate 'in_helper': 'resize' of output 'out' is only supported as the first use of 'out', a statement of the marked function's body (not in a loop, a branch or a helper)
  out.resize(z.size());
  for (std::size_t i = 0; i < z.size(); ++i) out[i] = z[i] * z[i];
}
UNFAD_GRADIENT void in_helper(const std::vector<double>& z, std::vector<double>& out) { fill_helper(z, out); }

// CHECK-NOT: unfad:begin
