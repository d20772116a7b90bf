// Hand-written adjoints (derived by us from the definitions in workloads.h). Each overwrites g
// with the gradient and returns the primal value.
#include "tools.h"

#include <cmath>
#include <vector>

double hand_lse_grad(const double *x, int n, double *g) {
  double a = x[0];
  for (int i = 1; i < n; ++i)
    if (x[i] > a) a = x[i];
  double s = 0.0;
  for (int i = 0; i < n; ++i) {
    g[i] = std::exp(x[i] - a);
    s += g[i];
  }
  const double inv = 1.0 / s;
  for (int i = 0; i < n; ++i) g[i] *= inv;
  return a + std::log(s);
}

// y = 1/2 sum_i r_i^2, r_i = s_i - sum_j x_j t_i^j, so dy/dx_j = -sum_i r_i t_i^j.
double hand_llsq_grad(const double *x, int m, int n, double *g) {
  for (int j = 0; j < m; ++j) g[j] = 0.0;
  double sum = 0.0;
  for (int i = 0; i < n; ++i) {
    const double t = -1.0 + i * 2.0 / (n - 1);
    const double s = t > 0 ? 1.0 : (t < 0 ? -1.0 : 0.0);
    double r = s, power = 1.0;
    for (int j = 0; j < m; ++j) {
      r -= x[j] * power;
      power *= t;
    }
    sum += r * r;
    power = 1.0;
    for (int j = 0; j < m; ++j) {
      g[j] -= r * power;
      power *= t;
    }
  }
  return 0.5 * sum;
}

// Each point contributes 2 (C_j - P_i) to its nearest centroid j (the first one on ties, as the
// primal's strict comparison picks).
double hand_kmeans_grad(const double *points, const double *centroids, int n, int k, int d, double *g) {
  for (int i = 0; i < k * d; ++i) g[i] = 0.0;
  double cost = 0.0;
  for (int i = 0; i < n; ++i) {
    const double *p = points + i * d;
    double closest = 0.0;
    int best = 0;
    for (int j = 0; j < k; ++j) {
      const double *c = centroids + j * d;
      double dist = 0.0;
      for (int l = 0; l < d; ++l) dist += (c[l] - p[l]) * (c[l] - p[l]);
      if (j == 0 || dist < closest) {
        closest = dist;
        best = j;
      }
    }
    cost += closest;
    for (int l = 0; l < d; ++l) g[best * d + l] += 2.0 * (centroids[best * d + l] - p[l]);
  }
  return cost;
}

