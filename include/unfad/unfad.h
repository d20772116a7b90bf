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
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <memory>
#include <new>
#include <stdexcept> // (a gradient may throw std::invalid_argument: lib/frontend/inout_tables.cpp)
#include <numeric>
#include <type_traits>
#include <vector>

#if defined(__clang__)
#define UNFAD_GRADIENT __attribute__((annotate("unfad_gradient")))
#define UNFAD_GRADIENT_WRT(...) __attribute__((annotate("unfad_gradient_wrt:" #__VA_ARGS__)))
#define UNFAD_JVP __attribute__((annotate("unfad_jvp")))
#define UNFAD_JVP_WRT(...) __attribute__((annotate("unfad_jvp_wrt:" #__VA_ARGS__)))
#define UNFAD_NO_GRAD __attribute__((annotate("unfad_no_grad")))
#define UNFAD_INOUT __attribute__((annotate("unfad_inout")))
#define UNFAD_DETAIL_CUSTOM_MARK __attribute__((annotate("unfad_custom_gradient")))
#else
#define UNFAD_GRADIENT
#define UNFAD_GRADIENT_WRT(...)
#define UNFAD_JVP
#define UNFAD_JVP_WRT(...)
#define UNFAD_NO_GRAD
#define UNFAD_INOUT
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
// A function writing arrays has them as outputs (the pullback sees what f
// left there); one it reads and then updates is marked in its declaration,
// `void step(UNFAD_INOUT double* y, double h, int n);` (the pullback sees
// the array as f found it).
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

// ψ(x) = Γ'(x)/Γ(x), the derivative of std::lgamma (and Γψ that of
// std::tgamma), which <cmath> lacks. Reflection ψ(x) = ψ(1-x) - π/tan(πx)
// below 1/2, the recurrence ψ(x) = ψ(x+1) - 1/x up to 10, then the
// asymptotic series ln x - 1/2x - Σ B_2k/(2k x^2k) (error below 1e-15 there).
// NaN at the poles (0, -1, -2, ...), as the derivative of lgamma is there.
template <class T> T digamma(T x) {
  static_assert(std::is_floating_point_v<T>, "digamma of a floating-point value");
  if (std::isnan(x)) return x;
  if (x <= 0 && x == std::floor(x)) return std::numeric_limits<T>::quiet_NaN();
  const double pi = 3.14159265358979323846;
  double v = static_cast<double>(x), shift = 0;
  if (v < 0.5) return static_cast<T>(digamma(1.0 - v) - pi / std::tan(pi * v));
  for (; v < 10; v += 1) shift -= 1 / v;
  const double r = 1 / (v * v);
  const double series = r * (1.0 / 12 - r * (1.0 / 120 - r * (1.0 / 252 - r * (1.0 / 240 - r * (1.0 / 132 - r * (691.0 / 32760))))));
  return static_cast<T>(shift + std::log(v) - 0.5 / v - series);
}

// A std::optional of a number as the generated code carries it (a local, a
// branch's result, a loop's state: lib/frontend/optionals.cpp): whether it
// holds a value, and the value (0 when it holds none). A plain aggregate, so
// the code never reads the value of an empty std::optional.
template <class T> struct optional_value {
  bool has;
  T value;
};

