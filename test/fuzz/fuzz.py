#!/usr/bin/env python3
"""Differential fuzzing of unfad's gradients (Python 3 standard library only).

Generates random well-typed C++ functions in unfad's supported subset
(test/fuzz/gen.py), runs unfad on them, compiles the result with a generated
driver, and compares every partial derivative with high-order finite
differences at several random points.

  fuzz.py --unfad build/bin/unfad --count 200 --seed 1 --jobs 2
  fuzz.py --unfad build/bin/unfad --count 100000 --seed 7 --jobs 2 \
          --save-cases test/e2e/cases            # the long run
  fuzz.py --unfad build/bin/unfad --seed 1 --only 137 --print   # show one program

Features: --features base (default: the scalar subset), plus loops, arrays
and outputs (loops, array parameters and local arrays, output arrays checked
as vector-Jacobian products; see test/fuzz/gen.py), and avoid-* flags that
steer clear of open bugs:
  fuzz.py --unfad build/bin/unfad --count 1000 --seed 3 --jobs 1 \
          --features base,loops,arrays,outputs,avoid-helper-writes
Array parameters get one fixed length per program (1..5, the value of the
`int n` parameter); the driver passes them from its flat x[] (a
std::vector is built from it) and every element is a partial derivative.
With "structs" (arrays of structs and of arrays, see gen.py) the driver
builds each array of V3 / matrix parameter from x[] too (field by field,
row by row; ragged rows have fixed lengths per program), passes f_grad an
adjoint of the parameter's type, and every field of every element (every
A[i][j]) is a partial derivative; an output of V3 gets one weight per field:
  fuzz.py --unfad build/bin/unfad --count 1000 --seed 3 --jobs 2 \
          --features base,loops,arrays,outputs,structs

Programs are batched (--batch, default 20 marked functions per file: one
unfad run, one compile, one driver run); a batch that fails as a whole is
bisected to find the programs responsible.

Points.  Each program gets --points candidate points (doubles on a 1/64 grid
in [-2, 2], ints in [0, 3]).  A point is used only if it is far from every
branch boundary and kink: an instrumented copy of the program (the "probe")
records every comparison, fabs/fmin/fmax, rounding and int cast: its outcome
(the path signature) must be the same at every finite-difference stencil
point, and its distance to the switching point (the margin) at the point
must be >= 1e-3 (exact ties, distance 0, are left to the signature check:
they come from comparing equal values, e.g. zero-initialised elements).
Comparisons of passive values only (ints, constants) are not recorded.  The derivative estimate is the 8th-order central stencil
    sum_{m=1..4} c_m (f(x+mh) - f(x-mh)) / h,  c = 4/5, -1/5, 4/105, -1/280,
with h = 2^round(log2(2^-7 max(1,|x|))); the estimates at h and 2h must agree,
and so must those at the much smaller steps h/64 and h/4096 (within a bound
on their rounding error): else the point is rejected as ill-conditioned.
A point where the probe calls sin, cos or tan with an argument beyond 1e4 is
rejected too: a term like sin(pow(t, 3)) with t ~ 1e3 oscillates faster than
any step above rounding resolves, and every step aliases to the same flat
difference quotient (seed 1's program 11 of base,loops,arrays,methods).  Then unfad's partial g must
satisfy |g - fd| <= 1e-5 max(|g|,|fd|) + 1e-6 max(1, max|f|).

Failures, each classified:
  unfad-crash        unfad died (signal, assertion, internal error) or hung
  unfad-diagnostic   unfad rejected a program in the supported subset
  compile-error      the generated code does not compile
  runtime-crash      the compiled driver crashed or hung
  wrong-gradient     a partial derivative disagrees with finite differences
  primal-mismatch    f_grad does not return f's value
  generated-warning  g++/clang++ -Wall -Wextra warn about the generated code
(generator-error: the generated primal program itself does not compile; a
bug of this script, reported apart.)

A failing program is shrunk (delta debugging over statements and
expressions: remove statements, inline branches, replace subexpressions by a
child or a constant) while the failure keeps its kind, and written to --out
(and with --save-cases DIR as DIR/fuzz_<hash>.cpp, an end-to-end case that
test/e2e/run_e2e.py runs).  Exit status: 0 no finding, 1 findings, 2 the
fuzzer itself failed.
"""

import argparse
import concurrent.futures
import hashlib
import json
import math
import os
import random
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)

import gen  # noqa: E402

UNFAD_TIMEOUT = 60
CXX_TIMEOUT = 180
RUN_TIMEOUT = 60

KINDS = ["unfad-crash", "unfad-diagnostic", "compile-error", "runtime-crash", "wrong-gradient",
         "primal-mismatch", "generated-warning", "generator-error", "unfad-batch"]

# ---------------------------------------------------------------------------
# Cases


class Case:
    """One program and its candidate points."""

    def __init__(self, index, seed, program, points):
        self.index = index
        self.seed = seed
        self.program = program
        self.points = points  # list of lists, one value per parameter

    def with_program(self, prog):
        return Case(self.index, self.seed, prog, self.points)


def program_seed(seed, index):
    return f"unfad-fuzz:{seed}:{index}"


def make_case(seed, index, features, npoints):
    s = program_seed(seed, index)
    prog = gen.generate(s, features)
    assert gen.check_program(prog), f"generator bug: program {s} fails gen.check_program (shrinking needs it)"
    rng = random.Random(s + ":points")
    points = []
    for _ in range(npoints):
        pt = []
        for n, t in prog.params:
            if t == "double":
                pt.append(rng.randint(-128, 128) / 64.0)
            elif t in ("arr", "vec") + gen.INOUTS:  # (an in/out parameter: its initial value)
                pt.append([rng.randint(-128, 128) / 64.0 for _ in range(prog.size_n)])
            elif t in gen.SPARAMS or t in gen.MPARAMS or t in gen.CPARAMS:
                # one inner list per element (fields) or row
                pt.append([[rng.randint(-128, 128) / 64.0 for _ in range(m)] for m in row_sizes(prog, n, t)])
            elif t == "size":
                pt.append(prog.size_n)
            elif t in ("outp",) + gen.SOUTS:
                pt.append(None)
            else:
                pt.append(rng.randint(0, 3))
        if prog.method:  # (feature "methods": the object's members, last)
            pt.append([rng.randint(-128, 128) / 64.0 for _ in prog.method["members"]])
        points.append(pt)
    return Case(index, s, prog, points)


# ---------------------------------------------------------------------------
# Driver

