// Struct parameters of the marked function that are split into their
// members (lib/frontend/struct_params.cpp): an aggregate with std::vector
// members (`const Model& m` -> `Model* d_m`, whose vectors the caller sizes
// like m's), a struct of pointers into arrays (`const LayerView& l` ->
// `LayerView* d_l` pointing at the caller's adjoint arrays), a nested one,
// one with an output member (`double* y`: `d_o->y` carries the output's
// cotangent in, as `d_out` does), passed on to helpers and bound to
// reference locals. main compares every
// partial with central differences (g++ and clang++).
// RUN: cp %s %t.cpp
// RUN: %unfad -i %t.cpp -- -std=c++17 -I%unfad_include
// RUN: FileCheck --check-prefix=CODE %s < %t.cpp
// RUN: %cxx -std=c++17 -Wall -Wextra -Werror -I%unfad_include -DSTRUCT_PARAMS_MAIN %t.cpp -o %t.gcc
// RUN: %t.gcc | FileCheck %s
// RUN: %clangxx -std=c++17 -Wall -Wextra -Werror -I%unfad_include -DSTRUCT_PARAMS_MAIN %t.cpp -o %t.clang
// RUN: %t.clang | FileCheck %s
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

struct Vec3 {
  double x, y, z;
};

struct Model {
  std::vector<double> w;
  double bias;
  int unused_count;
};

struct Polyline {
  std::vector<Vec3> pts;
  double weight;
};

struct LayerView {
  const double* w;
  const double* b;
  int n;
};

struct TwoLayers {
  LayerView first;
  LayerView second;
  double scale;
};

static double predict(const Model& m, const std::vector<double>& x) {
  double s = m.bias;
  for (size_t i = 0; i < m.w.size(); ++i) s += m.w[i] * x[i];
  return s;
}

UNFAD_GRADIENT double loss(const Model& m, const std::vector<double>& x, double y) {
  const double r = predict(m, x) - y;
  double penalty = 0.0;
  for (double wi : m.w) penalty += wi * wi;
  return 0.5 * r * r + 0.01 * penalty + 0.1 * m.bias * m.bias;
}
// CODE-LABEL: double loss_grad(const Model& m, const std::vector<double>& x, double y, Model* d_m, std::vector<double>& d_x, double* d_y)
// CODE: d_m->w[{{.*}}] +=
// CODE: d_m->bias +=

static double segment(const Vec3& a, const Vec3& b) {
  const double dx = b.x - a.x, dy = b.y - a.y, dz = b.z - a.z;
  return std::sqrt(dx * dx + dy * dy + dz * dz);
}

UNFAD_GRADIENT double length(const Polyline& p) {
  const Polyline& q = p;
  double s = 0.0;
  for (size_t i = 0; i + 1 < q.pts.size(); ++i) s += segment(q.pts[i], q.pts[i + 1]);
  return p.weight * s;
}
// CODE-LABEL: double length_grad(const Polyline& p, Polyline* d_p)

static double apply(const LayerView& l, const double* x, int i) { return std::tanh(l.w[i] * x[i] + l.b[i]); }

UNFAD_GRADIENT double layer(const LayerView& l, const double* x) {
  double s = 0.0;
  for (int i = 0; i < l.n; ++i) s += apply(l, x, i);
  return s;
}
// CODE-LABEL: double layer_grad(const LayerView& l, const double* x, LayerView* d_l, double* d_x)
// CODE: const_cast<double*>(d_l->w)[{{.*}}] +=

UNFAD_GRADIENT double stack(const TwoLayers& t, double x) {
  double h = x;
  for (int i = 0; i < t.first.n; ++i) h = std::tanh(t.first.w[i] * h + t.first.b[i]);
  for (int i = 0; i < t.second.n; ++i) h = std::sin(t.second.w[i] * h + t.second.b[i]);
  return t.scale * h;
}

struct Out {
  double* y;
  int n;
};

UNFAD_GRADIENT void waves(const double* x, const Out& o) {
  for (int i = 0; i < o.n; ++i) o.y[i] = std::sin(x[i]) * x[i];
}
// CODE-LABEL: void waves_grad(const double* x, const Out& o, double* d_x, Out* d_o)

#ifdef STRUCT_PARAMS_MAIN
#include <cstdio>

// Central differences of g() in the variable v (restored), against `got`.
template <class G> static int check(const char* what, double& v, double got, G g) {
  const double h = 1e-6, v0 = v;
  v = v0 + h;
  const double hi = g();
  v = v0 - h;
  const double lo = g();
  v = v0;
  const double fd = (hi - lo) / (2 * h);
  if (std::fabs(fd - got) <= 1e-6 * (1 + std::fabs(fd))) return 0;
  std::printf("%s: %.10g, finite differences %.10g\n", what, got, fd);
  return 1;
}

