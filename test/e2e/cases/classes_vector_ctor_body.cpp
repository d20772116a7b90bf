// Classes owning a std::vector (lib/frontend/vector_members.cpp) whose
// constructors have statements in their body: a leading `data_.resize(n *
// n)` or `data_.assign(n * n, 0.0)` sizing the member, then a loop writing
// its diagonal from a constructor parameter (active: its derivative flows
// through the constructor), in a ridge-regularised quadratic form.
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

class SquareMatrix {
public:
  explicit SquareMatrix(int n) : n_(n) { data_.resize(n * n); }
  SquareMatrix(int n, double diagonal) : n_(n) {
    data_.assign(n * n, 0.0);
    for (int i = 0; i < n; ++i) data_[i * n + i] = diagonal;
  }
  double operator()(int i, int j) const { return data_[i * n_ + j]; }
  double& operator()(int i, int j) { return data_[i * n_ + j]; }
  int size() const { return n_; }

private:
  int n_;
  std::vector<double> data_;
};

static double quad(const SquareMatrix& K, const double* a) {
  double s = 0.0;
  for (int i = 0; i < K.size(); ++i)
    for (int j = 0; j < K.size(); ++j) s += a[i] * K(i, j) * a[j];
  return s;
}

// a^T (mu I + x x^T) a + trace(S), S_ij = sin(x_i) x_j built after a resize.
UNFAD_GRADIENT double ridge(const double* x, const double* a, double mu, int n) {
  SquareMatrix K(n, mu);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) K(i, j) += x[i] * x[j];
  SquareMatrix S(n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) S(i, j) = std::sin(x[i]) * x[j];
  double t = 0.0;
  for (int i = 0; i < n; ++i) t += S(i, i);
  return quad(K, a) + t;
}

/* e2e
[{"function": "ridge",
  "points": [[[0.5, -1.25, 2.0], [0.3, -0.7, 1.2], 0.25, 3], [[0.1, 0.9], [1.5, -0.5], 2.0, 2]],
  "value_formula": "mu*sum(v*v for v in a) + sum(a[i]*x[i] for i in range(n))**2 + sum(sin(x[i])*x[i] for i in range(n))"}]
*/
