"""Random well-typed C++ programs in unfad's supported subset (stdlib only).

A program is one marked function plus the helpers it calls, kept as a small
AST (so that it can be rendered, instrumented and shrunk):

  Program(params, helpers, body, in_ns)
  Helper(suffix, kind, ret, params, body)    kind: static|inline|plain|ns|template
  statements: ("decl", type, name, expr) ("assign", target, op, expr)
              ("incdec", name, op, prefix) ("if", cond, then, else) ("return", expr)
  expressions: E(kind, type, args, v)

Rendering takes a prefix ("p3_") so many programs can share one file, and a
`probe` flag: the probe rendering replaces every comparison, fabs, fmin,
fmax, rounding and cast to int by a call that records its outcome (a path
signature) and its distance to the switching point (a margin).  The checker
uses the probe copy to reject points whose finite-difference stencils cross a
branch boundary or a kink.

Features (`--features`): "base" is the scalar subset.  "loops" adds counted
`for` loops (up and down, bounds from n, small constants or passive ints,
empty ranges included, two levels of nesting), `while` / `do ... while` loops
with a fixed trip count and `while` loops with a data-dependent condition
(bounded by a counter), `break` / `continue` on data-dependent conditions,
and loop-carried scalar state (sums, products, fmax, Horner).  "arrays" adds
array parameters (`const double* a` and `const std::vector<double>& a`, all
of one fixed length passed as `int n`), local arrays (`std::vector<double>
u(n)`, `u(n, v)`, copies; `double r[N] = {}`), element reads and writes,
fill loops, recurrent state rewritten every step, range-based `for` over
vectors and local arrays, `v.at(i)`, helpers that take arrays (`static
double h(const double* b, int n, double y)`) and void helpers that write one
(`h(a, n, u.data(), y)`, into a fresh local array or the output).
"outputs" (with "arrays") adds an output parameter `double* out` of length n
(written with =, +=, -=, never read; sometimes the function returns void):
the checker differentiates f + w . out for fixed cotangents w.  The AVOID
flags steer clear of open bugs.  Further statement kinds and expression
kinds of these features:
  ("for", var, (init, cond, incr), body)   counted loop, header as text
  ("rfor", var, array, body)               for (double var : array)
  ("expr", E)                              a call of a void helper that writes
                                           an array: h(a.data(), n, u.data(), y);
  ("while", counter, K, body)  ("dowhile", counter, K, body)   K iterations
  ("dwhile", counter, maxit, cond, body)   while (counter < maxit && cond)
  ("break",) ("continue",)                 (only as the branch of an if)
  ("adecl", type, name, init-or-None, mode)   local array, type lvec|carr
  ("aset", target, op, expr, array, index-vars)   a[i] op= expr
  E("aref", "double", (), (array, index text, index vars))   a[i]
  E("aname", "arr", (), (array, data()))   an array passed to a helper
Index expressions and loop headers are text, not expressions, so that
shrinking cannot make an index go out of bounds.

"structs" (with "arrays"; "loops" for its loops) adds structs and arrays of
structs and of arrays.  Structs: V3 {double x, y, z}, P3 {V3 pos; double m}
(nested), OB {double t, y; int w} (a passive int field).  Parameters of the
marked function: arrays of V3 (`const V3* p`, `const std::vector<V3>& p`,
`const std::array<V3, N>& p`, length n) and matrices of n rows, read-only
(`const std::vector<std::vector<double>>& A` with ragged rows of 1..4,
`const double A[N][C]`, `const std::array<std::array<double, C>, N>&`,
`const std::vector<std::array<double, C>>&`; C is 1..3 per program); the
output may be an array of V3 (`V3* out`, `std::vector<V3>& out`).  Local
arrays of V3, P3 and OB (`std::vector<S> v(n)`, copies of a parameter,
`S a[N] = {}`, initializer lists) filled whole (`v[i] = S{...}`) or field
by field (`v[i].pos.x = e`, `v[i].w = i`), rewritten (`+=`, `*=`), swapped
through a `const S t = v[i]` temporary, carried through a recurrence of
whole elements; local matrices `double M[N][C] = {}` and
`std::array<std::array<double, C>, N> M{}` written as M[i][j].  Reads:
`p[i].x`, `p[i].pos.y`, `A[i][j]` (column indices from loops over C or
`A[i].size()`, or 0 / the last column), struct locals (`V3 q = v[i]`,
`const V3& q = p[i]` for parameters, literals, helper results) and their
fields, `for (const V3& q : p)` / `(const auto& q : p)` / `(V3 q : p)`,
`const auto& row = A[i]`, `for (const auto& row : A)`, `for (double v :
row)`.  Helpers take struct elements (`const V3& s`, `P3 s`), arrays of
structs (`const V3* b0, int n`), write them (`V3* o`, `std::vector<V3>& o`),
take matrices (`const std::vector<std::vector<double>>& B0, int n`, ...) or
one row (`const double* r0`, `const std::array<double, C>& r0`,
`const std::vector<double>& r0`), return V3; rows are also passed to the
array helpers (`h(A[i].data(), static_cast<int>(A[i].size()), y)`, when the
helper has no local array of the fixed length N).  Parameter arrays are
never written, outputs never read, and a local array iterated by reference
is not written inside the loop.  Further statement and expression kinds:
  ("rfor", var, array, body, mode)   mode "ref:V3" (const V3& var), "auto:S",
                                     "val:S", "row" (const auto& row : A)
  ("rdecl", row, A, index, index-vars)      const auto& row = A[i];
  ("decl", S, name, E, const, "ref")        const V3& q = p[i];
  E("selem", S, (), (array, index, vars))   p[i] (of struct type S)
  E("mref", "double", (), (A, row index or None, column index, vars))
                                            A[i][j], or row[j]
  E("rowname", "arr", (), (A, row index or None, vars, data()))   a row
                                            passed to a helper
  E("raw", "int", (), (text, int vars, other names))  e.g. the row length
                                            static_cast<int>(A[i].size())

"views", "inplace", "effects", "inout", "alias" (with "arrays"; gen_mem.py, whose docstring
has the details) add memory statements to the marked function, each a
small block of C++ text with holes for generated expressions (statement
kind "mem", expression kind "pread": a read through a pointer local):
  views    pointer locals into arrays (`const double* p = a + k;`, `&a[k]`,
           `v.data() + k`, `double* o = out + k;`), reads `p[j]`, `*p`,
           `*(p + j)`, pointers moved in loops (`++p`, `p += D`,
           `p = a + i * D`, `for (p = a; p != end; ++p)`), writes through
           pointers into local arrays and the output, views passed to
           helpers (`dot(row, a + k, D)`, `put(out + k, m, y)`);
  inplace  the output written whole (`for (i) out[i] = e;`), after which it
           may be read back and rewritten; local arrays and the written
           output updated in place (`T[i] *= v`, `T[i] = T[i] * v + e`,
           Euler steps `T[i] += h * k[i]`) and by helpers `scale(T, n, v)`,
           `axpy(T, a, n, v)` (on views too, sometimes in a loop of steps);
  effects  `s += a[k++] * e` (for and while loops), `x = y = e`,
           `(s += e) * c`, `s += (t = e) * c`, `(s += e, s * c)`,
           `for (int i = 0, j = n - 1; i < n; ++i, --j)`,
           `if (double t = e; t > c) ... else ...`, side effects run only
           when chosen (`c && (u += e) > k`, `c ? (u += e, u * k) : e2`,
           `c || ++hits > 1`), only in orders C++
           defines.
  inout    an in/out parameter `double* y` / `std::vector<double>& y`
           (types "io", "iov"), read and rewritten in place (the checker
           follows the contract's in/out convention);
  alias    helpers called with one array twice or overlapping views of it
           (`axpy(T + 1, T, m, v)`, `smooth(b + 1, b, n - 1, v)`), views
           passed to writing helpers in loops over rows.
"classes", "lambdas", "switch" (gen_lang.py, whose docstring has the details)
add small classes with constructors, methods, operators, a base class and a
functor; lambdas called from locals, passed to std algorithms and to a
template; and `switch` statements, as "mem" statements too.
"nograd", "retarr", "cparams" (gen_lang.py too) add UNFAD_NO_GRAD marks and
unfad::no_grad (checked against a reference that freezes the marked values),
helpers returning std::vector / std::array by value, and parameters of class
type.  Two features change the marked function itself: "methods" makes most
of them a const member function `f` of a class M (members mc0.. read by the
body, a passive int mk; M deriving from a base MB whose members mb0.. the
body reads; or a functor whose operator() is marked), checked through
`obj.f_grad(..., &d_obj, ...)` / `obj.grad(...)` with the members' slots
after the parameters'; "jvp" marks the function UNFAD_JVP and the checker
builds every column of the Jacobian from f_jvp along the unit directions (no
recursive helpers, custom derivatives or methods then: forward mode refuses
them).
Offsets and lengths are constants from the fixed array length, so views
stay in bounds whatever shrinking removes.  The output is read only after
it has been written whole (its initial value never matters; the in/out
parameter's does).  Without these features the
generator draws exactly the random numbers it drew before (existing seeds
give the same programs).
"""

import random
import re

TYPES = ("double", "int", "bool", "V2")
# feature "structs": structs (V3 of doubles, P3 with a nested V3, OB with a
# passive int field), arrays of them, and arrays of arrays
STRUCT_DEFS = {"V3": (("x", "double"), ("y", "double"), ("z", "double")),
               "P3": (("pos", "V3"), ("m", "double")),
               "OB": (("t", "double"), ("y", "double"), ("w", "int"))}
SPARAMS = ("sarr", "svec", "sstd")  # const V3*, const std::vector<V3>&, const std::array<V3, N>&
SOUTS = ("soutp", "soutv", "sout")  # outputs V3* out, std::vector<V3>& out (sout: a helper's)
MPARAMS = ("mvec", "marr", "mstd", "mva")  # vector<vector<double>> (ragged), double[N][C],
#                                            array<array<double, C>, N>, vector<array<double, C>>
MLOCALS = ("mloc", "mlstd")  # double M[N][C] = {}, std::array<std::array<double, C>, N> M{}
ROWS = ("rowvec", "rowarr", "rowstd", "rowptr")  # a row bound by const auto& (of mvec; marr; mstd,
#                                                 mva), or a helper's row parameter (rowptr: const double*)
# helper parameters taking one row: const double* r (C columns), const std::array<double, C>& r,
# const std::vector<double>& r (any length)
ROWP = {"prow": "rowptr", "arow": "rowstd", "vrow": "rowvec"}
# feature "cparams": parameters of the marked function of class type CP
# (gen_lang.py's DECLS: public double members w, b, a passive int k, a
# constructor and a const method), by value, const& and &
CPARAMS = ("cpv", "cpc", "cpr")
CP_MEMBERS = ("w", "b")
ROW_OF = {"mvec": "rowvec", "marr": "rowarr", "mstd": "rowstd", "mva": "rowstd"}
REFT = {"V3r": "V3", "P3r": "P3", "OBr": "OB"}  # helper parameters by const reference


def elem_struct(t):
    """The element struct of an array of structs type (None for other types)."""
    if t in SPARAMS or t in SOUTS:
        return "V3"
    if t.startswith(("slvec_", "scarr_")):
        return t.split("_", 1)[1]
    return None


def is_slocal(t):
    return t.startswith(("slvec_", "scarr_"))


def field_paths(S, ft="double"):
    """The paths of S's scalar fields of type ft: x, pos.x, ..."""
    out = []
    for f, t in STRUCT_DEFS[S]:
        if t in STRUCT_DEFS:
            out += [f + "." + q for q in field_paths(t, ft)]
        elif t == ft:
            out.append(f)
    return out


def row_kind(t):
    """How a matrix (or row) type's rows are sized: vec (ragged, .size()),
    arr (C array of C columns), std (std::array of C columns)."""
    return {"mvec": "vec", "rowvec": "vec", "marr": "arr", "mloc": "arr", "rowarr": "arr", "rowptr": "arr",
            "mstd": "std", "mva": "std", "mlstd": "std", "rowstd": "std"}[t]


def scope_type(t):
    """A parameter type as a variable type in the function's scope."""
    if t == "size":
        return "int"
    return REFT.get(t, ROWP.get(t, t))
# array types: parameters (arr: const double*, vec: const std::vector<double>&)
# and locals (lvec: std::vector<double>, carr: double[N]); all of length n
ARRAYS = ("arr", "vec", "lvec", "carr", "io", "iov")
# arrays that are std::vectors (.data(), .size(), .at()); "iov" is an in/out
# parameter std::vector<double>& y (feature "inout"; "io" is double* y)
VECS = ("vec", "lvec", "iov")
INOUTS = ("io", "iov")
MEM_FEATURES = ("views", "inplace", "effects", "inout", "alias", "grow")  # gen_mem.py
LANG_FEATURES = ("classes", "lambdas", "switch", "custom", "nograd", "retarr", "cparams", "optional", "addr", "owned")  # gen_lang.py
LOOPS = ("for", "while", "dowhile", "dwhile", "rfor")


class E:
    __slots__ = ("k", "t", "a", "v")

    def __init__(self, k, t, a=(), v=None):
        self.k = k  # kind
        self.t = t  # type: double int bool V2
        self.a = list(a)  # children
        self.v = v  # payload

    def copy(self):
        return E(self.k, self.t, [c.copy() for c in self.a], self.v)

    def size(self):
        return 1 + sum(c.size() for c in self.a)


def same(a, b):
    return a.k == b.k and a.t == b.t and a.v == b.v and len(a.a) == len(b.a) and all(
        same(x, y) for x, y in zip(a.a, b.a))


def cst(x):
    return E("const", "double", (), float(x))


def icst(x):
    return E("const", "int", (), int(x))


def var(name, t):
    return E("var", t, (), name)


def bin_(op, l, r):
    return E("bin", "double" if "double" in (l.t, r.t) else l.t, (l, r), op)


def call(fn, *args):
    return E("call", "double", args, fn)


class Helper:
    def __init__(self, suffix, kind, ret, params, body, recursive=False, marked=False):
        self.marked = marked  # also UNFAD_GRADIENT (gets its own _grad block)
        self.suffix = suffix
        self.kind = kind
        self.ret = ret
        self.params = params  # [(name, type)]
        self.body = body
        self.recursive = recursive

    def copy(self):
        return Helper(self.suffix, self.kind, self.ret, list(self.params), copy_stmts(self.body),
                      self.recursive, self.marked)


class Program:
    def __init__(self, params, helpers, body, in_ns=False, uses_v2=False, size_n=0, ret="double",
                 uses_structs=False, cols=0, row_lens=None):
        self.params = params  # [(name, type)] double, int, size (int n), arr, vec
        self.helpers = helpers  # list of Helper (index = call target)
        self.body = body
        self.in_ns = in_ns
        self.uses_v2 = uses_v2
        self.size_n = size_n  # the length of every array (the value of n)
        self.ret = ret  # double, or void (a function with an output array)
        self.uses_structs = uses_structs  # declare V3, P3, OB
        self.cols = cols  # the column count C of the matrices but mvec
        self.row_lens = dict(row_lens or {})  # mvec parameter -> its row lengths (n of them)

        self.mode = "grad"  # "jvp" (feature "jvp"): marked UNFAD_JVP, checked through f_jvp
        # feature "methods": the marked function is a const member function of
        # a class M: {"kind": plain|derived|functor, "members": [(name, type)]
        # (the base's first), "base": [names of the base's members]}
        self.method = None

    def copy(self):
        q = Program(list(self.params), [h.copy() for h in self.helpers], copy_stmts(self.body),
                    self.in_ns, self.uses_v2, self.size_n, self.ret, self.uses_structs, self.cols,
                    self.row_lens)
        q.mode = self.mode
        q.method = self.method
        return q

    def size(self):
        n = sum(stmts_size(h.body) for h in self.helpers if h is not None)
        return n + stmts_size(self.body)