PROBE_RUNTIME = r"""
#define FZ_MAXD 512
static unsigned long long fzp_sig = 0;
static double fzp_margin = 1e300;
static inline void fzp_note(long long v, double dist) {
  fzp_sig = fzp_sig * 1000003ULL + static_cast<unsigned long long>(v) + 0x9e37ULL;
  // An exact tie (d == 0) is a comparison of equal values (t - t, two
  // zero-initialised elements, ...): if a perturbation could break it, the
  // path signature at the stencil points shows it; only near misses count.
  const double d = std::fabs(dist);
  if (d < fzp_margin && d != 0.0) fzp_margin = d;
  if (std::isnan(dist)) fzp_margin = 0.0;  // NaN hidden by a comparison or fmin/fmax: reject
}
static inline bool fzp_c(bool r, double diff, bool floating) {
  fzp_note(r ? 1 : 0, floating ? diff : 1e300);
  return r;
}
static inline double fzp_fabs(double x) { fzp_note(x < 0, x); return std::fabs(x); }
static inline double fzp_fmin(double a, double b) { fzp_note(a < b, a - b); return std::fmin(a, b); }
static inline double fzp_fmax(double a, double b) { fzp_note(a < b, a - b); return std::fmax(a, b); }
static inline double fzp_near(double x, double y) {
  // note y (the discrete result) and the distance of x to the nearest jump
  const double n = std::nearbyint(x);
  fzp_note(static_cast<long long>(y), x - n);
  return y;
}
static inline double fzp_floor(double x) { return fzp_near(x, std::floor(x)); }
static inline double fzp_ceil(double x) { return fzp_near(x, std::ceil(x)); }
static inline double fzp_trunc(double x) { return fzp_near(x, std::trunc(x)); }
static inline double fzp_round(double x) {
  const double y = std::round(x);
  fzp_note(static_cast<long long>(y), x - (std::floor(x) + 0.5));
  return y;
}
// A periodic function of a huge argument (sin(pow(t, 3)) with t ~ 1e3)
// oscillates faster than any usable finite-difference step resolves: every
// step, down to rounding, aliases to the same wrong quotient. Such a point is
// rejected (margin 0) by the size of the argument.
static inline double fzp_periodic(double x) {
  if (!(std::fabs(x) <= 1e4)) fzp_margin = 0.0;
  return x;
}
static inline double fzp_sin(double x) { return std::sin(fzp_periodic(x)); }
static inline double fzp_cos(double x) { return std::cos(fzp_periodic(x)); }
static inline double fzp_tan(double x) { return std::tan(fzp_periodic(x)); }
static inline int fzp_toint(double x) { fzp_near(x, std::trunc(x)); return static_cast<int>(x); }
// Feature "nograd": the reference copy reads every value marked
// UNFAD_NO_GRAD (or wrapped in unfad::no_grad) through fzp_freeze, which
// records the values at the point (mode 1) and replays them in the same
// order at the stencil points (mode 2): finite differences then see those
// values as constants, as the gradient must.  A different number of reads
// means a different path: the point is rejected.
#define FZ_MAXF 65536
static int fzp_fmode = 0;
static long fzp_fidx = 0, fzp_fcount = 0;
static double fzp_fbuf[FZ_MAXF];
static inline double fzp_freeze(double v) {
  if (fzp_fmode == 1) {
    if (fzp_fidx < FZ_MAXF) fzp_fbuf[fzp_fidx] = v;
    fzp_fcount = ++fzp_fidx;
    if (fzp_fcount > FZ_MAXF) fzp_margin = 0.0;
    return v;
  }
  if (fzp_fmode == 2) {
    if (fzp_fidx < fzp_fcount && fzp_fidx < FZ_MAXF) return fzp_fbuf[fzp_fidx++];
    fzp_margin = 0.0;
    fzp_sig ^= 0x5bd1e995ULL;
    return v;
  }
  return v;
}

typedef double (*fz_fn)(const double*, const int*);
typedef double (*fz_grad_fn)(const double*, const int*, double*);

static double fz_step(double x) {
  return std::ldexp(1.0, static_cast<int>(std::lround(std::log2(std::ldexp(std::fmax(1.0, std::fabs(x)), -7)))));
}

static void fz_check(int prog, int pt, fz_fn f, fz_fn probe, fz_grad_fn grad, fz_grad_fn jvp, int nd,
                     const double* x0, const int* k) {
  static const double c[4] = {4.0 / 5.0, -1.0 / 5.0, 4.0 / 105.0, -1.0 / 280.0};
  double x[FZ_MAXD];
  for (int j = 0; j < nd; ++j) x[j] = x0[j];
  fzp_fmode = 1;
  const double f0 = f(x, k);
  fzp_fmode = 2;
  fzp_sig = 0; fzp_margin = 1e300;
  const double fp = probe(x, k);
  const unsigned long long sig0 = fzp_sig;
  const double margin = fzp_margin;
  double g[FZ_MAXD];
  for (int j = 0; j < nd; ++j) g[j] = 0.0;
  const double gv = grad ? grad(x, k, g) : f0;
  // --jvp-reference: the same partials from f_jvp (forward mode), NaN without
  double gj[FZ_MAXD];
  for (int j = 0; j < nd; ++j) gj[j] = std::nan("");
  if (jvp) jvp(x, k, gj);
  std::printf("P %d %d %.17g %.17g %.17g %.17g", prog, pt, f0, fp, gv, margin);
  int sigok = 1;
  // the steps h, 2h (the estimate and its check) and h/64, h/4096 (that the
  // estimate does not change with a much smaller step)
  static const double steps[4] = {1.0, 2.0, 1.0 / 64.0, 1.0 / 4096.0};
  for (int j = 0; j < nd; ++j) {
    const double h = fz_step(x0[j]);
    double fd[4];
    double big = std::fabs(f0);
    for (int s = 0; s < 4; ++s) {
      const double hs = h * steps[s];
      double acc = 0.0;
      for (int m = 1; m <= 4; ++m) {
        x[j] = x0[j] + m * hs;
        const double fp1 = f(x, k);
        fzp_sig = 0; probe(x, k); if (fzp_sig != sig0) sigok = 0;
        x[j] = x0[j] - m * hs;
        const double fm1 = f(x, k);
        fzp_sig = 0; probe(x, k); if (fzp_sig != sig0) sigok = 0;
        x[j] = x0[j];
        acc += c[m - 1] * (fp1 - fm1);
        big = std::fmax(big, std::fmax(std::fabs(fp1), std::fabs(fm1)));
      }
      fd[s] = acc / hs;
    }
    std::printf(" %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g", g[j], fd[0], fd[1], fd[2], fd[3], big, h, gj[j]);
  }
  fzp_fmode = 0;
  std::printf(" %d\n", sigok);
}
"""


def row_sizes(prog, name, t):
    """The scalars of each element (fields) or row of an array of structs or of
    arrays parameter, in memory order (an object of class CP: one "row", its
    double members)."""
    if t in gen.CPARAMS:
        return [len(gen.CP_MEMBERS)]
    if t in gen.SPARAMS or t in gen.SOUTS:
        return [3] * prog.size_n
    if t == "mvec":
        return list(prog.row_lens[name])
    return [prog.cols] * prog.size_n


def scalar_paths(prog, name, t):
    """C++ suffixes reaching each scalar of such a parameter: [0].x, [1][2], ..."""
    if t in gen.CPARAMS:
        return ["." + m for m in gen.CP_MEMBERS]
    out = []
    for i, m in enumerate(row_sizes(prog, name, t)):
        if t in gen.SPARAMS or t in gen.SOUTS:
            out += [f"[{i}].{f}" for f in "xyz"]
        else:
            out += [f"[{i}][{j}]" for j in range(m)]
    return out


def nested_decl(prog, pre, name, t, var):
    """A zeroed local of the shape of parameter (name, t) (the struct names
    carry the program's prefix pre)."""
    N, C, V3 = prog.size_n, prog.cols, pre + "V3"
    if t in gen.CPARAMS:
        return f"{pre}CP {var}{{}};"
    if t in ("sarr", "soutp"):
        return f"{V3} {var}[{N}] = {{}};"
    if t in ("svec", "soutv"):
        return f"std::vector<{V3}> {var}({N});"
    if t == "sstd":
        return f"std::array<{V3}, {N}> {var}{{}};"
    if t == "mvec":
        rows = ", ".join(f"std::vector<double>({m})" for m in prog.row_lens[name])
        return f"std::vector<std::vector<double>> {var}{{{rows}}};"
    if t == "marr":
        return f"double {var}[{N}][{C}] = {{}};"
    if t == "mstd":
        return f"std::array<std::array<double, {C}>, {N}> {var}{{}};"
    if t == "mva":
        return f"std::vector<std::array<double, {C}>> {var}({N});"
    raise ValueError(t)


def is_nested(t):
    return t in gen.SPARAMS or t in gen.MPARAMS or t in gen.SOUTS


def param_split(prog):
    """The names of the active scalars (an array parameter a of length n gives
    a[0] ... a[n-1]: the slots of the driver's x[]; an array of structs p
    gives p[0].x, p[0].y, ..., a matrix A gives A[0][0], A[0][1], ...) and of
    the passive ints."""
    dn, kn = [], []
    for n, t in prog.params:
        if t == "double":
            dn.append(n)
        elif t in ("arr", "vec") + gen.INOUTS:
            dn += [f"{n}[{i}]" for i in range(prog.size_n)]
        elif t in gen.SPARAMS or t in gen.MPARAMS or t in gen.CPARAMS:
            dn += [n + q for q in scalar_paths(prog, n, t)]
        elif t not in ("outp",) + gen.SOUTS:
            kn.append(n)
    if prog.method:
        dn += [f"this->{n}" for n, _ in prog.method["members"]]
    return dn, kn


def obj_slots(prog):
    """The x[] slot of the object's first member (feature "methods": the
    members come after the parameters' scalars)."""
    return len(param_split(prog)[0]) - len(prog.method["members"])


def obj_setup(prog, pre, var, src):
    """Feature "methods": the object var of class M, its members from src[]."""
    off = obj_slots(prog)
    return " ".join([f"{pre}M {var}{{}};"] + [f"{var}.{n} = {src}[{off + j}];"
                                              for j, (n, _) in enumerate(prog.method["members"])])


def method_call(prog, call):
    """(the call of f, the name of its gradient) for a program whose f is a
    method of the object fz_obj (operator(): gradient `grad`)."""
    if not prog.method:
        return call, call + "_grad"
    if prog.method["kind"] == "functor":
        return "fz_obj", "fz_obj.grad"
    return "fz_obj.f", "fz_obj.f_grad"


def out_weights(prog):
    """The cotangent w of an output array (one weight per scalar, in memory
    order): the driver differentiates phi = f(...) + sum_q w[q] out[q]."""
    return [0.5 + 0.25 * q if q % 2 == 0 else -0.75 + 0.125 * q for q in range(out_size(prog))]


def has_out(prog):
    return any(t in ("outp",) + gen.SOUTS for _, t in prog.params)


def out_type(prog):
    return next(t for _, t in prog.params if t in ("outp",) + gen.SOUTS)


def out_size(prog):
    """The output's scalars."""
    return prog.size_n * (3 if out_type(prog) in gen.SOUTS else 1)


def out_terms(prog):
    """r += w . o for the output o (of doubles or of structs)."""
    if out_type(prog) == "outp":
        return f"for (int q = 0; q < {prog.size_n}; ++q) r += w[q] * o[q];"
    return " ".join(f"r += w[{q}] * o{p};" for q, p in enumerate(scalar_paths(prog, "out", out_type(prog))))


def nested_inputs(prog, pre):
    """Statements building the arrays of structs and of arrays f takes from x[]."""
    L = []
    di = 0
    for n, t in prog.params:
        if t == "double":
            di += 1
        elif t in ("arr", "vec") + gen.INOUTS:  # (as call_args counts them)
            di += prog.size_n
        elif t in gen.SPARAMS or t in gen.MPARAMS or t in gen.CPARAMS:
            L.append(nested_decl(prog, pre, n, t, f"in_{n}"))
            for p in scalar_paths(prog, n, t):
                L.append(f"in_{n}{p} = x[{di}];")
                di += 1
    return L


def out_decl(prog, pre):
    t = out_type(prog)
    if t == "outp":
        return f"double o[{prog.size_n}] = {{}};"
    return nested_decl(prog, pre, "out", t, "o")


