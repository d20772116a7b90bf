// Loops carrying an integer counter that every iteration advances by the
// same constant (a position into packed storage, `li++`): the backward sweep
// computes the counter from the iteration instead of taping it
// (lib/ad/rev/induction.cpp). The shapes: gmm's packed lower triangle (the
// counter carried from column to column), a counter beside a float running
// sum in one state, a counter going down by 2 in a loop running down, a
// while loop stepping by 3, and counters that are not advanced by a
// constant (doubled, advanced conditionally: taped as before).
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

// sum_i |L x_i|^2 with L unit lower triangular, its strictly lower part
// packed column by column in l.
UNFAD_GRADIENT double packed(const double* l, const double* x, int n, int d) {
  std::vector<double> q(d), v(d);
  double total = 0.0;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < d; ++j) {
      v[j] = x[i * d + j];
      q[j] = v[j];
    }
    int li = 0;
    for (int col = 0; col < d; ++col)
      for (int row = col + 1; row < d; ++row) q[row] += l[li++] * v[col];
    for (int j = 0; j < d; ++j) total += std::sin(q[j]) * q[j];
  }
  return total;
}

// A counter and a float running sum in one loop state; the counter starts
// from the row.
UNFAD_GRADIENT double counter_and_sum(const double* w, const double* x, int n, int m) {
  double total = 0.0;
  for (int r = 0; r < m; ++r) {
    int p = r;
    double s = 0.0;
    for (int j = 0; j < n; ++j) {
      s += w[p] * std::tanh(x[j] + s);
      p++;
    }
    total += s * s;
  }
  return total;
}

// A counter going down by 2 in a loop running down.
UNFAD_GRADIENT double down_by_two(const double* w, const double* x, int n) {
  double total = 0.0;
  for (int rep = 0; rep < 2; ++rep) {
    int p = 2 * n - 1;
    double s = 0.5 * rep;
    for (int j = n - 1; j >= 0; --j) {
      s = s * std::cos(w[p] * x[j]) + x[j];
      p -= 2;
    }
    total += s;
  }
  return total;
}

// A while loop stepping by 3.
UNFAD_GRADIENT double stride_while(const double* x, int n) {
  double total = 0.0;
  for (int start = 0; start < 3; ++start) {
    int p = start;
    double s = 1.0;
    while (p < n) {
      s = s * x[p] + std::sin(s);
      p += 3;
    }
    total += s;
  }
  return total;
}

// Counters not advanced by a constant.
UNFAD_GRADIENT double not_affine(const double* w, const double* x, int n) {
  double total = 0.0;
  for (int rep = 0; rep < 2; ++rep) {
    int p = 0, q = rep;
    double s = 0.0;
    for (int j = 0; j < n; ++j) {
      s = s * std::cos(w[p % n]) + x[j] * w[q % n];
      p = 2 * p + 1;
      if (x[j] > 0) q++;
    }
    total += s * s;
  }
  return total;
}

/* e2e
[{"function": "packed",
  "points": [[[0.3, -0.2, 0.5, 0.1, -0.4, 0.25], [0.5, -0.25, 1.0, 0.75, 0.2, -1.0, 1.5, 0.25, -0.5, 0.1, 0.9, -0.3], 3, 4],
             [[0.7], [0.2, -0.4, 1.1, 0.6], 2, 2]]},
 {"function": "counter_and_sum",
  "points": [[[0.3, -0.2, 0.5, 0.1, -0.4, 0.25], [0.5, -0.25, 1.0, 0.75], 4, 3]]},
 {"function": "down_by_two",
  "points": [[[0.3, -0.2, 0.5, 0.1, -0.4, 0.25, 0.8, -0.6], [0.5, -0.25, 1.0, 0.75], 4]]},
 {"function": "stride_while",
  "points": [[[0.5, -0.25, 1.0, 0.75, 0.2, -1.0, 1.5, 0.25], 8]]},
 {"function": "not_affine",
  "points": [[[0.3, -0.2, 0.5, 0.1], [0.5, -0.25, 1.0, 0.75], 4]]}]
*/
