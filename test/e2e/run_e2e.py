#!/usr/bin/env python3
"""End-to-end gradient tests for unfad (Python 3 standard library only).

Each case is a C++ file under test/e2e/cases/ with one or more functions
marked UNFAD_GRADIENT / UNFAD_GRADIENT_WRT(...) and a spec in a comment:

    /* e2e
    [{"function": "f", "points": [[1, 2, 3], [0.5, -1.25, 2]],
      "grad_formula": ["2*x1*x2", "x1*x1", "0"],
      "expect": [{"at": [1, 2, 3], "value": 2, "grad": [4, 1, 0]}]}]
    */

The spec is a JSON object or a list of them, one per tested function:
  function      the marked function's name (its signature is read from the source)
  call          how the driver calls it, if qualified (e.g. "geom::rot"; default: function)
  points        argument lists (every parameter, passive ones included)
  expect        hand-derived results: {"at": args, "value": v, "grad": [...], "tol": 1e-4}
                ("grad" lists the partials of the active parameters, in order)
  value_formula / grad_formula
                Python expressions in the parameter names (math.* in scope),
                checked at every point
  fd            false: no finite-difference check (points at kinks, checked
                against "expect" only)
  rtol, atol    finite-difference tolerances (defaults 1e-6 and 1e-7*max(1,|f|);
                float functions 1e-4 and 1e-5*max(1,|f|))
Top-level keys (in the first object) also allowed:
  compilers     subset of ["g++", "clang++"] (default both)
  flags         extra compiler flags

For each case the harness, in a temporary directory:
  1. runs `unfad --check` on the unprocessed copy (must exit 1: gradient missing),
  2. runs `unfad` (stdout mode): must exit 0 and leave the file unchanged,
  3. runs `unfad -i` (exit 0; the file must now equal step 2's output and hold
     an `// unfad:begin <f>_grad` ... `// unfad:end <f>_grad` block per function),
  4. runs `unfad -i` again: the file must be byte-identical (idempotence),
  5. runs `unfad --check` (exit 0),
  6. compiles the file plus a generated driver with g++ and clang++-19
     (-std=c++17 -Wall -Wextra -Werror), runs it, and compares f_grad's value
     with f's, every partial derivative with 4-point central finite differences
     (f(x-2h) - 8f(x-h) + 8f(x+h) - f(x+2h))/(12h), h ~ 1e-3*max(1,|x|) rounded
     to a power of two, and with the spec's hand-derived values.

Usage:
  run_e2e.py [--unfad PATH] [--include DIR] [--keep] CASE.cpp...
  run_e2e.py --size-ratio SMALL.cpp LARGE.cpp MAX_RATIO   (linear growth check)
"""

import argparse
import json
import math
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))

STD_FLAGS = ["-std=c++17", "-Wall", "-Wextra", "-Werror"]
TIMEOUT = 300  # compilers and the driver
TOOL_TIMEOUT = 120  # one unfad run (--tool-timeout)


class Failure(Exception):
    pass


# --------------------------------------------------------------------------
# Reading cases


def read_spec(src, path):
    m = re.search(r"/\*\s*e2e\b(.*?)\*/", src, re.S)
    if not m:
        raise Failure(f"{path}: no /* e2e ... */ spec comment")
    try:
        spec = json.loads(m.group(1))
    except json.JSONDecodeError as e:
        raise Failure(f"{path}: bad e2e spec JSON: {e}")
    if isinstance(spec, dict):
        spec = [spec]
    return spec


MARK_RE = re.compile(
    r"\bUNFAD_GRADIENT(?:_WRT\s*\(([^)]*)\))?\s+"  # mark, optional WRT list
    r"((?:(?:static|inline|constexpr)\s+)*)"  # specifiers
    r"([A-Za-z_][\w:]*)\s+"  # return type
    r"([A-Za-z_]\w*)\s*\(([^)]*)\)\s*\{",  # name(params) {
)


