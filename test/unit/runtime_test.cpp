// unfad.h's runtime for generated code: sort_permutation must arrange values
// exactly as the standard algorithm the user called arranges them (the
// gradient's forward sweep replaces the user's call by it); pullback tapes
// must each keep their own values however they nest.
#include <unfad/unfad.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <random>
#include <stdexcept>
#include <vector>

namespace {

enum Algorithm : long { kSort = 0, kStableSort = 1, kNthElement = 2 };

std::vector<double> gathered(const std::vector<double> &v, long nth, long algorithm, long descending) {
  std::vector<long> perm(v.size());
  unfad::sort_permutation(v.data(), long(v.size()), nth, algorithm, descending, perm.data());
  std::vector<double> out;
  for (long p : perm) out.push_back(v[size_t(p)]);
  return out;
}

std::vector<double> randomValues(unsigned seed, size_t n, bool ties) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int> small(0, 5);
  std::normal_distribution<double> normal;
  std::vector<double> v(n);
  for (auto &x : v) x = ties ? double(small(gen)) : normal(gen);
  return v;
}

TEST(SortPermutation, SortsLikeStdSort) {
  for (unsigned seed = 0; seed < 20; ++seed)
    for (bool ties : {false, true}) {
      std::vector<double> v = randomValues(seed, 1 + seed * 7, ties), up = v, down = v;
      std::sort(up.begin(), up.end());
      std::sort(down.begin(), down.end(), std::greater<double>());
      EXPECT_EQ(gathered(v, 0, kSort, 0), up);
      EXPECT_EQ(gathered(v, 0, kSort, 1), down);
    }
}

// Equivalent values keep their order: the permutation is std::stable_sort's
// (checked on positions, which equal values cannot show).
TEST(SortPermutation, StableKeepsTheOrderOfTies) {
  for (unsigned seed = 0; seed < 20; ++seed) {
    std::vector<double> v = randomValues(seed, 3 + seed * 5, true);
    std::vector<long> perm(v.size()), expected(v.size());
    for (long descending : {0L, 1L}) {
      unfad::sort_permutation(v.data(), long(v.size()), 0, kStableSort, descending, perm.data());
      for (size_t i = 0; i < v.size(); ++i) expected[i] = long(i);
      std::stable_sort(expected.begin(), expected.end(), [&](long a, long b) {
        return descending ? v[size_t(b)] < v[size_t(a)] : v[size_t(a)] < v[size_t(b)];
      });
      EXPECT_EQ(perm, expected);
    }
  }
}

// The whole arrangement std::nth_element leaves, not only the nth value.
TEST(SortPermutation, NthElementLeavesTheSameArrangement) {
  for (unsigned seed = 0; seed < 20; ++seed)
    for (bool ties : {false, true}) {
      std::vector<double> v = randomValues(seed, 1 + seed * 11, ties);
      for (long nth : {0L, long(v.size() / 2), long(v.size() - 1)}) {
        std::vector<double> up = v, down = v;
        std::nth_element(up.begin(), up.begin() + nth, up.end());
        std::nth_element(down.begin(), down.begin() + nth, down.end(), std::greater<double>());
        EXPECT_EQ(gathered(v, nth, kNthElement, 0), up);
        EXPECT_EQ(gathered(v, nth, kNthElement, 1), down);
      }
    }
}

// A recursion making tapes of every size at every depth, as a recursive
// helper's pullback does: each tape keeps what was written into it while
// deeper calls make and drop theirs (small ones inline, large ones on the
// thread's tape_stack, across its blocks).
long fillAndCheck(int depth, long n, long &mismatches) {
  unfad::tape<long> t(n);
  for (long i = 0; i < n; ++i) t[i] = depth * 1000003L + i;
  long sum = 0;
  if (depth > 0) {
    sum += fillAndCheck(depth - 1, n * 3 + 1, mismatches); // (grows past the first 64 KiB block)
    sum += fillAndCheck(depth - 1, n / 2 + 17, mismatches);
  }
  for (long i = 0; i < n; ++i) {
    mismatches += t[i] != depth * 1000003L + i;
    sum += t[i];
  }
  return sum;
}

long expectedSum(int depth, long n) {
  long sum = n * (depth * 1000003L) + n * (n - 1) / 2;
  if (depth > 0) sum += expectedSum(depth - 1, n * 3 + 1) + expectedSum(depth - 1, n / 2 + 17);
  return sum;
}

TEST(PullbackTapes, NestedTapesKeepTheirValues) {
  for (long first : {1L, 16L, 17L, 700L}) {
    long mismatches = 0;
    EXPECT_EQ(fillAndCheck(7, first, mismatches), expectedSum(7, first)) << first;
    EXPECT_EQ(mismatches, 0) << first;
  }
}

// An exception unwinding through a recursion gives every tape back: the
// next recursion's tapes are fresh and right.
long throwingDeep(int depth) {
  unfad::tape<double> t(40000);
  t[39999] = depth;
  if (depth == 0) throw std::runtime_error("bottom");
  return throwingDeep(depth - 1) + long(t[39999]);
}

TEST(PullbackTapes, UnwindingGivesTheMemoryBack) {
  for (int round = 0; round < 3; ++round) EXPECT_THROW(throwingDeep(6), std::runtime_error);
  long mismatches = 0;
  EXPECT_EQ(fillAndCheck(5, 3000, mismatches), expectedSum(5, 3000));
  EXPECT_EQ(mismatches, 0);
}

// A tape of a class with a constructor is made with new[] (not taken raw).
TEST(PullbackTapes, ClassValuesAreConstructed) {
  struct Pair {
    double a = 1.5, b = -2.0;
  };
  unfad::tape<Pair> t(100);
  EXPECT_EQ(t[99].a, 1.5);
  EXPECT_EQ(t[0].b, -2.0);
  EXPECT_EQ(t.size(), 100);
}

} // namespace
