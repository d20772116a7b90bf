// A class owning a std::vector whose methods resize it after it is built, as
// ADBench's LightMatrix and most hand-written matrix classes do: a
// default-constructed local sized by the helper it is given to
// (`Mat tmp; mat_mult(a, b, &tmp);`), a matrix reused for a smaller and then
// a larger product, resized inside a loop body that makes it, and
// `resize(n, v)`, `assign(n, v)`, `clear()`, a copy and `size()` after a
// resize, a constructor body resizing twice. Each was refused before ("'resize' is only supported on a local
// std::vector ...").
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

class Mat {
 public:
  Mat() : nrows_(0), ncols_(0) {}
  Mat(int r, int c) : nrows_(r), ncols_(c), data_(r * c) {}
  void resize(int r, int c) {
    data_.resize(r * c);
    nrows_ = r;
    ncols_ = c;
  }
  void fill(double v) { data_.assign(nrows_ * ncols_, v); }
  void grow_with(int r, int c, double v) {
    data_.resize(r * c, v);
    nrows_ = r;
    ncols_ = c;
  }
  void clear() {
    data_.clear();
    nrows_ = 0;
    ncols_ = 0;
  }
  double& operator()(int i, int j) { return data_[j * nrows_ + i]; }
  const double& operator()(int i, int j) const { return data_[j * nrows_ + i]; }
  const double* get_col(int j) const { return &data_[j * nrows_]; }
  int size() const { return static_cast<int>(data_.size()); }
  int nrows_, ncols_;
  std::vector<double> data_;
};

static void mat_mult(const Mat& a, const Mat& b, Mat* pout) {
  Mat& out = *pout;
  out.resize(a.nrows_, b.ncols_);
  for (int i = 0; i < a.nrows_; i++)
    for (int k = 0; k < b.ncols_; k++) {
      out(i, k) = a(i, 0) * b(0, k);
      for (int j = 1; j < a.ncols_; j++) out(i, k) += a(i, j) * b(j, k);
    }
}

static void from(const double* x, int r, int c, Mat* m) {
  m->resize(r, c);
  for (int j = 0; j < c; j++)
    for (int i = 0; i < r; i++) (*m)(i, j) = std::sin(x[j * r + i]) + 0.5 * i;
}

static double sum_sq(const Mat& m) {
  double s = 0;
  for (int k = 0; k < m.size(); k++) s += m.data_[k] * m.data_[k];
  return s;
}

// Products into default-constructed locals, sized by the helper.
UNFAD_GRADIENT_WRT(x) double chained(const double* x, int n) {
  Mat a;
  from(x, n, n, &a);
  Mat b;
  mat_mult(a, a, &b);
  Mat c;
  mat_mult(b, a, &c);
  double s = 0;
  for (int i = 0; i < n; i++) s += c(i, i) * c(i, 0);
  return s;
}

// One matrix for a 3x3 product, then a 2x2 one (a shrink), then grown back
// to 3x3 (the new elements zero), read in between.
UNFAD_GRADIENT_WRT(x) double reused(const double* x) {
  Mat a, b, t;
  from(x, 3, 3, &a);
  from(x + 1, 2, 2, &b);
  mat_mult(a, a, &t);
  double s = sum_sq(t);
  mat_mult(b, b, &t);
  s += 0.5 * sum_sq(t) + t.size();
  t.resize(3, 3);
  for (int k = 0; k < 9; k++) s += t.data_[k] * x[k];
  return s;
}

// A product made and sized in each iteration of a loop.
UNFAD_GRADIENT_WRT(x) double looped(const double* x, int steps) {
  Mat a;
  from(x, 2, 2, &a);
  double s = 0;
  for (int k = 0; k < steps; k++) {
    Mat t;
    mat_mult(a, a, &t);
    a(0, 0) = t(0, 1) * 0.5 + std::cos(a(1, 1));
    Mat u(2, 2);
    mat_mult(t, a, &u);
    s += u(1, 0) * t(0, 0);
  }
  return s;
}