def phi_fn(prog, name, call, pre=""):
    """static double name(x, k): f's value, plus w . out for an output."""
    args = ", ".join(call_args(prog))
    head = f"static double {name}([[maybe_unused]] const double* x, [[maybe_unused]] const int* k) "
    setup = " ".join(["fzp_fidx = 0;"] + nested_inputs(prog, pre) + inout_decls(prog)
                     + ([obj_setup(prog, pre, "fz_obj", "x")] if prog.method else []))
    call, _ = method_call(prog, call)
    setup = setup + " " if setup else ""
    if inout_params(prog) and not has_out(prog):
        value = f"double r = {call}({args});"
        return head + f"{{ {setup}{value} {inout_terms(prog)} return r; }}"
    if not has_out(prog):
        return head + f"{{ {setup}return {call}({args}); }}"
    w = ", ".join(gen.Renderer(prog, "").lit(v) for v in out_weights(prog))
    value = f"double r = {call}({args});" if prog.ret != "void" else f"double r = 0.0; {call}({args});"
    return head + (f"{{ {setup}static const double w[] = {{{w}}}; {out_decl(prog, pre)} "
                   f"{value} {out_terms(prog)} {inout_terms(prog)} "
                   f"return r; }}")


def inout_params(prog):
    """The in/out parameters (feature "inout"): double* y, std::vector<double>& y."""
    return [(n, t) for n, t in prog.params if t in gen.INOUTS]


def inout_weights(prog, name):
    """The cotangent w_y of an in/out parameter's final value (one weight per
    element; the driver differentiates phi = f(...) + w . out + w_y . y_final
    with respect to x and y's initial value)."""
    return [0.875 - 0.125 * q if q % 2 == 0 else -0.625 + 0.25 * q for q in range(prog.size_n)]


def inout_decls(prog):
    """Fresh copies io_y of the in/out parameters' initial values (x[]'s
    slots): every call of f or f_grad starts from them."""
    L = []
    di = 0
    for n, t in prog.params:
        if t == "double":
            di += 1
        elif t in ("arr", "vec") + gen.INOUTS:
            if t == "io":
                L.append(f"double io_{n}[{prog.size_n}]; for (int q = 0; q < {prog.size_n}; ++q) "
                         f"io_{n}[q] = x[{di} + q];")
            elif t == "iov":
                L.append(f"std::vector<double> io_{n}(x + {di}, x + {di + prog.size_n});")
            di += prog.size_n
        elif t in gen.SPARAMS or t in gen.MPARAMS or t in gen.CPARAMS:
            di += len(scalar_paths(prog, n, t))
    return L


def inout_terms(prog):
    """r += w_y . y_final for the in/out parameters."""
    L = []
    for n, _ in inout_params(prog):
        w = ", ".join(gen.Renderer(prog, "").lit(v) for v in inout_weights(prog, n))
        L.append(f"{{ static const double wf_{n}[] = {{{w}}}; "
                 f"for (int q = 0; q < {prog.size_n}; ++q) r += wf_{n}[q] * io_{n}[q]; }}")
    return " ".join(L)


# --mutate-inout (self-test of the in/out convention): "add" reads d_y back
# as if f_grad had added the cotangent of y's initial value into d_y instead
# of replacing d_y with it; "ignore" passes d_y = 0, as if f_grad ignored the
# cotangent of y's final value.  Either must show as wrong-gradient.
MUTATE_INOUT = ""


def call_args(prog):
    di = ki = 0
    out = []
    for n, t in prog.params:
        if t in gen.SPARAMS or t in gen.MPARAMS or t in gen.CPARAMS:
            out.append(f"in_{n}")
            di += len(scalar_paths(prog, n, t))
            continue
        if t in gen.SOUTS:
            out.append("o")
            continue
        if t == "double":
            out.append(f"x[{di}]")
            di += 1
        elif t == "arr":
            out.append(f"x + {di}")
            di += prog.size_n
        elif t == "vec":
            out.append(f"std::vector<double>(x + {di}, x + {di + prog.size_n})")
            di += prog.size_n
        elif t in gen.INOUTS:
            out.append(f"io_{n}")
            di += prog.size_n
        elif t == "outp":
            out.append("o")
        else:
            out.append(f"k[{ki}]")
            ki += 1
    return out


def grad_fn(prog, i, call, prefix=""):
    """The driver's fz_g<i>: f_grad with the adjoints in g[] (vectors copied)."""
    args = call_args(prog)
    adj, pre, post = [], nested_inputs(prog, prefix), []
    call, gname = method_call(prog, call)
    if prog.method:
        # the adjoint of *this comes first among the adjoints
        off = obj_slots(prog)
        pre.append(obj_setup(prog, prefix, "fz_obj", "x"))
        pre.append(obj_setup(prog, prefix, "d_obj", "g"))
        post += [f"g[{off + j}] = d_obj.{n};" for j, (n, _) in enumerate(prog.method["members"])]
        adj.append("&d_obj")
    di = 0
    for n, t in prog.params:
        if t in gen.SPARAMS or t in gen.MPARAMS or t in gen.CPARAMS:
            # the adjoint has the parameter's type: filled from g, copied back
            pre.append(nested_decl(prog, prefix, n, t, f"d_{n}"))
            for p in scalar_paths(prog, n, t):
                pre.append(f"d_{n}{p} = g[{di}];")
                post.append(f"g[{di}] = d_{n}{p};")
                di += 1
            adj.append(f"&d_{n}" if t in gen.CPARAMS else f"d_{n}")  # (an object's adjoint: CP* d_c)
            continue
        if t in gen.SOUTS:
            w = ", ".join(gen.Renderer(prog, "").lit(v) for v in out_weights(prog))
            pre.append(f"static const double w[] = {{{w}}}; {out_decl(prog, prefix)} "
                       f"{nested_decl(prog, prefix, 'out', t, 'd_o')}")
            pre += [f"d_o{p} = w[{q}];" for q, p in enumerate(scalar_paths(prog, "out", t))]
            post.append(out_terms(prog))
            adj.append("d_o")
            continue
        if t == "double":
            adj.append(f"&g[{di}]")
            di += 1
        elif t == "arr":
            adj.append(f"g + {di}")
            di += prog.size_n
        elif t in gen.INOUTS:
            # the contract's in/out convention: d_y = the cotangent of y's
            # final value on entry, that of its initial value on return
            N = prog.size_n
            w = ", ".join(gen.Renderer(prog, "").lit(v) for v in inout_weights(prog, n))
            entry = "0.0" if MUTATE_INOUT == "ignore" else f"w_{n}[q]"
            pre.append(f"static const double w_{n}[] = {{{w}}}; " + (
                f"double d_{n}[{N}];" if t == "io" else f"std::vector<double> d_{n}({N});")
                + f" for (int q = 0; q < {N}; ++q) d_{n}[q] = {entry};")
            back = f"d_{n}[q] + w_{n}[q]" if MUTATE_INOUT == "add" else f"d_{n}[q]"
            post.append(f"for (int q = 0; q < {N}; ++q) g[{di} + q] = {back};")
            adj.append(f"d_{n}")
            di += N
        elif t == "vec":
            pre.append(f"std::vector<double> d_{n}(g + {di}, g + {di + prog.size_n});")
            post.append(f"for (int q = 0; q < {prog.size_n}; ++q) g[{di} + q] = d_{n}[q];")
            adj.append(f"d_{n}")
            di += prog.size_n
        elif t == "outp":
            w = ", ".join(gen.Renderer(prog, "").lit(v) for v in out_weights(prog))
            pre.append(f"static const double w[] = {{{w}}}; double o[{prog.size_n}] = {{}}; "
                       f"double d_o[] = {{{w}}};")
            post.append(f"for (int q = 0; q < {prog.size_n}; ++q) r += w[q] * o[q];")
            adj.append("d_o")
    pre += inout_decls(prog)
    post.insert(0, inout_terms(prog))
    gcall = f"{gname}({', '.join(args + adj)});"
    value = f"double r = {gcall}" if prog.ret != "void" else f"double r = 0.0; {gcall}"
    return (f"static double fz_g{i}([[maybe_unused]] const double* x, [[maybe_unused]] const int* k, "
            f"double* g) {{ {' '.join(pre)} {value} {' '.join(post)} return r; }}")


def jvp_fn(prog, i, call, prefix="", name=None):
    """The driver's fz_g<i> in forward mode (feature "jvp"): g[j] = the
    directional derivative of phi (f + w . out + w_y . y_final) along the
    j-th unit direction, from one f_jvp call per active scalar (a column
    of the Jacobian each); the value is phi from the primal results."""
    N = prog.size_n
    L = nested_inputs(prog, prefix)
    targs, tpre, tpost, ppost = [], [], [], []
    di = 0
    for n, t in prog.params:
        if t in gen.SPARAMS or t in gen.MPARAMS or t in gen.CPARAMS:
            tpre.append(nested_decl(prog, prefix, n, t, f"t_{n}"))
            for p in scalar_paths(prog, n, t):
                tpre.append(f"t_{n}{p} = v[{di}];")
                di += 1
            targs.append(f"t_{n}")
        elif t in gen.SOUTS:
            tpre.append(nested_decl(prog, prefix, "out", t, "t_o"))
            tpost += [f"dr += w[{q}] * t_o{p};" for q, p in enumerate(scalar_paths(prog, "out", t))]
            targs.append("t_o")
        elif t == "double":
            targs.append(f"v[{di}]")
            di += 1
        elif t == "arr":
            targs.append(f"v + {di}")
            di += N
        elif t == "vec":
            targs.append(f"std::vector<double>(v + {di}, v + {di + N})")
            di += N
        elif t in gen.INOUTS:
            tpre.append(f"double t_{n}[{N}]; for (int q = 0; q < {N}; ++q) t_{n}[q] = v[{di} + q];" if t == "io"
                        else f"std::vector<double> t_{n}(v + {di}, v + {di + N});")
            wf = ", ".join(gen.Renderer(prog, "").lit(u) for u in inout_weights(prog, n))
            tpost.append(f"{{ static const double wf[] = {{{wf}}}; for (int q = 0; q < {N}; ++q) "
                         f"dr += wf[q] * t_{n}[q]; }}")
            targs.append(f"t_{n}")
            di += N
        elif t == "outp":
            tpre.append(f"double t_o[{N}] = {{}};")
            tpost.append(f"for (int q = 0; q < {N}; ++q) dr += w[q] * t_o[q];")
            targs.append("t_o")
    if has_out(prog):
        w = ", ".join(gen.Renderer(prog, "").lit(u) for u in out_weights(prog))
        L.append(f"static const double w[] = {{{w}}};")
        ppost.append(out_terms(prog))
    ppost.append(inout_terms(prog))
    body = []
    body.append(f"double v[{max(di, 1)}] = {{}};")
    body.append("double r = 0.0;")
    body.append(f"for (int j = -1; j < {di}; ++j) {{")
    body.append("  if (j >= 0) v[j] = 1.0;")
    body.append("  " + " ".join(inout_decls(prog) + ([out_decl(prog, prefix)] if has_out(prog) else []) + tpre))
    body.append("  double dr = 0.0;")
    body.append("  r = 0.0;")
    jcall = f"{call}_jvp({', '.join(call_args(prog) + targs + ([] if prog.ret == 'void' else ['&dr']))})"
    body.append(f"  r = {jcall};" if prog.ret != "void" else f"  {jcall};")
    body.append("  " + " ".join(tpost + ppost))
    body.append("  if (j >= 0) { g[j] = dr; v[j] = 0.0; }")
    body.append("}")
    return (f"static double {name or f'fz_g{i}'}([[maybe_unused]] const double* x, [[maybe_unused]] const int* k, "
            f"double* g) {{ {' '.join(L)} {' '.join(body)} return r; }}")


