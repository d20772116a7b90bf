// Outputs through pointers to single variables, as C code writes them: a
// helper writing two results (`polar(x, y, &r, &th)`), a struct stepped in
// place in a loop (`step(&st, h)`, `s->x += ...`), an accumulator updated
// through a pointer in a loop, two variables swapped through pointers, a
// variable read and written directly between calls, through a reference,
// and in an expression (`s = ++count * r`), and a helper with a loop given
// the address of a scalar as a one-element array, and the addresses of
// parameters passed by value. Each was refused before
// ("pointers to single variables are not supported").
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

static void polar(double x, double y, double* r, double* th) {
  *r = std::hypot(x, y);
  *th = std::atan2(y, x);
}

UNFAD_GRADIENT double rose(double x, double y) {
  double r, th;
  polar(x, y, &r, &th);
  return r * std::cos(3 * th);
}

struct State {
  double x, v;
};

static void step(State* s, double h) {
  s->x += h * s->v;
  s->v -= h * std::sin(s->x);
}

static double energy(const State* s) { return 0.5 * s->v * s->v - std::cos(s->x); }

UNFAD_GRADIENT double pendulum(double x0, double v0, double h) {
  State st{x0, v0};
  for (int i = 0; i < 12; ++i) step(&st, h);
  st.v *= 0.5; // (directly, between calls)
  return energy(&st) + st.x;
}

static void accumulate(double v, double* acc) { *acc += v * std::tanh(v); }

static void swap2(double* a, double* b) {
  const double t = *a;
  *a = *b;
  *b = t;
}

UNFAD_GRADIENT double scored(const std::vector<double>& x, double w) {
  double total = 0.0, other = w;
  for (double v : x) {
    accumulate(v * w, &total);
    if (v > 0) swap2(&total, &other);
  }
  double& alias = total;
  alias += 0.25 * other;
  int count = 0;
  const double s = ++count * total;
  return s + other * other;
}

// A helper looping over a pointer, given a scalar's address and n = 1.
static void scale_all(double* a, int n, double c) {
  for (int i = 0; i < n; ++i) a[i] = c * std::sin(a[i]);
}

UNFAD_GRADIENT double scaled_once(double x, double c) {
  double y = x * x;
  scale_all(&y, 1, c);
  return y + x;
}

// The address of parameters passed by value (of the marked function and of
// a helper lowered into it): a copy of the argument that lives in memory.
static double bumped(double a, double k) {
  accumulate(k, &a);
  return a * k;
}

UNFAD_GRADIENT double through_params(double x, double y) {
  accumulate(x * y, &y);
  State s{x, y};
  step(&s, 0.1);
  return bumped(y, x) + energy(&s) + y;
}

// A variable in memory also captured by a lambda by reference, and written
// through its address in a loop with `continue` and `break`.
UNFAD_GRADIENT double captured(double x, double y) {
  double acc = 0.5 * x;
  auto add = [&](double v) { acc += v * v; };
  accumulate(x, &acc);
  add(y);
  accumulate(acc, &acc);
  return acc * y;
}

UNFAD_GRADIENT double stopped(const std::vector<double>& x) {
  double acc = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (x[i] < -1) continue;
    if (x[i] > 5) break;
    accumulate(x[i], &acc);
    acc *= 0.9;
  }
  return acc;
}

/* e2e
[{"function": "rose", "points": [[0.75, -1.25], [-2.0, 0.5]]},
 {"function": "pendulum", "points": [[0.5, -0.25, 0.1], [1.5, 0.75, 0.05]]},
 {"function": "scored", "points": [[[0.5, -1.25, 2.0, -0.75], 0.8]]},
 {"function": "scaled_once", "points": [[0.7, 1.3]]},
 {"function": "through_params", "points": [[0.7, -1.3], [1.1, 0.4]]},
 {"function": "captured", "points": [[0.7, -1.3], [1.1, 0.4]]},
 {"function": "stopped", "points": [[[0.5, -1.25, 2.0, -0.75, 6.0, 1.0]]]}]
*/