// Sorting in gradients (std::sort, std::stable_sort, std::nth_element,
// std::partial_sort of a range of numbers): perm[j] becomes the position in `v` of the value the
// algorithm puts at j, found by running the same algorithm on positions
// compared by their values; the gradient then moves the values, and back
// their adjoints, by it. Being the same comparisons, std::nth_element
// leaves the same arrangement as on the values themselves (and
// std::partial_sort its unsorted rest). algorithm: 0 sort, 1 stable_sort,
// 2 nth_element (at `nth`), 3 partial_sort (of the first `nth`);
// descending: std::greater.
namespace detail {
template <class T> void sort_permutation(const T *v, long n, long nth, long algorithm, long descending, long *perm) {
  std::iota(perm, perm + n, 0L);
  auto less = [v, descending](long a, long b) { return descending ? v[b] < v[a] : v[a] < v[b]; };
  // (stable: equivalent values keep their order, as std::stable_sort's)
  auto stable = [less](long a, long b) { return less(a, b) || (!less(b, a) && a < b); };
  if (algorithm == 1) std::sort(perm, perm + n, stable);
  else if (algorithm == 2) std::nth_element(perm, perm + nth, perm + n, less);
  else if (algorithm == 3) std::partial_sort(perm, perm + nth, perm + n, less);
  else std::sort(perm, perm + n, less);
}
} // namespace detail
inline void sort_permutation(const double *v, long n, long nth, long algorithm, long descending, long *perm) {
  detail::sort_permutation(v, n, nth, algorithm, descending, perm);
}
inline void sort_permutation(const float *v, long n, long nth, long algorithm, long descending, long *perm) {
  detail::sort_permutation(v, n, nth, algorithm, descending, perm);
}
inline void sort_permutation(const long *v, long n, long nth, long algorithm, long descending, long *perm) {
  detail::sort_permutation(v, n, nth, algorithm, descending, perm);
}

namespace detail {
// The memory of this thread's pullback tapes too large for the stack: one
// stack of blocks, kept between calls. Tapes are automatic objects, so they
// die in the reverse order of their making (also when an exception unwinds
// them): taking memory is moving a pointer up, giving it back moving it down.
// A recursion's pullback (the determinant by minors) makes tapes at every
// call; the heap's allocator at each of them cost more than the work taped.
class tape_stack {
  struct block {
    char *memory;
    std::size_t bytes, used;
  };
  std::vector<block> blocks_; // blocks_[top_] holds the newest tape; those after it are empty
  std::size_t top_ = 0;

public:
  tape_stack() = default;
  tape_stack(const tape_stack &) = delete;
  tape_stack &operator=(const tape_stack &) = delete;
  ~tape_stack() {
    for (block &b : blocks_) ::operator delete(b.memory);
  }
  static tape_stack &of_thread() {
    thread_local tape_stack stack;
    return stack;
  }
  static std::size_t rounded(std::size_t bytes) { return (bytes + 15) & ~std::size_t(15); }
  void *push(std::size_t bytes) {
    bytes = rounded(bytes);
    if (!blocks_.empty() && blocks_[top_].bytes - blocks_[top_].used < bytes) {
      if (blocks_[top_].used > 0) ++top_; // (the next block, if any, is empty)
      if (top_ < blocks_.size() && blocks_[top_].bytes < bytes) {
        ::operator delete(blocks_[top_].memory);
        blocks_.erase(blocks_.begin() + static_cast<std::ptrdiff_t>(top_));
      }
    }
    if (top_ >= blocks_.size() || blocks_[top_].bytes - blocks_[top_].used < bytes) {
      const std::size_t grown = blocks_.empty() ? std::size_t(1) << 16 : 2 * blocks_.back().bytes;
      const std::size_t size = bytes > grown ? bytes : grown;
      blocks_.insert(blocks_.begin() + static_cast<std::ptrdiff_t>(top_),
                     block{static_cast<char *>(::operator new(size)), size, 0});
    }
    block &b = blocks_[top_];
    void *memory = b.memory + b.used;
    b.used += bytes;
    return memory;
  }
  // Gives back the newest tape's memory.
  void pop(std::size_t bytes) {
    blocks_[top_].used -= rounded(bytes);
    if (blocks_[top_].used == 0 && top_ > 0) --top_;
  }
};
} // namespace detail

