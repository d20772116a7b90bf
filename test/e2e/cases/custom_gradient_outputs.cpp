// Registered derivatives (UNFAD_CUSTOM_GRADIENT) of functions that write
// arrays: outputs (a triangular solve, a softmax into a std::vector, a
// normalisation that also returns the norm) and in/out arrays marked
// UNFAD_INOUT (an explicit step applied in place, in a loop). The pullbacks
// are written by hand from the math; the bodies below are only for the
// primal and the finite differences (unfad never reads them).
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

// L x = b, L lower-triangular (row-major n x n).
void lower_solve(const double* L, const double* b, double* x, int n) {
  for (int i = 0; i < n; ++i) {
    double s = b[i];
    for (int j = 0; j < i; ++j) s -= L[i * n + j] * x[j];
    x[i] = s / L[i * n + i];
  }
}
// g = L^-T d_x; d_b += g; d_L -= g x^T (lower part); d_x consumed.
void lower_solve_pullback(const double* L, [[maybe_unused]] const double* b, double* x, int n, double* d_L,
                          double* d_b, double* d_x) {
  std::vector<double> g(n);
  for (int i = n - 1; i >= 0; --i) {
    double s = d_x[i];
    for (int k = i + 1; k < n; ++k) s -= L[k * n + i] * g[k];
    g[i] = s / L[i * n + i];
  }
  for (int i = 0; i < n; ++i) {
    d_b[i] += g[i];
    for (int j = 0; j <= i; ++j) d_L[i * n + j] -= g[i] * x[j];
    d_x[i] = 0.0;
  }
}
UNFAD_CUSTOM_GRADIENT(lower_solve, lower_solve_pullback);

// y <- y + h tanh(y), in place: the pullback sees y as the call found it.
void tanh_step(UNFAD_INOUT double* y, double h, int n) {
  for (int i = 0; i < n; ++i) y[i] += h * std::tanh(y[i]);
}
void tanh_step_pullback(double* y, double h, int n, double* d_y, double* d_h) {
  for (int i = 0; i < n; ++i) {
    const double t = std::tanh(y[i]);
    *d_h += t * d_y[i];
    d_y[i] *= 1.0 + h * (1.0 - t * t);
  }
}
UNFAD_CUSTOM_GRADIENT(tanh_step, tanh_step_pullback);

// p = softmax(z); d_z += p (d_p - <p, d_p>); d_p consumed.
void softmax(const std::vector<double>& z, std::vector<double>& p) {
  double m = z[0];
  for (double v : z) m = std::fmax(m, v);
  double s = 0.0;
  for (size_t i = 0; i < z.size(); ++i) s += (p[i] = std::exp(z[i] - m));
  for (double& v : p) v /= s;
}
void softmax_pullback([[maybe_unused]] const std::vector<double>& z, std::vector<double>& p,
                      std::vector<double>& d_z, std::vector<double>& d_p) {
  double dot = 0.0;
  for (size_t i = 0; i < p.size(); ++i) dot += p[i] * d_p[i];
  for (size_t i = 0; i < p.size(); ++i) {
    d_z[i] += p[i] * (d_p[i] - dot);
    d_p[i] = 0.0;
  }
}
UNFAD_CUSTOM_GRADIENT(softmax, softmax_pullback);

// out = x / |x|, returns |x|.
double normalize(const double* x, double* out, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += x[i] * x[i];
  const double r = std::sqrt(s);
  for (int i = 0; i < n; ++i) out[i] = x[i] / r;
  return r;
}
// d_x += (d_out - out <out, d_out>) / r + out d_result.
void normalize_pullback(const double* x, double* out, int n, double d_result, double* d_x, double* d_out) {
  double r = 0.0, dot = 0.0;
  for (int i = 0; i < n; ++i) {
    r += x[i] * x[i];
    dot += out[i] * d_out[i];
  }
  r = std::sqrt(r);
  for (int i = 0; i < n; ++i) {
    d_x[i] += (d_out[i] - out[i] * dot) / r + out[i] * d_result;
    d_out[i] = 0.0;
  }
}
UNFAD_CUSTOM_GRADIENT(normalize, normalize_pullback);

// A solve, then three in-place steps, then a reduction.
UNFAD_GRADIENT double fit(const double* L, const double* b, double h, int n) {
  std::vector<double> x(n);
  lower_solve(L, b, x.data(), n);
  for (int s = 0; s < 3; ++s) tanh_step(x.data(), h, n);
  double r = 0.0;
  for (int i = 0; i < n; ++i) r += x[i] * x[i];
  return r;
}

// The custom functions write the marked function's own output, then
// update it in place (in/out: a std::vector, whose length the copy for the
// pullback needs; a pointer is refused, test/lit/diagnostics).
UNFAD_GRADIENT void solve_into(const double* L, const double* b, int n, std::vector<double>& x) {
  lower_solve(L, b, x.data(), n);
  tanh_step(x.data(), 0.5, n);
}

// The output a std::vector, read after the call, written again by a second call.
UNFAD_GRADIENT double cross_entropy(const std::vector<double>& z, const std::vector<double>& w, int label) {
  std::vector<double> p(z.size());
  softmax(z, p);
  double loss = -std::log(p[label]);
  std::vector<double> shifted(z.size());
  for (size_t i = 0; i < z.size(); ++i) shifted[i] = z[i] * w[i];
  softmax(shifted, p);
  for (size_t i = 0; i < p.size(); ++i) loss += w[i] * p[i];
  return loss;
}

// A result and an output from one call, inside a loop.
UNFAD_GRADIENT double directions(const double* x, int n, int m) {
  double total = 0.0;
  double u[4];
  for (int k = 0; k < m; ++k) {
    const double r = normalize(x + k * n, u, n);
    total += r * u[0] + u[n - 1] * u[n - 1];
  }
  return total;
}

/* e2e
[{"function": "fit", "points": [[[2.0, 0.0, 0.0, 0.5, 1.5, 0.0, -0.25, 0.75, 3.0], [1.0, -0.5, 0.25], 0.3, 3],
                                [[1.25, 0.0, 0.0, -0.5, 2.5, 0.0, 0.125, 0.5, 1.75], [0.5, 1.5, -1.0], -0.2, 3]]},
 {"function": "solve_into", "outputs": {"x": 3},
  "points": [[[2.0, 0.0, 0.0, 0.5, 1.5, 0.0, -0.25, 0.75, 3.0], [1.0, -0.5, 0.25], 3]]},
 {"function": "cross_entropy", "points": [[[0.5, -1.0, 2.0, 0.25], [1.0, 0.5, -0.75, 2.0], 2], [[1.5, 0.25, -0.5], [0.3, -1.2, 0.8], 0]]},
 {"function": "directions", "points": [[[0.5, -1.0, 2.0, 1.5, 0.25, -0.75], 3, 2], [[1.0, 2.0, -0.5, 0.5], 2, 2]]}]
*/
