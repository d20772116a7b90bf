"""Memory features of the program generator (see gen.py): "views",
"inplace", "effects", "inout", "alias" and "grow" (with "arrays"; "inplace" uses the
output of "outputs" when there is one).

  inout   the marked function takes an in/out parameter `double* y` or
          `std::vector<double>& y` (length n) whose initial value matters: it
          is read like an input array (also by the other features' reads and
          helpers), and rewritten: normalised in place (s = sum y[i]^2,
          y[i] /= sqrt(1 + s)), advanced in explicit steps that read elements
          the sweep has already updated (y[i] += h * g(y[i], y[n - 1 - i],
          a[i])), element writes, helpers writing it, and with "inplace" the
          in-place updates and scale/axpy helpers (in loops of steps).  An
          in/out pointer is never rewritten inside a while loop (unfad cannot
          copy it there: documented, diagnosed).  The checker (fuzz.py)
          follows the contract: d_y = w_y on entry, the cotangent of y's
          initial value on return, y left as f leaves it.
  alias   helpers writing one array argument and reading another, called
          with the same array twice or overlapping views of it: axpy(T + k1,
          T + k2, m, v) (k1 == k2 too: axpy(y, y, n, h)), smooth(T + 1, T,
          n - 1, v) / smooth(T, T + 1, n - 2, v) (reads u[0..m], writes
          o[0..m)), and views passed to helpers that write through them in
          loops over rows (scale(T + i * D, D, v), put(&T[i * D], D, e),
          axpy(T + i * D, T + (R - 1 - i) * D, D, v), a moving `double* o`),
          T a local array, the written output or the in/out parameter.

  grow    a local std::vector filled by push_back in a counted loop (under
          a condition: a data-dependent length; refilled after clear()),
          and an empty local sized and filled by a helper given it by
          reference (`sized(v, a, n, t)`: assign, resize; maybe in a loop,
          at one size every iteration), each read back by index up to
          size(), by range-for or back().

Each construct is one statement of kind "mem": a few lines of C++ text whose
holes @0@, @1@, ... are expressions (so that the probe instruments them and
the shrinker simplifies them):

  ("mem", lines, E("list", ...), uses, locals, defines)
    lines    the text, one string per line (relative indentation included)
    uses     ((name, type), ...) of the enclosing scope the text names
    locals   {name: type} declared inside the text (loop counters, pointer
             locals), visible to the holes
    defines  ((name, type), ...) doubles the text declares for later statements
  E("pread", "double", (), (text, names))   a read through a pointer local,
                                            p[j], *p, *(p + j), a[k++]

Every offset and length is a constant computed from the fixed array length
N (= n) of the program, so a view never leaves its array, whatever the
shrinker removes.  Helpers that take views (dot products, a writer, in-place
scale and axpy) are fixed text, created when first used, appended after the
random helpers (which therefore never call them).
"""

import gen as G

FEATURES = G.MEM_FEATURES


class Block:
    def __init__(self, g):
        self.g = g
        self.lines = []
        self.exprs = []
        self.uses = {}
        self.locals = {}
        self.defines = []

    def x(self, e):
        """A hole for expression e."""
        self.exprs.append(e)
        return f"@{len(self.exprs) - 1}@"

    def use(self, name):
        self.uses[name] = dict(self.g.scope.all())[name]
        return name

    def local(self, kind, t):
        name = self.g.fresh(kind)
        self.locals[name] = t
        return name

    def stmt(self):
        return ("mem", tuple(self.lines), G.E("list", "list", self.exprs), tuple(sorted(self.uses.items())),
                dict(self.locals), tuple(self.defines))


def pread(text, *names):
    return G.E("pread", "double", (), (text, tuple(names)))


def n_len(g):
    return g.size_n


def offset(g, b, k):
    """The text of the constant offset k (maybe as n - m)."""
    N = n_len(g)
    if k < N and g.chance(0.3):
        b.use("n")
        return f"n - {N - k}"
    return str(k)


def view(g, b, a, k, writable=False):
    """A pointer to a[k], spelled in one of the usual ways."""
    t = b.uses.get(a) or dict(g.scope.all())[a]
    b.use(a)
    r = g.rng.random()
    kt = offset(g, b, k)
    if r < 0.3:
        return f"&{a}[{kt}]"
    if k == 0 and r < 0.5:
        return f"{a}.data()" if t in G.VECS else a
    return f"{a}.data() + {kt}" if t in G.VECS else f"{a} + {kt}"


def readable(g):
    """Arrays that may be read: the inputs and local arrays, and the output
    once it has been written whole (feature "inplace")."""
    arrs = g.arrays_in_scope(G.ARRAYS)
    if "inplace" in g.features and g.out_written:
        arrs += g.arrays_in_scope(("outp",))
    return arrs


def writable(g, outputs=True):
    """Arrays that may be written: local arrays, the output, and (feature
    "inout") the in/out parameter (not an in/out pointer in a while loop)."""
    return g.arrays_in_scope(("lvec", "carr") + (("outp",) if outputs and not g.no_out_store() else ())
                             + g.inout_writable())


def factor(g):
    """A factor in [0.5, 1.5]: repeated in loops, it neither overflows nor
    vanishes."""
    return G.bin_("+", G.cst(1.0), G.bin_("*", G.cst(0.5), g.squash(g.dexpr(1))))


