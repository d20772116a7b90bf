// The <complex> functions unfad does not know are an error at the call (std::pow of a complex), and so are arrays of complex numbers.
// RUN: not %unfad %s -- -std=c++17 -I%unfad_include 2>&1 | FileCheck %s
#include <unfad/unfad.h>
#include <complex>
#include <vector>
UNFAD_GRADIENT double f(double x) {
  std::complex<double> z(x, 1.0);
  // CHECK: complex_unsupported.cpp:[[@LINE+1]]:19: error: cannot differentiate 'f': 'std::pow' of a std::complex is not supported
  return std::abs(std::pow(z, 2.0));
}
// CHECK: complex_unsupported.cpp:[[@LINE+1]]:66: error: cannot differentiate 'g': std::vectors of 'std::complex<double>' are not supported yet
UNFAD_GRADIENT double g(const std::vector<std::complex<double>>& v) { return std::abs(v[0]); }
