"""Language features of the program generator (see gen.py): "classes",
"lambdas" and "switch" (issue 12: C++ as people write it).  Each construct is
one statement of kind "mem" (gen_mem.py's blocks: C++ text with holes @k@
for generated expressions); the text may name the program's own classes and
templates as `$P<Name>`, which the renderer prefixes like the program's other
names.  The definitions of those (DECLS below, fixed text) are emitted before
the helpers for the names a program's text uses, so the shrinker can drop
them with their last use.

  classes  a Vec class (constructors, private members with default member
           initialisers, const methods dot/norm2/scaled, member operator+
           and operator+=, a free operator*), a Spring (a constructor with a
           member-initialiser list, a const method taking two Vecs), an
           accumulator struct with a non-const method updating members and a
           passive count, a Particle deriving from a Body (a base
           constructor in the initialiser list), a Poly functor called as
           p(t), an Arr3 with a `double r[3]` member (operator[] returning
           double&, methods looping over the elements).
  lambdas  lambdas stored in locals and called (no capture, [&] capturing
           generated expressions, [c] and init-captures by value, a [&]
           lambda summing into a captured double), and lambdas passed to
           std::transform (unary, binary, in place), std::accumulate,
           std::for_each, std::inner_product, std::transform_reduce and to a
           template of the program's own (`$Papply_sum(f, a, n)`, also given
           the Poly functor).
  custom   calls of functions with a registered derivative
           (UNFAD_CUSTOM_GRADIENT with an exact pullback): softplus on a
           value, on each element in a loop and given by name to
           std::transform_reduce, a weighted sum of squares of an array, and
           a local buffer written by one (an output) and updated in place
           by another (UNFAD_INOUT), then summed.
  switch   `switch` on an int of the scope (a loop index, n, an int local,
           or an enum class made from one) with `break`, fall-through
           (`[[fallthrough]]` and stacked labels), `default` first, last or
           in the middle, an initialiser (`switch (int k = m % 3; k)`), and
           `continue` in a case inside a loop.

  nograd   UNFAD_NO_GRAD on a local (maybe assigned again, read in a
           loop), on a struct member (read directly and by a method, written
           after construction) and on a helper's parameter, and
           unfad::no_grad on values, on calls and on array elements in a
           loop.  The text spells the mark `$NG ` and every read of a marked
           value `$FZ(...)` (unfad::no_grad is `$NOGRAD(...)`): the
           differentiated copy gets the marks, the reference copy (fuzz.py's
           probe, from which the finite differences are then taken) reads the
           values through fzp_freeze, which replays at every stencil point
           the values recorded at the point: a constant, as for the gradient.
  retarr   helpers returning std::vector<double> (from a pointer or a
           vector, filled in a loop) and std::array<double, 3> (`return
           {...}`, a filled local) by value: into a local read by index, as
           the range of a range-for, called in a loop of steps, nested as
           arguments (`dot3(cross3(a, b), c)`), indexed (`cross3(a, b)[2]`),
           and a std::array state reassigned in a loop (`q = turn3(q, t)`).
  optional a helper returning std::optional<double> (std::nullopt when a
           passive int says so): tested with `if (auto o = ...)`,
           has_value(), `== std::nullopt`, read with *o, value() and
           value_or, and an optional carried across a loop (assigned,
           reset(), emplace(...)).
  addr     outputs through pointers to locals: a double passed as `&c` to
           a helper adding into it (also in a loop), a struct stepped in
           place through a pointer (`p->x += ...`) and read after.
  owned    a Grid class owning a std::vector whose methods write its number
           members (set_scale, rescale, a transpose swapping rows_ and
           cols_, a budget spent by a method, a chained `damp(f)` returning
           *this), filled through a `Grid*`,
           tuned through a `Grid&` and a reference local, in loops and
           branches, read by getters in loop bounds (one whose bound a
           method in the loop lowers), resized by methods (reshape,
           pad with a value) and by a helper sizing a Grid made in a
           loop body, assigned whole (`w = g;`, also in a loop); or the
           same with a RawGrid, that Grid written before std::vector (it
           owns new[] memory: a destructor, its own copy constructor and
           operator=, reallocations handing a new buffer over).
  cparams  the marked function takes 1-2 objects of a class CP (public
           members w, b, a passive int k, constructors, const methods) by
           value, const& or &: members and methods read, copies, the object
           passed to a helper; the checker builds them from x[] and reads
           the gradient from the adjoint object `CP* d_c` (read only: an
           in/out object is not generated).

Avoid flags (former gaps, kept to reproduce older findings; both are
supported now): "avoid-private-members" uses all-public twins of Vec and
Spring; "avoid-base-classes" leaves out the Particle.

Fixed text never compares or takes kinks of doubles (the checker only
probes the holes), and every value the text computes is bounded by squashing
its holes.
"""

import gen as G
import gen_mem as M

FEATURES = G.LANG_FEATURES

