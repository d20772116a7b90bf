// Classes owning a std::vector (lib/frontend/vector_members.cpp) returned by
// value and copied: free functions and operators returning a Matrix
// (`transpose`, `operator*`, `operator+`), a helper building and returning
// a kernel matrix, a method returning a new object, expressions chaining them
// (`(A * B + A).trace()`), copies (`Matrix B = A;`, `auto`) written after the
// copy while the original is still read, a by-value parameter written in
// the helper, a Vector class with `operator-` in a least-squares
// objective, and copies of an aggregate with a vector member.
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
  double trace() const {
    double s = 0.0;
    for (int i = 0; i < rows_; ++i) s += data_[i * cols_ + i];
    return s;
  }
  Matrix scaled(double s) const {
    Matrix r(rows_, cols_);
    for (int k = 0; k < rows_ * cols_; ++k) r.data_[k] = s * data_[k];
    return r;
  }

private:
  int rows_, cols_;
  std::vector<double> data_;
};

static Matrix load(const double* a, int m, int n) {
  Matrix A(m, n);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) A(i, j) = a[i * n + j];
  return A;
}

static Matrix transpose(const Matrix& A) {
  Matrix T(A.cols(), A.rows());
  for (int i = 0; i < A.rows(); ++i)
    for (int j = 0; j < A.cols(); ++j) T(j, i) = A(i, j);
  return T;
}

static Matrix operator*(const Matrix& A, const Matrix& B) {
  Matrix C(A.rows(), B.cols());
  for (int i = 0; i < A.rows(); ++i)
    for (int j = 0; j < B.cols(); ++j) {
      double s = 0.0;
      for (int k = 0; k < A.cols(); ++k) s += A(i, k) * B(k, j);
      C(i, j) = s;
    }
  return C;
}

static Matrix operator+(const Matrix& A, const Matrix& B) {
  Matrix C(A.rows(), A.cols());
  for (int i = 0; i < A.rows(); ++i)
    for (int j = 0; j < A.cols(); ++j) C(i, j) = A(i, j) + B(i, j);
  return C;
}

// trace(A^T A) = sum of the squares of A's elements.
UNFAD_GRADIENT double gram_trace(const double* a, int m, int n) {
  Matrix A = load(a, m, n);
  Matrix G = transpose(A) * A;
  return G.trace();
}

// trace(A B + 2 A), chained in one expression.
UNFAD_GRADIENT double chained(const double* a, const double* b, int n) {
  Matrix A = load(a, n, n);
  Matrix B = load(b, n, n);
  return (A * B + A.scaled(2.0)).trace();
}

// K_ij = exp(-(x_i - x_j)^2), built and returned by a helper.
static Matrix make_kernel(const double* x, int n) {
  Matrix K(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) K(i, j) = std::exp(-(x[i] - x[j]) * (x[i] - x[j]));
  return K;
}

static double quad(const Matrix& K, const double* a) {
  double s = 0.0;
  for (int i = 0; i < K.rows(); ++i)
    for (int j = 0; j < K.cols(); ++j) s += a[i] * K(i, j) * a[j];
  return s;
}

// A copy written after it is made, the original read afterwards: a^T K a +
// 3 K_01^2 + K_01 (copies sharing storage would give another value).
UNFAD_GRADIENT double kernel_copies(const double* x, const double* a, int n) {
  Matrix K = make_kernel(x, n);
  Matrix K2 = K;
  K2(0, 1) = 3.0 * K(0, 1);
  auto K3 = K2;
  K3(0, 1) += 1.0;
  return quad(K, a) + K2(0, 1) * K(0, 1) + K3(0, 1) - K2(0, 1);
}

// A by-value parameter written in the helper: the caller's object is unchanged.
static double shifted_trace(Matrix A, double s) {
  for (int i = 0; i < A.rows(); ++i) A(i, i) += s;
  return A.trace();
}

UNFAD_GRADIENT double by_value(const double* a, double s, int n) {
  Matrix A = load(a, n, n);
  return shifted_trace(A, s) * A.trace() + shifted_trace(transpose(A), s * s);
}

