// The statement tree: backward liveness and dead-code removal, the
// clean-ups after it, and its text.
#include "printer.h"

namespace unfad::printer::detail {

namespace {

bool hasEffectStmt(const Block &b) {
  for (auto &s : b) {
    if (s.k == Stmt::Effect || s.effect) return true;
    if (hasEffectStmt(s.thenB) || hasEffectStmt(s.elseB) || hasEffectStmt(s.condB) || hasEffectStmt(s.bodyB))
      return true;
  }
  return false;
}

// A loop's part of dce(): `live` is what is live after it, and becomes what
// is live before it. H, live at the loop head (before condB and the test),
// is iterated to a fixpoint: H = condB^-1(test uses + after + body^-1(H)).
// Whether the loop stays: something in it survives.
bool loopLiveness(Stmt &s, std::set<std::string> &live, bool drop) {
  const std::set<std::string> after = live;
  auto step = [&](const std::set<std::string> &h, bool d, size_t *nb, size_t *nc) {
    std::set<std::string> lb = h;
    size_t kb = dce(s.bodyB, lb, d);
    std::set<std::string> lc = after;
    lc.insert(s.uses.begin(), s.uses.end());
    lc.insert(lb.begin(), lb.end());
    size_t kc = dce(s.condB, lc, d);
    if (nb) *nb = kb;
    if (nc) *nc = kc;
    return lc;
  };
  std::set<std::string> head = after;
  head.insert(s.uses.begin(), s.uses.end());
  for (;;) {
    std::set<std::string> h2 = step(head, false, nullptr, nullptr);
    size_t before = head.size();
    head.insert(h2.begin(), h2.end());
    if (head.size() == before) break;
  }
  size_t nb = 0, nc = 0;
  step(head, drop, &nb, &nc);
  if (nb == 0 && !hasEffectStmt(s.condB)) return false; // nothing left to repeat
  live = std::move(head);
  if (!s.loopVar.empty()) live.erase(s.loopVar);
  return true;
}

void collectAssigned(const Block &b, std::set<std::string> &out) {
  for (auto &s : b) {
    if (s.k == Stmt::Assign) out.insert(s.def);
    collectAssigned(s.thenB, out);
    collectAssigned(s.elseB, out);
    collectAssigned(s.condB, out);
    collectAssigned(s.bodyB, out);
  }
}

void dropDeadDecls(Block &b, const std::set<std::string> &assigned) {
  Block kept;
  for (auto &s : b) {
    if (s.k == Stmt::Decl && !s.init && !assigned.count(s.def)) continue;
    dropDeadDecls(s.thenB, assigned);
    dropDeadDecls(s.elseB, assigned);
    dropDeadDecls(s.condB, assigned);
    dropDeadDecls(s.bodyB, assigned);
    kept.push_back(std::move(s));
  }
  b = std::move(kept);
}

} // namespace

// Effects (stores, calls that write, pullbacks into buffers) are always
// kept, and so are the ifs and loops around them.
Stmt lineStmt(Stmt::K k, std::string line, const std::string &reads) {
  Stmt s;
  s.k = k;
  s.line = std::move(line);
  collectIdents(reads, s.uses);
  return s;
}

size_t dce(Block &b, std::set<std::string> &live, bool drop) {
  std::vector<char> keepv(b.size(), 1);
  size_t kept = 0;
  for (size_t i = b.size(); i-- > 0;) {
    Stmt &s = b[i];
    bool keep = true, counts = true;
    switch (s.k) {
    case Stmt::Accum:
    case Stmt::Return:
    case Stmt::Effect:
      live.insert(s.uses.begin(), s.uses.end());
      break;
    case Stmt::Decl:
      if (!s.init) { // kept later iff some assignment to it survives
        live.erase(s.def);
        counts = false;
        break;
      }
      [[fallthrough]];
    case Stmt::Assign:
      if (!live.count(s.def)) {
        if (s.effect) { // the value is unused, the call is not
          if (drop) s.useEffLine = true;
          live.insert(s.uses.begin(), s.uses.end());
          break;
        }
        keep = false;
        break;
      }
      if (drop) s.useEffLine = false;
      live.erase(s.def);
      live.insert(s.uses.begin(), s.uses.end());
      break;
    case Stmt::PbCall: {
      // (a value_and_pullback's value, s.def: kept for it, or printed
      // without it when only its effects are)
      const bool valueLive = !s.def.empty() && live.count(s.def);
      keep = s.effect || valueLive;
      for (auto &o : s.outs) keep = keep || live.count(o);
      if (keep) {
        if (drop && !s.def.empty()) s.useEffLine = !valueLive;
        if (!s.def.empty()) live.erase(s.def);
        live.insert(s.uses.begin(), s.uses.end());
        live.insert(s.outs.begin(), s.outs.end());
      }
      break;
    }
    case Stmt::IfS: {
      std::set<std::string> lt = live, le = live;
      size_t n = dce(s.thenB, lt, drop) + dce(s.elseB, le, drop);
      if (n == 0) {
        keep = false;
        break;
      }
      live = std::move(lt);
      live.insert(le.begin(), le.end());
      live.insert(s.uses.begin(), s.uses.end());
      break;
    }
    case Stmt::Loop:
      keep = loopLiveness(s, live, drop);
      break;
    }
    keepv[i] = keep;
    if (keep && counts) ++kept;
  }
  if (drop) {
    Block nb;
    for (size_t i = 0; i < b.size(); ++i)
      if (keepv[i]) nb.push_back(std::move(b[i]));
    b = std::move(nb);
  }
  return kept;
}

void dropUnassignedDecls(Block &b) {
  std::set<std::string> assigned;
  collectAssigned(b, assigned);
  dropDeadDecls(b, assigned);
}

bool mentions(const Stmt &s, const std::string &name) {
  if (s.uses.count(name) || s.def == name) return true;
  for (auto &o : s.outs)
    if (o == name) return true;
  for (const Block *bl : {&s.thenB, &s.elseB, &s.condB, &s.bodyB})
    for (auto &t : *bl)
      if (mentions(t, name)) return true;
  return false;
}

void stmtIdents(const Stmt &s, std::set<std::string> &out) {
  out.insert(s.uses.begin(), s.uses.end());
  out.insert(s.outs.begin(), s.outs.end());
  if (!s.def.empty()) out.insert(s.def);
  for (const Block *bl : {&s.thenB, &s.elseB, &s.condB, &s.bodyB})
    for (auto &t : *bl) stmtIdents(t, out);
}

// When nothing between reads or writes s and nothing else reads t: the
// update written in place.
void sinkAssigns(Block &b, size_t from) {
  for (size_t a = from; a < b.size(); ++a) {
    if (b[a].k != Stmt::Assign) continue;
    const std::string t = b[a].rhs, s = b[a].def;
    size_t d = a;
    for (size_t k = 0; k < a; ++k)
      if (b[k].k == Stmt::Decl && b[k].def == t) d = k;
    if (d == a || !b[d].init || b[d].effect || b[d].rhs.empty()) continue;
    bool ok = true;
    for (size_t k = d + 1; k < b.size() && ok; ++k)
      if (k != a && (mentions(b[k], t) || (k < a && mentions(b[k], s)))) ok = false;
    if (!ok) continue;
    if (b[d].rhs == s) { // `const t = s; ...; s = t`: s keeps its value
      b.erase(b.begin() + long(a));
      b.erase(b.begin() + long(d));
      a -= 2;
      continue;
    }
    Stmt ns;
    ns.k = Stmt::Assign;
    ns.def = s;
    ns.rhs = b[d].rhs;
    ns.line = s + " = " + ns.rhs + ";";
    ns.uses = b[d].uses;
    b[d] = std::move(ns);
    b.erase(b.begin() + long(a));
    --a;
  }
}

void emit(const Block &b, int depth, std::string &out) {
  std::string ind(2 * depth, ' ');
  for (auto &s : b) {
    if (s.k == Stmt::Loop) {
      out += ind + s.line + " {\n";
      emit(s.condB, depth + 1, out);
      if (!s.breakLine.empty()) out += ind + "  " + s.breakLine + "\n";
      emit(s.bodyB, depth + 1, out);
      out += ind + "}\n";
      continue;
    }
    if (s.k != Stmt::IfS) {
      out += ind + (s.useEffLine ? s.effLine : s.line) + "\n";
      continue;
    }
    if (s.thenB.empty()) { // an if whose then-branch only had dead code
      out += ind + "if (" + (s.negCond.empty() ? "!(" + s.cond + ")" : s.negCond) + ") {\n";
      emit(s.elseB, depth + 1, out);
      out += ind + "}\n";
      continue;
    }
    out += ind + "if (" + s.cond + ") {\n";
    emit(s.thenB, depth + 1, out);
    if (!s.elseB.empty()) {
      out += ind + "} else {\n";
      emit(s.elseB, depth + 1, out);
    }
    out += ind + "}\n";
  }
}

} // namespace unfad::printer::detail
