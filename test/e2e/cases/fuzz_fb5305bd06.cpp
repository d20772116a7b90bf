// Found by test/fuzz/fuzz.py (unfad-fuzz:1:1), shrunk: unfad-crash.
// At the time it was found:
//   unfad exit code 1 (unfad built 04:51 UTC; fixed by 05:02)
//   batch.cpp: error: internal error in unfad: UNF: unbound variable t2_2
#include <unfad/unfad.h>

#include <cmath>

struct fuzz_fb5305bd06_V2 {
  double x, y;
};
inline double fuzz_fb5305bd06_h0(fuzz_fb5305bd06_V2 s) {
  bool c0 = !(std::cbrt(1.5 + cos(1.25)) >= 4.0);
  return s.x;
}
template <typename T> T fuzz_fb5305bd06_h1(T a0, T a1, T a2) {
  T t0 = fuzz_fb5305bd06_h0((std::atan2(hypot(a2, 1.0), a1) > (a1 + a2)) ? fuzz_fb5305bd06_V2{a2, a2} : fuzz_fb5305bd06_V2{a0, 1.25});
  return (a2 * cos(a1)) + a0;
}
UNFAD_GRADIENT double fuzz_fb5305bd06_f(double x0, double x1, double x2, double x3, double x4, double x5) {
  const double t0 = std::cos(std::erf(x5)) / (1.5 + std::cos(0.1 * x3));
  double t1 = 2.0 + fuzz_fb5305bd06_h0(fuzz_fb5305bd06_V2{x5, t0});
  bool c0 = t1 <= (t0 - x5);
  double t2 = std::log10(1.0 + std::exp((pow(std::hypot(x2, 1.0), 2.0) * t1) / (1.0 + ((pow(std::hypot(x2, 1.0), 2.0) * t1) * (pow(std::hypot(x2, 1.0), 2.0) * t1)))));
  const double t3 = (t1 * (t2 * 2.0)) + ((c0 ? x5 : t2) * (x1 * t2));
  x4 *= sqrt(1.0 + std::exp(4.0 / (1.0 + (4.0 * 4.0)))) - std::expm1(std::sin(t2));
  if (log1p(0.5 * atan(t3)) > x5) {
    if ((x3 * t3) > x4) {
      fuzz_fb5305bd06_V2 v0 = (t3 >= 0.25) ? ((sqrt(hypot(t1, 0.5)) < t3) ? fuzz_fb5305bd06_V2{t0, t0} : fuzz_fb5305bd06_V2{x3, x2}) : fuzz_fb5305bd06_V2{t3 + t2, t3 * x5};
      if ((v0.x * t0) >= -t3) {
        return (((x1 + v0.y) >= asin(0.6 * (t3 / (1.0 + (t3 * t3))))) ? t1 : x4) * (1.25 * t3);
      }
      double t5 = fuzz_fb5305bd06_h0(fuzz_fb5305bd06_V2{x3, t3}) * ((x4 * 4.0) - fuzz_fb5305bd06_h1<double>(4.0, t0, t2));
    } else {
      t2 *= 1.5 * (x4 / (1.0 + (x4 * x4)));
    }
  } else if ((t2 - x0) <= t2) {
    fuzz_fb5305bd06_V2 v1 = fuzz_fb5305bd06_V2{t3 / (2.5 + atan(t0)), t3};
  }
  x1 /= 1.0 + ((std::expm1(cos(t1)) * (x4 * t3)) * (std::expm1(cos(t1)) * (x4 * t3)));
  fuzz_fb5305bd06_V2 v2 = ((cos(t3) >= (x3 / (1.5 + cos(t2)))) && ((x0 - t1) >= t2)) ? (c0 ? fuzz_fb5305bd06_V2{x4, x5} : fuzz_fb5305bd06_V2{t3, x4}) : (c0 ? fuzz_fb5305bd06_V2{t3, x2} : fuzz_fb5305bd06_V2{t3, x3});
  double t7 = std::erf(std::sin(x4 - t3));
  fuzz_fb5305bd06_V2 v3 = (t3 < 1.25) ? fuzz_fb5305bd06_V2{fuzz_fb5305bd06_h0(fuzz_fb5305bd06_V2{t3, t7}), t2} : fuzz_fb5305bd06_V2{v2.x, (t0 > t2) ? x3 : t3};
  c0 = c0 && c0;
  double t8 = asin(0.6 * std::tanh((t0 - 0.5) - fuzz_fb5305bd06_h1(t7, x4, v3.x)));
  x0 *= std::tan(0.6 * tanh(std::cos(t3)));
  bool c1 = ((-1.0) - t8) > x4;
  double t9 = t7 * exp(std::tanh(fuzz_fb5305bd06_h0(v2)));
  fuzz_fb5305bd06_V2 v4 = v3;
  const double t10 = t2 / (1.5 + cos(fuzz_fb5305bd06_h0(fuzz_fb5305bd06_V2{x2, t8})));
  double t11 = ((t1 + t10) - (x4 * v4.y)) - t10;
  t8 += fuzz_fb5305bd06_h0(fuzz_fb5305bd06_V2{t1, x2}) + t11;
  bool c2 = (atan(t1) < fuzz_fb5305bd06_h1(t1, v4.x, t0)) && (std::pow(2.0 + std::atan(0.25), 2.0 * std::tanh(x0)) < (x1 + t0));
  return (((t9 * tanh(t1)) * std::atan(x1)) * v3.y) + v4.x;
}

/* e2e
{"function": "fuzz_fb5305bd06_f", "points": [[-0.1875, 1.25, 1.84375, -0.453125, 0.375, -1.96875], [0.125, -0.734375, 1.015625, -0.1875, -1.0625, 0.90625], [0.578125, -1.296875, -1.40625, 1.375, -0.65625, 0.78125], [-1.765625, -1.640625, -0.484375, -0.28125, 1.046875, -1.0625]], "rtol": 1e-05, "atol": 1e-06, "flags": ["-Wno-unused-parameter", "-Wno-unused-variable", "-Wno-unused-but-set-variable", "-Wno-unused-but-set-parameter"]}
*/