def flat_point(prog, pt):
    """A point as (active scalars in slot order, passive ints)."""
    xs, ks = [], []
    for v, (_, t) in zip(pt, prog.params):
        if t == "double":
            xs.append(v)
        elif t in ("arr", "vec") + gen.INOUTS:
            xs += list(v)
        elif t in gen.SPARAMS or t in gen.MPARAMS or t in gen.CPARAMS:
            xs += [q for row in v for q in row]
        elif t not in ("outp",) + gen.SOUTS:
            ks.append(int(v))
    if prog.method:
        xs += list(pt[-1])
    return xs, ks


def hexlit(v):
    return float(v).hex()


# --jvp-reference: the parameter kinds jvp_fn can seed (one unit direction
# per active scalar, in the slots grad_fn fills).
JVP_SEEDABLE = ("double", "arr", "vec", "outp", "int", "size") + gen.SPARAMS + gen.MPARAMS + gen.CPARAMS + gen.SOUTS + gen.INOUTS


def jvp_reference_ok(prog):
    """Whether a program also gets a forward-mode copy as a second reference
    (a free function, not already in forward mode, with parameters jvp_fn
    knows)."""
    return prog.mode == "grad" and not prog.method and all(t in JVP_SEEDABLE for _, t in prog.params)


def jvp_program(prog):
    q = prog.copy()
    q.mode = "jvp"
    return q


def jvp_batch_text(cases, skip=()):
    """The forward-mode copies (prefix j<i>_) of the programs that get one
    (but those in `skip`)."""
    out = ["// generated by test/fuzz/fuzz.py (forward-mode references)", "#include <unfad/unfad.h>", "",
           "#include <algorithm>", "#include <array>", "#include <cmath>", "#include <functional>", "#include <iterator>",
           "#include <numeric>", "#include <optional>", "#include <utility>", "#include <vector>", ""]
    for c in cases:
        if jvp_reference_ok(c.program) and c.index not in skip:
            out.append(f"// ---- program {c.index} ({c.seed}), marked UNFAD_JVP")
            out.append(gen.Renderer(jvp_program(c.program), f"j{c.index}_").render())
    return "\n".join(out)


def driver_text(cases, processed_name, with_grad=True, jvp_name=None, jvp_skip=()):
    L = ["// generated by test/fuzz/fuzz.py", f'#include "{processed_name}"'] + (
        [f'#include "{jvp_name}"'] if jvp_name else []) + ["#include <algorithm>",
         "#include <array>", "#include <cmath>", "#include <cstdio>", "#include <functional>", "#include <iterator>", "#include <numeric>", "#include <optional>", "#include <utility>",
         "#include <vector>", PROBE_RUNTIME]
    frozen = set()  # programs whose reference freezes values (feature "nograd")
    for c in cases:
        text = gen.Renderer(c.program, f"q{c.index}_", probe=True).render(marked=False)
        if "fzp_freeze(" in text:
            frozen.add(c.index)
        L.append(text)
    for c in cases:
        p = c.program
        r = gen.Renderer(p, f"p{c.index}_")
        q = gen.Renderer(p, f"q{c.index}_")
        args = ", ".join(call_args(p))
        dn, kn = param_split(p)
        i = c.index
        # (with frozen values, finite differences are taken of the reference)
        fr, fpre = (q, f"q{i}_") if i in frozen else (r, f"p{i}_")
        L.append(phi_fn(p, f"fz_f{i}", fr.qualified_fname(), fpre))
        L.append(phi_fn(p, f"fz_q{i}", q.qualified_fname(), f"q{i}_"))
        if with_grad:
            L.append((jvp_fn if p.mode == "jvp" else grad_fn)(p, i, r.qualified_fname(), f"p{i}_"))
        if with_grad and jvp_name and jvp_reference_ok(p) and i not in jvp_skip:
            rj = gen.Renderer(jvp_program(p), f"j{i}_")
            L.append(jvp_fn(jvp_program(p), i, rj.qualified_fname(), f"j{i}_", name=f"fz_j{i}"))
    L.append("int main() {")
    for c in cases:
        p = c.program
        dn, kn = param_split(p)
        i = c.index
        for j, pt in enumerate(c.points):
            xs, ks = flat_point(p, pt)
            L.append("  {")
            L.append(f"    static const double x[] = {{{', '.join(hexlit(v) for v in xs)}}};")
            L.append(f"    static const int k[] = {{{', '.join(str(v) for v in ks) if ks else '0'}}};")
            g = f"fz_g{i}" if with_grad else "nullptr"
            jv = f"fz_j{i}" if with_grad and jvp_name and jvp_reference_ok(p) and i not in jvp_skip else "nullptr"
            L.append(f"    fz_check({i}, {j}, fz_f{i}, fz_q{i}, {g}, {jv}, {len(xs)}, x, k);")
            L.append("  }")
    L.append("  return 0;")
    L.append("}")
    return "\n".join(L) + "\n"


def batch_text(cases):
    out = ["// generated by test/fuzz/fuzz.py", "#include <unfad/unfad.h>", "", "#include <algorithm>",
           "#include <array>", "#include <cmath>", "#include <functional>", "#include <iterator>", "#include <numeric>", "#include <optional>", "#include <utility>", "#include <vector>",
           ""]
    for c in cases:
        out.append(f"// ---- program {c.index} ({c.seed})")
        out.append(gen.Renderer(c.program, f"p{c.index}_").render())
    return "\n".join(out)


# ---------------------------------------------------------------------------
# Running


def usable_differences(row, big):
    """Whether the central differences of one partial (a driver row's g,
    fd(h), fd(2h), fd(h/64), fd(h/4096), max |f|, h, f_jvp's) are a usable reference:
    the estimate at h agrees with those at 2h and at the much smaller steps.
    A smaller step's rounding error, about 2.3e-16 max|f| / step for this
    stencil, is allowed 100 times over."""
    _, fd1, fd2, fd3, fd4, _, h, _ = row
    if abs(fd1) > 1e8:
        return False
    tol = 1e-7 * max(1.0, abs(fd1)) + 1e-8 * max(1.0, big)
    if abs(fd1 - fd2) > tol:
        return False
    for fd, step in ((fd3, h / 64.0), (fd4, h / 4096.0)):
        if abs(fd1 - fd) > tol + 2.3e-14 * max(1.0, big) / step:
            return False
    return True


class Result:
    def __init__(self, kind, detail="", points=None, sig=None):
        self.kind = kind  # "ok", "no-valid-point", or one of KINDS
        self.detail = detail
        self.points = points or []  # indices of valid points
        self.bad_points = []  # indices of points that show the failure
        self.sig = sig or kind

    def failed(self):
        return self.kind in KINDS


def run(cmd, cwd, timeout):
    for attempt in range(10):
        try:
            return run1(cmd, cwd, timeout)
        except OSError:  # e.g. unfad being relinked by a concurrent build
            if attempt == 9:
                raise
            time.sleep(3)


def run1(cmd, cwd, timeout):
    try:
        r = subprocess.run(cmd, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=timeout)
        return r.returncode, r.stdout.decode(errors="replace"), r.stderr.decode(errors="replace"), False
    except subprocess.TimeoutExpired as e:
        out = (e.stdout or b"").decode(errors="replace")
        err = (e.stderr or b"").decode(errors="replace")
        return -999, out, err, True


