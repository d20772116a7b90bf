// Printing inside differentiated code, as numerical code does it (progress
// lines, warnings from a helper, a residual per solver iteration): f_grad
// prints exactly what f prints, in the same order, once — also where the
// backward sweep recomputes a loop (a recurrence), in a helper with a loop
// called per point, in nested loops, in a `while` loop, in a lambda given to
// std::for_each, and in a function with an in/out parameter (which runs
// again, quietly, to redo its writes). Each f's output is captured and
// compared with its f_grad's, and each gradient is checked against central
// differences.
// RUN: cp %s %t.cpp && %unfad -i %t.cpp -- -std=c++17 -I%unfad_include
// RUN: %cxx -std=c++17 -O1 -I%unfad_include %t.cpp -o %t.exe && %t.exe | FileCheck %s
// RUN: grep -v '^// *[A-Z-]*:' %t.cpp | FileCheck %s --check-prefix=CODE
// CHECK: fit: same output (6 lines), gradient ok
// CHECK: recurrence: same output (3 lines), gradient ok
// CHECK: per_point: same output (2 lines), gradient ok
// CHECK: grid: same output (3 lines), gradient ok
// CHECK: newton: same output (6 lines), gradient ok
// CHECK: each: same output (3 lines), gradient ok
// CHECK: advance: same output (2 lines), gradient ok
// CHECK: ticks: same output (7 lines), gradient ok
// The statements are printed as written, where the function runs them:
// CODE-LABEL: double fit_grad(
// CODE:         std::printf("i=%d r=%.6f\n", static_cast<int>(i), r);
// CODE:       std::cout << "loss " << {{[a-z_0-9]+}} << " n=" << static_cast<unsigned long>({{[a-z_0-9]+}}) << std::endl;
// CODE-LABEL: void advance_grad(
// CODE-COUNT-1: std::printf("norm %.9f\n",
// CODE-NOT: std::printf
// CODE: }
#include <unfad/unfad.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <string>
#include <unistd.h>
#include <vector>

static double sq(double v) {
  if (v > 10) std::cerr << "large " << v << "\n";
  return v * v;
}

UNFAD_GRADIENT double fit(const std::vector<double>& x, double w) {
  double s = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    double r = std::exp(w * x[i]) - 1.0;
    s += sq(r);
    if (i % 2 == 0) std::printf("i=%d r=%.6f\n", (int)i, r);
  }
  std::cout << "loss " << s << " n=" << x.size() << std::endl;
  return s;
}

// h carried from step to step: the backward sweep needs each step's h.
UNFAD_GRADIENT double recurrence(const std::vector<double>& x, double w) {
  double h = 0.1;
  for (std::size_t t = 0; t < x.size(); ++t) {
    h = std::tanh(w * h + x[t]);
    if (t % 2 == 1) std::cout << "h[" << t << "] = " << h << '\n';
  }
  return h * h;
}

// A helper with a loop (a pullback of its own if it did not print), called per point.
static double robust(const double* r, int m, double c) {
  double s = 0;
  for (int j = 0; j < m; ++j) s += c * c * std::log1p(r[j] * r[j] / (c * c));
  if (s > 2.0) std::printf("robust %.4f over %d\n", s, m);
  return s;
}

UNFAD_GRADIENT double per_point(const std::vector<double>& r, int n, int m, double c) {
  double total = 0;
  for (int i = 0; i < n; ++i) total += robust(&r[i * m], m, c);
  return total / n;
}

UNFAD_GRADIENT double grid(const std::vector<double>& u, int n) {
  double e = 0;
  for (int i = 1; i < n; ++i) {
    double row = 0;
    for (int j = 1; j < n; ++j) {
      double d = u[i * n + j] - u[(i - 1) * n + j - 1];
      row += std::sin(d) * d;
      if (i == j) std::printf("diag %d %.5f\n", i, row);
    }
    e += row * row;
  }
  return e;
}