# name -> (names it needs, lines); in dependency order
DECLS = {
    "Vec": ((), [
        "class $PVec {",
        " public:",
        "  $PVec() = default;",
        "  $PVec(double x, double y, double z) : x_(x), y_(y), z_(z) {}",
        "  double x() const { return x_; }",
        "  double dot(const $PVec& o) const { return x_ * o.x_ + y_ * o.y_ + z_ * o.z_; }",
        "  double norm2() const { return dot(*this); }",
        "  $PVec scaled(double s) const { return $PVec(s * x_, s * y_, s * z_); }",
        "  $PVec operator+(const $PVec& o) const { return $PVec(x_ + o.x_, y_ + o.y_, z_ + o.z_); }",
        "  $PVec& operator+=(const $PVec& o) {",
        "    x_ += o.x_;",
        "    y_ += o.y_;",
        "    z_ += o.z_;",
        "    return *this;",
        "  }",
        "",
        " private:",
        "  double x_ = 0.0, y_ = 0.0, z_ = 0.0;",
        "};",
        "inline $PVec operator*(double s, const $PVec& v) { return v.scaled(s); }",
    ]),
    "Spring": (("Vec",), [
        "class $PSpring {",
        " public:",
        "  $PSpring(double k, double rest) : k_(k), rest_(rest) {}",
        "  double energy(const $PVec& a, const $PVec& b) const {",
        "    const $PVec d = a + (-1.0) * b;",
        "    const double r = std::sqrt(1.0 + d.norm2());",
        "    return 0.5 * k_ * (r - rest_) * (r - rest_);",
        "  }",
        "",
        " private:",
        "  double k_;",
        "  double rest_;",
        "};",
    ]),
    "Acc": ((), [
        "struct $PAcc {",
        "  double sum = 0.0;",
        "  double sq = 0.0;",
        "  int count = 0;",
        "  void add(double v) {",
        "    sum += v;",
        "    sq += v * v;",
        "    ++count;",
        "  }",
        "  double mean() const { return count > 0 ? sum / count : 0.0; }",
        "  double spread() const { return sq - sum * sum / (count + 1.0); }",
        "};",
    ]),
    "Body": ((), [
        "struct $PBody {",
        "  double m;",
        "  explicit $PBody(double mass) : m(mass) {}",
        "  double mass() const { return m; }",
        "};",
    ]),
    "Particle": (("Body",), [
        "struct $PParticle : $PBody {",
        "  double v;",
        "  $PParticle(double mass, double vel) : $PBody(mass), v(vel) {}",
        "  double kinetic() const { return 0.5 * m * v * v; }",
        "};",
    ]),
    "Poly": ((), [
        "struct $PPoly {",
        "  double a, b, c;",
        "  $PPoly(double a0, double b0, double c0) : a(a0), b(b0), c(c0) {}",
        "  double operator()(double t) const { return (a * t + b) * t + c; }",
        "};",
    ]),
    "apply_sum": ((), [
        "template <class F>",
        "double $Papply_sum(F f, const double* a, int n) {",
        "  double s = 0.0;",
        "  for (int i = 0; i < n; ++i) {",
        "    s += f(a[i]);",
        "  }",
        "  return s;",
        "}",
    ]),
    "Kind": ((), ["enum class $PKind { Linear, Square, Wave };"]),
    # Custom derivatives (feature "custom"): the pullbacks are exact, so the
    # checker's finite differences must agree with the gradient that calls them.
    "softplus": ((), [
        "double $Psoftplus(double x) { return std::log1p(std::exp(x)); }",
        "void $Psoftplus_pullback(double x, double d_result, double* d_x) {",
        "  *d_x += d_result / (1.0 + std::exp(-x));",
        "}",
        "UNFAD_CUSTOM_GRADIENT($Psoftplus, $Psoftplus_pullback);",
    ]),
    "wsq": ((), [
        "double $Pwsq(const double* x, int n) {",
        "  double s = 0.0;",
        "  for (int i = 0; i < n; ++i) {",
        "    s += (i + 1.0) * x[i] * x[i];",
        "  }",
        "  return 0.5 * s;",
        "}",
        "void $Pwsq_pullback(const double* x, int n, double d_result, double* d_x) {",
        "  for (int i = 0; i < n; ++i) {",
        "    d_x[i] += d_result * (i + 1.0) * x[i];",
        "  }",
        "}",
        "UNFAD_CUSTOM_GRADIENT($Pwsq, $Pwsq_pullback);",
    ]),
    # an output (the pullback reads what the call left, consumes d_out) and
    # an in/out array (UNFAD_INOUT: the pullback sees it as the call found it)
    "scale_into": ((), [
        "void $Pscale_into(const double* x, double c, double* out, int n) {",
        "  for (int i = 0; i < n; ++i) {",
        "    out[i] = c * std::sin(x[i]);",
        "  }",
        "}",
        "void $Pscale_into_pullback(const double* x, double c, [[maybe_unused]] double* out, int n, double* d_x,",
        "                           double* d_c, double* d_out) {",
        "  for (int i = 0; i < n; ++i) {",
        "    d_x[i] += c * std::cos(x[i]) * d_out[i];",
        "    *d_c += std::sin(x[i]) * d_out[i];",
        "    d_out[i] = 0.0;",
        "  }",
        "}",
        "UNFAD_CUSTOM_GRADIENT($Pscale_into, $Pscale_into_pullback);",
    ]),
    "relax": ((), [
        "void $Prelax(UNFAD_INOUT double* y, double c, int n) {",
        "  for (int i = 0; i < n; ++i) {",
        "    y[i] = c * std::tanh(y[i]) + 0.5 * y[i];",
        "  }",
        "}",
        "void $Prelax_pullback(double* y, double c, int n, double* d_y, double* d_c) {",
        "  for (int i = 0; i < n; ++i) {",
        "    const double t = std::tanh(y[i]);",
        "    *d_c += t * d_y[i];",
        "    d_y[i] *= c * (1.0 - t * t) + 0.5;",
        "  }",
        "}",
        "UNFAD_CUSTOM_GRADIENT($Prelax, $Prelax_pullback);",
    ]),
    # feature "nograd": a member marked UNFAD_NO_GRAD ($NG: the mark in the
    # differentiated copy, nothing in the reference) and every read of it
    # frozen in the reference ($FZ(...): see fuzz.py's fzp_freeze)
    "Gain": ((), [
        "struct $PGain {",
        "  double gain;",
        "  $NG double scale;",
        "  double apply(double v) const { return gain * $FZ(scale) * v + 0.25 * $FZ(scale); }",
        "};",
    ]),
    "damp": ((), [
        "static double $Pdamp(double v, $NG double k) {",
        "  return v * $FZ(k) + 0.5 * std::sin(v) * $FZ(k);",
        "}",
    ]),
    # feature "retarr": helpers returning arrays by value
    "mapped": ((), [
        "static std::vector<double> $Pmapped(const double* a, int n, double s) {",
        "  std::vector<double> r(n);",
        "  for (int i = 0; i < n; ++i) {",
        "    r[i] = s * a[i] + std::sin(a[i]);",
        "  }",
        "  return r;",
        "}",
    ]),
    "scaledv": ((), [
        "static std::vector<double> $Pscaledv(const std::vector<double>& v, double s) {",
        "  std::vector<double> r(v.size());",
        "  for (std::size_t i = 0; i < v.size(); ++i) {",
        "    r[i] = s * v[i];",
        "  }",
        "  return r;",
        "}",
    ]),
    "make3": ((), [
        "static std::array<double, 3> $Pmake3(double a, double b, double c) { return {a, b, c}; }",
    ]),
    "cross3": ((), [
        "static std::array<double, 3> $Pcross3(const std::array<double, 3>& a, const std::array<double, 3>& b) {",
        "  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};",
        "}",
    ]),
    "turn3": ((), [
        "static std::array<double, 3> $Pturn3(const std::array<double, 3>& p, double t) {",
        "  std::array<double, 3> r{};",
        "  const double c = std::cos(t), s = std::sin(t);",
        "  r[0] = c * p[0] - s * p[1];",
        "  r[1] = s * p[0] + c * p[1];",
        "  r[2] = p[2] * (1.0 + 0.25 * t * t);",
        "  return r;",
        "}",
    ]),
    "dot3": ((), [
        "static double $Pdot3(const std::array<double, 3>& a, const std::array<double, 3>& b) {",
        "  double s = 0.0;",
        "  for (int i = 0; i < 3; ++i) {",
        "    s += a[i] * b[i];",
        "  }",
        "  return s;",
        "}",
    ]),
    # feature "optional": a helper that may give no value (a passive int decides)
    "maybe": ((), [
        "static std::optional<double> $Pmaybe(double v, int k) {",
        "  if (k % 3 == 0) return std::nullopt;",
        "  return std::tanh(v) + 0.5 * v;",
        "}",
    ]),
    # feature "addr": helpers writing through pointers to single variables
    "bump": ((), [
        "static void $Pbump(double* acc, double v) { *acc += v * std::tanh(v); }",
    ]),
    "Pt": ((), [
        "struct $PPt {",
        "  double x, v;",
        "};",
        "static void $Pnudge($PPt* p, double h) {",
        "  p->x += h * p->v;",
        "  p->v -= h * std::sin(p->x);",
        "}",
    ]),
    # feature "owned": a class owning a std::vector whose methods write its number members
    "Grid": ((), [
        "class $PGrid {",
        " public:",
        "  $PGrid() : rows_(0), cols_(0) {}",
        "  $PGrid(int rows, int cols) : rows_(rows), cols_(cols), data_(rows * cols, 0.0) {}",
        "  int rows() const { return rows_; }",
        "  int cols() const { return cols_; }",
        "  double& operator()(int i, int j) { return data_[i * cols_ + j]; }",
        "  double operator()(int i, int j) const { return data_[i * cols_ + j]; }",
        "  double scale() const { return scale_; }",
        "  void set_scale(double s) {",
        "    scale_ = s;",
        "    ++version_;",
        "  }",
        "  void rescale(double f) { scale_ *= f; }",
        "  void flip() { std::swap(rows_, cols_); }",
        "  $PGrid& damp(double f) {",
        "    scale_ *= f;",
        "    return *this;",
        "  }",
        "  void transpose() {",
        "    std::vector<double> t(data_);",
        "    for (int i = 0; i < rows_; ++i) {",
        "      for (int j = 0; j < cols_; ++j) {",
        "        data_[j * rows_ + i] = t[i * cols_ + j];",
        "      }",
        "    }",
        "    int r = rows_;",
        "    rows_ = cols_;",
        "    cols_ = r;",
        "    ++version_;",
        "  }",
        "  int version() const { return version_; }",
        "  void spend() {",
        "    if (budget_ > 0) --budget_;",
        "  }",
        "  int budget() const { return budget_; }",
        "  void reshape(int r, int c) {",
        "    data_.resize(r * c);",
        "    rows_ = r;",
        "    cols_ = c;",
        "  }",
        "  void pad(int r, double v) {",
        "    data_.resize(r * cols_, v);",
        "    rows_ = r;",
        "  }",
        "",
        " private:",
        "  int rows_, cols_;",
        "  double scale_ = 1.0;",
        "  int version_ = 0;",
        "  int budget_ = 3;",
        "  std::vector<double> data_;",
        "};",
        "static void $Pgrid_fill($PGrid* g, double a, double b) {",
        "  for (int i = 0; i < g->rows(); ++i) {",
        "    for (int j = 0; j < g->cols(); ++j) {",
        "      (*g)(i, j) = std::tanh(a * (i + 1) + b * j);",
        "    }",
        "  }",
        "}",
        "static void $Pgrid_outer(const double* a, int n, double t, $PGrid* out) {",
        "  out->reshape(n, n);",
        "  for (int i = 0; i < n; ++i) {",
        "    for (int j = 0; j < n; ++j) {",
        "      (*out)(i, j) = a[i] * a[j] + t;",
        "    }",
        "  }",
        "}",
        "static void $Pgrid_tune($PGrid& g, double s) {",
        "  g.set_scale(g.scale() * 0.5 + s);",
        "  if (g.version() % 2 == 0) g.rescale(0.75);",
        "}",
        "static double $Pgrid_sum(const $PGrid& g) {",
        "  double t = 0.0;",
        "  for (int i = 0; i < g.rows(); ++i) {",
        "    for (int j = 0; j < g.cols(); ++j) {",
        "      t += g(i, j) * (i + 2 * j + 1);",
        "    }",
        "  }",
        "  return t * g.scale();",
        "}",
    ]),
    # feature "cparams": the class of the marked function's object parameters
    "CP": ((), [
        "struct $PCP {",
        "  double w = 1.0;",
        "  double b = 0.0;",
        "  int k = 1;",
        "  $PCP() = default;",
        "  $PCP(double w0, double b0) : w(w0), b(b0) {}",
        "  double eval(double v) const { return w * std::tanh(v) + b * v; }",
        "  double norm2() const { return w * w + b * b; }",
        "};",
    ]),
    "cpsum": (("CP",), [
        "static double $Pcpsum(const $PCP& c, const double* a, int n) {",
        "  double s = 0.0;",
        "  for (int i = 0; i < n; ++i) {",
        "    s += c.eval(a[i]) * c.k;",
        "  }",
        "  return s;",
        "}",
    ]),
    "Arr3": ((), [
        "struct $PArr3 {",
        "  double r[3] = {};",
        "  double& operator[](int i) { return r[i]; }",
        "  double operator[](int i) const { return r[i]; }",
        "  double dot(const $PArr3& o) const {",
        "    double s = 0.0;",
        "    for (int i = 0; i < 3; ++i) {",
        "      s += r[i] * o.r[i];",
        "    }",
        "    return s;",
        "  }",
        "  $PArr3& axpy(double a, const $PArr3& o) {",
        "    for (int i = 0; i < 3; ++i) {",
        "      r[i] += a * o[i];",
        "    }",
        "    return *this;",
        "  }",
        "};",
    ]),
}