static int checkLoss() {
  Model m{{0.5, -1.25, 2.0}, 0.3, 7};
  std::vector<double> x{1.0, 0.75, -0.5};
  double y = 0.2;
  Model d_m{std::vector<double>(3, 0.0), 0.0, 0};
  std::vector<double> d_x(3, 0.0);
  double d_y = 0.0;
  int bad = loss_grad(m, x, y, &d_m, d_x, &d_y) == loss(m, x, y) ? 0 : 1;
  auto f = [&] { return loss(m, x, y); };
  for (int i = 0; i < 3; ++i) bad += check("loss d_m.w", m.w[i], d_m.w[i], f) + check("loss d_x", x[i], d_x[i], f);
  bad += check("loss d_m.bias", m.bias, d_m.bias, f) + check("loss d_y", y, d_y, f);
  return bad;
}

static int checkLength() {
  Polyline p{{{0.0, 0.0, 0.0}, {1.0, 0.5, -0.25}, {2.0, 1.5, 0.75}, {2.5, -1.0, 1.0}}, 1.5};
  Polyline d_p{std::vector<Vec3>(4, Vec3{0.0, 0.0, 0.0}), 0.0};
  int bad = length_grad(p, &d_p) == length(p) ? 0 : 1;
  auto f = [&] { return length(p); };
  for (int i = 0; i < 4; ++i)
    bad += check("length d_p.x", p.pts[i].x, d_p.pts[i].x, f) + check("length d_p.y", p.pts[i].y, d_p.pts[i].y, f) +
           check("length d_p.z", p.pts[i].z, d_p.pts[i].z, f);
  return bad + check("length d_p.weight", p.weight, d_p.weight, f);
}

static int checkLayer() {
  double w[3] = {0.5, -0.75, 1.25}, b[3] = {0.1, 0.2, -0.3}, x[3] = {1.0, -0.5, 0.25};
  double dw[3] = {0, 0, 0}, db[3] = {0, 0, 0}, dx[3] = {0, 0, 0};
  const LayerView l{w, b, 3};
  LayerView d_l{dw, db, 3};
  int bad = layer_grad(l, x, &d_l, dx) == layer(l, x) ? 0 : 1;
  auto f = [&] { return layer(l, x); };
  for (int i = 0; i < 3; ++i)
    bad += check("layer d_w", w[i], dw[i], f) + check("layer d_b", b[i], db[i], f) + check("layer d_x", x[i], dx[i], f);
  return bad;
}

static int checkStack() {
  double w1[2] = {0.5, -0.75}, b1[2] = {0.1, 0.2}, w2[3] = {1.5, 0.25, -0.5}, b2[3] = {0.0, -0.1, 0.3};
  double dw1[2] = {0, 0}, db1[2] = {0, 0}, dw2[3] = {0, 0, 0}, db2[3] = {0, 0, 0};
  TwoLayers t{{w1, b1, 2}, {w2, b2, 3}, 1.75};
  TwoLayers d_t{{dw1, db1, 2}, {dw2, db2, 3}, 0.0};
  double x = 0.6, dx = 0.0;
  int bad = stack_grad(t, x, &d_t, &dx) == stack(t, x) ? 0 : 1;
  auto f = [&] { return stack(t, x); };
  for (int i = 0; i < 2; ++i) bad += check("stack d_w1", w1[i], dw1[i], f) + check("stack d_b1", b1[i], db1[i], f);
  for (int i = 0; i < 3; ++i) bad += check("stack d_w2", w2[i], dw2[i], f) + check("stack d_b2", b2[i], db2[i], f);
  return bad + check("stack d_scale", t.scale, d_t.scale, f) + check("stack d_x", x, dx, f);
}

// The output's cotangent w: d_x must be the gradient of sum_i w_i y_i.
static int checkWaves() {
  double x[3] = {0.5, -1.0, 2.0}, y[3] = {0, 0, 0}, dx[3] = {0, 0, 0};
  const double w[3] = {1.0, -0.5, 0.25};
  double dy[3] = {w[0], w[1], w[2]};
  double y2[3] = {0, 0, 0};
  Out o{y, 3}, d_o{dy, 3};
  waves_grad(x, o, dx, &d_o);
  Out o2{y2, 3};
  waves(x, o2);
  int bad = 0;
  for (int i = 0; i < 3; ++i) bad += y[i] == y2[i] && dy[i] == 0.0 ? 0 : 1; // f's writes done, d_o->y consumed
  auto f = [&] {
    waves(x, o2);
    return w[0] * y2[0] + w[1] * y2[1] + w[2] * y2[2];
  };
  for (int i = 0; i < 3; ++i) bad += check("waves d_x", x[i], dx[i], f);
  return bad;
}

int main() {
  const int bad = checkLoss() + checkLength() + checkLayer() + checkStack() + checkWaves();
  std::printf(bad ? "FAILED\n" : "PASSED\n");
  return bad;
}
// CHECK-NOT: finite differences
// CHECK: PASSED
#endif
