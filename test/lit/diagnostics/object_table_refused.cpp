// What unfad refuses of std::vectors of objects owning arrays
// (test/e2e/cases/object_tables.cpp has what it accepts): growing one
// element at a time (push_back: each object's buffer would be copied into
// the table), filling with a copy of one object (resize(n, value), v(n,
// value)), and default-building elements whose default constructor does
// work in its body. Each is an error at the construct, non-zero exit,
// nothing written.
// RUN: not %unfad %s -- -std=c++17 -DPUSH 2>&1 | FileCheck %s --check-prefix=PUSH
// RUN: not %unfad %s -- -std=c++17 -DFILL 2>&1 | FileCheck %s --check-prefix=FILL
// RUN: not %unfad %s -- -std=c++17 -DINIT 2>&1 | FileCheck %s --check-prefix=INIT
// RUN: not %unfad %s -- -std=c++17 -DBODY 2>&1 | FileCheck %s --check-prefix=BODY
// RUN: cp %s %t.cpp && not %unfad -i %t.cpp -- -std=c++17 -DPUSH 2>/dev/null
// RUN: diff %s %t.cpp
#include <unfad/unfad.h>
#include <vector>

class Buf {
 public:
#if defined(BODY)
  Buf() : n_(0), d_(nullptr) { n_ = 1; }
#else
  Buf() : n_(0), d_(nullptr) {}
#endif
  explicit Buf(int n) : n_(n) { d_ = new double[n]; }
  ~Buf() { delete[] d_; }
  int n_;
  double* d_;
};

UNFAD_GRADIENT double f(const double* x, int m) {
#if defined(PUSH)
  std::vector<Buf> bufs;
  for (int i = 0; i < m; ++i)
// PUSH: object_table_refused.cpp:[[@LINE+1]]:10: error: cannot differentiate 'f': 'push_back' on a std::vector of 'Buf' is not supported (size it with resize(n), then write its elements)
    bufs.push_back(Buf(2));
#elif defined(FILL)
  std::vector<Buf> bufs;
// FILL: object_table_refused.cpp:[[@LINE+1]]:8: error: cannot differentiate 'f': 'resize(n, value)' of a vector of 'Buf' is not supported (resize(n))
  bufs.resize(m, Buf(2));
#elif defined(INIT)
// INIT: object_table_refused.cpp:[[@LINE+1]]:20: error: cannot differentiate 'f': a 'std::vector<Buf>' must start empty or with a number of elements ('v(n)'; then resize(n) and writes of its elements)
  std::vector<Buf> bufs(m, Buf(2));
#else
  std::vector<Buf> bufs;
// BODY: object_table_refused.cpp:[[@LINE+1]]:8: error: cannot differentiate 'f': 'resize' of a vector of 'Buf' needs its default constructor, with an empty body (its members given by initialisers)
  bufs.resize(m);
#endif
  double s = 0;
  for (int i = 0; i < m; ++i) s += x[i] * bufs.size();
  return s;
}
