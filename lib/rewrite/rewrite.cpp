#include "unfad/rewrite/rewrite.h"

#include "unfad/driver/pipeline.h"

#include <clang/Basic/SourceManager.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <set>

namespace unfad::rewrite {
namespace {

bool usesCRLF(const std::string &text) {
  size_t n = text.find('\n');
  return n != std::string::npos && n > 0 && text[n - 1] == '\r';
}

std::string withEOL(const std::string &code, const std::string &nl) {
  std::string out;
  for (size_t i = 0; i < code.size(); ++i) {
    if (code[i] == '\r' && i + 1 < code.size() && code[i + 1] == '\n') continue;
    if (code[i] == '\n') out += nl;
    else out += code[i];
  }
  if (!out.empty() && (out.size() < nl.size() || out.compare(out.size() - nl.size(), nl.size(), nl) != 0)) out += nl;
  return out;
}

std::string beginMarker(const std::string &block) { return "// unfad:begin " + block; }
std::string endMarker(const std::string &block) { return "// unfad:end " + block; }

// FNV-1a (32 bits) of a block's contents, line endings normalised to \n:
// the begin marker records it so that a hand edit is noticed.
std::string checksum(const std::string &contents) {
  uint32_t h = 2166136261u;
  for (char c : contents) {
    if (c == '\r') continue;
    h = (h ^ uint8_t(c)) * 16777619u;
  }
  char buf[9];
  std::snprintf(buf, sizeof buf, "%08x", h);
  return buf;
}

// An existing block right after `pos` (whitespace only in between): its end
// (just after the end marker), or npos; `edited` when its contents no
// longer match the checksum its begin marker records.
size_t existingBlockEnd(const std::string &text, size_t pos, const std::string &block, bool *edited = nullptr) {
  size_t j = pos;
  while (j < text.size() && (text[j] == ' ' || text[j] == '\t' || text[j] == '\r' || text[j] == '\n')) ++j;
  std::string b = beginMarker(block);
  if (text.compare(j, b.size(), b) != 0) return std::string::npos;
  size_t after = j + b.size();
  std::string recorded;
  const std::string tag = " checksum=";
  if (text.compare(after, tag.size(), tag) == 0) {
    recorded = text.substr(after + tag.size(), 8);
    after += tag.size() + 8;
  }
  if (after < text.size() && text[after] != '\n' && text[after] != '\r') return std::string::npos;
  std::string e = endMarker(block);
  size_t k = text.find(e, after);
  if (k == std::string::npos) return std::string::npos;
  if (edited) {
    size_t start = text.find('\n', after);
    start = start == std::string::npos || start > k ? k : start + 1;
    *edited = !recorded.empty() && recorded != checksum(text.substr(start, k - start));
  }
  return k + e.size();
}

// Whether the line holding `pos` has more than blanks after it.
bool codeFollowsOnLine(const std::string &text, size_t pos) {
  for (; pos < text.size() && text[pos] != '\n' && text[pos] != '\r'; ++pos)
    if (text[pos] != ' ' && text[pos] != '\t') return true;
  return false;
}

unsigned lineOf(const std::string &text, size_t pos) {
  return unsigned(std::count(text.begin(), text.begin() + std::min(pos, text.size()), '\n')) + 1;
}

} // namespace

std::string quoteLine(const std::string &path) {
  std::string r = "\"";
  for (char c : path) {
    if (c == '"' || c == '\\') r += '\\';
    r += c;
  }
  return r + "\"";
}

std::string blankBlocks(const std::string &text) {
  std::string out = text;
  size_t pos = 0;
  while ((pos = out.find("// unfad:begin ", pos)) != std::string::npos) {
    size_t eol = out.find('\n', pos);
    if (eol == std::string::npos) break;
    std::string name = out.substr(pos + 15, eol - pos - 15);
    name = name.substr(0, name.find(' ')); // without the checksum
    while (!name.empty() && (name.back() == '\r' || name.back() == ' ')) name.pop_back();
    std::string e = "// unfad:end " + name;
    size_t k = out.find(e, eol);
    if (k == std::string::npos) break;
    for (size_t i = eol; i < k; ++i)
      if (out[i] != '\n' && out[i] != '\r') out[i] = ' ';
    pos = k + e.size();
  }
  return out;
}

Rewrite rewrite(const std::string &text, const std::vector<Splice> &splicesIn, const CodeMap &code,
                const LineDirectives &lines) {
  std::string nl = usesCRLF(text) ? "\r\n" : "\n";
  Rewrite r;
  std::vector<Splice> splices = splicesIn;
  // (stable: the definitions of several methods of one class follow the
  // class in source order, each after the previous one's block)
  std::stable_sort(splices.begin(), splices.end(), [](const Splice &a, const Splice &b) { return a.offset < b.offset; });
  size_t cur = 0, previous = std::string::npos;
  if (lines.enabled && lines.atTop) {
    r.text += "#line 1 " + quoteLine(lines.originalName) + nl;
    r.edits.push_back({0, 0, 0, r.text.size()});
  }
  for (const Splice &s : splices) {
    auto it = code.find(s.irName);
    if (it == code.end() || s.offset > text.size()) continue;
    size_t at = s.offset;
    if (at < cur && at != previous) continue;
    previous = at;
    at = std::max(at, cur);
    std::string contents = withEOL(it->second, nl);
    std::string block = nl + beginMarker(s.block) + " checksum=" + checksum(contents) + nl + contents + endMarker(s.block);
    bool edited = false;
    size_t end = existingBlockEnd(text, at, s.block, &edited);
    std::string status = "ok";
    if (end == std::string::npos) {
      status = "missing";
      end = at;
    } else if (edited) {
      status = "edited";
      r.editedLines.push_back({s.block, lineOf(text, at)});
    } else if (text.compare(at, end - at, block) != 0) {
      status = "stale";
    }
    r.status.push_back({s.block, status});
    r.text.append(text, cur, at - cur);
    size_t outBegin = r.text.size();
    if (lines.enabled && !lines.generatedName.empty()) {
      // The block's lines are numbered as the physical lines of this text:
      // the directive is on line n+1, the begin marker on line n+2.
      r.text += nl + "#line ";
      unsigned n = unsigned(std::count(r.text.begin(), r.text.end(), '\n'));
      r.text += std::to_string(n + 2) + " " + quoteLine(lines.generatedName);
    }
    r.text += block;
    if (lines.enabled) {
      // What follows `end` is the rest of the original line holding `end`:
      // the directive line is followed by exactly that line.
      r.text += nl + "#line " + std::to_string(lineOf(text, end)) + " " + quoteLine(lines.originalName) + nl;
    } else if (codeFollowsOnLine(text, end)) {
      r.text += nl; // (`double f() const { ... } };`: the class's end is not commented out by the end marker)
    }
    r.edits.push_back({at, end, outBegin, r.text.size()});
    cur = end;
  }
  r.text.append(text, cur, std::string::npos);
  return r;
}

bool inputOffset(const Rewrite &r, size_t outOffset, size_t &inOffset) {
  size_t shiftFrom = 0, shiftTo = 0; // out offset shiftFrom is input offset shiftTo
  for (const Rewrite::Edit &e : r.edits) {
    if (outOffset <= e.outBegin) break;
    if (outOffset < e.outEnd) return false;
    shiftFrom = e.outEnd, shiftTo = e.inEnd;
  }
  inOffset = outOffset - shiftFrom + shiftTo;
  return true;
}

bool readsChangedBlock(const ir::Program &program, const std::vector<const Rewrite *> &rewrites) {
  std::set<std::string> changed; // unqualified: "Model::loss_grad" -> "loss_grad"
  for (const Rewrite *r : rewrites)
    for (auto &[block, status] : r->status)
      if (status != "ok") changed.insert(block.substr(block.rfind(':') == std::string::npos ? 0 : block.rfind(':') + 1));
  for (const ir::Function &f : program.functions)
    if (!f.marked && changed.count(f.cxx.name)) return true;
  return false;
}

bool generateCode(const ir::Program &program, CodeMap &code, std::string &error) {
  try {
    for (auto &b : unfad::generate(program)) {
      code[b.markedName] = b.code;
      if (!b.declaration.empty()) code[declarationKey(b.markedName)] = b.declaration;
    }
    return true;
  } catch (std::exception &e) {
    error = e.what();
    return false;
  }
}

std::vector<Splice> splicesIn(const clang::SourceManager &sm, const clang::FileID &fid,
                              const std::vector<frontend::MarkedFunction> &marked) {
  std::vector<Splice> out;
  for (auto &[f, splices] : splicesByFile(sm, marked))
    if (f == fid) out = splices;
  return out;
}

std::map<clang::FileID, std::vector<Splice>> splicesByFile(const clang::SourceManager &sm,
                                                           const std::vector<frontend::MarkedFunction> &marked) {
  std::map<clang::FileID, std::vector<Splice>> out;
  for (auto &m : marked) {
    auto [f, off] = sm.getDecomposedLoc(m.bodyEnd);
    if (f.isInvalid()) continue;
    out[f].push_back({size_t(off) + 1, m.block, m.irName});
    if (m.declarationAfter.isInvalid()) continue;
    auto [df, doff] = sm.getDecomposedLoc(m.declarationAfter);
    if (!df.isInvalid()) out[df].push_back({size_t(doff) + 1, declarationBlock(m.block), declarationKey(m.irName)});
  }
  return out;
}

} // namespace unfad::rewrite
