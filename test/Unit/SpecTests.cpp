//===- SpecTests.cpp - the encoded pragma: printer, parser, evaluator -----===//
///
/// \file
/// Unit tests of runtime/spec/KernelSpec (docs/spec-format.md): the text
/// round trip, the parser's error messages and the evaluator's C semantics.
//===----------------------------------------------------------------------===//
#include "KernelSpec.h"

#include <gtest/gtest.h>

#include <climits>

using namespace klaraptor;

namespace {

const char Saxpy[] = "klaraptor v1\n"
                     "kernel saxpy\n"
                     "loc saxpy.cu:12:9\n"
                     "param 3 n i32\n"
                     "data N $3\n"
                     "block bx\n"
                     "where (bx <= N)\n"
                     "grid ceildiv(N, bx)\n"
                     "grid 1\n"
                     "grid 1\n"
                     "candidates pow2\n";

KernelSpec parseOrDie(const std::string &Text) {
  std::string Error;
  auto S = parseKernelSpec(Text, Error);
  EXPECT_TRUE(S.has_value()) << Error;
  if (!S)
    return KernelSpec();
  return std::move(*S);
}

std::string parseError(const std::string &Text) {
  std::string Error;
  auto S = parseKernelSpec(Text, Error);
  EXPECT_FALSE(S.has_value()) << "parsed: " << Text;
  return Error;
}

/// A spec around one where-expression over data N and M (values 1 and 2
/// unless given) and the block dimensions.
std::string withWhere(const std::string &Expr) {
  return "klaraptor v1\nkernel k\ndata N 1\ndata M 2\nblock bx by bz\n"
         "where " +
         Expr + "\ngrid 1\n";
}

struct Eval {
  EvalStatus Status;
  int64_t Value;
};

Eval eval(const std::string &Expr, std::vector<int64_t> Data = {7, -3},
          std::array<int64_t, 3> Block = {32, 4, 2}) {
  KernelSpec S = parseOrDie(withWhere(Expr));
  if (S.Where.empty())
    return {EvalStatus::Unbound, 0};
  EvalEnv Env;
  Env.Data = Data.data();
  Env.NumData = Data.size();
  Env.Block = Block;
  int64_t V = 0;
  EvalStatus St = evaluate(*S.Where[0], Env, V);
  return {St, V};
}

int64_t evalOk(const std::string &Expr) {
  Eval E = eval(Expr);
  EXPECT_EQ(E.Status, EvalStatus::Ok) << Expr << ": " << describe(E.Status);
  return E.Value;
}

EvalStatus evalStatus(const std::string &Expr) { return eval(Expr).Status; }

} // namespace

TEST(SpecPrinter, RoundTripOfTheDocumentedExample) {
  KernelSpec S = parseOrDie(Saxpy);
  EXPECT_EQ(S.KernelName, "saxpy");
  EXPECT_EQ(S.Location, "saxpy.cu:12:9");
  ASSERT_EQ(S.Params.size(), 1u);
  EXPECT_EQ(S.Params[0].Index, 3u);
  EXPECT_EQ(S.Params[0].Type, IntType::I32);
  ASSERT_EQ(S.Data.size(), 1u);
  EXPECT_EQ(S.Data[0].Name, "N");
  EXPECT_EQ(S.numFreeDims(), 1u);
  EXPECT_TRUE(S.FreeDims[0]);
  EXPECT_EQ(S.Candidates.K, CandidateSet::Kind::Pow2);
  EXPECT_EQ(printKernelSpec(S), Saxpy);
}

