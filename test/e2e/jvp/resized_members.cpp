// Forward mode of a matrix class whose vector member is resized after the
// object is built (lib/frontend/resized_members.cpp): a default-constructed
// product sized by the helper, reused for a smaller product (a shrink), then
// grown back (zeros added), resize(n, v) with an active v, and a whole
// object assigned. f_jvp resizes each tangent buffer with its array.
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

class Mat {
 public:
  Mat() : nrows_(0), ncols_(0) {}
  void resize(int r, int c) {
    data_.resize(r * c);
    nrows_ = r;
    ncols_ = c;
  }
  void pad(int r, double v) {
    data_.resize(r * ncols_, v);
    nrows_ = r;
  }
  double& operator()(int i, int j) { return data_[j * nrows_ + i]; }
  const double& operator()(int i, int j) const { return data_[j * nrows_ + i]; }
  int nrows_, ncols_;
  std::vector<double> data_;
};

static void mat_mult(const Mat& a, const Mat& b, Mat* out) {
  out->resize(a.nrows_, b.ncols_);
  for (int i = 0; i < a.nrows_; i++)
    for (int k = 0; k < b.ncols_; k++) {
      double s = 0;
      for (int j = 0; j < a.ncols_; j++) s += a(i, j) * b(j, k);
      (*out)(i, k) = s;
    }
}

static void from(const double* x, int n, Mat* m) {
  m->resize(n, n);
  for (int k = 0; k < n * n; k++) m->data_[k] = std::sin(x[k]);
}

UNFAD_JVP void resized_members(const double* x, double* out) {
  Mat a, b, t;
  from(x, 3, &a);
  from(x + 1, 2, &b);
  mat_mult(a, a, &t);
  out[0] = t(2, 1) * t(0, 0);
  mat_mult(b, b, &t);
  out[1] = t(1, 1) + t.data_.size();
  t.resize(3, 3);
  t.pad(4, x[2] * x[3]);
  double s = 0;
  for (int k = 0; k < 12; k++) s += t.data_[k] * (k + 1);
  Mat c;
  c = t;
  c(0, 1) *= x[4];
  out[2] = s + c(0, 1) * c.nrows_;
}

UNFAD_GRADIENT void resized_members_rev(const double* x, double* out) { resized_members(x, out); }

/* jvp
{"function": "resized_members", "gradient": "resized_members_rev",
 "params": [["x", "in", 10], ["out", "out", 3]],
 "points": [[[0.5, -1.25, 2.0, 0.75, 0.1, -0.3, 0.9, 1.1, -0.6, 0.2]],
            [[1.5, 0.25, -0.5, 1.0, -0.7, 0.4, 0.3, -1.1, 0.8, 0.6]]]}
*/
