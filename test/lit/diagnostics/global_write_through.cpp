// A global number is read by name because nothing the call runs writes it:
// every way of writing it stays an error at the construct (through a
// reference local, a helper's reference parameter, std::swap, ++, a
// function returning a reference to it), and nothing is written.
// RUN: not %unfad %s -- -std=c++17 -I%unfad_include 2>&1 | FileCheck %s
#include <unfad/unfad.h>
#include <utility>
double g = 2.0;
UNFAD_GRADIENT double by_reference(double x) {
// CHECK: global_write_through.cpp:[[@LINE+1]]:15: error: cannot differentiate 'by_reference': this reference is not supported ('r'; only references to local variables, to array elements and to their fields are)
  double& r = g;
  r = x;
  return r * x;
}
static void bump(double& a, double v) { a += v; }
UNFAD_GRADIENT double by_helper(double x) {
// CHECK: global_write_through.cpp:[[@LINE+1]]:8: error: cannot differentiate 'by_helper': this argument of 'bump' cannot be passed by reference (only local variables, array elements and their fields can)
  bump(g, x);
  return g * x;
}
UNFAD_GRADIENT double by_swap(double x) {
  double y = x;
// CHECK: global_write_through.cpp:[[@LINE+1]]:13: error: cannot differentiate 'by_swap': writes to global variable 'g'
  std::swap(g, y);
  return y * x + g;
}
UNFAD_GRADIENT double by_increment(double x) {
// CHECK: global_write_through.cpp:[[@LINE+1]]:3: error: cannot differentiate 'by_increment': writes to global variable 'g'
  g++;
  return x * g;
}
// CHECK: global_write_through.cpp:[[@LINE+1]]:31: error: cannot differentiate 'by_returned_reference': 'ref' returns a reference to something other than an element of an array, a variable of its caller or a field of one (not supported)
static double& ref() { return g; }
UNFAD_GRADIENT double by_returned_reference(double x) {
  ref() = x;
  return x * g;
}
// CHECK-NOT: unfad:begin