// sqrt(a) by Newton's method from a fixed start: the residual per iteration.
UNFAD_GRADIENT double newton(double a) {
  double y = 1.0, err = 1.0;
  int it = 0;
  while (err > 1e-12 && it < 50) {
    double next = 0.5 * (y + a / y);
    err = std::fabs(next - y);
    y = next;
    ++it;
    std::printf("it %d err %.3e\n", it, err);
  }
  return y;
}

UNFAD_GRADIENT double each(const std::vector<double>& x, double k) {
  double s = 0;
  std::for_each(x.begin(), x.end(), [&](double v) {
    s += std::sin(k * v);
    if (v < 0) std::cout << "negative " << v << " s=" << s << '\n';
  });
  return s;
}

// In place: y is an in/out state (f_grad leaves it as f does).
UNFAD_GRADIENT void advance(std::vector<double>& y, double h) {
  const std::size_t n = y.size();
  for (int step = 0; step < 2; ++step) {
    for (std::size_t i = 0; i + 1 < n; ++i) y[i] += h * std::sin(y[i + 1]);
    double norm = 0;
    for (double v : y) norm += v * v;
    std::printf("norm %.9f\n", std::sqrt(norm));
  }
}

// The same line twice, and a line per iteration that reads nothing of it:
// neither merged nor hoisted.
UNFAD_GRADIENT double ticks(const std::vector<double>& x, double a) {
  std::printf("start\n");
  std::printf("start\n");
  double s = 0;
  for (double v : x) {
    std::puts("tick");
    s += a * v;
  }
  std::printf("done %d\n", (int)x.size());
  return s * s;
}

// What `run` prints on stdout and stderr.
template <class F> std::string captured(F run) {
  std::cout.flush();
  std::fflush(stdout);
  std::FILE* tmp = std::tmpfile();
  const int out = dup(1), err = dup(2);
  dup2(fileno(tmp), 1);
  dup2(fileno(tmp), 2);
  run();
  std::cout.flush();
  std::cerr.flush();
  std::fflush(stdout);
  std::fflush(stderr);
  dup2(out, 1);
  dup2(err, 2);
  close(out);
  close(err);
  std::string text;
  std::rewind(tmp);
  for (int c; (c = std::fgetc(tmp)) != EOF;) text += char(c);
  std::fclose(tmp);
  return text;
}

int lines(const std::string& s) { return int(std::count(s.begin(), s.end(), '\n')); }

// f(x) and f_grad(x, d) for the active values x (f's output discarded while
// differencing); prints the verdict.
template <class F, class G>
void check(const char* name, F f, G grad, std::vector<double> x) {
  std::vector<double> d(x.size(), 0.0);
  double value = 0, gvalue = 0;
  const std::string printed = captured([&] { value = f(x); });
  const std::string gprinted = captured([&] { gvalue = grad(x, d); });
  bool ok = value == gvalue || (std::isnan(value) && std::isnan(gvalue));
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double h = 1e-6, x0 = x[i];
    double up = 0, down = 0;
    captured([&] {
      x[i] = x0 + h;
      up = f(x);
      x[i] = x0 - h;
      down = f(x);
    });
    x[i] = x0;
    const double fd = (up - down) / (2 * h);
    if (std::abs(fd - d[i]) > 1e-5 * (1 + std::abs(fd))) {
      std::printf("%s: mismatch at %zu: %g vs %g\n", name, i, d[i], fd);
      ok = false;
    }
  }
  if (printed != gprinted) std::printf("%s: f printed\n%s---\nf_grad printed\n%s---\n", name, printed.c_str(), gprinted.c_str());
  std::printf("%s: %s output (%d lines), gradient %s\n", name, printed == gprinted ? "same" : "different",
              lines(printed), ok ? "ok" : "wrong");
}

