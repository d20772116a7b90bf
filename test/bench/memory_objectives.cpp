// Benchmark objectives of issue 11 (real C++ memory), written the way C++
// programmers write them: row pointers into flat arrays, small fixed-size
// local arrays as state, in-place accumulation, a recursion that modifies
// and restores the index arrays it is given, a state advanced in place in
// the output. `unfad -o` differentiates this file for the benchmark
// (memory_bench.cpp times f against f_grad).
#include <unfad/unfad.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

// A recurrent network whose hidden state is a fixed-size local array
// overwritten every step; squared error of a linear read-out against the
// next input.
UNFAD_GRADIENT double rnn_fixed_state(const double *W, const double *U, const double *b, const double *v,
                                      const double *x, int T) {
  constexpr int H = 8;
  double h[H] = {};
  double loss = 0.0;
  for (int t = 0; t + 1 < T; ++t) {
    double next[H];
    for (int i = 0; i < H; ++i) {
      double a = b[i] + U[i] * x[t];
      for (int j = 0; j < H; ++j) a += W[i * H + j] * h[j];
      next[i] = std::tanh(a);
    }
    double y = 0.0;
    for (int i = 0; i < H; ++i) {
      h[i] = next[i];
      y += v[i] * h[i];
    }
    const double e = y - x[t + 1];
    loss += e * e;
  }
  return loss;
}

static double squared_distance(const double *a, const double *b, int d) {
  double s = 0.0;
  for (int m = 0; m < d; ++m) {
    const double t = a[m] - b[m];
    s += t * t;
  }
  return s;
}

// The k-means cost: each point's squared distance to its nearest centroid.
UNFAD_GRADIENT double kmeans_cost(const double *points, const double *centroids, int n, int k, int d) {
  double cost = 0.0;
  for (int i = 0; i < n; ++i) {
    const double *p = &points[i * d];
    double closest = INFINITY;
    for (int j = 0; j < k; ++j) {
      const double *c = centroids + j * d;
      closest = std::fmin(closest, squared_distance(p, c, d));
    }
    cost += closest;
  }
  return cost;
}

// Negative log-likelihood of a diagonal Gaussian mixture: row pointers into
// the data and the parameters, each component's term accumulated in place.
UNFAD_GRADIENT double gmm_rows(const double *alpha, const double *mu, const double *q, const double *x, int n, int k,
                               int d) {
  std::vector<double> term(k);
  double total = 0.0;
  for (int i = 0; i < n; ++i) {
    const double *xi = x + i * d;
    for (int c = 0; c < k; ++c) {
      const double *mc = &mu[c * d];
      const double *qc = q + c * d;
      term[c] = alpha[c];
      for (int j = 0; j < d; ++j) {
        const double z = std::exp(qc[j]) * (xi[j] - mc[j]);
        term[c] += qc[j] - 0.5 * z * z;
      }
    }
    double top = term[0];
    for (int c = 1; c < k; ++c) top = std::fmax(top, term[c]);
    double s = 0.0;
    for (int c = 0; c < k; ++c) s += std::exp(term[c] - top);
    total += top + std::log(s);
  }
  return -total;
}

// The determinant by expansion along the first row of each minor. The
// minor is described without copying: `rows[k]` is the row following row k
// in it (rows[n] the first), `cols` likewise; a column is unlinked for each
// sub-minor and linked back after, the first row restored before return.
static double expand_minor(const double *a, std::size_t n, std::size_t size, std::vector<std::size_t> &rows,
                           std::vector<std::size_t> &cols) {
  const std::size_t top = rows[n];
  std::size_t col = cols[n];
  if (size == 1) return a[top * n + col];
  rows[n] = rows[top];
  double sum = 0.0;
  double sign = 1.0;
  std::size_t before = n;
  for (std::size_t j = 0; j < size; ++j) {
    const double entry = a[top * n + col];
    cols[before] = cols[col];
    sum += sign * entry * expand_minor(a, n, size - 1, rows, cols);
    cols[before] = col;
    before = col;
    col = cols[col];
    sign = -sign;
  }
  rows[n] = top;
  return sum;
}

UNFAD_GRADIENT double det_by_minors(const double *a, std::size_t n) {
  std::vector<std::size_t> rows(n + 1), cols(n + 1);
  for (std::size_t k = 0; k <= n; ++k) {
    rows[k] = (k + 1) % (n + 1);
    cols[k] = (k + 1) % (n + 1);
  }
  return expand_minor(a, n, n, rows, cols);
}

// A chain of coupled linear ODEs integrated with the midpoint rule; the
// state lives in the output and is advanced in place every step.
static void chain_rhs(std::size_t n, const double *c, const double *y, double *dy) {
  dy[0] = c[0];
  for (std::size_t i = 1; i < n; ++i) dy[i] = c[i] * y[i - 1];
}

UNFAD_GRADIENT void ode_in_place(const double *c, std::size_t n, std::size_t steps, double *y) {
  const double h = 2.0 / static_cast<double>(steps);
  std::vector<double> k1(n), k2(n), mid(n);
  std::fill(y, y + n, 0.0);
  for (std::size_t s = 0; s < steps; ++s) {
    chain_rhs(n, c, y, k1.data());
    for (std::size_t i = 0; i < n; ++i) mid[i] = y[i] + 0.5 * h * k1[i];
    chain_rhs(n, c, mid.data(), k2.data());
    for (std::size_t i = 0; i < n; ++i) y[i] += h * k2[i];
  }
}