def mix(g, reads):
    """An expression of the reads (and maybe of the enclosing scope's values)."""
    e = reads[0]
    for r in reads[1:]:
        e = G.bin_(g.pick("+-*"), e, r)
    r = g.rng.random()
    if r < 0.3:
        e = G.bin_(g.pick("+*"), e, g.dexpr(1))
    elif r < 0.5:
        e = g.squash(e)
    elif r < 0.6:
        e = G.call(g.fn("sin"), e)
    return e


def result(g, b, pad, e_text, avoid=()):
    """Store a value: a new double, or += / -= into a double of the scope."""
    outer = [v for v in g.assignable("double") if v not in avoid]
    if outer and g.chance(0.4):
        s = b.use(g.pick(outer))
        b.lines.append(f"{pad}{s} {g.pick(['+=', '-='])} {e_text};")
        return
    t = g.fresh("double")
    b.lines.append(f"{pad}double {t} = {e_text};")
    b.defines.append((t, "double"))


def accumulator(g, b):
    """A double the block sums into: (name, declared here)."""
    outer = g.assignable("double")
    if outer and g.chance(0.4):
        return b.use(g.pick(outer)), False
    t = g.fresh("double")
    b.lines.append(f"double {t} = {g.pick(['0.0', '0.0', '1.0'])};")
    b.defines.append((t, "double"))
    return t, True


# -- helpers taking views (fixed text) -------------------------------------

HELPERS = {
    # name: (ret, params, variants of (lines, result))
    "dot": ("double", [("u", "arr"), ("v", "arr"), ("m", "int")],
            [["double s = 0.0;", "for (int j = 0; j < m; ++j) {", "  s += u[j] * v[j];", "}"],
             ["double s = 0.0;", "for (int j = 0; j < m; ++j) {", "  s += u[j] * std::tanh(v[j]);", "}"]]),
    "put": ("void", [("o", "outp"), ("m", "int"), ("y", "double")],
            [["for (int j = 0; j < m; ++j) {", "  o[j] = std::sin(y + j) * y;", "}"],
             ["for (int j = 0; j < m; ++j) {", "  o[j] += y / (1.0 + j);", "}"]]),
    "scale": ("void", [("o", "outp"), ("m", "int"), ("y", "double")],
              [["for (int j = 0; j < m; ++j) {", "  o[j] *= y;", "}"],
               ["for (int j = m - 1; j >= 0; --j) {", "  o[j] = o[j] * y + 0.25 * std::sin(o[j]);", "}"]]),
    "axpy": ("void", [("o", "outp"), ("u", "arr"), ("m", "int"), ("y", "double")],
             [["for (int j = 0; j < m; ++j) {", "  o[j] += y * u[j];", "}"],
              ["for (int j = 0; j < m; ++j) {", "  o[j] = o[j] + y * std::sin(u[j]);", "}"]]),
    # (feature "alias") reads u[0..m], writes o[0..m): called on overlapping
    # views of one array, smooth(b + 1, b, n - 1)
    "smooth": ("void", [("o", "outp"), ("u", "arr"), ("m", "int"), ("y", "double")],
               [["for (int j = 0; j < m; ++j) {", "  o[j] = std::sin(u[j]) * y + 0.5 * u[j + 1];", "}"],
                ["for (int j = m - 1; j >= 0; --j) {", "  o[j] = 0.5 * (u[j] + u[j + 1]) + y * o[j];", "}"],
                ["for (int j = 0; j < m; ++j) {", "  o[j] += y * u[j] * u[j + 1];", "}"]]),
    # (feature "grow") sizes the std::vector it is given (a caller's empty
    # local): lowered into the caller, the resize the local's
    "sized": ("void", [("y", "iov"), ("u", "arr"), ("m", "int"), ("t", "double")],
              [["y.assign(m, 0.0);", "for (int j = 0; j < m; ++j) {", "  y[j] = std::sin(u[j]) * t + 0.5 * j;", "}"],
               ["y.resize(m);", "for (int j = 0; j < m; ++j) {", "  y[j] = u[j] * u[j] * t;", "}"],
               # (a clear() then resize(m, t) in a loop changes the size within an iteration: refused)
               ["y.resize(m);", "y.assign(m, t);", "for (int j = 0; j < m; ++j) {", "  y[j] *= std::tanh(u[j]);", "}"]]),
}


def sum_loop(g, b, summand):
    """`for (int i = 0; i < n; ++i) s += <summand(i)>;` into a new
    accumulator (or a double of the scope)."""
    s, _ = accumulator(g, b)
    i = b.local("loop", "int")
    b.use("n")
    b.lines.append(f"for (int {i} = 0; {i} < n; ++{i}) {{")
    b.lines.append(f"  {s} += {summand(i)};")
    b.lines.append("}")


def sum_over_array(g, b, term):
    """A sum_loop over an array of the scope; `term(read)` spells the
    summand from the read `a[i]` (an expression)."""
    a = g.pick(readable(g))
    sum_loop(g, b, lambda i: term(pread(f'{b.use(a)}[{i}]', i)))


def sum_over_buffer(g, b, buf):
    """A sum_loop of `buf[i] * <factor>` over the block's own local vector
    `buf` (not a scope array)."""
    sum_loop(g, b, lambda i: f"{buf}[{i}] * {b.x(factor(g))}")