def _public(lines):
    """The same class with every member public (the "avoid-private-members"
    variant: VecPub, SpringPub)."""
    return [l.replace("$PVec", "$PVecPub").replace("$PSpring", "$PSpringPub") for l in lines
            if l.strip() != "private:"]


DECLS["VecPub"] = ((), _public(DECLS["Vec"][1]))
DECLS["SpringPub"] = (("VecPub",), _public(DECLS["Spring"][1]))

# feature "owned": the Grid above written before std::vector, owning
# new[] memory (lib/frontend/owned_buffers.cpp): an ownership flag, a
# destructor freeing it, its own copy constructor and operator=, and a
# reallocation keeping the elements (new, copy, delete[], hand over)
def _rawgrid(grid):
    """RawGrid's class text from Grid's: the same methods over `double*
    data_` it owns (constructors allocating it, its own copy constructor and
    operator=, a destructor, transpose through a new[] copy, reshape and pad
    through resize_to, which hands a new buffer over)."""
    out = []
    lines = iter(grid[:grid.index("};") + 1])
    for line in lines:
        line = line.replace("$PGrid", "$PRawGrid")
        if line.startswith("  $PRawGrid() :"):
            out += ["  $PRawGrid() : own_(true), rows_(0), cols_(0), data_(nullptr) {}",
                    "  $PRawGrid(int rows, int cols) : own_(true), rows_(rows), cols_(cols) {",
                    "    data_ = new double[rows * cols];",
                    "    for (int k = 0; k < rows * cols; ++k) data_[k] = 0.0;",
                    "  }",
                    "  $PRawGrid(const $PRawGrid& o) : own_(true), rows_(0), cols_(0), data_(nullptr) { *this = o; }",
                    "  $PRawGrid& operator=(const $PRawGrid& o) {",
                    "    reshape(o.rows_, o.cols_);",
                    "    for (int k = 0; k < rows_ * cols_; ++k) data_[k] = o.data_[k];",
                    "    scale_ = o.scale_;",
                    "    version_ = o.version_;",
                    "    budget_ = o.budget_;",
                    "    return *this;",
                    "  }",
                    "  ~$PRawGrid() {",
                    "    if (own_ && data_ != nullptr) delete[] data_;",
                    "  }"]
        elif line.startswith("  $PRawGrid(int rows, int cols)"):
            continue
        elif line == "  double operator()(int i, int j) const { return data_[i * cols_ + j]; }":
            out.append("  const double& operator()(int i, int j) const { return data_[i * cols_ + j]; }")
        elif line == "    std::vector<double> t(data_);":
            out += ["    double* t = new double[rows_ * cols_];",
                    "    for (int k = 0; k < rows_ * cols_; ++k) t[k] = data_[k];"]
        elif line == "    int r = rows_;":
            out += ["    delete[] t;", line]
        elif line == "    data_.resize(r * c);":
            out.append("    resize_to(r * c, 0.0);")
        elif line == "    data_.resize(r * cols_, v);":
            out.append("    resize_to(r * cols_, v);")
        elif line == " private:":
            out += [line,
                    "  void resize_to(int n, double v) {",
                    "    double* fresh = new double[n];",
                    "    const int keep = n < rows_ * cols_ ? n : rows_ * cols_;",
                    "    for (int k = 0; k < keep; ++k) fresh[k] = data_[k];",
                    "    for (int k = keep; k < n; ++k) fresh[k] = v;",
                    "    if (own_) delete[] data_;",
                    "    data_ = fresh;",
                    "  }",
                    "  bool own_;"]
        elif line == "  std::vector<double> data_;":
            out.append("  double* data_;")
        else:
            out.append(line)
    return out