TEST(SpecPrinter, ParsingPrintedTextGivesTheSameText) {
  const char *Texts[] = {
      Saxpy,
      "klaraptor v1\nkernel m\nloc m.cu:1:1\nparam 4 rows i32\nparam 5 cols "
      "u64\ndata R $4\ndata C (($5 + 1) / 2)\nblock bx by\nwhere ((bx * by) "
      ">= 64)\nwhere (by <= R)\ngrid ceildiv(C, bx)\ngrid ceildiv(R, "
      "by)\ngrid 1\ncandidates warp\n",
      "klaraptor v1\nkernel t\nloc t.cu:3:1\ndata N 1000\nblock bx by bz\n"
      "grid max(1, min(N, 7, 9))\ngrid (-(N % 3))\ngrid (!(N == 2))\n"
      "candidates list 32x1x1 64x2x1 8x8x8\n",
      "klaraptor v1\nkernel r\nloc r.cu:2:9\nparam 2 n i32\ndata N $2\n"
      "block bx\ngrid ceildiv(N, bx)\ngrid 1\ngrid 1\nshared ((4 * bx) + "
      "min(N, 16))\ncandidates pow2\n",
  };
  for (const char *T : Texts) {
    KernelSpec S = parseOrDie(T);
    std::string Once = printKernelSpec(S);
    EXPECT_EQ(Once, T);
    KernelSpec Again = parseOrDie(Once);
    EXPECT_EQ(printKernelSpec(Again), Once);
  }
}

TEST(SpecPrinter, AcceptsCPrecedenceAndPrintsParenthesised) {
  KernelSpec S = parseOrDie(withWhere("N + 2 * M < bx && !(by == 3) || bz"));
  ASSERT_EQ(S.Where.size(), 1u);
  EXPECT_EQ(printExpr(*S.Where[0], S),
            "((((N + (2 * M)) < bx) && (!(by == 3))) || bz)");
  KernelSpec L = parseOrDie(withWhere("10 - 2 - 3"));
  EXPECT_EQ(printExpr(*L.Where[0], L), "((10 - 2) - 3)");
}

TEST(SpecPrinter, MissingGridLinesBecomeOne) {
  KernelSpec S = parseOrDie("klaraptor v1\nkernel k\ndata N 5\nblock bx\n"
                            "grid ceildiv(N, bx)\n");
  EXPECT_EQ(printKernelSpec(S), "klaraptor v1\nkernel k\nloc \ndata N 5\n"
                                "block bx\ngrid ceildiv(N, bx)\ngrid 1\n"
                                "grid 1\ncandidates pow2\n");
}

TEST(SpecPrinter, NegativeLiteralsRoundTrip) {
  // A tree built by a frontend may hold negative literals; they must print
  // as text that parses back to the same text.
  KernelSpec S = parseOrDie(withWhere("1"));
  S.Where[0] = Expr::binary(Expr::Op::Add, Expr::literal(-5),
                            Expr::literal(INT64_MIN));
  std::string Text = printKernelSpec(S);
  EXPECT_NE(Text.find("where ((-5) + ((-9223372036854775807) - 1))"),
            std::string::npos)
      << Text;
  KernelSpec Back = parseOrDie(Text);
  EXPECT_EQ(printKernelSpec(Back), Text);
  EvalEnv Env;
  int64_t V = 0;
  ASSERT_EQ(evaluate(*Back.Where[0], Env, V), EvalStatus::Overflow);
  S.Where[0] = Expr::literal(INT64_MIN);
  Back = parseOrDie(printKernelSpec(S));
  ASSERT_EQ(evaluate(*Back.Where[0], Env, V), EvalStatus::Ok);
  EXPECT_EQ(V, INT64_MIN);
}

TEST(SpecParser, ParsesCrLfAndBlankLines) {
  KernelSpec S = parseOrDie("klaraptor v1\r\nkernel k\r\n\r\ndata N 5\r\n"
                            "block by bx\r\ngrid 2\r\n");
  EXPECT_TRUE(S.FreeDims[0]);
  EXPECT_TRUE(S.FreeDims[1]);
  EXPECT_FALSE(S.FreeDims[2]);
}

