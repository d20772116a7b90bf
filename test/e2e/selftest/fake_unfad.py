#!/usr/bin/env python3
"""A stand-in for unfad, used only to test the e2e harness itself.

It writes an f_grad for each marked function that computes the gradient by an
8-point central difference, inserted right after the function between the
usual markers, and implements the command's modes: stdout (default), -i and
--check. Environment knobs make it misbehave on purpose:
  FAKE_WRONG=1    the last partial derivative is off by 0.01%
  FAKE_NOIDEM=1   a second -i run adds a line (not idempotent)
  FAKE_NOWRITE=1  f_grad of a void function does not perform f's writes
  FAKE_ASSIGN=1   f_grad assigns the adjoints (=) instead of adding into them (+=)

Array parameters (pointers, C arrays, std::vector, std::array) and outputs
(the spec's "outputs") are handled too: f_grad computes the vector-Jacobian
product by finite differences. The length of a pointer parameter is a literal
when every point of the spec has the same length, else an integer parameter
(or a product of two) that equals it at every point.
"""
import os
import re
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import run_e2e as R  # noqa: E402

BLOCK_RE = re.compile(r"\n// unfad:begin (\S+)\n.*?// unfad:end \1\n", re.S)


def length_expr(f, p, specs):
    """How f_grad finds the length of array parameter p at run time."""
    if p.output:
        return str(f.out_len[p.name])
    if p.kind == "vector" or p.kind == "array":
        return f"static_cast<int>({p.name}.size())"
    if p.kind == "carray_ref":
        return f"static_cast<int>(sizeof({p.name}) / sizeof({p.name}[0]))"
    # a pointer: a literal if every point has the same length, else the integer
    # parameter that equals the length at every point
    pts = []
    for spec in specs:
        if spec.get("function", f.name) == f.name:
            pts += [R.normalize_point(f, q) for q in spec.get("points", [])]
            pts += [R.normalize_point(f, e["at"]) for e in spec.get("expect", [])]
    i = f.params.index(p)
    lens = {len(q[i]) for q in pts}
    if len(lens) == 1:
        return str(lens.pop())
    ints = [(k, q) for k, q in enumerate(f.params) if q.kind == "scalar" and not q.floating]
    cands = [(q.name, lambda pt, k=k, c=c: c * pt[k]) if c == 1 else
             (f"{c} * {q.name}", lambda pt, k=k, c=c: c * pt[k]) for k, q in ints for c in (1, 2, 3, 4)]
    cands += [(f"{q.name} * {r.name}", lambda pt, k=k, l=l: pt[k] * pt[l])
              for k, q in ints for l, r in ints if l >= k]
    for expr, fn in cands:
        if all(fn(pt) == len(pt[i]) for pt in pts):
            return expr
    raise SystemExit(f"fake_unfad: cannot tell the length of {p.name}")


def adjoint_type(p):
    if p.kind == "vector" or p.kind == "array":
        return f"{p.decl_type}&"
    return f"{p.base}*"


