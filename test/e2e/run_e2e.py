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
  points        argument lists (every parameter, passive ones included); array
                parameters take JSON lists: "points": [[[1, 2, 3], 3, 0.5]] for
                f(const double* x, int n, double k). An array of structs takes
                a list of lists, one inner list per element with its fields in
                declaration order: [[1, 2, 3], [4, 5, 6]] for two Vec3 {x, y, z};
                an array of arrays takes its rows: [[1, 2, 3], [4]] (rows of a
                std::vector<std::vector<double>> may differ in length). Output
                parameters are left out (or given as null); in/out
                parameters (below) are given their initial value.
  outputs       {"out": 3}: parameters f writes through (double* out,
                std::vector<double>& out, Vec3* out, std::vector<Vec3>& out,
                ...) and their lengths in elements (numbers or structs); the
                driver allocates them (zeroed). With outputs the harness checks
                the vector-Jacobian product: for fixed random weights w, one per
                scalar (per field of an array of structs) in memory order
                (fixed seed; w_<name> in formulas, shaped like the output: a
                list, or a list of lists for structs) it differentiates
                phi = f's return value (0 for void) + sum_k w_k out[k]
                and calls f_grad with d_out = w (fresh for every call).
  inouts        {"y": 3}: parameters f reads and then writes (an in/out state
                advanced in place: double* y, std::vector<double>& y,
                std::array<double, 3>& y, double y[], double (&y)[3], Vec3* y,
                ...; double or float) and their lengths in elements. The
                points give their initial value y0; every call of f or f_grad
                gets a fresh copy of it. With fixed random weights w_y (drawn
                after the outputs' ones, same seed and shapes) the harness
                differentiates
                phi(x, y0) = f's value + sum_k w_out_k out[k] + sum_k w_y_k y_final[k]
                and calls f_grad with d_y = w_y: on return d_y must hold
                d phi / d y0 (the contract's in/out convention: the cotangent
                of y's initial value replaces that of its final value; it is
                not added to it). y is an active input for the checks: its
                partials (w.r.t. y0) are checked against finite differences
                (y0 perturbed) and take their place among the active inputs,
                in parameter order, in "grad" and grad_formula (whose
                formulas see y as y0 and w_y as the weights). f_grad must
                leave y as f leaves it; a second call (y reset to y0, d_y =
                w_y again, the input adjoints non-zero) must give the same d_y.
                Like an output, an in/out parameter always has an adjoint,
                even when UNFAD_GRADIENT_WRT leaves it out.
  expect        hand-derived results: {"at": args, "value": v, "grad": [...], "tol": 1e-4}
                ("grad" lists the partials of the active input parameters, in
                order; a list for an array parameter, a list of lists for an
                array of structs or of arrays)
  value_formula / grad_formula
                Python expressions in the parameter names (math.* in scope;
                arrays are lists, arrays of structs and of arrays lists of
                lists; sum, range, len too), checked at every point; an array
                parameter's formula gives a list (of lists, shaped like the
                parameter's value, for an array of structs or of arrays);
                value_formula must match f to 1e-9 relative (1e-5 for float)
  fd            false: no finite-difference check (points at kinks, checked
                against "expect" only)
  throws        [{"at": args, "what": "message"}]: argument lists where f
                throws a std::exception whose what() is "message". f_grad
                must throw it too, with the input adjoints it was given
                (zeroed) left untouched
  rtol, atol    finite-difference tolerances (defaults 1e-6 and 1e-7*max(1,|f|);
                float functions 1e-4 and 1e-5*max(1,|f|))
Top-level keys (in the first object) also allowed:
  compilers     subset of ["g++", "clang++"] (default both)
  flags         extra compiler flags
  unfad_flags   extra unfad options (before `--`), e.g. ["--numerical-fallback"]

For each case the harness, in a temporary directory:
  1. runs `unfad` (stdout mode): must exit 0, leave the file unchanged and
     print something else than the file, holding an `// unfad:begin <f>_grad`
     ... `// unfad:end <f>_grad` block per function,
  2. writes that into the file and runs `unfad -i`: exit 0 and the file must
     be byte-identical (idempotence: what `--check` accepts). That `-i` on the
     unprocessed file writes what stdout mode prints, and `--check`'s exit
     codes, are one code path for every case: test/lit/golden/rewrite.test,
  3. compiles the file plus a generated driver with g++ and clang++-19
     (-std=c++17 -Wall -Wextra -Werror; g++ -O1, clang++ -O0), runs it, and compares f_grad's value
     with f's, every partial derivative (every element of every active input
     array) with 4-point central finite differences of phi
     (phi(x-2h) - 8phi(x-h) + 8phi(x+h) - phi(x+2h))/(12h), h ~ 1e-3*max(1,|x|)
     rounded to a power of two, and with the spec's hand-derived values. It
     also checks that f_grad performs f's writes (outputs and in/out
     parameters equal f's), leaves the input arrays unchanged, and adds into
     the input adjoints (a second call with non-zero adjoints must end at
     start + partial; an in/out adjoint must end as in the first call).

Parameters understood: scalars (double, float, integers, bool), `const double*`
/ `double*`, `const double x[]` / `x[N]`, `const double (&x)[N]`,
`(const) std::vector<T>&`, `(const) std::array<T, N>&` (T double, float or an
integer type: integer arrays are passive), `double& out` (an output of one
element: "outputs": {"out": 1}). Adjoints passed to f_grad: `&d_x`
for a scalar, a C array for pointers, C arrays and `double&`, a std::vector /
std::array for those.

Arrays of structs: the same array forms with T = S, a struct declared in the
case file whose fields are all double or all float (a simple `struct S { double
a, b; double c; };`, default member initialisers allowed, or a class with
public data members: its member functions are skipped); it must be nameable
as written from the driver, i.e. at global scope or written qualified):
`const std::vector<S>&` (adjoint `std::vector<S>& d_x`, same size, zeroed),
`const S*` with a size parameter, `const S x[]`, `const S x[N]`, `const S
(&x)[N]` (adjoint `S* d_x`: the driver passes a local `S d_x[n]`), `const
std::array<S, N>&` (adjoint `std::array<S, N>& d_x`); outputs and in/out `S* out`,
`std::vector<S>& out`, `std::array<S, N>& out`. The driver reaches field j of
element i as x[i].<j-th field> and static_asserts that S has no padding.

