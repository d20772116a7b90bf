// std::vectors of objects that own arrays, as GradBench's ht keeps its bone
// transforms (`std::vector<LightMatrix<T>> relatives, absolutes`): a table
// sized at construction or by resize, each element a matrix sized by a
// helper writing into it by pointer (`product(a, b, &out[i])`), whole
// elements assigned, elements read through a reference local and a
// const reference parameter, and the same for a class holding a
// std::vector. Each was refused ("std::vectors of structs with std::vector
// members are not supported").
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

template <typename T>
class Mat {
 public:
  Mat() : own_(true), nr_(0), nc_(0), buf_(nullptr) {}
  Mat(int nr, int nc) : own_(true), nr_(nr), nc_(nc) { buf_ = new T[nr * nc]; }
  Mat(const Mat<T>& other) : own_(true), nr_(0), nc_(0), buf_(nullptr) {
    reshape(other.nr_, other.nc_);
    for (int k = 0; k < nr_ * nc_; ++k) buf_[k] = other.buf_[k];
  }
  Mat<T>& operator=(const Mat<T>& other) {
    reshape(other.nr_, other.nc_);
    for (int k = 0; k < nr_ * nc_; ++k) buf_[k] = other.buf_[k];
    return *this;
  }
  ~Mat() {
    if (own_ && buf_ != nullptr) delete[] buf_;
  }
  void reshape(int nr, int nc) {
    if (nr_ * nc_ != nr * nc) {
      if (own_) delete[] buf_;
      buf_ = nr * nc > 0 ? new T[nr * nc] : nullptr;
    }
    nr_ = nr;
    nc_ = nc;
  }
  T& operator()(int r, int c) { return buf_[c * nr_ + r]; }
  const T& operator()(int r, int c) const { return buf_[c * nr_ + r]; }
  int rows() const { return nr_; }
  int cols() const { return nc_; }

  bool own_;
  int nr_;
  int nc_;
  T* buf_;
};

template <typename T>
void product(const Mat<T>& a, const Mat<T>& b, Mat<T>* pout) {
  auto& out = *pout;
  out.reshape(a.nr_, b.nc_);
  for (int i = 0; i < a.nr_; ++i)
    for (int k = 0; k < b.nc_; ++k) {
      out(i, k) = a(i, 0) * b(0, k);
      for (int j = 1; j < a.nc_; ++j) out(i, k) += a(i, j) * b(j, k);
    }
}

// Each bone's transform composed with its parent's (parents before
// children), as ht's relatives_to_absolutes.
template <typename T>
void chain_to_absolutes(const std::vector<Mat<T>>& relatives, const int* parents, std::vector<Mat<T>>* pabsolutes) {
  auto& absolutes = *pabsolutes;
  absolutes.resize(relatives.size());
  for (size_t i = 0; i < relatives.size(); ++i) {
    if (parents[i] == -1)
      absolutes[i] = relatives[i];
    else
      product(absolutes[parents[i]], relatives[i], &absolutes[i]);
  }
}

// A 2-D skeleton: bone b turns by w[b] and scales by (1 + w[b] / 4); three
// points are skinned by two bones each, weighted.
UNFAD_GRADIENT
double bones(const double* w, const int* parents, int nb) {
  std::vector<Mat<double>> relatives(nb);
  for (int b = 0; b < nb; ++b) {
    Mat<double>& r = relatives[b];
    r.reshape(2, 2);
    const double s = 1 + w[b] / 4;
    r(0, 0) = s * std::cos(w[b]);
    r(0, 1) = -s * std::sin(w[b]);
    r(1, 0) = s * std::sin(w[b]);
    r(1, 1) = s * std::cos(w[b]);
  }
  std::vector<Mat<double>> absolutes;
  chain_to_absolutes(relatives, parents, &absolutes);
  const int nv = 3;
  Mat<double> base(2, nv);
  for (int v = 0; v < nv; ++v) {
    base(0, v) = 1.0 + v;
    base(1, v) = 0.5 - v;
  }
  Mat<double> cur(2, nv);
  double s = 0;
  for (int v = 0; v < nv; ++v) {
    const Mat<double>& A = absolutes[v % nb];
    const Mat<double>& B = absolutes[(v + 1) % nb];
    for (int i = 0; i < 2; ++i) {
      cur(i, v) = 0.7 * (A(i, 0) * base(0, v) + A(i, 1) * base(1, v)) +
                  0.3 * (B(i, 0) * base(0, v) + B(i, 1) * base(1, v));
      s += cur(i, v) * cur(i, v) * (1 + i);
    }
  }
  return s;
}

