// ADOL-C (Debian's libadolc-dev) as the tape-based baseline: the templates of workloads.h at
// adouble, taped once per input (not timed), then ADOL-C's drivers (timed) re-evaluate the tape
// forward and sweep it backward.
#include "tools.h"
#include "workloads.h"

#include <adolc/adolc.h>

namespace {

int nextTag = 1;

// Tapes f(ax) -> outputs with x as the independents.
template <class F> int tape(const std::vector<double> &x, int m, F f) {
  const int tag = nextTag++;
  const int n = int(x.size());
  trace_on(tag);
  std::vector<adouble> ax(n), ay(m);
  for (int i = 0; i < n; ++i) ax[i] <<= x[i];
  f(ax.data(), ay.data());
  std::vector<double> y(m);
  for (int i = 0; i < m; ++i) ay[i] >>= y[i];
  trace_off();
  return tag;
}

} // namespace

int adolc_tape_lse(const std::vector<double> &x) {
  return tape(x, 1, [&](const adouble *a, adouble *y) { y[0] = gb::lse(a, int(x.size())); });
}

int adolc_tape_llsq(const std::vector<double> &x, int n) {
  return tape(x, 1, [&](const adouble *a, adouble *y) { y[0] = gb::llsq(a, int(x.size()), n); });
}

int adolc_tape_kmeans(const std::vector<double> &points, const std::vector<double> &centroids, int n, int k, int d) {
  return tape(centroids, 1, [&](const adouble *c, adouble *y) { y[0] = gb::kmeans_cost(points.data(), c, n, k, d); });
}

int adolc_tape_ode(const std::vector<double> &x, int s) {
  const int n = int(x.size());
  return tape(x, n, [&](const adouble *a, adouble *y) { gb::ode_solve(a, n, s, y); });
}

int adolc_tape_det(const std::vector<double> &a, int ell) {
  return tape(a, 1, [&](const adouble *m, adouble *y) { y[0] = gb::det_by_minors(m, ell); });
}

int adolc_tape_gmm(int d, int k, int n, const std::vector<double> &params, const std::vector<double> &x, double gamma,
                   int m) {
  return tape(params, 1, [&](const adouble *p, adouble *y) {
    const adouble *alpha = p, *mu = p + k, *q = mu + k * d, *l = q + k * d;
    y[0] = gb::gmm_objective(d, k, n, alpha, mu, q, l, x.data(), gamma, m);
  });
}

int adolc_tape_ba(const double *cam, const double *X, double w, const double *feat) {
  std::vector<double> in(cam, cam + 11);
  in.insert(in.end(), X, X + 3);
  in.push_back(w);
  in.insert(in.end(), feat, feat + 2);
  return tape(in, 2, [&](const adouble *a, adouble *y) {
    // The feature is an independent too, so that one tape serves every observation (a
    // constant would be recorded on the tape); its two columns are not used.
    adouble f[2] = {a[15], a[16]};
    const adouble *c = a, *p = a + 11, *wt = a + 14;
    // ba_project takes the feature as double; subtract it here instead.
    const double zero[2] = {0.0, 0.0};
    gb::ba_project(c, p, wt, zero, y);
    y[0] -= wt[0] * f[0];
    y[1] -= wt[0] * f[1];
  });
}

int adolc_tape_lstm(int l, int c, int b, const std::vector<double> &params, const std::vector<double> &state,
                    const std::vector<double> &sequence) {
  return tape(params, 1, [&](const adouble *p, adouble *y) {
    y[0] = gb::lstm_objective(l, c, b, p, p + 8 * l * b, state.data(), sequence.data());
  });
}

void adolc_gradient(int tag, const std::vector<double> &x, std::vector<double> &g) {
  gradient(short(tag), int(x.size()), const_cast<double *>(x.data()), g.data());
}

void adolc_vjp(int tag, int m, const std::vector<double> &x, const std::vector<double> &u, std::vector<double> &g) {
  vec_jac(short(tag), m, int(x.size()), 0, const_cast<double *>(x.data()), const_cast<double *>(u.data()), g.data());
}

void adolc_jacobian(int tag, int m, int n, const double *x, double *J) {
  static thread_local std::vector<double *> rows;
  rows.resize(m);
  for (int i = 0; i < m; ++i) rows[i] = J + i * n;
  jacobian(short(tag), m, n, const_cast<double *>(x), rows.data());
}

int adolc_tape_ht(const HtProblem &p, const double *theta) {
  std::vector<double> x(theta, theta + 26);
  if (p.us) x.insert(x.end(), p.us, p.us + 2 * p.points);
  return tape(x, 3 * p.points, [&](const adouble *a, adouble *err) {
    gb::ht_objective(a, p.us ? a + 26 : nullptr, p.model, p.points, p.correspondences, p.observed, err);
  });
}

void adolc_forward_jacobian(int tag, int m, int n, int p, const double *x, const double *seed, double *J) {
  // ADOL-C's drivers take arrays of row pointers.
  static thread_local std::vector<double *> seedRows, jRows;
  static thread_local std::vector<double> seedCopy, y;
  seedCopy.assign(seed, seed + size_t(n) * p);
  seedRows.resize(n);
  jRows.resize(m);
  y.resize(m);
  for (int i = 0; i < n; ++i) seedRows[i] = &seedCopy[size_t(i) * p];
  for (int i = 0; i < m; ++i) jRows[i] = J + size_t(i) * p;
  fov_forward(short(tag), m, n, p, const_cast<double *>(x), seedRows.data(), y.data(), jRows.data());
}
