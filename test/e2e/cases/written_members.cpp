// Number members of a class owning a std::vector written by its methods and
// through references and pointers to the object, as C++ programmers write a
// matrix that is reshaped, rescaled or transposed in place: `set_scale(s)`,
// `transpose_in_place()` swapping the shape, `++version_`, a helper given the
// object by pointer that calls such a method, writes in loops and branches,
// and a `Grid& g = *p;` local writing a member. The gradient flows through a
// written member that is a float (`scale_`). Each was refused before ("a
// method assigning a member of its object ... is not supported"), and so was a
// reference to a member (`double& s = t.scale;`).
#include <unfad/unfad.h>

#include <cmath>
#include <utility>
#include <vector>

class Grid {
 public:
  Grid(int rows, int cols) : rows_(rows), cols_(cols), data_(rows * cols, 0.0) {}
  double& operator()(int i, int j) { return data_[i * cols_ + j]; }
  double operator()(int i, int j) const { return data_[i * cols_ + j]; }
  int rows() const { return rows_; }
  int cols() const { return cols_; }
  double scale() const { return scale_; }
  void set_scale(double s) {
    scale_ = s;
    ++version_;
  }
  void rescale(double f) { scale_ *= f; }
  // (a square grid's transpose keeps its storage; a wide one changes shape)
  void transpose_in_place() {
    std::vector<double> t(data_);
    for (int i = 0; i < rows_; ++i)
      for (int j = 0; j < cols_; ++j) data_[j * rows_ + i] = t[i * cols_ + j];
    int r = rows_;
    rows_ = cols_;
    cols_ = r;
    ++version_;
  }
  int version() const { return version_; }

 private:
  int rows_, cols_;
  double scale_ = 1.0;
  int version_ = 0;
  std::vector<double> data_;
};

static void fill(const std::vector<double>& x, Grid* g) {
  for (int i = 0; i < g->rows(); ++i)
    for (int j = 0; j < g->cols(); ++j) (*g)(i, j) = x[(i + 2 * j) % x.size()] * (1.0 + i);
}

static void configure(Grid* g, double s) {
  g->set_scale(s * s);
  Grid& same = *g;
  same.rescale(0.5);
}

static double weighted(const Grid& g) {
  double t = 0.0;
  for (int i = 0; i < g.rows(); ++i)
    for (int j = 0; j < g.cols(); ++j) t += g.scale() * g(i, j) * (j + 1);
  return t;
}

// A wide grid transposed: reads after the call see the new shape.
UNFAD_GRADIENT double transposed(const std::vector<double>& x, double s) {
  Grid g(2, 3);
  fill(x, &g);
  configure(&g, s);
  g.transpose_in_place();
  double t = weighted(g) + g.rows() * 0.25 + g(2, 1) * std::sin(s);
  return t / g.version();
}

// A member rescaled in a loop and in a branch: the loop carries it.
UNFAD_GRADIENT double annealed(const std::vector<double>& x, double s, int steps) {
  Grid g(2, 2);
  fill(x, &g);
  g.set_scale(s);
  double acc = 0.0;
  for (int k = 0; k < steps; ++k) {
    if (k % 2 == 0) g.rescale(0.9);
    else configure(&g, g.scale() + 0.1);
    acc += weighted(g);
  }
  return acc + g.version();
}

// A loop bound read through a getter: a counted loop where nothing in the
// loop writes the member (fill, weighted), re-read each iteration where the
// body writes it (here: through take()).
class Bag {
 public:
  explicit Bag(int n) : n_(n), v_(n, 0.0) {}
  int used() const { return used_; }
  int size() const { return n_; }
  void take() { ++used_; }
  double& operator[](int i) { return v_[i]; }

 private:
  int n_;
  int used_ = 0;
  std::vector<double> v_;
};

UNFAD_GRADIENT double taken(const std::vector<double>& x, double s) {
  Bag b(6);
  double t = 0.0;
  for (int i = 0; i < b.size() - b.used(); ++i) {
    b[i] = x[i % x.size()] * s;
    t += b[i] * (i + 1);
    if (i % 2 == 0) b.take();
  }
  return t + b.used();
}

