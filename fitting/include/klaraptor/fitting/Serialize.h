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

/// Appends \p S to \p Out as LENGTH:TEXT, the form of every string of a
/// saved report (and of model/fit's fit cache).
void appendCounted(std::string &Out, const std::string &S);

/// Reads LENGTH:TEXT at \p Pos of \p In into \p Out and moves \p Pos past
/// it. False, \p Pos unchanged and \p Why set ("expected LENGTH:TEXT", "the
/// text is shorter than its length") when what is there is not one.
bool readCounted(const std::string &In, size_t &Pos, std::string &Out,
                 std::string &Why);

/// Every option of \p O as text: two options give the same text exactly
/// when they fit alike (a cache keyed by it must see every field, so a field
/// added to FitOptions is added here).
std::string fitOptionsText(const FitOptions &O);

} // namespace fitting
} // namespace klaraptor

#endif // KLARAPTOR_FITTING_SERIALIZE_H
