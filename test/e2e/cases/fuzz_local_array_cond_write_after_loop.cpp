// Found by test/fuzz/fuzz.py (unfad-fuzz:8:958), shrunk: wrong-gradient.
// At the time it was found:
//   [g++] f(n=3, x0=0.703125, k0=0, a0=[-0.546875, 1.890625, -1.859375], a1=[-1.40625, 0.796875, -0.75], A0=[[-0.953125], [0.3125], [1.09375]], out=None): d/dx0 = 0.9978075517661389 but finite differences give 0.6691717039699444 (h) / 0.6691717039699119 (2h)
//   [g++] f(n=3, x0=0.96875, k0=0, a0=[-0.625, 1.8125, 1.953125], a1=[0.515625, -1.71875, -0.59375], A0=[[1.609375], [0.015625], [-0.515625]], out=None): d/dx0 = 0.8767123287671232 but finite differences give 0.5158690176322372 (h) / 0.5158690176322351 (2h)
//   [clang++-19] f(n=3, x0=0.703125, k0=0, a0=[-0.546875, 1.890625, -1.859375], a1=[-1.40625, 0.796875, -0.75], A0=[[-0.953125], [0.3125], [1.09375]], out=None): d/dx0 = 0.9978075517661389 but finite differences give 0.6691717039699444 (h) / 0.6691717039699119 (2h)
//   [clang++-19] f(n=3, x0=0.96875, k0=0, a0=[-0.625, 1.8125, 1.953125], a1=[0.515625, -1.71875, -0.59375], A0=[[1.609375], [0.015625], [-0.515625]], out=None): d/dx0 = 0.8767123287671232 but finite differences give 0.5158690176322372 (h) / 0.5158690176322351 (2h)
// A local array (here of structs; a std::vector<double> or a C array fails the
// same way) is read in a loop, then one element is written under an `if`
// after the loop. The reverse sweep recomputes the loop body and reads
// sv0[i1].z as it is after that write: the branch's reverse does not restore
// the element's old value (an unconditional write is restored correctly).
// d/dx0 = 1/(1 + x0^2) when k0 == 0; unfad gives 1/(1 + (a1[n-1] + x0)^2).
// Hand-minimised: if (n > 0) v[n - 1] = a[n - 1]; after
// for (i) t += atan(v[i] + (x - a[i])); with std::vector<double> v(n).
#include <unfad/unfad.h>

#include <array>
#include <cmath>
#include <vector>

struct fuzz_3f53ef2511_V2 {
  double x, y;
};
struct fuzz_3f53ef2511_V3 {
  double x;
  double y;
  double z;
};
UNFAD_GRADIENT double fuzz_3f53ef2511_f(int n, double x0, int k0, const double* a0, const std::vector<double>& a1, const std::array<std::array<double, 1>, 3>& A0, std::vector<fuzz_3f53ef2511_V3>& out) {
  std::vector<fuzz_3f53ef2511_V3> sv0(n);
  double t0 = x0;
  for (int i1 = 0; i1 < n; ++i1) {
    t0 = atan(sv0[i1].z + x0);
  }
  if (k0 == 0) {
    sv0[n - 1].z = a1[n - 1];
  }
  return t0;
}

/* e2e
{"function": "fuzz_3f53ef2511_f", "points": [[3, 0.703125, 0, [-0.546875, 1.890625, -1.859375], [-1.40625, 0.796875, -0.75], [[-0.953125], [0.3125], [1.09375]], null], [3, 0.96875, 0, [-0.625, 1.8125, 1.953125], [0.515625, -1.71875, -0.59375], [[1.609375], [0.015625], [-0.515625]], null], [3, 1.28125, 1, [-0.53125, 1.546875, 0.453125], [0.734375, 1.15625, -0.453125], [[0.265625], [1.0], [0.78125]], null], [3, -0.875, 1, [-1.953125, 0.890625, -0.75], [-1.234375, -0.015625, -1.453125], [[0.578125], [-0.515625], [-0.859375]], null]], "rtol": 1e-05, "atol": 1e-06, "flags": ["-Wno-unused-parameter", "-Wno-unused-variable", "-Wno-unused-but-set-variable", "-Wno-unused-but-set-parameter"], "outputs": {"out": 3}}
*/
