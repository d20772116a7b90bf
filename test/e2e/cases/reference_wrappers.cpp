// std::reference_wrapper as people write it: std::ref(acc) given to
// function templates taking T by value (written through `.get()` and
// through `double& r = t;`), to a loop accumulating a vector, and to a
// generic lambda; reference_wrapper locals of a local and of a field;
// std::cref read through its conversion to const double&; and const
// references bound to std::max/std::min/std::clamp results whose arguments
// are written afterwards (they keep designating the object chosen when
// they were bound).
#include <unfad/unfad.h>

#include <algorithm>
#include <functional>
#include <vector>

template <class T> void add_sq(T t, double x) { t.get() += x * x; }
template <class T> void scale_into(T t, double s) {
  double& r = t;
  r *= s;
}
template <class Acc> void sum_into(Acc acc, const std::vector<double>& v) {
  for (double e : v) acc.get() += e;
}
template <class T> double twice(T t) { return 2.0 * t; }

struct Pair {
  double a, b;
};

UNFAD_GRADIENT double wrappers(double a, double b, const std::vector<double>& v) {
  double acc = 0.0;
  add_sq(std::ref(acc), a);
  scale_into(std::ref(acc), b);
  sum_into(std::ref(acc), v);
  std::reference_wrapper<double> w = acc;
  w.get() *= a;
  auto c = std::cref(b);
  Pair p{a, b};
  std::reference_wrapper<double> pb = p.b;
  pb.get() += acc;
  auto lam = [](auto r, double x) { r.get() -= x; };
  lam(std::ref(p.a), b);
  return acc + c * twice(std::cref(acc)) + p.a * p.b;
}

UNFAD_GRADIENT double chosen_later(double a, double b, double c) {
  const double& m = std::max(a, b);
  const double& lo = std::min(b, c);
  const double& cl = std::clamp(c, b, a);
  a = 3.0 * a;
  b = b * c;
  c = c + 1.0;
  return m * a + lo * b + cl * c;
}

/* e2e
[{"function": "wrappers",
  "points": [[1.5, 0.5, [0.25, -1.0, 2.0]], [0.3, -0.8, [1.5]], [-1.2, 1.1, [0.5, 0.5]]]},
 {"function": "chosen_later",
  "points": [[1.5, 0.5, 2.0], [2.5, 1.0, 1.2], [0.7, -0.6, 0.1], [1.1, 0.2, 0.4]]}]
*/
