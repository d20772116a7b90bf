// One mode per function (a wrapper gets the other), and no marked methods
// in forward mode yet.
// RUN: not %unfad %s -- -std=c++17 -I%unfad_include 2>&1 | FileCheck %s
#include <unfad/unfad.h>
// CHECK-DAG: jvp_marks.cpp:[[@LINE+1]]:33: error: cannot differentiate 'both': a function carries either UNFAD_GRADIENT or UNFAD_JVP, not both
UNFAD_GRADIENT UNFAD_JVP double both(double x) { return x * x; }
struct Model {
  double a;
// CHECK-DAG: jvp_marks.cpp:[[@LINE+1]]:20: error: cannot differentiate 'loss': forward mode (UNFAD_JVP) does not support member functions yet
  UNFAD_JVP double loss(double x) const { return a * x; }
};