// A two-layer LSTM over a sequence (GradBench's lstm shape, b = 4 hidden
// units): per-layer weight and bias views into one flat parameter array as
// structs of pointers, the state as `double*` views into one local buffer
// that a helper taking the structs updates in place; log-sum-exp loss.
struct LstmGates {
  const double *forget, *input, *output, *change;
};
struct LstmLayer {
  LstmGates weight, bias;
};
struct LstmState {
  double *hidden, *cell;
};

static double lstm_sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

static void lstm_step(int b, const LstmLayer &p, LstmState s, const double *in) {
  for (int i = 0; i < b; ++i) {
    const double forget = lstm_sigmoid(in[i] * p.weight.forget[i] + p.bias.forget[i]);
    const double input = lstm_sigmoid(s.hidden[i] * p.weight.input[i] + p.bias.input[i]);
    const double output = lstm_sigmoid(in[i] * p.weight.output[i] + p.bias.output[i]);
    const double change = std::tanh(s.hidden[i] * p.weight.change[i] + p.bias.change[i]);
    s.cell[i] = s.cell[i] * forget + input * change;
    s.hidden[i] = output * std::tanh(s.cell[i]);
  }
}

UNFAD_GRADIENT double lstm_views(const double *main, const double *extra, const double *state0, const double *seq,
                                 int c) {
  const int b = 4;
  LstmLayer params[2];
  for (int l = 0; l < 2; ++l) {
    const double *w = main + 8 * b * l;
    params[l] = LstmLayer{{w, w + b, w + 2 * b, w + 3 * b}, {w + 4 * b, w + 5 * b, w + 6 * b, w + 7 * b}};
  }
  double state[16];
  for (int k = 0; k < 16; ++k) state[k] = state0[k];
  LstmState st[2];
  for (int l = 0; l < 2; ++l) st[l] = LstmState{state + 2 * b * l, state + 2 * b * l + b};
  double ypred[b];
  double total = 0.0;
  for (int t = 0; t + 1 < c; ++t) {
    const double *x = seq + t * b;
    for (int i = 0; i < b; ++i) ypred[i] = x[i] * extra[i];
    lstm_step(b, params[0], st[0], ypred);
    lstm_step(b, params[1], st[1], st[0].hidden);
    double sum = 0.0;
    for (int i = 0; i < b; ++i) {
      ypred[i] = st[1].hidden[i] * extra[b + i] + extra[2 * b + i];
      sum += std::exp(ypred[i]);
    }
    const double lse = std::log(sum + 2.0);
    const double *gold = seq + (t + 1) * b;
    for (int i = 0; i < b; ++i) total += gold[i] * (ypred[i] - lse);
  }
  return -total / ((c - 1) * b);
}

// A trajectory kept as a table of 3-vectors: each step fills its row from
// the input with an inner loop, then blends it in place with the previous
// row (the backward sweep recomputes the fill: it must not copy the table).
UNFAD_GRADIENT double trajectory_rows(const double *x, int n) {
  std::vector<std::vector<double>> pos(n, std::vector<double>(3));
  for (int t = 0; t < n; ++t) {
    for (int i = 0; i < 3; ++i) pos[t][i] = x[3 * t + i];
    if (t > 0)
      for (int i = 0; i < 3; ++i) pos[t][i] += 0.5 * std::sin(pos[t - 1][i]);
  }
  double s = 0.0;
  for (int t = 0; t < n; ++t)
    for (int i = 0; i < 3; ++i) s += pos[t][i] * pos[t][i];
  return s;
}

// A multilayer perceptron written with std::vector: the activations `cur`
// take each layer's width (`cur = next;`), the weights are read in order.
// Its gradient/primal must not grow with the depth.
UNFAD_GRADIENT_WRT(w, x)
double mlp_layers(const std::vector<double> &w, const std::vector<int> &widths, const std::vector<double> &x) {
  std::vector<double> cur(x);
  std::size_t off = 0;
  for (std::size_t l = 0; l + 1 < widths.size(); ++l) {
    std::vector<double> next(widths[l + 1]);
    for (int o = 0; o < widths[l + 1]; ++o) {
      double s = w[off++];
      for (std::size_t i = 0; i < cur.size(); ++i) s += w[off++] * cur[i];
      next[o] = std::tanh(s);
    }
    cur = next;
  }
  double r = 0.0;
  for (double v : cur) r += v * v;
  return r;
}

// The same network keeping every layer's activations, rows of the layers'
// widths (`acts.push_back(next)`), and a loss reading all of them.
UNFAD_GRADIENT_WRT(w, x)
double mlp_kept_activations(const std::vector<double> &w, const std::vector<int> &widths,
                            const std::vector<double> &x) {
  std::vector<std::vector<double>> acts;
  acts.push_back(x);
  std::size_t off = 0;
  for (std::size_t l = 0; l + 1 < widths.size(); ++l) {
    std::vector<double> next(widths[l + 1]);
    for (int o = 0; o < widths[l + 1]; ++o) {
      double s = w[off++];
      for (std::size_t i = 0; i < acts[l].size(); ++i) s += w[off++] * acts[l][i];
      next[o] = std::tanh(s);
    }
    acts.push_back(next);
  }
  double r = 0.0;
  for (const auto &a : acts)
    for (double v : a) r += v * v;
  return r;
}