// gmm (workloads.h's gmm_objective). With w_ic = softmax_c(beta_i.) the weight of component c
// for point i, Qd = Q_c (x_i - mu_c) and beta_ic = alpha_c + sum_j q_cj - |Qd|^2 / 2:
//   d/dalpha_c = sum_i w_ic - n softmax(alpha)_c
//   d/dq_cj    = sum_i w_ic (1 - Qd_j exp(q_cj) (x_ij - mu_cj)) + m - gamma^2 exp(2 q_cj)
//   d/dL_rc    = -sum_i w_ic Qd_r (x_ic - mu_cc')  (row r > column c' of Q_c)     - gamma^2 L_rc
//   d/dmu_c    =  sum_i w_ic Q_c^T Qd
// g holds alpha (k), mu (k d), q (k d), l (k d(d-1)/2).
double hand_gmm_grad(int d, int k, int n, const double *alpha, const double *mu, const double *q, const double *l,
                     const double *x, double gamma, int m, double *g) {
  const int ls = d * (d - 1) / 2;
  double *ga = g, *gmu = g + k, *gq = gmu + k * d, *gl = gq + k * d;
  for (int i = 0; i < k + 2 * k * d + k * ls; ++i) g[i] = 0.0;
  std::vector<double> qdiag(k * d), sumq(k), diff(k * d), qd(k * d), beta(k);
  for (int c = 0; c < k; ++c) {
    sumq[c] = 0.0;
    for (int j = 0; j < d; ++j) {
      sumq[c] += q[c * d + j];
      qdiag[c * d + j] = std::exp(q[c * d + j]);
    }
  }
  double total = 0.0;
  for (int i = 0; i < n; ++i) {
    const double *xi = x + i * d;
    for (int c = 0; c < k; ++c) {
      const double *lc = l + c * ls;
      double *df = &diff[c * d], *qc = &qd[c * d];
      for (int j = 0; j < d; ++j) {
        df[j] = xi[j] - mu[c * d + j];
        qc[j] = qdiag[c * d + j] * df[j];
      }
      int li = 0;
      for (int col = 0; col < d; ++col)
        for (int row = col + 1; row < d; ++row) qc[row] += lc[li++] * df[col];
      double sq = 0.0;
      for (int j = 0; j < d; ++j) sq += qc[j] * qc[j];
      beta[c] = alpha[c] + sumq[c] - 0.5 * sq;
    }
    double top = beta[0];
    for (int c = 1; c < k; ++c)
      if (beta[c] > top) top = beta[c];
    double s = 0.0;
    for (int c = 0; c < k; ++c) s += std::exp(beta[c] - top);
    total += top + std::log(s);
    for (int c = 0; c < k; ++c) {
      const double w = std::exp(beta[c] - top) / s;
      const double *lc = l + c * ls, *df = &diff[c * d], *qc = &qd[c * d];
      ga[c] += w;
      for (int j = 0; j < d; ++j) {
        gq[c * d + j] += w * (1.0 - qc[j] * qdiag[c * d + j] * df[j]);
        gmu[c * d + j] += w * qdiag[c * d + j] * qc[j];
      }
      int li = 0;
      for (int col = 0; col < d; ++col)
        for (int row = col + 1; row < d; ++row, ++li) {
          gl[c * ls + li] -= w * qc[row] * df[col];
          gmu[c * d + col] += w * lc[li] * qc[row];
        }
    }
  }
  double top = alpha[0];
  for (int c = 1; c < k; ++c)
    if (alpha[c] > top) top = alpha[c];
  double s = 0.0;
  for (int c = 0; c < k; ++c) s += std::exp(alpha[c] - top);
  for (int c = 0; c < k; ++c) ga[c] -= n * std::exp(alpha[c] - top) / s;
  double result = total - n * (top + std::log(s));
  for (int c = 0; c < k; ++c) {
    double frob = 0.0;
    for (int j = 0; j < d; ++j) {
      const double e = qdiag[c * d + j];
      frob += e * e;
      gq[c * d + j] += m - gamma * gamma * e * e;
    }
    for (int j = 0; j < ls; ++j) {
      frob += l[c * ls + j] * l[c * ls + j];
      gl[c * ls + j] -= gamma * gamma * l[c * ls + j];
    }
    result += m * sumq[c] - 0.5 * gamma * gamma * frob;
  }
  return result;
}