def copy_stmt(s):
    k = s[0]
    if k == "decl":
        return ("decl", s[1], s[2], s[3].copy()) + tuple(s[4:])
    if k == "assign":
        return ("assign", s[1], s[2], s[3].copy())
    if k == "incdec":
        return s
    if k == "if":
        return ("if", s[1].copy(), copy_stmts(s[2]), copy_stmts(s[3]))
    if k in ("return", "expr"):
        return (k, s[1].copy())
    if k in ("break", "continue"):
        return s
    if k == "for":
        return ("for", s[1], s[2], copy_stmts(s[3]))
    if k in ("while", "dowhile", "rfor"):
        return (k, s[1], s[2], copy_stmts(s[3])) + tuple(s[4:])
    if k == "rdecl":
        return s
    if k == "dwhile":
        return ("dwhile", s[1], s[2], s[3].copy(), copy_stmts(s[4]))
    if k == "adecl":
        return ("adecl", s[1], s[2], s[3].copy() if s[3] is not None else None, s[4])
    if k == "aset":
        return ("aset", s[1], s[2], s[3].copy(), s[4], s[5])
    if k == "mem":
        return ("mem", s[1], s[2].copy(), s[3], s[4], s[5])
    raise ValueError(k)


def copy_stmts(ss):
    return [copy_stmt(s) for s in ss]


def stmts_size(ss):
    n = 0
    for s in ss:
        n += 1
        if s[0] in ("decl", "assign", "aset"):
            n += s[3].size()
        elif s[0] == "adecl" and s[3] is not None:
            n += s[3].size()
        elif s[0] == "if":
            n += s[1].size() + stmts_size(s[2]) + stmts_size(s[3])
        elif s[0] in ("return", "expr"):
            n += s[1].size()
        elif s[0] == "mem":
            n += s[2].size()
        elif s[0] in ("for", "while", "dowhile", "rfor"):
            n += stmts_size(s[3])
        elif s[0] == "dwhile":
            n += s[3].size() + stmts_size(s[4])
    return n


# ---------------------------------------------------------------------------
# Rendering


class Renderer:
    """C++ text of a program with a name prefix; probe=True instruments it."""

    def __init__(self, prog, prefix, probe=False):
        self.p = prog
        self.pre = prefix
        self.probe = probe
        self.tmpl = False  # inside a template body: double -> T

    def tname(self, t):
        if t == "V2":
            return self.pre + "V2"
        if t in STRUCT_DEFS:
            return self.pre + t
        if t in REFT:
            return f"const {self.pre}{REFT[t]}&"
        if t in CPARAMS:
            return {"cpv": "", "cpc": "const ", "cpr": ""}[t] + self.pre + "CP" + ("" if t == "cpv" else "&")
        N, C, V3 = self.p.size_n, self.p.cols, self.pre + "V3"
        d = "T" if self.tmpl else "double"
        st = {"sarr": f"const {V3}*", "svec": f"const std::vector<{V3}>&",
              "sstd": f"const std::array<{V3}, {N}>&", "soutp": f"{V3}*", "soutv": f"std::vector<{V3}>&",
              "mvec": f"const std::vector<std::vector<{d}>>&",
              "mstd": f"const std::array<std::array<{d}, {C}>, {N}>&",
              "mva": f"const std::vector<std::array<{d}, {C}>>&", "sout": f"std::vector<{V3}>&",
              "prow": f"const {d}*", "arow": f"const std::array<{d}, {C}>&",
              "vrow": f"const std::vector<{d}>&"}.get(t)
        if st:
            return st
        if t == "double":
            return d
        if t == "arr":
            return f"const {d}*"
        if t == "vec":
            return f"const std::vector<{d}>&"
        if t == "size":
            return "int"
        if t in ("outp", "io"):
            return f"{d}*"
        if t == "iov":
            return f"std::vector<{d}>&"
        return t

    def pdecl(self, n, t):
        """A parameter declaration."""
        if t == "marr":
            return f"const {self.tname('double')} {n}[{self.p.size_n}][{self.p.cols}]"
        return f"{self.tname(t)} {n}"

    def fname(self):
        return self.pre + "f"

    def method_head(self, out, mark, params):
        """Feature "methods": the class M (deriving from MB) whose const
        member function (or operator()) is the marked function."""
        m = self.p.method
        base = [(n, t) for n, t in m["members"] if n in m["base"]]
        own = [(n, t) for n, t in m["members"] if n not in m["base"]]
        if base:
            out.append(f"struct {self.pre}MB {{")
            out += [f"  {t} {n};" for n, t in base]
            out.append("};")
        out.append(f"struct {self.pre}M" + (f" : {self.pre}MB {{" if base else " {"))
        out += [f"  {t} {n};" for n, t in own]
        out.append("  int mk = 2;")
        name = "operator()" if m["kind"] == "functor" else "f"
        out.append(f"  {mark}{self.p.ret} {name}({params}) const {{")

    def qualified_fname(self):
        return (self.pre + "m::" if self.p.in_ns else "") + self.fname()

    def helper_ref(self, i, explicit):
        h = self.p.helpers[i]
        name = self.pre + h.suffix
        if h.kind == "ns":
            name = self.pre + "ns::" + name
        if h.kind == "template" and explicit:
            name += "<double>"
        return name

    def lit(self, x):
        r = repr(float(x))
        if "e" in r or "n" in r:
            return r
        if "." not in r:
            r += ".0"
        return r

    def e(self, x, top=False):
        k = x.k
        if k == "var":
            return x.v
        if k == "const":
            if x.t == "int":
                return str(x.v)
            s = self.lit(x.v)
            return s if x.v >= 0 else "(" + s + ")"
        if k == "bin":
            s = f"{self.e(x.a[0])} {x.v} {self.e(x.a[1])}"
            return s if top else "(" + s + ")"
        if k == "neg":
            s = self.e(x.a[0])
            return "-" + ("(" + s + ")" if s.startswith("-") else s)
        if k == "call":
            fn = x.v
            base = fn.split("::")[-1]
            args = [self.e(c, True) for c in x.a]
            if self.probe and base in ("fabs", "fmin", "fmax", "floor", "ceil", "round", "trunc", "sin", "cos",
                                       "tan") and any(active(c) for c in x.a):
                return f"fzp_{base}({', '.join(args)})"
            return f"{fn}({', '.join(args)})"
        if k == "hcall":
            i, explicit = x.v
            return f"{self.helper_ref(i, explicit)}({', '.join(self.e(c, True) for c in x.a)})"
        if k == "tern":
            s = f"{self.e(x.a[0])} ? {self.e(x.a[1])} : {self.e(x.a[2])}"
            return s if top else "(" + s + ")"
        if k == "cmp":
            l, r = self.e(x.a[0], True), self.e(x.a[1], True)
            if self.probe:
                # (a tie of passive values, e.g. (double)(i) == 1.0, moves with nothing)
                fl = "true" if "double" in (x.a[0].t, x.a[1].t) and (active(x.a[0]) or active(x.a[1])) else "false"
                return f"fzp_c(({l}) {x.v} ({r}), static_cast<double>({l}) - static_cast<double>({r}), {fl})"
            s = f"{self.e(x.a[0])} {x.v} {self.e(x.a[1])}"
            return s if top else "(" + s + ")"
        if k in ("and", "or"):
            op = "&&" if k == "and" else "||"
            s = f"{self.e(x.a[0])} {op} {self.e(x.a[1])}"
            return s if top else "(" + s + ")"
        if k == "not":
            return "!" + self.e(x.a[0])
        if k == "member":
            return f"{self.e(x.a[0])}.{x.v}"
        if k == "aref":
            if len(x.v) > 3 and x.v[3] in ("front", "back"):  # a std::vector: v.front()
                return f"{x.v[0]}.{x.v[3]}()"
            if len(x.v) > 3:  # a std::vector: v.at(i)
                return f"{x.v[0]}.at({x.v[1]})"
            return f"{x.v[0]}[{x.v[1]}]"
        if k == "aname":
            return x.v[0] + (".data()" if x.v[1] else "")
        if k in ("raw", "pread"):
            return x.v[0]
        if k == "list":
            return ", ".join(self.e(c, True) for c in x.a)
        if k == "struct":
            return f"{self.tname(x.t)}{{{', '.join(self.e(c, True) for c in x.a)}}}"
        if k == "selem":  # an element of an array of structs: p[i]
            return f"{x.v[0]}[{x.v[1]}]"
        if k == "mref":  # A[i][j], or row[j] of a row variable
            return f"{x.v[0]}[{x.v[1]}][{x.v[2]}]" if x.v[1] is not None else f"{x.v[0]}[{x.v[2]}]"
        if k == "rowname":  # a row passed to a helper: A[i], A[i].data(), row.data()
            r = x.v[0] if x.v[1] is None else f"{x.v[0]}[{x.v[1]}]"
            return r + (".data()" if x.v[3] else "")
        if k == "cast":
            inner = self.e(x.a[0], True)
            if x.v == "int" and self.probe:
                return f"fzp_toint({inner})"
            if x.v == "int":
                return f"static_cast<int>({inner})"
            if x.v == "double_c":
                return f"({self.tname('double')})({inner})"
            return f"static_cast<{self.tname('double')}>({inner})"
        raise ValueError(k)

    def stmts(self, ss, ind, out):
        for s in ss:
            self.stmt(s, ind, out)

    def stmt(self, s, ind, out):
        pad = "  " * ind
        k = s[0]
        if k == "decl":
            const = "const " if len(s) > 4 and s[4] else ""
            amp = "&" if len(s) > 5 and s[5] == "ref" else ""
            out.append(f"{pad}{const}{self.tname(s[1])}{amp} {s[2]} = {self.e(s[3], True)};")
        elif k == "rdecl":
            out.append(f"{pad}const auto& {s[1]} = {s[2]}[{s[3]}];")
        elif k == "assign":
            out.append(f"{pad}{s[1]} {s[2]} {self.e(s[3], True)};")
        elif k == "incdec":
            out.append(f"{pad}{s[2]}{s[1]};" if s[3] else f"{pad}{s[1]}{s[2]};")
        elif k == "return":
            out.append(f"{pad}return {self.e(s[1], True)};")
        elif k == "expr":
            out.append(f"{pad}{self.e(s[1], True)};")
        elif k == "if":
            self.if_(s, ind, out, pad + "if")
        elif k in ("break", "continue"):
            out.append(f"{pad}{k};")
        elif k == "for":
            init, cond, incr = s[2]
            out.append(f"{pad}for (int {s[1]} = {init}; {cond}; {incr}) {{")
            self.stmts(s[3], ind + 1, out)
            out.append(pad + "}")
        elif k == "rfor":
            mode = s[4] if len(s) > 4 else None
            if mode is None:
                head = f"{self.tname('double')} {s[1]}"
            else:
                how, S = (mode.split(":") + [None])[:2]
                head = {"ref": f"const {self.tname(S)}& {s[1]}", "val": f"{self.tname(S)} {s[1]}",
                        "auto": f"const auto& {s[1]}", "row": f"const auto& {s[1]}"}[how]
            out.append(f"{pad}for ({head} : {s[2]}) {{")
            self.stmts(s[3], ind + 1, out)
            out.append(pad + "}")
        elif k == "while":
            out.append(f"{pad}int {s[1]} = {s[2]};")
            out.append(f"{pad}while ({s[1]} > 0) {{")
            out.append(f"{pad}  --{s[1]};")
            self.stmts(s[3], ind + 1, out)
            out.append(pad + "}")
        elif k == "dowhile":
            out.append(f"{pad}int {s[1]} = 0;")
            out.append(f"{pad}do {{")
            out.append(f"{pad}  ++{s[1]};")
            self.stmts(s[3], ind + 1, out)
            out.append(f"{pad}}} while ({s[1]} < {s[2]});")
        elif k == "dwhile":
            out.append(f"{pad}int {s[1]} = 0;")
            out.append(f"{pad}while ({s[1]} < {s[2]} && {self.e(s[3])}) {{")
            out.append(f"{pad}  ++{s[1]};")
            self.stmts(s[4], ind + 1, out)
            out.append(pad + "}")
        elif k == "adecl" and is_slocal(s[1]):
            kind, S = s[1].split("_", 1)
            St, N = self.tname(S), self.p.size_n
            if kind == "scarr":
                init = self.e(s[3]) if s[4] == "list" else ""
                out.append(f"{pad}{St} {s[2]}[{N}] = {{{init}}};")
            elif s[4] == "list":
                out.append(f"{pad}std::vector<{St}> {s[2]}{{{self.e(s[3])}}};")
            elif s[4] == "n":
                out.append(f"{pad}std::vector<{St}> {s[2]}(n);")
            else:  # ("copy", source)
                out.append(f"{pad}std::vector<{St}> {s[2]} = {s[4][1]};")
        elif k == "adecl" and s[1] in MLOCALS:
            d, N, C = self.tname("double"), self.p.size_n, self.p.cols
            if s[1] == "mloc":
                out.append(f"{pad}{d} {s[2]}[{N}][{C}] = {{}};")
            else:
                out.append(f"{pad}std::array<std::array<{d}, {C}>, {N}> {s[2]}{{}};")
        elif k == "adecl":
            d = self.tname("double")
            if s[1] == "carr" and s[4] == "list":
                out.append(f"{pad}{d} {s[2]}[{self.p.size_n}] = {{{self.e(s[3])}}};")
            elif s[1] == "carr":
                out.append(f"{pad}{d} {s[2]}[{self.p.size_n}] = {{}};")
            elif s[4] == "list":
                out.append(f"{pad}std::vector<{d}> {s[2]}{{{self.e(s[3])}}};")
            elif s[4] == "n":
                out.append(f"{pad}std::vector<{d}> {s[2]}(n);")
            elif s[4] == "fill":
                out.append(f"{pad}std::vector<{d}> {s[2]}(n, {self.e(s[3], True)});")
            else:  # a copy of another array: ("copy", source)
                out.append(f"{pad}std::vector<{d}> {s[2]} = {s[4][1]};")
        elif k == "mem":
            self.mem(s, pad, out)
        elif k == "aset" and s[2] in ("++", "--"):
            out.append(f"{pad}{s[2]}{s[1]};")
        elif k == "aset":
            out.append(f"{pad}{s[1]} {s[2]} {self.e(s[3], True)};")
        else:
            raise ValueError(k)

    def mem(self, s, pad, out):
        """A memory statement (gen_mem.py): text with holes @k@ for its
        expressions, parenthesised unless the hole is a whole operand of
        =, op=, a comma, a call or a statement."""
        def hole(m):
            x = s[2].a[int(m.group(1))]
            before, after = m.string[:m.start()].rstrip(), m.string[m.end():].lstrip()
            top = (before == "" or before.endswith(("=", "(", ";"))) and after[:1] in (";", ")", ",")
            return self.e(x, top)
        for line in s[1]:
            out.append(gen_lang.marks(pad + re.sub(r"@(\d+)@", hole, line).replace("$P", self.pre), self.probe))

    def if_(self, s, ind, out, head):
        pad = "  " * ind
        out.append(f"{head} ({self.e(s[1], True)}) {{")
        self.stmts(s[2], ind + 1, out)
        els = s[3]
        if not els:
            out.append(pad + "}")
        elif len(els) == 1 and els[0][0] == "if":
            self.if_(els[0], ind, out, pad + "} else if")
        else:
            out.append(pad + "} else {")
            self.stmts(els, ind + 1, out)
            out.append(pad + "}")

    def helper(self, i, out):
        h = self.p.helpers[i]
        if h is None:
            return
        name = self.pre + h.suffix
        self.tmpl = h.kind == "template"
        params = ", ".join(self.pdecl(n, t) for n, t in h.params)
        head = f"{self.tname(h.ret)} {name}({params})"
        if h.marked and self.marking:
            head = "UNFAD_GRADIENT " + head
        if h.kind == "static":
            head = "static " + head
        elif h.kind == "inline":
            head = "inline " + head
        elif h.kind == "template":
            head = "template <typename T> " + head
        elif h.kind == "ns":
            out.append(f"namespace {self.pre}ns {{")
            head = "inline " + head
        if h.recursive:
            # a forward declaration keeps the recursion legal whatever the order
            pass
        out.append(head + " {")
        self.stmts(h.body, 1, out)
        out.append("}")
        if h.kind == "ns":
            out.append(f"}} // namespace {self.pre}ns")
        self.tmpl = False

    def render(self, marked=True, only_reachable=True):
        self.marking = marked
        out = []
        if self.p.uses_v2:
            out.append(f"struct {self.pre}V2 {{")
            out.append("  double x, y;")
            out.append("};")
        at = len(out)  # the structs used (V3, P3, OB) go here
        reach = reachable(self.p) if only_reachable else set(range(len(self.p.helpers)))
        for i in range(len(self.p.helpers)):
            if i in reach:
                self.helper(i, out)
        if self.p.in_ns:
            out.append(f"namespace {self.pre}m {{")
        params = ", ".join(self.pdecl(n, t) for n, t in self.p.params)
        mark = ("UNFAD_JVP " if self.p.mode == "jvp" else "UNFAD_GRADIENT ") if marked else ""
        if self.p.method:
            self.method_head(out, mark, params)
        else:
            out.append(f"{mark}{self.p.ret} {self.fname()}({params}) {{")
        self.stmts(self.p.body, 1, out)
        out.append("}")
        if self.p.method:
            out.append("};")
        if self.p.in_ns:
            out.append(f"}} // namespace {self.pre}m")
        if self.p.uses_structs:
            text = "\n".join(out)
            used = {S for S in STRUCT_DEFS if re.search(rf"\b{self.pre}{S}\b", text)}
            if f"{self.pre}P3" in text:
                used.add("V3")
            decls = []
            for S in STRUCT_DEFS:  # (V3 before P3)
                if S in used:
                    decls += [f"struct {self.pre}{S} {{"] + [
                        f"  {self.tname(t) if t in STRUCT_DEFS else t} {f};" for f, t in STRUCT_DEFS[S]] + ["};"]
            out[at:at] = decls
        out[at:at] = gen_lang.declarations("\n".join(out), self.pre, self.probe)  # (classes, templates, enums)
        return "\n".join(out) + "\n"


