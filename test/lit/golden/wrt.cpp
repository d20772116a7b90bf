// UNFAD_GRADIENT_WRT: adjoints only for the named parameters, in order.
// RUN: %unfad %s -- -std=c++17 -I%unfad_include > %t.out
// RUN: grep -v '^// *[A-Z-]*:' %t.out | FileCheck %s
#include <unfad/unfad.h>

UNFAD_GRADIENT_WRT(x, k) double g(double x, double y, double k) { return k * x * y; }

UNFAD_GRADIENT float h(float a, int n) { return a * n; }

// CHECK: {{^}}double g_grad(double x, double y, double k, double* d_x, double* d_k) {
// CHECK: {{^}}float h_grad(float a, int n, float* d_a) {