def helper(g, name):
    """The index of the view helper `name` (created when first used)."""
    if name in g.mem_helpers:
        return g.mem_helpers[name]
    ret, params, variants = HELPERS[name]
    lines = g.pick(variants)
    i = len(g.helpers)
    uses = tuple((n, G.scope_type(t)) for n, t in params)
    defines = (("s", "double"),) if ret == "double" else ()
    body = [("mem", tuple(lines), G.E("list", "list", []), uses, {}, defines)]
    if ret == "double":
        body.append(("return", G.var("s", "double")))
    g.helpers.append(G.Helper(f"{name}{i}", g.pick(["static", "inline", "plain"]), ret, list(params), body))
    g.mem_helpers[name] = i
    return i


def hcall(g, name, args):
    i = helper(g, name)
    return G.E("hcall", g.helpers[i].ret, args, (i, False))


def raw_arr(text, b):
    return G.E("raw", "arr", (), (text, (), tuple(b.uses) + tuple(b.locals)))


# -- views -------------------------------------------------------------------

def v_read(g):
    """const double* p = a + k; t = p[j] ... *p ... *(p + j)"""
    b = Block(g)
    N = n_len(g)
    a = g.pick(readable(g))
    k = g.rng.randrange(N)
    L = N - k
    p = b.local("pv", "ptr")
    b.lines.append(f"const double* {p} = {view(g, b, a, k)};")
    reads = []
    for _ in range(g.rng.randint(1, 3)):
        j = g.rng.randrange(L)
        r = g.rng.randrange(3)
        reads.append(pread(f"{p}[{j}]" if r == 0 else f"*{p}" if r == 1 or j == 0 else f"*({p} + {j})", p))
    result(g, b, "", b.x(mix(g, reads)))
    return b.stmt()


def v_loop(g):
    """A pointer moved through an array in a loop: ++p, p++, p += 1, a
    `p != end` loop, or C's `while (c--) s += *p++ ...`; or an iterator
    over a vector: `for (auto it = ...; it != ...; ++it)`, a reverse
    iterator, `while (it != end) s += *it++ ...`."""
    b = Block(g)
    N = n_len(g)
    a = g.pick(readable(g))
    k = g.rng.randrange(N)
    L = N - k
    s, _ = accumulator(g, b)
    p = b.local("pv", "ptr")
    if g.chance(0.25):
        c = b.local("ix", "int")
        b.lines.append(f"const double* {p} = {view(g, b, a, k)};")
        b.lines.append(f"int {c} = {L};")
        b.lines.append(f"while ({c}--) {{")
        # (read once: `*p++` twice in one expression is unsequenced)
        b.lines.append(f"  {s} += {b.x(G.bin_(g.pick('*+'), pread('*' + p + '++', p), g.dexpr(1)))};")
        b.lines.append("}")
        return b.stmt()
    t = b.uses.get(a) or dict(g.scope.all())[a]
    if t in G.VECS and g.chance(0.35):  # iterators (lib/frontend/iterators.cpp)
        b.use(a)
        kt = offset(g, b, k)
        how = g.rng.randrange(3)
        if how == 0:
            b.lines.append(f"for (auto {p} = std::next({a}.cbegin(), {kt}); {p} != {a}.cbegin() + ({kt} + {L}); ++{p}) {{")
            b.lines.append(f"  {s} += {b.x(mix(g, [pread(g.pick(['*' + p, p + '[0]']), p)]))};")
        elif how == 1:
            b.lines.append(f"for (auto {p} = std::make_reverse_iterator({a}.begin() + ({kt} + {L})); "
                           f"{p} != std::make_reverse_iterator({a}.begin() + {kt}); {p}++) {{")
            b.lines.append(f"  {s} = {s} * 0.5 + {b.x(mix(g, [pread('*' + p, p)]))};")
        else:
            e = b.local("pv", "ptr")
            b.lines.append(f"auto {p} = {a}.begin() + {kt};")
            b.lines.append(f"const auto {e} = {p} + {L};")
            b.lines.append(f"while ({p} != {e}) {{")
            b.lines.append(f"  {s} += {b.x(G.bin_(g.pick('*+'), pread('*' + p + '++', p), g.dexpr(1)))};")
        b.lines.append("}")
        return b.stmt()
    if g.chance(0.3):
        e = b.local("pv", "ptr")
        b.lines.append(f"const double* {e} = {view(g, b, a, k)} + {L};")
        b.lines.append(f"for (const double* {p} = {view(g, b, a, k)}; {p} != {e}; ++{p}) {{")
        b.lines.append(f"  {s} += {b.x(mix(g, [pread('*' + p, p)]))};")
        b.lines.append("}")
        return b.stmt()
    i = b.local("loop", "int")
    b.lines.append(f"const double* {p} = {view(g, b, a, k)};")
    b.lines.append(f"for (int {i} = 0; {i} < {L}; ++{i}) {{")
    reads = [pread(g.pick([f"*{p}", f"{p}[0]"]), p)]
    if g.chance(0.4):
        reads.append(pread(f"{b.use(g.pick(readable(g)))}[{i}]", i))
    b.lines.append(f"  {s} += {b.x(mix(g, reads))};")
    b.lines.append(f"  {g.pick([f'++{p}', f'{p}++', f'{p} += 1'])};")
    b.lines.append("}")
    return b.stmt()