def active(x):
    """Whether x may depend on the active inputs (doubles, arrays, helpers);
    values computed from integers and constants only are passive."""
    if x.k == "var":
        return x.t in ("double", "V2") or x.t in STRUCT_DEFS
    if x.k in ("aref", "hcall", "selem", "mref", "pread"):
        return True
    return any(active(c) for c in x.a)


def walk_stmts(ss):
    for s in ss:
        yield s
        if s[0] == "if":
            yield from walk_stmts(s[2])
            yield from walk_stmts(s[3])
        elif s[0] in ("for", "while", "dowhile", "rfor"):
            yield from walk_stmts(s[3])
        elif s[0] == "dwhile":
            yield from walk_stmts(s[4])


def walk_exprs_stmts(ss):
    for s in ss:
        if s[0] in ("decl", "assign", "aset"):
            yield from walk_expr(s[3])
        elif s[0] == "adecl" and s[3] is not None:
            yield from walk_expr(s[3])
        elif s[0] == "if":
            yield from walk_expr(s[1])
            yield from walk_exprs_stmts(s[2])
            yield from walk_exprs_stmts(s[3])
        elif s[0] in ("return", "expr"):
            yield from walk_expr(s[1])
        elif s[0] == "mem":
            yield from walk_expr(s[2])
        elif s[0] in ("for", "while", "dowhile", "rfor"):
            yield from walk_exprs_stmts(s[3])
        elif s[0] == "dwhile":
            yield from walk_expr(s[3])
            yield from walk_exprs_stmts(s[4])


def walk_expr(x):
    yield x
    for c in x.a:
        yield from walk_expr(c)


def calls_of(ss):
    return {x.v[0] for x in walk_exprs_stmts(ss) if x.k == "hcall"}


def reachable(p):
    seen = set()
    todo = list(calls_of(p.body))
    while todo:
        i = todo.pop()
        if i in seen or p.helpers[i] is None:
            continue
        seen.add(i)
        todo += list(calls_of(p.helpers[i].body))
    return seen


# ---------------------------------------------------------------------------
# Generation

UNARY_ANY = ["sin", "cos", "tanh", "atan", "erf"]
ROUNDING = ["floor", "ceil", "round", "trunc"]


class Scope:
    def __init__(self, parent=None):
        self.parent = parent
        self.vars = []  # (name, type)

    def all(self):
        s = self.parent.all() if self.parent else []
        return s + self.vars