def grad_body(f, specs):
    name = f.name
    call_args = {q.name: q.name for q in f.params}

    def call(args):
        return f"{name}({', '.join(args[q.name] for q in f.params)})"

    body = []
    for p in f.active:
        L = length_expr(f, p, specs) if p.is_array else "1"
        elem = f"{p.name}[j_]" if p.is_array else p.name
        copy = f"c_{p.name}"
        if p.kind == "scalar":
            decl, arg, cel = f"{p.base} {copy} = {p.name};", copy, copy
        elif p.kind in ("ptr", "carray"):
            decl = f"std::vector<{p.base}> {copy}({p.name}, {p.name} + {L});"
            arg, cel = f"{copy}.data()", f"{copy}[j_]"
        elif p.kind == "carray_ref":
            decl = (f"{p.base} {copy}[sizeof({p.name}) / sizeof({p.name}[0])]; "
                    f"for (int k_ = 0; k_ < {L}; ++k_) {copy}[k_] = {p.name}[k_];")
            arg, cel = copy, f"{copy}[j_]"
        else:
            decl, arg, cel = f"{p.decl_type} {copy} = {p.name};", copy, f"{copy}[j_]"
        args = dict(call_args)
        args[p.name] = arg
        outs = []
        for q in f.outputs:
            n = f.out_len[q.name]
            o = f"o_{q.name}"
            if q.kind in ("ptr", "carray"):
                outs.append(f"std::vector<{q.base}> {o}({n});")
                args[q.name] = f"{o}.data()"
            elif q.kind == "carray_ref":
                outs.append(f"{q.base} {o}[{n}] = {{}};")
                args[q.name] = o
            elif q.kind == "vector":
                outs.append(f"{q.decl_type} {o}({n});")
                args[q.name] = o
            else:
                outs.append(f"{q.decl_type} {o}{{}};")
                args[q.name] = o
        b = [f"  for (int j_ = 0; j_ < {L}; ++j_) {{", f"    {decl}"]
        if p.base == "float":  # a power of two, so that x + s*h is exact in float
            b.append(f"    const double h_ = std::exp2(std::round(std::log2(0.03125 * "
                     f"std::fmax(1.0, std::fabs(static_cast<double>({elem}))))));")
        else:
            b.append(f"    const double h_ = 1e-3 * (1.0 + std::fabs(static_cast<double>({elem})));")
        b.append("    double ph_[9] = {};")
        b.append("    for (int s_ = -4; s_ <= 4; ++s_) {")
        b.append(f"      {cel} = static_cast<{p.base}>({elem} + s_ * h_);")
        b += ["      " + o for o in outs]
        if f.ret == "void":
            b.append(f"      {call(args)};")
            b.append("      double v_ = 0;")
        else:
            b.append(f"      double v_ = static_cast<double>({call(args)});")
        for q in f.outputs:
            b.append(f"      for (int k_ = 0; k_ < {f.out_len[q.name]}; ++k_) "
                     f"v_ += static_cast<double>(d_{q.name}[k_]) * static_cast<double>(o_{q.name}[k_]);")
        b.append("      ph_[s_ + 4] = v_;")
        b.append("    }")
        b.append(f"    {cel} = {elem};")
        d = ("(672.0 * (ph_[5] - ph_[3]) - 168.0 * (ph_[6] - ph_[2]) + "
             "32.0 * (ph_[7] - ph_[1]) - 3.0 * (ph_[8] - ph_[0])) / (840.0 * h_)")
        if os.environ.get("FAKE_WRONG") and p is f.active[-1]:
            d = "1.0001 * " + d
        target = f"d_{p.name}[j_]" if p.is_array else f"*d_{p.name}"
        op = "=" if os.environ.get("FAKE_ASSIGN") else "+="
        b.append(f"    {target} {op} static_cast<{p.base}>({d});")
        b.append("  }")
        body += b
    if f.ret == "void":
        if not os.environ.get("FAKE_NOWRITE"):
            body.append(f"  {call(call_args)};")
        else:
            body += [f"  (void){q.name};" for q in f.outputs]
    else:
        body.append(f"  return {call(call_args)};")
    return body


def rewrite(src, path):
    clean = BLOCK_RE.sub("", src)
    funcs = R.parse_functions(clean)
    specs = R.read_spec(clean, path)
    for spec in specs:
        fn = spec.get("function") or next(iter(funcs))
        if fn in funcs:
            funcs[fn].set_outputs(spec.get("outputs", {}))
    code = R.strip_comments(clean)
    inserts = []
    for mk in R.find_marks(code):
        name = mk.name
        f = funcs[name]
        i, depth = mk.body_start, 1
        while depth:
            depth += {"{": 1, "}": -1}.get(code[i], 0)
            i += 1
        params = ", ".join(q.text for q in f.params)
        adj = ", ".join(f"{adjoint_type(q)} d_{q.name}" for q in f.adjoint_params)
        body = grad_body(f, specs)
        block = (f"\n// unfad:begin {name}_grad\n{f.ret} {name}_grad({params}, {adj}) {{\n"
                 + "\n".join(body) + f"\n}}\n// unfad:end {name}_grad\n")
        if os.environ.get("FAKE_NOIDEM") and "// unfad:begin" in src:
            block += "// again\n"
        inserts.append((i, block))
    out = clean
    for i, b in reversed(inserts):
        out = out[:i] + b + out[i:]
    for h in ("cmath", "vector"):
        if f"#include <{h}>" not in out:
            out = out.replace("#include <unfad/unfad.h>", f"#include <unfad/unfad.h>\n#include <{h}>", 1)
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
    out = rewrite(src, path)
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
