"""Memory features of the program generator (see gen.py): "views",
"inplace", "effects" and "grow" (with "arrays"; "inplace" uses the output of
"outputs" when there is one).

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
        return f"{a}.data()" if t in ("vec", "lvec") else a
    return f"{a}.data() + {kt}" if t in ("vec", "lvec") else f"{a} + {kt}"


def readable(g):
    """Arrays that may be read: the inputs and local arrays, and the output
    once it has been written whole (feature "inplace")."""
    arrs = g.arrays_in_scope(G.ARRAYS)
    if "inplace" in g.features and g.out_written:
        arrs += g.arrays_in_scope(("outp",))
    return arrs


def writable(g, outputs=True):
    return g.arrays_in_scope(("lvec", "carr") + (("outp",) if outputs and not g.no_out_store() else ()))


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
}


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
    """A pointer moved through an array in a loop: ++p, p++, p += 1, or a
    `p != end` loop."""
    b = Block(g)
    N = n_len(g)
    a = g.pick(readable(g))
    k = g.rng.randrange(N)
    L = N - k
    s, _ = accumulator(g, b)
    p = b.local("pv", "ptr")
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
        b.lines.append(f"  const double* {p} = {b.use(a)} + {i} * {D};" if dict(g.scope.all())[a] not in (
            "vec", "lvec") else f"  const double* {p} = &{b.use(a)}[{i} * {D}];")
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


# -- grow: local std::vectors filled with push_back ---------------------------

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
    return b.stmt()


STMTS = {"g_push": g_push, "v_read": v_read, "v_loop": v_loop, "v_rows": v_rows, "v_write": v_write,
         "i_outfill": i_outfill, "i_update": i_update, "i_helper": i_helper,
         "e_postinc": e_postinc, "e_chain": e_chain, "e_compound": e_compound, "e_comma_for": e_comma_for,
         "e_ifinit": e_ifinit}


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
        opts += ["g_push"] * 3
    if "effects" in g.features:
        opts += ["e_chain", "e_compound", "e_compound", "e_ifinit", "e_ifinit"]
        if rd:
            opts += ["e_postinc"] * 2 + ["e_comma_for"]
    return ["mem:" + o for o in opts]