// Names and locations are printed one per line: a control character in
// them would not read back as itself (a kernel name ending in two carriage
// returns lost one per round trip: a fuzzer's finding, kept as the seed
// regress-control-character.spec).
TEST(SpecParser, ControlCharactersInNamesAreErrors) {
  EXPECT_EQ(parseError("klaraptor v1\nkernel fill<float>\r\r\ndata N 1\n"),
            "spec line 2: control character 0x0d in the kernel name");
  EXPECT_EQ(parseError("klaraptor v1\nkernel k\x01\ndata N 1\n"),
            "spec line 2: control character 0x01 in the kernel name");
  EXPECT_EQ(parseError("klaraptor v1\nkernel k\nloc a.cu:1\x7f\n"),
            "spec line 3: control character 0x7f in the location");
  EXPECT_EQ(parseError("klaraptor v1\nkernel k\nparam 1 d\x1b.rows i32\n"),
            "spec line 3: control character 0x1b in the parameter name");
  // A single CR at the end of a line is a CR-LF line end, as before.
  KernelSpec S = parseOrDie("klaraptor v1\r\nkernel k\r\nloc a.cu:2:9\r\n"
                            "data N 5\r\nblock bx\r\ngrid 2\r\n");
  EXPECT_EQ(S.KernelName, "k");
  EXPECT_EQ(S.Location, "a.cu:2:9");
}

TEST(SpecParser, ListShapes) {
  KernelSpec S = parseOrDie("klaraptor v1\nkernel k\ndata N 5\nblock bx by\n"
                            "grid 1\ncandidates list 128x1x1 16x16x1\n");
  ASSERT_EQ(S.Candidates.K, CandidateSet::Kind::List);
  ASSERT_EQ(S.Candidates.Shapes.size(), 2u);
  EXPECT_EQ(S.Candidates.Shapes[1], (std::array<uint32_t, 3>{16, 16, 1}));
}

TEST(SpecParser, ErrorMessagesNameTheLine) {
  EXPECT_EQ(parseError(""), "spec line 0: empty spec");
  EXPECT_EQ(parseError("klaraptor v2\n"),
            "spec line 1: expected 'klaraptor v1', found 'klaraptor v2'");
  EXPECT_EQ(parseError("klaraptor v1\nkernel k\nfoo bar\n"),
            "spec line 3: unknown key 'foo'");
  EXPECT_EQ(parseError("klaraptor v1\ndata N 1\nblock bx\ngrid 1\n"),
            "spec line 4: no 'kernel' line");
  EXPECT_EQ(parseError("klaraptor v1\nkernel k\nblock bx\ngrid 1\n"),
            "spec line 4: no 'data' line");
  EXPECT_EQ(parseError("klaraptor v1\nkernel k\ndata N 1\ngrid 1\n"),
            "spec line 4: 'grid' before 'block'");
  EXPECT_EQ(parseError("klaraptor v1\nkernel k\ndata N 1\nblock bx\n"),
            "spec line 4: no 'grid' line");
  EXPECT_EQ(parseError("klaraptor v1\nkernel k\ndata N 1\nblock bx bw\n"),
            "spec line 4: unknown block dimension 'bw'");
  EXPECT_EQ(parseError("klaraptor v1\nkernel k\ndata N 1\nblock\n"),
            "spec line 4: 'block' needs at least one of bx, by, bz");
  EXPECT_EQ(parseError("klaraptor v1\nkernel k\ndata N 1\nblock bx\n"
                       "grid 1\ngrid 1\ngrid 1\ngrid 1\n"),
            "spec line 8: more than three 'grid' lines");
  EXPECT_EQ(parseError("klaraptor v1\nkernel k\nparam 2 n i33\n"),
            "spec line 3: unknown parameter type 'i33'");
  EXPECT_EQ(parseError("klaraptor v1\nkernel k\nparam 2 n i32\nparam 2 m i32\n"),
            "spec line 4: parameter 2 given twice");
  EXPECT_EQ(parseError("klaraptor v1\nkernel k\ndata N 1\ndata N 2\n"),
            "spec line 4: data parameter 'N' given twice");
  EXPECT_EQ(parseError("klaraptor v1\nkernel k\ndata N 1\nblock bx\ngrid 1\n"
                       "candidates list 32x0x1\n"),
            "spec line 6: bad shape '32x0x1' (expected XxYxZ)");
  EXPECT_EQ(parseError("klaraptor v1\nkernel k\ndata N 1\nblock bx\ngrid 1\n"
                       "candidates list\n"),
            "spec line 6: 'candidates list' needs at least one shape");
  EXPECT_EQ(parseError("klaraptor v1\nkernel k\ndata N 1\nblock bx\ngrid 1\n"
                       "candidates best\n"),
            "spec line 6: unknown candidate set 'best'");
  EXPECT_EQ(parseError("klaraptor v1\nkernel k\ndata N 1\nshared 4\n"),
            "spec line 4: 'shared' before 'block'");
  EXPECT_EQ(parseError("klaraptor v1\nkernel k\ndata N 1\nblock bx\ngrid 1\n"
                       "shared (4 * bx)\nshared 16\n"),
            "spec line 7: 'shared' given twice");
}