// f(x, s) and f_grad(x, s, d_x, &d_s) as functions of v = (x..., s).
template <class F> auto splitLast(F f) {
  return [f](const std::vector<double>& v) { return f(std::vector<double>(v.begin(), v.end() - 1), v.back()); };
}
template <class G> auto splitLastGrad(G grad) {
  return [grad](const std::vector<double>& v, std::vector<double>& d) {
    std::vector<double> dx(v.size() - 1, 0.0);
    double ds = 0;
    const double r = grad(std::vector<double>(v.begin(), v.end() - 1), v.back(), dx, &ds);
    std::copy(dx.begin(), dx.end(), d.begin());
    d.back() = ds;
    return r;
  };
}

int main() {
  check("fit", splitLast([](const std::vector<double>& x, double s) { return fit(x, s); }),
        splitLastGrad([](const std::vector<double>& x, double s, std::vector<double>& dx, double* ds) {
          return fit_grad(x, s, dx, ds);
        }),
        {0.5, 1.0, 1.5, 2.0, 2.5, 1.3});
  check("recurrence", splitLast([](const std::vector<double>& x, double s) { return recurrence(x, s); }),
        splitLastGrad([](const std::vector<double>& x, double s, std::vector<double>& dx, double* ds) {
          return recurrence_grad(x, s, dx, ds);
        }),
        {0.3, -0.2, 0.8, 0.1, -0.5, 0.4, 0.9, 0.7});
  check("per_point", splitLast([](const std::vector<double>& x, double s) { return per_point(x, 4, 3, s); }),
        splitLastGrad([](const std::vector<double>& x, double s, std::vector<double>& dx, double* ds) {
          return per_point_grad(x, 4, 3, s, dx, ds);
        }),
        {0.5, 1.5, -2.5, 0.1, 0.2, 0.3, 3.0, -2.0, 1.0, 0.0, 0.4, -0.1, 0.9});
  check("grid", [](const std::vector<double>& v) { return grid(v, 4); },
        [](const std::vector<double>& v, std::vector<double>& d) { return grid_grad(v, 4, d); },
        {0.1, 0.7, -0.3, 1.2, 0.5, -0.8, 0.9, 0.2, -0.4, 1.1, 0.6, -0.2, 0.3, 0.8, -0.6, 0.4});
  check("newton", [](const std::vector<double>& v) { return newton(v[0]); },
        [](const std::vector<double>& v, std::vector<double>& d) { return newton_grad(v[0], &d[0]); }, {2.5});
  check("each", splitLast([](const std::vector<double>& x, double s) { return each(x, s); }),
        splitLastGrad([](const std::vector<double>& x, double s, std::vector<double>& dx, double* ds) {
          return each_grad(x, s, dx, ds);
        }),
        {0.4, -1.1, 0.7, -0.3, 2.0, -0.9, 1.7});
  // advance: phi(y0, h) = sum_k w_k y_final[k]; d_y carries w in and d phi / d y0 out.
  const std::vector<double> w = {0.3, -0.7, 1.1, 0.5};
  check("advance",
        [&](const std::vector<double>& v) {
          std::vector<double> y(v.begin(), v.end() - 1);
          advance(y, v.back());
          double phi = 0;
          for (std::size_t k = 0; k < y.size(); ++k) phi += w[k] * y[k];
          return phi;
        },
        [&](const std::vector<double>& v, std::vector<double>& d) {
          std::vector<double> y(v.begin(), v.end() - 1), y_f(y), dy = w;
          captured([&] { advance(y_f, v.back()); }); // (f's printing is not f_grad's)
          double dh = 0;
          advance_grad(y, v.back(), dy, &dh);
          std::copy(dy.begin(), dy.end(), d.begin());
          d.back() = dh;
          double phi = 0;
          for (std::size_t k = 0; k < y.size(); ++k) phi += w[k] * y[k];
          return y == y_f ? phi : -1e300; // f_grad leaves y as f does
        },
        {0.2, -0.4, 0.6, 0.1, 0.25});
  check("ticks", splitLast([](const std::vector<double>& x, double s) { return ticks(x, s); }),
        splitLastGrad([](const std::vector<double>& x, double s, std::vector<double>& dx, double* ds) {
          return ticks_grad(x, s, dx, ds);
        }),
        {0.4, -1.1, 0.7, 2.0, 1.5});
}
