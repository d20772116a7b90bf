// Regression: f_grad computes integers as `long`, so a struct literal with an
// int field initialised from a non-constant expression (`Obs{t[i], y[i],
// 1 + i % 2}`, or a loop-carried Cnt rebuilt after an `if`) was a narrowing
// conversion inside braces and did not compile. Such fields are now printed
// as static_cast<decltype(Obs::w)>(...).
#include <unfad/unfad.h>

#include <cstddef>
#include <vector>

struct Obs {
  double t;
  double y;
  int w;
};

UNFAD_GRADIENT double f(const std::vector<double>& t, const std::vector<double>& y, double a) {
  const int n = static_cast<int>(t.size());
  std::vector<Obs> obs(n);
  for (int i = 0; i < n; ++i) obs[i] = Obs{t[i], y[i], 1 + i % 2};
  double s = 0.0;
  for (int i = 0; i < n; ++i) {
    const double r = a * obs[i].t - obs[i].y;
    s += obs[i].w * r * r;
  }
  return s;
}

struct Cnt {
  double v;
  int k;
};

UNFAD_GRADIENT double g(const std::vector<double>& x) {
  Cnt acc{0.0, 0};
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (x[i] > 0.0) {
      acc.v += x[i] * x[i];
      acc.k += 1;
    } else {
      acc.v -= x[i];
    }
  }
  return acc.v * acc.k;
}

/* e2e
[{"function": "f", "points": [[[0.5, 1.0, 1.5], [1.25, -0.5, 2.0], 0.8]],
 "grad_formula": ["[2*(1 + i % 2)*(a*t[i] - y[i])*a for i in range(len(t))]",
                  "[-2*(1 + i % 2)*(a*t[i] - y[i]) for i in range(len(t))]",
                  "sum(2*(1 + i % 2)*(a*t[i] - y[i])*t[i] for i in range(len(t)))"]},
 {"function": "g", "points": [[[0.5, -1.25, 2.0]]], "grad_formula": ["(lambda k, v: [2*x[i]*k if x[i] > 0 else -k for i in range(len(x))])(sum(1 for u in x if u > 0), 0)"]}]
*/