def v_rows(g):
    """Rows of D elements: const double* row = a + i * D (or p += D, p = a +
    i * D), read row[j], or passed to a dot product helper."""
    b = Block(g)
    N = n_len(g)
    a = g.pick(readable(g))
    D = g.rng.randint(1, N)
    R = N // D
    s, _ = accumulator(g, b)
    i = b.local("loop", "int")
    p = b.local("pv", "ptr")
    how = g.rng.randrange(3)
    if how == 1:
        b.lines.append(f"const double* {p} = {view(g, b, a, 0)};")
    b.lines.append(f"for (int {i} = 0; {i} < {R}; ++{i}) {{")
    if how == 0:
        b.lines.append(f"  const double* {p} = {b.use(a)} + {i} * {D};" if dict(g.scope.all())[a] not in
                       G.VECS else f"  const double* {p} = &{b.use(a)}[{i} * {D}];")
    elif how == 2:
        b.lines.insert(len(b.lines) - 1, f"const double* {p} = {view(g, b, a, 0)};")
        b.lines.append(f"  {p} = {view(g, b, a, 0)} + {i} * {D};")
    if g.chance(0.5):
        w = g.pick(readable(g))
        k2 = g.rng.randrange(N - D + 1)
        call = hcall(g, "dot", [raw_arr(p, b), raw_arr(view(g, b, w, k2), b), G.E("raw", "int", (), (str(D), ()))])
        e = G.bin_("*", call, g.small(1)) if g.chance(0.3) else call
    else:
        e = mix(g, [pread(f"{p}[{g.rng.randrange(D)}]", p) for _ in range(g.rng.randint(1, 2))])
    b.lines.append(f"  {s} += {b.x(e)};")
    if how == 1:
        b.lines.append(f"  {p} += {D};")
    b.lines.append("}")
    return b.stmt()


def v_write(g):
    """double* o = u + k; o[j] = e; *o += e; *(o + j) -= e; or a helper
    writing o[0..m)."""
    b = Block(g)
    N = n_len(g)
    w = g.pick(writable(g))
    k = g.rng.randrange(N)
    L = N - k
    o = b.local("pv", "ptr")
    b.lines.append(f"double* {o} = {view(g, b, w, k, True)};")
    if g.chance(0.3):
        m = g.rng.randint(1, L)
        call = hcall(g, "put", [raw_arr(o, b), G.E("raw", "int", (), (str(m), ())), g.dexpr(2)])
        b.lines.append(f"{b.x(call)};")
        return b.stmt()
    if g.chance(0.4):  # a moving write pointer
        i = b.local("loop", "int")
        b.lines.append(f"for (int {i} = 0; {i} < {L}; ++{i}) {{")
        reads = [g.dexpr(1)]
        src = [x for x in readable(g) if x != w]
        if src:
            reads.append(pread(f"{b.use(g.pick(src))}[{i}]", i))
        b.lines.append(f"  *{o} {g.pick(['=', '=', '+='])} {b.x(mix(g, reads))};")
        b.lines.append(f"  {g.pick([f'++{o}', f'{o}++'])};")
        b.lines.append("}")
        return b.stmt()
    for _ in range(g.rng.randint(1, 3)):
        j = g.rng.randrange(L)
        lhs = g.pick([f"{o}[{j}]", f"*({o} + {j})"]) if j else f"*{o}"
        op = g.pick(["=", "=", "+=", "-="])
        b.lines.append(f"{lhs} {op} {b.x(g.dexpr_top(2))};")
    return b.stmt()


# -- in-place updates -------------------------------------------------------

def i_outfill(g):
    """for (i) out[i] = e: the output written whole (then it may be read)."""
    b = Block(g)
    i = b.local("loop", "int")
    b.use("out")
    b.use("n")
    reads = [g.dexpr(1)]
    src = readable(g)
    if src:
        reads.append(pread(f"{b.use(g.pick(src))}[{i}]", i))
    b.lines.append(f"for (int {i} = 0; {i} < n; ++{i}) {{")
    b.lines.append(f"  out[{i}] = {b.x(mix(g, reads))};")
    b.lines.append("}")
    g.out_written = True
    return b.stmt()


def targets(g):
    """Arrays to update in place: local arrays, and the output once written."""
    out = g.arrays_in_scope(("outp",)) if g.out_written and not g.no_out_store() else []
    if g.scope.parent is not None and "avoid-inplace-output-nested" in g.features:
        out = []  # test/e2e/cases/fuzz_inplace_output_in_branch.cpp
    return writable(g, outputs=False) + out


