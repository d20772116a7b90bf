// A helper that is not inlined (recursive) writes a local array the caller
// then reads. Its pullback consumes the array's cotangent from the caller's
// buffer, but the optimiser's memory effects counted a pullback's buffers as
// written only: the backward loop that put the cotangent there was dead code
// to dead-arrays, and every derivative was 0 (finite differences: nonzero).
// A pullback reads its buffers too (lib/ir/effects.cpp).
// (Both found while adding custom derivatives of functions with outputs,
// which are never inlined either.)
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

static void fill_terms(const double* x, double* out, int k, int n) {
  if (k == n) return;
  out[k] = std::sin(x[k]) + 0.5 * x[k];
  fill_terms(x, out, k + 1, n);
}

UNFAD_GRADIENT double sum_of_squares(const double* x, int n) {
  std::vector<double> out(n);
  fill_terms(x, out.data(), 0, n);
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += out[i] * out[i];
  return s;
}

// The output scaled in place after the call, then read twice.
static void running(const double* x, double* out, double acc, int k, int n) {
  if (k == n) return;
  acc = acc * 0.5 + x[k] * x[k];
  out[k] = acc;
  running(x, out, acc, k + 1, n);
}

UNFAD_GRADIENT double scaled_running(const double* x, double c, int n) {
  double out[8];
  running(x, out, c, 0, n);
  for (int i = 0; i < n; ++i) out[i] *= c;
  return out[n - 1] + std::exp(0.1 * out[0]);
}

// A value-returning recursive helper writing a local array, called in a
// loop: the loop tapes the call's value, and its backward sweep read the
// value from the tape without running the call, so the array held what the
// previous iteration left when the body and the pullback read it (wrong
// derivatives). A call that writes arrays runs again (lib/ad/rev/calls.cpp).
static double fill_scaled(const double* x, double c, double* out, int k, int n) {
  if (k == n) return 0.0;
  const double v = c * std::sin(x[k]);
  out[k] = v;
  return v * v + fill_scaled(x, c, out, k + 1, n);
}

UNFAD_GRADIENT double looped(const double* x, int n, int m) {
  double total = 0.0;
  double out[4];
  for (int j = 0; j < m; ++j) {
    const double s = fill_scaled(x, 0.5 + j, out, 0, n);
    total += s * out[0] + out[n - 1];
  }
  return total;
}

/* e2e
[{"function": "sum_of_squares", "points": [[[0.5, -1.25, 2.0], 3], [[1.5, 0.25, -0.75, 0.125, 1.0], 5]]},
 {"function": "scaled_running", "points": [[[0.5, -1.25, 2.0], 0.75, 3], [[1.5, 0.25, -0.75, 0.125], -1.5, 4]]},
 {"function": "looped", "points": [[[0.5, -1.25, 2.0], 3, 3], [[1.5, 0.25, -0.75, 0.125], 4, 2]]}]
*/
