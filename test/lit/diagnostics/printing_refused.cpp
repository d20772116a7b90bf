// Printing is supported as a statement of its own (golden/printing.cpp).
// Refused, at the construct, with nothing written: printing inside an
// expression, printing a value that is not a number of the function (an
// object; a local stream is refused at its declaration), and printing in a
// recursive function (printing_recursive.cpp).
// RUN: not %unfad %s -- -std=c++17 -I%unfad_include 2>&1 | FileCheck %s
#include <unfad/unfad.h>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <sstream>

UNFAD_GRADIENT double norm(const double* x, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += x[i] * x[i];
// CHECK: printing_refused.cpp:[[@LINE+1]]:18: error: cannot differentiate 'norm': printing inside an expression is not supported (print in a statement of its own: 'std::cout << ...;', 'printf(...);')
  if (s > 1e6 && std::printf("large %g\n", s) > 0) s = 1e6;
  return std::sqrt(s);
}

struct Point {
  double x, y;
};
std::ostream& operator<<(std::ostream& os, const Point& p) { return os << p.x << ' ' << p.y; }

UNFAD_GRADIENT double moved(double x) {
  Point p{x, 2 * x};
// CHECK: printing_refused.cpp:[[@LINE+1]]:16: error: cannot differentiate 'moved': the statement printing here may only read numbers of the function ('p' is not one): the generated gradient rebuilds it from them
  std::cout << p << '\n';
  return p.x * p.y;
}

UNFAD_GRADIENT double logged(double x) {
// CHECK: printing_refused.cpp:[[@LINE+1]]:22: error: cannot differentiate 'logged': type 'std::ostringstream' is not supported
  std::ostringstream log;
  log << "x = " << x;
  return x * x;
}

// CHECK-NOT: unfad:begin
