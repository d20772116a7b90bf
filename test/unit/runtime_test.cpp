// unfad.h's runtime for generated code: sort_permutation must arrange values
// exactly as the standard algorithm the user called arranges them (the
// gradient's forward sweep replaces the user's call by it).
#include <unfad/unfad.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <random>
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

} // namespace
