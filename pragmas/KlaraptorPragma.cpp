//===- KlaraptorPragma.cpp - '#pragma klaraptor' handler and action -------===//
///
/// \file
/// The handler parses each pragma where the preprocessor meets it and queues
/// the result for its Preprocessor; the action's consumer (KernelAnnotator)
/// takes the queue. Both are registered in passes/KlaraptorPlugin.cpp, and a
/// plain `clang++ -fplugin=KlaraptorPlugin.so` runs them.
//===----------------------------------------------------------------------===//
#include "KlaraptorPragma.h"
#include "KernelAnnotator.h"
#include "PragmaParser.h"
#include "PragmaQueue.h"

#include "clang/Frontend/CompilerInstance.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/SmallVector.h"

using namespace clang;

namespace klaraptor {

PragmaKlaraptorHandler::PragmaKlaraptorHandler()
    : PragmaHandler("klaraptor") {}

/// With -E this handler would swallow the pragma (a registered handler wins
/// over the printer's catch-all one), so it puts it back as the tokens
/// `_Pragma("klaraptor ...")` (the pragma's tokens after macro expansion,
/// in a string), marked not to be expanded again, for the printer to write
/// out and a later compile of the preprocessed file to read.
static void reemitAsPragmaOperator(Preprocessor &PP, SourceLocation Loc,
                                   llvm::ArrayRef<Token> Toks) {
  std::string Text = "\"klaraptor";
  for (const Token &T : Toks) {
    if (T.is(tok::eod) || T.is(tok::eof))
      break;
    // A space between every two tokens keeps them from fusing when the
    // string is lexed again ('-' '-' must not become '--').
    Text += ' ';
    for (char C : PP.getSpelling(T)) {
      if (C == '"' || C == '\\')
        Text += '\\';
      Text += C;
    }
  }
  Text += '"';

  auto Out = std::make_unique<Token[]>(6);
  const std::pair<tok::TokenKind, std::string> Parts[] = {
      {tok::identifier, "_Pragma"},
      {tok::l_paren, "("},
      {tok::string_literal, Text},
      {tok::r_paren, ")"}};
  for (unsigned I = 0; I < 4; ++I) {
    Out[I].startToken();
    Out[I].setKind(Parts[I].first);
    // The printer spells tokens from their text, so give each one some.
    PP.CreateString(Parts[I].second, Out[I], Loc, Loc);
  }
  Out[0].setIdentifierInfo(PP.getIdentifierInfo("_Pragma"));
  Out[0].setFlag(Token::DisableExpand);
  // On a line of its own, the pragma's, so that line numbers stay right: the
  // printer starts a new line for the token after an 'eod' (and skips
  // annotations). The stream must not end with the 'eod', or the
  // preprocessor would take it for the rest of a directive and drop it.
  Out[0].setFlag(Token::StartOfLine);
  Out[4].startToken();
  Out[4].setKind(tok::eod);
  Out[4].setLocation(Loc);
  Out[5].startToken();
  Out[5].setKind(tok::annot_pragma_unused);
  Out[5].setLocation(Loc);
  Out[5].setAnnotationEndLoc(Loc);
  PP.EnterTokenStream(std::move(Out), 6, /*DisableMacroExpansion=*/true,
                      /*IsReinject=*/false);
}

void PragmaKlaraptorHandler::HandlePragma(Preprocessor &PP,
                                          PragmaIntroducer Introducer,
                                          Token &FirstToken) {
  // Macros in the pragma are expanded, as in '#pragma omp'.
  llvm::SmallVector<Token, 32> Toks;
  Token Tok;
  do {
    PP.Lex(Tok);
    Toks.push_back(Tok);
  } while (!Tok.is(tok::eod) && !Tok.is(tok::eof));

  if (PP.isPreprocessedOutput()) {
    reemitAsPragmaOperator(PP, Introducer.Loc, Toks);
    return;
  }

  // The host side of a CUDA compile reports everything; the device side
  // stays silent so that a two-sided compile reports each error once.
  if (PP.getLangOpts().CUDAIsDevice)
    return;
  // Without a KernelAnnotator (-M, -dM) nothing would use the pragma, and
  // clang does not check pragmas there either.
  std::shared_ptr<PragmaQueue> Queue = PragmaQueue::find(PP);
  if (!Queue)
    return;

  ParsedPragma P = PragmaParser(PP, Toks, FirstToken.getLocation()).parse();
  Queue->Pending.push_back(std::move(P));
}

std::unique_ptr<ASTConsumer>
KlaraptorPluginAction::CreateASTConsumer(CompilerInstance &CI,
                                         llvm::StringRef) {
  return std::make_unique<KernelAnnotator>(CI);
}

bool KlaraptorPluginAction::ParseArgs(const CompilerInstance &CI,
                                      const std::vector<std::string> &Args) {
  if (Args.empty())
    return true;
  DiagnosticsEngine &D = CI.getDiagnostics();
  D.Report(D.getCustomDiagID(DiagnosticsEngine::Error,
                             "the klaraptor plugin takes no arguments, got "
                             "'%0'"))
      << Args.front();
  return false;
}

} // namespace klaraptor
