// Central finite differences for the plugin tests (relative tolerance 1e-6).
#pragma once
#include <cmath>
#include <cstdio>

inline int fd_check(const char *what, double grad, double fd) {
  const double tol = 1e-6 * std::fmax(1.0, std::fabs(grad));
  const bool ok = std::fabs(grad - fd) <= tol;
  std::printf("%s: unfad %.12g  finite difference %.12g  %s\n", what, grad, fd, ok ? "ok" : "MISMATCH");
  return ok ? 0 : 1;
}
