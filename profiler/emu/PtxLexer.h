//===- PtxLexer.h - tokens of PTX assembly text ---------------------------===//
///
/// \file
/// Splits PTX text into tokens: words (identifiers, directives, dotted
/// opcodes such as `ld.global.v4.f32`, registers, special registers), numbers
/// (integers, `0f`/`0d` hexadecimal floats, decimal floats), strings and
/// punctuation. Comments are dropped; every token keeps its source line.
//===----------------------------------------------------------------------===//
#ifndef KLARAPTOR_PROFILER_EMU_PTXLEXER_H
#define KLARAPTOR_PROFILER_EMU_PTXLEXER_H

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace klaraptor::emu::ptx {

enum class TokKind : uint8_t { Word, Int, Float, String, Punct, End };

struct Token {
  TokKind Kind = TokKind::End;
  /// For Punct: the character; otherwise 0.
  char P = 0;
  /// For Float: 32 (0f...), 64 (0d...) or 0 (a decimal literal, a double).
  uint8_t FloatBits = 0;
  bool Unsigned = false; ///< an integer with the U suffix
  uint32_t Line = 0;
  std::string_view Text;
  uint64_t IntVal = 0; ///< Int value; Float: the bits (FloatBits 32/64)
  double FVal = 0;     ///< Float value (decimal literals)

  bool is(char C) const { return Kind == TokKind::Punct && P == C; }
  bool isWord(std::string_view W) const {
    return Kind == TokKind::Word && Text == W;
  }
};

/// Tokenizes \p Src into \p Out (which ends with an End token). Returns false
/// and sets \p Error ("ptx:LINE: ...") on a malformed token.
bool tokenize(std::string_view Src, std::vector<Token> &Out,
              std::string &Error);

} // namespace klaraptor::emu::ptx

#endif // KLARAPTOR_PROFILER_EMU_PTXLEXER_H