class Gen:
    def __init__(self, rng, features=("base",), max_stmts=10):
        self.rng = rng
        self.consts = set()
        self.features = set(features)
        self.max_stmts = max_stmts
        self.if_depth = 2
        if rng.random() < 0.1:  # now and then a big one
            self.max_stmts = 24
            self.if_depth = 3
        self.loops = "loops" in self.features
        self.arrays = "arrays" in self.features
        self.has_arrays = False  # this program has array parameters (and n)
        self.size_n = 0
        self.loop_depth = 0
        self.loopinfo = {}  # loop variable -> (usable as an index, starts at >= 1)
        self.in_main = False
        self.while_depth = 0  # inside while / do-while bodies
        # ints visible where a loop starts: not written in its body (an int
        # doubled every iteration would make recursion depths and trip counts
        # explode)
        self.frozen = set()
        self.frozen_stack = []
        # feature "structs" (with "arrays"): arrays of structs, arrays of arrays
        self.structs = "structs" in self.features and self.arrays
        self.cols = 0  # the column count C of the matrices (but ragged ones)
        self.row_lens = {}  # ragged matrix parameter -> row lengths
        self.colinfo = {}  # column loop variable -> ("C",) or ("len", row text)
        self.noswrite = set()  # local arrays iterated by reference here: not written
        self.program_uses_structs = False
        self.method = None  # feature "methods" (Program.method)
        # features "views", "inplace", "effects" (gen_mem.py)
        self.mem = bool(self.features & set(MEM_FEATURES))
        self.out_written = False  # the output has been written whole (then it may be read)
        self.mem_helpers = {}  # view helper name -> index
        # features "classes", "lambdas", "switch" (gen_lang.py)
        self.lang = bool(self.features & set(LANG_FEATURES))

    # -- helpers --------------------------------------------------------
    def pick(self, seq):
        return self.rng.choice(seq)

    def chance(self, p):
        return self.rng.random() < p

    def fn(self, name):
        return ("std::" + name) if self.chance(0.6) else name

    def fresh(self, t):
        c = self.counter
        c[t] = c.get(t, 0) + 1
        base = {"double": "t", "int": "m", "bool": "c", "V2": "v", "loop": "i", "w": "w", "lvec": "u",
                "carr": "r", "V3": "q", "P3": "e", "OB": "ob", "slvec": "sv", "scarr": "sa", "mloc": "M",
                "row": "row", "pv": "pv", "ix": "ix", "gv": "gv", "buf": "buf"}[t]
        return f"{base}{c[t] - 1}"

    def vars_of(self, t):
        return [n for n, ty in self.scope.all() if ty == t]

    def pick_var(self, t):
        vs = self.vars_of(t)
        if not vs:
            return None
        # prefer recent variables, but reuse older ones too (sharing)
        if self.chance(0.5):
            return vs[-1 - min(len(vs) - 1, int(self.rng.expovariate(0.7)))]
        return self.pick(vs)

    # -- expressions ----------------------------------------------------
    def squash(self, x):
        r = self.rng.randrange(6)
        if r < 5:
            return call(self.fn(["sin", "cos", "tanh", "atan", "erf"][r]), x)
        return bin_("/", x, bin_("+", cst(1.0), bin_("*", x, x)))

    def pos(self, x):
        r = self.rng.randrange(5)
        if r == 0:
            return bin_("+", cst(1.0), bin_("*", x, x))
        if r == 1:
            return bin_("+", cst(self.pick([1.5, 2.0, 2.5])), self.squash(x))
        if r == 2:
            return bin_("+", cst(1.0), call(self.fn("exp"), self.squash(x)))
        if r == 3:
            return call(self.fn("hypot"), x, cst(self.pick([0.5, 1.0])))
        return bin_("+", cst(1.5), call(self.fn("cos"), x))

    def small(self, depth):
        """A bounded value (|v| < ~3)."""
        if self.chance(0.3):
            return cst(self.pick([0.5, 1.5, 2.0, -0.75, 3.0]))
        return bin_("*", cst(self.pick([0.5, 1.5, 2.0])), self.squash(self.dexpr(depth)))

    def leaf(self):
        if self.has_arrays and self.chance(0.45 if self.loop_depth else 0.2):
            a = None
            if self.structs:
                r2 = self.rng.random()
                a = self.sref() if r2 < 0.4 else self.mref() if r2 < 0.7 else None
            if a is None:
                a = self.aref()
            if a is not None:
                return a
        r = self.rng.random()
        if r < 0.12:
            return cst(self.pick([0.5, 1.5, 2.0, 3.0, 0.25, 0.1, -1.0, -0.5, 1.25, 4.0]))
        if r < 0.2 and self.structs:
            sv = [(n, t) for n, t in self.scope.all() if t == "V2" or t in STRUCT_DEFS]
            if sv:
                n, t = self.pick(sv)
                return E("member", "double", (var(n, t),), self.pick("xy" if t == "V2" else field_paths(t)))
        if r < 0.2:
            v2 = self.pick_var("V2")
            if v2:
                return E("member", "double", (var(v2, "V2"),), self.pick("xy"))
        if r < 0.26:
            m = self.pick_var("int")
            if m:
                return E("cast", "double", (var(m, "int"),), self.pick(["double", "double_c"]))
        v = self.pick_var("double")
        if v is None:
            return cst(1.5)
        return var(v, "double")

    def math1(self, depth):
        x = self.dexpr(depth)
        r = self.rng.randrange(22)
        if r < 5:
            return call(self.fn(UNARY_ANY[r]), x)
        if r == 5:
            return call(self.fn("exp"), self.squash(x))
        if r == 6:
            return call(self.fn("exp"), E("neg", "double", (bin_("*", x, x),)))
        if r == 7:
            return call(self.fn(self.pick(["exp2", "expm1"])), self.squash(x))
        if r == 8:
            return call(self.fn(self.pick(["sinh", "cosh"])), self.squash(x))
        if r in (9, 10):
            return call(self.fn(self.pick(["log", "log2", "log10"])), self.pos(x))
        if r == 11:
            return call(self.fn("log1p"), self.pick([bin_("*", x, x), bin_("*", cst(0.5), self.squash(x))]))
        if r in (12, 13):
            return call(self.fn(self.pick(["sqrt", "cbrt"])), self.pos(x))
        if r == 14:
            return call(self.fn(self.pick(["asin", "acos"])), bin_("*", cst(0.6), self.squash(x)))
        if r == 15:
            return call(self.fn("tan"), bin_("*", cst(0.6), self.squash(x)))
        if r == 16:
            return call(self.fn("fabs"), x)
        if r == 17:
            return call(self.fn(self.pick(ROUNDING)), x)
        if r == 18:
            return call(self.fn("pow"), self.pos(x), self.small(depth - 1))
        if r == 19:
            return call(self.fn("pow"), x, cst(self.pick([2.0, 3.0])))
        if r == 20:
            y = self.dexpr(depth - 1)
            if self.chance(0.5):
                return call(self.fn("atan2"), x, self.pos(y))
            return call(self.fn("atan2"), self.pos(y), x)
        y = self.dexpr(depth - 1)
        r2 = self.rng.randrange(3)
        if r2 == 0:
            return call(self.fn("hypot"), x, self.pos(y))
        return call(self.fn(self.pick(["fmin", "fmax"])), x, y)

    def dexpr(self, depth):
        if depth <= 0 or self.chance(0.25):
            return self.leaf()
        r = self.rng.random()
        if r < 0.38:
            op = self.pick("+-*")
            l, r = self.dexpr(depth - 1), self.dexpr(depth - 1)
            if op == "-" and self.loops and same(l, r):
                # x - x: exactly 0 in f, but its adjoint adds +d and -d after
                # the other contributions: with the huge values loops make
                # (x squared 4 times) that cancels catastrophically in any
                # reverse mode (false "wrong gradient"); e.g. unfad-fuzz:202:784
                op = "+"
            return bin_(op, l, r)
        if r < 0.45:
            return bin_("/", self.dexpr(depth - 1), self.pos(self.dexpr(depth - 2)))
        if r < 0.48:
            return E("neg", "double", (self.dexpr(depth - 1),))
        if r < 0.72:
            return self.math1(depth - 1)
        if r < 0.78:
            return E("tern", "double", (self.cond(1), self.dexpr(depth - 1), self.dexpr(depth - 1)))
        if r < 0.92:
            c = self.helper_call("double", depth - 1)
            if c is not None:
                return c
            return self.math1(depth - 1)
        if r < 0.96:
            s = self.vexpr(depth - 1)
            return E("member", "double", (s,), self.pick("xy")) if s.k == "hcall" else self.leaf()
        return self.leaf()

    def dexpr_top(self, depth):
        """Like dexpr, but rarely a bare leaf (a declaration computes something)."""
        for _ in range(3):
            x = self.dexpr(depth)
            if x.k not in ("var", "const", "cast", "member"):
                return x
        return x

    def iexpr(self):
        if self.structs and self.chance(0.15):
            # an int field: ob.w, obs[i].w
            el = self.selem("OB") if self.chance(0.6) else None
            if el is None and self.pick_var("OB"):
                el = var(self.pick_var("OB"), "OB")
            if el is not None:
                return E("member", "int", (el,), "w")
        r = self.rng.randrange(6)
        m = self.pick_var("int")
        if m is None or r == 0:
            return icst(self.rng.randrange(4))
        if r == 1:
            return E("bin", "int", (var(m, "int"), icst(self.rng.randrange(1, 3))), self.pick("+-"))
        if r == 2:
            return E("bin", "int", (var(m, "int"), icst(2)), "*")
        if r == 3 and self.chance(0.3):
            return E("cast", "int", (bin_("*", cst(3.0), self.squash(self.dexpr(1))),), "int")
        return var(m, "int")

    def cond(self, depth):
        r = self.rng.random()
        if depth > 0 and r < 0.15:
            return E(self.pick(["and", "or"]), "bool", (self.cond(depth - 1), self.cond(depth - 1)))
        if depth > 0 and r < 0.2:
            return E("not", "bool", (self.cond(depth - 1),))
        if r < 0.3:
            b = self.pick_var("bool")
            if b:
                return var(b, "bool")
        if r < 0.42:
            m = self.pick_var("int")
            if m:
                return E("cmp", "bool", (var(m, "int"), icst(self.rng.randrange(3))),
                         self.pick(["<", ">", "==", "!=", ">=", "<="]))
        l, r = self.dexpr(1), self.dexpr(1)
        if same(l, r) or (l.k == "const" and r.k == "const"):
            r = cst(self.pick([0.5, -0.25, 1.0]))
            if l.k == "const":
                l = self.leaf()
        return E("cmp", "bool", (l, r), self.pick(["<", ">", "<=", ">="]))

    def vexpr(self, depth):
        r = self.rng.random()
        if r < 0.4:
            c = self.helper_call("V2", depth)
            if c is not None:
                return c
        if r < 0.6:
            v = self.pick_var("V2")
            if v:
                return var(v, "V2")
        if r < 0.7 and depth > 0:
            return E("tern", "V2", (self.cond(1), self.vexpr(depth - 1), self.vexpr(depth - 1)))
        self.program_uses_v2 = True
        return E("struct", "V2", (self.dexpr(depth), self.dexpr(depth)))

    def helper_call(self, ret, depth):
        if self.structs:
            return self.helper_call_s(ret, depth)
        cands = [i for i in range(self.max_callee) if self.helpers[i].ret == ret]
        if not (self.arrays_in_scope() and self.n_in_scope()):
            cands = [i for i in cands if not any(t == "arr" for _, t in self.helpers[i].params)]
        if not cands:
            return None
        i = self.pick(cands)
        h = self.helpers[i]
        args = []
        for n, t in h.params:
            if t == "double":
                args.append(self.dexpr(max(0, depth - 1)))
            elif t == "int":
                args.append(self.iexpr())
            elif t == "V2":
                args.append(self.vexpr(max(0, depth - 1)))
            elif t == "arr":
                args.append(self.aname())
            elif t == "size":
                args.append(var("n", "int"))
        self.program_uses_v2 |= ret == "V2" or any(t == "V2" for _, t in h.params)
        return E("hcall", ret, args, (i, h.kind == "template" and self.chance(0.5)))

    # -- statements -------------------------------------------------------
    def block(self, n, depth, allow_return, fn_ret="double"):
        out = []
        for _ in range(n):
            s = self.stmt(depth, allow_return, fn_ret)
            if isinstance(s, list):
                out.extend(s)
            elif s is not None:
                out.append(s)
        return out

    def assignable(self, t):
        # variables declared in this function (and its parameters)
        return [n for n, ty in self.scope.all() if ty == t and n not in self.consts and n not in self.frozen]

    def stmt(self, depth, allow_return, fn_ret):
        if (self.loops or self.has_arrays) and self.chance(0.3 if self.loop_depth == 0 else 0.2):
            s = self.feature_stmt(depth, fn_ret)
            if s:
                return s
        r = self.rng.random()
        if r < 0.30:
            n = self.fresh("double")
            s = ("decl", "double", n, self.dexpr_top(3))
            if self.chance(0.25):
                s = s + (True,)
                self.consts.add(n)
            self.scope.vars.append((n, "double"))
            return s
        if r < 0.35:
            n = self.fresh("int")
            s = ("decl", "int", n, self.iexpr())
            self.scope.vars.append((n, "int"))
            return s
        if r < 0.41:
            n = self.fresh("bool")
            s = ("decl", "bool", n, self.cond(1))
            self.scope.vars.append((n, "bool"))
            return s
        if r < 0.46 and not self.in_template:
            n = self.fresh("V2")
            e = self.vexpr(2)
            self.program_uses_v2 = True
            s = ("decl", "V2", n, e)
            self.scope.vars.append((n, "V2"))
            return s
        if r < 0.62:
            vs = self.assignable("double")
            if not vs:
                return None
            v = self.pick(vs)
            op = self.pick(["=", "+=", "-=", "*=", "/="])
            e = self.dexpr_top(2)
            if op == "/=":
                e = self.pos(e)
            elif op == "*=" and self.loop_depth:
                # bounded factors in loops: unbounded ones repeated overflow
                # (dead state at inf makes 0 * inf = NaN adjoints:
                # test/e2e/cases/fuzz_dead_loop_state_nan.cpp)
                e = self.small(1)
            elif op == "*=":
                e = self.small(1) if self.chance(0.5) else e
            if self.structs and self.loop_depth and op in ("=", "+=", "-=") and any(
                    x.k == "var" and x.v == v for x in walk_expr(e)):
                # v = v * v + ... repeated overflows to inf; f may not depend
                # on v any more (atan, tanh, a dead value), but its adjoint
                # is 0 * inf = NaN in any reverse mode (unfad-fuzz:8:653)
                e = self.squash(e)
            return ("assign", v, op, e)
        if r < 0.66:
            vs = self.assignable("V2")
            if not vs:
                return None
            return ("assign", self.pick(vs) + "." + self.pick("xy"), self.pick(["=", "+=", "*="]),
                    self.dexpr(2))
        if r < 0.71:
            vs = self.assignable("double") + self.assignable("int")
            if not vs:
                return None
            return ("incdec", self.pick(vs), self.pick(["++", "--"]), self.chance(0.5))
        if r < 0.72:
            vs = self.assignable("bool")
            if not vs:
                return None
            v = self.pick(vs)
            c = self.cond(1)
            if self.chance(0.5):
                c = E(self.pick(["and", "or"]), "bool", (var(v, "bool"), c))
            return ("assign", v, "=", c)
        if r < 0.73:
            vs = self.assignable("int")
            if not vs:
                return None
            return ("assign", self.pick(vs), self.pick(["=", "+=", "-="]), self.iexpr())
        if r < 0.88 and depth > 0:
            return self.if_stmt(depth, allow_return, fn_ret, 0)
        if r < 0.94 and allow_return:
            self.scope = Scope(self.scope)
            ret = ("return", self.ret_expr(fn_ret, 2))
            self.scope = self.scope.parent
            return ("if", self.cond(1), [ret], [])
        for fs in FEATURE_STMTS:
            if fs in self.features:
                s = FEATURE_STMTS[fs](self, depth, allow_return, fn_ret)
                if s is not None:
                    return s
        return None

    def if_stmt(self, depth, allow_return, fn_ret, chain):
        c = self.cond(1)
        self.scope = Scope(self.scope)
        then = self.block(self.rng.randint(1, 3), depth - 1, allow_return, fn_ret)
        if allow_return and self.chance(0.2):
            then.append(("return", self.ret_expr(fn_ret, 2)))
        self.scope = self.scope.parent
        els = []
        if chain < 2 and self.chance(0.3):
            els = [self.if_stmt(depth, allow_return, fn_ret, chain + 1)]
        elif self.chance(0.5):
            self.scope = Scope(self.scope)
            els = self.block(self.rng.randint(1, 2), depth - 1, allow_return, fn_ret)
            self.scope = self.scope.parent
        return ("if", c, then, els)

    def ret_expr(self, fn_ret, depth):
        if fn_ret == "V2":
            return self.vexpr(depth)
        if fn_ret == "V3":
            return self.vexpr_s("V3", depth)
        return self.dexpr(depth)

    def final_return(self, fn_ret):
        if fn_ret == "void":  # replaced by the caller
            return ("return", cst(0.0))
        if fn_ret == "V2":
            return ("return", E("struct", "V2", (self.combine(), self.combine())))
        if fn_ret == "V3":
            return ("return", E("struct", "V3", (self.combine(), self.combine(), self.combine())))
        e = self.combine()
        if self.chance(0.15):
            e = E("tern", "double", (self.cond(1), e, self.dexpr(2)))
        return ("return", e)

    def combine(self):
        """Sum/product of several in-scope values: most computed values matter."""
        vs = self.vars_of("double")
        terms = []
        if vs:
            k = min(len(vs), self.rng.randint(2, 4))
            for v in self.rng.sample(vs, k):
                terms.append(var(v, "double"))
        for v2 in self.vars_of("V2")[-2:]:
            terms.append(E("member", "double", (var(v2, "V2"),), self.pick("xy")))
        if self.has_arrays and self.n_in_scope():
            locs = [n for n, t in self.scope.all() if t in ("lvec", "carr")]
            for a in locs[-2:]:
                if self.chance(0.7):
                    terms.append(E("aref", "double", (), (a, self.pick(["0", "n - 1"]), ("n",))))
        if self.structs and self.has_arrays and self.n_in_scope():
            # local arrays of structs and matrices, struct locals
            for a, t in [(n, t) for n, t in self.scope.all() if is_slocal(t) or t in MLOCALS][-3:]:
                if not self.chance(0.7):
                    continue
                i = self.pick(["0", "n - 1"])
                if t in MLOCALS:
                    terms.append(E("mref", "double", (), (a, i, self.pick(["0", str(self.cols - 1)]), ("n",))))
                else:
                    S = elem_struct(t)
                    terms.append(E("member", "double", (E("selem", S, (), (a, i, ("n",))),),
                                   self.pick(field_paths(S))))
        if self.structs:
            for n, t in [(n, t) for n, t in self.scope.all() if t in STRUCT_DEFS][-2:]:
                terms.append(E("member", "double", (var(n, t),), self.pick(field_paths(t))))
        if not terms:
            return self.dexpr(2)
        e = terms[0]
        for t in terms[1:]:
            op = self.pick("+-*+")
            if op == "*" and self.chance(0.5):
                t = self.squash(t)
            e = bin_(op, e, t)
        if self.chance(0.3):
            e = bin_(self.pick("+*"), e, self.math1(1))
        return e

    # -- loops and arrays (features "loops", "arrays") ---------------------
    def n_in_scope(self):
        return any(n == "n" and t == "int" for n, t in self.scope.all())

    def no_out_store(self):
        """With "inplace" the output may be read back, which makes it an
        in/out pointer for unfad, and those cannot be rewritten in while
        loops (documented, diagnosed): no stores to it there."""
        return "inplace" in self.features and self.while_depth > 0

    def inout_writable(self):
        """The in/out parameter types that may be written here (feature
        "inout"): an in/out pointer is not rewritten inside while loops (unfad
        cannot copy it there: documented, diagnosed); a std::vector may be."""
        if self.scope.parent is not None and "avoid-inout-nested" in self.features:
            return ()  # test/e2e/cases/fuzz_inout_nested_step_loops.cpp
        return ("iov",) if self.while_depth > 0 else INOUTS

    def arrays_in_scope(self, types=ARRAYS):
        return [n for n, t in self.scope.all() if t in types]

    def index(self):
        """(index text, variables it uses): always within [0, n)."""
        lv = [n for n, _ in self.scope.all() if n in self.loopinfo and self.loopinfo[n][0]]
        if lv and self.chance(0.85):
            i = lv[-1] if self.chance(0.6) else self.pick(lv)
            r = self.rng.random()
            if r < 0.6:
                return i, (i,)
            if r < 0.85:
                return f"n - 1 - {i}", ("n", i)
            if self.loopinfo[i][1]:
                return f"{i} - 1", (i,)
            return i, (i,)
        return self.pick(["0", "n - 1"]), ("n",)

    def aref(self, arr=None):
        arrs = self.arrays_in_scope()
        if not arrs or not self.n_in_scope():
            return None
        a = arr or (arrs[-1] if self.chance(0.3) else self.pick(arrs))
        idx, vs = self.index()
        if dict(self.scope.all()).get(a) in VECS and self.chance(0.1):
            if idx in ("0", "n - 1") and self.chance(0.6):
                return E("aref", "double", (), (a, idx, vs, "front" if idx == "0" else "back"))
            return E("aref", "double", (), (a, idx, vs, "at"))
        return E("aref", "double", (), (a, idx, vs))

    def aname(self):
        arrs = [(n, t) for n, t in self.scope.all() if t in ARRAYS]
        n, t = self.pick(arrs)
        return E("aname", "arr", (), (n, t in VECS))

    def feature_stmt(self, depth, fn_ret):
        opts = []
        if self.loops and self.loop_depth < 2:
            opts += ["for"] * 5 + ["while", "dowhile", "dwhile", "dwhile"]
            if self.has_arrays and self.arrays_in_scope(("vec", "lvec", "carr")):
                opts += ["rfor"]
            if self.has_arrays and self.n_in_scope():
                opts += ["reduce"] * 3 + ["fill"] * 2 + ["recur"]
        no_store = self.while_depth and "avoid-while-store" in self.features
        if no_store:
            opts = [o for o in opts if o not in ("fill", "recur")]
        if self.has_arrays and self.n_in_scope() and not no_store:
            opts += ["adecl"]
            if self.arrays_in_scope(("lvec", "carr") + self.inout_writable()):
                opts += ["aset"] * 3
            if self.arrays_in_scope(("outp",)) and not self.no_out_store():
                opts += ["oset"] * 2
            if any(self.helpers[i].ret == "void" for i in range(self.max_callee)):
                opts += ["wcall"] * 2
        if self.loop_depth > 0:
            opts += ["break", "continue"]
        if self.structs and self.has_arrays:
            opts += self.struct_opts(no_store)
        if self.mem and not no_store:
            opts += gen_mem.options(self)
        if self.lang:
            opts += gen_lang.options(self)
        if not opts:
            return None
        k = self.pick(opts)
        if k.startswith("mem:"):
            return [gen_mem.STMTS[k[4:]](self)]
        if k.startswith("lang:"):
            return [gen_lang.STMTS[k[5:]](self)]
        return getattr(self, "gen_" + k)(depth, fn_ret)

    def loop_header(self, v):
        """(init, cond, incr), usable as an index, starts at >= 1."""
        r = self.rng.random()
        arr_ok = self.has_arrays and self.n_in_scope()
        if arr_ok and r < 0.75:
            outer = [n for n, _ in self.scope.all() if n in self.loopinfo and self.loopinfo[n][0]]
            r = self.rng.random()
            if outer and r < 0.2:  # triangular
                o = self.pick(outer)
                return self.pick([(("0", f"{v} < {o}", f"++{v}"), True, False),
                                  ((o, f"{v} < n", f"++{v}"), True, False),
                                  ((f"{o} + 1", f"{v} < n", f"++{v}"), True, True)])
            if r < 0.5:
                return ("0", f"{v} < n", f"++{v}"), True, False
            if r < 0.65:
                return ("n - 1", f"{v} >= 0", f"--{v}"), True, False
            if r < 0.72:
                return ("1", f"{v} < n", f"++{v}"), True, True
            if r < 0.77:
                return ("0", f"{v} < n", f"{v} += 2"), True, False
            vecs = [n for n, t in self.scope.all() if t in VECS]
            if vecs and r < 0.85:
                return ("0", f"{v} < static_cast<int>({self.pick(vecs)}.size())", f"++{v}"), True, False
            if self.in_main:
                K = self.rng.randint(0, self.size_n)  # K <= n: an index (K = 0: empty)
                if self.chance(0.5):
                    return ("0", f"{v} < {K}", f"++{v}"), True, False
                return (str(K - 1), f"{v} >= 0", f"--{v}"), True, False
            return ("0", f"{v} < n", f"++{v}"), True, False
        # trip counts that are not indices
        ks = [n for n, t in self.scope.all() if t == "int" and n.startswith("k")]
        if ks and self.chance(0.3):
            return ("0", f"{v} < {self.pick(ks)}", f"++{v}"), False, False
        K = self.pick([0, 1, 2, 3, 4])
        if self.chance(0.3):
            return (str(K), f"{v} > 0", f"--{v}"), False, False
        return ("0", f"{v} < {K}", f"++{v}"), False, False

    def loop_body(self, nmin, nmax, depth, fn_ret, loopvar=None, info=None, extra=None):
        self.scope = Scope(self.scope)
        if loopvar:
            self.scope.vars.append((loopvar, "int"))
            self.consts.add(loopvar)
            self.loopinfo[loopvar] = info
        outer = self.assignable("double")
        self.enter_loop()
        body = self.block(self.rng.randint(nmin, nmax), max(0, depth - 1), False, fn_ret)
        if extra is not None:
            body += extra()
        elif outer and self.chance(0.7):
            body.append(self.carried(self.pick(outer)))
        self.exit_loop()
        self.scope = self.scope.parent
        return body

    def enter_loop(self):
        self.loop_depth += 1
        self.frozen_stack.append(self.frozen)
        self.frozen = self.frozen | {n for n, t in self.scope.all() if t == "int"}

    def exit_loop(self):
        self.loop_depth -= 1
        self.frozen = self.frozen_stack.pop()

    def carried(self, s, e=None):
        """A loop-carried update of s (by e, or by a random expression)."""
        r = self.rng.randrange(7)
        if e is not None and r == 2:
            # a bounded factor from e
            return ("assign", s, "*=", bin_("+", cst(1.0), bin_("*", cst(0.5), self.squash(e))))
        e = self.dexpr_top(2) if e is None else e
        if r < 2:
            return ("assign", s, self.pick(["+=", "-="]), e)
        if r == 2:
            return ("assign", s, "*=", self.small(1))
        if r == 3:
            return ("assign", s, "=", call(self.fn(self.pick(["fmax", "fmin"])), var(s, "double"), e))
        if r == 4:  # Horner
            y = self.leaf()
            if self.structs and y.k == "var" and y.v == s:
                y = self.squash(y)  # (not s = s * s + e: see stmt)
            return ("assign", s, "=", bin_("+", bin_("*", var(s, "double"), y), e))
        if r == 5:
            return ("assign", s, "=", self.squash(bin_("+", var(s, "double"), e)))
        return ("assign", s, "/=", self.pos(e))

    def gen_for(self, depth, fn_ret):
        v = self.fresh("loop")
        hdr, idx, s1 = self.loop_header(v)
        body = self.loop_body(1, 4, depth, fn_ret, v, (idx, s1))
        return [("for", v, hdr, body)]

    def gen_rfor(self, depth, fn_ret, kinds=("vec", "lvec", "carr")):
        """for (double v : a) { ... } over a std::vector or a local C array
        (or, with the row kinds, over a row of an array of arrays)."""
        a = self.pick(self.arrays_in_scope(kinds))
        v = self.fresh("double")
        self.scope = Scope(self.scope)
        self.scope.vars.append((v, "double"))
        self.consts.add(v)
        body = self.loop_body(1, 3, depth, fn_ret)
        self.scope = self.scope.parent
        return [("rfor", v, a, body)]

    def gen_while(self, depth, fn_ret):
        w = self.fresh("w")
        self.while_depth += 1
        body = self.loop_body(1, 3, depth, fn_ret)
        self.while_depth -= 1
        return [("while", w, self.rng.randint(0, 4), body)]

    def gen_dowhile(self, depth, fn_ret):
        w = self.fresh("w")
        self.while_depth += 1
        body = self.loop_body(1, 3, depth, fn_ret)
        self.while_depth -= 1
        return [("dowhile", w, self.rng.randint(1, 4), body)]

    def gen_dwhile(self, depth, fn_ret):
        """while (w < maxit && s < c) { ...; s grows }: a data-dependent trip count."""
        out = []
        vs = self.assignable("double")
        if not vs or self.chance(0.4):
            s = self.fresh("double")
            out.append(("decl", "double", s, self.dexpr_top(2) if self.chance(0.5) else cst(0.0)))
            self.scope.vars.append((s, "double"))
        else:
            s = self.pick(vs)
        w = self.fresh("w")
        up = self.chance(0.7)
        cond = E("cmp", "bool", (var(s, "double"), cst(self.pick([1.0, 2.0, 3.5, 5.0, -1.0]))), "<" if up else ">")
        if self.chance(0.2):
            cond = E(self.pick(["and", "or"]), "bool", (cond, self.cond(1)))
        step = lambda: [("assign", s, "+=" if up else "-=", self.pos(self.dexpr(2)))]  # noqa: E731
        self.while_depth += 1
        body = self.loop_body(0, 3, depth, fn_ret, extra=step)
        self.while_depth -= 1
        out.append(("dwhile", w, self.rng.randint(2, 8), cond, body))
        return out

    def gen_break(self, depth, fn_ret):
        return [("if", self.cond(1), [("break",)], [])]

    def gen_continue(self, depth, fn_ret):
        return [("if", self.cond(1), [("continue",)], [])]

    def new_array(self, out):
        """Declare a fresh local array (appended to out); its name."""
        t = "carr" if self.chance(0.3) and not self.in_template else "lvec"
        name = self.fresh(t)
        if self.chance(0.15):
            # u{e0, ..., e(n-1)} / r[N] = {...}: one value per element
            out.append(("adecl", t, name, E("list", "list", [self.dexpr(1) for _ in range(self.size_n)]), "list"))
        elif t == "carr":
            out.append(("adecl", "carr", name, None, "zero"))
        else:
            r = self.rng.random()
            srcs = self.arrays_in_scope(VECS)
            if r < 0.5:
                out.append(("adecl", "lvec", name, None, "n"))
            elif srcs and r < 0.65:
                out.append(("adecl", "lvec", name, None, ("copy", self.pick(srcs))))
            else:
                out.append(("adecl", "lvec", name, self.small(1) if self.chance(0.5) else self.dexpr(2), "fill"))
        self.scope.vars.append((name, t))
        return name

    def gen_adecl(self, depth, fn_ret):
        out = []
        self.new_array(out)
        return out

    def aset(self, a, idx=None, op=None, e=None):
        if idx is None:
            idx = self.index()
        op = op or self.pick(["=", "=", "+=", "-=", "*=", "++", "--"])
        if e is None:
            e = self.dexpr_top(2)
            if op == "*=":
                e = self.small(1)
        return ("aset", f"{a}[{idx[0]}]", op, e, a, idx[1])

    def gen_oset(self, depth, fn_ret):
        """out[i] = e or out[i] += e: an output (written, never read)."""
        return [self.aset(self.pick(self.arrays_in_scope(("outp",))), op=self.pick(["=", "=", "+=", "-="]))]

    def gen_wcall(self, depth, fn_ret):
        """h(a, n, u.data(), y); a void helper writes the array u (a local
        array or the output), never one of its own inputs."""
        if self.structs:
            return self.gen_wcall_s(depth, fn_ret)
        cands = [i for i in range(self.max_callee) if self.helpers[i].ret == "void"]
        if "avoid-helper-writes" in self.features:
            return None
        targets = [(n, t) for n, t in self.scope.all() if t in ("lvec", "carr", "outp") + self.inout_writable()
                   and not (t == "outp" and self.no_out_store())]
        if not cands:
            return None
        if "avoid-helper-writes-local" in self.features:
            targets = [(n, t) for n, t in targets if t == "outp"]
        if self.loop_depth and "avoid-helper-output-in-loop" in self.features:
            targets = [(n, t) for n, t in targets if t != "outp"]
        i = self.pick(cands)
        h = self.helpers[i]
        # the scalar arguments first: they may read arrays, but not a fresh target
        dargs = [self.dexpr(2) for _, t in h.params if t not in ("arr", "outp", "size")]
        out = []
        if "avoid-helper-write-after-read" in self.features:
            # only arrays not read yet: the output, or a fresh local array
            targets = [(n, t) for n, t in targets if t == "outp"]
            if (not targets or self.chance(0.6)) and self.n_in_scope() and (
                    "avoid-helper-writes-local" not in self.features):
                name = self.new_array(out)
                targets = [(name, dict(self.scope.all())[name])]
        if not targets:
            return None
        tgt, tt = self.pick(targets)
        srcs = [(n, t) for n, t in self.scope.all() if t in ARRAYS and n != tgt]
        args = []
        for _, t in h.params:
            if t == "arr":
                if not srcs:
                    return None
                n, st = self.pick(srcs)
                args.append(E("aname", "arr", (), (n, st in VECS)))
            elif t == "outp":
                args.append(E("aname", "arr", (), (tgt, tt in ("lvec", "iov"))))
            elif t == "size":
                args.append(var("n", "int"))
            else:
                args.append(dargs.pop(0))
        return out + [("expr", E("hcall", "void", args, (i, h.kind == "template" and self.chance(0.5))))]

    def gen_aset(self, depth, fn_ret):
        return [self.aset(self.pick(self.arrays_in_scope(("lvec", "carr") + self.inout_writable())))]

    def index_loop(self, body_fn, depth, fn_ret, down=None):
        v = self.fresh("loop")
        if down is None:
            down = self.chance(0.3)
        hdr = ("n - 1", f"{v} >= 0", f"--{v}") if down else ("0", f"{v} < n", f"++{v}")
        self.scope = Scope(self.scope)
        self.scope.vars.append((v, "int"))
        self.consts.add(v)
        self.loopinfo[v] = (True, False)
        self.enter_loop()
        body = body_fn(v)
        self.exit_loop()
        self.scope = self.scope.parent
        return ("for", v, hdr, body)

    def gen_reduce(self, depth, fn_ret):
        """double s = init; for (i) s op= g(a[i], ...);"""
        out = []
        s = self.fresh("double")
        out.append(("decl", "double", s, self.pick([cst(0.0), cst(0.0), cst(1.0), cst(-0.5), self.leaf()])))
        self.scope.vars.append((s, "double"))

        def body(v):
            b = []
            if self.chance(0.3):
                b += self.block(1, max(0, depth - 1), False, fn_ret)
            if self.chance(0.2):
                b.append(("if", self.cond(1), [("continue",)] if self.chance(0.5) else [("break",)], []))
            b.append(self.carried(s))
            return b

        out.append(self.index_loop(body, depth, fn_ret))
        return out

    def gen_fill(self, depth, fn_ret):
        """u = new array; for (i) u[i] = f(a[i], b[i]); (maybe reduced right away)"""
        out = []
        u = self.new_array(out)

        def body(v):
            b = []
            if self.chance(0.3):
                b += self.block(1, max(0, depth - 1), False, fn_ret)
            b.append(self.aset(u, (v, (v,)), "=" if self.chance(0.8) else "+="))
            return b

        out.append(self.index_loop(body, depth, fn_ret))
        if self.chance(0.5):
            out += self.gen_reduce(depth, fn_ret)
        return out

    def gen_recur(self, depth, fn_ret):
        """A recurrent state h rewritten every step:
        for (s) { hn(n); for (j) hn[j] = squash(h[j] ...); for (j) h[j] = hn[j]; }"""
        out = []
        h = self.new_array(out)
        st = self.fresh("loop")
        self.scope = Scope(self.scope)
        self.scope.vars.append((st, "int"))
        self.consts.add(st)
        self.loopinfo[st] = (False, False)
        self.enter_loop()
        inner = []
        hn = self.new_array(inner)

        def upd(v):
            e = bin_("+", bin_("*", self.small(0), E("aref", "double", (), (h, v, (v,)))), self.dexpr(2))
            if self.chance(0.5):
                e = bin_("+", e, E("aref", "double", (), (h, f"n - 1 - {v}", ("n", v))))
            return [self.aset(hn, (v, (v,)), "=", self.squash(e))]

        inner.append(self.index_loop(upd, depth, fn_ret))
        inner.append(self.index_loop(lambda v: [self.aset(h, (v, (v,)), "=", E(
            "aref", "double", (), (hn, v, (v,))))], depth, fn_ret, down=False))
        self.exit_loop()
        self.scope = self.scope.parent
        out.append(("for", st, ("0", f"{st} < {self.rng.randint(1, 4)}", f"++{st}"), inner))
        return out


    # -- structs and arrays of arrays (feature "structs") ------------------
    def s_arrays(self, S=None, readable=True, writable=False, rangefor=False):
        """(name, type) of the arrays of structs in scope (of element S)."""
        out = []
        for n, t in self.scope.all():
            es = elem_struct(t)
            if es is None or (S and es != S):
                continue
            if readable and t in SOUTS:
                continue
            if writable and (not is_slocal(t) or n in self.noswrite):
                continue
            if rangefor and t in ("sarr", "soutp"):
                continue
            out.append((n, t))
        return out

    def selem(self, S=None):
        """p[i]: an element of an array of structs (of element S)."""
        arrs = self.s_arrays(S)
        if not arrs or not self.n_in_scope():
            return None
        a, t = arrs[-1] if self.chance(0.3) else self.pick(arrs)
        idx, vs = self.index()
        return E("selem", elem_struct(t), (), (a, idx, vs))

    def sref(self):
        """p[i].x, ps[i].pos.y: a field of an element."""
        el = self.selem()
        if el is None:
            return None
        return E("member", "double", (el,), self.pick(field_paths(el.t)))

    def slit(self, S, depth):
        """S{...}: a struct literal (P3{V3{...}, m}, OB{t, y, w})."""
        self.program_uses_structs = True
        if S == "V3":
            return E("struct", "V3", [self.dexpr(depth) for _ in range(3)])
        if S == "P3":
            return E("struct", "P3", [self.vexpr_s("V3", depth - 1), self.dexpr(depth)])
        return E("struct", "OB", [self.dexpr(depth), self.dexpr(depth), self.iexpr()])

    def vexpr_s(self, S, depth):
        """A value of struct type S: an element, a variable, a helper's result, a literal."""
        r = self.rng.random()
        if r < 0.35:
            el = self.selem(S)
            if el is not None:
                return el
        if r < 0.5:
            v = self.pick_var(S)
            if v:
                return var(v, S)
        if S == "V3" and r < 0.65 and depth > 0:
            c = self.helper_call("V3", depth)
            if c is not None:
                return c
        if r < 0.7 and depth > 0:
            return E("tern", S, (self.cond(1), self.vexpr_s(S, depth - 1), self.vexpr_s(S, depth - 1)))
        return self.slit(S, max(0, depth))

    def row_handles(self):
        """(name, type) of the matrices (n rows) and row variables in scope."""
        hs = []
        if self.n_in_scope():
            hs += [(n, t) for n, t in self.scope.all() if t in MPARAMS or t in MLOCALS]
        return hs + [(n, t) for n, t in self.scope.all() if t in ROWS]

    def handle(self, a, t, idx=None):
        """A row: (name, row index text or None for a row variable, its variables, type)."""
        if t in ROWS:
            return (a, None, (), t)
        i, vs = idx or self.index()
        return (a, i, tuple(vs), t)

    @staticmethod
    def rowtext(h):
        return h[0] if h[1] is None else f"{h[0]}[{h[1]}]"

    def cindex(self, h):
        """(column index text, variables): always within the row h."""
        a, it, ivs, t = h
        kind, rt = row_kind(t), self.rowtext(h)
        cands = [v for v, _ in self.scope.all() if v in self.colinfo and (
            (self.colinfo[v] == ("C",) and kind != "vec") or self.colinfo[v] == ("len", rt))]
        if cands and self.chance(0.85):
            j = cands[-1] if self.chance(0.6) else self.pick(cands)
            return j, ivs + (j,)
        if self.chance(0.5):
            return "0", ivs
        if kind != "vec":
            return str(self.cols - 1), ivs
        return f"static_cast<int>({rt}.size()) - 1", ivs

    def mref(self, h=None):
        """A[i][j] (or row[j])."""
        if h is None:
            hs = self.row_handles()
            if not hs:
                return None
            h = self.handle(*self.pick(hs))
        j, vs = self.cindex(h)
        return E("mref", "double", (), (h[0], h[1], j, vs))

    def col_loop(self, h, body_fn):
        """for (j over the columns of row h) { body_fn(j) }"""
        a, it, ivs, t = h
        kind, rt = row_kind(t), self.rowtext(h)
        v = self.fresh("loop")
        if kind == "vec" or (kind == "std" and t not in MLOCALS and self.chance(0.4)):
            bound = f"static_cast<int>({rt}.size())"
        else:
            bound = str(self.cols)
        if self.chance(0.25):
            hdr = (f"{bound} - 1", f"{v} >= 0", f"--{v}")
        else:
            hdr = ("0", f"{v} < {bound}", f"++{v}")
        self.scope = Scope(self.scope)
        self.scope.vars.append((v, "int"))
        self.consts.add(v)
        self.loopinfo[v] = (False, False)
        self.colinfo[v] = ("len", rt) if kind == "vec" else ("C",)
        self.enter_loop()
        body = body_fn(v)
        self.exit_loop()
        self.scope = self.scope.parent
        return ("for", v, hdr, body)

    def term_of(self, x):
        """An expression using x (a value read from an array)."""
        r = self.rng.randrange(4)
        if r == 0:
            return x
        if r == 1:
            return bin_(self.pick("*+-"), x, self.dexpr(1))
        if r == 2:
            return self.squash(bin_("+", x, self.dexpr(1)))
        return bin_("*", x, self.leaf())

    def struct_opts(self, no_store):
        opts = []
        n_ok = self.n_in_scope()
        loops = self.loops and self.loop_depth < 2
        if n_ok and not no_store:
            opts += ["sdecl"]
            if loops:
                opts += ["sfill"] * 2 + ["mfill", "srecur"]
                if self.s_arrays(writable=True):
                    opts += ["sswap"]
            if self.s_arrays(writable=True):
                opts += ["sset"] * 3
            if self.arrays_in_scope(SOUTS):
                opts += ["soset"] * 2
            if self.arrays_in_scope(MLOCALS):
                opts += ["mset"] * 2
        if n_ok and self.s_arrays():
            opts += ["svdecl"] * 2
            if loops:
                opts += ["sreduce"] * 2
        if [v for n, t in self.scope.all() if t in STRUCT_DEFS for v in [n] if v not in self.consts]:
            opts += ["sfassign"] * 2
        if loops and self.s_arrays(rangefor=True):
            opts += ["srfor"] * 2
        if loops and self.row_handles():
            opts += ["mloop"] * 3
        if loops and self.arrays_in_scope(("mvec", "mstd", "mva")):
            opts += ["rowfor"]
        if loops and self.arrays_in_scope(("rowvec", "rowarr", "rowstd")):
            opts += ["rrfor"]
        if n_ok and self.arrays_in_scope(MPARAMS):
            opts += ["rowdecl"]
        return opts

    def new_sarray(self, out, S=None):
        """Declare a fresh local array of structs (appended to out): (name, type)."""
        S = S or self.pick(["V3", "V3", "V3", "P3", "OB"])
        kind = "scarr" if self.chance(0.3) and not self.in_template else "slvec"
        t = f"{kind}_{S}"
        name = self.fresh(kind)
        srcs = [n for n, tt in self.s_arrays(S) if tt in ("svec", "slvec_" + S)]
        r = self.rng.random()
        if r < 0.12:
            out.append(("adecl", t, name, E("list", "list", [self.slit(S, 1) for _ in range(self.size_n)]),
                        "list"))
        elif kind == "scarr":
            out.append(("adecl", t, name, None, "zero"))
        elif srcs and r < 0.4:
            out.append(("adecl", t, name, None, ("copy", self.pick(srcs))))
        else:
            out.append(("adecl", t, name, None, "n"))
        self.program_uses_structs = True
        self.scope.vars.append((name, t))
        return name, t

    def gen_sdecl(self, depth, fn_ret):
        out = []
        self.new_sarray(out)
        return out

    def sfield_set(self, a, idx, path, op=None, ft="double"):
        """a[i].path op= e"""
        if ft == "int":
            return ("aset", f"{a}[{idx[0]}].{path}", op or self.pick(["=", "+="]), self.iexpr(), a, idx[1])
        op = op or self.pick(["=", "=", "+=", "-=", "*="])
        e = self.small(1) if op == "*=" else self.dexpr_top(2)
        return ("aset", f"{a}[{idx[0]}].{path}", op, e, a, idx[1])

    def selem_set(self, a, t, idx):
        """One write into an element: a field, or the whole element."""
        S = elem_struct(t)
        if self.chance(0.3):
            return ("aset", f"{a}[{idx[0]}]", "=", self.vexpr_s(S, 2), a, idx[1])
        if t in SOUTS:
            return self.sfield_set(a, idx, self.pick(field_paths(S)), self.pick(["=", "=", "+=", "-="]))
        ints = field_paths(S, "int")
        if ints and self.chance(0.2):
            return self.sfield_set(a, idx, self.pick(ints), ft="int")
        return self.sfield_set(a, idx, self.pick(field_paths(S)))

    def gen_srecur(self, depth, fn_ret):
        """A recurrent state of structs rewritten every step:
        for (s) { hn(n); for (j) hn[j] = V3{f(h[j], h[n - 1 - j])...}; for (j) h[j] = hn[j]; }"""
        out = []
        h, t = self.new_sarray(out, "V3")
        st = self.fresh("loop")
        self.scope = Scope(self.scope)
        self.scope.vars.append((st, "int"))
        self.consts.add(st)
        self.loopinfo[st] = (False, False)
        self.enter_loop()
        inner = []
        hn, tn = self.new_sarray(inner, "V3")

        def upd(v):
            def comp(f):
                e = bin_("+", bin_("*", self.small(0), E("member", "double", (E("selem", "V3", (), (h, v, (v,))),),
                                                          self.pick("xyz"))), self.dexpr(1))
                if self.chance(0.4):
                    e = bin_("+", e, E("member", "double", (E("selem", "V3", (), (h, f"n - 1 - {v}", ("n", v))),), f))
                return self.squash(e)
            if self.chance(0.5):
                return [("aset", f"{hn}[{v}]", "=", E("struct", "V3", [comp(f) for f in "xyz"]), hn, (v,))]
            return [("aset", f"{hn}[{v}].{f}", "=", comp(f), hn, (v,)) for f in "xyz"]

        inner.append(self.index_loop(upd, depth, fn_ret))
        inner.append(self.index_loop(lambda v: [("aset", f"{h}[{v}]", "=", E("selem", "V3", (), (hn, v, (v,))),
                                                 h, (v,))], depth, fn_ret, down=False))
        self.exit_loop()
        self.scope = self.scope.parent
        out.append(("for", st, ("0", f"{st} < {self.rng.randint(1, 4)}", f"++{st}"), inner))
        return out

    def gen_sswap(self, depth, fn_ret):
        """for (i < n / 2) { const V3 t = v[i]; v[i] = v[n - 1 - i]; v[n - 1 - i] = t; }
        (or an adjacent swap under a data-dependent condition)"""
        a, t = self.pick(self.s_arrays(writable=True))
        S = elem_struct(t)
        v = self.fresh("loop")
        tmp = self.fresh(S)
        self.scope = Scope(self.scope)
        self.scope.vars.append((v, "int"))
        self.consts.add(v)
        if self.chance(0.5):
            self.loopinfo[v] = (True, False)
            hdr = ("0", f"{v} < n / 2", f"++{v}")
            j, jv = f"n - 1 - {v}", ("n", v)
            cond = None
        else:
            self.loopinfo[v] = (True, True)
            hdr = ("1", f"{v} < n", f"++{v}")
            j, jv = f"{v} - 1", (v,)
            f = self.pick(field_paths(S))
            cond = E("cmp", "bool", (E("member", "double", (E("selem", S, (), (a, j, jv)),), f),
                                     E("member", "double", (E("selem", S, (), (a, v, (v,))),), f)), ">")
        swap = [("decl", S, tmp, E("selem", S, (), (a, v, (v,))), True),
                ("aset", f"{a}[{v}]", "=", E("selem", S, (), (a, j, jv)), a, (v,)),
                ("aset", f"{a}[{j}]", "=", var(tmp, S), a, jv)]
        self.scope = self.scope.parent
        body = [("if", cond, swap, [])] if cond is not None else swap
        return [("for", v, hdr, body)]

    def gen_sset(self, depth, fn_ret):
        a, t = self.pick(self.s_arrays(writable=True))
        return [self.selem_set(a, t, self.index())]

    def gen_soset(self, depth, fn_ret):
        """out[i].x = e, out[i] = V3{...}: a struct output (never read)."""
        a = self.pick(self.arrays_in_scope(SOUTS))
        return [self.selem_set(a, dict(self.scope.all())[a], self.index())]

    def gen_sfill(self, depth, fn_ret):
        """v = new array of structs; for (i) v[i] = S{...} or field by field; maybe reduced."""
        out = []
        v, t = self.new_sarray(out)
        S = elem_struct(t)

        def body(i):
            b = []
            if self.chance(0.25):
                b += self.block(1, max(0, depth - 1), False, fn_ret)
            idx = (i, (i,))
            if self.chance(0.5):
                b.append(("aset", f"{v}[{i}]", "=", self.slit(S, 2), v, (i,)))
            else:
                for q in field_paths(S):
                    if self.chance(0.8):
                        b.append(self.sfield_set(v, idx, q, "="))
                for q in field_paths(S, "int"):
                    b.append(self.sfield_set(v, idx, q, "=", ft="int"))
            if self.chance(0.3):
                b.append(self.sfield_set(v, idx, self.pick(field_paths(S)), self.pick(["+=", "-=", "*="])))
            return b

        out.append(self.index_loop(body, depth, fn_ret))
        if self.chance(0.5):
            out += self.gen_sreduce(depth, fn_ret, (v, t))
        return out

    def gen_sreduce(self, depth, fn_ret, arr=None):
        """double s = init; for (i) s op= g(p[i].x, ...) (or a helper of p[i])"""
        a, t = arr or self.pick(self.s_arrays())
        S = elem_struct(t)
        out = []
        s = self.fresh("double")
        out.append(("decl", "double", s, self.pick([cst(0.0), cst(0.0), cst(1.0), self.leaf()])))
        self.scope.vars.append((s, "double"))

        def body(v):
            b = []
            if self.chance(0.3):
                b += self.block(1, max(0, depth - 1), False, fn_ret)
            el = E("selem", S, (), (a, v, (v,)))
            hs = [i for i in range(self.max_callee) if self.helpers[i].ret == "double" and
                  self.helpers[i].params and scope_type(self.helpers[i].params[0][1]) == S]
            if hs and self.chance(0.4):
                c = self.try_call(self.pick(hs), 1, first=el)
                if c is not None:
                    b.append(self.carried(s, c))
                    return b
            x = E("member", "double", (el,), self.pick(field_paths(S)))
            if self.chance(0.4):
                x = bin_(self.pick("*+-"), x, E("member", "double", (el.copy(),), self.pick(field_paths(S))))
            b.append(self.carried(s, self.term_of(x)))
            return b

        out.append(self.index_loop(body, depth, fn_ret))
        return out

    def gen_svdecl(self, depth, fn_ret):
        """const V3& q = p[i] (p const), V3 q = v[i], P3 e = P3{...}"""
        params = [(n, t) for n, t in self.s_arrays() if not is_slocal(t)]
        if params and self.chance(0.4):
            a, t = self.pick(params)
            idx, vs = self.index()
            q = self.fresh("V3")
            self.scope.vars.append((q, "V3"))
            self.consts.add(q)
            return [("decl", "V3", q, E("selem", "V3", (), (a, idx, vs)), True, "ref")]
        arrs = self.s_arrays()
        S = elem_struct(self.pick(arrs)[1]) if arrs and self.chance(0.7) else self.pick(list(STRUCT_DEFS))
        e = self.vexpr_s(S, 2)
        q = self.fresh(S)
        const = self.chance(0.2)
        self.scope.vars.append((q, S))
        self.program_uses_structs = True
        if const:
            self.consts.add(q)
            return [("decl", S, q, e, True)]
        return [("decl", S, q, e)]

    def gen_sfassign(self, depth, fn_ret):
        """q.x op= e for a struct local"""
        vs = [(n, t) for n, t in self.scope.all() if t in STRUCT_DEFS and n not in self.consts]
        v, t = self.pick(vs)
        op = self.pick(["=", "+=", "-=", "*="])
        e = self.small(1) if op == "*=" else self.dexpr_top(2)
        return [("assign", f"{v}.{self.pick(field_paths(t))}", op, e)]

    def gen_srfor(self, depth, fn_ret):
        """for (const V3& q : p) / (const auto& q : p) / (V3 q : p) { ... s op= q.x ... }"""
        a, t = self.pick(self.s_arrays(rangefor=True))
        S = elem_struct(t)
        mode = self.pick(["ref", "auto", "val"])
        out = []
        outer = self.assignable("double")
        if outer and self.chance(0.6):
            s = self.pick(outer)
        else:
            s = self.fresh("double")
            out.append(("decl", "double", s, self.pick([cst(0.0), cst(1.0), self.leaf()])))
            self.scope.vars.append((s, "double"))
        q = self.fresh(S)
        self.scope = Scope(self.scope)
        self.scope.vars.append((q, S))
        self.consts.add(q)
        added = is_slocal(t) and a not in self.noswrite
        if added:
            self.noswrite.add(a)  # no writes to the array while q refers into it

        def extra():
            x = E("member", "double", (var(q, S),), self.pick(field_paths(S)))
            return [self.carried(s, self.term_of(x))]

        body = self.loop_body(0, 2, depth, fn_ret, extra=extra)
        if added:
            self.noswrite.discard(a)
        self.scope = self.scope.parent
        out.append(("rfor", q, a, body, f"{mode}:{S}"))
        return out

    def gen_mloop(self, depth, fn_ret):
        """double s = init; for (i) for (j over row i) s op= f(A[i][j]) (or over a row variable)"""
        a, t = self.pick(self.row_handles())
        out = []
        s = self.fresh("double")
        out.append(("decl", "double", s, self.pick([cst(0.0), cst(0.0), cst(1.0), self.leaf()])))
        self.scope.vars.append((s, "double"))

        def inner(h):
            def body(j):
                b = []
                if self.chance(0.3):
                    b += self.block(1, max(0, depth - 1), False, fn_ret)
                b.append(self.carried(s, self.term_of(E("mref", "double", (), (h[0], h[1], j, h[2] + (j,))))))
                return b
            return self.col_loop(h, body)

        if t in ROWS or (self.loop_depth > 0 and self.chance(0.4)):
            out.append(inner(self.handle(a, t)))
            return out

        def rows(i):
            b = []
            if self.chance(0.25):
                b += self.block(1, max(0, depth - 1), False, fn_ret)
            idx = (i, (i,)) if self.chance(0.7) else (f"n - 1 - {i}", ("n", i))
            b.append(inner(self.handle(a, t, idx)))
            return b

        out.append(self.index_loop(rows, depth, fn_ret))
        return out

    def gen_mfill(self, depth, fn_ret):
        """double M[N][C] = {}; for (i) for (j) M[i][j] = e;"""
        out = []
        M = self.fresh("mloc")
        t = "mloc" if self.chance(0.6) or self.in_template else "mlstd"
        out.append(("adecl", t, M, None, "zero"))
        self.scope.vars.append((M, t))

        def rows(i):
            def body(j):
                b = []
                if self.chance(0.2):
                    b += self.block(1, 0, False, fn_ret)
                b.append(("aset", f"{M}[{i}][{j}]", self.pick(["=", "=", "+="]), self.dexpr_top(2), M, (i, j)))
                return b
            return [self.col_loop((M, i, (i,), t), body)]

        out.append(self.index_loop(rows, depth, fn_ret))
        return out

    def gen_mset(self, depth, fn_ret):
        """M[i][j] op= e"""
        M = self.pick(self.arrays_in_scope(MLOCALS))
        h = self.handle(M, dict(self.scope.all())[M])
        j, vs = self.cindex(h)
        op = self.pick(["=", "=", "+=", "-=", "*="])
        e = self.small(1) if op == "*=" else self.dexpr_top(2)
        return [("aset", f"{M}[{h[1]}][{j}]", op, e, M, vs)]

    def gen_rowdecl(self, depth, fn_ret):
        """const auto& row = A[i];"""
        a = self.pick(self.arrays_in_scope(MPARAMS))
        t = dict(self.scope.all())[a]
        i, vs = self.index()
        r = self.fresh("row")
        self.scope.vars.append((r, ROW_OF[t]))
        self.consts.add(r)
        return [("rdecl", r, a, i, tuple(vs))]

    def gen_rowfor(self, depth, fn_ret):
        """for (const auto& row : A) { ... } (A not a C array parameter: a pointer)"""
        a = self.pick(self.arrays_in_scope(("mvec", "mstd", "mva")))
        t = dict(self.scope.all())[a]
        r = self.fresh("row")
        self.scope = Scope(self.scope)
        self.scope.vars.append((r, ROW_OF[t]))
        self.consts.add(r)
        body = self.loop_body(1, 3, depth, fn_ret)
        self.scope = self.scope.parent
        return [("rfor", r, a, body, "row")]

    def gen_rrfor(self, depth, fn_ret):
        """for (double v : row) { ... }"""
        return self.gen_rfor(depth, fn_ret, ("rowvec", "rowarr", "rowstd"))

    # helper calls with arrays of structs, struct elements and rows
    def helper_call_s(self, ret, depth):
        cands = [i for i in range(self.max_callee) if self.helpers[i].ret == ret]
        self.rng.shuffle(cands)
        for i in cands[:3]:
            c = self.try_call(i, depth)
            if c is not None:
                return c
        return None

    def row_ok(self, i, seen=None):
        """Whether helper i (and what it calls) works for any n: no local array
        of the program's fixed length N (double r[N], V3 a[N], M[N][C], u{...})."""
        seen = set() if seen is None else seen
        if i in seen:
            return True
        seen.add(i)
        h = self.helpers[i]
        for st in walk_stmts(h.body):
            if st[0] == "adecl" and (st[1] in ("carr",) + MLOCALS or st[1].startswith("scarr_") or st[4] == "list"):
                return False
        return all(self.row_ok(j, seen) for j in calls_of(h.body))

    def array_args(self, ats, i):
        """Arguments for a helper's array parameters ats ("arr": const double*,
        "vec": const std::vector<double>&) and its size: n-length arrays, rows
        of C columns, or one row of a ragged matrix; None if impossible."""
        opts = []
        if self.n_in_scope():
            arrs = [(n, t) for n, t in self.scope.all() if t in ARRAYS]
            vecs = [(n, t) for n, t in arrs if t in VECS]
            if arrs and (vecs or "vec" not in ats):
                opts.append("n")
        rows = [(n, t) for n, t in self.scope.all() if t in MPARAMS or t in ROWS]
        if rows and not self.row_ok(i):
            rows = []
        if "vec" not in ats and any(row_kind(t) != "vec" for _, t in rows):
            opts.append("C")
        if len(ats) == 1 and any(row_kind(t) == "vec" for _, t in rows):
            opts.append("ragged")
        if not opts:
            return None
        how = self.pick(opts)
        if how == "n":
            args = []
            for at in ats:
                n, t = self.pick(vecs if at == "vec" else arrs)
                args.append(E("aname", "arr", (), (n, at == "arr" and t in VECS)))
            return args, var("n", "int")
        if how == "C":
            cs = [(n, t) for n, t in rows if row_kind(t) != "vec"]
            args = []
            for _ in ats:
                h = self.handle(*self.pick(cs))
                args.append(E("rowname", "arr", (), (h[0], h[1], h[2], row_kind(h[3]) == "std")))
            return args, icst(self.cols)
        h = self.handle(*self.pick([(n, t) for n, t in rows if row_kind(t) == "vec"]))
        size = E("raw", "int", (), (f"static_cast<int>({self.rowtext(h)}.size())", h[2], (h[0],)))
        return [E("rowname", "arr", (), (h[0], h[1], h[2], ats[0] == "arr"))], size

    def try_call(self, i, depth, first=None):
        """A call of helper i (its first argument first, if given), or None."""
        h = self.helpers[i]
        ats = [t for _, t in h.params if t in ("arr", "vec")]
        arrargs, sizearg = [], var("n", "int")
        if ats:
            got = self.array_args(ats, i)
            if got is None:
                return None
            arrargs, sizearg = got
        args = []
        for n, t in h.params:
            if first is not None and not args:
                args.append(first)
            elif t == "double":
                args.append(self.dexpr(max(0, depth - 1)))
            elif t == "int":
                args.append(self.iexpr())
            elif t == "V2":
                args.append(self.vexpr(max(0, depth - 1)))
            elif t in ("arr", "vec"):
                args.append(arrargs.pop(0))
            elif t == "size":
                if not self.n_in_scope() and sizearg.k == "var":
                    return None
                args.append(sizearg)
            elif scope_type(t) in STRUCT_DEFS:
                args.append(self.vexpr_s(scope_type(t), max(0, depth - 1)))
            elif t in MPARAMS:
                srcs = [n2 for n2, t2 in self.scope.all() if t2 == t]
                if not srcs or not self.n_in_scope():
                    return None
                args.append(E("aname", "arr", (), (self.pick(srcs), False)))
            elif t in ROWP:
                kinds = {"prow": ("marr", "mstd", "mva", "rowarr", "rowstd", "rowptr"),
                         "arow": ("mstd", "mva", "rowstd"), "vrow": ("mvec", "rowvec")}[t]
                srcs = [(n2, t2) for n2, t2 in self.row_handles() if t2 in kinds]
                if not srcs:
                    return None
                hd = self.handle(*self.pick(srcs))
                args.append(E("rowname", "arr", (), (hd[0], hd[1], hd[2], t == "prow" and row_kind(hd[3]) == "std")))
            elif t in ("sarr", "svec"):
                srcs = [(n2, t2) for n2, t2 in self.s_arrays("V3") if t == "sarr" or t2 in ("svec", "slvec_V3")]
                if not srcs or not self.n_in_scope():
                    return None
                n2, t2 = self.pick(srcs)
                args.append(E("aname", "arr", (), (n2, t == "sarr" and t2 in ("svec", "sstd", "slvec_V3"))))
            else:
                return None
        self.program_uses_v2 |= h.ret == "V2" or any(t == "V2" for _, t in h.params)
        return E("hcall", h.ret, args, (i, h.kind == "template" and self.chance(0.5)))

    def make_struct_helper(self, i, kind):
        """A helper of an element (const V3& s / P3 s / OB s), of an array of
        structs (const V3* b0 / const std::vector<V3>& b0, int n), a writer of
        one (V3* o), or of a const std::vector<double>& b0 (rows of a ragged
        matrix can be passed)."""
        extra = [(f"a{j}", "double") for j in range(self.rng.randint(0, 2))]
        r = self.rng.random()
        ret = "double"
        writer = False
        if r < 0.35:
            S = self.pick(["V3", "V3", "P3", "OB"])
            params = [("s", self.pick([S, S + "r"]))] + extra
            if S == "V3" and self.chance(0.4):
                ret = "V3"
        elif r < 0.62:
            params = [("b0", self.pick(["sarr", "svec"])), ("n", "size")] + extra
            if self.chance(0.4):
                params.insert(2, ("o", self.pick(["soutp", "sout"])))
                ret = "void"
                writer = True
        elif r < 0.78:
            # a matrix: const std::vector<std::vector<double>>& B0, const double B0[N][C], ...
            params = [("B0", self.pick(MPARAMS)), ("n", "size")] + extra
        elif r < 0.92:
            # one row: const double* r0, const std::array<double, C>&, const std::vector<double>&
            params = [("r0", self.pick(list(ROWP)))] + extra
        else:
            params = [("b0", "vec"), ("n", "size")] + extra
        h = Helper(f"h{i}", kind, ret, params, [])
        self.helpers.append(h)
        self.in_main = False
        self.program_uses_structs = True
        h.body = self.func_body(params, ret, self.rng.randint(0 if writer else 1, 3), allow_return=not writer)
        if writer:
            h.body[-1] = self.index_loop(lambda v: [self.selem_set("o", "soutp", (v, (v,)))], 1, "void")

    def gen_wcall_s(self, depth, fn_ret):
        """h(p, n, v.data(), y): a void helper writes a local array or the output
        (of doubles or of structs), never one of its own inputs."""
        cands = [i for i in range(self.max_callee) if self.helpers[i].ret == "void"]
        if "avoid-helper-writes" in self.features or not cands:
            return None
        i = self.pick(cands)
        h = self.helpers[i]
        st = any(t in ("soutp", "sout") for _, t in h.params)
        if st:
            targets = [(n, t) for n, t in self.s_arrays("V3", readable=False)
                       if t in SOUTS or (is_slocal(t) and n not in self.noswrite)]
            if any(t == "sout" for _, t in h.params):  # std::vector<V3>& o
                targets = [(n, t) for n, t in targets if t in ("slvec_V3", "soutv", "sout")]
        else:
            targets = [(n, t) for n, t in self.scope.all() if t in ("lvec", "carr", "outp")
                       and not (t == "outp" and self.no_out_store())]
        if "avoid-helper-writes-local" in self.features:
            targets = [(n, t) for n, t in targets if t in ("outp",) + SOUTS]
        if self.loop_depth and "avoid-helper-output-in-loop" in self.features:
            targets = [(n, t) for n, t in targets if t not in ("outp",) + SOUTS]
        dargs = [None if t in ("arr", "vec", "outp", "soutp", "sout", "size", "sarr", "svec") else
                 self.vexpr_s(scope_type(t), 2) if scope_type(t) in STRUCT_DEFS else
                 self.iexpr() if t == "int" else self.dexpr(2) for _, t in h.params]
        out = []
        if "avoid-helper-write-after-read" in self.features:
            targets = [(n, t) for n, t in targets if t in ("outp",) + SOUTS]
            if (not targets or self.chance(0.6)) and "avoid-helper-writes-local" not in self.features:
                if st:
                    targets = [self.new_sarray(out, "V3")]
                else:
                    name = self.new_array(out)
                    targets = [(name, dict(self.scope.all())[name])]
        if not targets:
            return None
        tgt, tt = self.pick(targets)
        args = []
        for (_, t), d in zip(h.params, dargs):
            if t in ("arr", "vec"):
                srcs = [(n, t2) for n, t2 in self.scope.all() if t2 in ARRAYS and n != tgt and (
                    t == "arr" or t2 in VECS)]
                if not srcs:
                    return None
                n, t2 = self.pick(srcs)
                args.append(E("aname", "arr", (), (n, t == "arr" and t2 in VECS)))
            elif t in ("sarr", "svec"):
                srcs = [(n, t2) for n, t2 in self.s_arrays("V3") if n != tgt and (
                    t == "sarr" or t2 in ("svec", "slvec_V3"))]
                if not srcs:
                    return None
                n, t2 = self.pick(srcs)
                args.append(E("aname", "arr", (), (n, t == "sarr" and t2 in ("svec", "sstd", "slvec_V3"))))
            elif t in ("outp", "soutp"):
                args.append(E("aname", "arr", (), (tgt, tt in ("lvec", "slvec_V3", "soutv", "sout"))))
            elif t == "sout":
                args.append(E("aname", "arr", (), (tgt, False)))
            elif t == "size":
                args.append(var("n", "int"))
            else:
                args.append(d)
        return out + [("expr", E("hcall", "void", args, (i, h.kind == "template" and self.chance(0.5))))]

    # -- functions --------------------------------------------------------
    def func_body(self, params, ret, nstmts, allow_return=True):
        self.scope = Scope()
        self.scope.vars = [(n, scope_type(t)) for n, t in params]
        self.counter = {}
        self.consts = {n for n, t in params if t == "size" or t in REFT or t in ROWP}
        self.loopinfo = {}
        self.colinfo = {}
        self.noswrite = set()
        self.loop_depth = 0
        if self.in_main and self.method:  # (feature "methods": the object's members, read only)
            self.scope.vars += self.method["members"] + [("mk", "int")]
            self.consts |= {n for n, _ in self.method["members"]} | {"mk"}
        if self.has_arrays and "avoid-early-return-arrays" in self.features:
            allow_return = False
        body = self.block(nstmts, self.if_depth, allow_return, ret)
        body.append(self.final_return(ret))
        return body

    def make_helper(self, i):
        r = self.rng.random()
        kind = self.pick(["static", "inline", "plain", "ns", "template"])
        self.in_template = kind == "template"
        self.self_index = i
        self.max_callee = i  # helpers call earlier helpers only (no accidental recursion)
        if r < 0.12 and not self.in_template and "jvp" not in self.features:
            # (not in forward mode: recursive helpers are refused there)
            # recursion on a passive depth
            h = Helper(f"h{i}", "static", "double", [("x", "double"), ("n", "int")], [], recursive=True)
            self.helpers.append(h)
            self.scope = Scope()
            self.scope.vars = [("x", "double")]
            self.counter = {}
            base = self.dexpr(2)
            arg = var("x", "double") if self.chance(0.5) else self.squash(self.dexpr(1))
            rec = E("hcall", "double", (arg, E("bin", "int", (var("n", "int"), icst(1)), "-")),
                    (i, False))
            # (never x/(1+x*x) here: three textual copies of the recursive call
            # make the recursion exponential)
            sq = call(self.fn(self.pick(["sin", "cos", "tanh", "atan", "erf"])), rec)
            step = bin_(self.pick("+*"), sq if self.chance(0.5) else rec, self.dexpr(1))
            if self.chance(0.5):
                h.body = [("if", E("cmp", "bool", (var("n", "int"), icst(0)), "<="), [("return", base)], []),
                          ("return", step)]
            else:
                h.body = [("return", E("tern", "double",
                                       (E("cmp", "bool", (var("n", "int"), icst(0)), "<="), base, step)))]
            return
        if self.structs and not self.in_template and self.chance(0.5):
            return self.make_struct_helper(i, kind)
        ret = "double"
        np = self.rng.randint(1, 3)
        params = [(f"a{j}", "double") for j in range(np)]
        if self.has_arrays and self.chance(0.5):
            # a helper taking arrays: h(const double* b0, [const double* b1,] int n, double a0...)
            arrs = [("b0", "arr")] + ([("b1", "arr")] if self.chance(0.3) else [])
            params = arrs + [("n", "size")] + params[:self.rng.randint(0, 2)]
            if self.chance(0.35):
                # a writer: static void h(const double* b0, int n, double* o, ...)
                params.insert(len(arrs) + 1, ("o", "outp"))
                h = Helper(f"h{i}", kind, "void", params, [])
                self.helpers.append(h)
                self.in_main = False
                h.body = self.func_body(params, "void", self.rng.randint(0, 3), allow_return=False)
                h.body[-1] = self.index_loop(lambda v: [self.aset("o", (v, (v,)), self.pick(["=", "+="]))],
                                             1, "void")
                return
            h = Helper(f"h{i}", kind, ret, params, [])
            self.helpers.append(h)
            self.in_main = False
            h.body = self.func_body(params, ret, self.rng.randint(1, 4))
            return
        if not self.in_template:
            if r < 0.3:
                ret = "V2"
            elif r < 0.45:
                params[0] = ("s", "V2")
            if self.chance(0.15):
                params.append(("k", "int"))
        h = Helper(f"h{i}", kind, ret, params, [])
        h.marked = ret == "double" and kind != "template" and params[0][1] == "double" and self.chance(0.15)
        if h.marked and kind == "ns" and "avoid-ns-marked" in self.features:
            h.marked = False  # known bug: test/e2e/cases/fuzz_namespace_pullback.cpp
        self.helpers.append(h)
        h.body = self.func_body(params, ret, self.rng.randint(0, 3))
        if ret == "V2" or any(t == "V2" for _, t in params):
            self.program_uses_v2 = True

    def program(self):
        self.helpers = []
        self.program_uses_v2 = False
        self.in_template = False
        self.self_index = None
        if self.arrays and (self.chance(0.85) or self.structs):
            self.has_arrays = True
            self.size_n = self.rng.randint(1, 5)
            if self.structs:
                self.cols = self.rng.randint(1, 3)
        for i in range(self.rng.choice([0, 1, 1, 2, 2, 3, 4])):
            self.make_helper(i)
        nd = self.rng.randint(2, 6) if not self.has_arrays else self.rng.randint(1, 3)
        params = [(f"x{j}", "double") for j in range(nd)]
        if self.has_arrays:
            for j in range(self.rng.choice([1, 1, 2, 2, 3])):
                params.insert(self.rng.randrange(len(params) + 1),
                              (f"a{j}", "arr" if self.chance(0.6) else "vec"))
            params.insert(self.rng.randrange(len(params) + 1), ("n", "size"))
            if "outputs" in self.features and self.chance(0.4):
                # an output: the gradient is a vector-Jacobian product
                params.insert(self.rng.randrange(len(params) + 1), ("out", "outp"))
            if self.structs:
                self.struct_params(params)
            if "inout" in self.features and self.chance(0.7):
                # an in/out state y: read, then rewritten in place; its initial
                # value matters (the checker follows the contract's convention)
                t = self.pick(["io", "io", "iov"])
                if "avoid-inout-pointer" in self.features:
                    t = "iov"  # test/e2e/cases/fuzz_inout_pointer_helper_in_branch.cpp
                if "avoid-inout-output" in self.features:
                    # test/e2e/cases/fuzz_inout_output_accumulate_redo.cpp
                    params[:] = [(n, pt) for n, pt in params if pt != "outp"]
                params.insert(self.rng.randrange(len(params) + 1), ("y", t))
        for j in range(self.rng.choice([0, 0, 1, 1, 2])):
            params.insert(self.rng.randrange(len(params) + 1), (f"k{j}", "int"))
        if "cparams" in self.features:
            for j in range(self.rng.choice([1, 1, 2])):
                params.insert(self.rng.randrange(len(params) + 1), (f"ko{j}", self.pick(CPARAMS)))
        self.in_template = False
        self.self_index = None
        self.max_callee = len(self.helpers)
        self.in_main = True
        self.method = None
        if "methods" in self.features and "jvp" not in self.features and self.chance(0.8):
            kind = self.pick(["plain", "plain", "derived", "functor"])
            members = [(f"mc{j}", "double") for j in range(self.rng.randint(1, 3))]
            if kind == "derived":
                members = [(f"mb{j}", "double") for j in range(self.rng.randint(1, 2))] + members
            self.method = {"kind": kind, "members": members, "base": [n for n, _ in members if n[1] == "b"]}
        body = self.func_body(params, "double", self.rng.randint(3, self.max_stmts))
        if any(t == "outp" for _, t in params) and self.chance(0.7):
            # most outputs get all their elements written at the end
            body[-1:-1] = [self.index_loop(lambda v: [self.aset("out", (v, (v,)), "=")], 1, "double")]
        sout = [t for _, t in params if t in SOUTS]
        if sout and self.chance(0.7):
            def fill(v):
                if self.chance(0.4):
                    return [("aset", f"out[{v}]", "=", self.vexpr_s("V3", 2), "out", (v,))]
                return [self.sfield_set("out", (v, (v,)), q, "=") for q in field_paths("V3")]
            body[-1:-1] = [self.index_loop(fill, 1, "double")]
        ret = "double"
        if any(t in ("outp",) + SOUTS for _, t in params) and self.chance(0.3) and not any(
                s[0] == "return" for s in walk_stmts(body[:-1])):
            # void f(..., double* out): the value goes to out[0] instead
            ret = "void"
            body[-1] = ("aset", "out[0].x" if sout else "out[0]", "+=", body[-1][1], "out", ())
        in_ns = self.chance(0.15) and not self.method
        if in_ns and "avoid-ns-adl" in self.features and any(h.marked for h in self.helpers):
            in_ns = False
        prog = Program(params, self.helpers, body, in_ns=in_ns,
                       uses_v2=self.program_uses_v2, size_n=self.size_n, ret=ret,
                       uses_structs=self.program_uses_structs, cols=self.cols, row_lens=self.row_lens)
        if "jvp" in self.features:
            prog.mode = "jvp"
        prog.method = self.method
        return prog

    def struct_params(self, params):
        """Arrays of structs (p0, p1) and arrays of arrays (A0, A1) as parameters;
        maybe an output of structs instead of doubles."""
        ns = self.pick([0, 1, 1, 1, 2])
        nm = self.pick([0, 0, 1, 1, 2])
        if ns + nm == 0:
            ns = 1
        for j in range(ns):
            params.insert(self.rng.randrange(len(params) + 1), (f"p{j}", self.pick(SPARAMS)))
        for j in range(nm):
            t = self.pick(MPARAMS)
            params.insert(self.rng.randrange(len(params) + 1), (f"A{j}", t))
            if t == "mvec":
                self.row_lens[f"A{j}"] = [self.rng.randint(1, 4) for _ in range(self.size_n)]
        self.program_uses_structs = True
        for k, (n, t) in enumerate(params):
            if t == "outp" and self.chance(0.5):
                params[k] = (n, self.pick(["soutp", "soutv"]))


