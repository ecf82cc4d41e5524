//===- FitBench.cpp - fit time for 500 samples x 10 quantities ------------===//
///
/// \file
/// USAGE: klaraptor-fit-bench [--vars 3|4] [REPEATS]
///        klaraptor-fit-bench --extrapolation [SEEDS]
///
/// Builds 500 samples over (N, bx, by) - an N x N problem with 2-D blocks -
/// or, with --vars 4, over (N, M, bx, by): N, M in 16..256, block shapes
/// with bx, by powers of two and 32 <= bx*by <= 1024. Ten quantities
/// like those a profile yields: exact instruction and transaction counts
/// (polynomials and rational functions), measured values with 1 % and 5 %
/// multiplicative noise, and a piecewise count (min(bx, N) * by). Fits each
/// with the default options, prints the time per quantity and the total, best
/// of REPEATS (default 3) runs.
///
/// --extrapolation measures the accuracy figures of docs/fitting.md: for
/// 3*N^2/bx + 5*N + 7 and (N^2 + N)/(bx + 1), samples at N = 8, 16, ...,
/// 256 and bx = 32, ..., 1024 with 1 % and 5 % multiplicative Gaussian noise
/// (seeds 1 to SEEDS, default 20; the generator of test/Unit/Fitting), the
/// largest and mean relative error of the prediction at N = 8192 over bx.
//===----------------------------------------------------------------------===//
#include "klaraptor/fitting/Fitter.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <functional>
#include <random>
#include <string>

using namespace klaraptor::fitting;

namespace {
struct Quantity {
  const char *Name;
  double Noise; ///< relative standard deviation; 0: exact integers
  std::function<double(double N, double M, double Bx, double By)> F;
};
} // namespace

/// Box-Muller over std::mt19937_64, as test/Unit/Fitting/FitTestSupport.h.
struct Gaussian {
  explicit Gaussian(uint64_t Seed) : Rng(Seed) {}
  double operator()() {
    double U1 = (double(Rng() >> 11) + 1.0) / 9007199254740992.0;
    double U2 = double(Rng() >> 11) / 9007199254740992.0;
    return std::sqrt(-2.0 * std::log(U1)) * std::cos(6.283185307179586 * U2);
  }
  std::mt19937_64 Rng;
};

int extrapolation(int Seeds) {
  struct Fn {
    const char *Name;
    double (*F)(double, double);
  };
  const Fn Fns[] = {
      {"3*N^2/bx + 5*N + 7",
       [](double N, double B) { return 3 * N * N / B + 5 * N + 7; }},
      {"(N^2 + N)/(bx + 1)",
       [](double N, double B) { return (N * N + N) / (B + 1); }},
  };
  std::printf("extrapolation from N <= 256 to N = 8192, %d seeds\n", Seeds);
  for (const Fn &F : Fns)
    for (double Noise : {0.01, 0.05}) {
      double Worst = 0, Sum = 0, Time = 0;
      for (int Seed = 1; Seed <= Seeds; ++Seed) {
        FitProblem P;
        P.File = "<extrapolation>";
        P.Target = "y";
        P.Vars = {"N", "bx"};
        Gaussian G{uint64_t(Seed)};
        for (double N = 8; N <= 256; N += 8)
          for (double B = 32; B <= 1024; B *= 2) {
            P.X.push_back({N, B});
            P.Y.push_back(F.F(N, B) * (1 + Noise * G()));
            P.Lines.push_back(unsigned(P.Y.size() + 1));
          }
        FitReport R = fitQuantity(P, FitOptions());
        if (!R.ok()) {
          std::printf("  %s: %s\n", F.Name, R.Error.c_str());
          return 1;
        }
        double E = 0;
        for (double B = 32; B <= 1024; B *= 2) {
          double X[2] = {8192, B};
          double T = F.F(8192, B);
          E = std::max(E, std::fabs(R.Model.evaluate(X) - T) / T);
        }
        Worst = std::max(Worst, E);
        Sum += E;
        Time += R.Seconds;
      }
      std::printf("  %-20s noise %2.0f %%: error at N = 8192: largest %.2f %%, "
                  "mean %.2f %% (fit %.1f ms each)\n",
                  F.Name, Noise * 100, Worst * 100, Sum / Seeds * 100,
                  Time / Seeds * 1e3);
    }
  return 0;
}

