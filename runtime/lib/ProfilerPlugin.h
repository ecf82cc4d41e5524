//===- ProfilerPlugin.h - loading libklaraptor_profile.so -----------------===//
///
/// \file
/// The runtime hands launches to the profiler plug-in
/// (klaraptor/klaraptor_profile.h) in profile mode and, with KLARAPTOR_BENCH,
/// after each new decision. The plug-in is loaded on first use: from
/// KLARAPTOR_PROFILE_LIB when set, else libklaraptor_profile.so in the folder
/// libklaraptor_rt.so was loaded from. A plug-in that cannot be loaded is
/// reported once and the launches keep their configuration.
//===----------------------------------------------------------------------===//
#ifndef KLARAPTOR_RUNTIME_PROFILERPLUGIN_H
#define KLARAPTOR_RUNTIME_PROFILERPLUGIN_H

#include "Diagnostics.h"
#include "klaraptor/klaraptor_profile.h"

#include <mutex>
#include <string>

namespace klaraptor {

class ProfilerPlugin {
public:
  explicit ProfilerPlugin(Diagnostics &Diags) : Diags(Diags) {}
  ProfilerPlugin(const ProfilerPlugin &) = delete;
  ProfilerPlugin &operator=(const ProfilerPlugin &) = delete;

  /// The plug-in's entry points, or null (reported once) when it is absent.
  klaraptor_profile_launch_fn launchFn();
  klaraptor_profile_decision_fn decisionFn();

  /// Where the plug-in is looked for.
  static std::string defaultPath();

private:
  Diagnostics &Diags;
  std::once_flag Once;
  klaraptor_profile_launch_fn Launch = nullptr;
  klaraptor_profile_decision_fn Decide = nullptr;
  void load();
};

} // namespace klaraptor

#endif // KLARAPTOR_RUNTIME_PROFILERPLUGIN_H