def i_update(g):
    """T[i] *= v, T[i] = T[i] * v + e, T[j] += e on a local array or the
    written output; or a step loop y[i] += h * k[i]."""
    b = Block(g)
    N = n_len(g)
    T = b.use(g.pick(targets(g)))
    r = g.rng.random()
    if r < 0.25:
        j = g.rng.randrange(N)
        op = g.pick(["*=", "+=", "="])
        e = factor(g) if op == "*=" else mix(g, [pread(f"{T}[{j}]"), g.dexpr(1)]) if op == "=" else g.dexpr(2)
        b.lines.append(f"{T}[{offset(g, b, j)}] {op} {b.x(e)};")
        return b.stmt()
    i = b.local("loop", "int")
    b.use("n")
    if r < 0.6:
        b.lines.append(f"for (int {i} = 0; {i} < n; ++{i}) {{")
        if g.chance(0.5):
            b.lines.append(f"  {T}[{i}] *= {b.x(factor(g))};")
        else:
            b.lines.append(f"  {T}[{i}] = {T}[{i}] * {b.x(factor(g))} + {b.x(g.dexpr(1))};")
        b.lines.append("}")
        return b.stmt()
    # explicit Euler steps on the state T
    st = b.local("loop", "int")
    kk = g.fresh("lvec")
    b.locals[kk] = "lvec"
    h = g.pick(["0.1", "0.25", "0.5"])
    src = [x for x in readable(g) if x != T]
    b.lines.append(f"std::vector<double> {kk}(n);")
    b.lines.append(f"for (int {st} = 0; {st} < {g.rng.randint(1, 3)}; ++{st}) {{")
    b.lines.append(f"  for (int {i} = 0; {i} < n; ++{i}) {{")
    reads = [pread(f"{T}[{i}]", i)] + ([pread(f"{b.use(g.pick(src))}[{i}]", i)] if src and g.chance(0.6) else [])
    b.lines.append(f"    {kk}[{i}] = {b.x(g.squash(mix(g, reads)))};")
    b.lines.append("  }")
    b.lines.append(f"  for (int {i}b = 0; {i}b < n; ++{i}b) {{")
    b.lines.append(f"    {T}[{i}b] += {h} * {kk}[{i}b];")
    b.lines.append("  }")
    b.lines.append("}")
    return b.stmt()


def i_helper(g):
    """scale(T, n, v) / axpy(T, a, n, v) on a local array or the written
    output, on a view of it, sometimes in a loop of steps."""
    b = Block(g)
    N = n_len(g)
    T = g.pick(targets(g))
    k = g.rng.randrange(N) if g.chance(0.3) else 0
    m = N - k
    tgt = raw_arr(view(g, b, T, k, True), b)
    mt = G.E("raw", "int", (), ("n", ("n",))) if m == N and g.chance(0.5) else G.E("raw", "int", (), (str(m), ()))
    src = [x for x in readable(g) if x != T]
    if src and g.chance(0.5):
        call = hcall(g, "axpy", [tgt, raw_arr(view(g, b, g.pick(src), 0), b), mt, g.small(1)])
    else:
        call = hcall(g, "scale", [tgt, mt, factor(g)])
    if g.chance(0.3):
        st = b.local("loop", "int")
        b.lines.append(f"for (int {st} = 0; {st} < {g.rng.randint(1, 3)}; ++{st}) {{")
        b.lines.append(f"  {b.x(call)};")
        b.lines.append("}")
    else:
        b.lines.append(f"{b.x(call)};")
    return b.stmt()


# -- in/out parameters (feature "inout") -----------------------------------

def inouts(g):
    """The in/out parameter, if it may be written here."""
    return g.arrays_in_scope(g.inout_writable())


def io_normalise(g):
    """s = sum y[i]^2; z = sqrt(1 + s); y[i] /= z (or y[i] = y[i] / z * e):
    the state read whole, then rewritten from what was read."""
    b = Block(g)
    Y = b.use(g.pick(inouts(g)))
    b.use("n")
    s, z = g.fresh("double"), g.fresh("double")
    i, j = b.local("loop", "int"), b.local("loop", "int")
    b.lines.append(f"double {s} = 0.0;")
    b.lines.append(f"for (int {i} = 0; {i} < n; ++{i}) {{")
    b.lines.append(f"  {s} += {Y}[{i}] * {b.x(pread(f'{Y}[{i}]', i))};")
    b.lines.append("}")
    b.lines.append(f"const double {z} = std::sqrt(1.0 + {s});")
    b.defines += [(s, "double"), (z, "double")]
    b.lines.append(f"for (int {j} = 0; {j} < n; ++{j}) {{")
    if g.chance(0.5):
        b.lines.append(f"  {Y}[{j}] /= {z};")
    else:
        b.lines.append(f"  {Y}[{j}] = {Y}[{j}] / {z} * {b.x(factor(g))};")
    b.lines.append("}")
    return b.stmt()


def io_steps(g):
    """Explicit steps on the state: y[i] += h * f(y[i], y[n - 1 - i], a[i]),
    reading elements the same sweep has already updated (or not yet)."""
    b = Block(g)
    Y = b.use(g.pick(inouts(g)))
    b.use("n")
    st, i = b.local("loop", "int"), b.local("loop", "int")
    h = g.pick(["0.1", "0.25", "0.5"])
    reads = [pread(f"{Y}[{i}]", i)]
    if g.chance(0.6):
        reads.append(pread(f"{Y}[n - 1 - {i}]", i))
    src = [x for x in readable(g) if x != Y]
    if src and g.chance(0.5):
        reads.append(pread(f"{b.use(g.pick(src))}[{i}]", i))
    g.rng.shuffle(reads)
    b.lines.append(f"for (int {st} = 0; {st} < {g.rng.randint(1, 3)}; ++{st}) {{")
    b.lines.append(f"  for (int {i} = 0; {i} < n; ++{i}) {{")
    b.lines.append(f"    {Y}[{i}] {g.pick(['+=', '-='])} {h} * {b.x(g.squash(mix(g, reads)))};")
    b.lines.append("  }")
    b.lines.append("}")
    return b.stmt()


# -- aliasing helper calls (feature "alias") -------------------------------

