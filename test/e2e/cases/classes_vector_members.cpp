// Classes owning a std::vector (lib/frontend/vector_members.cpp): a Matrix
// with a constructor sizing its storage at run time, `operator()` returning
// a value (const) and `double&` (written through), accessors, private
// members; a Vector class; a helper filling a matrix in place (`Matrix&`),
// helpers reading one (`const Matrix&`), a small least-squares objective,
// and an aggregate with a vector member and a method, built with braces.
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

class Matrix {
public:
  Matrix(int rows, int cols) : rows_(rows), cols_(cols), data_(rows * cols, 0.0) {}
  double operator()(int i, int j) const { return data_[i * cols_ + j]; }
  double& operator()(int i, int j) { return data_[i * cols_ + j]; }
  int rows() const { return rows_; }
  int cols() const { return cols_; }

private:
  int rows_, cols_;
  std::vector<double> data_;
};

class Vector {
public:
  explicit Vector(int n) : n_(n), v_(n_) {} // (sized from a member initialised before it)
  double& operator[](int i) { return v_[i]; }
  double operator[](int i) const { return v_[i]; }
  int size() const { return n_; }
  double norm2() const {
    double s = 0.0;
    for (int i = 0; i < n_; ++i) s += v_[i] * v_[i];
    return s;
  }

private:
  int n_;
  std::vector<double> v_;
};

// K = 2 I + x x^T + sin(x_i) on the diagonal, filled in place.
static void fill(Matrix& K, const double* x) {
  for (int i = 0; i < K.rows(); ++i)
    for (int j = 0; j < K.cols(); ++j) K(i, j) = (i == j ? 2.0 : 0.0) + x[i] * x[j];
  for (int i = 0; i < K.rows(); ++i) K(i, i) += std::sin(x[i]);
}

static double quadratic(const Matrix& K, const double* x) {
  double s = 0.0;
  for (int i = 0; i < K.rows(); ++i)
    for (int j = 0; j < K.cols(); ++j) s += x[i] * K(i, j) * x[j];
  return s;
}

// x^T K(x) x with K built by a constructor, filled by a helper.
UNFAD_GRADIENT double energy(const double* x, int n) {
  Matrix K(n, n);
  fill(K, x);
  return quadratic(K, x);
}

static void load(Matrix& A, const double* a) {
  for (int i = 0; i < A.rows(); ++i)
    for (int j = 0; j < A.cols(); ++j) A(i, j) = a[i * A.cols() + j];
}

static void matvec(const Matrix& A, const double* w, Vector& out) {
  for (int i = 0; i < A.rows(); ++i) {
    double s = 0.0;
    for (int j = 0; j < A.cols(); ++j) s += A(i, j) * w[j];
    out[i] = s;
  }
}

// 0.5 |A w - b|^2 with A read into a Matrix and the residual in a Vector.
UNFAD_GRADIENT double least_squares(const double* w, const double* a, const double* b, int m, int n) {
  Matrix A(m, n);
  load(A, a);
  Vector r(m);
  matvec(A, w, r);
  for (int i = 0; i < r.size(); ++i) r[i] -= b[i];
  return 0.5 * r.norm2();
}

// An aggregate owning a vector, with a method, built with braces and
// written member by member.
struct Grid {
  int n, m;
  std::vector<double> a;
  double get(int i, int j) const { return a[i * m + j]; }
};

static double trace_squares(const Grid& g) {
  double s = 0.0;
  for (int i = 0; i < g.n; ++i) s += g.get(i, i) * g.get(i, i);
  return s;
}

UNFAD_GRADIENT double grid_trace(const double* x, int n) {
  Grid g{n, n, std::vector<double>(n * n)};
  for (int i = 0; i < n * n; ++i) g.a[i] = x[i] * x[i] + 1.0;
  return trace_squares(g) + g.get(0, n - 1);
}

/* e2e
[{"function": "energy",
  "points": [[[0.5, -1.25, 2.0], 3], [[0.3, 0.7, -0.2, 1.1], 4]],
  "value_formula": "sum((2.0 + sin(x[i]))*x[i]**2 for i in range(n)) + sum(x[i]**2 for i in range(n))**2"},
 {"function": "least_squares",
  "points": [[[0.5, -1.0], [1.0, 2.0, -0.5, 0.25, 3.0, 1.5], [0.1, 0.2, -0.3], 3, 2]],
  "value_formula": "0.5*sum((sum(a[i*n+j]*w[j] for j in range(n)) - b[i])**2 for i in range(m))"},
 {"function": "grid_trace",
  "points": [[[0.5, -1.25, 2.0, 0.75], 2], [[0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9], 3]],
  "value_formula": "sum((x[i*n+i]**2 + 1.0)**2 for i in range(n)) + x[n-1]**2 + 1.0"}]
*/