DECLS["RawGrid"] = ((), _rawgrid(DECLS["Grid"][1]) + [line.replace("$PGrid", "$PRawGrid").replace("$Pgrid_", "$Prawgrid_")
                                                     for line in DECLS["Grid"][1][DECLS["Grid"][1].index("};") + 1:]])


# --mutate-nograd (self-test of the "nograd" checker): the differentiated copy
# loses its marks, so its gradient sees through the marked values and must
# disagree with the frozen reference.
DROP_MARKS = False


def marks(text, probe):
    """The UNFAD_NO_GRAD marks of feature "nograd": `$NG ` marks a variable,
    parameter or member, `$NOGRAD(e)` is unfad::no_grad(e), and `$FZ(e)` is a
    read of a marked value.  The reference copy (probe) drops the marks and
    freezes every such value at its value at the point (fzp_freeze in
    fuzz.py's driver), so its finite differences see a constant there."""
    if probe:
        return text.replace("$NG ", "").replace("$FZ(", "fzp_freeze(").replace("$NOGRAD(", "fzp_freeze(")
    if DROP_MARKS:
        return text.replace("$NG ", "").replace("$FZ(", "(").replace("$NOGRAD(", "(")
    return text.replace("$NG ", "UNFAD_NO_GRAD ").replace("$FZ(", "(").replace("$NOGRAD(", "unfad::no_grad(")


def declarations(text, pre, probe=False):
    """The definitions (prefixed) of the DECLS that `text` names, with what
    they need, in DECLS order."""
    import re
    used = {n for n in DECLS if re.search(rf"\b{pre}{n}\b", text)}
    for n in reversed(list(DECLS)):
        if n in used:
            used.update(DECLS[n][0])
    out = []
    for n, (_, lines) in DECLS.items():
        if n in used:
            out += [marks(line.replace("$P", pre), probe) for line in lines]
    return out


def bounded(g, depth=2):
    """A generated value squashed into about [-1, 1]."""
    return g.squash(g.dexpr(depth))


def positive(g):
    """A generated value in [0.5, 1.5]."""
    return M.factor(g)


def arrays_ok(g):
    return g.has_arrays and g.n_in_scope() and bool(M.readable(g))


def range_of(g, b, a):
    """(begin, end) of the whole array `a`, as the type allows."""
    t = dict(g.scope.all())[b.use(a)]
    b.use("n")
    if t in G.VECS and g.chance(0.7):
        return (f"{a}.begin()", f"{a}.end()") if g.chance(0.7) else (f"std::begin({a})", f"std::end({a})")
    if t in G.VECS:
        return f"{a}.data()", f"{a}.data() + n"
    return a, f"{a} + n"


def ptr_of(g, b, a):
    t = dict(g.scope.all())[b.use(a)]
    return f"{a}.data()" if t in G.VECS else a


# -- classes -----------------------------------------------------------------

def vec(g):
    """The Vec class's name (its all-public twin with "avoid-private-members")."""
    return "$PVecPub" if "avoid-private-members" in g.features else "$PVec"


def spring(g):
    return "$PSpringPub" if "avoid-private-members" in g.features else "$PSpring"


def c_vec(g):
    """Vec objects: constructors, a method chain, operators, +=."""
    b = M.Block(g)
    u, w = g.fresh("double"), g.fresh("double")  # (object names: never in the scope)
    u, w = "o" + u, "o" + w
    V = vec(g)
    b.lines.append(f"{V} {u}({b.x(bounded(g))}, {b.x(bounded(g))}, {b.x(bounded(g, 1))});")
    if g.chance(0.5):
        b.lines.append(f"{V} {w} = {u}.scaled({b.x(positive(g))}) + {V}({b.x(bounded(g))}, 0.5, -0.25);")
    else:
        b.lines.append(f"{V} {w};")
        b.lines.append(f"{w} += {b.x(positive(g))} * {u};")
    if g.chance(0.5):
        b.lines.append(f"{w} += {u};")
    r = g.rng.randrange(3)
    e = (f"{u}.dot({w})" if r == 0 else f"{w}.norm2() * 0.25" if r == 1 else f"({u} + {w}).x()")
    M.result(g, b, "", e)
    return b.stmt()


def c_arr(g):
    """An object with an array member: elements written through operator[]
    and directly, methods looping over them (unrolled), one updated in a
    loop over n when there is one."""
    b = M.Block(g)
    u, w = "ar" + g.fresh("double"), "ar" + g.fresh("double")
    b.lines.append(f"$PArr3 {u};")
    b.lines.append(f"{u}[0] = {b.x(bounded(g))};")
    b.lines.append(f"{u}.r[1] = {b.x(bounded(g, 1))};")
    b.lines.append(f"{u}[2] = 0.5 * {u}[0];")
    b.lines.append(f"$PArr3 {w};")
    if arrays_ok(g) and g.chance(0.5):
        i = b.local("loop", "int")
        b.use("n")
        b.lines.append(f"for (int {i} = 0; {i} < n; ++{i}) {{")
        b.lines.append(f"  {w}.axpy(0.25, {u});")
        b.lines.append(f"  {w}[1] *= 0.5;")
        b.lines.append("}")
    else:
        b.lines.append(f"{w}.axpy({b.x(bounded(g))}, {u});")
    M.result(g, b, "", g.pick([f"{u}.dot({w})", f"{w}[1] * {u}[0] + {w}.r[2]"]))
    return b.stmt()


def c_spring(g):
    """A Spring built with a member-initialiser list, its const method."""
    b = M.Block(g)
    s = "sp" + g.fresh("double")
    b.lines.append(f"const {spring(g)} {s}({b.x(positive(g))}, 0.5);")
    V = vec(g)
    a = f"{V}({b.x(bounded(g))}, {b.x(bounded(g, 1))}, 0.0)"
    c = f"{V}({b.x(bounded(g))}, 0.25, {b.x(bounded(g, 1))})"
    M.result(g, b, "", f"{s}.energy({a}, {c})")
    return b.stmt()


def c_acc(g):
    """An accumulator object updated by a non-const method (in a loop over
    an array when there is one)."""
    b = M.Block(g)
    acc = "acc" + g.fresh("double")
    b.lines.append(f"$PAcc {acc};")
    if arrays_ok(g):
        a = g.pick(M.readable(g))
        i = b.local("loop", "int")
        b.use("n")
        b.lines.append(f"for (int {i} = 0; {i} < n; ++{i}) {{")
        rd = M.pread(f"{b.use(a)}[{i}]", i)
        e = g.squash(G.bin_(g.pick("+*"), rd, g.dexpr(1))) if g.chance(0.5) else rd
        b.lines.append(f"  {acc}.add({b.x(e)});")
        b.lines.append("}")
    else:
        for _ in range(g.rng.randint(1, 3)):
            b.lines.append(f"{acc}.add({b.x(bounded(g))});")
    M.result(g, b, "", g.pick([f"{acc}.mean()", f"{acc}.spread()", f"{acc}.mean() + 0.5 * {acc}.sum"]))
    return b.stmt()


def c_particle(g):
    """A derived class: the base's constructor and members."""
    b = M.Block(g)
    q = "pt" + g.fresh("double")
    b.lines.append(f"const $PParticle {q}({b.x(positive(g))}, {b.x(bounded(g))});")
    M.result(g, b, "", g.pick([f"{q}.kinetic()", f"{q}.kinetic() + {q}.mass()", f"{q}.mass() * {q}.v"]))
    return b.stmt()


