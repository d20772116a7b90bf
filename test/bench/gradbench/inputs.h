// The suite's inputs: sizes per class, seeded random data in GradBench's shapes, and the ADBench
// files of ../shared/data (gmm, ba) when present (formats: that folder's README), else the same
// shapes generated from a fixed seed.
#pragma once

#include <cstdio>
#include <fstream>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace gbin {

struct Sizes {
  int lseN;
  int llsqM, llsqN;
  int kmeansK, kmeansN, kmeansD;
  int odeN, odeS;
  int detEll;
  std::string gmmFile;
  int gmmD, gmmK, gmmN;
  std::string baFile;
  int baCams, baPoints, baObs;
  std::string lstmFile;
  int lstmL, lstmC, lstmB;
};

// tiny: the correctness test (finite differences affordable); small and large: GradBench sizes.
inline Sizes sizesFor(const std::string &size) {
  if (size == "tiny") return {7, 5, 9, 3, 10, 2, 5, 3, 4, "", 3, 2, 4, "", 2, 3, 4, "", 2, 4, 3};
  if (size == "small")
    return {5000, 128, 256, 10, 1000, 8, 1000, 10, 6, "gmm_d2_K5.txt", 2, 5, 1000, "ba1_n49_m7776_p31843.txt",
            49, 7776, 31843, "lstm_l2_c1024.txt", 2, 1024, 14};
  if (size == "large")
    return {640000, 128, 16392, 100, 1000, 16, 10000, 10, 9, "gmm_d10_K25.txt", 10, 25, 1000,
            "ba3_n161_m48126_p182072.txt", 161, 48126, 182072, "lstm_l4_c4096.txt", 4, 4096, 14};
  throw std::runtime_error("unknown size class '" + size + "' (tiny, small or large)");
}

inline std::vector<double> uniform(int n, unsigned seed, double lo = 0.0, double hi = 1.0) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(lo, hi);
  std::vector<double> v(n);
  for (auto &x : v) x = u(rng);
  return v;
}

inline bool readable(const std::string &path) { return std::ifstream(path).good(); }

struct GmmInput {
  int d = 0, k = 0, n = 0, m = 0;
  double gamma = 1.0;
  std::vector<double> params; // alpha (k), mu (k x d), q (k x d), l (k x d(d-1)/2)
  std::vector<double> x;      // n x d
};

inline GmmInput loadGmm(const std::string &dir, const std::string &file, int d, int k, int n) {
  GmmInput in;
  const std::string path = dir + "/gmm/" + file;
  if (!file.empty() && readable(path)) {
    std::ifstream f(path);
    f >> in.d >> in.k >> in.n;
    const int ls = in.d * (in.d - 1) / 2;
    std::vector<double> alpha(in.k), mu(in.k * in.d), q(in.k * in.d), l(in.k * ls);
    for (auto &v : alpha) f >> v;
    for (auto &v : mu) f >> v;
    for (int c = 0; c < in.k; ++c) {
      for (int j = 0; j < in.d; ++j) f >> q[c * in.d + j];
      for (int j = 0; j < ls; ++j) f >> l[c * ls + j];
    }
    in.x.resize(in.n * in.d);
    for (auto &v : in.x) f >> v;
    f >> in.gamma >> in.m;
    if (!f) throw std::runtime_error("cannot read " + path);
    in.params = alpha;
    in.params.insert(in.params.end(), mu.begin(), mu.end());
    in.params.insert(in.params.end(), q.begin(), q.end());
    in.params.insert(in.params.end(), l.begin(), l.end());
    return in;
  }
  in.d = d, in.k = k, in.n = n, in.m = 0, in.gamma = 1.0;
  const int ls = d * (d - 1) / 2;
  in.params = uniform(k + 2 * k * d + k * ls, 7, -1.0, 1.0);
  in.x = uniform(n * d, 11, -1.0, 1.0);
  return in;
}

struct BaInput {
  int n = 0, m = 0, p = 0;
  std::vector<double> cams, points, w, feat; // n x 11, m x 3, p, p x 2
  // ADBench's replication: observation i uses camera i mod n and point i mod m.
  const double *cam(int i) const { return &cams[11 * (i % n)]; }
  const double *point(int i) const { return &points[3 * (i % m)]; }
};

inline BaInput loadBa(const std::string &dir, const std::string &file, int n, int m, int p) {
  BaInput in;
  const std::string path = dir + "/ba/" + file;
  std::vector<double> cam(11), X(3), feat(2);
  double w = 1.0;
  if (!file.empty() && readable(path)) {
    std::ifstream f(path);
    f >> n >> m >> p;
    for (auto &v : cam) f >> v;
    for (auto &v : X) f >> v;
    f >> w;
    for (auto &v : feat) f >> v;
    if (!f) throw std::runtime_error("cannot read " + path);
  }
  in.n = n, in.m = m, in.p = p;
  if (!file.empty() && readable(path)) {
    for (int i = 0; i < n; ++i) in.cams.insert(in.cams.end(), cam.begin(), cam.end());
    for (int i = 0; i < m; ++i) in.points.insert(in.points.end(), X.begin(), X.end());
    in.w.assign(p, w);
    for (int i = 0; i < p; ++i) in.feat.insert(in.feat.end(), feat.begin(), feat.end());
    return in;
  }
  // Generated: small rotations, points in front of the cameras.
  in.cams = uniform(11 * n, 3, -0.5, 0.5);
  for (int i = 0; i < n; ++i) {
    in.cams[11 * i + 5] -= 10.0; // the centre behind the points
    in.cams[11 * i + 6] = 1.0 + in.cams[11 * i + 6];
  }
  in.points = uniform(3 * m, 5, -1.0, 1.0);
  in.w = uniform(p, 9, 0.5, 1.5);
  in.feat = uniform(2 * p, 13, -1.0, 1.0);
  return in;
}

struct LstmInput {
  int l = 0, c = 0, b = 0;
  std::vector<double> params;   // main (2l x 4b) then extra (3 x b)
  std::vector<double> state;    // 2l x b
  std::vector<double> sequence; // c x b
};

inline LstmInput loadLstm(const std::string &dir, const std::string &file, int l, int c, int b) {
  LstmInput in;
  const std::string path = dir + "/lstm/" + file;
  if (!file.empty() && readable(path)) {
    std::ifstream f(path);
    f >> in.l >> in.c >> in.b;
    in.params.resize(8 * in.l * in.b + 3 * in.b);
    in.state.resize(2 * in.l * in.b);
    in.sequence.resize(in.c * in.b);
    for (auto *v : {&in.params, &in.state, &in.sequence})
      for (auto &x : *v) f >> x;
    if (!f) throw std::runtime_error("cannot read " + path);
    return in;
  }
  in.l = l, in.c = c, in.b = b;
  in.params = uniform(8 * l * b + 3 * b, 17, -1.0, 1.0);
  in.state = uniform(2 * l * b, 19, -1.0, 1.0);
  in.sequence = uniform(c * b, 23, 0.0, 1.0);
  return in;
}

} // namespace gbin
