// Whole objects of a class owning a std::vector assigned, as C++ programmers
// write them: `c = m;` into an object of another size, `t = a * b;` from a
// returned object, `*out = m;` in a helper given the object by pointer,
// `m = m2` swapping roles in a loop body, `prev = next;` in a loop over an
// object made before it, and a class with its own
// operator= (resize, copy, return *this). Each was refused before
// ("assigning a whole object of 'Mat' ... is not supported").
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

class Mat {
 public:
  Mat() : rows_(0), cols_(0) {}
  Mat(int r, int c) : rows_(r), cols_(c), data_(r * c, 0.0) {}
  double& operator()(int i, int j) { return data_[i * cols_ + j]; }
  double operator()(int i, int j) const { return data_[i * cols_ + j]; }
  int rows() const { return rows_; }
  int cols() const { return cols_; }
  double scale = 1.0;

 private:
  int rows_, cols_;
  std::vector<double> data_;
};

static Mat product(const Mat& a, const Mat& b) {
  Mat out(a.rows(), b.cols());
  for (int i = 0; i < a.rows(); i++)
    for (int k = 0; k < b.cols(); k++) {
      double s = 0;
      for (int j = 0; j < a.cols(); j++) s += a(i, j) * b(j, k);
      out(i, k) = s * a.scale;
    }
  return out;
}

static double total(const Mat& m) {
  double s = 0;
  for (int i = 0; i < m.rows(); i++)
    for (int j = 0; j < m.cols(); j++) s += m(i, j) * (i + 2 * j + 1);
  return s * m.scale;
}

static void fill(const double* x, Mat* m) {
  for (int i = 0; i < m->rows(); i++)
    for (int j = 0; j < m->cols(); j++) (*m)(i, j) = std::sin(x[i * m->cols() + j]);
}

static void store(const Mat& from, Mat* out) { *out = from; }

// Assigned into objects of other sizes, from a local and from a product.
UNFAD_GRADIENT_WRT(x) double assigned(const double* x) {
  Mat a(2, 3), b(3, 2);
  fill(x, &a);
  fill(x + 1, &b);
  a.scale = x[2];
  Mat c(1, 1);
  c(0, 0) = 5.0;
  double s = total(c);
  c = a;
  s += total(c) * c.rows();
  Mat t;
  t = product(a, b);
  s += total(t);
  c = product(b, a);
  s += total(c) + c.scale;
  store(t, &c);
  return s + total(c) * c.cols();
}

// Roles swapped in a loop body: the loop's own objects.
UNFAD_GRADIENT_WRT(x) double stepped(const double* x, int steps) {
  Mat a(2, 2);
  fill(x, &a);
  double s = 0;
  for (int k = 0; k < steps; k++) {
    Mat next = product(a, a);
    Mat prev(2, 2);
    prev = a;
    prev(0, 0) += next(1, 1) * 0.25;
    next = prev;
    s += total(next);
    a(1, 0) = std::cos(next(0, 0));
  }
  return s;
}

// `prev = next;` in a loop, into an object made before it at that size.
UNFAD_GRADIENT_WRT(x) double relaxed(const double* x, int steps) {
  Mat a(2, 2), prev(2, 2);
  fill(x, &a);
  fill(x + 1, &prev);
  for (int k = 0; k < steps; k++) {
    Mat next = product(prev, a);
    next(0, 0) += 0.5 * std::sin(prev(1, 1));
    prev = next;
  }
  return total(prev);
}

// A class with its own operator=: lowered like any method.
class Buf {
 public:
  explicit Buf(int n) : n_(n), v_(n, 0.0) {}
  Buf& operator=(const Buf& o) {
    n_ = o.n_;
    v_.resize(o.n_);
    for (int i = 0; i < n_; i++) v_[i] = 2.0 * o.v_[i];
    return *this;
  }
  double& at(int i) { return v_[i]; }
  double sum() const {
    double s = 0;
    for (int i = 0; i < n_; i++) s += v_[i] * v_[i];
    return s;
  }

 private:
  int n_;
  std::vector<double> v_;
};

UNFAD_GRADIENT_WRT(x) double own_assign(const double* x) {
  Buf a(3), b(1);
  for (int i = 0; i < 3; i++) a.at(i) = x[i] * x[i];
  b.at(0) = x[0];
  double s = b.sum();
  b = a;
  return s + b.sum() + b.at(2) * x[1];
}

/* e2e
[{"function": "assigned", "points": [[[0.5, -1.25, 2.0, 0.75, 0.1, -0.3, 0.9]], [[1.5, 0.25, -0.5, 1.0, -0.7, 0.4, 0.3]]]},
 {"function": "stepped", "points": [[[0.5, -1.25, 2.0, 0.75], 3], [[0.5, -1.25, 2.0, 0.75], 0]]},
 {"function": "relaxed", "points": [[[0.5, -1.25, 0.3, 0.75, 0.1], 3], [[0.5, -1.25, 0.3, 0.75, 0.1], 0]]},
 {"function": "own_assign", "points": [[[0.5, -1.25, 2.0]], [[1.5, 0.25, -0.5]]]}]
*/
