// unfad: source-to-source reverse-mode automatic differentiation for C++.
//
// The only header users include. Mark a function definition:
//
//   UNFAD_GRADIENT double energy(const double* x, int n, double k) { ... }
//   UNFAD_GRADIENT_WRT(x, k) double f(double x, double y, double k) { ... }
//
// and unfad (the command, the clang plugin or the CMake step) writes
// `energy_grad` right after it. `UNFAD_JVP` (`UNFAD_JVP_WRT(...)`) asks for
// forward mode instead: `energy_jvp`, a Jacobian-vector product. Under compilers other than Clang the marks
// expand to nothing, so marked sources build everywhere.
#ifndef UNFAD_UNFAD_H
#define UNFAD_UNFAD_H

// Generated gradients use these (math functions, tapes and buffers).
#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <memory>
#include <vector>

#if defined(__clang__)
#define UNFAD_GRADIENT __attribute__((annotate("unfad_gradient")))
#define UNFAD_GRADIENT_WRT(...) __attribute__((annotate("unfad_gradient_wrt:" #__VA_ARGS__)))
#define UNFAD_JVP __attribute__((annotate("unfad_jvp")))
#define UNFAD_JVP_WRT(...) __attribute__((annotate("unfad_jvp_wrt:" #__VA_ARGS__)))
#define UNFAD_NO_GRAD __attribute__((annotate("unfad_no_grad")))
#define UNFAD_DETAIL_CUSTOM_MARK __attribute__((annotate("unfad_custom_gradient")))
#else
#define UNFAD_GRADIENT
#define UNFAD_GRADIENT_WRT(...)
#define UNFAD_JVP
#define UNFAD_JVP_WRT(...)
#define UNFAD_NO_GRAD
#define UNFAD_DETAIL_CUSTOM_MARK
#endif

// A derivative the user supplies for `function` (README "Custom
// derivatives"), at namespace scope, after both are declared:
//
//   double log1pexp(double x);
//   void log1pexp_pullback(double x, double d_result, double* d_x);
//   UNFAD_CUSTOM_GRADIENT(log1pexp, log1pexp_pullback);
//
// Every gradient calling `function` then calls it for the value and
// `pullback` for the derivative; unfad never looks at `function`'s body.
// An overload or a template specialisation is named by its type:
// UNFAD_CUSTOM_GRADIENT(static_cast<double (*)(double)>(f), f_pullback),
// UNFAD_CUSTOM_GRADIENT(f<float>, f_pullback<float>). The mark is a
// constant (both functions' addresses), so it builds with any compiler.
#define UNFAD_DETAIL_CAT2(a, b) a##b
#define UNFAD_DETAIL_CAT(a, b) UNFAD_DETAIL_CAT2(a, b)
#define UNFAD_CUSTOM_GRADIENT(function, pullback)                                                         \
  [[maybe_unused]] UNFAD_DETAIL_CUSTOM_MARK static constexpr auto UNFAD_DETAIL_CAT(unfad_custom_gradient_, \
                                                                                 __COUNTER__) =        \
      ::unfad::detail::custom_gradient(function, pullback)

namespace unfad {
// The value of `x`, through which unfad propagates no derivative (a
// constant of the differentiation, like a detached tensor): for a value that
// only steers the computation, or a fixed point already converged. The
// generated code calls it too.
template <class T> constexpr T no_grad(T x) { return x; }

// A tape of `n` values in a helper's pullback: inside the object (on the
// stack) when `n` is small, on the heap otherwise. A pullback runs once per
// call of its helper, in a loop or a recursion, where a heap allocation per
// tape per call would cost more than the work it records.
template <class T, std::size_t Inline = 16> class tape {
public:
  explicit tape(long n)
      : heap_(n > static_cast<long>(Inline) ? new T[static_cast<std::size_t>(n)] : nullptr),
        data_(heap_ ? heap_.get() : inline_), size_(n) {}
  tape(const tape &) = delete;
  tape &operator=(const tape &) = delete;
  T &operator[](long i) { return data_[i]; }
  const T &operator[](long i) const { return data_[i]; }
  T *data() { return data_; }
  const T *data() const { return data_; }
  long size() const { return size_; }

private:
  T inline_[Inline];
  std::unique_ptr<T[]> heap_;
  T *data_;
  long size_;
};

namespace detail {
// What UNFAD_CUSTOM_GRADIENT records (the front end reads its initialiser).
template <class F, class P> struct CustomGradient {
  F *function;
  P *pullback;
};
template <class F, class P> constexpr CustomGradient<F, P> custom_gradient(F *function, P *pullback) {
  return {function, pullback};
}
} // namespace detail
} // namespace unfad

#endif // UNFAD_UNFAD_H
