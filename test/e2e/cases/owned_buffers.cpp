// Classes that own new[] memory through a pointer member, as matrix classes
// written before std::vector are (ADBench's LightMatrix, which GradBench's ht
// uses): a constructor allocating with 'new T[n]', a destructor freeing with
// 'delete[]' behind an ownership flag, a 'resize' that reallocates only when
// the element count changes, user-written copy constructor and copy
// assignment, accessors returning references into the buffer, methods taking
// or returning pointers into it, and helpers writing into a matrix given by
// pointer. Each was refused before ("type 'Grid<double>' is not supported: it
// has a user-defined copy, move or destructor").
#include <unfad/unfad.h>

#include <cmath>
#include <utility>
#include <vector>

template <typename T>
class Grid {
 public:
  Grid() : own_(true), nr_(0), nc_(0), buf_(nullptr) {}
  Grid(int nr, int nc) : own_(true), nr_(nr), nc_(nc) { buf_ = new T[nr * nc]; }
  Grid(const Grid<T>& other) : own_(true), nr_(0), nc_(0), buf_(nullptr) {
    reshape(other.nr_, other.nc_);
    for (int k = 0; k < count(); ++k) buf_[k] = other.buf_[k];
  }
  Grid<T>& operator=(const Grid<T>& other) {
    reshape(other.nr_, other.nc_);
    for (int k = 0; k < count(); ++k) buf_[k] = other.buf_[k];
    own_ = true;
    return *this;
  }
  ~Grid() {
    if (own_ && buf_ != nullptr) delete[] buf_;
  }

  int count() const { return nr_ * nc_; }
  int rows() const { return nr_; }
  int cols() const { return nc_; }
  void reshape(int nr, int nc) {
    if (nr_ * nc_ != nr * nc) {
      if (own_) delete[] buf_;
      if (nr * nc > 0)
        buf_ = new T[nr * nc];
      else
        buf_ = nullptr;
    }
    nr_ = nr;
    nc_ = nc;
  }
  T& operator()(int r, int c) { return buf_[c * nr_ + r]; }
  const T& operator()(int r, int c) const { return buf_[c * nr_ + r]; }
  const T* column(int c) const { return &((*this)(0, c)); }
  void fill(const T& v) {
    for (int k = 0; k < count(); ++k) buf_[k] = v;
  }
  void set_column(int c, const T* src) {
    for (int r = 0; r < nr_; ++r) (*this)(r, c) = src[r];
  }
  void identity() {
    for (int c = 0; c < nc_; ++c)
      for (int r = 0; r < nr_; ++r) (*this)(r, c) = r == c ? T(1) : T(0);
  }
  void scale_column(int c, const T& v) {
    for (int r = 0; r < nr_; ++r) (*this)(r, c) *= v;
  }
  void scale_row(int r, const T& v) {
    for (int c = 0; c < nc_; ++c) (*this)(r, c) *= v;
  }
  void add(const Grid<T>& other) {
    for (int k = 0; k < count(); ++k) buf_[k] += other.buf_[k];
  }
  void transpose_square() {
    for (int c = 0; c < nc_; ++c)
      for (int r = c + 1; r < nr_; ++r) {
        T t = (*this)(r, c);
        (*this)(r, c) = (*this)(c, r);
        (*this)(c, r) = t;
      }
  }

  bool own_;
  int nr_;
  int nc_;
  T* buf_;
};

template <typename T>
void product(const Grid<T>& a, const Grid<T>& b, Grid<T>* pout) {
  auto& out = *pout;
  out.reshape(a.nr_, b.nc_);
  for (int i = 0; i < a.nr_; ++i)
    for (int k = 0; k < b.nc_; ++k) {
      out(i, k) = a(i, 0) * b(0, k);
      for (int j = 1; j < a.nc_; ++j) out(i, k) += a(i, j) * b(j, k);
    }
}

// A rotation about an axis, identity near zero (an early return in a helper
// writing through a pointer).
template <typename T>
void axis_rotation(const T* w, Grid<T>* pR) {
  T norm = std::sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
  if (norm < 1e-4) {
    pR->identity();
    return;
  }
  T x = w[0] / norm, y = w[1] / norm, z = w[2] / norm;
  T s = std::sin(norm), c = std::cos(norm);
  auto& R = *pR;
  R(0, 0) = x * x + (1 - x * x) * c;
  R(0, 1) = x * y * (1 - c) - z * s;
  R(0, 2) = x * z * (1 - c) + y * s;
  R(1, 0) = x * y * (1 - c) + z * s;
  R(1, 1) = y * y + (1 - y * y) * c;
  R(1, 2) = y * z * (1 - c) - x * s;
  R(2, 0) = x * z * (1 - c) - y * s;
  R(2, 1) = z * y * (1 - c) + x * s;
  R(2, 2) = z * z + (1 - z * z) * c;
}

