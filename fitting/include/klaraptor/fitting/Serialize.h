//===- Serialize.h - a fit report saved as text and read back ---*- C++ -*-===//
///
/// \file
/// A FitReport as one line of text and back, losslessly: doubles in
/// hexadecimal (%a), exact coefficients as fractions, strings with their
/// length. `klaraptor fit` keeps its fits in the profile database this way
/// so that `report` (and a second `fit`) reuse them instead of fitting
/// again (model/fit's fit cache). The text starts with a format version; a
/// text of another version or a damaged one is refused with the place where
/// reading stopped, and the caller fits again.
//===----------------------------------------------------------------------===//
#ifndef KLARAPTOR_FITTING_SERIALIZE_H
#define KLARAPTOR_FITTING_SERIALIZE_H

#include "klaraptor/fitting/Fitter.h"

#include <string>

namespace klaraptor {
namespace fitting {

/// \p R as text (no newline inside).
std::string saveFitReport(const FitReport &R);

/// Reads what saveFitReport wrote. False with \p Error ("token N: ...")
/// for anything else; \p R is then unspecified.
bool loadFitReport(const std::string &Text, FitReport &R, std::string &Error);

/// Every option of \p O as text: two options give the same text exactly
/// when they fit alike (a cache keyed by it must see every field, so a field
/// added to FitOptions is added here).
std::string fitOptionsText(const FitOptions &O);

} // namespace fitting
} // namespace klaraptor

#endif // KLARAPTOR_FITTING_SERIALIZE_H
