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
  FAKE_INOUT_ADD=1    d_y of an in/out y ends as w + the gradient w.r.t. y's
                      initial value (added into the incoming cotangent w)
  FAKE_INOUT_KEEP=1   f_grad leaves an in/out y at its initial value
  FAKE_WRONG_INOUT=1  the partials w.r.t. an in/out y's initial value are off by 0.01%
  FAKE_INOUT_CROSSTALK=1  d_y also picks up the incoming value of another
                      adjoint (right only when that adjoint starts at zero)

Array parameters (pointers, C arrays, std::vector, std::array; of numbers,
of structs of floating fields, of rows) and outputs (the spec's "outputs") are
handled too: f_grad computes the vector-Jacobian product by finite
differences, with the adjoint parameters the harness passes (adjoint_decl);
in/out parameters (the spec's "inouts") too: each evaluation of f runs on a
fresh copy of them, d_y comes in as the weights of y's final value and leaves
holding the gradient w.r.t. y's initial value. The length of a pointer parameter is a literal
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


def adjoint_decl(p):
    """The declaration of p's adjoint parameter in f_grad."""
    if p.kind == "scalar":
        return f"{p.base}* d_{p.name}"
    if p.kind == "vector" or p.kind == "array":
        return f"{p.decl_type}& d_{p.name}"
    if p.row_kind == "carray":  # const double A[R][C], (&A)[R][C], (*A)[C]
        return f"{p.base} (*d_{p.name})[{p.cols_text}]"
    return f"{p.elem_type}* d_{p.name}"  # numbers or structs


def scalar_loops(f, p, specs):
    """Loop headers over every scalar of array parameter p (indices j_, and f_
    for a struct field or k_ for a row element) and elem(var, const): the
    scalar at those indices in var (a copy of p, its adjoint, ...)."""
    L = length_expr(f, p, specs)
    heads = [f"for (int j_ = 0; j_ < {L}; ++j_)"]
    if p.elem == "struct":
        heads.append(f"for (int f_ = 0; f_ < {p.nfields}; ++f_)")

        def elem(v, const=False):
            return f"reinterpret_cast<{'const ' if const else ''}{p.base}*>(&{v}[j_])[f_]"
    elif p.elem == "row":
        cols = f"static_cast<int>({p.name}[j_].size())" if p.row_kind == "vector" else p.cols_text
        heads.append(f"for (int k_ = 0; k_ < {cols}; ++k_)")

        def elem(v, const=False):
            return f"{v}[j_][k_]"
    else:
        def elem(v, const=False):
            return f"{v}[j_]"
    return L, heads, elem


def fresh_copy(f, q, specs, var):
    """A local var holding a copy of array parameter q's current value, and the
    argument that passes it to f in q's place."""
    L = length_expr(f, q, specs)
    if q.kind in ("ptr", "carray"):
        return f"std::vector<{q.elem_type}> {var}({q.name}, {q.name} + {L});", f"{var}.data()"
    if q.kind == "carray_ref":
        return (f"{q.elem_type} {var}[sizeof({q.name}) / sizeof({q.name}[0])]; "
                f"for (int k_ = 0; k_ < {L}; ++k_) {var}[k_] = {q.name}[k_];"), var
    return f"{q.decl_type} {var} = {q.name};", var


def flat(q, var, i, const=True):
    """Scalar i of array var shaped like q, in memory order (fields of structs too)."""
    return f"reinterpret_cast<{'const ' if const else ''}{q.base}*>(&{var}[0])[{i}]"


def n_scalars(f, q, specs):
    L = length_expr(f, q, specs)
    return f"({L}) * {q.nfields}" if q.elem == "struct" else L


def inout_prologue(f, specs):
    """In/out parameters: d_y carries w (the cotangent of y's final value) in;
    keep it in w_y, since d_y is overwritten with the gradient w.r.t. y's
    initial value, built in g_y."""
    body = []
    for q in f.inouts:
        L = length_expr(f, q, specs)
        if q.kind in ("vector", "array"):
            body.append(f"  const {q.decl_type} w_{q.name} = d_{q.name};")
        else:
            body.append(f"  const std::vector<{q.elem_type}> w_{q.name}(d_{q.name}, d_{q.name} + {L});")
        body.append(f"  std::vector<{q.elem_type}> g_{q.name}({L});")
    if f.inouts and os.environ.get("FAKE_INOUT_CROSSTALK"):
        x = next((p for p in f.active if not p.inout and p.elem == "scalar"), None)
        first = "0.0" if x is None else f"*d_{x.name}" if x.kind == "scalar" else f"d_{x.name}[0]"
        body.append(f"  const double x_in_ = static_cast<double>({first});")
    return body


def inout_epilogue(f, specs):
    """d_y = the gradient w.r.t. y's initial value (FAKE_INOUT_ADD: w + it)."""
    body = []
    for q in f.inouts:
        w = flat(q, f"w_{q.name}", "m_") + " + " if os.environ.get("FAKE_INOUT_ADD") else ""
        if os.environ.get("FAKE_INOUT_CROSSTALK"):
            w += f"static_cast<{q.base}>(x_in_) + "
        body.append(f"  for (int m_ = 0; m_ < {n_scalars(f, q, specs)}; ++m_) "
                    f"{flat(q, f'd_{q.name}', 'm_', False)} = {w}{flat(q, f'g_{q.name}', 'm_')};")
    return body


def written_decls(f, specs, args):
    """Locals for one evaluation of f: zeroed outputs, fresh copies of the
    in/out parameters (f advances them); args maps parameter names to arguments."""
    decls = []
    for q in f.outputs:
        n = f.out_len[q.name]
        o = f"o_{q.name}"
        if q.kind in ("ptr", "carray"):
            decls.append(f"std::vector<{q.elem_type}> {o}({n});")
            args[q.name] = f"{o}.data()"
        elif q.kind == "carray_ref":
            decls.append(f"{q.elem_type} {o}[{n}] = {{}};")
            args[q.name] = o
        elif q.kind == "vector":
            decls.append(f"{q.decl_type} {o}({n});")
            args[q.name] = o
        else:
            decls.append(f"{q.decl_type} {o}{{}};")
            args[q.name] = o
    for q in f.inouts:
        decl, args[q.name] = fresh_copy(f, q, specs, f"s_{q.name}")
        decls.append(decl)
    return decls


def weighted_terms(f, specs, ind):
    """phi's terms beyond f's value: d_out . out and w_y . y (final)."""
    b = []
    for q in f.outputs:
        n = f.out_len[q.name]
        if q.elem == "struct":
            T = f"const {q.base}*"
            b.append(f"{ind}  for (int k_ = 0; k_ < {n}; ++k_) for (int m_ = 0; m_ < {q.nfields}; ++m_) "
                     f"v_ += static_cast<double>(reinterpret_cast<{T}>(&d_{q.name}[k_])[m_]) * "
                     f"static_cast<double>(reinterpret_cast<{T}>(&o_{q.name}[k_])[m_]);")
        else:
            b.append(f"{ind}  for (int k_ = 0; k_ < {n}; ++k_) "
                     f"v_ += static_cast<double>(d_{q.name}[k_]) * static_cast<double>(o_{q.name}[k_]);")
    for q in f.inouts:
        b.append(f"{ind}  for (int m_ = 0; m_ < {n_scalars(f, q, specs)}; ++m_) "
                 f"v_ += static_cast<double>({flat(q, f'w_{q.name}', 'm_')}) * "
                 f"static_cast<double>({flat(q, f's_{q.name}', 'm_')});")
    return b


def input_copy(f, p, specs, L):
    """A copy c_<p> of input p, perturbed in place, and the argument passing it."""
    copy = f"c_{p.name}"
    if p.kind == "scalar":
        return f"{p.base} {copy} = {p.name};", copy
    if p.kind in ("ptr", "carray") and p.row_kind == "carray":
        C = p.cols_text
        return (f"std::vector<{p.base}> cb_{p.name}(&{p.name}[0][0], &{p.name}[0][0] + ({L}) * {C}); "
                f"{p.base} (*{copy})[{C}] = reinterpret_cast<{p.base} (*)[{C}]>(cb_{p.name}.data());"), copy
    if p.kind in ("ptr", "carray"):
        return f"std::vector<{p.elem_type}> {copy}({p.name}, {p.name} + {L});", f"{copy}.data()"
    if p.kind == "carray_ref" and p.row_kind == "carray":
        C = p.cols_text
        return (f"{p.base} {copy}[sizeof({p.name}) / sizeof({p.name}[0])][{C}]; "
                f"for (int k_ = 0; k_ < {L}; ++k_) for (int m_ = 0; m_ < {C}; ++m_) "
                f"{copy}[k_][m_] = {p.name}[k_][m_];"), copy
    if p.kind == "carray_ref":
        return (f"{p.elem_type} {copy}[sizeof({p.name}) / sizeof({p.name}[0])]; "
                f"for (int k_ = 0; k_ < {L}; ++k_) {copy}[k_] = {p.name}[k_];"), copy
    return f"{p.decl_type} {copy} = {p.name};", copy


def partial_loops(f, p, specs, call):
    """Loops setting p's adjoint (for an in/out p: g_<p>) to the 8-point
    central difference of phi w.r.t. every scalar of p. An in/out p is
    perturbed in the fresh copy s_<p> each evaluation makes."""
    if p.kind == "scalar":
        heads = ["for (int j_ = 0; j_ < 1; ++j_)"]
        elem, cel, target = p.name, f"c_{p.name}", f"*d_{p.name}"
        L = "1"
    else:
        L, heads, elem_of = scalar_loops(f, p, specs)
        elem, cel = elem_of(p.name, True), elem_of(f"s_{p.name}" if p.inout else f"c_{p.name}")
        target = elem_of(f"g_{p.name}" if p.inout else f"d_{p.name}")
    args = {q.name: q.name for q in f.params}
    b = ["  " * (k + 1) + h + " {" for k, h in enumerate(heads)]
    ind = "  " * (len(heads) + 1)
    if not p.inout:
        decl, args[p.name] = input_copy(f, p, specs, L)
        b.append(f"{ind}{decl}")
    if p.base == "float":  # a power of two, so that x + s*h is exact in float
        b.append(f"{ind}const double h_ = std::exp2(std::round(std::log2(0.03125 * "
                 f"std::fmax(1.0, std::fabs(static_cast<double>({elem}))))));")
    else:
        b.append(f"{ind}const double h_ = 1e-3 * (1.0 + std::fabs(static_cast<double>({elem})));")
    b.append(f"{ind}double ph_[9] = {{}};")
    b.append(f"{ind}for (int s_ = -4; s_ <= 4; ++s_) {{")
    b += [f"{ind}  " + d for d in written_decls(f, specs, args)]
    b.append(f"{ind}  {cel} = static_cast<{p.base}>({elem} + s_ * h_);")
    if f.ret == "void":
        b.append(f"{ind}  {call(args)};")
        b.append(f"{ind}  double v_ = 0;")
    else:
        b.append(f"{ind}  double v_ = static_cast<double>({call(args)});")
    b += weighted_terms(f, specs, ind)
    b.append(f"{ind}  ph_[s_ + 4] = v_;")
    b.append(f"{ind}}}")
    if not p.inout:
        b.append(f"{ind}{cel} = {elem};")
    d = ("(672.0 * (ph_[5] - ph_[3]) - 168.0 * (ph_[6] - ph_[2]) + "
         "32.0 * (ph_[7] - ph_[1]) - 3.0 * (ph_[8] - ph_[0])) / (840.0 * h_)")
    if (os.environ.get("FAKE_WRONG") and p is f.active[-1]) or (os.environ.get("FAKE_WRONG_INOUT") and p.inout):
        d = "1.0001 * " + d
    op = "=" if os.environ.get("FAKE_ASSIGN") or p.inout else "+="
    b.append(f"{ind}{target} {op} static_cast<{p.base}>({d});")
    b += ["  " * (k + 1) + "}" for k in reversed(range(len(heads)))]
    return b


def grad_body(f, specs):
    name = f.name

    def call(args):
        return f"{name}({', '.join(args[q.name] for q in f.params)})"

    body = inout_prologue(f, specs)
    for p in f.active:
        body += partial_loops(f, p, specs, call)
    body += inout_epilogue(f, specs)
    # the final call performs f's writes (FAKE_INOUT_KEEP: not to the in/out
    # parameters, which keep their initial value)
    args = {q.name: q.name for q in f.params}
    if os.environ.get("FAKE_INOUT_KEEP"):
        for q in f.inouts:
            decl, args[q.name] = fresh_copy(f, q, specs, f"k_{q.name}")
            body.append(f"  {decl}")
    if f.ret == "void":
        if not os.environ.get("FAKE_NOWRITE"):
            body.append(f"  {call(args)};")
        else:
            body += [f"  (void){q.name};" for q in f.outputs + f.inouts]
    else:
        body.append(f"  return {call(args)};")
    return body


def rewrite(src, path):
    clean = BLOCK_RE.sub("", src)
    funcs = R.parse_functions(clean)
    specs = R.read_spec(clean, path)
    for spec in specs:
        fn = spec.get("function") or next(iter(funcs))
        if fn in funcs:
            funcs[fn].set_outputs(spec.get("outputs", {}), spec.get("inouts", {}))
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
        adj = ", ".join(adjoint_decl(q) for q in f.adjoint_params)
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