def generated_warnings(processed_path, stderr):
    """(program index, message) for every compiler warning inside a generated
    block, unless the program's own (primal) code has a warning of the same
    kind (the generated code then only inherits it, e.g. a tautological
    comparison the generator wrote)."""
    owner = {}  # line -> (program, generated?)
    cur_prog = None
    in_block = False
    with open(processed_path) as f:
        for n, line in enumerate(f, 1):
            m = re.match(r"// ---- program (\d+)", line)
            if m:
                cur_prog = int(m.group(1))
            m = re.match(r"\s*//\s*unfad:begin\s+p(\d+)_", line)
            if m:
                cur_prog, in_block = int(m.group(1)), True
            elif re.match(r"\s*//\s*unfad:end\b", line):
                in_block = False
            elif cur_prog is not None:
                owner[n] = (cur_prog, in_block)
    gen_w, primal_flags = [], set()
    for m in re.finditer(r"^(?:\./)?processed\.cpp:(\d+):\d+: warning: (.*?)(\[-W[^\]]*\])?$", stderr, re.M):
        n = int(m.group(1))
        if n not in owner:
            continue
        prog, generated = owner[n]
        flag = m.group(3) or ""
        if generated and re.search(r"_grad\b.*defined but not used|unused function '\w*_grad'", m.group(2)):
            # the f_grad of a *static* marked helper the driver does not call:
            # reported once (issue 4 report), not again on every program
            continue
        if generated:
            gen_w.append((prog, flag, f"processed.cpp:{n}: warning: {m.group(2)}{flag}"))
        else:
            primal_flags.add((prog, flag))
    return [(p, msg) for p, flag, msg in gen_w if (p, flag) not in primal_flags]


def mutate(text):
    """--mutate (self-test): scale every adjoint update of x0 (and of the
    elements of an array parameter a0, of the fields of an array of structs
    p0, of the elements of an array of arrays A0) by 1.0001."""
    text = re.sub(r"\*d_x0 \+= ", "*d_x0 += 1.0001 * ", text)
    # (feature structs: also the fields of p0's elements and the elements of A0)
    text = re.sub(r"\b(d_p0\[[^\]\n]*\](?:\.\w+)+|d_A0\[[^\]\n]*\]\[[^\]\n]*\]) \+= ", r"\1 += 1.0001 * ", text)
    # (feature "jvp": the tangent of the returned value)
    text = re.sub(r"\*d_return = ([^;\n]*);", r"*d_return = 1.0001 * (\1);", text)
    return re.sub(r"\bd_a0\[([^\]\n]*)\] \+= ", r"d_a0[\1] += 1.0001 * ", text)


def first_error(err):
    m = re.search(r"error: (.*)", err)
    if not m:
        return ""
    msg = re.sub(r"[‘’'`][^‘’'`]*[‘’'`]", "X", m.group(1))  # drop names
    return normalize_msg(msg)[:100]


def errors_first(err, n=24):
    """The compiler's error lines (with a little context), not its warnings."""
    lines = err.splitlines()
    keep = []
    for i, l in enumerate(lines):
        if ": error:" in l or "error:" in l[:40]:
            keep += lines[max(0, i - 1):i + 6]
        if len(keep) >= n:
            break
    return "\n".join(keep[:n]) if keep else tail(err, n)


def tail(text, n=40):
    lines = text.splitlines()
    if len(lines) > n:
        lines = [f"... ({len(lines) - n} lines omitted)"] + lines[-n:]
    return "\n".join(lines)


def normalize_msg(msg):
    m = re.sub(r"\bp\d+_|\bq\d+_|\bfuzz_[0-9a-f]+_", "", msg)
    m = re.sub(r"\b[tmcvxka]\d+\b", "V", m)
    m = re.sub(r"\d+", "N", m)
    return m.strip()


