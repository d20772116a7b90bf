// Loop state whose next value depends on the index alone, made a function
// of the index before reverse mode (lib/parallel/index_state.cpp): a
// previous element (`prev = x[i]`) beside a running sum, a first-iteration
// flag, a pointer re-seated to each layer's hidden state in a time x layer
// nest with a log-sum-exp helper per step (GradBench's lstm shape), loops
// that run zero times (the state keeps its initial value), and a loop that
// writes doubles, where `prev = y[i]` must stay state (y changes).
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

UNFAD_GRADIENT double differences(const double* x, int lo, int n) {
  double s = 0.0;
  double prev = x[0];
  for (int i = lo; i < n; ++i) {
    const double d = x[i] - prev;
    s += d * d * std::cos(prev);
    prev = x[i];
  }
  return s + prev;
}

UNFAD_GRADIENT double first_flag(const double* x, int n) {
  bool first = true;
  int last = -1;
  double s = 0.0;
  for (int i = 0; i < n; ++i) {
    s += first ? std::exp(x[i]) : x[i] * x[last];
    first = false;
    last = i;
  }
  return last >= 0 ? s * x[last] : s;
}

static double logsumexp(const double* v, int n) {
  double sum = 0.0;
  for (int i = 0; i < n; ++i) sum += std::exp(v[i]);
  return std::log(sum + 2.0);
}

static void cell(int b, const double* w, double* state, const double* in) {
  for (int i = 0; i < b; ++i) {
    state[b + i] = state[b + i] * std::tanh(in[i] * w[i]) + 0.5 * state[i];
    state[i] = std::tanh(state[b + i]) * w[b + i];
  }
}

// state: 2b per layer (hidden, then cell); w: 2b per layer
UNFAD_GRADIENT double layers(int depth, int steps, int b, const double* w, const double* seq) {
  std::vector<double> state(2 * depth * b, 0.25), y(b);
  double total = 0.0;
  for (int t = 0; t < steps; ++t) {
    for (int i = 0; i < b; ++i) y[i] = seq[t * b + i] * w[i];
    double* out = y.data();
    for (int k = 0; k < depth; ++k) {
      cell(b, &w[2 * b * k], &state[2 * b * k], out);
      out = &state[2 * b * k];
    }
    for (int i = 0; i < b; ++i) y[i] = out[i] * seq[t * b + i];
    total += logsumexp(y.data(), b);
  }
  return total;
}

// the loop writes doubles: y[i] read as `prev` next iteration is the new one
UNFAD_GRADIENT double written(double* y, const double* x, int n) {
  double prev = 1.0;
  double s = 0.0;
  for (int i = 0; i < n; ++i) {
    y[i] = y[i] * prev + x[i];
    s += std::sin(y[i]) * prev;
    prev = y[i];
  }
  return s + prev;
}

/* e2e
[{"function": "differences",
  "points": [[[0.3, -0.5, 0.8, 1.1], 1, 4], [[0.3, -0.5, 0.8, 1.1], 0, 4], [[0.7, 0.2], 2, 2]]},
 {"function": "first_flag",
  "points": [[[0.3, -0.5, 0.8], 3], [[1.2], 1], [[0.4], 0]]},
 {"function": "layers",
  "points": [[2, 3, 2, [0.3, -0.5, 0.8, 0.1, -0.2, 0.7, 0.4, -0.9], [0.5, -1.0, 0.25, 0.6, -0.3, 0.9]],
             [1, 2, 3, [0.3, -0.5, 0.8, 0.1, -0.2, 0.7], [0.5, -1.0, 0.25, 0.6, -0.3, 0.9]],
             [3, 2, 1, [0.6, -0.4, 0.9, 0.3, -0.7, 0.5], [0.8, -0.6]],
             [0, 2, 2, [0.6, -0.4], [0.8, -0.6, 0.1, 0.2]]]},
 {"function": "written", "inouts": {"y": 3},
  "points": [[[0.3, -0.5, 0.8], [0.5, -1.0, 0.25], 3], [[0.9, 0.1, 0.2], [0.4, 0.3], 2]]}]
*/