def c_functor(g):
    """A functor object called directly."""
    b = M.Block(g)
    p = "poly" + g.fresh("double")
    b.lines.append(f"const $PPoly {p}({b.x(bounded(g))}, {b.x(bounded(g, 1))}, 0.5);")
    M.result(g, b, "", f"{p}({b.x(bounded(g))}) + 0.5 * {p}({b.x(bounded(g, 1))})")
    return b.stmt()


# -- lambdas -----------------------------------------------------------------

PURE_BODIES = ("v * v + 0.5 * v", "std::sin(v) * v", "std::tanh(v) + 0.25 * v * v", "v / (1.0 + v * v)")


def l_local(g):
    """A lambda in a local, called twice: no capture, or [&] / [=] over a
    generated expression."""
    b = M.Block(g)
    f = "f" + g.fresh("double")
    r = g.rng.randrange(3)
    if r == 0:
        b.lines.append(f"auto {f} = [](double v) {{ return {g.pick(PURE_BODIES)}; }};")
    elif r == 1:
        b.lines.append(f"auto {f} = [&](double v) {{ return v * {b.x(bounded(g, 1))} + std::sin(v); }};")
    else:  # [=] over a double (an array local captured by value is a copy, refused)
        c = g.fresh("double")
        b.lines.append(f"const double {c} = {b.x(bounded(g, 1))};")
        b.lines.append(f"auto {f} = [=](double v) {{ return v * {c} + std::sin(v); }};")
    M.result(g, b, "", f"{f}({b.x(bounded(g))}) {g.pick('+*')} {f}({b.x(g.dexpr(1))})")
    return b.stmt()


def l_capture(g):
    """Captures by value ([c], an init-capture) and a [&] lambda summing
    into a captured double."""
    b = M.Block(g)
    f = "f" + g.fresh("double")
    r = g.rng.randrange(3)
    if r == 0:
        c = g.fresh("double")
        b.lines.append(f"const double {c} = {b.x(bounded(g))};")
        b.defines.append((c, "double"))
        b.lines.append(f"auto {f} = [{c}](double v) {{ return {c} * std::tanh(v) + v; }};")
        M.result(g, b, "", f"{f}({b.x(bounded(g))}) + {f}(0.5)")
    elif r == 1:
        b.lines.append(f"auto {f} = [s = {b.x(positive(g))}](double v) {{ return s * v + std::cos(v); }};")
        M.result(g, b, "", f"{f}({b.x(bounded(g))}) * {f}({b.x(bounded(g, 1))})")
    else:
        s, _ = M.accumulator(g, b)
        b.lines.append(f"auto {f} = [&](double v) {{ {s} += v * std::sin(v); }};")
        if arrays_ok(g):
            a = g.pick(M.readable(g))
            i = b.local("loop", "int")
            b.use("n")
            b.lines.append(f"for (int {i} = 0; {i} < n; ++{i}) {{")
            b.lines.append(f"  {f}({b.x(G.bin_('*', M.pread(f'{b.use(a)}[{i}]', i), positive(g)))});")
            b.lines.append("}")
        else:
            for _ in range(g.rng.randint(1, 3)):
                b.lines.append(f"{f}({b.x(bounded(g))});")
    return b.stmt()


def l_transform(g):
    """std::transform with a lambda into a local vector (or in place), then
    summed."""
    b = M.Block(g)
    a = g.pick(M.readable(g))
    first, last = range_of(g, b, a)
    u = g.fresh("lvec")
    b.lines.append(f"std::vector<double> {u}(n);")
    r = g.rng.randrange(3)
    if r == 0:
        b.lines.append(f"std::transform({first}, {last}, {u}.begin(), [&](double v) {{ return {b.x(positive(g))} "
                       f"* std::sin(v); }});")
    elif r == 1:
        a2 = g.pick(M.readable(g))
        f2, _ = range_of(g, b, a2)
        b.lines.append(f"std::transform({first}, {last}, {f2}, {u}.begin(), [](double x, double y) {{ return x * "
                       f"std::cos(y); }});")
    else:
        b.lines.append(f"std::copy({first}, {last}, {u}.begin());")
        b.lines.append(f"std::transform({u}.begin(), {u}.end(), {u}.begin(), [](double v) {{ return "
                       f"{g.pick(PURE_BODIES)}; }});")
    M.result(g, b, "", f"std::accumulate({u}.begin(), {u}.end(), 0.0)")
    return b.stmt()


def l_reduce(g):
    """std::accumulate, std::inner_product, std::transform_reduce with
    callables, std::for_each with a [&] lambda."""
    b = M.Block(g)
    a = g.pick(M.readable(g))
    first, last = range_of(g, b, a)
    r = g.rng.randrange(5)
    if r == 0:
        M.result(g, b, "", f"std::accumulate({first}, {last}, 0.0, [](double s, double v) {{ return s + "
                           f"{g.pick(PURE_BODIES)}; }})")
    elif r == 1:
        f2, _ = range_of(g, b, g.pick(M.readable(g)))
        M.result(g, b, "", f"std::inner_product({first}, {last}, {f2}, 0.0, std::plus<>(), [](double x, double y) "
                           f"{{ return x * std::sin(y); }})")
    elif r == 2:
        f2, _ = range_of(g, b, g.pick(M.readable(g)))
        M.result(g, b, "", f"std::transform_reduce({first}, {last}, {f2}, 0.0)")
    elif r == 3:
        M.result(g, b, "", f"std::transform_reduce({first}, {last}, 0.0, std::plus<>(), [](double v) {{ return "
                           f"{g.pick(PURE_BODIES)}; }})")
    else:
        s, _ = M.accumulator(g, b)
        b.lines.append(f"std::for_each({first}, {last}, [&](double v) {{ {s} += {b.x(positive(g))} * "
                       f"std::cos(v); }});")
    return b.stmt()


def l_template(g):
    """A template taking a callable: a lambda or the Poly functor."""
    b = M.Block(g)
    a = g.pick(M.readable(g))
    p = ptr_of(g, b, a)
    b.use("n")
    if g.chance(0.6):
        f = f"[&](double v) {{ return v * {b.x(bounded(g, 1))} + std::tanh(v); }}"
    else:
        f = f"$PPoly({b.x(bounded(g))}, 0.5, {b.x(bounded(g, 1))})"
    M.result(g, b, "", f"$Papply_sum({f}, {p}, n)")
    return b.stmt()


# -- custom derivatives ------------------------------------------------------

def x_custom(g):
    """Calls of functions with a registered derivative: a scalar one on a
    generated value or on each element in a loop, given by name to
    std::transform_reduce, and one taking an array."""
    b = M.Block(g)
    r = g.rng.randrange(5) if arrays_ok(g) else 0
    if r == 0:
        M.result(g, b, "", f"$Psoftplus({b.x(g.squash(g.dexpr(2)))}) {g.pick('+*')} {b.x(bounded(g, 1))}")
    elif r == 1:
        M.sum_over_array(g, b, lambda rd: f"{b.x(positive(g))} * $Psoftplus({b.x(rd)})")
    elif r == 2:
        first, last = range_of(g, b, g.pick(M.readable(g)))
        M.result(g, b, "", f"std::transform_reduce({first}, {last}, 0.0, std::plus<>(), $Psoftplus)")
    elif r == 3:
        a = g.pick(M.readable(g))
        p = ptr_of(g, b, a)
        b.use("n")
        M.result(g, b, "", f"{b.x(positive(g))} * $Pwsq({p}, n)")
    else:
        # a buffer written by one custom function and updated in place by
        # another (maybe twice), then summed
        a = g.pick(M.readable(g))
        p = ptr_of(g, b, a)
        b.use("n")
        buf = b.local("buf", "vec")
        b.lines.append(f"std::vector<double> {buf}(n);")
        b.lines.append(f"$Pscale_into({p}, {b.x(positive(g))}, {buf}.data(), n);")
        for _ in range(g.rng.randrange(3)):
            b.lines.append(f"$Prelax({buf}.data(), {b.x(bounded(g, 1))}, n);")
        M.sum_over_buffer(g, b, buf)
    return b.stmt()


