#!/usr/bin/env python3
"""End-to-end tests of forward mode (UNFAD_JVP) (Python 3 standard library only).

Each case under test/e2e/jvp/ holds a function `f` marked UNFAD_JVP, a
wrapper `f_rev` with the same parameters marked UNFAD_GRADIENT that only
calls f (its gradient is reverse mode's, an independent second mode; left
out, with "gradient" out of the spec, only for a function reverse mode
refuses: then finite differences are the reference), and a spec in a
comment:

    /* jvp
    {"function": "f", "gradient": "f_rev",
     "params": [["x", "in", 3], ["n", "int"], ["k", "scalar"], ["out", "out", 2]],
     "points": [[[1, 2, 3], 3, 0.5], [[-1, 0.5, 2], 3, -2]]}
    */

params, in f's order: ["name", kind(, length)] with kind
  scalar   double, active: its tangent `double d_name`
  int      an integer, passive (its value from the point)
  passive  a double that UNFAD_JVP_WRT leaves out (no tangent)
  in       const double* (length): tangent `const double* d_name`
  vec      const std::vector<double>& (length): tangent the same type
  out      double* written by f (length; no value in the point): tangent
           `double* d_name`, which f_jvp fills as f fills `name`
  vecout   std::vector<double>& that f sizes (out.resize(n)) and fills
           (length: the size f gives it; no value in the point): passed
           empty, its tangent `std::vector<double>& d_name` too, which f_jvp
           must size as f sizes `name`
  rowsout  std::vector<std::vector<double>>& written by f (length [rows,
           columns]; no value in the point; a Jacobian): tangent the same type
  inout    double* read then written in place (length; its initial value
           from the point): tangent `double* d_name`, on entry the tangent
           of the initial value, on return that of the final value
A non-void f's tangent comes back through a last `double* d_return`.
"throws": [{"at": [args], "what": "message"}] lists points where f throws:
f_jvp must throw the same exception (std::exception, the same what()).

For each case, in a temporary directory, the harness runs `unfad -i` twice
(the second run changes nothing; the file holds `// unfad:begin f_jvp`;
`--check` is that comparison, pinned once in test/lit/golden/rewrite.test),
then compiles the file with a generated main (g++ -O1 and clang++-19 -O0,
-std=c++17 -Wall -Wextra -Werror) and checks at every point, for a fixed random
tangent direction v of the active inputs:
  - f_jvp returns f's value and performs f's writes (outputs, in/out);
  - d_return, d_out and the final d_y equal the 4-point central finite
    difference along v of f's value, outputs and final in/out values
    (relative tolerance 1e-6);
  - for fixed random weights w of the outputs and in/out finals (1 for the
    return value), dot(f_rev_grad's gradient, v) equals w . jvp(v) (1e-9).
`--mutate` gives f_jvp a direction 1% off the one the references use: every
case must then fail (the self-test of the checks).
"""
import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

ACTIVE = ("scalar", "in", "vec", "out", "inout", "vecout", "rowsout")
OUTPUTS = ("out", "inout", "vecout", "rowsout")


def rows_decl(name, shape):
    """An output array of rows, zeros of shape [rows, columns]."""
    return f"std::vector<std::vector<double>> {name}({shape[0]}, std::vector<double>({shape[1]}, 0.0));"


def flat(name, kind):
    """C++ for output `name` as a flat std::vector<double> (row after row)."""
    return f"unfad_jvp_flat({name})" if kind == "rowsout" else name


def spec_of(text):
    m = re.search(r"/\*\s*jvp\s*(.*?)\*/", text, re.S)
    if not m:
        raise SystemExit("no /* jvp ... */ spec")
    return json.loads(m.group(1))


def lit(v):
    return repr(float(v))