def a_self(g):
    """axpy(T + k1, T + k2, m, v): a helper writing one view and reading
    another of the same array (the same view too: axpy(y, y, n, h)),
    sometimes in a loop of steps."""
    b = Block(g)
    N = n_len(g)
    T = g.pick(targets(g))
    k1 = g.rng.randrange(N) if g.chance(0.5) else 0
    k2 = k1 if g.chance(0.3) else g.rng.randrange(N)
    m = N - max(k1, k2)
    call = hcall(g, "axpy", [raw_arr(view(g, b, T, k1, True), b), raw_arr(view(g, b, T, k2), b),
                             G.E("raw", "int", (), (str(m), ())), g.small(1)])
    steps(g, b, call)
    return b.stmt()


def a_smooth(g):
    """smooth(T + ko, T + ku, m, v): reads T[ku .. ku + m], writes
    T[ko .. ko + m): overlapping views (smooth(b + 1, b, n - 1) and
    smooth(b, b + 1, n - 2))."""
    b = Block(g)
    N = n_len(g)
    T = g.pick(targets(g))
    ko, ku = g.pick([(1, 0), (0, 1), (0, 0), (g.rng.randrange(N), g.rng.randrange(N))])
    ko, ku = min(ko, N - 1), min(ku, N - 1)
    m = max(0, min(N - ko, N - 1 - ku))
    if m == N - 1 and g.chance(0.5):
        b.use("n")
        mt = G.E("raw", "int", (), ("n - 1", ("n",)))
    else:
        mt = G.E("raw", "int", (), (str(m), ()))
    call = hcall(g, "smooth", [raw_arr(view(g, b, T, ko, True), b), raw_arr(view(g, b, T, ku), b), mt,
                               g.small(1)])
    steps(g, b, call)
    return b.stmt()


def steps(g, b, call):
    """The call, or the call in a loop of 1..3 steps."""
    if g.chance(0.3) and not nested_avoided(g):
        st = b.local("loop", "int")
        b.lines.append(f"for (int {st} = 0; {st} < {g.rng.randint(1, 3)}; ++{st}) {{")
        b.lines.append(f"  {b.x(call)};")
        b.lines.append("}")
    else:
        b.lines.append(f"{b.x(call)};")


def nested_avoided(g):
    """avoid-helper-loop-nested: no loops of writing helper calls inside an if
    or a loop (test/e2e/cases/fuzz_view_helper_loop_in_branch.cpp)."""
    return g.scope.parent is not None and "avoid-helper-loop-nested" in g.features


def a_rows(g):
    """Views passed to helpers that write through them, in a loop over rows
    of D elements: scale(T + i * D, D, v), put(&T[i * D], D, e), axpy(T + i
    * D, a + j * D, D, v) (a row of T itself too), or a moving pointer
    `double* o = T; ... o += D;`."""
    b = Block(g)
    N = n_len(g)
    T = g.pick(targets(g))
    D = g.rng.randint(1, N)
    R = N // D
    i = b.local("loop", "int")
    moving = g.chance(0.3)
    vec = dict(g.scope.all())[T] in G.VECS
    b.use(T)
    if moving:
        o = b.local("pv", "ptr")
        b.lines.append(f"double* {o} = {view(g, b, T, 0, True)};")
        row = o
    else:
        row = f"&{T}[{i} * {D}]" if vec or g.chance(0.3) else f"{T} + {i} * {D}"
    b.lines.append(f"for (int {i} = 0; {i} < {R}; ++{i}) {{")
    r = g.rng.random()
    Dt = G.E("raw", "int", (), (str(D), ()))
    if r < 0.35:
        call = hcall(g, "scale", [raw_arr(row, b), Dt, factor(g)])
    elif r < 0.6:
        call = hcall(g, "put", [raw_arr(row, b), Dt, g.dexpr(1)])
    else:
        src = g.pick(readable(g))
        j = g.pick([i, f"{R - 1} - {i}"]) if src == T or g.chance(0.5) else i
        sv = dict(g.scope.all())[src] in G.VECS
        b.use(src)
        srow = f"&{src}[({j}) * {D}]" if sv else f"{src} + ({j}) * {D}"
        call = hcall(g, "axpy", [raw_arr(row, b), raw_arr(srow, b), Dt, g.small(1)])
    b.lines.append(f"  {b.x(call)};")
    if moving:
        b.lines.append(f"  {row} += {D};")
    b.lines.append("}")
    return b.stmt()


# -- side effects inside expressions ---------------------------------------

def e_postinc(g):
    """s += a[k++] * e, in a for or a while loop."""
    b = Block(g)
    N = n_len(g)
    a = b.use(g.pick(readable(g)))
    s, _ = accumulator(g, b)
    k = b.local("ix", "int")
    start = g.rng.randrange(N)
    b.lines.append(f"int {k} = {start};")
    rd = pread(f"{a}[{k}++]", k)
    if g.chance(0.5):
        b.use("n")
        b.lines.append(f"while ({k} < n) {{")
    else:
        i = b.local("loop", "int")
        b.lines.append(f"for (int {i} = {start}; {i} < {N}; ++{i}) {{")
    b.lines.append(f"  {s} += {b.x(G.bin_(g.pick('*+'), rd, g.dexpr(1)))};")
    b.lines.append("}")
    return b.stmt()


