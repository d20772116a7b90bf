// Loops over iterators are counted loops (lib/frontend/iterators.cpp): an
// iterator is its offset, `for (auto it = x.begin(); it != x.end(); ++it)`
// is `for (long it = 0; it < n; ++it)` and the backward sweep needs no
// tape of it; a reverse iterator counts down. A helper taking a range
// (`first != last`, C++20's rewritten `!=` here) is lowered into its caller,
// and its while-shaped loop, like `while (it != end) ... *it++`, is counted
// before reverse mode (lib/parallel/counted_while.cpp): no loop runs first
// to count the iterations, the iterator is `first + iteration` rather than
// carried, and the loop is the one loop an index loop would be.
// RUN: %unfad %s -- -std=c++20 -I%unfad_include | FileCheck %s
#include <unfad/unfad.h>

#include <cmath>
#include <vector>

UNFAD_GRADIENT double sum_exp(const std::vector<double>& x) {
  double s = 0.0;
  for (auto it = x.begin(); it != x.end(); ++it) s += std::exp(*it);
  return s;
}
// CHECK-LABEL: double sum_exp_grad(const std::vector<double>& x, std::vector<double>& d_x) {
// CHECK-NEXT:    const long [[N:[a-z_0-9]+]] = static_cast<long>(x.size());
// CHECK-NEXT:    double [[S:[a-z_0-9]+]] = 0.0;
// CHECK-NEXT:    for (long it = 0; it < [[N]]; ++it) {
// CHECK-NEXT:      const double [[E:[a-z_0-9]+]] = std::exp(x[it]);
// CHECK-NEXT:      [[S]] = [[S]] + [[E]];
// CHECK-NEXT:      d_x[it] += [[E]];
// CHECK-NEXT:    }
// CHECK-NEXT:    return [[S]];

UNFAD_GRADIENT double horner(const std::vector<double>& c, double t) {
  double s = 0.0;
  for (auto it = c.rbegin(); it != c.rend(); ++it) s = s * t + *it;
  return s;
}
// CHECK-LABEL: double horner_grad(
// CHECK-NOT:     while
// CHECK:         for (long it = [[HI:[a-z_0-9]+]] - 1; it >= 0; --it) {
// CHECK-NEXT:      tape_state[it] = state;
// CHECK-NEXT:      state = state * t + c[it];
// CHECK-NEXT:    }
// CHECK:         for (long it_1 = 0; it_1 < [[HI]]; ++it_1) {
// CHECK:           d_c[it_1] += d_state_loop_0;
// CHECK:       // unfad:end horner_grad

template <class It> double sum_sq(It first, It last) {
  double s = 0.0;
  for (; first != last; ++first) s += *first * *first;
  return s;
}

UNFAD_GRADIENT double range(const std::vector<double>& x) { return sum_sq(x.begin() + 1, x.end()); }
// CHECK-LABEL: double range_grad(
// CHECK-NOT:     while
// CHECK-NOT:     sum_sq
// CHECK:         const long [[TRIPS:state_trips]] = {{.*}} - 1;
// CHECK-NEXT:    double [[S:[a-z_0-9]+]] = 0.0;
// CHECK-NEXT:    for (long iteration = 0; iteration < [[TRIPS]]; ++iteration) {
// CHECK-NEXT:      const long first = 1 + iteration;
// CHECK-NEXT:      const double [[V:[a-z_0-9]+]] = x[first];
// CHECK-NEXT:      [[S]] = [[S]] + [[V]] * [[V]];
// CHECK-NEXT:      d_x[first] += 2.0 * [[V]];
// CHECK-NEXT:    }
// CHECK-NEXT:    return [[S]];

UNFAD_GRADIENT double post_increment(const std::vector<double>& x) {
  double s = 0.0;
  auto it = x.cbegin();
  while (it != x.cend()) s += std::sin(*it++);
  return s;
}
// CHECK-LABEL: double post_increment_grad(
// CHECK-NEXT:    const long [[N:[a-z_0-9]+]] = static_cast<long>(x.size());
// CHECK-NEXT:    double [[S:[a-z_0-9]+]] = 0.0;
// CHECK-NEXT:    for (long iteration = 0; iteration < [[N]]; ++iteration) {
// CHECK-NEXT:      const double [[V:[a-z_0-9]+]] = x[iteration];
// CHECK-NEXT:      [[S]] = [[S]] + std::sin([[V]]);
// CHECK-NEXT:      d_x[iteration] += std::cos([[V]]);
// CHECK-NEXT:    }
// CHECK-NEXT:    return [[S]];