class Fuzzer:
    def __init__(self, args):
        self.a = args
        self.unfad = os.path.abspath(args.unfad)
        self.include = os.path.abspath(args.include)
        self.lock = threading.Lock()
        self.stats = {"programs": 0, "unfad_runs": 0, "compiles": 0, "points_checked": 0,
                      "points_rejected": 0, "no_valid_point": 0, "jvp_references": 0,
                      "jvp_batches_refused": 0}

    def bump(self, k, n=1):
        with self.lock:
            self.stats[k] += n

    def unfad_flags(self):
        return ["--", "-std=c++17", "-I" + self.include]

    def cxx_cmd(self, cxx, src, exe):
        return [cxx, "-std=c++17", "-O" + str(self.a.opt), "-Wall", "-Wextra", "-I" + self.include, "-I.",
                src, "-o", exe] + self.a.cxxflags

    # -- one batch -----------------------------------------------------------
    def evaluate(self, cases, with_grad=True):
        """Results for each case (by index), bisecting batch-level failures."""
        work = tempfile.mkdtemp(prefix="unfad-fuzz-", dir=self.a.tmpdir)
        try:
            return self._evaluate(cases, work, with_grad)
        finally:
            if not self.a.keep:
                shutil.rmtree(work, ignore_errors=True)

    def split(self, cases, with_grad):
        h = len(cases) // 2
        res = self.evaluate(cases[:h], with_grad)
        res.update(self.evaluate(cases[h:], with_grad))
        return res

    def _evaluate(self, cases, work, with_grad):
        src = os.path.join(work, "batch.cpp")
        with open(src, "w") as f:
            f.write(batch_text(cases))
        processed = "batch.cpp"
        if with_grad:
            self.bump("unfad_runs")
            rc, out, err, to = run([self.unfad, "batch.cpp"] + self.unfad_flags(), work, UNFAD_TIMEOUT)
            if rc != 0:
                if len(cases) > 1:
                    res = self.split(cases, with_grad)
                    if not any(r.kind.startswith("unfad-") for r in res.values()):
                        # each program alone passes: state one function's
                        # lowering leaves to the next (a file of several marked
                        # functions is what users write too)
                        first = next((l.split("error:", 1)[1] for l in err.splitlines() if "error:" in l), f"exit {rc}")
                        res[cases[0].index] = Result("unfad-batch", "unfad fails on the programs together, on none "
                                                     "alone\n" + tail(err), sig="unfad-batch:" + normalize_msg(first))
                    return res
                return {cases[0].index: self.classify_unfad(rc, err, to, cases[0])}
            if self.a.mutate:
                out = mutate(out)
            with open(os.path.join(work, "processed.cpp"), "w") as f:
                f.write(out)
            processed = "processed.cpp"
        jvp_name, skip = None, set()
        if with_grad and self.a.jvp_reference and any(jvp_reference_ok(c.program) for c in cases):
            # forward-mode copies, run through unfad apart: a copy forward mode
            # refuses (a construct it lacks) only costs its program the second
            # reference (found by the lines of unfad's errors and left out, the
            # rest tried again; three rounds at most, else the batch goes without)
            skip = set()
            for _ in range(3):
                text = jvp_batch_text(cases, skip)
                with open(os.path.join(work, "jvp.cpp"), "w") as f:
                    f.write(text)
                rc, out, err, to = run([self.unfad, "jvp.cpp"] + self.unfad_flags(), work, UNFAD_TIMEOUT)
                if rc == 0 or to:
                    break
                starts = [(n + 1, int(m.group(1))) for n, l in enumerate(text.splitlines())
                          if (m := re.match(r"// ---- program (\d+) ", l))]
                refused = set()
                for m in re.finditer(r"jvp\.cpp:(\d+):\d+: error", err):
                    line = int(m.group(1))
                    before = [i for at, i in starts if at <= line]
                    if before:
                        refused.add(before[-1])
                if not refused:
                    break
                skip |= refused
            if rc == 0:
                with open(os.path.join(work, "processed_jvp.cpp"), "w") as f:
                    f.write(out)
                jvp_name = "processed_jvp.cpp"
                self.bump("jvp_references", sum(1 for c in cases if jvp_reference_ok(c.program) and c.index not in skip))
            else:
                self.bump("jvp_batches_refused")
        with open(os.path.join(work, "driver.cpp"), "w") as f:
            f.write(driver_text(cases, processed, with_grad, jvp_name, skip if jvp_name else ()))
        outputs = []
        warned = {}  # program index -> warnings in its generated code
        for cxx in self.compilers():
            exe = os.path.join(work, "driver_" + os.path.basename(cxx).replace("+", "x"))
            self.bump("compiles")
            rc, out, err, to = run(self.cxx_cmd(cxx, "driver.cpp", exe), work, CXX_TIMEOUT)
            if rc != 0:
                if len(cases) > 1:
                    return self.split(cases, with_grad)
                if with_grad:
                    prim = self.evaluate(cases, with_grad=False)[cases[0].index]
                    if prim.kind == "generator-error":
                        return {cases[0].index: prim}
                    return {cases[0].index: Result(
                        "compile-error", f"{cxx} failed on unfad's output:\n" + errors_first(err),
                        sig="compile-error:" + first_error(err))}
                return {cases[0].index: Result("generator-error", f"{cxx}:\n" + errors_first(err))}
            if with_grad:
                for i, w in generated_warnings(os.path.join(work, processed), err):
                    warned.setdefault(i, []).append(f"[{cxx}] {w}")
            rc, out, err, to = run([exe], work, RUN_TIMEOUT)
            if rc != 0:
                if len(cases) > 1:
                    return self.split(cases, with_grad)
                what = "timed out" if to else f"exit code {rc}"
                kind = "runtime-crash" if with_grad else "generator-error"
                return {cases[0].index: Result(kind, f"driver ({cxx}) {what}\n" + tail(err))}
            outputs.append((cxx, out))
        res = {}
        for c in cases:
            res[c.index] = self.judge(c, outputs, with_grad)
            if c.index in warned and res[c.index].kind in ("ok", "no-valid-point"):
                res[c.index] = Result("generated-warning",
                                      "-Wall -Wextra warns about the generated code:\n" + "\n".join(warned[c.index][:10]),
                                      res[c.index].points, sig="generated-warning:" + normalize_msg(
                                          warned[c.index][0].split("warning:", 1)[-1]))
        return res

    def compilers(self):
        cs = [self.a.cxx]
        if self.a.clangxx:
            cs.append(self.a.clangxx)
        return cs

    def unfad_only(self, case):
        """unfad on one program: its failure Result, or None when it succeeds."""
        work = tempfile.mkdtemp(prefix="unfad-fuzz-", dir=self.a.tmpdir)
        try:
            with open(os.path.join(work, "batch.cpp"), "w") as f:
                f.write(batch_text([case]))
            rc, out, err, to = run([self.unfad, "batch.cpp"] + self.unfad_flags(), work, UNFAD_TIMEOUT)
            if rc == 0:
                return None
            if to or rc < 0 or rc >= 128 or "internal error" in err or "Assertion" in err:
                return self.classify_unfad(rc, err, to, case)
            errs = [l for l in err.splitlines() if "error:" in l]
            if not errs:
                return self.classify_unfad(rc, err, to, case)
            first = errs[0].split("error:", 1)[1]
            return Result("unfad-diagnostic", tail(err), sig="unfad-diagnostic:" + normalize_msg(first))
        finally:
            if not self.a.keep:
                shutil.rmtree(work, ignore_errors=True)

    def classify_unfad(self, rc, err, to, case):
        if to:
            return Result("unfad-crash", f"unfad hung (>{UNFAD_TIMEOUT}s)", sig="unfad-crash:hang")
        crashed = rc < 0 or rc >= 128 or any(
            s in err for s in ("Assertion", "Stack dump", "internal error", "PLEASE submit", "terminate called",
                               "Segmentation fault", "AddressSanitizer", "runtime error:"))
        errs = [l for l in err.splitlines() if "error:" in l]
        if crashed or not errs:
            key = next((l for l in err.splitlines() if any(
                s in l for s in ("Assertion", "internal error", "terminate called", "ERROR:", "error:"))), f"exit {rc}")
            return Result("unfad-crash", f"unfad exit code {rc}\n" + tail(err),
                          sig="unfad-crash:" + normalize_msg(key.split("error:")[-1])[:120])
        # a diagnostic on a program of the supported subset; was the program
        # itself valid C++?  (a generator bug otherwise)
        prim = self.evaluate([case], with_grad=False)[case.index]
        if prim.kind == "generator-error":
            return prim
        first = errs[0].split("error:", 1)[1]
        return Result("unfad-diagnostic", tail(err), sig="unfad-diagnostic:" + normalize_msg(first))

    # -- judging points --------------------------------------------------------
    def judge(self, case, outputs, with_grad):
        p = case.program
        dn, _ = param_split(p)
        nd = len(dn)
        valid = []
        bad = []
        msgs = []
        kinds = set()
        worst = 0.0  # largest relative error of a partial
        for cxx, out in outputs:
            rows = [l.split() for l in out.splitlines() if l.startswith(f"P {case.index} ")]
            if len(rows) != len(case.points):
                return Result("runtime-crash" if with_grad else "generator-error",
                              f"driver ({cxx}) printed {len(rows)} rows for {len(case.points)} points")
            for row in rows:
                pt = int(row[2])
                vals = [float(v) for v in row[3:-1]]
                sigok = row[-1] == "1"
                f0, fp, gv, margin = vals[0:4]
                # per partial: g, fd at h, 2h, h/64, h/4096, max |f| on the stencils, h,
                # f_jvp's (NaN without --jvp-reference)
                per = [vals[4 + 8 * j: 12 + 8 * j] for j in range(nd)]
                # (1 ulp apart when the compiler folded a libm call in one copy)
                if not (fp == f0 or abs(fp - f0) <= 1e-12 * max(1.0, abs(f0))) and not (
                        math.isnan(fp) and math.isnan(f0)):
                    return Result("generator-error", f"probe copy returned {fp}, f returned {f0} at point {pt}")
                fin = all(math.isfinite(v) for v in [f0] + [q for r in per for q in r[1:6]])
                if not (sigok and fin and margin >= 1e-3 and abs(f0) < 1e8):
                    continue
                big = max([abs(f0)] + [r[5] for r in per])
                if with_grad and sigok and math.isfinite(f0) and abs(f0) < 1e8:
                    # the second reference, forward mode, needs no usable
                    # differences: it holds where they are ill-conditioned
                    for j, r in enumerate(per):
                        g, jv = r[0], r[7]
                        if math.isnan(jv) or abs(jv) > 1e8:
                            continue
                        if not (abs(g - jv) <= 1e-8 * max(abs(g), abs(jv)) + 1e-9 * max(1.0, abs(f0))):
                            kinds.add("wrong-gradient")
                            worst = max(worst, abs(g - jv) / max(abs(g), abs(jv), 1e-300) if math.isfinite(g)
                                        else math.inf)
                            msgs.append(f"[{cxx}] {self.where(case, pt)}: d/d{dn[j]} = {g!r} but forward mode "
                                        f"(f_jvp) gives {jv!r}")
                            bad.append(pt)
                ok_fd = all(usable_differences(r, big) for r in per)
                if not ok_fd:
                    continue
                if pt not in valid:
                    valid.append(pt)
                if not with_grad:
                    continue
                where = self.where(case, pt)
                vt = 1e-12 * max(1.0, abs(f0))
                if not (abs(gv - f0) <= vt):
                    kinds.add("primal-mismatch")
                    msgs.append(f"[{cxx}] {where}: f_grad returned {gv!r} but f returned {f0!r}")
                    bad.append(pt)
                for j, (g, fd1, fd2, *_) in enumerate(per):
                    if not (abs(g - fd1) <= 1e-5 * max(abs(g), abs(fd1)) + 1e-6 * max(1.0, big)):
                        rel = abs(g - fd1) / max(abs(g), abs(fd1), 1e-300) if math.isfinite(g) else math.inf
                        worst = max(worst, rel)
                        kinds.add("wrong-gradient")
                        msgs.append(f"[{cxx}] {where}: d/d{dn[j]} = {g!r} but finite differences give "
                                    f"{fd1!r} (h) / {fd2!r} (2h)")
                        bad.append(pt)
        self.bump("points_checked", len(case.points) * len(outputs))
        self.bump("points_rejected", len(case.points) * len(outputs) - len(valid) * len(outputs))
        if kinds:
            kind = "wrong-gradient" if "wrong-gradient" in kinds else "primal-mismatch"
            sig = kind
            if kind == "wrong-gradient":
                # shrinking keeps the class: a gross error stays gross, a small
                # (possibly rounding) one stays small
                sig += ":gross" if worst > 1e-2 else ":small"
            r = Result(kind, "\n".join(msgs[:30]), valid, sig=sig)
            r.bad_points = sorted(set(bad))
            return r
        if not valid:
            return Result("no-valid-point", "", [])
        return Result("ok", "", valid)

    def where(self, case, pt):
        vals = ", ".join(f"{n}={v!r}" for (n, _), v in zip(case.program.params, case.points[pt]))
        return f"f({vals})"

    # -- shrinking -------------------------------------------------------------
    def shrink(self, case, result, budget):
        """Greedy delta debugging; returns (case, result, steps, tried, seconds).

        Each round evaluates the one-step reductions of the current program,
        smallest first, a batch (one unfad run, one compile) at a time, and
        moves to the smallest one in the first batch that still fails the
        same way."""
        t0 = time.time()
        cur, cur_res = case, result
        steps = 0
        tried = 0
        B = max(4, self.a.batch)
        while time.time() - t0 < budget:
            seen = set()
            cands = []
            for p in candidates(cur.program):
                if not gen.check_program(p):
                    continue
                key = gen.Renderer(p, "").render()
                if key in seen:
                    continue
                seen.add(key)
                cands.append((p.size(), len(cands), p))
            cands.sort(key=lambda t: (t[0], t[1]))
            found = None
            if cur_res.kind in ("unfad-crash", "unfad-diagnostic"):
                # only unfad needs to run: one candidate at a time, no compiler
                for _, _, p in cands:
                    if time.time() - t0 > budget:
                        break
                    c = cur.with_program(p)
                    c.index = case.index
                    tried += 1
                    r = self.unfad_only(c)
                    if r is not None and r.sig == cur_res.sig:
                        found = (c, r)
                        break
                cands = []
            for s in range(0, len(cands), B):
                if time.time() - t0 > budget:
                    break
                chunk = [cur.with_program(p) for _, _, p in cands[s:s + B]]
                for k, c in enumerate(chunk):
                    c.index = 100000 + k
                tried += len(chunk)
                res = self.evaluate(chunk)
                for c in chunk:  # smallest first
                    r = res[c.index]
                    if r.failed() and r.sig == cur_res.sig:
                        found = (c, r)
                        break
                if found:
                    break
            if not found:
                break
            cur, cur_res = found
            cur.index = case.index
            steps += 1
        return cur, cur_res, steps, tried, time.time() - t0


# ---------------------------------------------------------------------------
# Shrinking candidates (in order of preference: bigger cuts first)


def stmt_lists(prog):
    """Every statement list of the program: (owner, list) pairs."""
    out = []

    def visit(ss):
        out.append(ss)
        for s in ss:
            if s[0] == "if":
                visit(s[2])
                visit(s[3])
            elif s[0] in ("for", "while", "dowhile", "rfor"):
                visit(s[3])
            elif s[0] == "dwhile":
                visit(s[4])

    visit(prog.body)
    for h in prog.helpers:
        if h is not None:
            visit(h.body)
    return out


