//===- Formula.cpp - exact quantities from the pragma's expressions -------===//
///
/// \file
/// A free-standing expression is parsed by wrapping it into a spec text as
/// a `where` line, with every non-block variable declared as a data
/// parameter, so that the spec's own parser and evaluator are used.
//===----------------------------------------------------------------------===//
#include "klaraptor/fitting/Formula.h"

#include <algorithm>
#include <cmath>
#include <functional>

namespace klaraptor {
namespace fitting {

static const char *const BlockNames[3] = {"bx", "by", "bz"};

static int blockIndex(const std::string &N) {
  for (int D = 0; D < 3; ++D)
    if (N == BlockNames[D])
      return D;
  return -1;
}

static int varIndex(const std::vector<std::string> &Vars,
                    const std::string &N) {
  auto It = std::find(Vars.begin(), Vars.end(), N);
  return It == Vars.end() ? -1 : int(It - Vars.begin());
}

static void visit(const Expr &E, const std::function<void(const Expr &)> &F) {
  F(E);
  for (const auto &A : E.Args)
    visit(*A, F);
}

std::optional<Formula> Formula::parse(const std::string &Text,
                                      const std::vector<std::string> &Vars,
                                      std::string &Error) {
  Formula F;
  F.Vars = Vars;
  std::string Spec =
      std::string(SpecMagic) + "\nkernel formula\nparam 0 p i64\n";
  std::vector<int> DataVar;
  for (size_t V = 0; V < Vars.size(); ++V) {
    int B = blockIndex(Vars[V]);
    if (B >= 0) {
      F.BlockVar[size_t(B)] = int(V);
      continue;
    }
    Spec += "data " + Vars[V] + " $0\n";
    DataVar.push_back(int(V));
  }
  if (DataVar.empty()) {
    Spec += "data _klaraptor_unused $0\n";
    DataVar.push_back(-1);
  }
  Spec += "block bx by bz\n";
  const std::string Where = "where ";
  if (Text.find('\n') != std::string::npos) {
    Error = "a formula is one line";
    return std::nullopt;
  }
  Spec += Where + Text + "\ngrid 1\ncandidates pow2\n";
  std::string Err;
  auto S = parseKernelSpec(Spec, Err);
  if (!S) {
    // "spec line N: MESSAGE at column C": C counts from the start of the
    // `where` line.
    size_t Colon = Err.find(": ");
    std::string M = Colon == std::string::npos ? Err : Err.substr(Colon + 2);
    size_t At = M.rfind(" at column ");
    if (At != std::string::npos) {
      long Col = std::atol(M.c_str() + At + 11) - long(Where.size());
      M = M.substr(0, At) + " at column " + std::to_string(std::max(1L, Col));
    }
    Error = "formula '" + Text + "': " + M;
    return std::nullopt;
  }
  std::string Missing;
  visit(*S->Where[0], [&](const Expr &E) {
    if (E.K == Expr::Kind::BlockDim && F.BlockVar[size_t(E.Value)] < 0 &&
        Missing.empty())
      Missing = BlockNames[E.Value];
  });
  if (!Missing.empty()) {
    Error = "formula '" + Text + "': '" + Missing + "' is not a variable";
    return std::nullopt;
  }
  F.E = std::shared_ptr<Expr>(S->Where[0]->clone().release());
  F.DataVar = DataVar;
  F.Spec = std::make_shared<KernelSpec>(std::move(*S));
  return F;
}

std::optional<Formula>
Formula::threadsPerBlock(const KernelSpec &S,
                         const std::vector<std::string> &Vars,
                         std::string &Error) {
  std::unique_ptr<Expr> E;
  std::array<int, 3> BlockVar = {-1, -1, -1};
  for (int D = 0; D < 3; ++D) {
    if (!S.FreeDims[size_t(D)])
      continue;
    BlockVar[size_t(D)] = varIndex(Vars, BlockNames[D]);
    if (BlockVar[size_t(D)] < 0) {
      Error = std::string("block dimension '") + BlockNames[D] +
              "' is not a variable";
      return std::nullopt;
    }
    auto Leaf = Expr::leaf(Expr::Kind::BlockDim, D);
    E = E ? Expr::binary(Expr::Op::Mul, std::move(E), std::move(Leaf))
          : std::move(Leaf);
  }
  if (!E)
    E = Expr::literal(1);
  std::vector<int> DataVar;
  for (const auto &D : S.Data)
    DataVar.push_back(varIndex(Vars, D.Name));
  return fromSpec(S, Vars, std::move(E), BlockVar, DataVar, Error);
}

std::optional<Formula> Formula::numBlocks(const KernelSpec &S,
                                          const std::vector<std::string> &Vars,
                                          std::string &Error) {
  std::unique_ptr<Expr> E;
  for (const auto &G : S.Grid) {
    if (!G || (G->K == Expr::Kind::Literal && G->Value == 1))
      continue;
    E = E ? Expr::binary(Expr::Op::Mul, std::move(E), G->clone()) : G->clone();
  }
  if (!E)
    E = Expr::literal(1);
  std::array<int, 3> BlockVar = {-1, -1, -1};
  for (int D = 0; D < 3; ++D)
    BlockVar[size_t(D)] = varIndex(Vars, BlockNames[D]);
  std::vector<int> DataVar;
  for (const auto &D : S.Data)
    DataVar.push_back(varIndex(Vars, D.Name));
  return fromSpec(S, Vars, std::move(E), BlockVar, DataVar, Error);
}

/// A formula over \p S's data parameters and block dimensions.
std::optional<Formula>
Formula::fromSpec(const KernelSpec &S, const std::vector<std::string> &Vars,
                  std::unique_ptr<Expr> E, std::array<int, 3> BlockVar,
                  std::vector<int> DataVar, std::string &Error) {
  std::string Missing;
  visit(*E, [&](const Expr &X) {
    if (!Missing.empty())
      return;
    if (X.K == Expr::Kind::Data && DataVar[size_t(X.Value)] < 0)
      Missing = "data parameter '" + S.Data[size_t(X.Value)].Name + "'";
    if (X.K == Expr::Kind::BlockDim && S.FreeDims[size_t(X.Value)] &&
        BlockVar[size_t(X.Value)] < 0)
      Missing = std::string("block dimension '") + BlockNames[X.Value] + "'";
    if (X.K == Expr::Kind::Param)
      Missing = "kernel parameter '" +
                (size_t(X.Value) < S.Params.size() ? S.Params[size_t(X.Value)].Name
                                                   : "$" + std::to_string(X.Value)) +
                "'";
  });
  if (!Missing.empty()) {
    Error = Missing + " is not a variable";
    return std::nullopt;
  }
  // A dimension the pragma does not free is 1 even if a column has its name.
  for (int D = 0; D < 3; ++D)
    if (!S.FreeDims[size_t(D)])
      BlockVar[size_t(D)] = -1;
  // The names only: printExpr needs the data names.
  auto Names = std::make_shared<KernelSpec>();
  Names->KernelName = S.KernelName;
  for (const auto &D : S.Data)
    Names->Data.push_back({D.Name, Expr::literal(0)});
  Formula F;
  F.Vars = Vars;
  F.Spec = std::move(Names);
  F.E = std::shared_ptr<Expr>(E.release());
  F.DataVar = std::move(DataVar);
  F.BlockVar = BlockVar;
  return F;
}

EvalStatus Formula::evaluate(const int64_t *X, int64_t &Out) const {
  std::vector<int64_t> Data(DataVar.size(), 0);
  for (size_t I = 0; I < DataVar.size(); ++I)
    if (DataVar[I] >= 0)
      Data[I] = X[DataVar[I]];
  EvalEnv Env;
  Env.Data = Data.data();
  Env.NumData = Data.size();
  for (int D = 0; D < 3; ++D)
    Env.Block[size_t(D)] =
        BlockVar[size_t(D)] >= 0 ? X[BlockVar[size_t(D)]] : 1;
  return klaraptor::evaluate(*E, Env, Out);
}

double Formula::evaluateAsC(const int64_t *X) const {
  int64_t V;
  if (evaluate(X, V) != EvalStatus::Ok)
    return NAN;
  return double(V);
}

std::string Formula::str() const { return printExpr(*E, *Spec); }

std::string Formula::cExpression(const std::string &Err) const {
  std::function<std::string(const Expr &)> Gen =
      [&](const Expr &X) -> std::string {
    auto A = [&](size_t I) { return Gen(*X.Args[I]); };
    auto Call = [&](const char *F) {
      return std::string("klaraptor_fit_") + F + "(" + A(0) + ", " + A(1) +
             ", &" + Err + ")";
    };
    switch (X.K) {
    case Expr::Kind::Literal:
      return "INT64_C(" + std::to_string(X.Value) + ")";
    case Expr::Kind::Data: {
      int V = DataVar[size_t(X.Value)];
      return V >= 0 ? Vars[size_t(V)] : "INT64_C(0)";
    }
    case Expr::Kind::BlockDim: {
      int V = BlockVar[size_t(X.Value)];
      return V >= 0 ? Vars[size_t(V)] : "INT64_C(1)";
    }
    case Expr::Kind::Param:
      return "INT64_C(0)";
    case Expr::Kind::Unary:
      if (X.O == Expr::Op::Not)
        return "(int64_t)!(" + A(0) + ")";
      return "klaraptor_fit_neg(" + A(0) + ", &" + Err + ")";
    case Expr::Kind::Binary:
      switch (X.O) {
      case Expr::Op::Add:
        return Call("add");
      case Expr::Op::Sub:
        return Call("sub");
      case Expr::Op::Mul:
        return Call("mul");
      case Expr::Op::Div:
        return Call("div");
      case Expr::Op::Rem:
        return Call("rem");
      case Expr::Op::And:
        return "(int64_t)((" + A(0) + ") != 0 && (" + A(1) + ") != 0)";
      case Expr::Op::Or:
        return "(int64_t)((" + A(0) + ") != 0 || (" + A(1) + ") != 0)";
      default:
        return "(int64_t)((" + A(0) + ") " + spelling(X.O) + " (" + A(1) + "))";
      }
    case Expr::Kind::Call: {
      if (X.F == Expr::Callee::CeilDiv)
        return Call("ceildiv");
      const char *F =
          X.F == Expr::Callee::Min ? "klaraptor_fit_min" : "klaraptor_fit_max";
      std::string S = Gen(*X.Args[0]);
      for (size_t I = 1; I < X.Args.size(); ++I)
        S = std::string(F) + "(" + S + ", " + Gen(*X.Args[I]) + ")";
      return S;
    }
    }
    return "INT64_C(0)";
  };
  return Gen(*E);
}

} // namespace fitting
} // namespace klaraptor
