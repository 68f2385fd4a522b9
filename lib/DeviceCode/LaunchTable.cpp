//===- LaunchTable.cpp - launch-table entries of device code --------------===//
//
// Strategy: the expressions are short and evaluated once per launch, so a
// recursive-descent parser evaluates them directly from their text (no
// tree is kept); checking an expression is evaluating it with every name
// bound to zero and reporting only syntax and unknown names.
//
//===----------------------------------------------------------------------===//
#include "ktflow/DeviceCode/LaunchTable.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace ktflow;
using namespace ktflow::dc;
using llvm::StringRef;

namespace {

llvm::Error exprError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message.str());
}

class ExprParser {
public:
  ExprParser(StringRef text, const std::map<std::string, int64_t> &values, bool checkOnly)
      : text(text), rest(text), values(values), checkOnly(checkOnly) {}

  llvm::Expected<int64_t> parse() {
    int64_t v = expr();
    skipSpace();
    if (!error.empty())
      return exprError("in '" + text + "': " + error);
    if (!rest.empty())
      return exprError("in '" + text + "': unexpected '" + rest + "'");
    return v;
  }

private:
  void skipSpace() { rest = rest.ltrim(); }
  bool consume(StringRef token) {
    skipSpace();
    if (!rest.starts_with(token))
      return false;
    // A keyword must not run into a name.
    if (llvm::isAlpha(token.back()) && rest.size() > token.size() &&
        (llvm::isAlnum(rest[token.size()]) || rest[token.size()] == '_'))
      return false;
    rest = rest.drop_front(token.size());
    return true;
  }
  void fail(const llvm::Twine &message) {
    if (error.empty())
      error = message.str();
  }
  int64_t expr() {
    int64_t v = term();
    while (error.empty()) {
      if (consume("+"))
        v += term();
      else if (consume("-"))
        v -= term();
      else
        break;
    }
    return v;
  }
  int64_t divisor() {
    int64_t d = unary();
    if (d <= 0 && !checkOnly) {
      fail(llvm::formatv("a divisor or modulus of {0}", d));
      return 1;
    }
    return d <= 0 ? 1 : d;
  }
  int64_t term() {
    int64_t v = unary();
    while (error.empty()) {
      if (consume("*")) {
        v *= unary();
      } else if (consume("floordiv")) {
        int64_t d = divisor();
        v = v >= 0 ? v / d : -((-v + d - 1) / d);
      } else if (consume("ceildiv")) {
        int64_t d = divisor();
        v = v >= 0 ? (v + d - 1) / d : -((-v) / d);
      } else if (consume("mod")) {
        int64_t d = divisor();
        v = ((v % d) + d) % d;
      } else {
        break;
      }
    }
    return v;
  }
  int64_t unary() {
    if (consume("-"))
      return -unary();
    return primary();
  }
  int64_t primary() {
    skipSpace();
    if (rest.empty()) {
      fail("expected a value");
      return 0;
    }
    if (llvm::isDigit(rest.front())) {
      size_t n = rest.find_if_not([](char c) { return llvm::isDigit(c); });
      int64_t v = 0;
      if (rest.take_front(n).getAsInteger(10, v))
        fail("integer '" + rest.take_front(n) + "' out of range");
      rest = rest.drop_front(n);
      return v;
    }
    if (consume("(")) {
      int64_t v = expr();
      if (!consume(")"))
        fail("expected ')'");
      return v;
    }
    for (StringRef fn : {"min", "max"})
      if (rest.starts_with(fn) && rest.drop_front(fn.size()).ltrim().starts_with("(")) {
        rest = rest.drop_front(fn.size());
        consume("(");
        int64_t a = expr();
        if (!consume(","))
          fail("expected ',' in " + fn);
        int64_t b = expr();
        if (!consume(")"))
          fail("expected ')' after " + fn);
        return fn == "min" ? std::min(a, b) : std::max(a, b);
      }
    if (llvm::isAlpha(rest.front()) || rest.front() == '_') {
      size_t n = rest.find_if_not([](char c) { return llvm::isAlnum(c) || c == '_' || c == '.'; });
      std::string name = rest.take_front(n).str();
      rest = rest.drop_front(n);
      auto it = values.find(name);
      if (it == values.end()) {
        fail("'" + name + "' is not an unbound launch value");
        return 0;
      }
      return it->second;
    }
    fail("unexpected '" + rest.take_front(1) + "'");
    return 0;
  }

