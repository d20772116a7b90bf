// The <complex> functions unfad does not know are an error at the call (std::pow of a complex), and so is a
// compound assignment to an element of an array of complex numbers (write `X[j] = X[j] + w`).
// RUN: not %unfad %s -- -std=c++17 -I%unfad_include 2>&1 | FileCheck %s
#include <unfad/unfad.h>
#include <complex>
#include <vector>
UNFAD_GRADIENT double f(double x) {
  std::complex<double> z(x, 1.0);
  // CHECK: complex_unsupported.cpp:[[@LINE+1]]:19: error: cannot differentiate 'f': 'std::pow' of a std::complex is not supported
  return std::abs(std::pow(z, 2.0));
}
UNFAD_GRADIENT double g(double a) {
  std::vector<std::complex<double>> X(2);
  // CHECK: complex_unsupported.cpp:[[@LINE+1]]:3: error: cannot differentiate 'g': writes through the reference a function returns are not supported ('operator[]'; index the array instead)
  X[1] += a;
  return X[1].real();
}