# -- switch ------------------------------------------------------------------

def selector(g, b):
    """An int expression of the scope, and the text naming it."""
    ints = [v for v in g.vars_of("int") if v not in g.consts]
    loops = [v for v, _ in g.scope.all() if v in g.loopinfo]
    if loops and g.chance(0.5):
        return b.use(g.pick(loops))
    if ints and g.chance(0.8):
        return b.use(g.pick(ints))
    return str(g.rng.randrange(4))


def s_switch(g):
    """A switch with break, fall-through, default and maybe an initialiser,
    an enum class or a continue."""
    b = M.Block(g)
    sel = selector(g, b)
    s, _ = M.accumulator(g, b)
    enum = g.chance(0.25)
    k = f"(({sel}) % 3 + 3) % 3"
    if enum:
        head = f"switch (static_cast<$PKind>({k}))"
        labels = ["$PKind::Linear", "$PKind::Square", "$PKind::Wave"]
    elif g.chance(0.3):
        m = b.local("ix", "int")
        head = f"switch (int {m} = ({sel}) % 4; {m})"
        labels = ["0", "1", "2"]
    else:
        head = f"switch (({sel}) % 4)"
        labels = ["0", "1", "2"]
    arms = [
        [f"{s} += {b.x(bounded(g))};", "break;"],
        [f"{s} *= {b.x(positive(g))};", "[[fallthrough]];"],
        [f"{s} -= {b.x(bounded(g))};", "break;"],
    ]
    if g.loop_depth > 0 and g.chance(0.3):
        arms[2] = [f"{s} -= {b.x(bounded(g, 1))};", "continue;"]
    cases = [[f"case {labels[j]}:"] + arms[j] for j in range(3)]
    if g.chance(0.3):  # stacked labels
        cases[0] = [f"case {labels[0]}:", f"case {labels[1]}:"] + arms[0]
        cases[1] = [f"case {labels[2]}:"] + arms[1][:1] + ["break;"]
        cases = cases[:2]
    if not enum or g.chance(0.5):
        default = ["default:", f"{s} = {s} * 0.5 + {b.x(bounded(g, 1))};", "break;"]
        cases.insert(g.rng.randrange(len(cases) + 1), default)
    b.lines.append(head + " {")
    for c in cases:
        for line in c:
            b.lines.append(("  " if line.startswith(("case", "default")) else "    ") + line)
    b.lines.append("}")
    return b.stmt()


# -- std::optional (feature "optional") ---------------------------------------

def o_optional(g):
    """A std::optional<double> from a helper that may give none, tested and
    read; or one carried across a loop, assigned, reset and re-emplaced."""
    b = M.Block(g)
    sel = selector(g, b)
    s, _ = M.accumulator(g, b)
    o = "opt" + g.fresh("double")
    r = g.rng.randrange(3)
    if r == 0:
        b.lines.append(f"if (auto {o} = $Pmaybe({b.x(bounded(g))}, {sel})) {{")
        b.lines.append(f"  {s} += *{o} * {b.x(bounded(g, 1))};")
        b.lines.append("} else {")
        b.lines.append(f"  {s} -= {b.x(bounded(g))};")
        b.lines.append("}")
    elif r == 1:
        b.lines.append(f"const std::optional<double> {o} = $Pmaybe({b.x(bounded(g))}, {sel} + 1);")
        b.lines.append(f"{s} += {o}.value_or({b.x(bounded(g, 1))});")
        b.lines.append(f"if ({o}.has_value()) {s} += 0.5 * {o}.value();")
        b.lines.append(f"if ({o} == std::nullopt) {s} *= 0.75;")
    else:
        i = b.local("loop", "int")
        b.lines.append(f"std::optional<double> {o};")
        b.lines.append(f"for (int {i} = 0; {i} < {g.rng.randint(1, 4)}; ++{i}) {{")
        b.lines.append(f"  if (({i} + {sel}) % 2 == 0) {{")
        b.lines.append(f"    {o} = {b.x(bounded(g))};")
        b.lines.append(f"  }} else if ({i} % 3 == 2) {{")
        b.lines.append(f"    {o}.reset();")
        b.lines.append(f"  }} else if ({o}) {{")
        b.lines.append(f"    {o}.emplace(*{o} * 0.5 + {b.x(bounded(g, 1))});")
        b.lines.append("  }")
        b.lines.append("}")
        b.lines.append(f"{s} += {o} ? *{o} : {b.x(bounded(g))};")
    return b.stmt()


# -- pointers to locals (feature "addr") --------------------------------------

def a_pointer(g):
    """A local double or struct written by a helper through its address."""
    b = M.Block(g)
    s, _ = M.accumulator(g, b)
    c = "cell" + g.fresh("double")
    if g.chance(0.5):
        b.lines.append(f"double {c} = {b.x(bounded(g))};")
        if g.chance(0.5):
            i = b.local("loop", "int")
            b.lines.append(f"for (int {i} = 0; {i} < {g.rng.randint(1, 3)}; ++{i}) {{")
            b.lines.append(f"  $Pbump(&{c}, {b.x(bounded(g, 1))} + 0.5 * {i});")
            b.lines.append("}")
        else:
            b.lines.append(f"$Pbump(&{c}, {b.x(bounded(g, 1))});")
            b.lines.append(f"{c} *= 0.5;")
            b.lines.append(f"$Pbump(&{c}, {c});")
        b.lines.append(f"{s} += {c} * {b.x(bounded(g))};")
    else:
        b.lines.append(f"$PPt {c}{{{b.x(bounded(g))}, {b.x(bounded(g, 1))}}};")
        for _ in range(g.rng.randint(1, 3)):
            b.lines.append(f"$Pnudge(&{c}, 0.25);")
        b.lines.append(f"{s} += {c}.x * {c}.v;")
    return b.stmt()


# -- objects whose methods write their members (feature "owned") ------------

def small_loop(g, b, body):
    """`for (int i = 0; i < 1..3; ++i) { ... }` in block b: body(i) gives
    the loop body's lines (drawn after the bound)."""
    i = b.local("loop", "int")
    b.lines.append(f"for (int {i} = 0; {i} < {g.rng.randint(1, 3)}; ++{i}) {{")
    b.lines.extend("  " + line for line in body(i))
    b.lines.append("}")