TEST(SpecParser, SharedIsOptional) {
  KernelSpec Without = parseOrDie(Saxpy);
  EXPECT_EQ(Without.Shared, nullptr);
  KernelSpec With = parseOrDie("klaraptor v1\nkernel k\ndata N 1000\n"
                               "block bx by\ngrid 1\nshared ((bx * by) * 8)\n");
  ASSERT_NE(With.Shared, nullptr);
  EvalEnv Env;
  int64_t N = 1000;
  Env.Data = &N;
  Env.NumData = 1;
  Env.Block = {32, 4, 1};
  int64_t V = 0;
  ASSERT_EQ(evaluate(*With.Shared, Env, V), EvalStatus::Ok);
  EXPECT_EQ(V, 1024);
}

TEST(SpecParser, ExpressionErrorsGiveColumnsOfTheLine) {
  // "where (bx <= M)": 'M' is column 14 of the line.
  EXPECT_EQ(parseError("klaraptor v1\nkernel k\ndata N 1\nblock bx\n"
                       "where (bx <= M)\ngrid 1\n"),
            "spec line 5: unknown name 'M' at column 14");
  EXPECT_EQ(parseError("klaraptor v1\nkernel k\nparam 3 n i32\ndata N $3\n"
                       "block bx\ngrid $3\n"),
            "spec line 6: kernel parameters may appear only in data "
            "expressions at column 6");
  EXPECT_EQ(parseError("klaraptor v1\nkernel k\ndata N $3\n"),
            "spec line 3: parameter $3 has no 'param' line at column 8");
  EXPECT_EQ(parseError("klaraptor v1\nkernel k\ndata N bx\n"),
            "spec line 3: data expressions may use only kernel parameters, "
            "not 'bx' at column 8");
  EXPECT_EQ(parseError("klaraptor v1\nkernel k\ndata N 1\nblock bx\n"
                       "grid ceildiv(N)\n"),
            "spec line 5: wrong number of arguments to 'ceildiv' at column 6");
  EXPECT_EQ(parseError("klaraptor v1\nkernel k\ndata N 99999999999999999999\n"),
            "spec line 3: integer literal too large at column 8");
  EXPECT_EQ(parseError("klaraptor v1\nkernel k\ndata N 1\nblock bx\n"
                       "grid (N + 1\n"),
            "spec line 5: expected ')' at column 12");
  EXPECT_EQ(parseError("klaraptor v1\nkernel k\ndata N 1\nblock bx\n"
                       "where 1 < 2 < 3\n"),
            "spec line 5: unexpected '< 3' at column 13");
  EXPECT_EQ(parseError("klaraptor v1\nkernel k\ndata N 1\nblock bx\n"
                       "where\n"),
            "spec line 5: expected an expression at column 1");
}