// 2-D rotation and scaling of n points, the product into a default-built
// matrix sized by the helper.
UNFAD_GRADIENT
double rotated(const double* x, int n) {
  Grid<double> R(2, 2);
  R(0, 0) = std::cos(x[0]);
  R(0, 1) = -std::sin(x[0]);
  R(1, 0) = std::sin(x[0]);
  R(1, 1) = std::cos(x[0]);
  R.scale_column(1, x[1]);
  Grid<double> P(2, n);
  for (int j = 0; j < n; j++) {
    P(0, j) = x[2 + 2 * j];
    P(1, j) = x[3 + 2 * j];
  }
  Grid<double> Q;
  product(R, P, &Q);
  double s = 0;
  for (int j = 0; j < n; j++) s += Q(0, j) * Q(1, j);
  return s;
}

// Rotate points (3 x n, columns read from x) by an axis-angle, scale,
// translate; the parameters are columns of a pose matrix filled from x.
UNFAD_GRADIENT
double posed(const double* x, int n) {
  Grid<double> pose;
  pose.reshape(3, 3);
  pose.fill(0.0);
  pose.set_column(0, &x[0]);
  pose.set_column(1, &x[3]);
  pose.set_column(2, &x[6]);
  Grid<double> R(3, 3);
  axis_rotation(pose.column(0), &R);
  for (int i = 0; i < 3; ++i) R.scale_column(i, pose(i, 1));
  Grid<double> pts(3, n);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < 3; ++i) pts(i, j) = x[9 + 3 * j + i];
  Grid<double> moved;
  product(R, pts, &moved);
  double s = 0;
  for (int j = 0; j < moved.cols(); ++j)
    for (int i = 0; i < moved.rows(); ++i) {
      double v = moved(i, j) + pose(i, 2);
      s += v * v * (1 + i);
    }
  return s;
}

// Copies: a copy-constructed and a copy-assigned matrix, then each changed;
// a matrix reused for a smaller and a larger product; a transpose in place
// and a mirrored row.
UNFAD_GRADIENT
double copied(const double* x) {
  Grid<double> A(2, 2);
  for (int k = 0; k < 4; ++k) A(k % 2, k / 2) = x[k];
  Grid<double> B = A;
  B.transpose_square();
  Grid<double> C;
  C = A;
  C.add(B);
  C.scale_row(0, -1.0);
  Grid<double> out;
  product(C, A, &out);
  double s = out(0, 0) * out(1, 1) - out(0, 1) * out(1, 0);
  Grid<double> v(2, 1);
  v(0, 0) = x[4];
  v(1, 0) = x[5];
  product(A, v, &out);
  s += std::sin(out(0, 0)) + out(1, 0) * out(1, 0) + A(0, 1) * B(0, 1);
  return s;
}

// The chain of a few joints: each joint's rotation times its parent's, the
// product written into a reused matrix and copied back.
UNFAD_GRADIENT
double chained(const double* w, int joints) {
  Grid<double> acc(3, 3);
  acc.identity();
  Grid<double> step(3, 3), tmp;
  for (int j = 0; j < joints; ++j) {
    axis_rotation(&w[3 * j], &step);
    product(acc, step, &tmp);
    acc = tmp;
  }
  double s = 0;
  for (int i = 0; i < 3; ++i) s += acc(i, 0) * (i + 1) + acc(0, i) * acc(i, 2);
  return s;
}

// A copy constructor of a class's own is what a copy runs (before, the
// members were copied as if it had none: a wrong value and gradient). This
// one folds the gain into the copied samples.
class Signal {
 public:
  Signal(int n, double gain) : v_(n), gain_(gain) {}
  Signal(const Signal& o) : v_(o.v_.size()), gain_(1.0) {
    for (size_t i = 0; i < v_.size(); ++i) v_[i] = o.v_[i] * o.gain_;
  }
  double& operator[](int i) { return v_[i]; }
  double at(int i) const { return gain_ * v_[i]; }
  std::vector<double> v_;
  double gain_;
};

UNFAD_GRADIENT
double folded(const double* x, int n) {
  Signal a(n, x[0]);
  for (int i = 0; i < n; ++i) a[i] = x[i + 1];
  Signal b = a;
  b[0] = b[0] * b[0];
  double s = 0;
  for (int i = 0; i < n; ++i) s += b.at(i) * a.at(i);
  return s;
}

// A buffer whose values nothing the result needs reads, filled by a helper
// that also changes a number member the result reads. The optimiser used to
// drop the constructor's allocation (the reads after it are dead) but keep
// the helper's stores (its result is used, its argument calls a helper): the
// gradient wrote past an empty buffer (found by the fuzzer).
class Counted {
 public:
  Counted(int n) : n_(n), fills_(0) { data_ = new double[n]; }
  ~Counted() { delete[] data_; }
  double* data_;
  int n_;
  int fills_;
};