class Vector {
public:
  explicit Vector(int n) : v_(n, 0.0) {}
  double& operator[](int i) { return v_[i]; }
  double operator[](int i) const { return v_[i]; }
  int size() const { return int(v_.size()); }

private:
  std::vector<double> v_;
};

static Vector operator*(const Matrix& A, const Vector& w) {
  Vector r(A.rows());
  for (int i = 0; i < A.rows(); ++i) {
    double s = 0.0;
    for (int j = 0; j < A.cols(); ++j) s += A(i, j) * w[j];
    r[i] = s;
  }
  return r;
}

static Vector operator-(const Vector& u, const Vector& v) {
  Vector r(u.size());
  for (int i = 0; i < u.size(); ++i) r[i] = u[i] - v[i];
  return r;
}

static Vector vec(const double* p, int n) {
  Vector v(n);
  for (int i = 0; i < n; ++i) v[i] = p[i];
  return v;
}

// 0.5 |A w - b|^2 with A w and the residual returned by operators.
UNFAD_GRADIENT double least_squares(const double* w, const double* a, const double* b, int m, int n) {
  const Matrix A = load(a, m, n);
  Vector r = A * vec(w, n) - vec(b, m);
  double s = 0.0;
  for (int i = 0; i < r.size(); ++i) s += r[i] * r[i];
  return 0.5 * s;
}

// An aggregate with a vector member copied, and passed by value to a
// helper that writes it: sum((w_i + b) x_i) + 2 w_0^2.
struct Model {
  std::vector<double> w;
  double bias;
};

static double shifted_dot(Model m, const double* x, int n) {
  for (int i = 0; i < n; ++i) m.w[i] += m.bias;
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += m.w[i] * x[i];
  return s;
}

UNFAD_GRADIENT double model_copy(const double* w, const double* x, double b, int n) {
  Model m{std::vector<double>(n), b};
  for (int i = 0; i < n; ++i) m.w[i] = w[i];
  Model c = m;
  c.w[0] *= 2.0;
  return shifted_dot(m, x, n) + c.w[0] * m.w[0];
}

/* e2e
[{"function": "model_copy",
  "points": [[[0.5, -1.25, 2.0], [0.3, -0.7, 1.2], 0.4, 3]],
  "value_formula": "sum((w[i] + b)*x[i] for i in range(n)) + 2*w[0]**2"},
 {"function": "gram_trace",
  "points": [[[0.5, -1.25, 2.0, 0.75, 0.3, -0.1], 2, 3], [[1.5, 0.2, -0.7, 0.4], 2, 2]],
  "value_formula": "sum(v*v for v in a)"},
 {"function": "chained",
  "points": [[[0.5, -1.25, 2.0, 0.75], [0.3, -0.1, 1.1, 0.9], 2],
             [[0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9], [0.9, -0.8, 0.7, 0.6, 0.5, -0.4, 0.3, 0.2, 0.1], 3]],
  "value_formula": "sum(a[i*n+k]*b[k*n+i] for i in range(n) for k in range(n)) + 2*sum(a[i*n+i] for i in range(n))"},
 {"function": "kernel_copies",
  "points": [[[0.5, -0.25, 1.0], [0.3, -0.7, 1.2], 3], [[0.1, 0.9], [1.5, -0.5], 2]],
  "value_formula": "sum(a[i]*exp(-(x[i]-x[j])**2)*a[j] for i in range(n) for j in range(n)) + 3*exp(-(x[0]-x[1])**2)**2 + 1.0"},
 {"function": "by_value",
  "points": [[[0.5, -1.25, 2.0, 0.75], 0.3, 2], [[0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9], -0.7, 3]],
  "value_formula": "(sum(a[i*n+i] for i in range(n)) + n*s) * sum(a[i*n+i] for i in range(n)) + sum(a[i*n+i] for i in range(n)) + n*s*s"},
 {"function": "least_squares",
  "points": [[[0.5, -1.0], [1.0, 2.0, -0.5, 0.25, 3.0, 1.5], [0.1, 0.2, -0.3], 3, 2]],
  "value_formula": "0.5*sum((sum(a[i*n+j]*w[j] for j in range(n)) - b[i])**2 for i in range(m))"}]
*/