TEST(SpecParser, DepthAndLengthAreBounded) {
  const std::string Head = "klaraptor v1\nkernel k\ndata N 1\nblock bx\n";
  auto Nested = [&](unsigned Levels, const std::string &Open,
                    const std::string &Close) {
    std::string E;
    for (unsigned I = 0; I < Levels; ++I)
      E += Open;
    E += "N";
    for (unsigned I = 0; I < Levels; ++I)
      E += Close;
    return Head + "grid " + E + "\n";
  };
  std::string Err;
  // Parentheses alone add no operator: 1000 levels parse, more do not (the
  // parser's recursion), and 100000 are an error, not a stack overflow.
  EXPECT_TRUE(parseKernelSpec(Nested(1000, "(", ")"), Err)) << Err;
  for (unsigned Levels : {1001u, 100000u})
    EXPECT_NE(parseError(Nested(Levels, "(", ")"))
                  .find("expression nested too deeply (more than 1000 levels)"),
              std::string::npos);
  // Operators and calls: 300 deep parse (and print back to text that
  // parses), 301 do not.
  for (const auto &[Open, Close] :
       {std::make_pair("-", ""), std::make_pair("!", ""),
        std::make_pair("ceildiv(", ", 2)")}) {
    auto S = parseKernelSpec(Nested(300, Open, Close), Err);
    ASSERT_TRUE(S) << Open << Err;
    EXPECT_TRUE(parseKernelSpec(printKernelSpec(*S), Err)) << Open << Err;
    EXPECT_NE(parseError(Nested(301, Open, Close))
                  .find("expression nested too deeply (more than 300 "
                        "operators deep)"),
              std::string::npos)
        << Open;
  }
  auto Chain = [&](unsigned Terms) {
    std::string E = "N";
    for (unsigned I = 1; I < Terms; ++I)
      E += " + 1";
    return Head + "grid " + E + "\n";
  };
  // A flat chain prints as nested parentheses: 301 terms is 300 deep.
  auto S = parseKernelSpec(Chain(301), Err);
  ASSERT_TRUE(S) << Err;
  EXPECT_TRUE(parseKernelSpec(printKernelSpec(*S), Err)) << Err;
  EXPECT_NE(parseError(Chain(302)).find("300 operators deep"),
            std::string::npos);
  EXPECT_NE(parseError(Chain(200000)).find("expression too long"),
            std::string::npos);
}

TEST(SpecEvaluator, ArithmeticFollowsC) {
  EXPECT_EQ(evalOk("1 + 2 * 3"), 7);
  EXPECT_EQ(evalOk("(1 + 2) * 3"), 9);
  EXPECT_EQ(evalOk("7 / 2"), 3);
  EXPECT_EQ(evalOk("-7 / 2"), -3);
  EXPECT_EQ(evalOk("7 / -2"), -3);
  EXPECT_EQ(evalOk("-7 % 2"), -1);
  EXPECT_EQ(evalOk("7 % -2"), 1);
  EXPECT_EQ(evalOk("-(-4)"), 4);
  EXPECT_EQ(evalOk("N * M"), -21);
  EXPECT_EQ(evalOk("bx * by * bz"), 256);
}

TEST(SpecEvaluator, CeilDivRoundsTowardsPlusInfinity) {
  EXPECT_EQ(evalOk("ceildiv(7, 2)"), 4);
  EXPECT_EQ(evalOk("ceildiv(6, 2)"), 3);
  EXPECT_EQ(evalOk("ceildiv(0, 5)"), 0);
  EXPECT_EQ(evalOk("ceildiv(-7, 2)"), -3);
  EXPECT_EQ(evalOk("ceildiv(7, -2)"), -3);
  EXPECT_EQ(evalOk("ceildiv(-7, -2)"), 4);
  EXPECT_EQ(evalOk("ceildiv(-6, -2)"), 3);
  EXPECT_EQ(evalOk("ceildiv(1, 1024)"), 1);
  EXPECT_EQ(ceilDiv(INT64_MAX, 2), INT64_MAX / 2 + 1);
  EXPECT_EQ(ceilDiv(INT64_MIN, 2), INT64_MIN / 2);
}

