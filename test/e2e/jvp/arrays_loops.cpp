// Forward mode through arrays and loops: a loop-carried sum, a nested loop
// writing an output, a local array filled then read, a while loop, a
// helper with a loop (inlined) and one writing into an output.
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

static double dot(const double* a, const double* b, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += a[i] * b[i];
  return s;
}

static void scale_into(const double* a, double k, int n, double* out) {
  for (int i = 0; i < n; ++i) out[i] = k * a[i];
}

UNFAD_JVP double arrays_loops(const double* x, const std::vector<double>& w, int n, double k, double* out) {
  double local[4];
  for (int i = 0; i < n; ++i) local[i] = std::sin(x[i]) * w[i];
  double prod = 1.0;
  for (int i = 0; i < n; ++i) prod *= 1.0 + 0.1 * local[i];
  double s = dot(local, x, n);
  int steps = 0;
  double r = k;
  while (r * r < 4.0 && steps < 10) {  // a data-dependent trip count
    r = r * 1.5 + 0.1 * s;
    ++steps;
  }
  scale_into(x, k * k, n, out);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) out[i] += std::exp(-0.5 * (x[i] - w[j]) * (x[i] - w[j])) * local[j];
  return prod + s * r;
}

UNFAD_GRADIENT double arrays_loops_rev(const double* x, const std::vector<double>& w, int n, double k, double* out) {
  return arrays_loops(x, w, n, k, out);
}

/* jvp
{"function": "arrays_loops", "gradient": "arrays_loops_rev",
 "params": [["x", "in", 4], ["w", "vec", 4], ["n", "int"], ["k", "scalar"], ["out", "out", 4]],
 "points": [[[0.1, 0.5, -0.3, 1.2], [1.0, -0.5, 0.25, 0.75], 4, 0.3],
            [[1.1, -0.7, 0.2, 0.4], [0.3, 0.6, -0.9, 1.5], 4, -1.25]]}
*/
