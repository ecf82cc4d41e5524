//===- FitTestSupport.h - sample generators for the fitting tests -*- C++
//-*-===//
///
/// \file
/// Builds FitProblems from known functions on sample grids, with exact
/// values (integers, or fractions written p/q so that they stay exact) or
/// with multiplicative Gaussian noise from a fixed seed. The Gaussian is
/// Box-Muller over std::mt19937_64, whose output the standard fixes, so the
/// noisy samples are the same with every standard library.
//===----------------------------------------------------------------------===//
#ifndef KLARAPTOR_TEST_UNIT_FITTING_FITTESTSUPPORT_H
#define KLARAPTOR_TEST_UNIT_FITTING_FITTESTSUPPORT_H

#include "klaraptor/fitting/Exact.h"
#include "klaraptor/fitting/Fitter.h"

#include <cmath>
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace klaraptor {
namespace fitting {
namespace test {

/// A standard normal deviate from two uniform ones (Box-Muller).
class Gaussian {
public:
  explicit Gaussian(uint64_t Seed) : Rng(Seed) {}
  double operator()() {
    // 53-bit uniforms in (0, 1].
    double U1 = (double(Rng() >> 11) + 1.0) / 9007199254740992.0;
    double U2 = double(Rng() >> 11) / 9007199254740992.0;
    return std::sqrt(-2.0 * std::log(U1)) * std::cos(6.283185307179586 * U2);
  }

private:
  std::mt19937_64 Rng;
};

/// All points of the product of \p Axes.
inline std::vector<std::vector<double>>
grid(const std::vector<std::vector<double>> &Axes) {
  std::vector<std::vector<double>> Out = {{}};
  for (const auto &A : Axes) {
    std::vector<std::vector<double>> Next;
    for (const auto &P : Out)
      for (double V : A) {
        auto Q = P;
        Q.push_back(V);
        Next.push_back(Q);
      }
    Out = std::move(Next);
  }
  return Out;
}

inline std::vector<double> range(double Lo, double Hi, double Step) {
  std::vector<double> V;
  for (double X = Lo; X <= Hi; X += Step)
    V.push_back(X);
  return V;
}

inline std::vector<double> powersOfTwo(double Lo, double Hi) {
  std::vector<double> V;
  for (double X = Lo; X <= Hi; X *= 2)
    V.push_back(X);
  return V;
}

/// Samples of an exact rational function given as numerator and denominator
/// in exact arithmetic (integer points): values are written as p/q.
inline FitProblem
exactProblem(const std::vector<std::string> &Vars,
             const std::vector<std::vector<double>> &Points,
             const std::function<Mpq(const std::vector<Mpq> &)> &F) {
  FitProblem P;
  P.File = "<test>";
  P.Target = "y";
  P.Vars = Vars;
  for (const auto &X : Points) {
    std::vector<Mpq> XQ;
    std::vector<std::string> XT;
    for (double V : X) {
      XQ.push_back(Mpq::fromDouble(V));
      XT.push_back(XQ.back().str());
    }
    Mpq Y = F(XQ);
    P.X.push_back(X);
    P.XText.push_back(XT);
    P.Y.push_back(Y.toDouble());
    P.YText.push_back(Y.str());
    P.Lines.push_back(unsigned(P.Y.size() + 1));
  }
  return P;
}

/// Samples of \p F with multiplicative noise of relative standard deviation
/// \p Noise.
inline FitProblem
noisyProblem(const std::vector<std::string> &Vars,
             const std::vector<std::vector<double>> &Points,
             const std::function<double(const std::vector<double> &)> &F,
             double Noise, uint64_t Seed) {
  FitProblem P;
  P.File = "<test>";
  P.Target = "y";
  P.Vars = Vars;
  Gaussian G(Seed);
  for (const auto &X : Points) {
    P.X.push_back(X);
    P.Y.push_back(F(X) * (1 + Noise * G()));
    P.Lines.push_back(unsigned(P.Y.size() + 1));
  }
  return P;
}

inline Mpq q(long N, unsigned long D = 1) { return Mpq(N, D); }
inline Mpq operator+(const Mpq &A, const Mpq &B) {
  Mpq R;
  mpq_add(R.get(), A.get(), B.get());
  return R;
}
inline Mpq operator-(const Mpq &A, const Mpq &B) {
  Mpq R;
  mpq_sub(R.get(), A.get(), B.get());
  return R;
}
inline Mpq operator*(const Mpq &A, const Mpq &B) {
  Mpq R;
  mpq_mul(R.get(), A.get(), B.get());
  return R;
}
inline Mpq operator/(const Mpq &A, const Mpq &B) {
  Mpq R;
  mpq_div(R.get(), A.get(), B.get());
  return R;
}

} // namespace test
} // namespace fitting
} // namespace klaraptor

#endif // KLARAPTOR_TEST_UNIT_FITTING_FITTESTSUPPORT_H