TEST(SpecEvaluator, ComparisonsAndLogicGiveZeroOrOne) {
  EXPECT_EQ(evalOk("3 < 4"), 1);
  EXPECT_EQ(evalOk("4 <= 3"), 0);
  EXPECT_EQ(evalOk("4 >= 4"), 1);
  EXPECT_EQ(evalOk("4 > 4"), 0);
  EXPECT_EQ(evalOk("4 == 4"), 1);
  EXPECT_EQ(evalOk("4 != 4"), 0);
  EXPECT_EQ(evalOk("2 && 3"), 1);
  EXPECT_EQ(evalOk("0 || 5"), 1);
  EXPECT_EQ(evalOk("0 || 0"), 0);
  EXPECT_EQ(evalOk("!7"), 0);
  EXPECT_EQ(evalOk("!0"), 1);
}

TEST(SpecEvaluator, MinMaxTakeAnyNumberOfArguments) {
  EXPECT_EQ(evalOk("min(5, 3)"), 3);
  EXPECT_EQ(evalOk("min(5, 3, -8, 2)"), -8);
  EXPECT_EQ(evalOk("max(5, 3, -8, 12)"), 12);
  EXPECT_EQ(evalOk("max(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11)"), 11);
  EXPECT_EQ(evalOk("min(11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1)"), 1);
}

TEST(SpecEvaluator, DivisionByZeroIsAnError) {
  EXPECT_EQ(evalStatus("1 / 0"), EvalStatus::DivisionByZero);
  EXPECT_EQ(evalStatus("1 % 0"), EvalStatus::DivisionByZero);
  EXPECT_EQ(evalStatus("ceildiv(1, 0)"), EvalStatus::DivisionByZero);
  EXPECT_EQ(evalStatus("min(1, 2 / (bx - 32))"), EvalStatus::DivisionByZero);
}

TEST(SpecEvaluator, OverflowIsAnError) {
  EXPECT_EQ(evalStatus("9223372036854775807 + 1"), EvalStatus::Overflow);
  EXPECT_EQ(evalStatus("-9223372036854775807 - 2"), EvalStatus::Overflow);
  EXPECT_EQ(evalStatus("4611686018427387904 * 2"), EvalStatus::Overflow);
  EXPECT_EQ(evalStatus("-(-9223372036854775807 - 1)"), EvalStatus::Overflow);
  EXPECT_EQ(evalStatus("(-9223372036854775807 - 1) / -1"), EvalStatus::Overflow);
  EXPECT_EQ(evalStatus("ceildiv(-9223372036854775807 - 1, -1)"),
            EvalStatus::Overflow);
  EXPECT_EQ(evalStatus("(-9223372036854775807 - 1) % -1"), EvalStatus::Overflow);
  EXPECT_EQ(evalOk("9223372036854775807 - 1 + 1"), INT64_MAX);
}

TEST(SpecEvaluator, LogicalOperatorsShortCircuit) {
  EXPECT_EQ(evalOk("0 && (1 / 0)"), 0);
  EXPECT_EQ(evalOk("1 || (1 / 0)"), 1);
  EXPECT_EQ(evalOk("N > 100 && (M / 0) > 1"), 0);
  EXPECT_EQ(evalStatus("1 && (1 / 0)"), EvalStatus::DivisionByZero);
  EXPECT_EQ(evalStatus("0 || (1 / 0)"), EvalStatus::DivisionByZero);
}

TEST(SpecEvaluator, UnboundNamesAreErrors) {
  KernelSpec S = parseOrDie(withWhere("M + 1"));
  EvalEnv Env;
  int64_t One = 1;
  Env.Data = &One;
  Env.NumData = 1; // M is data parameter 1
  int64_t V = 0;
  EXPECT_EQ(evaluate(*S.Where[0], Env, V), EvalStatus::Unbound);
  KernelSpec P = parseOrDie("klaraptor v1\nkernel k\nparam 2 n i32\n"
                            "data N ($2 * 2)\nblock bx\ngrid 1\n");
  EXPECT_EQ(evaluate(*P.Data[0].Value, Env, V), EvalStatus::Unbound);
  // Values come in the order of the spec's param lines: $2 is the first.
  int64_t Params[1] = {21};
  Env.Params = Params;
  Env.NumParams = 1;
  ASSERT_EQ(evaluate(*P.Data[0].Value, Env, V), EvalStatus::Ok);
  EXPECT_EQ(V, 42);
}

