// An object of a class owning a std::vector chosen by `?:`: a const
// reference read after (`const Mat& m = first ? a : b;`), a copy then
// written (the chosen object keeps its values), a choice in each iteration
// of a loop, and two objects of different sizes (the chosen one's size is
// read at run time). Refused before ("this value of 'Mat' (a struct with
// pointer members) is not supported").
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

class Mat {
 public:
  Mat(int r, int c) : r_(r), c_(c), d_(r * c) {}
  double& operator()(int i, int j) { return d_[i * c_ + j]; }
  double operator()(int i, int j) const { return d_[i * c_ + j]; }
  int rows() const { return r_; }
  int size() const { return static_cast<int>(d_.size()); }

 private:
  int r_, c_;
  std::vector<double> d_;
};

static Mat filled(const double* x, int r, double p) {
  Mat m(r, r);
  for (int i = 0; i < r; ++i)
    for (int j = 0; j < r; ++j) m(i, j) = std::pow(x[(i * r + j) % 4], p) + 0.1 * i;
  return m;
}

UNFAD_GRADIENT double picked(const double* x, bool first) {
  const Mat a = filled(x, 2, 1.0), b = filled(x, 2, 2.0);
  const Mat& m = first ? a : b;
  return m(0, 1) * m(1, 0) + a(0, 0);
}

UNFAD_GRADIENT double copied(const double* x, int which) {
  Mat a = filled(x, 2, 1.0);
  Mat b = filled(x, 3, 2.0);
  Mat m = which > 0 ? a : b;
  m(0, 0) *= std::sin(x[1]);
  double s = 0;
  for (int i = 0; i < m.rows(); ++i) s += m(i, i) * m(0, i);
  return s + a(0, 0) * b(0, 0) + m.size();
}

UNFAD_GRADIENT double alternating(const double* x, int n) {
  const Mat a = filled(x, 2, 1.0), b = filled(x, 2, 3.0);
  double s = 0;
  for (int k = 0; k < n; ++k) {
    const Mat& m = k % 2 == 0 ? a : b;
    s += std::exp(0.1 * m(k % 2, 1)) * (k + 1);
  }
  return s;
}

/* e2e
[{"function": "picked", "points": [[[0.5, -1.25, 2.0, 0.75], true], [[0.5, -1.25, 2.0, 0.75], false]]},
 {"function": "copied", "points": [[[0.5, 1.25, 2.0, 0.75], 1], [[0.5, 1.25, 2.0, 0.75], 0]]},
 {"function": "alternating", "points": [[[0.5, 1.25, 2.0, 0.75], 3], [[0.5, 1.25, 2.0, 0.75], 0]]}]
*/