// References to number members: `double& s = g.scale;` in a helper given the
// object by reference, and through a reference local to the object.
struct Tally {
  explicit Tally(int n) : n(n), w(n, 1.0) {}
  int n;
  double scale = 1.0;
  std::vector<double> w;
};

static void bump(Tally& t, double v) {
  double& s = t.scale;
  s += v;
  t.n -= 1;
}

UNFAD_GRADIENT double referenced(const double* x) {
  Tally t(3);
  bump(t, x[0]);
  Tally& r = t;
  double& q = r.scale;
  q *= x[1];
  double acc = 0.0;
  for (int i = 0; i < t.n; ++i) acc += t.w[i] * t.scale * (i + 1);
  return acc + r.scale * r.n;
}

// The same names made inside a loop body over an object outside it: the
// loop carries the members they write (a wrong value before the loop state
// looked through them).
UNFAD_GRADIENT double reloop(const double* x, const std::vector<double>& y) {
  Tally t(3);
  Grid g(2, 2);
  fill(y, &g);
  double acc = 0.0;
  for (int k = 0; k < 3; ++k) {
    double& q = t.scale;
    q *= x[0];
    Tally& r = t;
    r.n -= (k == 1);
    Grid& h = g;
    h.rescale(x[1]);
    acc += q * r.n + x[1] * t.scale + weighted(g);
  }
  return acc;
}

// Fluent setters returning `*this`, chained (`p.scale(s).shift(d)`), also
// in a loop, and `std::swap` of two members in a method.
class Pose {
 public:
  explicit Pose(int n) : rows_(n), cols_(1), w_(n, 0.5) {}
  Pose& scale(double s) {
    scale_ *= s;
    return *this;
  }
  Pose& shift(double d) {
    this->shift_ += d;
    return *this;
  }
  void flip() { std::swap(rows_, cols_); }
  double value() const { return scale_ * rows_ + shift_ * cols_ + w_[0]; }

 private:
  int rows_, cols_;
  double scale_ = 1.0, shift_ = 0.0;
  std::vector<double> w_;
};

UNFAD_GRADIENT double fluent(const double* x, int steps) {
  Pose p(3);
  p.scale(x[0]).shift(x[1]);
  double t = p.value();
  p.flip();
  for (int k = 0; k < steps; ++k) {
    p.shift(0.25 * x[0]).scale(0.9).shift(x[1] * k);
    t += p.value();
  }
  return t;
}

// Members written by std::swap and through a reference in methods called in
// a loop: the loop carries them (a wrong value before the write analysis
// counted every use of a member other than a read).
class Flipper {
 public:
  explicit Flipper(int n) : rows_(n), cols_(1), w_(n, 0.5) {}
  void flip() { std::swap(rows_, cols_); }
  void bump() {
    int& r = rows_;
    r += 1;
  }
  double value(double x) const { return x * rows_ + cols_ + w_[0]; }

 private:
  int rows_, cols_;
  std::vector<double> w_;
};

UNFAD_GRADIENT double flipped(const double* x, int steps) {
  Flipper p(3);
  double t = 0.0;
  for (int k = 0; k < steps; ++k) {
    p.flip();
    if (k % 2) p.bump();
    t += p.value(x[0]) * x[0];
  }
  return t;
}

/* e2e
[{"function": "transposed", "points": [[[0.5, -1.25, 2.0, 0.75], 0.75], [[1.5, 0.25, -0.5, 1.0], -1.5]]},
 {"function": "referenced", "points": [[[0.7, -1.3]], [[-0.2, 2.5]]]},
 {"function": "reloop", "points": [[[0.7, -1.3], [0.5, 0.25, -1.0]], [[-0.4, 0.9], [1.5, -0.5, 2.0]]]},
 {"function": "fluent", "points": [[[0.7, -1.3], 3], [[-0.4, 0.9], 0]]},
 {"function": "flipped", "points": [[[0.7], 5], [[-1.2], 2]]},
 {"function": "taken", "points": [[[0.5, -1.25, 2.0], 0.75]]},
 {"function": "annealed", "points": [[[0.5, -1.25, 2.0], 0.75, 5], [[1.5, 0.25, -0.5], -1.5, 0], [[1.5, 0.25, -0.5], 1.25, 4]]}]
*/