def driver(spec, returns_void, mutate=False):
    f, g = spec["function"], spec.get("gradient")  # (no gradient: reverse mode refuses f, FD only)
    params = spec["params"]
    rng = random.Random(20261125)
    lines = ["#include <cstdio>", "#include <cmath>", "#include <exception>", "#include <string>", "#include <vector>", "", "static int unfad_jvp_failures = 0;",
             "inline std::vector<double> unfad_jvp_flat(const std::vector<double>& v) { return v; }",
             "inline std::vector<double> unfad_jvp_flat(const std::vector<std::vector<double>>& m) {",
             "  std::vector<double> r;",
             "  for (const auto& row : m) r.insert(r.end(), row.begin(), row.end());",
             "  return r;",
             "}",
             "static void unfad_jvp_expect(const char* what, double got, double want, double rtol, double scale) {",
             "  const double err = std::fabs(got - want);",
             "  if (!(err <= rtol * std::fmax(scale, std::fabs(want)))) {",
             "    std::printf(\"MISMATCH %s: got %.17g, expected %.17g\\n\", what, got, want);",
             "    ++unfad_jvp_failures;",
             "  }",
             "}", "", "int main() {"]
    for pi, point in enumerate(spec["points"]):
        L = []
        vals = list(point)
        k = 0
        decl_inputs = []  # (name, kind, value or list)
        shapes = {}  # rowsout: [rows, columns]
        for p in params:
            name, kind = p[0], p[1]
            if kind in ("out", "vecout"):
                decl_inputs.append((name, kind, [0.0] * p[2]))
                continue
            if kind == "rowsout":
                decl_inputs.append((name, kind, [0.0] * (p[2][0] * p[2][1])))
                shapes[name] = p[2]
                continue
            decl_inputs.append((name, kind, vals[k]))
            k += 1
        # the direction v and the weights w
        direction = {}
        weights = {}
        for name, kind, v in decl_inputs:
            if kind == "scalar":
                direction[name] = rng.uniform(-1, 1)
            elif kind in ("in", "vec", "inout"):
                direction[name] = [rng.uniform(-1, 1) for _ in v]
        for name, kind, v in decl_inputs:
            if kind in OUTPUTS:
                weights[name] = [rng.uniform(-1, 1) for _ in v]

        def arrays(suffix, t_expr):
            """Declarations of the primal inputs at x + t v (t_expr: C++ text or None)."""
            out = []
            for name, kind, v in decl_inputs:
                if kind in ("scalar",):
                    e = lit(v) + (f" + {t_expr} * {lit(direction[name])}" if t_expr else "")
                    out.append(f"double {name}{suffix} = {e};")
                elif kind == "passive":
                    out.append(f"double {name}{suffix} = {lit(v)};")
                elif kind == "int":
                    out.append(f"int {name}{suffix} = {int(v)};")
                elif kind in ("in", "vec", "inout"):
                    es = [lit(x) + (f" + {t_expr} * {lit(d)}" if t_expr else "") for x, d in zip(v, direction[name])]
                    out.append(f"std::vector<double> {name}{suffix}{{{', '.join(es)}}};")
                elif kind == "out":
                    out.append(f"std::vector<double> {name}{suffix}({len(v)}, 0.0);")
                elif kind == "vecout":
                    out.append(f"std::vector<double> {name}{suffix};")
                elif kind == "rowsout":
                    out.append(rows_decl(name + suffix, shapes[name]))
            return out

        def arg(name, kind, suffix):
            if kind in ("in", "out", "inout"):
                return f"{name}{suffix}.data()"
            return f"{name}{suffix}"

        primal_args = lambda s: ", ".join(arg(n, kd, s) for n, kd, _ in decl_inputs)
        L.append(f"  {{ // point {pi}")
        L += ["    " + d for d in arrays("", None)]
        # tangents
        tangent_args = []
        # (--mutate: f_jvp gets a direction 1% off the one the references use)
        scale = 1.01 if mutate else 1.0
        for name, kind, v in decl_inputs:
            if kind == "scalar":
                L.append(f"    double d_{name} = {lit(scale * direction[name])};")
            elif kind in ("in", "vec", "inout"):
                L.append(f"    std::vector<double> d_{name}{{{', '.join(lit(scale * d) for d in direction[name])}}};")
            elif kind == "out":
                L.append(f"    std::vector<double> d_{name}({len(v)}, 0.0);")
            elif kind == "vecout":
                L.append(f"    std::vector<double> d_{name};")
            elif kind == "rowsout":
                L.append("    " + rows_decl(f"d_{name}", shapes[name]))
            if kind in ACTIVE:
                tangent_args.append(f"d_{name}.data()" if kind in ("in", "out", "inout") else f"d_{name}")
        if not returns_void:
            L.append("    double d_return = 0.0;")
            tangent_args.append("&d_return")
        call = f"{f}_jvp({primal_args('')}, {', '.join(tangent_args)})"
        L.append(f"    const double value = {call};" if not returns_void else f"    {call};")
        L.append("    (void)value;" if not returns_void else "")
        # the primal itself
        L += ["    " + d for d in arrays("_p", None)]
        L.append(f"    const double value_p = {f}({primal_args('_p')});" if not returns_void else f"    {f}({primal_args('_p')});")
        if not returns_void:
            L.append(f'    unfad_jvp_expect("point {pi}: value", value, value_p, 1e-12, 1e-300);')
        for name, kind, v in decl_inputs:
            if kind == "vecout":
                L.append(f'    unfad_jvp_expect("point {pi}: {name}.size() as f leaves it", {name}.size(), {len(v)}, 0, 0);')
                L.append(f'    unfad_jvp_expect("point {pi}: d_{name}.size() as f sizes {name}", d_{name}.size(), {len(v)}, 0, 0);')
            if kind in OUTPUTS:
                L.append(f"    {{ const auto got = {flat(name, kind)}, want = {flat(name + '_p', kind)};")
                L.append(f"      for (size_t i = 0; i < got.size(); ++i) unfad_jvp_expect(\"point {pi}: {name} as f leaves it\", got[i], want[i], 1e-12, 1e-300); }}")
        # finite differences along v: the value, outputs and in/out finals as a list
        L.append("    auto phi = [&](double t) {")
        L += ["      " + d for d in arrays("_t", "t")]
        L.append("      std::vector<double> r;")
        if not returns_void:
            L.append(f"      r.push_back({f}({primal_args('_t')}));")
        else:
            L.append(f"      {f}({primal_args('_t')});")
        for name, kind, v in decl_inputs:
            if kind in OUTPUTS:
                L.append(f"      {{ const auto o = {flat(name + '_t', kind)}; r.insert(r.end(), o.begin(), o.end()); }}")
        L.append("      return r;")
        L.append("    };")
        L.append("    const double h = 1.0 / 512;")
        L.append("    const std::vector<double> m2 = phi(-2 * h), m1 = phi(-h), p1 = phi(h), p2 = phi(2 * h);")
        L.append("    std::vector<double> jvp;")
        if not returns_void:
            L.append("    jvp.push_back(d_return);")
        for name, kind, v in decl_inputs:
            if kind in OUTPUTS:
                L.append(f"    {{ const auto o = {flat('d_' + name, kind)}; jvp.insert(jvp.end(), o.begin(), o.end()); }}")
        L.append("    for (size_t i = 0; i < jvp.size(); ++i) {")
        L.append("      const double fd = (m2[i] - 8 * m1[i] + 8 * p1[i] - p2[i]) / (12 * h);")
        L.append("      double scale = 0; for (size_t j = 0; j < m1.size(); ++j) scale = std::fmax(scale, std::fabs(p1[j]));")
        L.append(f'      unfad_jvp_expect("point {pi}: tangent vs finite differences", jvp[i], fd, 1e-6, 1e-2 * std::fmax(1.0, scale));')
        L.append("    }")
        # reverse mode: dot(J^T w, v) == w . J v
        if not g:
            L.append("  }")
            lines += [l for l in L if l != ""]
            continue
        L += ["    " + d for d in arrays("_g", None)]
        adj_args, dot_terms = [], []
        for name, kind, v in decl_inputs:
            if kind == "scalar":
                L.append(f"    double g_{name} = 0.0;")
                adj_args.append(f"&g_{name}")
                dot_terms.append(f"g_{name} * {lit(direction[name])}")
            elif kind in ("in", "vec"):
                L.append(f"    std::vector<double> g_{name}({len(v)}, 0.0);")
                adj_args.append(f"g_{name}.data()" if kind == "in" else f"g_{name}")
                for i, d in enumerate(direction[name]):
                    dot_terms.append(f"g_{name}[{i}] * {lit(d)}")
            elif kind == "rowsout":
                c = shapes[name][1]
                rows = [weights[name][r * c:(r + 1) * c] for r in range(shapes[name][0])]
                L.append(f"    std::vector<std::vector<double>> g_{name}{{{', '.join('{' + ', '.join(lit(w) for w in row) + '}' for row in rows)}}};")
                adj_args.append(f"g_{name}")
            elif kind in OUTPUTS:
                L.append(f"    std::vector<double> g_{name}{{{', '.join(lit(w) for w in weights[name])}}};")
                adj_args.append(f"g_{name}" if kind == "vecout" else f"g_{name}.data()")
                if kind == "inout":
                    for i, d in enumerate(direction[name]):
                        dot_terms.append(f"g_{name}[{i}] * {lit(d)}")
        L.append(f"    {g}_grad({primal_args('_g')}, {', '.join(adj_args)});")
        w_terms = [] if returns_void else ["d_return"]
        for name, kind, v in decl_inputs:
            if kind in OUTPUTS:
                for i, w in enumerate(weights[name]):
                    at = f"[{i // shapes[name][1]}][{i % shapes[name][1]}]" if kind == "rowsout" else f"[{i}]"
                    w_terms.append(f"{lit(w)} * d_{name}{at}")
        L.append(f"    const double lhs = {' + '.join(dot_terms) or '0.0'};")
        L.append(f"    const double rhs = {' + '.join(w_terms) or '0.0'};")
        abs_terms = " + ".join(f"std::fabs({t})" for t in dot_terms) or "0.0"
        L.append(f'    unfad_jvp_expect("point {pi}: dot(grad, v) vs w . jvp(v)", rhs, lhs, 1e-9, {abs_terms} + 1e-300);')
        L.append("  }")
        lines += [l for l in L if l != ""]
    for ti, t in enumerate(spec.get("throws", [])):
        lines += throw_check(f, params, returns_void, ti, t)
    lines += ["  if (unfad_jvp_failures) { std::printf(\"%d mismatches\\n\", unfad_jvp_failures); return 1; }",
              "  std::printf(\"ok\\n\");", "  return 0;", "}"]
    return "\n".join(lines) + "\n"