// resize(n, v), assign(n, v) with an active v, clear() then resized again,
// a copy of a resized matrix, a column pointer into it.
UNFAD_GRADIENT_WRT(x) double filled(const double* x) {
  Mat m;
  m.grow_with(2, 2, x[0]);
  m(1, 1) = x[1] * x[2];
  m.grow_with(3, 2, x[1] * x[1]);
  double s = sum_sq(m);
  Mat copy = m;
  m.fill(std::exp(x[2]));
  s += copy(2, 1) * m(0, 0);
  m.clear();
  m.resize(1, 2);
  m(0, 1) = x[0];
  const double* col = copy.get_col(1);
  s += m(0, 1) * col[1] + col[2] * m.size();
  return s;
}

// A 2x2 local (small: a fixed-size buffer where nothing resizes it) given
// to a product of another shape.
UNFAD_GRADIENT_WRT(x) double reshaped(const double* x) {
  Mat a(2, 3);
  for (int k = 0; k < 6; k++) a.data_[k] = x[k] * x[k];
  Mat out(2, 2);
  out(0, 0) = 1.0;
  Mat at;
  at.resize(3, 2);
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 3; j++) at(j, i) = a(i, j);
  mat_mult(a, at, &out);
  mat_mult(at, a, &out);
  return out(2, 2) + out(0, 1) * out.nrows_;
}

// A product buffer made in each iteration at a size the heap holds, then
// resized by the product to another shape (a buffer of an invariant size is
// otherwise allocated once before the loop and zeroed in each iteration).
UNFAD_GRADIENT_WRT(x) double rebuilt(const double* x, int n, int steps) {
  Mat a;
  from(x, n, n, &a);
  double s = 0;
  for (int k = 0; k < steps; k++) {
    Mat u(n + 1, n + 2);
    u(0, 0) = s;
    s += u(0, 0) * u.size();
    mat_mult(a, a, &u);
    s += u(n - 1, 0) * u(0, n - 1) + u.size();
    a(0, 1) = std::sin(u(1, 1));
  }
  return s;
}

// A product into a buffer made (or sized) before the loop, at the size the
// product gives it: in the loop, the resize keeps the size (f_grad checks
// that it does).
UNFAD_GRADIENT_WRT(x) double buffered(const double* x, int steps) {
  Mat a;
  from(x, 2, 2, &a);
  Mat buf(2, 2);
  Mat tmp;
  tmp.resize(2, 2);
  double s = 0;
  for (int k = 0; k < steps; k++) {
    mat_mult(a, a, &buf);
    mat_mult(buf, a, &tmp);
    s += tmp(0, 1) * buf(1, 0);
    a(1, 1) = std::sin(tmp(1, 1));
  }
  return s;
}

// A constructor body that sizes its vector and then pads it (refused
// before: "a second resize of a member in a constructor body").
class Padded {
 public:
  Padded(int n, double v) {
    n_ = n;
    data_.resize(n_);
    for (int i = 0; i < n_; i++) data_[i] = v * (i + 1);
    data_.resize(2 * n_, v * v);
  }
  double total() const {
    double s = 0;
    for (double d : data_) s += d * d;
    return s;
  }

 private:
  int n_;
  std::vector<double> data_;
};

UNFAD_GRADIENT_WRT(x) double padded(const double* x, int n) {
  Padded p(n, x[0]);
  Padded q(n + 1, x[1] * p.total());
  return q.total();
}

/* e2e
[{"function": "chained", "points": [[[0.5, -1.25, 2.0, 0.75, 0.1, -0.3, 0.9, 1.1, -0.6], 3], [[0.3, 0.2, -0.1, 0.4], 2]]},
 {"function": "reused", "points": [[[0.5, -1.25, 2.0, 0.75, 0.1, -0.3, 0.9, 1.1, -0.6, 0.2]]]},
 {"function": "looped", "points": [[[0.5, -1.25, 0.3, 0.75], 3], [[0.5, -1.25, 0.3, 0.75], 0]]},
 {"function": "filled", "points": [[[0.5, -1.25, 0.3]], [[1.5, 0.25, -0.7]]]},
 {"function": "reshaped", "points": [[[0.5, -1.25, 0.3, 0.75, 0.1, -0.3]]]},
 {"function": "rebuilt", "points": [[[0.5, -1.25, 0.3, 0.75, 0.1, -0.3, 0.9, 1.1, -0.6], 3, 3]]},
 {"function": "buffered", "points": [[[0.5, -1.25, 0.3, 0.75], 3], [[0.5, -1.25, 0.3, 0.75], 0]]},
 {"function": "padded", "points": [[[0.5, -0.4], 2], [[0.3, 0.2], 0]]}]
*/