  StringRef text, rest;
  const std::map<std::string, int64_t> &values;
  bool checkOnly;
  std::string error;
};

} // namespace

llvm::Expected<int64_t> dc::evaluateLaunchExpr(StringRef expr,
                                               const std::map<std::string, int64_t> &values) {
  return ExprParser(expr, values, /*checkOnly=*/false).parse();
}

llvm::Error dc::checkLaunchExpr(StringRef expr, llvm::ArrayRef<LaunchValue> launch) {
  std::map<std::string, int64_t> zeros;
  for (const LaunchValue &v : launch)
    if (!v.bound)
      zeros[v.name] = 0;
  llvm::Expected<int64_t> value = ExprParser(expr, zeros, /*checkOnly=*/true).parse();
  return value ? llvm::Error::success() : value.takeError();
}

bool dc::hasUnboundLaunchValues(const Bundle &bundle) {
  return llvm::any_of(bundle.launchValues, [](const LaunchValue &v) { return !v.bound; });
}

llvm::Expected<int64_t> dc::parseUnboundValue(const LaunchValue &launch, StringRef text) {
  int64_t value = 0;
  if (text.trim().getAsInteger(10, value))
    return exprError("--arg " + launch.name + "=" + text + ": '" + text + "' is not an " +
                     launch.type + " value");
  if (value < 0 || value > launch.upperbound)
    return exprError(llvm::formatv("--arg {0}={1}: {0} must lie in [0, {2}] (the upperbound "
                                   "of its !ktdp.runtime_arg)",
                                   launch.name, value, launch.upperbound));
  if (value % launch.granularity != 0)
    return exprError(llvm::formatv("--arg {0}={1}: {0} must be a multiple of {2} (the "
                                   "granularity of its !ktdp.runtime_arg)",
                                   launch.name, value, launch.granularity));
  return value;
}

llvm::Error dc::evaluateLaunchCells(Bundle &bundle, const std::map<std::string, int64_t> &values) {
  for (Program &p : bundle.programs) {
    for (const LaunchCell &cell : p.launchCells) {
      llvm::Expected<int64_t> v = evaluateLaunchExpr(cell.expr, values);
      if (!v)
        return v.takeError();
      if (cell.row >= p.table.size() || cell.column >= p.table[cell.row].size())
        return exprError(llvm::formatv("program @{0}: launch-table cell ({1}, {2}) outside its "
                                       "table",
                                       p.unit, cell.row, cell.column));
      p.table[cell.row][cell.column] = *v;
    }
    p.launchCells.clear();
  }
  return llvm::Error::success();
}

llvm::Error dc::bindLaunchValues(Bundle &bundle, const std::map<std::string, std::string> &given) {
  std::map<std::string, int64_t> values;
  for (LaunchValue &v : bundle.launchValues) {
    if (v.bound)
      continue;
    auto it = given.find(v.name);
    if (it == given.end())
      it = given.find("arg" + std::to_string(v.arg));
    if (it == given.end())
      return exprError(llvm::formatv("launch value '{0}' was left unbound at compile time: run "
                                     "it with --arg {0}=VALUE (a multiple of {1} in [0, {2}])",
                                     v.name, v.granularity, v.upperbound));
    llvm::Expected<int64_t> value = parseUnboundValue(v, it->second);
    if (!value)
      return value.takeError();
    values[v.name] = *value;
  }
  if (llvm::Error e = evaluateLaunchCells(bundle, values))
    return e;
  for (LaunchValue &v : bundle.launchValues)
    if (!v.bound) {
      v.bound = true;
      v.boundAtLaunch = true;
      v.value = std::to_string(values[v.name]);
    }
  return llvm::Error::success();
}