def candidates(prog):
    lists = stmt_lists(prog)
    # 0. drop runs of statements (halves, quarters, ...), keeping final returns
    for li, ss in enumerate(lists):
        n = len(ss)
        k = n // 2
        while k >= 2:
            for st in range(0, n, k):
                q = prog.copy()
                qs = stmt_lists(q)[li]
                end = min(n, st + k)
                if end == n and is_function_body(q, qs):
                    end = n - 1
                if end - st < 2:
                    continue
                del qs[st:end]
                yield q
            k //= 2
    # 1. drop statements (not the final return of a function)
    for li, ss in enumerate(lists):
        for si in range(len(ss)):
            q = prog.copy()
            qs = stmt_lists(q)[li]
            if si == len(qs) - 1 and qs[si][0] == "return" and is_function_body(q, qs):
                continue
            del qs[si]
            yield q
    # 2. inline if-statements: then-branch, else-branch; drop the else
    for li, ss in enumerate(lists):
        for si, s in enumerate(ss):
            if s[0] != "if":
                continue
            for pick in (2, 3):
                q = prog.copy()
                qs = stmt_lists(q)[li]
                qs[si:si + 1] = qs[si][pick]
                yield q
            if s[3]:
                q = prog.copy()
                qs = stmt_lists(q)[li]
                qs[si] = ("if", qs[si][1], qs[si][2], [])
                yield q
    # 2b. unroll a loop into one copy of its body (a for loop's variable
    # becomes a constant: only when its first value is a valid index)
    for li, ss in enumerate(lists):
        for si, s in enumerate(ss):
            if s[0] not in gen.LOOPS or s[0] == "rfor":
                continue
            q = prog.copy()
            qs = stmt_lists(q)[li]
            if s[0] == "for":
                if s[2][0] not in ("0", "n - 1"):
                    continue
                init = gen.E("raw", "int", (), (s[2][0], ("n",) if "n" in s[2][0] else ()))
                qs[si:si + 1] = [("decl", "int", s[1], init, True)] + qs[si][3]
            else:
                qs[si:si + 1] = qs[si][4 if s[0] == "dwhile" else 3]
            yield q
    if prog.in_ns:
        q = prog.copy()
        q.in_ns = False
        yield q
    # 3. replace expressions by a child of the same type, or a constant
    n = count_exprs(prog)
    for ei in range(n):
        x = nth_expr(prog, ei)
        repl = [c for c in x.a if c.t == x.t]
        if x.t == "double" and not (x.k == "const"):
            repl.append(gen.cst(0.5))
        if x.t == "int" and x.k not in ("const", "raw"):
            repl.append(gen.icst(1))
        if x.t == "double" and x.k != "var":
            for pn, pt in prog.params[:2]:
                if pt == "double":
                    repl.append(gen.var(pn, "double"))
        for r in repl:
            q = prog.copy()
            replace_nth_expr(q, ei, r.copy())
            yield q
    # 4. simpler constants
    for ei in range(n):
        x = nth_expr(prog, ei)
        if x.k == "const" and x.t == "double" and x.v not in (0.5, 1.0):
            q = prog.copy()
            replace_nth_expr(q, ei, gen.cst(1.0))
            yield q


def is_function_body(prog, ss):
    return ss is prog.body or any(h is not None and ss is h.body for h in prog.helpers)


def expr_slots(prog):
    """(container, key) for every expression root, in a stable order."""
    slots = []

    def visit(ss):
        for i, s in enumerate(ss):
            if s[0] in ("decl", "assign", "aset"):
                slots.append((ss, i, 3))
            elif s[0] == "adecl" and s[3] is not None:
                slots.append((ss, i, 3))
            elif s[0] in ("return", "expr"):
                slots.append((ss, i, 1))
            elif s[0] == "mem":
                slots.append((ss, i, 2))
            elif s[0] == "if":
                slots.append((ss, i, 1))
                visit(s[2])
                visit(s[3])
            elif s[0] in ("for", "while", "dowhile", "rfor"):
                visit(s[3])
            elif s[0] == "dwhile":
                slots.append((ss, i, 3))
                visit(s[4])

    for h in prog.helpers:
        if h is not None:
            visit(h.body)
    visit(prog.body)
    return slots


def all_nodes(prog):
    """Pre-order (parent, child_index or slot, node) of every expression node."""
    out = []
    for slot in expr_slots(prog):
        ss, i, k = slot
        root = ss[i][k]
        stack = [(("slot", slot), root)]
        while stack:
            where, x = stack.pop(0)
            out.append((where, x))
            for ci, c in enumerate(x.a):
                stack.append((("child", x, ci), c))
    return out


def count_exprs(prog):
    return len(all_nodes(prog))


def nth_expr(prog, n):
    return all_nodes(prog)[n][1]


def replace_nth_expr(prog, n, new):
    where, _ = all_nodes(prog)[n]
    if where[0] == "child":
        where[1].a[where[2]] = new
    else:
        ss, i, k = where[1]
        s = list(ss[i])
        s[k] = new
        ss[i] = tuple(s)


# ---------------------------------------------------------------------------
# Reports and regression cases


def standalone(case, res):
    """The program as an end-to-end case (test/e2e/run_e2e.py format)."""
    body0 = gen.Renderer(case.program, "").render()
    h = hashlib.sha1(body0.encode()).hexdigest()[:10]
    pre = f"fuzz_{h}_"
    r = gen.Renderer(case.program, pre)
    code = r.render()
    pts = list(res.bad_points) or list(res.points)
    for i in res.points:
        if i not in pts:
            pts.append(i)
    if not pts:
        pts = list(range(len(case.points)))
    pts = pts[:4]
    points = [case.points[i] for i in pts]
    def js(v):  # ints stay ints, lists (of lists) of floats
        if isinstance(v, int) or v is None:
            return v
        if isinstance(v, list):
            return [js(q) if isinstance(q, list) else float(q) for q in v]
        return float(v)

    spec = {"function": pre + "f",
            "points": [[js(v) for v in p] for p in points],
            "rtol": 1e-5, "atol": 1e-6,
            "flags": ["-Wno-unused-parameter", "-Wno-unused-variable", "-Wno-unused-but-set-variable",
                      "-Wno-unused-but-set-parameter"]}
    if case.program.in_ns:
        spec["call"] = r.qualified_fname()
    if has_out(case.program):
        spec["outputs"] = {"out": case.program.size_n}
    if inout_params(case.program):
        spec["inouts"] = {n: case.program.size_n for n, _ in inout_params(case.program)}
    detail = "\n".join("   " + l for l in res.detail.splitlines()[:12])
    head = [
        f"// Found by test/fuzz/fuzz.py ({case.seed}), shrunk: {res.kind}.",
        "// At the time it was found:",
        *["//" + l for l in detail.splitlines()],
        "#include <unfad/unfad.h>",
        "",
        "#include <algorithm>",
        "#include <array>",
        "#include <cmath>",
        "#include <functional>", "#include <iterator>",
        "#include <numeric>", "#include <optional>",
        "#include <vector>",
        "",
    ]
    text = "\n".join(head) + "\n" + code + "\n/* e2e\n" + json.dumps(spec) + "\n*/\n"
    return h, text


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--unfad", default=os.path.join(REPO, "build", "bin", "unfad"))
    ap.add_argument("--include", default=os.path.join(REPO, "include"))
    ap.add_argument("--cxx", default="g++")
    ap.add_argument("--clangxx", default="", help="also compile and check with this compiler (e.g. clang++-19)")
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--seed", default="1")
    ap.add_argument("--start", type=int, default=0, help="first program index")
    ap.add_argument("--only", type=int, action="append", help="only these program indices")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--batch", type=int, default=20, help="programs per file (default %(default)s)")
    ap.add_argument("--points", type=int, default=0,
                    help="candidate points per program (default 6; 10 with loops or arrays, whose "
                         "many comparisons reject more points)")
    ap.add_argument("--opt", default="0", help="optimisation level of the driver build")
    ap.add_argument("--cxxflags", default="", help="extra flags for building the driver, one string "
                    "(e.g. \"-fsanitize=address,undefined\")")
    ap.add_argument("--features", default="base",
                    help="comma list: base, loops, arrays, outputs, structs (e.g. base,loops,arrays,outputs,structs); "
                         "avoid-ns-marked steers clear of an open bug (fuzz_namespace_pullback.cpp)")
    ap.add_argument("--no-shrink", action="store_true")
    ap.add_argument("--shrink-time", type=float, default=240.0, help="seconds per shrink")
    ap.add_argument("--max-shrink", type=int, default=20, help="shrink at most this many failures")
    ap.add_argument("--per-signature", type=int, default=3,
                    help="shrink at most this many failures of one kind/message (default %(default)s)")
    ap.add_argument("--out", default="", help="directory for findings (default: none, print only)")
    ap.add_argument("--save-cases", default="", help="write shrunk findings here as fuzz_<hash>.cpp e2e cases")
    ap.add_argument("--time-limit", type=float, default=0, help="stop starting batches after this many seconds")
    ap.add_argument("--print", action="store_true", help="print the programs instead of testing them")
    ap.add_argument("--keep", action="store_true", help="keep temporary directories")
    ap.add_argument("--selftest", action="store_true",
                    help="check the checker: with --mutate, most programs must fail with wrong-gradient "
                         "(and no other kind), and one must shrink to a few statements")
    ap.add_argument("--mutate", action="store_true",
                    help="self-test: perturb the generated gradients (every program should fail)")
    ap.add_argument("--mutate-inout", choices=["add", "ignore"], default="",
                    help="self-test of the in/out convention (feature inout): read d_y back as if f_grad had "
                         "added into it (add), or pass d_y = 0 (ignore); with --selftest, every program with an "
                         "in/out parameter must fail with wrong-gradient, and the others pass")
    ap.add_argument("--mutate-nograd", action="store_true",
                    help="self-test of feature nograd: drop the UNFAD_NO_GRAD marks (and unfad::no_grad) from "
                         "the differentiated copy; with --selftest, the programs that use them must fail with "
                         "wrong-gradient (a quarter of them at least: many marked values feed dead code), and no "
                         "program with another kind")
    ap.add_argument("--jvp-reference", action="store_true",
                    help="also mark a copy of each free-function program UNFAD_JVP and check every partial of "
                         "f_grad against f_jvp's (a second reference, at every point, ill-conditioned ones too)")
    ap.add_argument("--tmpdir", default=None)
    ap.add_argument("--quiet", "-q", action="store_true")
    ap.add_argument("--snapshot", action="store_true",
                    help="run a private copy of unfad (long runs while unfad is being rebuilt)")
    a = ap.parse_args()

    a.cxxflags = shlex.split(a.cxxflags)
    features = tuple(a.features.split(","))
    if not a.points:
        a.points = 10 if ("loops" in features or "arrays" in features) else 6
    for f in features:
        if f != "base" and f not in gen.FEATURE_STMTS and f not in gen.AVOID and f not in gen.OPTIONS:
            ap.error(f"feature '{f}' is not implemented yet")
    indices = a.only or list(range(a.start, a.start + a.count))
    if a.print:
        for i in indices:
            c = make_case(a.seed, i, features, a.points)
            print(f"// program {i} ({c.seed}); points: {c.points}")
            print(gen.Renderer(c.program, f"p{i}_").render())
        return 0
    if not os.path.exists(a.unfad):
        print(f"fuzz: unfad not found at {a.unfad}", file=sys.stderr)
        return 2

    snapshot = None
    if a.snapshot:
        # a private copy: a concurrent rebuild of unfad does not disturb a long run
        snapshot = tempfile.mkdtemp(prefix="unfad-fuzz-bin-", dir=a.tmpdir)
        dst = os.path.join(snapshot, "unfad")
        shutil.copy2(a.unfad, dst)
        a.unfad = dst
    global MUTATE_INOUT
    MUTATE_INOUT = a.mutate_inout
    gen.gen_lang.DROP_MARKS = a.mutate_nograd
    if a.selftest and not a.mutate_inout and not a.mutate_nograd:
        a.mutate = True
    try:
        if a.selftest:
            return selftest(a, features, indices)
        return fuzz_main(a, features, indices)
    finally:
        if snapshot:
            shutil.rmtree(snapshot, ignore_errors=True)


