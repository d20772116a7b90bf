// ADOL-C, a tape-based operator-overloading AD library, as a peer: the
// same objectives written over a template scalar, taped once, then
// differentiated with ADOL-C's gradient() driver (tape re-evaluation).
#include <adolc/adolc.h>

#include <cmath>
#include <vector>

namespace {

template <class T> T sum_of_squares(const T *x, int n) {
  T s = 0.0;
  for (int i = 0; i < n; ++i) s += x[i] * x[i];
  return s;
}

template <class T> T rosenbrock(const T *x, int n) {
  T s = 0.0;
  for (int i = 0; i + 1 < n; ++i) {
    T a = x[i + 1] - x[i] * x[i];
    T b = 1.0 - x[i];
    s += 100.0 * a * a + b * b;
  }
  return s;
}

template <class T> T log_sum_exp(const T *x, int n) {
  T m = x[0];
  for (int i = 1; i < n; ++i) m = fmax(m, x[i]);
  T s = 0.0;
  for (int i = 0; i < n; ++i) s += exp(x[i] - m);
  return m + log(s);
}

int nextTag = 1;

template <class F> int tape(F f, const std::vector<double> &x) {
  int tag = nextTag++;
  int n = int(x.size());
  trace_on(tag);
  std::vector<adouble> ax(n);
  for (int i = 0; i < n; ++i) ax[i] <<= x[i];
  adouble y = f(ax.data(), n);
  double out;
  y >>= out;
  trace_off();
  return tag;
}

} // namespace

// Tapes `which` (0 sum of squares, 1 Rosenbrock, 2 log-sum-exp) at x.
int adolc_tape(int which, const std::vector<double> &x) {
  switch (which) {
  case 0: return tape([](const adouble *a, int n) { return sum_of_squares(a, n); }, x);
  case 1: return tape([](const adouble *a, int n) { return rosenbrock(a, n); }, x);
  default: return tape([](const adouble *a, int n) { return log_sum_exp(a, n); }, x);
  }
}

void adolc_gradient(int tag, const std::vector<double> &x, std::vector<double> &g) {
  gradient(short(tag), int(x.size()), const_cast<double *>(x.data()), g.data());
}
