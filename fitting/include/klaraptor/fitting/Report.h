//===- Report.h - fit results for people and for scripts --------*- C++ -*-===//
///
/// \file
/// The text `klaraptor fit-table` prints: the chosen function in the
/// original variables (exact rationals when exact), its degrees, residual,
/// held-out error, condition number, numerical rank, sample and unknown
/// counts, pieces and fit time; and the same as JSON (`--json`), which also
/// carries every coefficient (original, scaled, exact) for other tools.
//===----------------------------------------------------------------------===//
#ifndef KLARAPTOR_FITTING_REPORT_H
#define KLARAPTOR_FITTING_REPORT_H

#include "klaraptor/fitting/Fitter.h"

#include <string>

namespace klaraptor {
namespace fitting {

/// The human-readable report.
std::string formatReport(const FitReport &R);

/// The JSON report (one object).
std::string formatReportJson(const FitReport &R);

/// A JSON string literal.
std::string jsonString(const std::string &S);
/// A JSON number ("%.17g"), or null when not finite.
std::string jsonNumber(double V);

} // namespace fitting
} // namespace klaraptor

#endif // KLARAPTOR_FITTING_REPORT_H
