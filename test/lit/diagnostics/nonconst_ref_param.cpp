// a marked function's scalar reference parameter read and then written (an in/out value; a read-only or write-first 'double&' is supported): an error at the write, non-zero exit, and a failed -i leaves the file byte-identical.
// RUN: not %unfad %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
UNFAD_GRADIENT void f(double x, double &y) {
// CHECK: nonconst_ref_param.cpp:[[@LINE+1]]:3: error: cannot differentiate 'f': array 'y' is written after it is read (not supported yet)
  y = y * x;
}
