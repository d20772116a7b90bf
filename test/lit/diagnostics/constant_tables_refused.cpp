// Constants of the program are read by name in the generated code
// (lib/frontend/constant_tables.cpp): one declared after the marked function,
// or a private static member read from a free function, cannot be, and a
// static local initialised from the call's values keeps its first call's
// value; a const std::vector table is not read by name yet. Each is refused
// at the read, located, and nothing is written.
// RUN: not %unfad %s -- -std=c++17 -I%unfad_include 2>&1 | FileCheck %s
#include <unfad/unfad.h>
#include <cmath>
#include <vector>

double scaled(double x, int k);

UNFAD_GRADIENT double early(double x) { return scaled(x, 2); }

static constexpr double kScale[3] = {1.0, 2.0, 4.0};
// CHECK: constant_tables_refused.cpp:[[@LINE+1]]:50: error: cannot differentiate 'early': constant 'kScale' is declared after the marked function; declare it before (the generated function, written after the marked one, reads it by its name)
double scaled(double x, int k) { return std::sin(kScale[k] * x); }

class Model {
  static constexpr double w[2] = {0.5, 1.5};

public:
  static double apply(double x) { return w[0] * x + w[1] * x * x; }
};

// CHECK: constant_tables_refused.cpp:[[@LINE-3]]:42: error: cannot differentiate 'hidden': constant 'w' is a non-public static member (the generated function reads it by its name from outside the class)
UNFAD_GRADIENT double hidden(double x) { return Model::apply(x); }

UNFAD_GRADIENT double first_call(double x) {
// CHECK: constant_tables_refused.cpp:[[@LINE+1]]:23: error: cannot differentiate 'first_call': static local 'x0' keeps the value its first call computed from that call's values, which is not supported (make it a plain local)
  static const double x0 = x;
  return x * x0;
}

const std::vector<double> kTable = {0.5, 1.5};
UNFAD_GRADIENT double vector_table(double x) {
// CHECK: constant_tables_refused.cpp:[[@LINE+1]]:10: error: cannot differentiate 'vector_table': constant 'kTable' is a std::vector, which is not supported yet as a table read by name (a C array or a std::array is: 'constexpr std::array<double, N> kTable{...}')
  return kTable[0] * x + kTable[1] * x * x;
}

// CHECK-NOT: unfad:begin
