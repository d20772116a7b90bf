// unfad: source-to-source reverse-mode automatic differentiation for C++.
//
// The only header users include. Mark a function definition:
//
//   UNFAD_GRADIENT double energy(const double* x, int n, double k) { ... }
//   UNFAD_GRADIENT_WRT(x, k) double f(double x, double y, double k) { ... }
//
// and unfad (the command, the clang plugin or the CMake step) writes
// `energy_grad` right after it. Under compilers other than Clang the marks
// expand to nothing, so marked sources build everywhere.
#ifndef UNFAD_UNFAD_H
#define UNFAD_UNFAD_H

// Generated gradients use these (math functions, tapes and buffers).
#include <array>
#include <cmath>
#include <limits>
#include <memory>
#include <vector>

#if defined(__clang__)
#define UNFAD_GRADIENT __attribute__((annotate("unfad_gradient")))
#define UNFAD_GRADIENT_WRT(...) __attribute__((annotate("unfad_gradient_wrt:" #__VA_ARGS__)))
#else
#define UNFAD_GRADIENT
#define UNFAD_GRADIENT_WRT(...)
#endif

namespace unfad {
// The value of `x`, through which unfad propagates no derivative (a
// constant of the differentiation, like a detached tensor): for a value that
// only steers the computation, or a fixed point already converged. The
// generated code calls it too.
template <class T> constexpr T no_grad(T x) { return x; }
} // namespace unfad

#endif // UNFAD_UNFAD_H