def g_owned(g):
    """A Grid built, filled through a pointer, changed by methods (directly,
    through a helper's reference, a reference local, in a loop and a
    branch), resized (reshaped, padded, sized by a helper in a loop body
    that makes it, reshaped in a loop to its own shape, made empty before a
    loop whose every iteration sizes it alike), assigned whole
    (also in a loop) and summed."""
    b = M.Block(g)
    raw = g.chance(0.5)  # (the same Grid owning new[] memory: RawGrid)
    s, _ = M.accumulator(g, b)
    v = "grid" + g.fresh("double")
    b.lines.append(f"$PGrid {v}({g.rng.randint(1, 3)}, {g.rng.randint(1, 3)});")
    b.lines.append(f"$Pgrid_fill(&{v}, {b.x(bounded(g))}, {b.x(bounded(g, 1))});")
    for _ in range(g.rng.randint(1, 3)):
        r = g.rng.randrange(15)
        if r == 0:
            b.lines.append(f"{v}.set_scale({b.x(bounded(g))});")
        elif r == 1:
            b.lines.append(f"$Pgrid_tune({v}, {b.x(bounded(g))});")
        elif r == 2:
            b.lines.append(f"{v}.transpose();")
        elif r == 3:
            small_loop(g, b, lambda i: ([f"{v}.flip();"] if g.chance(0.5) else []) + [  # (std::swap of two members)
                f"if ({i} % 2 == 0) {v}.rescale(0.875);",
                f"else $Pgrid_tune({v}, {b.x(bounded(g, 1))} + 0.125 * {i});",
                f"{s} += $Pgrid_sum({v});"])
        elif r == 4:  # (the bound read again each iteration: spend() lowers it)
            i = b.local("loop", "int")
            b.lines.append(f"for (int {i} = 0; {i} < {v}.budget(); ++{i}) {{")
            b.lines.append(f"  {s} += {v}({i} % {v}.rows(), 0) * {b.x(bounded(g))};")
            b.lines.append(f"  if ({i} % 2 == 1) {v}.spend();")
            b.lines.append("}")
        elif r == 6:  # (C++17: the chain runs before set_scale's argument reads the scale)
            b.lines.append(f"{v}.damp({b.x(positive(g))}).damp(0.5).set_scale({v}.scale() + {b.x(bounded(g))});")
        elif r == 5:
            w = "ref" + g.fresh("double")
            b.lines.append(f"$PGrid& {w} = {v};")
            b.lines.append(f"{w}.rescale({b.x(positive(g))});")
        elif r == 8:  # (resized: a shrink keeps the first elements, a growth adds zeros)
            b.lines.append(f"{v}.reshape({g.rng.randint(1, 3)}, {g.rng.randint(1, 3)});")
            b.lines.append(f"{v}(0, 0) += {b.x(bounded(g))};")
        elif r == 9:  # (the elements it adds are the value)
            b.lines.append(f"{v}.pad({v}.rows() + {g.rng.randint(0, 2)}, {b.x(bounded(g))});")
        elif r == 10:  # (made in a loop body and sized there by a helper)
            w = "grid" + g.fresh("double")
            arr = "arr" + g.fresh("double")
            small_loop(g, b, lambda i: [
                f"double {arr}[3] = {{{b.x(bounded(g))}, {b.x(bounded(g, 1))}, 0.5 * {i}}};",
                f"$PGrid {w}(1, 1);",
                f"$Pgrid_outer({arr}, 2 + {i} % 2, {v}(0, 0), &{w});",
                f"{s} += $Pgrid_sum({w});"])
        elif r == 11:  # (a whole object assigned: resized to the source's size, its members copied)
            w = "grid" + g.fresh("double")
            b.lines.append(f"$PGrid {w}({g.rng.randint(1, 3)}, {g.rng.randint(1, 3)});")
            b.lines.append(f"{w}.set_scale({b.x(bounded(g))});")
            b.lines.append(f"{w} = {v};")
            b.lines.append(f"{s} += $Pgrid_sum({w}) * {w}.rows();")
        elif r == 12:  # (assigned in a loop, at its own size: f_grad checks it keeps it)
            w = "grid" + g.fresh("double")
            b.lines.append(f"$PGrid {w} = {v};")
            small_loop(g, b, lambda i: [
                f"{w}.rescale({b.x(positive(g))});",
                f"{w}(0, 0) += {b.x(bounded(g))};",
                f"{v} = {w};",
                f"{s} += $Pgrid_sum({v});"])
        elif r == 13:  # (reshaped in a loop to the shape it has)
            small_loop(g, b, lambda i: [
                f"{v}.reshape({v}.rows(), {v}.cols());",
                f"{v}(0, {v}.cols() - 1) *= {b.x(bounded(g))};"])
        elif r == 14:  # (made empty before the loop, sized by a helper in each iteration alike)
            w = "grid" + g.fresh("double")
            arr = "arr" + g.fresh("double")
            n = g.rng.randint(1, 3)
            b.lines.append(f"$PGrid {w};")
            small_loop(g, b, lambda i: [
                f"double {arr}[3] = {{{b.x(bounded(g))}, {b.x(bounded(g, 1))}, 0.5 * {i}}};",
                f"$Pgrid_outer({arr}, {n}, {v}(0, 0), &{w});",
                f"{v}(0, 0) += 0.25 * {w}({n - 1}, 0);",
                f"{s} += $Pgrid_sum({w});"])
            b.lines.append(f"{s} += {w}.rows() * {b.x(bounded(g))};")
        else:  # (a name made in the loop body: the loop carries what it writes)
            w = "ref" + g.fresh("double")
            small_loop(g, b, lambda i: [
                f"$PGrid& {w} = {v};",
                f"{w}.rescale({b.x(positive(g))});",
                f"{s} += {w}.scale() * {b.x(bounded(g, 1))};"])
    b.lines.append(f"{s} += $Pgrid_sum({v}) + {v}.version() * 0.25 + {v}.rows();")
    if raw:
        b.lines = [line.replace("$PGrid", "$PRawGrid").replace("$Pgrid_", "$Prawgrid_") for line in b.lines]
    return b.stmt()


# -- UNFAD_NO_GRAD (feature "nograd") ----------------------------------------

def n_var(g):
    """A local marked UNFAD_NO_GRAD (maybe assigned again: still no
    derivative), read in the block (and in a loop over an array)."""
    b = M.Block(g)
    t = b.local("double", "double")
    b.lines.append(f"$NG double {t} = {b.x(bounded(g))};")
    if g.chance(0.3):
        b.lines.append(f"{t} = $FZ({t}) * 0.5 + {b.x(bounded(g, 1))};")
    if arrays_ok(g) and g.chance(0.5):
        M.sum_over_array(g, b, lambda rd: f"$FZ({t}) * {b.x(rd)}")
    else:
        M.result(g, b, "", f"$FZ({t}) {g.pick('+*')} {b.x(bounded(g))}")
    return b.stmt()


def n_call(g):
    """unfad::no_grad(e) on a value or a call, inside an expression (and on
    each element in a loop)."""
    b = M.Block(g)
    r = g.rng.randrange(3) if arrays_ok(g) else g.rng.randrange(2)
    if r == 0:
        M.result(g, b, "", f"$NOGRAD({b.x(bounded(g))}) * {b.x(bounded(g))} + {b.x(bounded(g, 1))}")
    elif r == 1:
        M.result(g, b, "", f"{b.x(bounded(g, 1))} * $NOGRAD(std::sin({b.x(g.dexpr(1))}))")
    else:
        M.sum_over_array(g, b, lambda rd: f"{b.x(rd)} * $NOGRAD({b.x(rd)})")
    return b.stmt()