def throw_check(f, params, returns_void, ti, t):
    """f and f_jvp at t["at"] both throw, with what() == t["what"]."""
    vals, k, args, tangents, L = list(t["at"]), 0, [], [], [f"  {{ // throws {ti}"]
    for p in params:
        name, kind = p[0], p[1]
        if kind in ("out", "vecout"):
            size = p[2] if kind == "out" else 0
            L.append(f"    std::vector<double> {name}({size}, 0.0), d_{name}({size}, 0.0);")
        elif kind in ("in", "vec", "inout"):
            L.append(f"    std::vector<double> {name}{{{', '.join(lit(x) for x in vals[k])}}}, d_{name}({len(vals[k])}, 1.0);")
            k += 1
        else:
            ty = "int" if kind == "int" else "double"
            L.append(f"    {ty} {name} = {int(vals[k]) if kind == 'int' else lit(vals[k])};")
            if kind == "scalar":
                L.append(f"    double d_{name} = 1.0;")
            k += 1
        args.append(f"{name}.data()" if kind in ("in", "out", "inout") else name)
        if kind in ACTIVE:
            tangents.append(f"d_{name}.data()" if kind in ("in", "out", "inout") else f"d_{name}")
    if not returns_void:
        L.append("    double d_return = 0.0;")
        tangents.append("&d_return")
    want = json.dumps(t["what"])
    for label, call in (("f", f"{f}({', '.join(args)})"), ("f_jvp", f"{f}_jvp({', '.join(args + tangents)})")):
        L += [f"    try {{ (void){call}; std::printf(\"MISMATCH throws {ti}: {label} did not throw\\n\"); ++unfad_jvp_failures; }}",
              f"    catch (const std::exception& e) {{ if (std::string(e.what()) != {want}) {{ std::printf(\"MISMATCH throws {ti}: {label} threw %s\\n\", e.what()); ++unfad_jvp_failures; }} }}"]
    L.append("  }")
    return L


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--unfad", default="build/bin/unfad")
    ap.add_argument("--include", default="include")
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--compilers", default="g++,clang++-19")
    ap.add_argument("--mutate", action="store_true",
                    help="self-test: give f_jvp a direction 1%% off the references' (every case must FAIL)")
    ap.add_argument("cases", nargs="+")
    a = ap.parse_args()
    unfad = os.path.abspath(a.unfad)
    inc = os.path.abspath(a.include)
    failed = 0
    for case in a.cases:
        text = open(case).read()
        spec = spec_of(text)
        f = spec["function"]
        tmp = tempfile.mkdtemp(prefix="unfad-jvp-")
        path = os.path.join(tmp, os.path.basename(case))
        shutil.copy(case, path)
        flags = ["--", "-std=c++17", "-I" + inc]
        problems = []
        # no per-case `unfad --check`: it compares what -i writes with the
        # file, which the second -i below does (its exit codes are pinned in
        # test/lit/golden/rewrite.test); each run re-parses the std headers
        r = run([unfad, "-i", path] + flags)
        if r.returncode != 0:
            problems.append("unfad -i failed:\n" + r.stderr)
        else:
            once = open(path).read()
            if f"// unfad:begin {f}_jvp" not in once:
                problems.append(f"no '// unfad:begin {f}_jvp' block")
            r = run([unfad, "-i", path] + flags)
            if r.returncode != 0 or open(path).read() != once:
                problems.append("a second unfad -i changed the file or failed:\n" + r.stderr)
            returns_void = re.search(r"UNFAD_JVP(?:_WRT\([^)]*\))?\s+(?:static\s+|inline\s+)*void\s+" + re.escape(f) + r"\s*\(", once) is not None
            with open(path, "a") as out:
                out.write("\n" + driver(spec, returns_void, a.mutate))
            for cxx in a.compilers.split(","):
                exe = os.path.join(tmp, "case_" + re.sub(r"\W", "_", cxx))
                # g++ optimised (its flow warnings need it), clang++ not
                opt = "-O0" if "clang" in os.path.basename(cxx) else "-O1"
                r = run([cxx, "-std=c++17", opt, "-Wall", "-Wextra", "-Werror", "-I" + inc, path, "-o", exe])
                if r.returncode != 0:
                    problems.append(f"{cxx} failed:\n{r.stderr[:4000]}")
                    continue
                r = run([exe])
                if r.returncode != 0:
                    problems.append(f"{cxx} build: {r.stdout[:4000]}")
        name = os.path.basename(case)
        if problems:
            failed += 1
            print(f"FAIL {name}")
            for p in problems:
                print("  " + p.replace("\n", "\n  "))
            print(f"  (files in {tmp})")
        else:
            print(f"PASS {name}")
            if not a.keep:
                shutil.rmtree(tmp)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