def selftest(a, features, indices):
    fz = Fuzzer(a)
    cases = [make_case(a.seed, i, features, a.points) for i in indices]
    res = {}
    for s in range(0, len(cases), a.batch):
        res.update(fz.evaluate(cases[s:s + a.batch]))
    kinds = {}
    for c in cases:
        kinds.setdefault(res[c.index].kind, []).append(c.index)
    print("selftest: " + ", ".join(f"{k}: {len(v)}" for k, v in sorted(kinds.items())))
    if a.mutate_inout:
        return selftest_inout(a, fz, cases, res)
    if a.mutate_nograd:
        return selftest_nograd(a, fz, cases, res)
    wrong = kinds.get("wrong-gradient", [])
    other = [k for k in kinds if k not in ("wrong-gradient", "ok", "no-valid-point")]
    if other or len(wrong) < len(cases) // 3:
        print("selftest: FAIL: the mutated gradients should show as wrong-gradient (and only that)")
        return 1
    c = next(c for c in cases if c.index == wrong[0])
    sc, sr, steps, tried, secs = fz.shrink(c, res[c.index], 120)
    h, text = standalone(sc, sr)
    print(f"selftest: program {c.index} shrunk from size {c.program.size()} to {sc.program.size()} "
          f"in {steps} steps ({tried} candidates, {secs:.1f}s):")
    print(gen.Renderer(sc.program, "").render())
    if sc.program.size() > 12 or sr.kind != "wrong-gradient":
        print("selftest: FAIL: the shrunk program should be tiny")
        return 1
    print("selftest: PASS")
    return 0


def selftest_inout(a, fz, cases, res):
    """--selftest --mutate-inout: the in/out convention broken in the driver
    must make every program with an in/out parameter (and a usable point)
    fail with wrong-gradient, and only those."""
    io = [c for c in cases if inout_params(c.program)]
    bad = [c.index for c in io if res[c.index].kind not in ("wrong-gradient", "no-valid-point")]
    bad += [c.index for c in cases if not inout_params(c.program) and res[c.index].kind not in ("ok", "no-valid-point")]
    caught = [c for c in io if res[c.index].kind == "wrong-gradient"]
    print(f"selftest: {len(io)} programs with an in/out parameter, {len(caught)} caught "
          f"(--mutate-inout {a.mutate_inout})")
    if bad or len(caught) < len(io) // 2 or not caught:
        print(f"selftest: FAIL: programs {bad[:20]} (every in/out program should be wrong-gradient, no other)")
        return 1
    c = caught[0]
    print(f"selftest: e.g. program {c.index}:\n" + tail(res[c.index].detail, 4))
    print("selftest: PASS")
    return 0


def uses_nograd(prog):
    return "fzp_freeze(" in gen.Renderer(prog, "", probe=True).render(marked=False)


def selftest_nograd(a, fz, cases, res):
    """--selftest --mutate-nograd: with the marks dropped from the
    differentiated copy, the programs that read marked values must fail with
    wrong-gradient (most of them: a marked value may not matter at the
    points), and the others pass."""
    ng = [c for c in cases if uses_nograd(c.program)]
    bad = [c.index for c in cases if res[c.index].kind not in ("ok", "no-valid-point", "wrong-gradient")]
    bad += [c.index for c in cases if not uses_nograd(c.program) and res[c.index].kind == "wrong-gradient"]
    caught = [c for c in ng if res[c.index].kind == "wrong-gradient"]
    print(f"selftest: {len(ng)} programs read marked values, {len(caught)} caught (--mutate-nograd)")
    # (a marked value often feeds only dead code: a quarter is plenty)
    if bad or not caught or len(caught) < len(ng) // 4:
        print(f"selftest: FAIL: programs {bad[:20]} (only programs with marks may fail, with wrong-gradient)")
        return 1
    c = caught[0]
    print(f"selftest: e.g. program {c.index}:\n" + tail(res[c.index].detail, 4))
    print("selftest: PASS")
    return 0


def fuzz_main(a, features, indices):
    fz = Fuzzer(a)
    t0 = time.time()
    batches = [indices[i:i + a.batch] for i in range(0, len(indices), a.batch)]
    failures = []  # (case, result)
    done = 0

    def work(b):
        if a.time_limit and time.time() - t0 > a.time_limit:
            return None
        cases = [make_case(a.seed, i, features, a.points) for i in b]
        res = fz.evaluate(cases)
        return cases, res

    with concurrent.futures.ThreadPoolExecutor(max(1, a.jobs)) as ex:
        for out in ex.map(work, batches):
            if out is None:
                continue
            cases, res = out
            done += len(cases)
            fz.bump("programs", len(cases))
            for c in cases:
                r = res[c.index]
                if r.kind == "no-valid-point":
                    fz.bump("no_valid_point")
                if r.failed():
                    failures.append((c, r))
                    print(f"FAIL program {c.index} ({c.seed}): {r.kind}\n" + tail(r.detail, 12), flush=True)
            if not a.quiet:
                el = time.time() - t0
                print(f"fuzz: {done}/{len(indices)} programs, {len(failures)} failures, {el:.0f}s", flush=True)

    kinds = {}
    for c, r in failures:
        kinds.setdefault(r.kind, []).append(c.index)
    elapsed = time.time() - t0
    st = fz.stats
    print(f"fuzz: seed {a.seed}: {st['programs']} programs in {elapsed:.1f}s "
          f"({st['unfad_runs']} unfad runs, {st['compiles']} compiles); "
          f"{st['points_checked'] - st['points_rejected']} of {st['points_checked']} points usable, "
          f"{st['no_valid_point']} programs without a usable point")
    if a.jvp_reference:
        print(f"fuzz: {st.get('jvp_references', 0)} programs also checked against f_jvp "
              f"({st.get('jvp_batches_refused', 0)} batches whose forward-mode copies unfad refused)")
    for k, v in sorted(kinds.items()):
        print(f"fuzz: {k}: {len(v)} programs: {v[:30]}{' ...' if len(v) > 30 else ''}")

    # shrink: up to --per-signature per (kind, signature), --max-shrink in all;
    # identical shrunk programs are saved once
    seen_sigs = {}
    saved = set()
    nshrunk = 0
    for c, r in failures:
        if a.no_shrink or nshrunk >= a.max_shrink:
            break
        if r.kind in ("generator-error", "unfad-batch") or seen_sigs.get(r.sig, 0) >= a.per_signature:
            continue
        seen_sigs[r.sig] = seen_sigs.get(r.sig, 0) + 1
        nshrunk += 1
        before = c.program.size()
        sc, sr, steps, tried, secs = fz.shrink(c, r, a.shrink_time)
        h, text = standalone(sc, sr)
        print(f"\n==== program {c.index} ({c.seed}): {r.kind}, shrunk from size {before} to "
              f"{sc.program.size()} in {steps} steps ({tried} candidates, {secs:.0f}s) -> fuzz_{h}.cpp")
        print(text)
        if h in saved:
            continue
        saved.add(h)
        for d in (a.out, a.save_cases):
            if d:
                os.makedirs(d, exist_ok=True)
                with open(os.path.join(d, f"fuzz_{h}.cpp"), "w") as f:
                    f.write(text)
    if not a.no_shrink and failures:
        print(f"fuzz: shrunk {nshrunk} failure(s), saved {len(saved)} distinct reproducer(s)")
    if any(r.kind == "generator-error" for _, r in failures):
        for c, r in failures:
            if r.kind == "generator-error":
                print(f"fuzz: generator error in program {c.index}:\n{tail(r.detail, 20)}")
        return 2
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
