// Local std::vectors resized at run time: resize(n), resize(n, value),
// assign(n, value), clear() and refilling a buffer reused across outer
// iterations, pop_back; a new[] buffer allocated in a loop body.
#include <unfad/unfad.h>

#include <cmath>
#include <numeric>
#include <vector>

// one scratch buffer reused by every row: cleared, refilled, reduced
UNFAD_GRADIENT double reused_scratch(const double* a, int rows, int cols) {
  std::vector<double> row;
  double total = 0.0;
  for (int r = 0; r < rows; ++r) {
    row.clear();
    for (int c = 0; c < cols; ++c)
      if (a[r * cols + c] > -1.0) row.push_back(std::tanh(a[r * cols + c]) * a[r * cols]);
    double m = 0.0;
    for (double v : row) m += v * v;
    total += m / double(row.size() + 1) + (row.empty() ? 0.0 : row.back());
  }
  return total;
}

// resize then fill by index; resize with a value; assign
UNFAD_GRADIENT double resized(const std::vector<double>& x, int n) {
  std::vector<double> v;
  v.resize(n);
  for (int i = 0; i < n; ++i) v[i] = x[i] * x[(i + 1) % n];
  v.resize(n + 2, x[0]);
  double s = 0.0;
  for (std::size_t i = 0; i < v.size(); ++i) s += double(i + 1) * v[i];
  v.assign(3, x[1] * 0.5);
  v[1] += x[2];
  v.push_back(x[0] * x[1]);
  for (double e : v) s += e * e;
  return s;
}

// a stack: pushes and pops, the top read back
UNFAD_GRADIENT double stack_walk(const double* x, int n) {
  std::vector<double> st;
  double s = 0.0;
  for (int i = 0; i < n; ++i) {
    st.push_back(x[i] * x[i]);
    if (st.size() >= 2 && x[i] < 0.5) {
      const double top = st.back();
      st.pop_back();
      st.back() += 0.5 * top;
    }
  }
  for (std::size_t k = 0; k < st.size(); ++k) s += std::sin(st[k]) * double(k + 1);
  return s;
}

// a vector declared in the loop body with a run-time size, then grown
UNFAD_GRADIENT double inner_resize(const double* x, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) {
    std::vector<double> w(2, x[i]);
    w.resize(n);
    for (int j = 2; j < n; ++j) w[j] = w[j - 1] * x[j] + w[j - 2];
    w.push_back(x[0]);
    s += std::accumulate(w.begin(), w.end(), 0.0) * x[i];
  }
  return s;
}

// new[] / delete[] of a scratch buffer in a loop body
UNFAD_GRADIENT double heap_scratch(const double* x, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) {
    double* buf = new double[n]();
    for (int j = 0; j <= i; ++j) buf[j] = x[j] * x[i];
    for (int j = 0; j < n; ++j) s += buf[j] * buf[j];
    delete[] buf;
  }
  return s;
}

static double sum_of_squares(const std::vector<double>& v) {
  double s = 0.0;
  for (double e : v) s += e * e;
  return s;
}

// a while loop refilling a cleared vector, passed to a helper each time
UNFAD_GRADIENT double while_refill(const double* x, int n) {
  std::vector<double> above;
  double s = 0.0;
  int k = 0;
  while (k < n) {
    above.clear();
    for (int i = 0; i < n; ++i)
      if (x[i] > x[k]) above.push_back(x[i] - x[k]);
    s += sum_of_squares(above) * x[k];
    ++k;
  }
  return s;
}

/* e2e
[{"function": "reused_scratch",
  "points": [[[0.3, -1.2, 0.8, 2.0, 0.1, -0.7], 2, 3], [[1.5, 0.25, -0.4, 0.9, -2.0, 0.2, 0.6, 1.1], 2, 4]]},
 {"function": "resized",
  "points": [[[0.3, -1.2, 0.8, 2.0], 4], [[1.5, 0.25, -0.5], 3]]},
 {"function": "stack_walk",
  "points": [[[0.3, -1.2, 0.8, 2.0, 0.1], 5], [[1.5, 0.25, 0.7, 0.4], 4]]},
 {"function": "inner_resize",
  "points": [[[0.3, -1.2, 0.8, 0.5], 4], [[0.5, 0.25, -0.5], 3]]},
 {"function": "while_refill",
  "points": [[[0.3, -1.2, 0.8, 2.0], 4], [[1.5, 0.25, -0.5], 3]]},
 {"function": "heap_scratch",
  "points": [[[0.3, -1.2, 0.8, 2.0], 4], [[1.5, 0.25, -0.5], 3]]}]
*/