def names_in(e):
    return {x.v for x in G.walk_expr(e) if x.k == "var"}


def e_chain(g):
    """x = y = e: two doubles, a double and an element, or elements of two
    different arrays."""
    b = Block(g)
    e = g.dexpr_top(2)
    used = names_in(e)
    outer = [v for v in g.assignable("double") if v not in used]
    ws = writable(g, outputs=False)
    names = []
    if ws and g.chance(0.4):
        for u in g.rng.sample(ws, min(2, len(ws))):
            names.append(f"{b.use(u)}[{offset(g, b, g.rng.randrange(n_len(g)))}]")
    while len(names) < 2:
        if outer and g.chance(0.5):
            v = g.pick(outer)
            outer.remove(v)
            names.append(b.use(v))
        else:
            t = g.fresh("double")
            b.lines.append(f"double {t} = 0.0;")
            b.defines.append((t, "double"))
            names.append(t)
    g.rng.shuffle(names)
    b.lines.append(f"{names[0]} = {names[1]} = {b.x(e)};")
    return b.stmt()


def e_compound(g):
    """(s += v) * c, s += (t = e), (u += e, u * c): compound assignments and
    commas as values."""
    b = Block(g)
    r = g.rng.randrange(3)
    e1, e2 = g.dexpr(2), g.dexpr(1)
    free = [v for v in g.assignable("double") if v not in names_in(e1) | names_in(e2)]
    if free and g.chance(0.6):
        s = b.use(g.pick(free))
    else:
        s = g.fresh("double")
        b.lines.append(f"double {s} = {g.pick(['0.0', '0.5'])};")
        b.defines.append((s, "double"))
    if r == 0:
        result(g, b, "", f"({s} {g.pick(['+=', '-='])} {b.x(e1)}) * {b.x(e2)}", avoid=(s,))
    elif r == 1:
        t = g.fresh("double")
        b.lines.append(f"double {t} = 0.0;")
        b.defines.append((t, "double"))
        b.lines.append(f"{s} += ({t} = {b.x(e1)}) * {b.x(e2)};")
    else:
        result(g, b, "", f"({s} += {b.x(e1)}, {s} * {b.x(e2)})", avoid=(s,))
    return b.stmt()


def e_comma_for(g):
    """for (int i = 0, j = n - 1; i < n; ++i, --j) s += a[i] * b[j];"""
    b = Block(g)
    s, _ = accumulator(g, b)
    a1, a2 = b.use(g.pick(readable(g))), b.use(g.pick(readable(g)))
    i, j = b.local("loop", "int"), b.local("loop", "int")
    b.use("n")
    b.lines.append(f"for (int {i} = 0, {j} = n - 1; {i} < n; ++{i}, --{j}) {{")
    b.lines.append(f"  {s} += {b.x(mix(g, [pread(f'{a1}[{i}]', i), pread(f'{a2}[{j}]', j)]))};")
    b.lines.append("}")
    return b.stmt()


def e_ifinit(g):
    """if (double t = e; t > c) { s += t...; } else { ... }"""
    b = Block(g)
    t = b.local("double", "double")
    e = g.dexpr_top(2)
    cond = G.E("cmp", "bool", (G.var(t, "double"), G.cst(g.pick([0.0, 0.5, -0.25]))), g.pick(["<", ">"]))
    s, _ = accumulator(g, b)
    b.lines.append(f"if (double {t} = {b.x(e)}; {b.x(cond)}) {{")
    b.lines.append(f"  {s} += {b.x(G.bin_('*', G.var(t, 'double'), g.dexpr(1)))};")
    b.lines.append("} else {")
    b.lines.append(f"  {s} -= {b.x(g.squash(G.var(t, 'double')))};")
    b.lines.append("}")
    return b.stmt()


def e_conditional(g):
    """Side effects run only when chosen: `if (c && (u += e) > k)`, a `?:`
    whose branch assigns (`c ? (u += e, u * k) : e2`), `if (c || ++n > 1)`
    with an int counter."""
    b = Block(g)
    e1, e2 = g.dexpr(2), g.dexpr(1)
    c = G.E("cmp", "bool", (g.dexpr(1), G.cst(g.pick([0.0, 0.5, -0.25]))), g.pick(["<", ">"]))
    u = b.local("double", "double")
    b.lines.append(f"double {u} = {g.pick(['0.0', '0.5'])};")
    r = g.rng.randrange(3)
    if r == 0:
        s, _ = accumulator(g, b)
        b.lines.append(f"if ({b.x(c)} && ({u} += {b.x(e1)}) > {g.pick(['0.0', '0.75'])}) {s} += {u} * {b.x(e2)};")
    elif r == 1:
        result(g, b, "", f"({b.x(c)} ? ({u} += {b.x(e1)}, {u} * {g.pick(['0.5', '2.0'])}) : {b.x(e2)})", avoid=(u,))
    else:
        s, _ = accumulator(g, b)
        n = b.local("int", "int")
        b.lines.append(f"int {n} = 0;")
        b.lines.append(f"if ({b.x(c)} || ++{n} > 1) {s} += {b.x(e1)} * ({n} + 1);")
        b.lines.append(f"if ({b.x(c)} || ({u} = {b.x(e2)}) > 0.0) {s} -= {u};")
    return b.stmt()


# -- grow: local std::vectors filled with push_back ---------------------------