# Statement generators of optional features: name -> fn(gen, depth, allow_return, fn_ret)
# returning a statement (or a list of them) or None.  Gen.stmt also calls
# Gen.feature_stmt directly (30% of the statements when "loops" or arrays are
# on); the statement kinds are handled by Renderer.stmt, copy_stmt,
# check_stmts and the shrinker (fuzz.py).
FEATURE_STMTS = {
    "loops": lambda g, depth, allow_return, fn_ret: g.feature_stmt(depth, fn_ret),
    "arrays": lambda g, depth, allow_return, fn_ret: g.feature_stmt(depth, fn_ret) if g.has_arrays else None,
}


# "outputs" (with "arrays"): some programs also write an output array
# `double* out` of length n (never read back): their gradient is a
# vector-Jacobian product.
# "jvp": the marked function is marked UNFAD_JVP instead; the checker builds
# the Jacobian's columns from f_jvp along the unit directions (fuzz.py).
# "methods": most marked functions are const member functions of a class M
# (members mc0.. read by the body, a passive int mk; a derived class whose
# base MB has members mb0..; or a functor's operator()), checked through
# the member gradient (adjoint of *this first among the adjoints).
# "cparams": the marked function takes objects of a class CP (CPARAMS).
OPTIONS = ("outputs", "structs", "jvp", "methods") + MEM_FEATURES + LANG_FEATURES

