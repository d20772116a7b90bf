// Structs whose members are pointers into arrays (the per-layer weight and
// bias views of a network): locals brace-initialised or assigned member by
// member, read as `l.w[i]`, `*l.b`, `l.w + k`, `l.n`; passed by const
// reference and by value to helpers; a local array of them filled in a loop
// and a std::array of them from an initializer list; writes through a
// `double*` member into a local array and into the output.
#include <unfad/unfad.h>

#include <array>
#include <cmath>
#include <vector>

struct Layer {
  const double* w;
  const double* b;
  int n;
};

struct Buffer {
  double* data;
  int len;
};

struct Cell { // views nested in a struct of views
  Layer gate;
  Layer input;
};

static double affine(const Layer& l, const double* x) {
  double s = *l.b;
  for (int i = 0; i < l.n; ++i) s += l.w[i] * x[i];
  return s;
}

UNFAD_GRADIENT double two_layers(const double* p, const double* x, int h) {
  Layer first{p, p + h, h};
  Layer second;
  second.w = p + h + 1;
  second.b = &p[2 * h + 1];
  second.n = h;
  const double a = std::tanh(affine(first, x));
  const double* shifted = second.w + 1;
  return a * affine(second, x) + shifted[0] * *first.b;
}

UNFAD_GRADIENT double stacked(const double* p, const double* x, int h) {
  Layer layers[3];
  for (int k = 0; k < 3; ++k) {
    layers[k].w = p + k * (h + 1);
    layers[k].b = p + k * (h + 1) + h;
    layers[k].n = h;
  }
  double s = 0.0;
  for (int k = 0; k < 3; ++k) s += std::sin(affine(layers[k], x)) * layers[k].b[0];
  return s;
}

UNFAD_GRADIENT double listed(const std::vector<double>& p, const double* x) {
  const double* base = p.data();
  std::array<Layer, 2> ls{{{base, base + 2, 2}, {base + 3, base + 5, 2}}};
  const Layer second = ls[1];
  return affine(ls[0], x) * affine(second, x);
}

static void scale_into(Layer l, const double* x, Buffer out) {
  for (int i = 0; i < out.len; ++i) out.data[i] = l.w[i] * x[i] + *l.b;
}

UNFAD_GRADIENT void views_out(const double* p, const double* x, int h, double* y) {
  double tmp[4];
  Buffer t{tmp, h};
  Layer l{p, p + h, h};
  scale_into(l, x, t);
  Buffer o{y, h};
  for (int i = 0; i < h; ++i) o.data[i] = tmp[i] * tmp[i];
}

static double cell(const Cell& c, const double* x) {
  return std::tanh(affine(c.gate, x)) * affine(c.input, x);
}

UNFAD_GRADIENT double nested(const double* p, const double* x) {
  Cell c{{p, p + 2, 2}, {p + 3, p + 5, 2}};
  Layer g = c.gate;
  g.w += 1; // a member moved like a pointer local
  return cell(c, x) + g.w[0] * c.input.b[0];
}

/* e2e
[{"function": "two_layers",
  "points": [[[0.5, -0.3, 0.2, 0.7, 0.1, -0.4], [1.5, -0.5], 2]]},
 {"function": "stacked",
  "points": [[[0.5, -0.3, 0.2, 0.7, 0.1, -0.4, 0.3, 0.9, -0.6], [1.5, -0.5], 2]]},
 {"function": "listed",
  "points": [[[0.5, -0.3, 0.2, 0.7, 0.1, -0.4], [1.5, -0.5]]]},
 {"function": "views_out",
  "points": [[[0.5, -0.3, 0.2], [1.5, -0.5], 2]],
  "outputs": {"y": 2}},
 {"function": "nested",
  "points": [[[0.5, -0.3, 0.2, 0.7, 0.1, -0.4], [1.5, -0.5]]]}]
*/