Arrays of arrays (inputs only), T double or float: `const
std::vector<std::vector<T>>&` (adjoint `std::vector<std::vector<T>>& d_A` of the
same, possibly ragged, shape), `const std::array<std::array<T, C>, R>&` (adjoint
`std::array<std::array<T, C>, R>& d_A`), `const std::vector<std::array<T, C>>&`,
`const T A[R][C]`, `const T A[][C]` / `const T (*A)[C]` (with a row count
parameter) and `const T (&A)[R][C]` (for all C forms the driver passes a local
`T d_A[R][C]`, so f_grad's adjoint parameter is `T (*d_A)[C]`). Element (i, j)
is A[i][j].

Usage:
  run_e2e.py [--unfad PATH] [--include DIR] [--keep] [--compilers g++] CASE.cpp...
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


MARK_HEAD_RE = re.compile(
    r"\bUNFAD_GRADIENT(?:_WRT\s*\(([^)]*)\))?\s+"  # mark, optional WRT list
    r"((?:(?:static|inline|constexpr)\s+)*)"  # specifiers
    r"([A-Za-z_][\w:]*)\s+"  # return type
    r"([A-Za-z_]\w*)\s*\(",  # name(
)


class Mark:
    """One marked function definition found in (comment-free) code."""

    def __init__(self, wrt_text, specifiers, ret, name, params_text, start, body_start):
        self.wrt_text = wrt_text
        self.specifiers = specifiers
        self.ret = ret
        self.name = name
        self.params_text = params_text
        self.start = start
        self.body_start = body_start  # index just after the opening '{'


def find_marks(code):
    """Marked function definitions in code (comments already blanked out).
    Parameter lists may hold parentheses (`const double (&x)[3]`) and
    template arguments with commas (`std::array<double, 3>`)."""
    out = []
    for m in MARK_HEAD_RE.finditer(code):
        i, depth = m.end(), 1
        while i < len(code) and depth:
            depth += {"(": 1, ")": -1}.get(code[i], 0)
            i += 1
        if depth:
            continue
        params_text = code[m.end(): i - 1]
        n = re.match(r"\s*(?:noexcept\s*)?\{", code[i:])
        if not n:
            continue  # a declaration, not a definition
        wrt_text, spec, ret, name = m.groups()
        out.append(Mark(wrt_text, spec, ret, name, params_text, m.start(), i + n.end()))
    return out


def split_params(text):
    """Split a parameter list at top-level commas (not inside <>, (), [])."""
    parts, depth, cur = [], 0, ""
    for ch in text:
        if ch in "<([":
            depth += 1
        elif ch in ">)]":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    parts.append(cur)
    return [p for p in parts if p.strip()]


FLOATING = ("double", "float")
VECTOR_RE = re.compile(r"^(?:std\s*::\s*)?vector\s*<\s*([\w:\s]+?)\s*>$")
ARRAY_RE = re.compile(r"^(?:std\s*::\s*)?array\s*<\s*([\w:\s]+?)\s*,\s*([\w:]+)\s*>$")


def strip_qualifiers(t):
    t = re.sub(r"\b(const|volatile|__restrict__|__restrict|restrict)\b", " ", t)
    return " ".join(t.split())


def parse_template(t):
    """("vector", elem, None) for std::vector<elem>, ("array", elem, N) for
    std::array<elem, N> (N a string), else None. elem may itself hold template
    arguments (std::vector<std::vector<double>>)."""
    m = re.match(r"^(?:std\s*::\s*)?(vector|array)\s*<(.*)>$", t)
    if not m:
        return None
    kind, inner = m.group(1), m.group(2)
    if kind == "vector":
        return ("vector", inner.strip(), None)
    parts = split_params(inner)
    if len(parts) != 2:
        return None
    return ("array", parts[0].strip(), parts[1].strip())


class Struct:
    """A simple struct read from the case file: `struct Name { double a, b; double c; };`
    (no nested braces). problem says why it cannot be an array element."""

    def __init__(self, name, body):
        self.name = name
        self.fields = []  # member names in declaration order
        self.ftype = None
        self.problem = None
        types = set()
        for decl in body.split(";"):
            decl = re.sub(r"^\s*(?:(?:public|private|protected)\s*:\s*)+", "", decl)
            decl = " ".join(decl.split())
            if not decl:
                continue
            if re.match(r"^(static|using|typedef|friend|enum|template)\b", decl) or "(" in decl:
                if not decl.startswith("static"):
                    self.problem = self.problem or f"member '{decl}' is not a plain field"
                continue
            pieces = split_params(decl)
            first = re.sub(r"\s*=.*$", "", pieces[0].strip())
            m = re.match(r"^(.*\S)\s+([A-Za-z_]\w*)$", first)
            if not m:
                self.problem = self.problem or f"cannot read the member declaration '{decl}'"
                continue
            types.add(strip_qualifiers(m.group(1)))
            self.fields.append(m.group(2))
            for piece in pieces[1:]:
                piece = re.sub(r"\s*=.*$", "", piece.strip())
                if not re.match(r"^[A-Za-z_]\w*$", piece):
                    self.problem = self.problem or f"cannot read the member declaration '{decl}'"
                    continue
                self.fields.append(piece)
        if not self.fields:
            self.problem = self.problem or "it has no fields"
        elif len(types) != 1 or next(iter(types)) not in FLOATING:
            self.problem = self.problem or (
                f"its fields must all be double or all float (got {', '.join(sorted(types))})"
            )
        else:
            self.ftype = next(iter(types))


STRUCT_RE = re.compile(r"\b(?:struct|class)\s+([A-Za-z_]\w*)\s*(?:final\s*)?\{")


def class_fields(body):
    """The data member declarations of a class body: member functions
    (constructors, methods, operators, with their bodies) left out."""
    out, depth, start = [], 0, 0
    for i, c in enumerate(body):  # drop the bodies
        if c == "{":
            if depth == 0:
                out.append(body[start:i] + ";")
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                start = i + 1
    out.append(body[start:])
    flat = "".join(out)
    return ";".join(d for d in flat.split(";") if "(" not in d or re.match(r"^\s*static\b", d))


def parse_structs(code):
    """{name: Struct} for the simple struct and class definitions in
    (comment-free) code: their data members (public ones; member functions
    are skipped)."""
    structs = {}
    for m in STRUCT_RE.finditer(code):
        depth, i = 1, m.end()
        while i < len(code) and depth:
            depth += {"{": 1, "}": -1}.get(code[i], 0)
            i += 1
        structs[m.group(1)] = Struct(m.group(1), class_fields(code[m.end():i - 1]))
    return structs


BOUND = r"\[\s*([^\]]*?)\s*\]"


class Param:
    """A parameter of a marked function.

    kind:  "scalar"      double x, int n, bool b
           "ptr"         const double* x, double* out, const double (*A)[3]
           "carray"      const double x[], double x[3], const double A[2][3]  (decays to a pointer)
           "carray_ref"  const double (&x)[3], const double (&A)[2][3]
           "vector"      const std::vector<double>& x, std::vector<double>& out
           "array"       const std::array<double, 3>& x
    elem:  "scalar"      the elements are numbers
           "struct"      the elements are structs of floating fields (self.struct)
           "row"         the elements are rows: std::vector<T>, std::array<T, C>
                         or C arrays T[C] (row_kind "vector", "array", "carray")
    base:  the scalar type (of an element, a field, a row's element);
    floating: base is float or double.

    A value (in a point) is a number for a scalar, a list of numbers for a
    flat array, and a list of lists for an array of structs (one inner list of
    field values per element) or of rows. An element index e is None (scalar),
    k (flat) or a pair (i, j): field j of struct i, or A[i][j].
    """

    def __init__(self, text, structs=None):
        text = " ".join(text.split())
        self.text = text
        self.structs = structs or {}
        self.size = None  # fixed length from the type (C array bound, std::array N), if numeric
        self.output = False
        self.inout = False
        self.deref = False  # a scalar passed by non-const reference (see _classify)
        self.active = False
        self.elem = "scalar"
        self.struct = None
        self.row_kind = None
        self.cols = None  # fixed row length (std::array<T, C>, T[C]), if numeric
        self.cols_text = None
        elem_text = None
        m2 = re.match(r"^(.*?)\(\s*([&*])\s*(?:const\s+)?([A-Za-z_]\w*)\s*\)\s*" + BOUND + r"\s*" + BOUND + "$",
                      text)
        m1 = re.match(r"^(.*?)\(\s*([&*])\s*(?:const\s+)?([A-Za-z_]\w*)\s*\)\s*" + BOUND + "$", text)
        c2 = re.match(r"^(.*?)([A-Za-z_]\w*)\s*" + BOUND + r"\s*" + BOUND + "$", text)
        c1 = re.match(r"^(.*?)([A-Za-z_]\w*)\s*" + BOUND + "$", text)
        if m2 and m2.group(2) == "&":
            # const double (&A)[R][C]
            self.kind = "carray_ref"
            self.type, self.name = m2.group(1).strip(), m2.group(3)
            self._rows_of_carray(m2.group(4), m2.group(5))
        elif m1 and m1.group(2) == "&":
            self.kind = "carray_ref"
            self.type, self.name, bound = m1.group(1).strip(), m1.group(3), m1.group(4)
            elem_text = self.type
            self.size = int(bound) if bound.isdigit() else None
        elif m1 and m1.group(2) == "*":
            # const double (*A)[C]: a pointer to rows
            self.kind = "ptr"
            self.type, self.name = m1.group(1).strip(), m1.group(3)
            self._rows_of_carray(None, m1.group(4))
        elif c2:
            # const double A[R][C]
            self.kind = "carray"
            self.type, self.name = c2.group(1).strip(), c2.group(2)
            self._rows_of_carray(c2.group(3), c2.group(4))
        elif c1:
            self.kind = "carray"
            self.type, self.name, bound = c1.group(1).strip(), c1.group(2), c1.group(3)
            elem_text = self.type
            self.size = int(bound) if bound.isdigit() else None
        else:
            m = re.match(r"^(.*?)([A-Za-z_]\w*)$", text)
            if not m:
                raise Failure(f"cannot parse parameter '{text}'")
            self.type, self.name = m.group(1).strip(), m.group(2)
            elem_text = self._classify(text)
        if elem_text is not None:
            self._element(elem_text)
        if "*" in self.base or "&" in self.base or "<" in self.base:
            raise Failure(f"parameter '{text}': element type '{self.base}' is not supported")
        self.floating = self.base in FLOATING
        self.nested = self.elem != "scalar"
        if self.elem == "row" and not re.match(r"^[\w:\s]+$", self.base):
            raise Failure(f"parameter '{text}': rows of '{self.base}' are not supported")

    def _rows_of_carray(self, rows, cols):
        """A C array of rows T[C] (rows: the outer bound, None for a pointer)."""
        self.base = strip_qualifiers(self.type)
        self.elem_type = self.base
        if rows is not None and rows.isdigit():
            self.size = int(rows)
        self.elem = "row"
        self.row_kind = "carray"
        self.cols_text = cols
        self.cols = int(cols) if cols.isdigit() else None
        if not cols:
            raise Failure(f"parameter '{self.text}': the row length must be given")

    def _element(self, elem_text):
        """Classify the element type of an array parameter: a number, a struct
        read from the case file, or a row (std::vector<T> / std::array<T, C>)."""
        t = strip_qualifiers(elem_text)
        self.elem_type = t
        tpl = parse_template(t)
        if tpl and self.kind in ("vector", "array"):
            rk, inner, n = tpl
            self.elem = "row"
            self.row_kind = rk
            self.base = strip_qualifiers(inner)
            if rk == "array":
                self.cols_text = n
                self.cols = int(n) if n.isdigit() else None
            if parse_template(self.base):
                raise Failure(f"parameter '{self.text}': arrays of more than two dimensions are not supported")
            return
        key = t.split("::")[-1].strip()
        if key in self.structs:
            st = self.structs[key]
            if st.problem:
                raise Failure(
                    f"parameter '{self.text}': struct {st.name} cannot be an array element "
                    f"for the harness: {st.problem}"
                )
            self.elem = "struct"
            self.struct = st
            self.base = st.ftype
            return
        self.base = t

    def _classify(self, text):
        """Pointers, std::vector, std::array and scalars. Returns the element
        type's text for arrays (None for scalars)."""
        t = self.type
        if t.endswith("*") or re.search(r"\*\s*(const|__restrict__|__restrict|restrict)?\s*$", t):
            self.kind = "ptr"
            inner = re.sub(r"\*\s*(const|__restrict__|__restrict|restrict)?\s*$", "", t)
            if "*" in strip_qualifiers(inner):
                raise Failure(f"parameter '{text}': pointers to pointers are not supported")
            return inner
        by_ref = t.endswith("&")
        core = strip_qualifiers(t[:-1] if by_ref else t)
        self.by_ref = by_ref
        v = VECTOR_RE.match(core)
        a = ARRAY_RE.match(core)
        tpl = parse_template(core)
        if v:
            self.kind = "vector"
            self.decl_type = core
            return v.group(1)
        if a:
            self.kind = "array"
            self.size = int(a.group(2)) if a.group(2).isdigit() else None
            self.decl_type = core
            return a.group(1)
        if tpl:
            kind, inner, n = tpl
            self.kind = kind
            if n is not None:
                self.size = int(n) if n.isdigit() else None
            self.decl_type = core
            return inner
        if by_ref and not re.search(r"\bconst\b", t) and core in FLOATING:
            # double& out: held by the driver as an array of one element,
            # passed as its element; its adjoint is a double*
            self.kind = "ptr"
            self.deref = True
            self.size = 1
            return core
        if by_ref:
            raise Failure(
                f"parameter '{text}': the harness handles scalars by value, pointers, "
                "C arrays, std::vector and std::array"
            )
        self.kind = "scalar"
        self.base = core
        return None

    @property
    def is_array(self):
        return self.kind != "scalar"

    @property
    def nfields(self):
        return len(self.struct.fields) if self.struct else None

    def elems(self, v):
        """The element indices of value v, in memory order."""
        if self.kind == "scalar":
            return [None]
        if self.elem == "struct":
            return [(i, j) for i in range(len(v)) for j in range(self.nfields)]
        if self.elem == "row":
            return [(i, j) for i, row in enumerate(v) for j in range(len(row))]
        return list(range(len(v)))

    def out_elems(self, n):
        """The element indices of an output of n elements (structs or numbers),
        or of n = (rows, columns) numbers."""
        if self.elem == "row":
            return [(i, j) for i in range(n[0]) for j in range(n[1])]
        if self.elem == "struct":
            return [(i, j) for i in range(n) for j in range(self.nfields)]
        return list(range(n))

    @staticmethod
    def at(v, e):
        if e is None:
            return v
        if isinstance(e, tuple):
            return v[e[0]][e[1]]
        return v[e]

    def cxx_at(self, var, e):
        """The C++ lvalue of element e of the local var."""
        if e is None:
            return var
        if isinstance(e, tuple):
            if self.elem == "struct":
                return f"{var}[{e[0]}].{self.struct.fields[e[1]]}"
            return f"{var}[{e[0]}][{e[1]}]"
        return f"{var}[{e}]"

    def label(self, elem=None):
        return self.cxx_at(self.name, elem)

    def shaped(self, flat, n):
        """A flat list of n elements' scalars as the formulas see it (a list of
        lists for an array of structs)."""
        if self.elem == "struct":
            k = self.nfields
            return [flat[i * k:(i + 1) * k] for i in range(n)]
        if self.elem == "row":
            c = n[1]
            return [list(flat[i * c:(i + 1) * c]) for i in range(n[0])]
        return list(flat)

    def flatten(self, v, like):
        """v (a formula's or spec's value for this parameter, shaped like the
        value `like`) as a flat list in memory order; None if the shape differs."""
        if not self.nested:
            return v if isinstance(v, (list, tuple)) else [v]
        if not isinstance(v, (list, tuple)) or len(v) != len(like):
            return None
        out = []
        for row, ref in zip(v, like):
            if not isinstance(row, (list, tuple)) or len(row) != len(ref):
                return None
            out += list(row)
        return out


class Function:
    def __init__(self, name, ret, params, wrt, outputs=None, inouts=None):
        self.name = name
        self.ret = ret
        self.params = params
        self.wrt = wrt
        for p in params:
            p.active = p.floating and (wrt is None or p.name in wrt)
        self.set_outputs(outputs or {}, inouts or {})
        self.is_float = ret == "float"

    def set_outputs(self, outputs, inouts=None):
        """outputs: {param name: length}. Output parameters are written by f:
        their adjoint carries the cotangent in (a vector-Jacobian product).
        inouts: {param name: length}. In/out parameters are read and written by
        f: given in the points like inputs, their adjoint carries the cotangent
        of the final value in and the cotangent of the initial value out."""
        inouts = inouts or {}
        names = {p.name for p in self.params}
        for key, spec in (("outputs", outputs), ("inouts", inouts)):
            for o in spec:
                if o not in names:
                    raise Failure(f"{self.name}: '{key}' names '{o}', which is not a parameter")
        for o in inouts:
            if o in outputs:
                raise Failure(f"{self.name}: '{o}' is in both 'outputs' and 'inouts'")
        self.out_len = {}
        for p in self.params:
            p.output = p.name in outputs
            p.inout = p.name in inouts
            if p.output or p.inout:
                what = "output" if p.output else "in/out parameter"
                n = (outputs if p.output else inouts)[p.name]
                if not p.is_array or not p.floating:
                    raise Failure(f"{self.name}: {what} '{p.name}' must be an array of double/float")
                if p.elem == "row":
                    # an array of rows: its length is [rows, columns]
                    if not (isinstance(n, list) and len(n) == 2 and all(isinstance(k, int) for k in n)):
                        raise Failure(f"{self.name}: {what} '{p.name}' is an array of rows: give its length as [rows, columns]")
                    if p.cols is not None and n[1] != p.cols:
                        raise Failure(f"{self.name}: {what} '{p.name}' has rows of {p.cols}, spec says {n[1]}")
                    n = tuple(n)
                elif isinstance(n, list):
                    raise Failure(f"{self.name}: {what} '{p.name}' is a flat array: give its length as a number")
                else:
                    n = int(n)
                if re.search(r"\bconst\b", p.type.split("*")[0] if p.kind == "ptr" else p.type):
                    raise Failure(f"{self.name}: {what} '{p.name}' is const ({p.text}): f cannot write it")
                if p.size is not None and (n[0] if isinstance(n, tuple) else n) != p.size:
                    raise Failure(f"{self.name}: {what} '{p.name}' has length {p.size}, spec says {n}")
                self.out_len[p.name] = n
                p.active = True  # always has an adjoint (its cotangent)
        # partials are reported for the active inputs, in/out parameters included
        # (w.r.t. their initial value); adjoint arguments exist for every active
        # parameter, outputs included, in parameter order
        self.adjoint_params = [p for p in self.params if p.active]
        self.active = [p for p in self.params if p.active and not p.output]
        self.outputs = [p for p in self.params if p.output]
        self.inouts = [p for p in self.params if p.inout]

    def out_elems(self, p):
        """Element indices of output or in/out p (its length is in elements:
        numbers or structs)."""
        return p.out_elems(self.out_len[p.name])


USING_RE = re.compile(r"^\s*using\s+([A-Za-z_]\w*)\s*=\s*([^;]+);", re.M)
TYPEDEF_RE = re.compile(r"^\s*typedef\s+([^;{}]+?)\s*\b([A-Za-z_]\w*)\s*;", re.M)


def parse_aliases(code):
    """{name: type} for the type aliases at the start of a line in the case file
    (`using Vec = std::vector<double>;`, `typedef P PT;`)."""
    aliases = {m.group(1): m.group(2).strip() for m in USING_RE.finditer(code)}
    aliases.update({m.group(2): m.group(1).strip() for m in TYPEDEF_RE.finditer(code)})
    return aliases


def expand_aliases(text, aliases):
    """A parameter's text with the case file's aliases spelled out (the harness
    reads the types from their spelling)."""
    for _ in range(8):
        expanded = text
        for name, target in aliases.items():
            expanded = re.sub(r"(?<![\w:.])" + name + r"\b", lambda m: target, expanded)
        if expanded == text:
            break
        text = expanded
    return text


def parse_functions(src):
    funcs = {}
    # Drop comments so commented-out examples are not picked up.
    code = strip_comments(src)
    structs = parse_structs(code)
    aliases = parse_aliases(code)
    for mk in find_marks(code):
        wrt = None
        if mk.wrt_text is not None:
            wrt = {w.strip() for w in mk.wrt_text.split(",") if w.strip()}
        params = []
        if mk.params_text.strip() and mk.params_text.strip() != "void":
            params = [Param(expand_aliases(t, aliases), structs) for t in split_params(mk.params_text)]
        funcs[mk.name] = Function(mk.name, mk.ret.strip(), params, wrt)
    return funcs


def strip_comments(src):
    code = re.sub(r"/\*.*?\*/", lambda m: " " * len(m.group(0)), src, flags=re.S)
    return re.sub(r"//[^\n]*", lambda m: " " * len(m.group(0)), code)


# --------------------------------------------------------------------------
# Numbers


def to_f32(x):
    return struct.unpack("f", struct.pack("f", x))[0]


def step_for(x, is_float):
    factor = 2.0**-5 if is_float else 1e-3
    return 2.0 ** round(math.log2(factor * max(1.0, abs(x))))


def scalar_literal(base, v):
    if base == "bool":
        return "true" if v else "false"
    if base not in FLOATING:
        if float(v) != int(v):
            raise Failure(f"a {base} value must be an integer, got {v}")
        return str(int(v))
    v = float(v)
    if base == "float":
        return f"static_cast<float>({v.hex()})"
    return f"({v.hex()})"


def cxx_literal(param, v):
    return scalar_literal(param.base, v)


def normalize_value(base, v, what):
    if isinstance(v, list):
        raise Failure(f"{what}: expected a number, got a list")
    if base in FLOATING:
        v = float(v)
        return to_f32(v) if base == "float" else v
    if base == "bool":
        return bool(v)
    if float(v) != int(v):
        raise Failure(f"{what} ({base}) needs an integer, got {v}")
    return int(v)


def normalize_point(func, point):
    """A point: one value per parameter; array parameters take JSON lists.
    Output parameters may be left out (or given as null); in/out parameters
    take their initial value like inputs."""
    n_in = len(func.params) - len(func.outputs)
    if len(point) == n_in and func.outputs:
        it = iter(point)
        point = [None if p.output else next(it) for p in func.params]
    if len(point) != len(func.params):
        raise Failure(
            f"{func.name}: point {point} has {len(point)} values, the function has "
            f"{len(func.params)} parameters ({n_in} without the outputs)"
        )
    out = []
    for p, v in zip(func.params, point):
        what = f"{func.name}: parameter {p.name}"
        if p.output:
            if v is not None:
                raise Failure(f"{what} is an output: leave it out of the point or give null")
            out.append(None)
            continue
        if p.is_array:
            if not isinstance(v, list):
                raise Failure(f"{what} is an array ({p.text}): give a JSON list, got {v}")
            if not v and p.kind in ("carray_ref", "array", "carray", "ptr"):
                raise Failure(f"{what}: empty arrays are not supported by the driver")
            if p.size is not None and len(v) != p.size:
                raise Failure(f"{what} has length {p.size}, the point gives {len(v)} values")
            if p.inout and p.elem == "row" and (len(v), *{len(r) for r in v if isinstance(r, list)}) != func.out_len[p.name]:
                raise Failure(f"{what} is an in/out array of rows {list(func.out_len[p.name])} ('inouts'), the point differs")
            if p.inout and p.elem != "row" and len(v) != func.out_len[p.name]:
                raise Failure(
                    f"{what} is an in/out parameter of length {func.out_len[p.name]} "
                    f"('inouts'), the point gives {len(v)} values"
                )
            if p.nested:
                out.append(normalize_nested(p, v, what))
            else:
                if any(isinstance(x, list) for x in v):
                    raise Failure(
                        f"{what}: a list of lists, but '{p.text}' is a flat array (the element "
                        f"type '{p.base}' is not a struct the harness could read from the case "
                        "file: simple `struct S { double a, b; };` definitions only)"
                    )
                out.append([normalize_value(p.base, x, what) for x in v])
        else:
            out.append(normalize_value(p.base, v, what))
    return out


def normalize_nested(p, v, what):
    """The value of an array of structs or of rows: a list of lists."""
    rows = []
    for i, row in enumerate(v):
        if not isinstance(row, list):
            kind = f"struct {p.struct.name}" if p.elem == "struct" else "row"
            raise Failure(f"{what}: element {i} must be a list (a {kind}), got {row}")
        if p.elem == "struct" and len(row) != p.nfields:
            raise Failure(
                f"{what}: element {i} gives {len(row)} values but struct {p.struct.name} has "
                f"{p.nfields} fields ({', '.join(p.struct.fields)})"
            )
        if p.elem == "row" and p.cols is not None and len(row) != p.cols:
            raise Failure(f"{what}: row {i} has {len(row)} values, the type's rows have {p.cols}")
        if p.elem == "row" and p.row_kind != "vector" and not row:
            raise Failure(f"{what}: empty rows are not supported by the driver")
        rows.append([normalize_value(p.base, x, f"{what}[{i}]") for x in row])
    return rows


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
    except OSError as e:  # e.g. the tool is being relinked (text file busy)
        raise Failure(f"{what}: cannot run {cmd[0]}: {e}")
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
        self.max_problems = args.max_problems
        self.only_compilers = args.compilers.split(",") if args.compilers else None

    def unfad_flags(self):
        return getattr(self, "case_unfad_flags", []) + ["--", "-std=c++17", "-I" + self.include]

    def process(self, case_path, work):
        """Steps 1-2. Returns the processed text."""
        name = os.path.basename(case_path)
        original = open(case_path, "rb").read()
        dst = os.path.join(work, name)
        with open(dst, "wb") as f:
            f.write(original)
        if not os.path.exists(self.unfad):
            raise Failure(f"unfad not found at {self.unfad} (build it first)")

        # Two unfad runs per case: the stdout mode, then `-i` on what it
        # printed, which must change nothing. `-i` on the unprocessed file
        # writes the same text (one code path, tool/outputs.cpp) and
        # `--check` compares exactly that text with the file, so their
        # per-case runs added nothing but time (each run parses the standard
        # headers again: three more runs were two fifths of a case's time);
        # their exit codes and outputs are pinned once, in
        # test/lit/golden/rewrite.test.
        r = run([self.unfad, name] + self.unfad_flags(), work, "unfad", timeout=TOOL_TIMEOUT)
        if r.returncode != 0:
            raise Failure("`unfad " + name + "` (stdout mode) failed\n" + describe(r))
        first = r.stdout
        if open(dst, "rb").read() != original:
            raise Failure("`unfad` without -i changed the file")
        if first == original:
            raise Failure("`unfad` printed the file unchanged: no generated code")
        with open(dst, "wb") as f:
            f.write(first)

        r = run([self.unfad, "-i", name] + self.unfad_flags(), work, "unfad -i", timeout=TOOL_TIMEOUT)
        if r.returncode != 0:
            raise Failure("`unfad -i " + name + "` on the generated file failed\n" + describe(r))
        second = open(dst, "rb").read()
        if second != first:
            raise Failure("`unfad -i` on what `unfad` printed changed the file (not idempotent)\n"
                          + diff_text(first, second))
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
        # g++ optimises (its flow warnings, -Wmaybe-uninitialized, need it),
        # clang++ does not (its warnings do not; half its compile time): the
        # values are checked at two optimisation levels.
        opt = "-O1" if compiler == "g++" else "-O0"
        cmd = [cxx] + STD_FLAGS + [opt, "-I" + self.include, "-I" + work] + extra_flags
        cmd += ["driver_main.cpp", "-o", exe]
        r = run(cmd, work, compiler)
        if r.returncode != 0:
            raise Failure(f"{compiler} failed to compile the generated code\n" + describe(r))
        r = run([exe], work, "driver")
        if r.returncode != 0:
            raise Failure(f"driver built with {compiler} failed\n" + describe(r))
        return Plan.parse_output(r.stdout.decode(errors="replace"))

    def run_case(self, case_path):
        src = open(case_path).read()
        specs = read_spec(src, case_path)
        funcs = parse_functions(src)
        top = specs[0]
        compilers = top.get("compilers", ["g++", "clang++"])
        if self.only_compilers:
            compilers = [c for c in compilers if c in self.only_compilers]
        if not compilers:
            raise Failure(f"no compiler to run (the case allows {','.join(top.get('compilers', ['g++', 'clang++']))}, "
                          f"--compilers {','.join(self.only_compilers or [])})")
        extra_flags = top.get("flags", [])
        self.case_unfad_flags = top.get("unfad_flags", [])
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
                    + "\n  ".join(problems[: self.max_problems])
                    + ("\n  ..." if len(problems) > self.max_problems else "")
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


WEIGHT_SEED = 20240611


def output_weights(func):
    """Fixed random cotangents for the outputs and the in/out parameters' final
    values: {name: [w...]}, one per scalar (per field of an array of structs)
    in memory order; |w| in [0.5, 1.5]."""
    import random

    rng = random.Random(WEIGHT_SEED)
    ws = {}
    # outputs first, so that adding in/out parameters leaves outputs' weights alone
    for p in func.outputs + func.inouts:
        row = []
        for _ in func.out_elems(p):
            w = round(rng.uniform(0.5, 1.5) * 1024) / 1024
            row.append(w if rng.random() < 0.5 else -w)
        ws[p.name] = [to_f32(w) if p.base == "float" else w for w in row]
    return ws


def accum_bias(j):
    """Initial value of the j-th input adjoint in the accumulation check."""
    return 0.5 + 0.25 * (j % 4)


class Point:
    """One tested argument list of one function, and where its results go."""

    def __init__(self, func, spec, pt, pid):
        self.func = func
        self.spec = spec
        self.pt = pt
        self.pid = pid
        self.stencils = []  # (param index, element index (None, k or (i, j)), h, [eval ids], [values])


class Results:
    """What the driver printed for one point, split up: labels (param index,
    element) of the partials (active inputs, in/out initial values included,
    in parameter order), grad (f_grad's partials, adjoints zeroed), acc (the
    second call's value and adjoints), writes_f / writes_g (outputs and in/out
    final values after f / f_grad), ins_g (input arrays after f_grad).
    problem: why the records cannot be checked, or None."""

    def __init__(self, func, P, recs):
        self.func, self.P, self.problem = func, P, None
        pt = P.pt
        self.labels = []
        for i, p in enumerate(func.params):
            if p.active and not p.output:
                self.labels += [(i, e) for e in p.elems(pt[i])]
        self.by_label = {lab: j for j, lab in enumerate(self.labels)}
        self.where = f"{func.name}({', '.join(fmt_arg(v) for v in pt)})"
        self.phi0 = recs[("P", P.pid)][0]
        base = recs[("B", P.pid)]
        row = recs[("G", P.pid)]
        self.acc = recs[("A", P.pid)]
        n = len(self.labels)
        n_w = sum(len(func.out_elems(p)) for p in func.outputs + func.inouts)
        n_in = sum(len(p.elems(v)) for p, v in zip(func.params, pt)
                   if p.is_array and not p.output and not p.inout)
        if len(row) != 1 + n + n_w + n_in or len(self.acc) != 1 + n or len(base) != 1 + n_w:
            self.problem = f"{self.where}: driver printed the wrong number of results"
            return
        self.f0 = base[0]
        self.val, self.grad = row[0], row[1: 1 + n]
        self.writes_g = row[1 + n: 1 + n + n_w]
        self.ins_g = row[1 + n + n_w:]
        self.writes_f = base[1:]
        if self.phi0 is None or self.f0 is None or any(v is None for v in row[: 1 + n]):
            self.problem = f"{self.where}: non-finite result: f={self.f0}, phi={self.phi0}, f_grad={row}"

    def grouped(self):
        """Per active input (in/out ones included): (param, [(label index, element, partial)])."""
        out = []
        for i, p in enumerate(self.func.params):
            if p.active and not p.output:
                out.append((p, [(j, e, self.grad[j]) for j, (ii, e) in enumerate(self.labels) if ii == i]))
        return out

    def accumulate_hint(self, j, want, tol):
        """For a wrong partial w.r.t. an in/out parameter's initial value that
        is the weight plus the right value: say so (the "added into d_y"
        mistake). tol(g) is the tolerance of the comparison."""
        i, e = self.labels[j]
        p = self.func.params[i]
        if not p.inout:
            return ""
        w = self.func.weights[p.name][p.out_elems(self.func.out_len[p.name]).index(e)]
        g = self.grad[j] - w
        if abs(g - want) > tol(g):
            return ""
        return (f" (that is w_{p.name} = {fmt(w)} plus the partial: f_grad must overwrite "
                f"d_{p.name} with the cotangent of {p.name}'s initial value, not add into it)")


class Plan:
    """All evaluations for one case: for every point, phi = f's value (0 for a
    void f) + sum_k w_k out_k + sum_k w_k y_k (y: an in/out parameter's final
    value) at the point and at 4-point stencils around every active input
    element (in/out initial values included), f's return value, outputs and
    in/out final values, and f_grad (input adjoints zeroed, d_out = w, d_y = w)
    and again with non-zero input adjoints (they must be added to; d_y = w
    again must give the same d_y). Every call of f or f_grad gets a fresh copy
    of the in/out parameters' initial values (e2e_s<i>, copied from e2e_p<i>)."""

    def __init__(self, tested):
        self.tested = []  # (func, spec, [Point], expects)
        self.points = []
        self.throwing = []  # Points where f throws (spec "throws")
        self.n_evals = 0
        for func, spec in tested:
            func.set_outputs(spec.get("outputs", {}), spec.get("inouts", {}))
            if not func.active:
                raise Failure(f"{func.name} has no active input parameter")
            if func.ret not in ("double", "float", "void"):
                raise Failure(f"{func.name} returns {func.ret}; the harness handles double/float/void")
            if func.ret == "void" and not func.outputs and not func.inouts:
                raise Failure(f"{func.name} returns void and the spec names no 'outputs' or 'inouts'")
            func.weights = output_weights(func)
            pts = [normalize_point(func, p) for p in spec.get("points", [])]
            expects = spec.get("expect", [])
            for e in expects:
                pt = normalize_point(func, e["at"])
                if pt not in pts:
                    pts.append(pt)
            if not pts:
                raise Failure(f"{func.name}: spec has no points")
            for t in spec.get("throws", []):
                T = Point(func, spec, normalize_point(func, t["at"]), len(self.points))
                T.what = t["what"]
                self.throwing.append(T)
                self.points.append(T)
            entries = []
            for pt in pts:
                P = Point(func, spec, pt, len(self.points))
                self.points.append(P)
                if spec.get("fd", True):
                    for i, p in enumerate(func.params):
                        if not p.active or p.output:
                            continue
                        for e in p.elems(pt[i]):
                            x = p.at(pt[i], e)
                            h = step_for(x, p.base == "float")
                            ids, vals = [], []
                            for s in (-2, -1, 1, 2):
                                q = x + s * h
                                if p.base == "float":
                                    q = to_f32(q)
                                ids.append(self.n_evals)
                                vals.append(q)
                                self.n_evals += 1
                            P.stencils.append((i, e, h, ids, vals))
                entries.append(P)
            self.tested.append((func, spec, entries, expects))

    # ---- the driver ------------------------------------------------------

    @staticmethod
    def _elem_lits(p, values):
        """Initialisers of the elements of an array parameter's value."""
        lit = lambda x: scalar_literal(p.base, x)  # noqa: E731
        if p.elem == "scalar":
            return [lit(x) for x in values]
        out = []
        for row in values:
            inner = ", ".join(lit(x) for x in row)
            if p.elem == "struct":
                out.append(f"{p.elem_type}{{{inner}}}")
            elif p.row_kind == "vector":
                out.append(f"{p.elem_type}{{{inner}}}")
            elif p.row_kind == "array":
                out.append(f"{p.elem_type}{{{{{inner}}}}}")
            else:  # a C array row
                out.append(f"{{{inner}}}")
        return out

    @classmethod
    def _decl(cls, p, var, values, length=None):
        """A mutable local holding values (a list for arrays), or zeros of length
        (elements)."""
        if p.kind == "scalar":
            return f"{p.base} {var} = {scalar_literal(p.base, values)};"
        lits = None if values is None else cls._elem_lits(p, values)
        n = length if lits is None else len(lits)
        rows = isinstance(n, tuple)  # zeros of (rows, columns)
        if rows:
            n = n[0]
        if p.kind in ("ptr", "carray", "carray_ref"):
            dims = f"[{n}][{p.cols_text}]" if p.row_kind == "carray" else f"[{n}]"
            if lits is None:
                return f"{p.elem_type} {var}{dims} = {{}};"
            return f"{p.elem_type} {var}{dims} = {{{', '.join(lits)}}};"
        if p.kind == "vector":
            if lits is None and rows and p.row_kind == "vector":
                return f"{p.decl_type} {var}({n}, {p.elem_type}(static_cast<std::size_t>({length[1]})));"
            if lits is None:
                return f"{p.decl_type} {var}(static_cast<std::size_t>({n}));"
            return f"{p.decl_type} {var} = {{{', '.join(lits)}}};"
        if p.kind == "array":
            if lits is None:
                return f"{p.decl_type} {var}{{}};"
            return f"{p.decl_type} {var} = {{{{{', '.join(lits)}}}}};"
        raise Failure(f"internal: kind {p.kind}")

    @staticmethod
    def _put_all(p, var, elems):
        return [f"e2e_num(static_cast<double>({p.cxx_at(var, e)}));" for e in elems]

    def _call(self, P, suffix="", adjoints=None):
        """f (or f_grad) on the point's locals: the in/out parameters' fresh
        copies e2e_s<i>, the other parameters' e2e_p<i>."""
        func = P.func
        name = P.spec.get("call", func.name) + suffix
        args = [f"e2e_s{i}" if p.inout else f"e2e_p{i}[0]" if p.deref else f"e2e_p{i}"
                for i, p in enumerate(func.params)]
        if adjoints is not None:
            args += adjoints
        return f"{name}({', '.join(args)})"

    def _call_decls(self, func):
        """Locals for one call of f or f_grad: zeroed outputs, and copies of the
        in/out parameters' initial values (f writes them, and every call must
        start from the same, possibly perturbed, initial value)."""
        L = []
        for i, p in enumerate(func.params):
            n = func.out_len.get(p.name)
            if p.output:
                L.append(self._decl(p, f"e2e_p{i}", None, n))
            elif p.inout:
                L.append(self._decl(p, f"e2e_s{i}", None, n))
                if p.elem == "row":
                    L += [f"{p.cxx_at(f'e2e_s{i}', e)} = {p.cxx_at(f'e2e_p{i}', e)};" for e in p.out_elems(n)]
                else:
                    L.append(f"for (std::size_t e2e_k = 0; e2e_k < {n}; ++e2e_k) "
                             f"e2e_s{i}[e2e_k] = e2e_p{i}[e2e_k];")
        return L

    @staticmethod
    def _written(func):
        """(param, local) for every array f writes: outputs, then in/out parameters."""
        return ([(p, f"e2e_p{i}") for i, p in enumerate(func.params) if p.output]
                + [(p, f"e2e_s{i}") for i, p in enumerate(func.params) if p.inout])

    def _call_lines(self, P, result, suffix="", adjoints=None):
        """Call f (or f_grad) and keep its value (0 for void) in const double result."""
        call = self._call(P, suffix, adjoints)
        if P.func.ret == "void":
            return [f"{call};", f"const double {result} = 0;"]
        return [f"const double {result} = static_cast<double>({call});"]

    def _phi_lambda(self, P):
        """e2e_phi(): f's value plus the weighted outputs and in/out final values."""
        func = P.func
        L = ["    auto e2e_phi = [&]() -> double {"]
        L += ["      " + d for d in self._call_decls(func)]
        L += ["      " + s for s in self._call_lines(P, "e2e_f")]
        L.append("      double e2e_v = e2e_f;")
        for p, var in self._written(func):
            for e, w in zip(func.out_elems(p), func.weights[p.name]):
                L.append(f"      e2e_v += ({w.hex()}) * static_cast<double>({p.cxx_at(var, e)});")
        L.append("      return e2e_v;")
        L.append("    };")
        return L

    def _adjoint_decls(self, P, tag):
        """The adjoints for f_grad: input adjoints zeroed (tag G) or preset to a
        bias (tag A); d_out and d_y the weights. Returns (lines, arguments)."""
        func = P.func
        L, adj = [], []
        j = 0  # label index (as in Plan.check): in/out elements count too
        for i, (p, v) in enumerate(zip(func.params, P.pt)):
            if not p.active:
                continue
            var = f"e2e_d{i}"
            if p.output or p.inout:
                init = p.shaped(func.weights[p.name], func.out_len[p.name])
                j += len(p.elems(v)) if p.inout else 0
            elif p.nested:
                init = []
                for row in v:
                    init.append([])
                    for _ in row:
                        init[-1].append(0.0 if tag == "G" else accum_bias(j))
                        j += 1
            elif p.is_array:
                init = []
                for _ in v:
                    init.append(0.0 if tag == "G" else accum_bias(j))
                    j += 1
            else:
                init = 0.0 if tag == "G" else accum_bias(j)
                j += 1
            L.append(self._decl(p, var, init))
            adj.append(f"&{var}" if p.kind == "scalar" else var)
        return L, adj

    def _grad_block(self, P, tag):
        """One call of f_grad. Prints its value and the adjoints of the active
        inputs (in/out ones included), and for tag G what f_grad leaves in the
        outputs, the in/out parameters and the input arrays."""
        func = P.func
        L = ["    {"]
        L += ["      " + d for d in self._call_decls(func)]
        decls, adj = self._adjoint_decls(P, tag)
        L += ["      " + d for d in decls]
        L += ["      " + s for s in self._call_lines(P, "e2e_r", "_grad", adj)]
        L.append(f'      std::printf("{tag} {P.pid}"); e2e_num(e2e_r);')
        for i, (p, v) in enumerate(zip(func.params, P.pt)):
            if p.active and not p.output:
                L += ["      " + s for s in self._put_all(p, f"e2e_d{i}", p.elems(v))]
        if tag == "G":
            for p, var in self._written(func):
                L += ["      " + s for s in self._put_all(p, var, func.out_elems(p))]
            for i, (p, v) in enumerate(zip(func.params, P.pt)):
                if p.is_array and not p.output and not p.inout:
                    L += ["      " + s for s in self._put_all(p, f"e2e_p{i}", p.elems(v))]
        L.append('      std::printf("\\n");')
        L.append("    }")
        return L

    def _throw_block(self, P):
        """f and f_grad where f throws: records T (f) and U (f_grad, then its
        input adjoints), each first 1 for the expected what(), 2 for another
        exception, 0 when nothing was thrown."""
        func = P.func
        what = json.dumps(P.what)
        catch = (f"catch (const std::exception& e2e_e) {{ e2e_code = std::strcmp(e2e_e.what(), {what}) == 0 ? 1 : 2; }} "
                 "catch (...) { e2e_code = 2; }")
        L = [f"  {{ // {func.name} at point {P.pid}, where it throws"]
        for i, (p, v) in enumerate(zip(func.params, P.pt)):
            if not p.output:
                L.append("    " + self._decl(p, f"e2e_p{i}", v))
        L.append("    {")
        L += ["      " + d for d in self._call_decls(func)]
        L.append("      int e2e_code = 0;")
        L.append("      try { " + " ".join(self._call_lines(P, "e2e_r")) + " (void)e2e_r; } " + catch)
        L.append(f'      std::printf("T {P.pid}"); e2e_num(e2e_code); std::printf("\\n");')
        L.append("    }")
        L.append("    {")
        L += ["      " + d for d in self._call_decls(func)]
        decls, adj = self._adjoint_decls(P, "G")
        L += ["      " + d for d in decls]
        L.append("      int e2e_code = 0;")
        L.append("      try { " + " ".join(self._call_lines(P, "e2e_r", "_grad", adj)) + " (void)e2e_r; } " + catch)
        L.append(f'      std::printf("U {P.pid}"); e2e_num(e2e_code);')
        for i, (p, v) in enumerate(zip(func.params, P.pt)):
            if p.active and not p.output and not p.inout:
                L += ["      " + s for s in self._put_all(p, f"e2e_d{i}", p.elems(v))]
        L.append('      std::printf("\\n");')
        L.append("    }")
        L.append("  }")
        return L

    def _point_block(self, P):
        func = P.func
        if getattr(P, "what", None) is not None:
            return self._throw_block(P)
        L = [f"  {{ // {func.name} at point {P.pid}"]
        for i, (p, v) in enumerate(zip(func.params, P.pt)):
            if not p.output:
                L.append("    " + self._decl(p, f"e2e_p{i}", v))
        L += self._phi_lambda(P)
        L.append(f'    std::printf("P {P.pid}"); e2e_num(e2e_phi()); std::printf("\\n");')
        # f's value, outputs and in/out final values
        L.append("    {")
        L += ["      " + d for d in self._call_decls(func)]
        L += ["      " + s for s in self._call_lines(P, "e2e_r")]
        L.append(f'      std::printf("B {P.pid}"); e2e_num(e2e_r);')
        for p, var in self._written(func):
            L += ["      " + s for s in self._put_all(p, var, func.out_elems(p))]
        L.append('      std::printf("\\n");')
        L.append("    }")
        # f_grad, input adjoints zeroed (tag G) and preset to a bias (tag A)
        L += self._grad_block(P, "G")
        L += self._grad_block(P, "A")
        # finite-difference stencils (of an in/out parameter: of its initial value)
        for i, e, h, ids, vals in P.stencils:
            p = func.params[i]
            var = p.cxx_at(f"e2e_p{i}", e)
            orig = p.at(P.pt[i], e)
            for eid, q in zip(ids, vals):
                L.append(
                    f"    {var} = {scalar_literal(p.base, q)}; "
                    f'std::printf("F {eid}"); e2e_num(e2e_phi()); std::printf("\\n");'
                )
            L.append(f"    {var} = {scalar_literal(p.base, orig)};")
        L.append("  }")
        return L

    def driver(self, case_file):
        L = []
        L.append("// Generated by test/e2e/run_e2e.py")
        L.append(f'#include "{case_file}"')
        L.append("#include <array>")
        L.append("#include <cmath>")
        L.append("#include <cstddef>")
        L.append("#include <cstdio>")
        L.append("#include <cstring>")
        L.append("#include <exception>")
        L.append("#include <vector>")
        L.append("static void e2e_num(double v) {")
        L.append('  if (std::isfinite(v)) std::printf(" %.17g", v); else std::printf(" nan");')
        L.append("}")
        seen = set()
        for func, _, _, _ in self.tested:
            for p in func.params:
                if p.elem == "struct" and p.elem_type not in seen:
                    seen.add(p.elem_type)
                    k = p.nfields
                    L.append(
                        f"static_assert(sizeof({p.elem_type}) == {k} * sizeof({p.base}), "
                        f'"e2e: struct {p.elem_type} must be exactly its {k} {p.base} fields '
                        f'(no padding): the harness reaches its fields in memory order");'
                    )
        L.append("int main() {")
        for P in self.points:
            L += self._point_block(P)
        L.append('  std::printf("END\\n");')
        L.append("  return 0;")
        L.append("}")
        return "\n".join(L) + "\n"

    @staticmethod
    def parse_output(text):
        recs = {}
        ended = False
        for line in text.splitlines():
            parts = line.split()
            if not parts:
                continue
            if parts[0] == "END":
                ended = True
                continue
            vals = []
            for t in parts[2:]:
                v = float(t)
                vals.append(v if math.isfinite(v) else None)
            recs[(parts[0], int(parts[1]))] = vals
        if not ended:
            raise Failure("driver output is incomplete (no END line):\n" + tail(text))
        return recs

    # ---- the checks ------------------------------------------------------

    def check(self, recs):
        problems = []
        for P in self.throwing:
            name = P.func.name
            try:
                t, u = recs[("T", P.pid)], recs[("U", P.pid)]
            except KeyError as e:
                problems.append(f"{name}: driver printed no record {e}")
                continue
            said = {0: "threw nothing", 2: "threw another exception", None: "?"}
            if t[0] != 1:
                problems.append(f"{name} at {P.pt}: f {said.get(t[0], t[0])} (expected '{P.what}')")
            if u[0] != 1:
                problems.append(f"{name}_grad at {P.pt}: {said.get(u[0], u[0])} where f throws '{P.what}'")
            if any(v != 0 for v in u[1:]):
                problems.append(f"{name}_grad at {P.pt}: threw after writing input adjoints {u[1:]}")
        for func, spec, entries, expects in self.tested:
            try:
                problems += self._check_func(recs, func, spec, entries, expects)
            except KeyError as e:
                problems.append(f"{func.name}: driver printed no record {e}")
        return problems

    def _check_func(self, recs, func, spec, entries, expects):
        problems = []
        fl = func.is_float or any(p.base == "float" for p in func.active + func.outputs)
        tols = {
            "rtol": spec.get("rtol", 1e-4 if fl else 1e-6),
            "afac": spec.get("atol", 1e-5 if fl else 1e-7),
            "vtol": 1e-5 if fl else 1e-10,
            "hand": 1e-5 if fl else 1e-9,
        }
        for P in entries:
            r = Results(func, P, recs)
            if r.problem:
                problems.append(r.problem)
                continue
            problems += self._check_calls(r, tols)
            problems += self._check_fd(r, tols, recs)
            problems += self._check_hand(r, tols, spec, expects)
        return problems

    @staticmethod
    def _check_calls(r, tols):
        """f_grad returns f's value, performs f's writes (outputs and in/out
        parameters end as f leaves them), leaves the input arrays alone, adds
        into the input adjoints, and overwrites an in/out adjoint."""
        func, pt, where, vtol = r.func, r.P.pt, r.where, tols["vtol"]
        problems = []
        if func.ret != "void" and abs(r.val - r.f0) > vtol * max(1.0, abs(r.f0)):
            problems.append(f"{where}: f_grad returned {fmt(r.val)} but f returned {fmt(r.f0)}")
        k = 0
        for p in func.outputs + func.inouts:
            verb = "writes" if p.output else "leaves"
            for e in func.out_elems(p):
                a, b = r.writes_f[k], r.writes_g[k]
                if (a is None) != (b is None) or (a is not None and abs(a - b) > vtol * max(1.0, abs(a))):
                    problems.append(f"{where}: after f_grad {p.label(e)} = {fmt(b)} but f {verb} {fmt(a)}")
                k += 1
        k = 0
        for i, p in enumerate(func.params):
            if p.is_array and not p.output and not p.inout:
                for e in p.elems(pt[i]):
                    want = p.at(pt[i], e)
                    if r.ins_g[k] != float(want):
                        problems.append(
                            f"{where}: f_grad changed input {p.label(e)}: {fmt(want)} -> {fmt(r.ins_g[k])}"
                        )
                    k += 1
        for j, (g, a) in enumerate(zip(r.grad, r.acc[1:])):
            i, e = r.labels[j]
            p = func.params[i]
            if p.inout:
                # d_y = w again, y reset to its initial value: the same d_y
                if a is None or abs(a - g) > vtol * max(1.0, abs(g)) * 10:
                    problems.append(
                        f"{where}: d_{p.label(e)} = {fmt(a)} after a second f_grad call ({p.name} "
                        f"reset, d_{p.name} = w_{p.name} again, the other adjoints non-zero) but "
                        f"{fmt(g)} after the first: d_{p.name} must end as the cotangent of "
                        f"{p.name}'s initial value whatever the other adjoints held"
                    )
                continue
            b = accum_bias(j)
            if a is None or abs((a - b) - g) > vtol * max(1.0, abs(g), b) * 10:
                problems.append(
                    f"{where}: d_{p.label(e)} started at {b} and ended at "
                    f"{fmt(a)}, but the partial is {fmt(g)}: f_grad must add into the adjoints"
                )
        return problems

    @staticmethod
    def _check_fd(r, tols, recs):
        """Every partial against 4-point central differences of phi."""
        problems = []
        atol = tols["afac"] * max(1.0, abs(r.phi0))
        for i, e, h, ids, _ in r.P.stencils:
            p = r.func.params[i]
            fs = [recs[("F", eid)][0] for eid in ids]
            if any(v is None for v in fs):
                problems.append(f"{r.where}: non-finite f near the point (d/d{p.label(e)})")
                continue
            fd = (fs[0] - 8 * fs[1] + 8 * fs[2] - fs[3]) / (12 * h)
            j = r.by_label[(i, e)]
            g = r.grad[j]
            tol = lambda g: tols["rtol"] * max(abs(g), abs(fd)) + atol  # noqa: E731
            if abs(g - fd) > tol(g):
                problems.append(
                    f"{r.where}: d/d{p.label(e)} = {fmt(g)} but finite differences give {fmt(fd)}"
                    + r.accumulate_hint(j, fd, tol)
                )
        return problems

    @staticmethod
    def _check_hand(r, tols, spec, expects):
        """f's value and the partials against value_formula, grad_formula and expect."""
        func, pt, where, f0 = r.func, r.P.pt, r.where, r.f0
        problems = []
        env = formula_env(func, pt)
        if "value_formula" in spec:
            v = eval(spec["value_formula"], env)
            if abs(v - f0) > tols["hand"] * max(1.0, abs(v)):
                problems.append(f"{where}: f = {fmt(f0)}, hand formula gives {fmt(v)}")
        grouped = r.grouped()
        if "grad_formula" in spec:
            forms = spec["grad_formula"]
            if len(forms) != len(grouped):
                problems.append(f"{func.name}: grad_formula needs {len(grouped)} entries")
                forms = []
            for (p, parts), form in zip(grouped, forms):
                wants = p.flatten(eval(form, env), pt[func.params.index(p)])
                if wants is None:
                    problems.append(f"{where}: formula '{form}' does not give a list of lists shaped like {p.name}")
                    continue
                if len(wants) != len(parts):
                    problems.append(f"{where}: formula '{form}' gives {len(wants)} values for {len(parts)} partials")
                    continue
                for want, (j, e, g) in zip(wants, parts):
                    want = float(want)
                    tol = lambda g: tols["hand"] * max(1.0, abs(want), abs(f0))  # noqa: E731
                    if abs(want - g) > tol(g):
                        problems.append(f"{where}: d/d{p.label(e)} = {fmt(g)}, hand formula "
                                        f"'{form}' gives {fmt(want)}" + r.accumulate_hint(j, want, tol))
        for ex in expects:
            if normalize_point(func, ex["at"]) != pt:
                continue
            tol = ex.get("tol", 1e-4)
            if "value" in ex and abs(ex["value"] - f0) > tol:
                problems.append(f"{where}: f = {fmt(f0)}, expected {ex['value']}")
            for (p, parts), want in zip(grouped, ex.get("grad", [])):
                wants = p.flatten(want, pt[func.params.index(p)])
                if wants is None:
                    problems.append(f"{where}: expected grad {want} is not shaped like {p.name}")
                    continue
                for w, (j, e, g) in zip(wants, parts):
                    if abs(w - g) > tol:
                        problems.append(f"{where}: d/d{p.label(e)} = {fmt(g)}, expected {w}"
                                        + r.accumulate_hint(j, w, lambda g: tol))
        return problems

    def summary(self):
        n = sum(len(entries) for _, _, entries, _ in self.tested)
        names = ", ".join(f.name for f, _, _, _ in self.tested)
        return f"{len(self.tested)} function(s) [{names}] at {n} point(s), {self.n_evals} stencil evaluations"


def formula_env(func, pt):
    env = {k: getattr(math, k) for k in dir(math) if not k.startswith("_")}
    env["abs"] = abs
    env["min"] = min
    env["max"] = max
    env["sum"] = sum
    env["range"] = range
    env["len"] = len
    for p, v in zip(func.params, pt):
        env[p.name] = v
    for p in func.outputs + func.inouts:
        if p.name in getattr(func, "weights", {}):
            env["w_" + p.name] = p.shaped(func.weights[p.name], func.out_len[p.name])
    return env


def fmt_arg(v):
    if isinstance(v, list):
        if len(v) > 8:
            return "[" + ", ".join(fmt_arg(x) for x in v[:8]) + f", ... ({len(v)})]"
        return "[" + ", ".join(fmt_arg(x) for x in v) + "]"
    return fmt(v)


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
    ap.add_argument("--compilers", help="run only these of the case's compilers (g++,clang++)")
    ap.add_argument("--max-problems", type=int, default=60,
                    help="mismatches listed for a failing case (default %(default)s)")
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