# Feature flags that only steer away from known bugs (so that a long run
# finds new ones; every bug named here is fixed, the flags stay so that old
# runs can be repeated): "avoid-ns-marked"; "avoid-while-store": no array writes in
# while / do-while bodies (test/e2e/cases/fuzz_while_array_store.cpp);
# "avoid-early-return-arrays": no early returns in programs with arrays
# (test/e2e/cases/fuzz_early_return_array_loop.cpp); "avoid-ns-adl": the
# marked function is not in a namespace when a helper is marked too
# (test/e2e/cases/fuzz_namespace_pullback_adl.cpp); "avoid-helper-write-after-read":
# a helper writes only the output or a fresh local array
# (test/e2e/cases/fuzz_helper_write_after_read.cpp); "avoid-helper-output-in-loop":
# no helper writes the output inside a loop (fuzz_helper_output_in_loop.cpp);
# "avoid-helper-writes-local": helpers write only the output; "avoid-helper-writes":
# no calls of helpers that write arrays (fuzz_helper_writes_local.cpp);
# "avoid-inplace-output-nested" (feature "inplace"): the output is updated in
# place only at the top level of the function, not inside an if or a loop
# (fuzz_inplace_output_in_branch.cpp, fuzz_inplace_output_step2_loop.cpp).
# "avoid-inout-pointer" (feature "inout"): the in/out parameter is a
# std::vector<double>&, never a double* (fuzz_inout_pointer_helper_in_branch.cpp);
# "avoid-inout-output": no output parameter beside an in/out one
# (fuzz_inout_output_accumulate_redo.cpp); "avoid-inout-nested": the in/out
# parameter is written only at the top level of the function, not inside an
# if or a loop (the memory statements' own loop nests still write it)
# (fuzz_inout_nested_step_loops.cpp); "avoid-helper-loop-nested"
# (feature "alias"): loops of calls of writing view helpers only at the top
# level of the function (fuzz_view_helper_loop_in_branch.cpp).
AVOID = ("avoid-ns-marked", "avoid-while-store", "avoid-early-return-arrays", "avoid-ns-adl",
         "avoid-helper-write-after-read", "avoid-helper-output-in-loop", "avoid-helper-writes-local",
         "avoid-helper-writes", "avoid-inplace-output-nested", "avoid-inout-pointer", "avoid-inout-output",
         "avoid-inout-nested", "avoid-helper-loop-nested", "avoid-private-members", "avoid-base-classes")


