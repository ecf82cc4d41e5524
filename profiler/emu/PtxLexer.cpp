//===- PtxLexer.cpp - tokens of PTX assembly text -------------------------===//
///
/// \file
/// The PTX tokenizer (see PtxLexer.h).
//===----------------------------------------------------------------------===//
#include "PtxLexer.h"

#include <cstdlib>
#include <cstring>

namespace klaraptor::emu::ptx {

static bool isWordStart(char C) {
  return (C >= 'a' && C <= 'z') || (C >= 'A' && C <= 'Z') || C == '_' ||
         C == '$' || C == '%' || C == '.';
}
static bool isWordChar(char C) {
  return isWordStart(C) || (C >= '0' && C <= '9');
}
static int hexDigit(char C) {
  if (C >= '0' && C <= '9')
    return C - '0';
  if (C >= 'a' && C <= 'f')
    return C - 'a' + 10;
  if (C >= 'A' && C <= 'F')
    return C - 'A' + 10;
  return -1;
}

bool tokenize(std::string_view Src, std::vector<Token> &Out,
              std::string &Error) {
  Out.clear();
  Out.reserve(Src.size() / 4 + 16);
  size_t I = 0, N = Src.size();
  uint32_t Line = 1;
  auto fail = [&](const std::string &Msg) {
    Error = "ptx:" + std::to_string(Line) + ": " + Msg;
    return false;
  };
  while (I < N) {
    char C = Src[I];
    if (C == '\n') {
      ++Line;
      ++I;
      continue;
    }
    if (C == ' ' || C == '\t' || C == '\r' || C == '\f' || C == '\v') {
      ++I;
      continue;
    }
    if (C == '/' && I + 1 < N && Src[I + 1] == '/') {
      while (I < N && Src[I] != '\n')
        ++I;
      continue;
    }
    if (C == '/' && I + 1 < N && Src[I + 1] == '*') {
      I += 2;
      while (I + 1 < N && !(Src[I] == '*' && Src[I + 1] == '/')) {
        if (Src[I] == '\n')
          ++Line;
        ++I;
      }
      if (I + 1 >= N)
        return fail("unterminated comment");
      I += 2;
      continue;
    }
    if (C == '#') {
      // Preprocessor lines (nvcc emits none) are ignored.
      while (I < N && Src[I] != '\n')
        ++I;
      continue;
    }
    Token T;
    T.Line = Line;
    size_t Start = I;
    if (isWordStart(C)) {
      ++I;
      while (I < N) {
        if (isWordChar(Src[I])) {
          ++I;
        } else if (Src[I] == ':' && I + 1 < N && Src[I + 1] == ':') {
          I += 2; // `.shared::cta`, `.L2::cache_hint`
        } else {
          break;
        }
      }
      T.Kind = TokKind::Word;
      T.Text = Src.substr(Start, I - Start);
      Out.push_back(T);
      continue;
    }
    if (C >= '0' && C <= '9') {
      // 0f / 0d hexadecimal floats.
      if (C == '0' && I + 1 < N &&
          (Src[I + 1] == 'f' || Src[I + 1] == 'F' || Src[I + 1] == 'd' ||
           Src[I + 1] == 'D')) {
        unsigned Digits = (Src[I + 1] == 'f' || Src[I + 1] == 'F') ? 8 : 16;
        I += 2;
        uint64_t V = 0;
        unsigned K = 0;
        while (I < N && hexDigit(Src[I]) >= 0) {
          V = (V << 4) | uint64_t(hexDigit(Src[I]));
          ++I;
          ++K;
        }
        if (K != Digits)
          return fail("malformed floating-point constant '" +
                      std::string(Src.substr(Start, I - Start)) + "'");
        T.Kind = TokKind::Float;
        T.FloatBits = Digits == 8 ? 32 : 64;
        T.IntVal = V;
        T.Text = Src.substr(Start, I - Start);
        Out.push_back(T);
        continue;
      }
      // Decimal float?
      size_t J = I;
      while (J < N && Src[J] >= '0' && Src[J] <= '9')
        ++J;
      bool IsFloat = J < N && (Src[J] == '.' || Src[J] == 'e' || Src[J] == 'E');
      if (IsFloat && !(C == '0' && J == I + 1 && J < N &&
                       (Src[J] == 'x' || Src[J] == 'X'))) {
        std::string Tmp(Src.substr(I, std::min<size_t>(N - I, 64)));
        char *End = nullptr;
        double D = std::strtod(Tmp.c_str(), &End);
        size_t Len = size_t(End - Tmp.c_str());
        if (Len == 0)
          return fail("malformed number");
        I += Len;
        T.Kind = TokKind::Float;
        T.FloatBits = 0;
        T.FVal = D;
        T.Text = Src.substr(Start, I - Start);
        Out.push_back(T);
        continue;
      }
      uint64_t V = 0;
      if (C == '0' && I + 1 < N && (Src[I + 1] == 'x' || Src[I + 1] == 'X')) {
        I += 2;
        if (I >= N || hexDigit(Src[I]) < 0)
          return fail("malformed hexadecimal constant");
        while (I < N && hexDigit(Src[I]) >= 0)
          V = (V << 4) | uint64_t(hexDigit(Src[I++]));
      } else if (C == '0' && I + 1 < N &&
                 (Src[I + 1] == 'b' || Src[I + 1] == 'B')) {
        I += 2;
        while (I < N && (Src[I] == '0' || Src[I] == '1'))
          V = (V << 1) | uint64_t(Src[I++] - '0');
      } else if (C == '0') {
        ++I;
        while (I < N && Src[I] >= '0' && Src[I] <= '7')
          V = (V << 3) | uint64_t(Src[I++] - '0');
      } else {
        while (I < N && Src[I] >= '0' && Src[I] <= '9')
          V = V * 10 + uint64_t(Src[I++] - '0');
      }
      if (I < N && (Src[I] == 'U' || Src[I] == 'u')) {
        T.Unsigned = true;
        ++I;
      }
      T.Kind = TokKind::Int;
      T.IntVal = V;
      T.Text = Src.substr(Start, I - Start);
      Out.push_back(T);
      continue;
    }
    if (C == '"') {
      ++I;
      while (I < N && Src[I] != '"') {
        if (Src[I] == '\\' && I + 1 < N)
          ++I;
        if (Src[I] == '\n')
          ++Line;
        ++I;
      }
      if (I >= N)
        return fail("unterminated string");
      ++I;
      T.Kind = TokKind::String;
      T.Text = Src.substr(Start + 1, I - Start - 2);
      Out.push_back(T);
      continue;
    }
    if (std::strchr(",;:()[]{}+-!@|<>=*/~&^?", C)) {
      T.Kind = TokKind::Punct;
      T.P = C;
      T.Text = Src.substr(I, 1);
      ++I;
      Out.push_back(T);
      continue;
    }
    return fail(std::string("unexpected character '") + C + "'");
  }
  Token End;
  End.Kind = TokKind::End;
  End.Line = Line;
  Out.push_back(End);
  return true;
}

} // namespace klaraptor::emu::ptx
