// GradBench's workloads (https://github.com/gradbench/gradbench, evals/<name>/README.md; ADBench,
// arXiv 1807.10129), written for unfad from their definitions in the style of GradBench's C++:
// pointers into flat arrays, in-place updates, small local buffers. Each is a template over the
// scalar: at `double` it is the primal that unfad differentiates (through the marked wrappers of
// marked.cpp), at ADOL-C's `adouble` it is the ADOL-C baseline (adolc.cpp).
#pragma once

#include <cmath>
#include <vector>

namespace gb {

// Unqualified calls inside the templates find std:: for double and ADOL-C's overloads (by
// argument-dependent lookup) for adouble.
using std::cos;
using std::exp;
using std::log;
using std::sin;
using std::sqrt;
using std::tanh;

// lse: log sum_i exp(x_i), with the maximum subtracted first.
template <class T> T lse(const T *x, int n) {
  T a = x[0];
  for (int i = 1; i < n; ++i)
    if (x[i] > a) a = x[i];
  T s = 0.0;
  for (int i = 0; i < n; ++i) s += exp(x[i] - a);
  return a + log(s);
}

// llsq: 1/2 sum_i (s_i - sum_j x_j t_i^j)^2, t_i = -1 + 2i/(n-1), s_i = sign(t_i).
template <class T> T llsq(const T *x, int m, int n) {
  T sum = 0.0;
  for (int i = 0; i < n; ++i) {
    const double t = -1.0 + i * 2.0 / (n - 1);
    const double s = t > 0 ? 1.0 : (t < 0 ? -1.0 : 0.0);
    T r = s;
    double power = 1.0;
    for (int j = 0; j < m; ++j) {
      r -= x[j] * power;
      power *= t;
    }
    sum += r * r;
  }
  return 0.5 * sum;
}

// kmeans: sum_i min_j |C_j - P_i|^2 (n points, k centroids, dimension d, row-major).
template <class T> T kmeans_cost(const double *points, const T *centroids, int n, int k, int d) {
  T cost = 0.0;
  for (int i = 0; i < n; ++i) {
    const double *p = points + i * d;
    T closest = 0.0;
    for (int j = 0; j < k; ++j) {
      const T *c = centroids + j * d;
      T dist = 0.0;
      for (int l = 0; l < d; ++l) {
        const T diff = c[l] - p[l];
        dist += diff * diff;
      }
      if (j == 0 || dist < closest) closest = dist;
    }
    cost += closest;
  }
  return cost;
}

// ode: y_0' = x_0, y_i' = (x_1 + ... + x_i) y_{i-1}, y(0) = 0, solved on [0, 2] by s steps of
// the classical Runge-Kutta method; y is the state at t = 2.
template <class T> void ode_rhs(const T *x, const T *y, T *dy, int n) {
  dy[0] = x[0];
  T c = 0.0;
  for (int i = 1; i < n; ++i) {
    c += x[i];
    dy[i] = c * y[i - 1];
  }
}

template <class T> void ode_solve(const T *x, int n, int s, T *y) {
  std::vector<T> k1(n), k2(n), k3(n), k4(n), tmp(n);
  const double h = 2.0 / s;
  for (int i = 0; i < n; ++i) y[i] = 0.0;
  for (int step = 0; step < s; ++step) {
    ode_rhs(x, y, k1.data(), n);
    for (int i = 0; i < n; ++i) tmp[i] = y[i] + 0.5 * h * k1[i];
    ode_rhs(x, tmp.data(), k2.data(), n);
    for (int i = 0; i < n; ++i) tmp[i] = y[i] + 0.5 * h * k2[i];
    ode_rhs(x, tmp.data(), k3.data(), n);
    for (int i = 0; i < n; ++i) tmp[i] = y[i] + h * k3[i];
    ode_rhs(x, tmp.data(), k4.data(), n);
    for (int i = 0; i < n; ++i) y[i] += h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
  }
}

// det: the determinant of the ell x ell row-major matrix a by expansion along the first row of
// each minor. The minor is two linked lists: r[ell] is its first row and r[i] the row after row
// i, c likewise for the columns; a row or column is unlinked for the sub-minor and linked back.
// (Written first with `int *r, int *c`; unfad refuses that: the recursive function updates the
// arrays in place and their length is not known from a pointer. GradBench passes vectors too.)
template <class T> T det_minor(const T *a, int ell, int m, std::vector<int> &r, std::vector<int> &c) {
  const int row = r[ell];
  if (m == 1) return a[row * ell + c[ell]];
  r[ell] = r[row];
  T det = 0.0;
  double sign = 1.0;
  int before = ell;
  int col = c[ell];
  for (int j = 0; j < m; ++j) {
    c[before] = c[col];
    const T minor = det_minor(a, ell, m - 1, r, c);
    c[before] = col;
    det += sign * a[row * ell + col] * minor;
    sign = -sign;
    before = col;
    col = c[col];
  }
  r[ell] = row;
  return det;
}

template <class T> T det_by_minors(const T *a, int ell) {
  std::vector<int> r(ell + 1), c(ell + 1);
  for (int i = 0; i < ell; ++i) {
    r[i] = i + 1;
    c[i] = i + 1;
  }
  r[ell] = 0;
  c[ell] = 0;
  return det_minor(a, ell, ell, r, c);
}

// gmm: the log posterior of a Gaussian mixture with a Wishart prior on the precision matrices
// (GradBench's corrected ADBench objective), without the constant terms (gmm_constant below).
// alpha: k; mu: k x d; q: k x d (log of Q's diagonal); l: k x d(d-1)/2 (Q's strictly lower
// part, column by column); x: n x d.
template <class T>
T gmm_objective(int d, int k, int n, const T *alpha, const T *mu, const T *q, const T *l, const double *x,
                double gamma, int m) {
  const int lsize = d * (d - 1) / 2;
  std::vector<T> qdiag(k * d), sumq(k), diff(d), qdiff(d), beta(k);
  for (int c = 0; c < k; ++c) {
    sumq[c] = 0.0;
    for (int j = 0; j < d; ++j) {
      sumq[c] += q[c * d + j];
      qdiag[c * d + j] = exp(q[c * d + j]);
    }
  }
  T total = 0.0;
  for (int i = 0; i < n; ++i) {
    const double *xi = x + i * d;
    for (int c = 0; c < k; ++c) {
      const T *mc = mu + c * d;
      const T *lc = l + c * lsize;
      for (int j = 0; j < d; ++j) {
        diff[j] = xi[j] - mc[j];
        qdiff[j] = qdiag[c * d + j] * diff[j];
      }
      int li = 0;
      for (int col = 0; col < d; ++col)
        for (int row = col + 1; row < d; ++row) qdiff[row] += lc[li++] * diff[col];
      T sq = 0.0;
      for (int j = 0; j < d; ++j) sq += qdiff[j] * qdiff[j];
      beta[c] = alpha[c] + sumq[c] - 0.5 * sq;
    }
    total += lse(beta.data(), k);
  }
  T result = total - n * lse(alpha, k);
  for (int c = 0; c < k; ++c) {
    T frob = 0.0;
    for (int j = 0; j < d; ++j) frob += qdiag[c * d + j] * qdiag[c * d + j];
    for (int j = 0; j < lsize; ++j) frob += l[c * lsize + j] * l[c * lsize + j];
    result += m * sumq[c] - 0.5 * gamma * gamma * frob;
  }
  return result;
}

// The constant terms of the gmm objective: -n d/2 log(2 pi) + k (nw d log(gamma/sqrt 2) - log
// Gamma_d(nw/2)), nw = d + m + 1.
inline double gmm_constant(int d, int k, int n, double gamma, int m) {
  const double pi = 3.14159265358979323846;
  const int nw = d + m + 1;
  double lmgamma = d * (d - 1) / 4.0 * std::log(pi);
  for (int j = 1; j <= d; ++j) lmgamma += std::lgamma(0.5 * nw + 0.5 * (1 - j));
  return -n * 0.5 * d * std::log(2 * pi) + k * (nw * d * std::log(gamma / std::sqrt(2.0)) - lmgamma);
}

// ba: the reprojection error of one observation. cam: 11 values (Rodrigues rotation 3, centre
// 3, focal length 1, principal point 2, radial distortion 2); X: the point (3); w: the
// observation's weight; feat: the observed feature (2); err: w (projection - feat).
template <class T> void ba_project(const T *cam, const T *X, const T *w, const double *feat, T *err) {
  const T *rot = cam;
  const T *centre = cam + 3;
  T pt[3], p[3];
  for (int i = 0; i < 3; ++i) pt[i] = X[i] - centre[i];
  const T sqtheta = rot[0] * rot[0] + rot[1] * rot[1] + rot[2] * rot[2];
  if (sqtheta != 0.0) {
    const T theta = sqrt(sqtheta);
    const T costheta = cos(theta);
    const T sintheta = sin(theta);
    const T inv = 1.0 / theta;
    const T u[3] = {rot[0] * inv, rot[1] * inv, rot[2] * inv};
    const T ucross[3] = {u[1] * pt[2] - u[2] * pt[1], u[2] * pt[0] - u[0] * pt[2], u[0] * pt[1] - u[1] * pt[0]};
    const T tmp = (u[0] * pt[0] + u[1] * pt[1] + u[2] * pt[2]) * (1.0 - costheta);
    for (int i = 0; i < 3; ++i) p[i] = pt[i] * costheta + ucross[i] * sintheta + u[i] * tmp;
  } else {
    p[0] = pt[0] + rot[1] * pt[2] - rot[2] * pt[1];
    p[1] = pt[1] + rot[2] * pt[0] - rot[0] * pt[2];
    p[2] = pt[2] + rot[0] * pt[1] - rot[1] * pt[0];
  }
  const T px = p[0] / p[2];
  const T py = p[1] / p[2];
  const T rsq = px * px + py * py;
  const T distortion = 1.0 + cam[9] * rsq + cam[10] * rsq * rsq;
  err[0] = w[0] * (cam[6] * distortion * px + cam[7] - feat[0]);
  err[1] = w[0] * (cam[6] * distortion * py + cam[8] - feat[1]);
}

// lstm: ADBench's LSTM (diagonal weight matrices), the negative mean log-likelihood of the next
// character along the sequence. main: for each of the l layers one row of 4b weights then one
// of 4b biases (forget, input gate, output gate, change); extra: input weight, output weight,
// output bias (b each); state0: for each layer the hidden then the cell state (b each), copied;
// sequence: c rows of b. ADBench's log-sum-exp has no maximum subtracted and adds 2.
template <class T> T sigmoid(T x) { return 1.0 / (1.0 + exp(-x)); }

template <class T> void lstm_cell(int b, const T *weight, const T *bias, T *hidden, T *cell, const T *input) {
  for (int i = 0; i < b; ++i) {
    const T forget = sigmoid(input[i] * weight[i] + bias[i]);
    const T ingate = sigmoid(hidden[i] * weight[b + i] + bias[b + i]);
    const T outgate = sigmoid(input[i] * weight[2 * b + i] + bias[2 * b + i]);
    const T change = tanh(hidden[i] * weight[3 * b + i] + bias[3 * b + i]);
    cell[i] = cell[i] * forget + ingate * change;
    hidden[i] = outgate * tanh(cell[i]);
  }
}

template <class T>
T lstm_objective(int l, int c, int b, const T *main, const T *extra, const double *state0, const double *sequence) {
  std::vector<T> state(2 * l * b), ypred(b);
  for (int i = 0; i < 2 * l * b; ++i) state[i] = state0[i];
  T total = 0.0;
  int count = 0;
  for (int t = 0; t + 1 < c; ++t) {
    const double *x = sequence + t * b;
    for (int i = 0; i < b; ++i) ypred[i] = x[i] * extra[i];
    for (int layer = 0; layer < l; ++layer) {
      const T *weight = main + 8 * b * layer;
      T *hidden = &state[2 * b * layer];
      // The first layer reads the scaled input, the others the hidden state below.
      if (layer == 0) lstm_cell(b, weight, weight + 4 * b, hidden, hidden + b, ypred.data());
      else lstm_cell(b, weight, weight + 4 * b, hidden, hidden + b, hidden - 2 * b);
    }
    const T *top = &state[2 * b * (l - 1)];
    for (int i = 0; i < b; ++i) ypred[i] = top[i] * extra[b + i] + extra[2 * b + i];
    T sum = 0.0;
    for (int i = 0; i < b; ++i) sum += exp(ypred[i]);
    const T lse = log(sum + 2.0);
    const double *gold = sequence + (t + 1) * b;
    for (int i = 0; i < b; ++i) total += gold[i] * (ypred[i] - lse);
    count += b;
  }
  return -total / count;
}

} // namespace gb