// Rows of different lengths: row r is a matrix of r + 1 columns, filled
// from x, each transposed into a second table (sizes set by the product
// with a row of ones) and summed with a weight.
UNFAD_GRADIENT
double ragged(const double* x, int rows) {
  std::vector<Mat<double>> table(rows), scaled(rows);
  int k = 0;
  for (int r = 0; r < rows; ++r) {
    table[r].reshape(1, r + 1);
    for (int c = 0; c <= r; ++c) table[r](0, c) = x[k++];
  }
  Mat<double> ones(1, 1);
  ones(0, 0) = 2.0;
  double s = 0;
  for (int r = 0; r < rows; ++r) {
    product(ones, table[r], &scaled[r]);
    for (int c = 0; c < scaled[r].cols(); ++c) s += std::sin(scaled[r](0, c)) * (c + 1);
  }
  return s;
}

// A table of objects holding a std::vector: each layer's weights sized by
// its constructor-free resize, set from x, then a small chain of layers
// applied to an input.
struct Layer {
  std::vector<double> weights;
  double bias;
};

UNFAD_GRADIENT
double layers(const double* x, int n, int depth) {
  std::vector<Layer> net(depth);
  for (int l = 0; l < depth; ++l) {
    Layer& layer = net[l];
    layer.weights.resize(n);
    for (int i = 0; i < n; ++i) layer.weights[i] = x[l * n + i];
    layer.bias = 0.1 * l;
  }
  double h = 1.0;
  for (int l = 0; l < depth; ++l) {
    double z = net[l].bias;
    for (int i = 0; i < n; ++i) z += net[l].weights[i] * h * (i + 1);
    h = std::tanh(z);
  }
  return h;
}

// Polynomials owning their coefficients, reallocated only when the degree
// changes ('c_ = n > 0 ? new double[n] : nullptr'), evaluated by a const
// method.
class Poly {
 public:
  Poly() : n_(0), c_(nullptr) {}
  ~Poly() { delete[] c_; }
  void reset(int n) {
    if (n != n_) {
      delete[] c_;
      c_ = n > 0 ? new double[n] : nullptr;
    }
    n_ = n;
  }
  double eval(double t) const {
    double s = 0;
    for (int k = n_ - 1; k >= 0; --k) s = s * t + c_[k];
    return s;
  }
  int n_;
  double* c_;
};

UNFAD_GRADIENT
double fit(const double* x, int m, int degree) {
  std::vector<Poly> polys(m);
  for (int i = 0; i < m; ++i) {
    polys[i].reset(degree + 1);
    for (int k = 0; k <= degree; ++k) polys[i].c_[k] = x[i * (degree + 1) + k];
  }
  polys[0].reset(degree + 1);  // (same size: kept)
  double s = 0;
  for (int i = 0; i < m; ++i) s += std::sin(polys[i].eval(0.5 + i));
  return s;
}

/* e2e
[{"function": "bones", "points": [[[0.3, -0.2, 0.5, 0.1, 0.7], [-1, 0, 1, 1, 0], 5],
                                  [[0.3, -0.2], [-1, 0], 2], [[0.4], [-1], 1]]},
 {"function": "ragged", "points": [[[0.3, -0.2, 0.5, 0.1, 0.7, -0.4], 3], [[0.3], 1], [[0.5], 0]]},
 {"function": "fit", "points": [[[0.3, -0.2, 0.5, 0.1, 0.7, -0.4], 2, 2], [[0.3, -0.2, 0.5], 1, 2]]},
 {"function": "layers", "points": [[[0.3, -0.2, 0.5, 0.1, 0.7, -0.4], 3, 2], [[0.3, -0.2], 2, 1]]}]
*/
