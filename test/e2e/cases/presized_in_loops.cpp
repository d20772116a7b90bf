// A default-constructed matrix object (its std::vector empty) first sized
// inside a loop by the helper it is given, as C++ programmers keep one
// scratch matrix for a loop: a chain of rotations (`mat_mult(acc, r, &tmp);
// acc = tmp;`), the skinning loop of a hand model (`mat_mult(transforms[i],
// base, &curr)` into one `curr`), a loop that may not run (the object stays
// empty), a loop counting down, and two scratch objects in one loop. The
// object is sized before the loop at its first iteration's size and every
// iteration checks it keeps it. Refused before ("'d_.resize' inside a loop
// or a branch, of an object made outside it and at another size").
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

class Mat {
 public:
  Mat() : r_(0), c_(0) {}
  Mat(int r, int c) : r_(r), c_(c), d_(r * c) {}
  void resize(int r, int c) {
    d_.resize(r * c);
    r_ = r;
    c_ = c;
  }
  double& operator()(int i, int j) { return d_[j * r_ + i]; }
  double operator()(int i, int j) const { return d_[j * r_ + i]; }
  int size() const { return static_cast<int>(d_.size()); }
  int r_, c_;
  std::vector<double> d_;
};

static void mat_mult(const Mat& a, const Mat& b, Mat* pout) {
  Mat& out = *pout;
  out.resize(a.r_, b.c_);
  for (int i = 0; i < a.r_; i++)
    for (int k = 0; k < b.c_; k++) {
      out(i, k) = a(i, 0) * b(0, k);
      for (int j = 1; j < a.c_; j++) out(i, k) += a(i, j) * b(j, k);
    }
}

static void rotation(double t, Mat* r) {
  Mat& m = *r;
  m(0, 0) = std::cos(t);
  m(0, 1) = -std::sin(t);
  m(1, 0) = std::sin(t);
  m(1, 1) = std::cos(t);
}

UNFAD_GRADIENT double chain(const double* th, int n) {
  Mat acc(2, 2);
  acc(0, 0) = 1;
  acc(1, 1) = 1;
  Mat tmp;
  for (int i = 0; i < n; ++i) {
    Mat r(2, 2);
    rotation(th[i] * (1 + 0.1 * i), &r);
    mat_mult(acc, r, &tmp);
    acc = tmp;
  }
  return acc(0, 1) + acc(1, 1) * acc(0, 0) + tmp.size();
}

UNFAD_GRADIENT_WRT(th) double skin(const double* th, const double* base, int bones, int verts) {
  Mat points(2, verts);
  for (int v = 0; v < verts; ++v) {
    points(0, v) = base[2 * v];
    points(1, v) = base[2 * v + 1];
  }
  Mat out(2, verts);
  Mat curr;
  for (int b = 0; b < bones; ++b) {
    Mat t(2, 2);
    rotation(th[b], &t);
    mat_mult(t, points, &curr);
    for (int v = 0; v < verts; ++v)
      for (int i = 0; i < 2; ++i) out(i, v) += curr(i, v) * (b + 1.0) / bones;
  }
  double s = 0;
  for (int v = 0; v < verts; ++v) s += out(0, v) * out(1, v);
  return s;
}

UNFAD_GRADIENT double counted_down(const double* x, int n) {
  Mat v(3, 1);
  for (int i = 0; i < 3; ++i) v(i, 0) = x[i];
  Mat a(3, 3);
  Mat w;
  double s = 0;
  for (int k = n - 1; k >= 0; --k) {
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) a(i, j) = std::sin(x[3 + k] * (i + 1) + j);
    mat_mult(a, v, &w);
    s += w(0, 0) * w(2, 0) - w(1, 0);
    v = w;
  }
  return s;
}

UNFAD_GRADIENT double two_scratch(const double* x, int n) {
  Mat a(2, 3), b(3, 2);
  for (int i = 0; i < 6; ++i) a.d_[i] = x[i], b.d_[i] = x[5 - i] * 0.5;
  Mat ab, ba;
  double s = 0;
  for (int k = 0; k < n; ++k) {
    mat_mult(a, b, &ab);
    mat_mult(b, a, &ba);
    s += ab(0, 1) * ba(2, 2) + std::exp(0.1 * ab(1, 1));
    a(0, 0) = ab(0, 0) * 0.5;
    b(1, 1) = ba(1, 1) * 0.25;
  }
  return s + ab.size() + ba.r_;
}

/* e2e
[{"function": "chain", "points": [[[0.5, -1.25, 2.0, 0.75], 4], [[0.3], 1], [[0.3], 0]]},
 {"function": "skin", "points": [[[0.5, -1.25, 0.3], [0.2, 0.9, -0.4, 1.1, 0.7, -0.6], 3, 3], [[0.5], [0.2, 0.9], 1, 1], [[0.5], [0.2, 0.9], 0, 1]]},
 {"function": "counted_down", "points": [[[0.5, -1.25, 0.3, 0.75, 0.1, -0.3], 3], [[0.5, -1.25, 0.3], 0]]},
 {"function": "two_scratch", "points": [[[0.5, -1.25, 0.3, 0.75, 0.1, -0.3], 2], [[0.5, -1.25, 0.3, 0.75, 0.1, -0.3], 0]]}]
*/
