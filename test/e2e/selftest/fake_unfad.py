#!/usr/bin/env python3
"""A stand-in for unfad, used only to test the e2e harness itself.

It writes an f_grad for each marked function that computes the gradient by an
8-point central difference, inserted right after the function between the
usual markers, and implements the command's modes: stdout (default), -i and
--check. Environment knobs make it misbehave on purpose:
  FAKE_WRONG=1    the last partial derivative is off by 0.01%
  FAKE_NOIDEM=1   a second -i run adds a line (not idempotent)
"""
import os
import re
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import run_e2e as R  # noqa: E402

BLOCK_RE = re.compile(r"\n// unfad:begin (\S+)\n.*?// unfad:end \1\n", re.S)


def rewrite(src):
    clean = BLOCK_RE.sub("", src)
    funcs = R.parse_functions(clean)
    code = re.sub(r"/\*.*?\*/", lambda m: " " * len(m.group(0)), clean, flags=re.S)
    code = re.sub(r"//[^\n]*", lambda m: " " * len(m.group(0)), code)
    inserts = []
    for m in R.MARK_RE.finditer(code):
        name = m.group(4)
        f = funcs[name]
        i, depth = m.end(), 1
        while depth:
            depth += {"{": 1, "}": -1}.get(code[i], 0)
            i += 1
        params = ", ".join(f"{p.type} {p.name}" for p in f.params)
        adj = ", ".join(f"{p.base}* d_{p.name}" for p in f.active)
        body = []
        for p in f.active:
            def call(s):
                a = [f"({q.name} + ({s}) * h_)" if q is p else q.name for q in f.params]
                return f"{name}({', '.join(a)})"

            d = (f"(672.0 * ({call(1)} - {call(-1)}) - 168.0 * ({call(2)} - {call(-2)}) + "
                 f"32.0 * ({call(3)} - {call(-3)}) - 3.0 * ({call(4)} - {call(-4)})) / (840.0 * h_)")
            if os.environ.get("FAKE_WRONG") and p is f.active[-1]:
                d = "1.0001 * " + d
            body.append(f"  {{\n    const double h_ = 1e-3 * (1.0 + std::fabs(static_cast<double>({p.name})));")
            body.append(f"    *d_{p.name} += static_cast<{p.base}>({d});\n  }}")
        args = ", ".join(p.name for p in f.params)
        block = (f"\n// unfad:begin {name}_grad\n{f.ret} {name}_grad({params}, {adj}) {{\n"
                 + "\n".join(body) + f"\n  return {name}({args});\n}}\n// unfad:end {name}_grad\n")
        if os.environ.get("FAKE_NOIDEM") and "// unfad:begin" in src:
            block += "// again\n"
        inserts.append((i, block))
    out = clean
    for i, b in reversed(inserts):
        out = out[:i] + b + out[i:]
    if "#include <cmath>" not in out:
        out = out.replace("#include <unfad/unfad.h>", "#include <unfad/unfad.h>\n#include <cmath>", 1)
    return out


def main():
    args = sys.argv[1:]
    if "--" in args:
        args = args[: args.index("--")]
    mode = "print"
    for flag, m in (("-i", "inplace"), ("--check", "check")):
        if flag in args:
            mode = m
            args.remove(flag)
    path = args[0]
    src = open(path).read()
    out = rewrite(src)
    if mode == "check":
        return 0 if out == src else 1
    if mode == "print":
        sys.stdout.write(out)
        return 0
    with open(path, "w") as f:
        f.write(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
