// Objects of a class owning a std::vector passed to helpers by pointer, as
// C-style C++ (GradBench's ht among it) passes the object a helper fills:
// `fill(x, &m)` writing through `auto& M = *m; M(i, j) = ...`, reading
// `m->rows`, `(*m)(i, j)`, a `const Mat*` input, a product `mul(&a, &b,
// &c)` into a third object, and a pointer passed on to another helper.
// Each was refused before (the class's vector member at the pointer).
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

class Mat {
 public:
  Mat(int r, int c) : rows(r), cols(c), data(r * c, 0.0) {}
  double& operator()(int i, int j) { return data[i * cols + j]; }
  double operator()(int i, int j) const { return data[i * cols + j]; }
  int rows, cols;
  std::vector<double> data;
};

static void outer(const std::vector<double>& x, Mat* m) {
  auto& M = *m;
  for (int i = 0; i < M.rows; ++i)
    for (int j = 0; j < M.cols; ++j) M(i, j) = x[i] * std::sin(x[j]);
}

static void scale(Mat* m, double s) {
  for (int i = 0; i < m->rows; ++i) (*m)(i, i) *= s;
}

static void mul(const Mat* a, const Mat* b, Mat* out) {
  for (int i = 0; i < a->rows; ++i)
    for (int k = 0; k < b->cols; ++k) {
      double s = 0.0;
      for (int j = 0; j < a->cols; ++j) s += (*a)(i, j) * (*b)(j, k);
      (*out)(i, k) = s;
    }
}

static double trace(const Mat* m) {
  double t = 0.0;
  for (int i = 0; i < m->rows; ++i) t += (*m)(i, i);
  return t;
}

static void prepare(const std::vector<double>& x, Mat* m, double s) {
  outer(x, m);
  scale(m, s);
}

UNFAD_GRADIENT double product_trace(const std::vector<double>& x, double s) {
  Mat a(3, 3), b(3, 3), c(3, 3);
  prepare(x, &a, s);
  outer(x, &b);
  b(0, 2) += s * s;
  mul(&a, &b, &c);
  return trace(&c) + c(2, 0);
}

/* e2e
[{"function": "product_trace", "points": [[[0.5, -1.25, 2.0], 0.75], [[1.5, 0.25, -0.5], -1.5]]}]
*/