def read_back(g, b, s, v):
    """Sum the local std::vector v into s: by index up to size(), by
    range-for, or its back() (when it is not empty)."""
    how = g.rng.randrange(3)
    if how == 0:
        j = b.local("loop", "int")
        b.lines.append(f"for (int {j} = 0; {j} < int({v}.size()); ++{j}) {{")
        b.lines.append(f"  {s} += {b.x(mix(g, [pread(f'{v}[{j}]', j)]))};")
        b.lines.append("}")
    elif how == 1:
        e = b.local("double", "double")
        b.lines.append(f"for (double {e} : {v}) {{")
        b.lines.append(f"  {s} += {b.x(mix(g, [G.var(e, 'double')]))};")
        b.lines.append("}")
    else:
        b.lines.append(f"if (!{v}.empty()) {{")
        b.lines.append(f"  {s} += {b.x(mix(g, [pread(f'{v}.back()')]))};")
        b.lines.append("}")


def g_push(g):
    """A local std::vector filled by push_back in a counted loop (each push
    maybe under a condition: a data-dependent length), maybe refilled after
    a clear(), then read back by index up to size(), by range-for, or back()."""
    b = Block(g)
    N = n_len(g)
    a = b.use(g.pick(readable(g)))
    s, _ = accumulator(g, b)
    v = g.fresh("gv")
    i = b.local("loop", "int")
    b.lines.append(f"std::vector<double> {v};")
    if g.chance(0.3):
        b.lines.append(f"{v}.reserve({N});")
    rounds = 2 if g.chance(0.25) else 1
    for r in range(rounds):
        if r:
            b.lines.append(f"{v}.clear();")
        b.lines.append(f"for (int {i} = 0; {i} < {N}; ++{i}) {{")
        push = f"{v}.push_back({b.x(mix(g, [pread(f'{a}[{i}]', i)]))});"
        if g.chance(0.5):
            cond = G.E("cmp", "bool", (pread(f"{a}[{i}]", i), G.cst(g.pick([0.0, 0.5, -0.25]))), g.pick(["<", ">"]))
            b.lines.append(f"  if ({b.x(cond)}) {push}")
        else:
            b.lines.append(f"  {push}")
        b.lines.append("}")
    read_back(g, b, s, v)
    return b.stmt()


def g_sized(g):
    """An empty local std::vector sized and filled by a helper given it by
    reference (maybe in a counted loop, every iteration at the same size),
    then read back (read_back)."""
    b = Block(g)
    N = n_len(g)
    a = b.use(g.pick(readable(g)))
    s, _ = accumulator(g, b)
    v = b.local("gv", "lvec")
    b.lines.append(f"std::vector<double> {v};")
    call = b.x(hcall(g, "sized", [G.E("raw", "iov", (), (v, (), (v,))), raw_arr(view(g, b, a, 0), b),
                                  G.E("raw", "int", (), (str(N), ())), mix(g, [pread(f"{a}[0]")])])) + ";"
    if g.chance(0.5):
        i = b.local("loop", "int")
        b.lines.append(f"for (int {i} = 0; {i} < {g.rng.randint(1, 3)}; ++{i}) {{")
        b.lines.append(f"  {call}")
        b.lines.append(f"  {s} += {v}[{i} % {N}];")
        b.lines.append("}")
    else:
        b.lines.append(call)
    read_back(g, b, s, v)
    return b.stmt()


STMTS = {"g_push": g_push, "g_sized": g_sized, "v_read": v_read, "v_loop": v_loop, "v_rows": v_rows, "v_write": v_write,
         "i_outfill": i_outfill, "i_update": i_update, "i_helper": i_helper,
         "e_postinc": e_postinc, "e_chain": e_chain, "e_compound": e_compound, "e_comma_for": e_comma_for,
         "e_ifinit": e_ifinit, "e_conditional": e_conditional, "io_normalise": io_normalise, "io_steps": io_steps, "a_self": a_self,
         "a_smooth": a_smooth, "a_rows": a_rows}


def options(g):
    """The memory statements possible here (weighted), as "mem:<name>"."""
    if not (g.in_main and g.has_arrays and g.n_in_scope()):
        return []
    opts = []
    rd = bool(readable(g))
    if "views" in g.features:
        if rd:
            opts += ["v_read"] * 3 + ["v_loop"] * 2 + ["v_rows"] * 2
        if writable(g):
            opts += ["v_write"] * 3
    if "inplace" in g.features:
        if g.arrays_in_scope(("outp",)) and not g.out_written and g.loop_depth == 0 and g.scope.parent is None:
            opts += ["i_outfill"] * 4
        if targets(g):
            opts += ["i_update"] * 3 + ["i_helper"] * 3
    if "grow" in g.features and rd:
        opts += ["g_push"] * 3 + ["g_sized"] * 2
    if "effects" in g.features:
        opts += ["e_chain", "e_compound", "e_compound", "e_ifinit", "e_ifinit", "e_conditional", "e_conditional"]
        if rd:
            opts += ["e_postinc"] * 2 + ["e_comma_for"]
    if "inout" in g.features and inouts(g):
        opts += ["io_normalise"] * 2 + ["io_steps"] * 3
    if "alias" in g.features and targets(g):
        opts += ["a_self"] * 3 + ["a_smooth"] * 3 + ([] if nested_avoided(g) else ["a_rows"] * 3)
    return ["mem:" + o for o in opts]