// A tape of `n` values in a helper's pullback: inside the object (on the
// stack) when `n` is small, on the thread's tape_stack otherwise. A
// pullback runs once per call of its helper, in a loop or a recursion,
// where a heap allocation per tape per call would cost more than the work
// it records.
template <class T, std::size_t Inline = 16> class tape {
  static constexpr bool kPlain = std::is_trivially_default_constructible_v<T> && std::is_trivially_destructible_v<T>;

public:
  explicit tape(long n) : size_(n) {
    if (n <= static_cast<long>(Inline)) data_ = inline_;
    else if constexpr (kPlain) data_ = static_cast<T *>(detail::tape_stack::of_thread().push(sizeof(T) * count()));
    else data_ = new T[static_cast<std::size_t>(n)];
  }
  ~tape() {
    if (data_ == inline_) return;
    if constexpr (kPlain) detail::tape_stack::of_thread().pop(sizeof(T) * count());
    else delete[] data_;
  }
  tape(const tape &) = delete;
  tape &operator=(const tape &) = delete;
  T &operator[](long i) { return data_[i]; }
  const T &operator[](long i) const { return data_[i]; }
  T *data() { return data_; }
  const T *data() const { return data_; }
  long size() const { return size_; }

private:
  std::size_t count() const { return static_cast<std::size_t>(size_); }
  T inline_[Inline];
  T *data_;
  long size_;
};

namespace detail {
// Blocks of memory for the tapes of this thread's gradient calls, kept
// between calls. A large tape is fresh memory from the system at every call
// otherwise (glibc maps big blocks anew), and the page faults of touching it
// cost more than the gradient's own work (GradBench's lse at large n, nested
// loops' tapes). At most kKept blocks stay; they are freed with the thread.
class tape_pool {
  struct block {
    void *memory;
    std::size_t bytes;
  };
  static constexpr std::size_t kKept = 8;
  std::vector<block> free_;

public:
  ~tape_pool() {
    for (block &b : free_) ::operator delete(b.memory);
  }
  static tape_pool &of_thread() {
    thread_local tape_pool pool;
    return pool;
  }
  // The smallest kept block of at least `bytes`, or a new one.
  void *acquire(std::size_t bytes) {
    std::size_t best = free_.size();
    for (std::size_t k = 0; k < free_.size(); ++k)
      if (free_[k].bytes >= bytes && (best == free_.size() || free_[k].bytes < free_[best].bytes)) best = k;
    if (best == free_.size()) return ::operator new(bytes);
    void *memory = free_[best].memory;
    free_.erase(free_.begin() + static_cast<std::ptrdiff_t>(best));
    return memory;
  }
  // Kept for the next call; the smallest goes when more than kKept are kept.
  void release(void *memory, std::size_t bytes) {
    free_.push_back({memory, bytes});
    if (free_.size() <= kKept) return;
    std::size_t smallest = 0;
    for (std::size_t k = 1; k < free_.size(); ++k)
      if (free_[k].bytes < free_[smallest].bytes) smallest = k;
    ::operator delete(free_[smallest].memory);
    free_.erase(free_.begin() + static_cast<std::ptrdiff_t>(smallest));
  }
};
} // namespace detail

// A tape of `n` values in a gradient, written before it is read (no
// initial value): its memory comes from, and goes back to, the thread's
// tape_pool, so that calling a gradient in a loop touches the same memory
// every time. (A thread keeps up to the 8 largest tapes' memory.)
template <class T> class tape_buffer {
  // (values of a class with constructors are made as new T[n])
  static constexpr bool kPlain = std::is_trivially_default_constructible_v<T> && std::is_trivially_destructible_v<T>;

public:
  explicit tape_buffer(long n) : count_(static_cast<std::size_t>(n > 0 ? n : 1)) {
    if constexpr (kPlain) data_ = static_cast<T *>(detail::tape_pool::of_thread().acquire(sizeof(T) * count_));
    else data_ = new T[count_];
  }
  ~tape_buffer() {
    if constexpr (kPlain) detail::tape_pool::of_thread().release(data_, sizeof(T) * count_);
    else delete[] data_;
  }
  tape_buffer(const tape_buffer &) = delete;
  tape_buffer &operator=(const tape_buffer &) = delete;
  T &operator[](long i) { return data_[i]; }
  const T &operator[](long i) const { return data_[i]; }
  T *data() { return data_; }
  const T *data() const { return data_; }

private:
  std::size_t count_;
  T *data_;
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
