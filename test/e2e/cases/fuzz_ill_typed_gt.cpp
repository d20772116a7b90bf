// Found by the loops/arrays fuzzer; only partly shrunk (the shrinker ran out of time):
// unfad fails with "internal error in unfad: ill-typed IR: non-scalar operand of gt".
// Found by test/fuzz/fuzz.py (unfad-fuzz:303:92), shrunk: unfad-crash.
// At the time it was found:
//   unfad exit code 1
//   batch.cpp: error: internal error in unfad: ill-typed IR: non-scalar operand of gt
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

struct fuzz_c4f22e3139_V2 {
  double x, y;
};
template <typename T> T fuzz_c4f22e3139_h0(const T* b0, int n) {
  T t0 = 1.0;
  for (int i0 = 0; i0 < n; ++i0) {
    bool c0 = std::expm1(cos(t0)) > (t0 + t0);
    t0 = std::atan(t0 + (b0[i0] / hypot(t0, 0.5)));
  }
  return t0 + std::exp2(std::atan(std::fabs(static_cast<T>(n))));
}
UNFAD_GRADIENT double fuzz_c4f22e3139_f(int n, int k0, double x0, const double* a0, const double* a1, int k1, double x1, double x2) {
  if (log(1.0 + (x2 * x2)) <= (x0 + x2)) {
    std::vector<double> u0(n, 2.0 * std::tanh(x1 * 4.0));
    for (int i2 = 0; i2 < 1; ++i2) {
      std::vector<double> u1{x1 + u0[n - 1], u0[0]};
      for (int i3 = 0; i3 < n; ++i3) {
        u1[i3] = std::sin(((-0.75) * u0[i3]) + ((std::pow(a1[0], 3.0) <= a0[i3]) ? fuzz_c4f22e3139_h0(u1.data(), n) : fuzz_c4f22e3139_h0(u0.data(), n)));
      }
      for (int i4 = 0; i4 < n; ++i4) {
        u0[i4] = u1[i4];
      }
    }
  }
  --k1;
  if (cos(x1) <= (x0 / (1.0 + (x2 * x2)))) {
    for (int i5 = 0; i5 < n; ++i5) {
      x2 *= 0.5 * std::tanh(std::hypot(a1[i5], 1.5 + cos(a1[i5])));
      x1 /= 1.5 + cos(std::erf(a1[i5]));
      int m2 = i5 * 2;
      x1 = (x1 * a0[i5]) + fuzz_c4f22e3139_h0(a0, n);
    }
    if ((x2 - a1[n - 1]) <= (x2 + x0)) {
      double t3 = 1.0;
      for (int i6 = n - 1; i6 >= 0; --i6) {
        t3 += cos(sin(static_cast<double>(n)));
      }
      std::vector<double> u2(n);
    }
    int w0 = 4;
    while (w0 > 0) {
      --w0;
      double r0[2] = {};
      double t4 = ((r0[n - 1] - a0[0]) - 1.25) * fuzz_c4f22e3139_h0(a0, n);
      double t5 = fuzz_c4f22e3139_h0<double>(a0, n) + t4;
      x2 += fuzz_c4f22e3139_h0<double>(a1, n);
    }
  } else {
    for (int i7 = 1; i7 >= 0; --i7) {
      int w1 = 0;
      while (w1 < 7 && (x0 < 1.0)) {
        ++w1;
        int m3 = 3;
        const double t6 = std::cos(fuzz_c4f22e3139_h0<double>(a1, n));
        if (m3 > 2) {
          break;
        }
        x0 += 1.0 + (((static_cast<double>(m3) - x1) + fuzz_c4f22e3139_h0(a0, n)) * ((static_cast<double>(m3) - x1) + fuzz_c4f22e3139_h0(a0, n)));
      }
      bool c1 = ((x1 > (a0[i7] + (double)(k1))) ? a1[i7] : a0[i7]) > x0;
      double t7 = a1[n - 1];
      double t8 = std::tanh(a0[i7]);
      x0 = fmin(x0, std::erf(a1[n - 1 - i7]) + (a1[i7] + a0[n - 1 - i7]));
    }
  }
  const double t9 = std::log2(1.5 + std::cos(x0 * (a1[0] * 0.25)));
  double t10 = fuzz_c4f22e3139_h0<double>(a0, n);
  if ((k0 >= 2) || (k0 != 0)) {
    double t11 = 0.5;
    if (t10 > std::sin(a1[n - 1])) {
      double t12 = t11;
      for (int i8 = n - 1; i8 >= 0; --i8) {
        int m4 = n;
        t12 = (t12 * 0.5) + -((std::asin(0.6 * sin(0.5)) >= (t12 / (1.0 + (a1[i8] * a1[i8])))) ? t11 : t12);
      }
      const double t13 = std::fabs(tan(0.6 * std::cos(a1[n - 1])) / (2.5 + std::atan(t11)));
      int w2 = 3;
      while (w2 > 0) {
        --w2;
        x2 /= std::hypot(fuzz_c4f22e3139_h0(a1, n), 0.5);
        t12 -= std::log1p(x1 * x1) / (1.5 + std::cos(x1));
      }
    }
  }
  if (!(std::cosh(std::tanh(t9)) < t9)) {
    int w3 = 2;
    while (w3 > 0) {
      --w3;
      double t16 = exp((x0 * 3.0) / (1.0 + ((x0 * 3.0) * (x0 * 3.0))));
      for (int i11 = 0; i11 < n; ++i11) {
        x0 -= (i11 < 1) ? (0.25 * a1[i11]) : std::tanh(x2);
        x1 = fmin(x1, round(t9 - a0[i11]));
      }
      if (x0 >= (t16 / (1.0 + exp(std::atan(x1))))) {
        break;
      }
      x0 *= 3.0;
    }
    const double t17 = fuzz_c4f22e3139_h0(a1, n);
  }
  ++t10;
  std::vector<double> u4(n);
  for (int i12 = 0; i12 < n; ++i12) {
    bool c2 = fuzz_c4f22e3139_h0(a1, n) < (x1 + a0[n - 1 - i12]);
    u4[i12] = fuzz_c4f22e3139_h0(a1, n);
  }
  bool c3 = k1 <= 1;
  return (x0 - x2) + u4[0];
}

/* e2e
{"function": "fuzz_c4f22e3139_f", "points": [[2, 3, 1.59375, [1.296875, 0.703125], [-0.546875, -1.21875], 1, 1.46875, -1.328125], [2, 0, -0.96875, [1.375, -0.28125], [1.0625, 0.390625], 3, -0.046875, 1.453125], [2, 1, -0.203125, [0.09375, -2.0], [-0.484375, 0.015625], 1, -0.734375, 1.328125], [2, 2, 0.65625, [-0.6875, 1.53125], [0.4375, -1.890625], 0, -1.4375, -1.046875]], "rtol": 1e-05, "atol": 1e-06, "flags": ["-Wno-unused-parameter", "-Wno-unused-variable", "-Wno-unused-but-set-variable", "-Wno-unused-but-set-parameter"]}
*/
