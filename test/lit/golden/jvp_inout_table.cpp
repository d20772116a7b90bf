// Forward mode on an in/out array of arrays (a Gauss-Seidel sweep on a
// std::vector<std::vector<double>>& grid, staged through a flat local copy):
// the tangents of the result and of every element of the grid's final value
// against central differences, and the grid left as f leaves it.
// RUN: cp %s %t.cpp && %unfad -i %t.cpp -- -std=c++17 -I%unfad_include
// RUN: %cxx -std=c++17 -O1 -I%unfad_include %t.cpp -o %t.exe && %t.exe | FileCheck %s
// CHECK: result tangent ok
// CHECK: grid tangents ok
// CHECK: grid ok
#include <unfad/unfad.h>
#include <cmath>
#include <cstdio>
#include <vector>

using Grid = std::vector<std::vector<double>>;

UNFAD_JVP double sweep(Grid& u, double h) {
  const std::size_t n = u.size();
  for (std::size_t i = 1; i + 1 < n; ++i)
    for (std::size_t j = 1; j + 1 < n; ++j)
      u[i][j] = 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]) + h * u[i][j];
  double r = 0;
  for (const auto& row : u)
    for (double v : row) r += v * v;
  return r;
}

int main() {
  const Grid u0 = {{0.1, 0.2, 0.3, 0.4}, {0.5, 0.6, 0.7, 0.8}, {0.9, 1.0, 1.1, 1.2}, {1.3, 1.4, 1.5, 1.6}};
  Grid du(4, std::vector<double>(4));
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) du[i][j] = 0.1 * (i + 2 * j + 1);
  const double h = 0.3, dh = 0.5, e = 1e-6;
  Grid u = u0, dut = du;
  double dr = 0;
  const double r = sweep_jvp(u, h, dut, dh, &dr);
  Grid up = u0, um = u0, uf = u0;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) up[i][j] += e * du[i][j], um[i][j] -= e * du[i][j];
  const double rp = sweep(up, h + e * dh), rm = sweep(um, h - e * dh), rf = sweep(uf, h);
  auto close = [](double a, double b) { return std::fabs(a - b) <= 1e-6 * (1 + std::fabs(b)); };
  if (close(dr, (rp - rm) / (2 * e)) && r == rf) std::printf("result tangent ok\n");
  bool tangents = true, grid = true;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      tangents = tangents && close(dut[i][j], (up[i][j] - um[i][j]) / (2 * e));
      grid = grid && u[i][j] == uf[i][j];
    }
  if (tangents) std::printf("grid tangents ok\n");
  if (grid) std::printf("grid ok\n");
}