class Param:
    def __init__(self, text):
        text = " ".join(text.split())
        m = re.match(r"(.*?)([A-Za-z_]\w*)$", text)
        if not m:
            raise Failure(f"cannot parse parameter '{text}'")
        self.type = m.group(1).strip()
        self.name = m.group(2)
        base = self.type.replace("const", "").strip()
        if "*" in base or "&" in base:
            raise Failure(f"parameter '{text}': the harness handles scalar parameters only")
        self.base = base
        self.floating = base in ("double", "float")
        self.active = False


class Function:
    def __init__(self, name, ret, params, wrt):
        self.name = name
        self.ret = ret
        self.params = params
        for p in params:
            p.active = p.floating and (wrt is None or p.name in wrt)
        self.active = [p for p in params if p.active]
        self.is_float = ret == "float"


def parse_functions(src):
    funcs = {}
    # Drop comments so commented-out examples are not picked up.
    code = re.sub(r"/\*.*?\*/", lambda m: " " * len(m.group(0)), src, flags=re.S)
    code = re.sub(r"//[^\n]*", "", code)
    for m in MARK_RE.finditer(code):
        wrt_text, _, ret, name, params_text = m.groups()
        wrt = None
        if wrt_text is not None:
            wrt = {w.strip() for w in wrt_text.split(",") if w.strip()}
        params = []
        if params_text.strip() and params_text.strip() != "void":
            params = [Param(t) for t in params_text.split(",")]
        funcs[name] = Function(name, ret.strip(), params, wrt)
    return funcs


# --------------------------------------------------------------------------
# Numbers


def to_f32(x):
    return struct.unpack("f", struct.pack("f", x))[0]


def step_for(x, is_float):
    factor = 2.0**-5 if is_float else 1e-3
    return 2.0 ** round(math.log2(factor * max(1.0, abs(x))))


def cxx_literal(param, v):
    if param.base == "bool":
        if isinstance(v, bool):
            return "true" if v else "false"
        return "true" if v else "false"
    if not param.floating:
        if float(v) != int(v):
            raise Failure(f"parameter {param.name} ({param.type}) needs an integer, got {v}")
        return str(int(v))
    v = float(v)
    if param.base == "float":
        return f"static_cast<float>({v.hex()})"
    return f"({v.hex()})"


def normalize_point(func, point):
    if len(point) != len(func.params):
        raise Failure(
            f"{func.name}: point {point} has {len(point)} values, the function has "
            f"{len(func.params)} parameters"
        )
    out = []
    for p, v in zip(func.params, point):
        if p.floating:
            v = float(v)
            if p.base == "float":
                v = to_f32(v)
        elif p.base == "bool":
            v = bool(v)
        else:
            v = int(v)
        out.append(v)
    return out


# --------------------------------------------------------------------------
# Running things