static void fill_counted(Counted* c, double a) {
  for (int i = 0; i < c->n_; ++i) c->data_[i] = std::tanh(a * (i + 1));
  ++c->fills_;
}

template <typename T>
T weight(const T* b, int n) {
  T t = 1.0;
  for (int i = 0; i < n; ++i) t = t * b[i] + b[i];
  return t;
}

UNFAD_GRADIENT
double unread(const double* x, int n) {
  Counted c(n + 2);
  fill_counted(&c, std::atan(weight(x, n)));
  double unused = 0;  // (reads nothing keeps)
  for (int i = 0; i < c.n_; ++i) unused += c.data_[i];
  (void)unused;
  double s = 0;
  for (int i = 0; i < c.fills_ + 1; ++i) s += x[1] * i;
  return s * x[0] + weight(x + 1, 1);
}

// Value semantics written by hand, C++11 style: a move constructor and a
// move assignment stealing the other's buffer, assignments checking for
// self-assignment (`this != &o`), an operator returning a new matrix by
// value.
class Dense {
 public:
  Dense() : r_(0), c_(0), d_(nullptr) {}
  Dense(int r, int c) : r_(r), c_(c) { d_ = new double[r * c]; }
  Dense(const Dense& o) : r_(o.r_), c_(o.c_) {
    d_ = new double[r_ * c_];
    for (int k = 0; k < r_ * c_; ++k) d_[k] = o.d_[k];
  }
  Dense(Dense&& o) : r_(o.r_), c_(o.c_), d_(o.d_) {
    o.d_ = nullptr;
    o.r_ = 0;
    o.c_ = 0;
  }
  Dense& operator=(Dense&& o) {
    if (this != &o) {
      delete[] d_;
      d_ = o.d_;
      r_ = o.r_;
      c_ = o.c_;
      o.d_ = nullptr;
      o.r_ = 0;
      o.c_ = 0;
    }
    return *this;
  }
  Dense& operator=(const Dense& o) {
    if (this == &o) return *this;
    delete[] d_;
    r_ = o.r_;
    c_ = o.c_;
    d_ = new double[r_ * c_];
    for (int k = 0; k < r_ * c_; ++k) d_[k] = o.d_[k];
    return *this;
  }
  ~Dense() { delete[] d_; }
  double& operator()(int i, int j) { return d_[i * c_ + j]; }
  double operator()(int i, int j) const { return d_[i * c_ + j]; }
  int rows() const { return r_; }
  int r_, c_;
  double* d_;
};

Dense operator*(const Dense& a, const Dense& b) {
  Dense out(a.r_, b.c_);
  for (int i = 0; i < a.r_; ++i)
    for (int j = 0; j < b.c_; ++j) {
      double s = 0;
      for (int k = 0; k < a.c_; ++k) s += a(i, k) * b(k, j);
      out(i, j) = s;
    }
  return out;
}

UNFAD_GRADIENT
double moved(const double* x) {
  Dense a(2, 2);
  for (int k = 0; k < 4; ++k) a(k / 2, k % 2) = x[k];
  Dense b = a * a;
  b = a * b;
  Dense c;
  c = b;
  Dense d = std::move(c);
  double s = d(0, 0) + std::sin(d(1, 0)) * b(1, 1) + c.rows();
  Dense v(2, 1);
  v(0, 0) = x[4];
  v(1, 0) = x[5];
  d = d * v;
  return s + d(0, 0) * d(1, 0) + d.rows();
}

/* e2e
[{"function": "rotated", "points": [[[0.5, 1.25, 2.0, 0.75, 0.1, -0.3, 0.9, 1.1], 3], [[0.3, 0.2], 0]]},
 {"function": "posed", "points": [[[0.3, -0.2, 0.5, 1.1, 0.9, 1.2, 0.1, -0.4, 0.2, 0.5, -1.0, 0.3, 0.7, 0.2, -0.6], 2],
                                  [[0.7, 0.1, -0.3, 1.1, 0.9, 1.2, 0.1, -0.4, 0.2, 0.5, -1.0, 0.3], 1]]},
 {"function": "copied", "points": [[[0.5, -1.25, 2.0, 0.75, 0.1, -0.3]]]},
 {"function": "folded", "points": [[[1.5, 0.5, -1.25, 2.0], 3]],
  "expect": [{"at": [[1.5, 0.5, -1.25, 2.0], 3], "value": 12.9375,
              "grad": [[17.53125, 2.53125, -5.625, 9.0], 0], "tol": 1e-9}]},
 {"function": "unread", "points": [[[0.5, -1.25, 0.3, 0.2], 3]]},
 {"function": "moved", "points": [[[0.5, -1.25, 2.0, 0.75, 0.3, -0.6]]]},
 {"function": "chained", "points": [[[0.3, -0.2, 0.5, 0.1, 0.7, -0.4, -0.6, 0.2, 0.3], 3], [[0.3, -0.2, 0.5], 0]]}]
*/
