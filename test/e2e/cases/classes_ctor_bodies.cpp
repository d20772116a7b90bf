// Constructors of classes owning a std::vector written the older way: the
// body assigns the shape and sizes the storage after it (`rows_ = r; cols_
// = c; data_.resize(rows_ * cols_);`, `data_.assign(n_, v)`), fills it,
// calls a method that writes a member, and objects of the class are built in
// a loop and one after another (each construction's parameters its own).
// Refused before ("a method assigning a member of its object ... is not
// supported" at `rows_ = r`).
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

class Mat {
 public:
  Mat(int r, int c, double s) {
    rows_ = r;
    cols_ = c;
    scale_ = s * s;
    data_.resize(rows_ * cols_);
    for (int i = 0; i < rows_; ++i) data_[i * cols_ + i % cols_] = s;
    ++version_;
  }
  double& operator()(int i, int j) { return data_[i * cols_ + j]; }
  double operator()(int i, int j) const { return data_[i * cols_ + j]; }
  int rows() const { return rows_; }
  int cols() const { return cols_; }
  double scale() const { return scale_; }
  int version() const { return version_; }

 private:
  int rows_ = 0, cols_ = 0;
  double scale_ = 1.0;
  int version_ = 0;
  std::vector<double> data_;
};

class Ring {
 public:
  Ring(int n, double fill) {
    n_ = n;
    data_.assign(n_, fill);
    normalise();
  }
  void normalise() {
    double s = 0.0;
    for (int i = 0; i < n_; ++i) s += data_[i] * data_[i];
    norm_ = std::sqrt(s);
  }
  double norm() const { return norm_; }
  double& operator[](int i) { return data_[i % n_]; }
  int size() const { return n_; }

 private:
  int n_;
  double norm_ = 0.0;
  std::vector<double> data_;
};

UNFAD_GRADIENT double two_mats(const double* x, int n) {
  Mat a(n, 2, x[0]);
  Mat b(2, n, x[1]);
  double t = 0.0;
  for (int i = 0; i < a.rows(); ++i)
    for (int j = 0; j < a.cols(); ++j) t += a(i, j) * b(j, i) * a.scale() + std::sin(x[2] * (i + j)) * a(i, j);
  return t + b.scale() * a.version() + b.rows();
}

UNFAD_GRADIENT double rings(const double* x, int steps) {
  double t = 0.0;
  for (int k = 0; k < steps; ++k) {
    Ring r(k + 2, x[k % 2] + 0.5 * k);
    r[k] += x[2];
    t += r.norm() * r[0] + r.size();
    r.normalise();
    t += r.norm();
  }
  return t;
}

/* e2e
[{"function": "two_mats", "points": [[[0.7, -1.3, 0.4], 3], [[-0.5, 0.8, 1.2], 1]]},
 {"function": "rings", "points": [[[0.7, -1.3, 0.4], 3], [[-0.5, 0.8, 1.2], 0]]}]
*/