int main(int Argc, char **Argv) {
  int Repeats = 3;
  bool FourVars = false;
  if (Argc > 1 && std::string(Argv[1]) == "--extrapolation")
    return extrapolation(Argc > 2 ? std::max(1, std::atoi(Argv[2])) : 20);
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    if (A == "--vars" && I + 1 < Argc) {
      FourVars = std::string(Argv[++I]) == "4";
    } else if (A == "--help") {
      std::printf("USAGE: klaraptor-fit-bench [--vars 3|4] [REPEATS]\n"
                  "       klaraptor-fit-bench --extrapolation [SEEDS]\n");
      return 0;
    } else {
      Repeats = std::max(1, std::atoi(A.c_str()));
    }
  }
  std::vector<Quantity> Qs = {
      {"inst_per_warp", 0,
       [](double N, double M, double, double) { return 12 * N + 3 * M + 40; }},
      {"active_threads", 0,
       [](double N, double, double Bx, double By) {
         return std::min(Bx, N) * By;
       }},
      {"ld_requests", 0,
       [](double N, double M, double Bx, double By) {
         return N * M / (Bx * By) * 4 + N;
       }},
      {"ld_sectors", 0,
       [](double N, double M, double Bx, double) {
         return 4 * N * M + 64 * N * M / Bx;
       }},
      {"smem_per_block", 0,
       [](double, double, double Bx, double By) { return 8 * Bx * By + 64; }},
      {"sync_per_warp", 0,
       [](double N, double, double, double) { return N / 16 + 1; }},
      {"time_1pct", 0.01,
       [](double N, double M, double Bx, double By) {
         return 3e-3 * N * M / (Bx * By) + 0.01 * N + 5;
       }},
      {"time_5pct", 0.05,
       [](double N, double M, double Bx, double) {
         return 2e-4 * N * M + 50 / Bx + 2;
       }},
      {"dram_bytes_1pct", 0.01,
       [](double N, double M, double, double) { return 8 * N * M + 1024; }},
      {"occupancy_5pct", 0.05,
       [](double, double, double Bx, double By) {
         return 2048 / (Bx * By + 32);
       }},
  };
  std::mt19937_64 Rng(12345);
  std::vector<std::vector<double>> X;
  std::vector<double> Sizes = {16, 32, 48, 64, 96, 128, 192, 256};
  std::vector<std::pair<double, double>> Shapes;
  for (double Bx = 1; Bx <= 1024; Bx *= 2)
    for (double By = 1; By <= 1024; By *= 2)
      if (Bx * By >= 32 && Bx * By <= 1024)
        Shapes.push_back({Bx, By});
  std::uniform_int_distribution<size_t> PickSize(0, Sizes.size() - 1),
      PickShape(0, Shapes.size() - 1);
  while (X.size() < 500) {
    auto [Bx, By] = Shapes[PickShape(Rng)];
    double N = Sizes[PickSize(Rng)], M = Sizes[PickSize(Rng)];
    X.push_back({N, FourVars ? M : N, Bx, By});
  }
  std::normal_distribution<double> Gauss(0, 1);
  std::vector<FitProblem> Problems;
  for (const auto &Q : Qs) {
    FitProblem P;
    P.File = "<bench>";
    P.Target = Q.Name;
    P.Vars = FourVars ? std::vector<std::string>{"N", "M", "bx", "by"}
                      : std::vector<std::string>{"N", "bx", "by"};
    for (size_t R = 0; R < X.size(); ++R) {
      double Y = Q.F(X[R][0], X[R][1], X[R][2], X[R][3]);
      Y = Q.Noise ? Y * (1 + Q.Noise * Gauss(Rng)) : std::round(Y);
      if (FourVars)
        P.X.push_back(X[R]);
      else
        P.X.push_back({X[R][0], X[R][2], X[R][3]});
      P.Y.push_back(Y);
      P.Lines.push_back(unsigned(R + 2));
    }
    Problems.push_back(std::move(P));
  }

  FitOptions O;
  if (const char *Only = std::getenv("KLARAPTOR_FIT_BENCH_ONLY")) {
    for (size_t I = 0; I < Qs.size(); ++I)
      if (Qs[I].Name == std::string(Only)) {
        Qs = {Qs[I]};
        Problems = {Problems[I]};
        break;
      }
    O.Trace = std::getenv("KLARAPTOR_FIT_BENCH_TRACE") != nullptr;
  }
  // Wall time, and the process's CPU time, which a machine shared with
  // other jobs inflates less.
  double BestTotal = INFINITY, BestCpu = INFINITY;
  std::vector<double> Best(Qs.size(), INFINITY);
  std::vector<FitReport> Reports(Qs.size());
  for (int Rep = 0; Rep < Repeats; ++Rep) {
    auto T0 = std::chrono::steady_clock::now();
    std::clock_t C0 = std::clock();
    for (size_t I = 0; I < Problems.size(); ++I) {
      auto S = std::chrono::steady_clock::now();
      Reports[I] = fitQuantity(Problems[I], O);
      Best[I] = std::min(Best[I], std::chrono::duration<double>(
                                      std::chrono::steady_clock::now() - S)
                                      .count());
    }
    BestTotal = std::min(BestTotal, std::chrono::duration<double>(
                                        std::chrono::steady_clock::now() - T0)
                                        .count());
    BestCpu = std::min(BestCpu, double(std::clock() - C0) / CLOCKS_PER_SEC);
  }
  std::printf(
      "klaraptor-fit-bench: %zu samples x %zu quantities, variables %s\n",
      X.size(), Qs.size(), FourVars ? "N M bx by" : "N bx by");
  for (size_t I = 0; I < Qs.size(); ++I) {
    const FitReport &R = Reports[I];
    std::printf("  %-16s %8.2f ms  %s  held-out %.3g  pieces %zu  %s\n",
                Qs[I].Name, Best[I] * 1e3,
                R.ok() && R.Model.exact() ? "exact" : "float", R.HeldOut,
                R.Model.Pieces.size(),
                R.ok() ? R.Model.str(4).c_str() : R.Error.c_str());
  }
  std::printf("total fit time: %.1f ms (best of %d; CPU time %.1f ms)\n",
              BestTotal * 1e3, Repeats, BestCpu * 1e3);
  return 0;
}