def generate(seed, features=("base",)):
    rng = random.Random(seed)
    g = Gen(rng, features)
    return g.program()


# ---------------------------------------------------------------------------
# Well-formedness (after shrinking): every use is in scope, every function
# ends in a return.


def param_scope(params):
    return {n: scope_type(t) for n, t in params}


def check_program(p):
    for i, h in enumerate(p.helpers):
        if h is None:
            continue
        if h.ret == "void":
            if not check_stmts(p, h.body, [param_scope(h.params)], "void", i, 0) or any(
                    s[0] == "return" for s in walk_stmts(h.body)):
                return False
        elif not check_body(p, h.body, param_scope(h.params), h.ret, i):
            return False
    for i in calls_of(p.body):
        if p.helpers[i] is None:
            return False
    scope = param_scope(p.params)
    if p.method:
        scope.update(dict(p.method["members"] + [("mk", "int")]))
    if p.ret == "void":
        return check_stmts(p, p.body, [scope], "void", None, 0) and not any(
            s[0] == "return" for s in walk_stmts(p.body))
    return check_body(p, p.body, scope, "double", None)


def check_body(p, body, params, ret, self_i):
    if not body or body[-1][0] != "return":
        return False
    return check_stmts(p, body, [dict(params)], ret, self_i, 0)