TEST(SpecParser, FieldsOfStructParameters) {
  // Two fields of parameter 1 (at bytes 0 and 8) and parameter 3.
  const char *Text = "klaraptor v1\nkernel fill\nloc s.cu:6:9\n"
                     "param 1 s.rows i32\nparam 1.8 s.cols i64\n"
                     "param 3 n u16\ndata R $1\ndata C ($1.8 + $3)\n"
                     "block bx by\ngrid ceildiv(C, bx)\ngrid ceildiv(R, by)\n"
                     "grid 1\ncandidates pow2\n";
  KernelSpec S = parseOrDie(Text);
  ASSERT_EQ(S.Params.size(), 3u);
  EXPECT_EQ(S.Params[1].Index, 1u);
  EXPECT_EQ(S.Params[1].Offset, 8u);
  EXPECT_EQ(S.Params[1].Name, "s.cols");
  EXPECT_EQ(S.Params[1].Type, IntType::I64);
  EXPECT_EQ(S.findParam(1, 8), 1);
  EXPECT_EQ(S.findParam(1, 4), -1);
  EXPECT_EQ(S.findParam(3), 2);
  EXPECT_EQ(printKernelSpec(S), Text);
  // Each field has its own value.
  int64_t Params[3] = {100, 70, 5};
  EvalEnv Env;
  Env.Params = Params;
  Env.NumParams = 3;
  int64_t R = 0, C = 0;
  ASSERT_EQ(evaluate(*S.Data[0].Value, Env, R), EvalStatus::Ok);
  ASSERT_EQ(evaluate(*S.Data[1].Value, Env, C), EvalStatus::Ok);
  EXPECT_EQ(R, 100);
  EXPECT_EQ(C, 75);
  // Offset 0 is the parameter's own index; "1.0" prints as "1".
  KernelSpec Z = parseOrDie("klaraptor v1\nkernel k\nparam 1.0 s.rows i32\n"
                            "data R $1.0\nblock bx\ngrid 1\n");
  EXPECT_NE(printKernelSpec(Z).find("param 1 s.rows i32\ndata R $1\n"),
            std::string::npos);

  EXPECT_EQ(parseError("klaraptor v1\nkernel k\nparam 1.8 a i32\n"
                       "param 1.8 b i32\n"),
            "spec line 4: parameter 1.8 given twice");
  EXPECT_EQ(parseError("klaraptor v1\nkernel k\nparam 1.65536 a i32\n"),
            "spec line 3: expected a parameter index or INDEX.OFFSET (an "
            "offset below 65536), found '1.65536'");
  EXPECT_EQ(parseError("klaraptor v1\nkernel k\nparam x a i32\n"),
            "spec line 3: expected a parameter index or INDEX.OFFSET (an "
            "offset below 65536), found 'x'");
  EXPECT_EQ(parseError("klaraptor v1\nkernel k\nparam 1. a i32\n"),
            "spec line 3: expected a parameter index or INDEX.OFFSET (an "
            "offset below 65536), found '1.'");
  EXPECT_EQ(parseError("klaraptor v1\nkernel k\nparam 1.8 a i32\n"
                       "data N $1.4\n"),
            "spec line 4: parameter $1.4 has no 'param' line at column 8");
  EXPECT_EQ(parseError("klaraptor v1\nkernel k\nparam 1.8 a i32\n"
                       "data N $1.\n"),
            "spec line 4: expected a byte offset after '$1.' at column 11");
}

TEST(SpecEvaluator, DescribeNamesEveryStatus) {
  EXPECT_STREQ(describe(EvalStatus::Ok), "ok");
  EXPECT_STREQ(describe(EvalStatus::DivisionByZero), "division by zero");
  EXPECT_STREQ(describe(EvalStatus::Overflow), "integer overflow");
  EXPECT_STREQ(describe(EvalStatus::Unbound), "unbound name");
}