def run(cmd, cwd, what, stdin=subprocess.DEVNULL, timeout=None):
    timeout = timeout or TIMEOUT
    try:
        r = subprocess.run(
            cmd, cwd=cwd, stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        raise Failure(f"{what}: timed out after {timeout}s: {' '.join(cmd)}")
    except FileNotFoundError:
        raise Failure(f"{what}: command not found: {cmd[0]}")
    return r


def describe(r):
    out = r.stdout.decode(errors="replace")
    err = r.stderr.decode(errors="replace")
    s = f"exit code {r.returncode}\n"
    if out.strip():
        s += "--- stdout ---\n" + tail(out) + "\n"
    if err.strip():
        s += "--- stderr ---\n" + tail(err) + "\n"
    return s


def tail(text, n=80):
    lines = text.splitlines()
    if len(lines) > n:
        return "\n".join([f"... ({len(lines) - n} lines omitted)"] + lines[-n:])
    return text


def blocks(text):
    """Generated blocks: {name: [lines]} from // unfad:begin NAME ... // unfad:end NAME."""
    out = {}
    cur = None
    for line in text.splitlines():
        s = line.strip()
        m = re.match(r"//\s*unfad:begin\s+(\S+)", s)
        if m:
            cur = m.group(1)
            out[cur] = []
            continue
        m = re.match(r"//\s*unfad:end\s+(\S+)", s)
        if m:
            cur = None
            continue
        if cur is not None:
            out[cur].append(line)
    return out


class Runner:
    def __init__(self, args):
        self.unfad = os.path.abspath(args.unfad)
        self.include = os.path.abspath(args.include)
        self.compilers = {"g++": args.cxx, "clang++": args.clangxx}
        self.keep = args.keep
        self.verbose = args.verbose

    def unfad_flags(self):
        return ["--", "-std=c++17", "-I" + self.include]

    def process(self, case_path, work):
        """Steps 1-5. Returns the processed text."""
        name = os.path.basename(case_path)
        original = open(case_path, "rb").read()
        dst = os.path.join(work, name)
        with open(dst, "wb") as f:
            f.write(original)
        if not os.path.exists(self.unfad):
            raise Failure(f"unfad not found at {self.unfad} (build it first)")

        r = run([self.unfad, "--check", name] + self.unfad_flags(), work, "unfad --check", timeout=TOOL_TIMEOUT)
        if r.returncode != 1:
            raise Failure(
                "`unfad --check` on a file without generated code must exit 1\n" + describe(r)
            )

        r = run([self.unfad, name] + self.unfad_flags(), work, "unfad", timeout=TOOL_TIMEOUT)
        if r.returncode != 0:
            raise Failure("`unfad " + name + "` (stdout mode) failed\n" + describe(r))
        printed = r.stdout
        if open(dst, "rb").read() != original:
            raise Failure("`unfad` without -i changed the file")

        r = run([self.unfad, "-i", name] + self.unfad_flags(), work, "unfad -i", timeout=TOOL_TIMEOUT)
        if r.returncode != 0:
            raise Failure("`unfad -i " + name + "` failed\n" + describe(r))
        first = open(dst, "rb").read()
        if first != printed:
            raise Failure(
                "`unfad -i` wrote something other than what `unfad` printed\n"
                + diff_text(printed, first)
            )

        r = run([self.unfad, "-i", name] + self.unfad_flags(), work, "unfad -i (2nd)", timeout=TOOL_TIMEOUT)
        if r.returncode != 0:
            raise Failure("second `unfad -i " + name + "` failed\n" + describe(r))
        second = open(dst, "rb").read()
        if second != first:
            raise Failure("second `unfad -i` changed the file\n" + diff_text(first, second))

        r = run([self.unfad, "--check", name] + self.unfad_flags(), work, "unfad --check", timeout=TOOL_TIMEOUT)
        if r.returncode != 0:
            raise Failure("`unfad --check` after `unfad -i` must exit 0\n" + describe(r))
        return first.decode()

    def check_blocks(self, text, funcs):
        bl = blocks(text)
        for f in funcs:
            key = f.name + "_grad"
            if key not in bl:
                raise Failure(
                    f"no `// unfad:begin {key}` ... `// unfad:end {key}` block; blocks: "
                    f"{sorted(bl)}"
                )
            body = "\n".join(bl[key])
            for bad in ("[&]", "[=]", "std::function"):
                if bad in body:
                    raise Failure(f"generated {key} contains '{bad}' (a lambda was left)")
        return bl

    def compile_and_run(self, work, case_name, driver, compiler, extra_flags):
        drv = os.path.join(work, "driver_main.cpp")
        with open(drv, "w") as f:
            f.write(driver)
        exe = os.path.join(work, "driver_" + compiler.replace("+", "x"))
        cxx = self.compilers[compiler]
        cmd = [cxx] + STD_FLAGS + ["-O1", "-I" + self.include, "-I" + work] + extra_flags
        cmd += ["driver_main.cpp", "-o", exe]
        r = run(cmd, work, compiler)
        if r.returncode != 0:
            raise Failure(f"{compiler} failed to compile the generated code\n" + describe(r))
        r = run([exe], work, "driver")
        if r.returncode != 0:
            raise Failure(f"driver built with {compiler} failed\n" + describe(r))
        try:
            return json.loads(r.stdout.decode())
        except json.JSONDecodeError as e:
            raise Failure(f"driver output is not JSON ({e}):\n{tail(r.stdout.decode())}")

    def run_case(self, case_path):
        src = open(case_path).read()
        specs = read_spec(src, case_path)
        funcs = parse_functions(src)
        top = specs[0]
        compilers = top.get("compilers", ["g++", "clang++"])
        extra_flags = top.get("flags", [])
        tested = []
        for spec in specs:
            fname = spec.get("function")
            if fname is None:
                if len(funcs) != 1:
                    raise Failure("spec without 'function' but the file marks " f"{sorted(funcs)}")
                fname = next(iter(funcs))
            if fname not in funcs:
                raise Failure(f"spec names '{fname}' but the marked functions are {sorted(funcs)}")
            tested.append((funcs[fname], spec))

        work = tempfile.mkdtemp(prefix="unfad-e2e-")
        try:
            text = self.process(case_path, work)
            self.check_blocks(text, [f for f, _ in tested])
            plan = Plan(tested)
            driver = plan.driver(os.path.basename(case_path))
            problems = []
            for c in compilers:
                out = self.compile_and_run(work, case_path, driver, c, extra_flags)
                problems += [f"[{c}] {p}" for p in plan.check(out)]
            if problems:
                raise Failure(
                    f"{len(problems)} mismatches:\n  "
                    + "\n  ".join(problems[:60])
                    + ("\n  ..." if len(problems) > 60 else "")
                    + "\n--- generated code ---\n"
                    + generated_excerpt(text)
                )
            return plan.summary()
        finally:
            if self.keep:
                print(f"  (kept {work})")
            else:
                shutil.rmtree(work, ignore_errors=True)


def generated_excerpt(text):
    out = []
    for name, lines in blocks(text).items():
        out.append(f"// unfad:begin {name}")
        out += lines[:200]
        if len(lines) > 200:
            out.append(f"... ({len(lines) - 200} more lines)")
        out.append(f"// unfad:end {name}")
    return "\n".join(out)


def diff_text(a, b):
    import difflib

    d = difflib.unified_diff(
        a.decode(errors="replace").splitlines(), b.decode(errors="replace").splitlines(),
        "before", "after", lineterm="",
    )
    return tail("\n".join(d), 60)


# --------------------------------------------------------------------------
# The driver and the checks


class Plan:
    """All evaluations for one case: f at base and stencil points, f_grad at base points."""

    def __init__(self, tested):
        self.tested = []  # (func, spec, points, expects)
        self.evals = []  # (func, args)
        self.grads = []  # (func, args)
        for func, spec in tested:
            if not func.active:
                raise Failure(f"{func.name} has no active parameter")
            if func.ret not in ("double", "float"):
                raise Failure(f"{func.name} returns {func.ret}; the harness handles double/float")
            points = [normalize_point(func, p) for p in spec.get("points", [])]
            expects = spec.get("expect", [])
            for e in expects:
                pt = normalize_point(func, e["at"])
                if pt not in points:
                    points.append(pt)
            if not points:
                raise Failure(f"{func.name}: spec has no points")
            entries = []
            for pt in points:
                gi = len(self.grads)
                self.grads.append((func, pt))
                base = len(self.evals)
                self.evals.append((func, pt))
                stencils = []
                for i, p in enumerate(func.params):
                    if not p.active:
                        continue
                    h = step_for(pt[i], p.base == "float")
                    idx = []
                    for s in (-2, -1, 1, 2):
                        q = list(pt)
                        q[i] = pt[i] + s * h
                        if p.base == "float":
                            q[i] = to_f32(q[i])
                        idx.append(len(self.evals))
                        self.evals.append((func, q))
                    stencils.append((p, h, idx))
                entries.append((pt, gi, base, stencils))
            self.tested.append((func, spec, entries, expects))

    def driver(self, case_file):
        L = []
        L.append("// Generated by test/e2e/run_e2e.py")
        L.append(f'#include "{case_file}"')
        L.append("#include <cmath>")
        L.append("#include <cstdio>")
        L.append("static void unfad_e2e_put(double v, bool comma) {")
        L.append("  if (std::isfinite(v)) std::printf(\"%.17g\", v); else std::printf(\"null\");")
        L.append("  if (comma) std::printf(\",\");")
        L.append("}")
        L.append("int main() {")
        L.append('  std::printf("{\\"f\\": [\\n");')
        calls = {}
        for func, spec, _, _ in self.tested:
            calls[func.name] = spec.get("call", func.name)
        for k, (func, args) in enumerate(self.evals):
            a = ", ".join(cxx_literal(p, v) for p, v in zip(func.params, args))
            L.append(
                f"  unfad_e2e_put(static_cast<double>({calls[func.name]}({a})), "
                f"{'true' if k + 1 < len(self.evals) else 'false'});"
            )
        L.append('  std::printf("],\\n\\"g\\": [\\n");')
        for k, (func, args) in enumerate(self.grads):
            a = ", ".join(cxx_literal(p, v) for p, v in zip(func.params, args))
            L.append("  {")
            adj = []
            for p in func.active:
                L.append(f"    {p.base} d_{p.name} = 0;")
                adj.append(f"&d_{p.name}")
            call = calls[func.name] + "_grad"
            L.append(f"    const double r = static_cast<double>({call}({', '.join([a] + adj if a else adj)}));")
            L.append('    std::printf("[");')
            L.append("    unfad_e2e_put(r, true);")
            for j, p in enumerate(func.active):
                last = j + 1 == len(func.active)
                L.append(
                    f"    unfad_e2e_put(static_cast<double>(d_{p.name}), {'false' if last else 'true'});"
                )
            L.append(f'    std::printf("]{"," if k + 1 < len(self.grads) else ""}\\n");')
            L.append("  }")
        L.append('  std::printf("]}\\n");')
        L.append("  return 0;")
        L.append("}")
        return "\n".join(L) + "\n"

    def check(self, out):
        fvals = out["f"]
        gvals = out["g"]
        if len(fvals) != len(self.evals) or len(gvals) != len(self.grads):
            return ["driver printed the wrong number of results"]
        problems = []
        for func, spec, entries, expects in self.tested:
            fl = func.is_float or any(p.base == "float" for p in func.active)
            rtol = spec.get("rtol", 1e-4 if fl else 1e-6)
            afac = spec.get("atol", 1e-5 if fl else 1e-7)
            for pt, gi, base, stencils in entries:
                where = f"{func.name}({', '.join(fmt(v) for v in pt)})"
                f0 = fvals[base]
                row = gvals[gi]
                if f0 is None or any(v is None for v in row):
                    problems.append(f"{where}: non-finite result: f={f0}, f_grad={row}")
                    continue
                val, grad = row[0], row[1:]
                if len(grad) != len(func.active):
                    problems.append(f"{where}: wrong number of partials")
                    continue
                vt = (1e-5 if fl else 1e-10) * max(1.0, abs(f0))
                if abs(val - f0) > vt:
                    problems.append(f"{where}: f_grad returned {fmt(val)} but f returned {fmt(f0)}")
                atol = afac * max(1.0, abs(f0))
                for j, (p, h, idx) in enumerate(stencils if spec.get("fd", True) else []):
                    fs = [fvals[i] for i in idx]
                    if any(v is None for v in fs):
                        problems.append(f"{where}: non-finite f near the point (d/d{p.name})")
                        continue
                    fd = (fs[0] - 8 * fs[1] + 8 * fs[2] - fs[3]) / (12 * h)
                    g = grad[j]
                    if abs(g - fd) > rtol * max(abs(g), abs(fd)) + atol:
                        problems.append(
                            f"{where}: d/d{p.name} = {fmt(g)} but finite differences give {fmt(fd)}"
                        )
                env = formula_env(func, pt)
                if "value_formula" in spec:
                    v = eval(spec["value_formula"], env)
                    if abs(v - f0) > 1e-9 * max(1.0, abs(v)):
                        problems.append(f"{where}: f = {fmt(f0)}, hand formula gives {fmt(v)}")
                if "grad_formula" in spec:
                    forms = spec["grad_formula"]
                    if len(forms) != len(func.active):
                        problems.append(f"{func.name}: grad_formula needs {len(func.active)} entries")
                    else:
                        for j, (p, form) in enumerate(zip(func.active, forms)):
                            v = float(eval(form, env))
                            tol = (1e-5 if fl else 1e-9) * max(1.0, abs(v), abs(f0))
                            if abs(v - grad[j]) > tol:
                                problems.append(
                                    f"{where}: d/d{p.name} = {fmt(grad[j])}, hand formula "
                                    f"'{form}' gives {fmt(v)}"
                                )
                for e in expects:
                    if normalize_point(func, e["at"]) != pt:
                        continue
                    tol = e.get("tol", 1e-4)
                    if "value" in e and abs(e["value"] - f0) > tol:
                        problems.append(f"{where}: f = {fmt(f0)}, expected {e['value']}")
                    if "grad" in e:
                        for j, (p, want) in enumerate(zip(func.active, e["grad"])):
                            if abs(want - grad[j]) > tol:
                                problems.append(
                                    f"{where}: d/d{p.name} = {fmt(grad[j])}, expected {want}"
                                )
        return problems

    def summary(self):
        n = sum(len(entries) for _, _, entries, _ in self.tested)
        names = ", ".join(f.name for f, _, _, _ in self.tested)
        return f"{len(self.tested)} function(s) [{names}] at {n} point(s)"


def formula_env(func, pt):
    env = {k: getattr(math, k) for k in dir(math) if not k.startswith("_")}
    env["abs"] = abs
    env["min"] = min
    env["max"] = max
    for p, v in zip(func.params, pt):
        env[p.name] = v
    return env


def fmt(v):
    if isinstance(v, float):
        return f"{v:.12g}"
    return str(v)


# --------------------------------------------------------------------------
# Linear growth of the generated code


def size_ratio(runner, small, large, max_ratio):
    sizes = []
    for case in (small, large):
        work = tempfile.mkdtemp(prefix="unfad-e2e-size-")
        try:
            name = os.path.basename(case)
            shutil.copy(case, os.path.join(work, name))
            r = run([runner.unfad, "-i", name] + runner.unfad_flags(), work, "unfad -i", timeout=TOOL_TIMEOUT)
            if r.returncode != 0:
                raise Failure(f"`unfad -i {name}` failed\n" + describe(r))
            bl = blocks(open(os.path.join(work, name)).read())
            if not bl:
                raise Failure(f"{name}: no generated block")
            n = sum(len([l for l in lines if l.strip()]) for lines in bl.values())
            sizes.append(n)
            print(f"  {name}: {n} non-blank generated lines")
        finally:
            shutil.rmtree(work, ignore_errors=True)
    ratio = sizes[1] / max(1, sizes[0])
    print(f"  ratio {ratio:.2f} (must be < {max_ratio})")
    if ratio >= max_ratio:
        raise Failure(f"generated code grows faster than linearly: ratio {ratio:.2f}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("cases", nargs="+")
    ap.add_argument("--unfad", default=os.path.join(REPO, "build", "bin", "unfad"))
    ap.add_argument("--include", default=os.path.join(REPO, "include"))
    ap.add_argument("--cxx", default="g++")
    ap.add_argument("--clangxx", default="clang++-19")
    ap.add_argument("--keep", action="store_true", help="keep the temporary directories")
    ap.add_argument("--tool-timeout", type=float, default=120.0,
                    help="seconds one unfad run may take (default %(default)s)")
    ap.add_argument("--verbose", "-v", action="store_true")
    ap.add_argument("--size-ratio", action="store_true",
                    help="cases are SMALL LARGE MAX_RATIO: check linear growth")
    args = ap.parse_args()
    globals()["TOOL_TIMEOUT"] = args.tool_timeout
    runner = Runner(args)

    if args.size_ratio:
        if len(args.cases) != 3:
            ap.error("--size-ratio needs SMALL.cpp LARGE.cpp MAX_RATIO")
        try:
            size_ratio(runner, args.cases[0], args.cases[1], float(args.cases[2]))
        except Failure as e:
            print(f"FAIL: {e}")
            return 1
        print("PASS")
        return 0

    failed = 0
    for case in args.cases:
        try:
            s = runner.run_case(case)
            print(f"PASS {os.path.basename(case)}: {s}")
        except Failure as e:
            failed += 1
            print(f"FAIL {os.path.basename(case)}: {e}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