def lookup(scopes, n):
    for s in reversed(scopes):
        if n in s:
            return s[n]
    return None


def check_stmts(p, ss, scopes, ret, self_i, loops):
    scopes = scopes + [{}]
    for s in ss:
        k = s[0]
        if k == "decl":
            if not check_expr(p, s[3], scopes, self_i) or s[3].t != s[1]:
                return False
            scopes[-1][s[2]] = s[1]
        elif k == "assign":
            tgt = s[1].split(".")[0]
            if lookup(scopes, tgt) is None or not check_expr(p, s[3], scopes, self_i):
                return False
        elif k == "incdec":
            if lookup(scopes, s[1]) is None:
                return False
        elif k == "return":
            if loops or not check_expr(p, s[1], scopes, self_i) or s[1].t != ret:
                return False
        elif k == "if":
            if not check_expr(p, s[1], scopes, self_i):
                return False
            if not check_stmts(p, s[2], scopes, ret, self_i, loops) or not check_stmts(
                    p, s[3], scopes, ret, self_i, loops):
                return False
        elif k in ("break", "continue"):
            if not loops:
                return False
        elif k == "expr":
            if not check_expr(p, s[1], scopes, self_i):
                return False
        elif k == "for":
            names = header_vars(s[2]) - {s[1]}
            if any(lookup(scopes, n) is None for n in names):
                return False
            if not check_stmts(p, s[3], scopes + [{s[1]: "int"}], ret, self_i, loops + 1):
                return False
        elif k in ("while", "dowhile"):
            if not check_stmts(p, s[3], scopes, ret, self_i, loops + 1):
                return False
        elif k == "rfor":
            at = lookup(scopes, s[2])
            mode = s[4] if len(s) > 4 else None
            if mode is None and at in ("vec", "lvec", "carr", "rowvec", "rowarr", "rowstd"):
                vt = "double"
            elif mode == "row" and at in ("mvec", "mstd", "mva"):
                vt = ROW_OF[at]
            elif mode not in (None, "row") and at is not None and elem_struct(at) == mode.split(":")[1] and (
                    at not in ("sarr",) + SOUTS):
                vt = elem_struct(at)
            else:
                return False
            if not check_stmts(p, s[3], scopes + [{s[1]: vt}], ret, self_i, loops + 1):
                return False
        elif k == "rdecl":
            at = lookup(scopes, s[2])
            if at not in MPARAMS or any(lookup(scopes, n) != "int" for n in s[4]):
                return False
            scopes[-1][s[1]] = ROW_OF[at]
        elif k == "dwhile":
            if not check_expr(p, s[3], scopes, self_i):
                return False
            if not check_stmts(p, s[4], scopes, ret, self_i, loops + 1):
                return False
        elif k == "adecl":
            if s[3] is not None and not check_expr(p, s[3], scopes, self_i):
                return False
            if s[1] in ("lvec", "slvec_V3", "slvec_P3", "slvec_OB") and lookup(scopes, "n") != "int":
                return False
            if isinstance(s[4], tuple) and is_slocal(s[1]) and lookup(scopes, s[4][1]) not in (
                    "svec", "slvec_" + s[1].split("_", 1)[1]):
                return False
            if isinstance(s[4], tuple) and not is_slocal(s[1]) and lookup(scopes, s[4][1]) not in ARRAYS:
                return False
            scopes[-1][s[2]] = s[1]
        elif k == "mem":
            if any(lookup(scopes, n) != t for n, t in s[3]) or not check_expr(p, s[2], scopes + [s[4]], self_i):
                return False
            scopes[-1].update(dict(s[5]))
        elif k == "aset":
            at = lookup(scopes, s[4])
            if at is None or not (at in ("lvec", "carr", "outp") + INOUTS + SOUTS + MLOCALS or is_slocal(at)) or (
                    not check_expr(p, s[3], scopes, self_i)):
                return False
            if any(lookup(scopes, n) != "int" for n in s[5]):
                return False
        else:
            raise ValueError(k)
    return True


def header_vars(hdr):
    import re
    return set(re.findall(r"[A-Za-z_]\w*", " ".join(hdr))) - {"static_cast", "int", "size"}


def check_expr(p, x, scopes, self_i):
    if x.k == "var":
        return lookup(scopes, x.v) == x.t
    if x.k == "aref":
        return lookup(scopes, x.v[0]) in ARRAYS and all(lookup(scopes, n) == "int" for n in x.v[2])
    if x.k == "aname":
        at = lookup(scopes, x.v[0])
        return at in ARRAYS + ("outp",) + MPARAMS or (at is not None and elem_struct(at) is not None)
    if x.k == "pread":
        return all(lookup(scopes, n) is not None for n in x.v[1])
    if x.k == "raw":
        return all(lookup(scopes, n) == "int" for n in x.v[1]) and all(
            lookup(scopes, n) is not None for n in (x.v[2] if len(x.v) > 2 else ()))
    if x.k == "selem":
        at = lookup(scopes, x.v[0])
        return at is not None and at not in SOUTS and elem_struct(at) == x.t and all(
            lookup(scopes, n) == "int" for n in x.v[2])
    if x.k in ("mref", "rowname"):
        at = lookup(scopes, x.v[0])
        if x.v[1] is None and at not in ROWS:
            return False
        if x.v[1] is not None and at not in MPARAMS + MLOCALS:
            return False
        return all(lookup(scopes, n) == "int" for n in x.v[2 if x.k == "rowname" else 3])
    if x.k == "hcall":
        i = x.v[0]
        if i >= len(p.helpers) or p.helpers[i] is None:
            return False
        if self_i is not None and i > self_i:
            return False
    return all(check_expr(p, c, scopes, self_i) for c in x.a)


# The memory features live in gen_mem.py (imported last: it uses this module).
import gen_mem  # noqa: E402
import gen_lang  # noqa: E402