// lstm (workloads.h's lstm_objective). The forward sweep keeps, per step t and layer, the cell's
// input, its old hidden and cell state, the four gates (forget f, input i, output o, change g)
// and tanh of the new cell state; the reverse sweep runs t and the layers backwards with the
// adjoints dh, dc of each layer's hidden and cell state:
//   h' = o tanh(c'):           do = dh tanh(c'),  dc' = dc + dh o (1 - tanh(c')^2)
//   c' = c f + i g:            dc_old = dc' f, df = dc' c, di = dc' g, dg = dc' i
//   f = s(in wf + bf), i = s(h wi + bi), o = s(in wo + bo), g = tanh(h wg + bg), s' = s (1 - s)
// and the output y = top wout + bout with objective -1/count sum gold (y - log(sum exp y + 2)):
//   dy = -1/count (gold - (sum gold) exp(y) / (sum exp y + 2)).
// g: main (l x 8b: per layer 4b weights, 4b biases) then extra (3b), overwritten.
double hand_lstm_grad(int l, int c, int b, const double *main, const double *extra, const double *state0,
                      const double *sequence, double *g) {
  enum { In, HOld, COld, F, I, O, G, TanhC, Saved };
  const int steps = c - 1;
  std::vector<double> state(state0, state0 + 2 * l * b), tape(size_t(steps) * l * Saved * b), y(b);
  auto saved = [&](int t, int layer, int what) { return &tape[((size_t(t) * l + layer) * Saved + what) * b]; };
  auto sigmoid = [](double v) { return 1.0 / (1.0 + std::exp(-v)); };
  double total = 0.0;
  for (int t = 0; t < steps; ++t) {
    const double *x = sequence + t * b;
    for (int layer = 0; layer < l; ++layer) {
      const double *w = main + 8 * b * layer, *bias = w + 4 * b;
      double *h = &state[2 * b * layer], *cell = h + b;
      for (int i = 0; i < b; ++i) {
        const double in = layer == 0 ? x[i] * extra[i] : state[2 * b * (layer - 1) + i];
        const double f = sigmoid(in * w[i] + bias[i]), ig = sigmoid(h[i] * w[b + i] + bias[b + i]);
        const double o = sigmoid(in * w[2 * b + i] + bias[2 * b + i]), ch = std::tanh(h[i] * w[3 * b + i] + bias[3 * b + i]);
        const double cnew = cell[i] * f + ig * ch, tc = std::tanh(cnew);
        const double keep[Saved] = {in, h[i], cell[i], f, ig, o, ch, tc};
        for (int k = 0; k < Saved; ++k) saved(t, layer, k)[i] = keep[k];
        cell[i] = cnew;
        h[i] = o * tc;
      }
    }
    const double *top = &state[2 * b * (l - 1)], *gold = sequence + (t + 1) * b;
    double sum = 0.0;
    for (int i = 0; i < b; ++i) sum += std::exp(y[i] = top[i] * extra[b + i] + extra[2 * b + i]);
    const double lse = std::log(sum + 2.0);
    for (int i = 0; i < b; ++i) total += gold[i] * (y[i] - lse);
  }
  const double count = double(steps) * b, scale = -1.0 / count;
  for (int i = 0; i < 8 * l * b + 3 * b; ++i) g[i] = 0.0;
  double *dextra = g + 8 * l * b;
  std::vector<double> dh(l * b, 0.0), dc(l * b, 0.0);
  for (int t = steps - 1; t >= 0; --t) {
    const double *gold = sequence + (t + 1) * b, *x = sequence + t * b;
    const double *o = saved(t, l - 1, O), *tc = saved(t, l - 1, TanhC);
    double sum = 0.0, goldSum = 0.0;
    for (int i = 0; i < b; ++i) {
      sum += std::exp(y[i] = o[i] * tc[i] * extra[b + i] + extra[2 * b + i]);
      goldSum += gold[i];
    }
    for (int i = 0; i < b; ++i) {
      const double dy = scale * (gold[i] - goldSum * std::exp(y[i]) / (sum + 2.0));
      dextra[b + i] += dy * o[i] * tc[i];
      dextra[2 * b + i] += dy;
      dh[(l - 1) * b + i] += dy * extra[b + i];
    }
    for (int layer = l - 1; layer >= 0; --layer) {
      const double *w = main + 8 * b * layer;
      double *dw = g + 8 * b * layer, *dbias = dw + 4 * b, *dhl = &dh[layer * b], *dcl = &dc[layer * b];
      const double *in = saved(t, layer, In), *hOld = saved(t, layer, HOld), *cOld = saved(t, layer, COld);
      const double *f = saved(t, layer, F), *ig = saved(t, layer, I), *og = saved(t, layer, O);
      const double *ch = saved(t, layer, G), *tcl = saved(t, layer, TanhC);
      for (int i = 0; i < b; ++i) {
        const double dcnew = dcl[i] + dhl[i] * og[i] * (1.0 - tcl[i] * tcl[i]);
        const double dF = dcnew * cOld[i] * f[i] * (1.0 - f[i]);
        const double dI = dcnew * ch[i] * ig[i] * (1.0 - ig[i]);
        const double dO = dhl[i] * tcl[i] * og[i] * (1.0 - og[i]);
        const double dG = dcnew * ig[i] * (1.0 - ch[i] * ch[i]);
        dw[i] += dF * in[i];
        dw[b + i] += dI * hOld[i];
        dw[2 * b + i] += dO * in[i];
        dw[3 * b + i] += dG * hOld[i];
        dbias[i] += dF;
        dbias[b + i] += dI;
        dbias[2 * b + i] += dO;
        dbias[3 * b + i] += dG;
        const double din = dF * w[i] + dO * w[2 * b + i];
        if (layer == 0) dextra[i] += din * x[i];
        else dh[(layer - 1) * b + i] += din;
        dhl[i] = dI * w[b + i] + dG * w[3 * b + i];
        dcl[i] = dcnew * f[i];
      }
    }
  }
  return -total / count;
}
