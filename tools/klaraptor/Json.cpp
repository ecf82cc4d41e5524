//===- Json.cpp - a small JSON reader for the CLI's own files -------------===//
#include "Json.h"

#include <cstdlib>
#include <cstring>

namespace klaraptor {
namespace cli {

namespace {

const JsonValue &nullValue() {
  static const JsonValue V;
  return V;
}

class Parser {
public:
  explicit Parser(const std::string &T) : T(T) {}
  bool value(JsonValue &V, int Depth);
  void blanks() {
    while (P < T.size() && std::strchr(" \t\r\n", T[P]))
      ++P;
  }
  bool fail(const char *What) {
    if (Error.empty())
      Error = std::string(What) + " at byte " + std::to_string(P);
    return false;
  }
  const std::string &T;
  size_t P = 0;
  std::string Error;

private:
  bool string(std::string &S);
  bool literal(const char *Word) {
    size_t L = std::strlen(Word);
    if (T.compare(P, L, Word) != 0)
      return fail("unexpected character");
    P += L;
    return true;
  }
};

void appendUtf8(std::string &S, unsigned C) {
  if (C < 0x80) {
    S += char(C);
  } else if (C < 0x800) {
    S += char(0xC0 | (C >> 6));
    S += char(0x80 | (C & 0x3F));
  } else {
    S += char(0xE0 | (C >> 12));
    S += char(0x80 | ((C >> 6) & 0x3F));
    S += char(0x80 | (C & 0x3F));
  }
}

bool Parser::string(std::string &S) {
  ++P; // the opening quote
  while (P < T.size()) {
    char C = T[P++];
    if (C == '"')
      return true;
    if (static_cast<unsigned char>(C) < 0x20)
      return fail("control character in a string");
    if (C != '\\') {
      S += C;
      continue;
    }
    if (P >= T.size())
      break;
    char E = T[P++];
    switch (E) {
    case '"': S += '"'; break;
    case '\\': S += '\\'; break;
    case '/': S += '/'; break;
    case 'b': S += '\b'; break;
    case 'f': S += '\f'; break;
    case 'n': S += '\n'; break;
    case 'r': S += '\r'; break;
    case 't': S += '\t'; break;
    case 'u': {
      if (P + 4 > T.size())
        return fail("short \\u escape");
      unsigned V = 0;
      for (int I = 0; I < 4; ++I) {
        char H = T[P++];
        V <<= 4;
        if (H >= '0' && H <= '9')
          V |= unsigned(H - '0');
        else if (H >= 'a' && H <= 'f')
          V |= unsigned(H - 'a' + 10);
        else if (H >= 'A' && H <= 'F')
          V |= unsigned(H - 'A' + 10);
        else
          return fail("bad \\u escape");
      }
      appendUtf8(S, V);
      break;
    }
    default:
      return fail("bad escape");
    }
  }
  return fail("unterminated string");
}

bool Parser::value(JsonValue &V, int Depth) {
  if (Depth > 200)
    return fail("nesting too deep");
  blanks();
  if (P >= T.size())
    return fail("unexpected end");
  char C = T[P];
  if (C == '{') {
    V.K = JsonValue::Object;
    ++P;
    blanks();
    if (P < T.size() && T[P] == '}') {
      ++P;
      return true;
    }
    while (true) {
      blanks();
      if (P >= T.size() || T[P] != '"')
        return fail("expected a member name");
      std::string Key;
      if (!string(Key))
        return false;
      blanks();
      if (P >= T.size() || T[P] != ':')
        return fail("expected ':'");
      ++P;
      if (!V.O.count(Key))
        V.Keys.push_back(Key);
      if (!value(V.O[Key], Depth + 1))
        return false;
      blanks();
      if (P < T.size() && T[P] == ',') {
        ++P;
        continue;
      }
      if (P < T.size() && T[P] == '}') {
        ++P;
        return true;
      }
      return fail("expected ',' or '}'");
    }
  }
  if (C == '[') {
    V.K = JsonValue::Array;
    ++P;
    blanks();
    if (P < T.size() && T[P] == ']') {
      ++P;
      return true;
    }
    while (true) {
      V.A.emplace_back();
      if (!value(V.A.back(), Depth + 1))
        return false;
      blanks();
      if (P < T.size() && T[P] == ',') {
        ++P;
        continue;
      }
      if (P < T.size() && T[P] == ']') {
        ++P;
        return true;
      }
      return fail("expected ',' or ']'");
    }
  }
  if (C == '"') {
    V.K = JsonValue::String;
    return string(V.S);
  }
  if (C == 't' || C == 'f') {
    V.K = JsonValue::Bool;
    V.B = C == 't';
    return literal(C == 't' ? "true" : "false");
  }
  if (C == 'n') {
    V.K = JsonValue::Null;
    return literal("null");
  }
  if (C == '-' || (C >= '0' && C <= '9')) {
    const char *Start = T.c_str() + P;
    char *End = nullptr;
    V.K = JsonValue::Number;
    V.N = std::strtod(Start, &End);
    if (End == Start)
      return fail("bad number");
    P += size_t(End - Start);
    return true;
  }
  return fail("unexpected character");
}

} // namespace

const JsonValue &JsonValue::operator[](const std::string &Key) const {
  if (K != Object)
    return nullValue();
  auto It = O.find(Key);
  return It == O.end() ? nullValue() : It->second;
}

const JsonValue &JsonValue::at(size_t I) const {
  return K == Array && I < A.size() ? A[I] : nullValue();
}

const std::string &JsonValue::str() const {
  static const std::string Empty;
  return K == String ? S : Empty;
}

bool parseJson(const std::string &Text, JsonValue &Out, std::string &Error) {
  Parser P(Text);
  Out = JsonValue();
  if (!P.value(Out, 0)) {
    Error = P.Error;
    return false;
  }
  P.blanks();
  if (P.P != Text.size()) {
    P.fail("trailing characters");
    Error = P.Error;
    return false;
  }
  return true;
}

} // namespace cli
} // namespace klaraptor
