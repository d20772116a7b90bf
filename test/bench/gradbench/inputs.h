// The suite's inputs: sizes per class, seeded random data in GradBench's shapes, and the ADBench
// files of ../shared/data (gmm, ba) when present (formats: that folder's README), else the same
// shapes generated from a fixed seed.
#pragma once

#include <cmath>
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
  std::string htSimpleFile, htComplicatedFile; // in ht/simple_small/ and ht/complicated_small/
  int htVertices, htTriangles, htPoints;       // the generated hand's shape when a file is missing
};

// tiny: the correctness test (finite differences affordable); small and large: GradBench sizes.
inline Sizes sizesFor(const std::string &size) {
  if (size == "tiny") return {7, 5, 9, 3, 10, 2, 5, 3, 4, "", 3, 2, 4, "", 2, 3, 4, "", 2, 4, 3, "", "", 12, 10, 5};
  if (size == "small")
    return {5000, 128, 256, 10, 1000, 8, 1000, 10, 6, "gmm_d2_K5.txt", 2, 5, 1000, "ba1_n49_m7776_p31843.txt",
            49, 7776, 31843, "lstm_l2_c1024.txt", 2, 1024, 14,
            "hand1_t26_c100.txt", "hand1_t26_c100.txt", 544, 1084, 100};
  if (size == "large")
    return {640000, 128, 16392, 100, 1000, 16, 10000, 10, 9, "gmm_d10_K25.txt", 10, 25, 1000,
            "ba3_n161_m48126_p182072.txt", 161, 48126, 182072, "lstm_l4_c4096.txt", 4, 4096, 14,
            "hand8_t26_c6400.txt", "hand4_t26_c400.txt", 544, 1084, 6400};
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

// ht: the hand model (ht/<variant>/model/{bones,vertices,triangles}.txt, ':'-separated) and one
// instance (N points with their correspondences, for the complicated variant N u pairs, then
// 26 theta), or, without the files, a generated hand of 22 bones in the same tree (wrist, five
// fingers of four bones, forearm) from a fixed seed.
struct HtInput {
  int bones = 0, vertices = 0, points = 0;
  bool complicated = false;
  std::vector<std::string> boneNames;
  std::vector<int> parents, triangles, correspondences;
  std::vector<double> baseRelatives, inverseBaseAbsolutes, basePositions, weights; // weights: vertices x bones
  std::vector<double> observed, us, theta;
};

inline std::vector<std::string> splitColons(const std::string &line) {
  std::vector<std::string> parts;
  size_t from = 0;
  for (size_t at; (at = line.find(':', from)) != std::string::npos; from = at + 1) parts.push_back(line.substr(from, at - from));
  parts.push_back(line.substr(from));
  return parts;
}

inline void readHandModel(const std::string &dir, HtInput &in) {
  std::ifstream bones(dir + "/bones.txt"), vertices(dir + "/vertices.txt"), triangles(dir + "/triangles.txt");
  std::string line;
  while (std::getline(bones, line)) {
    if (line.empty()) continue;
    const auto f = splitColons(line);
    if (f.size() < 34) throw std::runtime_error("ht: bad bone line in " + dir);
    in.boneNames.push_back(f[0]);
    in.parents.push_back(std::stoi(f[1]));
    for (int i = 0; i < 16; ++i) in.baseRelatives.push_back(std::stod(f[2 + i]));
    for (int i = 0; i < 16; ++i) in.inverseBaseAbsolutes.push_back(std::stod(f[18 + i]));
  }
  in.bones = int(in.parents.size());
  std::vector<std::vector<std::string>> rows;
  while (std::getline(vertices, line))
    if (!line.empty()) rows.push_back(splitColons(line));
  in.vertices = int(rows.size());
  in.weights.assign(size_t(in.vertices) * in.bones, 0.0);
  for (int v = 0; v < in.vertices; ++v) {
    const auto &f = rows[v];
    for (int i = 0; i < 3; ++i) in.basePositions.push_back(std::stod(f[i]));
    const int count = std::stoi(f[8]);
    for (int i = 0; i < count; ++i) in.weights[size_t(v) * in.bones + std::stoi(f[9 + 2 * i])] = std::stod(f[10 + 2 * i]);
  }
  while (std::getline(triangles, line))
    if (!line.empty())
      for (const auto &f : splitColons(line)) in.triangles.push_back(std::stoi(f));
  if (in.bones < 22 || in.vertices == 0) throw std::runtime_error("ht: cannot read the model in " + dir);
}

// A random affine 4 x 4 (row-major): a rotation from three angles, a translation.
inline void randomAffine(std::mt19937_64 &rng, double *m) {
  std::uniform_real_distribution<double> angle(-1.0, 1.0), shift(-0.3, 0.3);
  const double a = angle(rng), b = angle(rng), c = angle(rng);
  const double ca = std::cos(a), sa = std::sin(a), cb = std::cos(b), sb = std::sin(b), cc = std::cos(c), sc = std::sin(c);
  const double R[9] = {cb * cc, sa * sb * cc - ca * sc, ca * sb * cc + sa * sc, cb * sc, sa * sb * sc + ca * cc,
                       ca * sb * sc - sa * cc, -sb, sa * cb, ca * cb};
  for (int r = 0; r < 3; ++r) {
    for (int k = 0; k < 3; ++k) m[4 * r + k] = R[3 * r + k];
    m[4 * r + 3] = shift(rng);
  }
  m[12] = m[13] = m[14] = 0.0;
  m[15] = 1.0;
}

inline void generateHand(HtInput &in, int vertices, int triangles) {
  std::mt19937_64 rng(29);
  std::uniform_real_distribution<double> u01(0.0, 1.0);
  in.bones = 22, in.vertices = vertices;
  in.parents = {-1};
  for (int finger = 0; finger < 5; ++finger)
    for (int k = 0; k < 4; ++k) in.parents.push_back(k == 0 ? 0 : 4 * finger + k);
  in.parents.push_back(0); // the forearm
  in.baseRelatives.resize(16 * in.bones);
  in.inverseBaseAbsolutes.resize(16 * in.bones);
  for (int b = 0; b < in.bones; ++b) {
    randomAffine(rng, &in.baseRelatives[16 * b]);
    randomAffine(rng, &in.inverseBaseAbsolutes[16 * b]);
  }
  in.basePositions = uniform(3 * vertices, 41, -1.0, 1.0);
  in.weights.assign(size_t(vertices) * in.bones, 0.0);
  for (int v = 0; v < vertices; ++v) { // three bones per vertex, weights summing to 1
    double w[3], sum = 0;
    for (double &x : w) sum += (x = 0.1 + u01(rng));
    for (int k = 0; k < 3; ++k) in.weights[size_t(v) * in.bones + (v + 7 * k) % in.bones] += w[k] / sum;
  }
  for (int t = 0; t < triangles; ++t)
    for (int k = 0; k < 3; ++k) in.triangles.push_back((t + k * (vertices / 3 + 1)) % vertices);
}

inline HtInput loadHt(const std::string &dir, bool complicated, const std::string &file, int vertices, int triangles,
                      int points) {
  HtInput in;
  in.complicated = complicated;
  const std::string folder = dir + "/ht/" + (complicated ? "complicated_small" : "simple_small");
  const std::string path = folder + "/" + file;
  if (!file.empty() && readable(path)) {
    readHandModel(folder + "/model", in);
    std::ifstream f(path);
    int count = 0;
    f >> in.points >> count;
    if (count != 26) throw std::runtime_error("ht: " + path + " has not 26 parameters");
    for (int i = 0; i < in.points; ++i) {
      int c;
      double p[3];
      f >> c >> p[0] >> p[1] >> p[2];
      in.correspondences.push_back(c);
      in.observed.insert(in.observed.end(), p, p + 3);
    }
    in.us.resize(complicated ? 2 * in.points : 0);
    for (auto &v : in.us) f >> v;
    in.theta.resize(26);
    for (auto &v : in.theta) f >> v;
    if (!f) throw std::runtime_error("cannot read " + path);
    return in;
  }
  generateHand(in, vertices, triangles);
  in.points = points;
  std::mt19937_64 rng(complicated ? 43 : 47);
  for (int i = 0; i < points; ++i) in.correspondences.push_back(int(rng() % (complicated ? triangles : vertices)));
  in.observed = uniform(3 * points, 53, -1.0, 1.0);
  if (complicated) in.us = uniform(2 * points, 59, 0.0, 0.5);
  in.theta = uniform(26, 61, -0.5, 0.5);
  return in;
}

} // namespace gbin