def n_member(g):
    """A struct with a member marked UNFAD_NO_GRAD (read directly and by a
    method), and a helper with a marked parameter."""
    b = M.Block(g)
    if g.chance(0.35):
        M.result(g, b, "", f"$Pdamp({b.x(bounded(g))}, {b.x(bounded(g, 1))})")
        return b.stmt()
    o = "gn" + g.fresh("double")
    b.lines.append(f"$PGain {o}{{{b.x(bounded(g))}, {b.x(bounded(g))}}};")
    if g.chance(0.3):
        b.lines.append(f"{o}.scale = {b.x(bounded(g, 1))};")
    M.result(g, b, "", g.pick([f"{o}.apply({b.x(bounded(g))})",
                               f"{o}.gain * $FZ({o}.scale) + {o}.apply(0.5)",
                               f"$FZ({o}.scale) * {b.x(bounded(g, 1))}"]))
    return b.stmt()


# -- helpers returning arrays (feature "retarr") ------------------------------

def r_vector(g):
    """A helper returning std::vector<double> by value: into a local read by
    index or by range-for, or called in a loop over steps."""
    b = M.Block(g)
    a = g.pick(M.readable(g))
    t = dict(g.scope.all())[b.use(a)]
    b.use("n")
    if t in G.VECS and g.chance(0.5):
        call = f"$Pscaledv({a}, {b.x(positive(g))})"
    else:
        call = f"$Pmapped({ptr_of(g, b, a)}, n, {b.x(positive(g))})"
    s, _ = M.accumulator(g, b)
    r = g.rng.randrange(3)
    if r == 0:
        y = b.local("lvec", "lvec")
        i = b.local("loop", "int")
        b.lines.append(f"{g.pick(['auto', 'const auto', 'std::vector<double>'])} {y} = {call};")
        b.lines.append(f"for (int {i} = 0; {i} < n; ++{i}) {{")
        b.lines.append(f"  {s} += {b.x(M.pread(f'{y}[{i}]', i))} * {b.x(bounded(g, 1))};")
        b.lines.append("}")
    elif r == 1:
        e = b.local("double", "double")
        b.lines.append(f"for (double {e} : {call}) {{")
        b.lines.append(f"  {s} += {b.x(g.squash(G.var(e, 'double')))};")
        b.lines.append("}")
    else:
        k = b.local("loop", "int")
        y = b.local("lvec", "lvec")
        b.lines.append(f"for (int {k} = 0; {k} < {g.rng.randint(1, 3)}; ++{k}) {{")
        b.lines.append(f"  const auto {y} = {call};")
        b.lines.append(f"  {s} += 0.5 * {y}[0] + {y}[n - 1];")
        b.lines.append("}")
    return b.stmt()


def r_array(g):
    """Helpers returning std::array<double, 3>: nested calls, an element of
    a returned array, a state reassigned in a loop (p = turn(p, t))."""
    b = M.Block(g)
    mk = lambda: f"$Pmake3({b.x(bounded(g))}, {b.x(bounded(g, 1))}, {b.x(bounded(g, 1))})"  # noqa: E731
    r = g.rng.randrange(3)
    if r == 0:
        c = b.local("V3", "arr3")
        b.lines.append(f"const auto{g.pick(['', '&'])} {c} = $Pcross3({mk()}, {mk()});")
        M.result(g, b, "", f"{c}[0] * {b.x(bounded(g))} + $Pdot3({c}, {mk()})")
    elif r == 1:
        M.result(g, b, "", f"$Pdot3($Pcross3({mk()}, {mk()}), {mk()}) + $Pcross3({mk()}, {mk()})[2]")
    else:
        q = b.local("V3", "arr3")
        b.lines.append(f"std::array<double, 3> {q} = {mk()};")
        k = b.local("loop", "int")
        if arrays_ok(g) and g.chance(0.6):
            a = g.pick(M.readable(g))
            b.use("n")
            b.lines.append(f"for (int {k} = 0; {k} < n; ++{k}) {{")
            b.lines.append(f"  {q} = $Pturn3({q}, {b.x(g.squash(M.pread(f'{b.use(a)}[{k}]', k)))});")
        else:
            b.lines.append(f"for (int {k} = 0; {k} < {g.rng.randint(1, 3)}; ++{k}) {{")
            b.lines.append(f"  {q} = $Pturn3({q}, {b.x(bounded(g))});")
        b.lines.append("}")
        M.result(g, b, "", f"{q}[0] + {q}[1] * {q}[2]")
    return b.stmt()


# -- object parameters (feature "cparams") ------------------------------------

def objects(g):
    return [n for n, t in g.scope.all() if t in G.CPARAMS]


def p_read(g):
    """The members and methods of an object parameter, a copy of it, and
    the object passed on to a helper (in a loop over an array too)."""
    b = M.Block(g)
    c = b.use(g.pick(objects(g)))
    r = g.rng.randrange(4) if arrays_ok(g) else g.rng.randrange(2)
    if r == 0:
        M.result(g, b, "", g.pick([f"{c}.w * {b.x(bounded(g))} + {c}.b",
                                   f"{c}.eval({b.x(bounded(g))}) * {c}.k",
                                   f"{c}.norm2() + {c}.eval({b.x(bounded(g, 1))})"]))
    elif r == 1:
        o = "cp" + g.fresh("double")
        b.lines.append(f"$PCP {o} = {c};")
        b.lines.append(f"{o}.w = {o}.w * 0.5 + {b.x(bounded(g, 1))};")
        M.result(g, b, "", f"{o}.eval({c}.b) + {o}.w * {c}.w")
    elif r == 2:
        M.sum_over_array(g, b, lambda rd: f"{c}.eval({b.x(rd)}) * {c}.b")
    else:
        a = g.pick(M.readable(g))
        b.use("n")
        M.result(g, b, "", f"$Pcpsum({c}, {ptr_of(g, b, a)}, n)")
    return b.stmt()


STMTS = {"c_arr": c_arr, "c_vec": c_vec, "c_spring": c_spring, "c_acc": c_acc, "c_particle": c_particle, "c_functor": c_functor,
         "l_local": l_local, "l_capture": l_capture, "l_transform": l_transform, "l_reduce": l_reduce,
         "l_template": l_template, "s_switch": s_switch, "x_custom": x_custom,
         "p_read": p_read, "n_var": n_var, "n_call": n_call, "n_member": n_member, "r_vector": r_vector, "r_array": r_array,
         "o_optional": o_optional, "a_pointer": a_pointer, "g_owned": g_owned}


def options(g):
    """The language statements possible here (weighted), as "lang:<name>"."""
    if not g.in_main:
        return []
    opts = []
    if "classes" in g.features:
        opts += ["c_vec"] * 2 + ["c_spring", "c_acc", "c_acc", "c_functor", "c_arr"]
        if "avoid-base-classes" not in g.features:
            opts += ["c_particle"]
    if "lambdas" in g.features:
        opts += ["l_local"] * 2 + ["l_capture"] * 2
        if arrays_ok(g):
            opts += ["l_transform"] * 2 + ["l_reduce"] * 3 + ["l_template"]
    if "switch" in g.features:
        opts += ["s_switch"] * 3
    if "custom" in g.features and "jvp" not in g.features:  # (no pushforwards of custom derivatives)
        opts += ["x_custom"] * 3
    if "nograd" in g.features:
        opts += ["n_var"] * 2 + ["n_call"] * 2 + ["n_member"] * 2
    if "cparams" in g.features and objects(g):
        opts += ["p_read"] * 4
    if "optional" in g.features:
        opts += ["o_optional"] * 3
    if "addr" in g.features:
        opts += ["a_pointer"] * 3
    if "owned" in g.features:
        opts += ["g_owned"] * 3
    if "retarr" in g.features:
        opts += ["r_array"] * 2
        if arrays_ok(g):
            opts += ["r_vector"] * 3
    return ["lang:" + o for o in opts]
