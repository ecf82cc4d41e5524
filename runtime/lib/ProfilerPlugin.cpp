//===- ProfilerPlugin.cpp - loading libklaraptor_profile.so ---------------===//
#include "ProfilerPlugin.h"

#include <cstdlib>
#include <dlfcn.h>

namespace klaraptor {

std::string ProfilerPlugin::defaultPath() {
  if (const char *P = std::getenv("KLARAPTOR_PROFILE_LIB"))
    if (*P)
      return P;
  Dl_info Info;
  if (::dladdr(reinterpret_cast<void *>(&klaraptor_version), &Info) &&
      Info.dli_fname) {
    std::string Self = Info.dli_fname;
    size_t Slash = Self.rfind('/');
    if (Slash != std::string::npos)
      return Self.substr(0, Slash + 1) + "libklaraptor_profile.so";
  }
  return "libklaraptor_profile.so";
}

void ProfilerPlugin::load() {
  std::call_once(Once, [&] {
    std::string Path = defaultPath();
    void *H = ::dlopen(Path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!H) {
      const char *Why = ::dlerror();
      Diags.reportOnce(LogLevel::Error,
                       "cannot load the profiler plug-in '" + Path + "': " +
                           (Why ? Why : "unknown error") +
                           " (set KLARAPTOR_PROFILE_LIB); launches keep their "
                           "configuration and nothing is profiled");
      return;
    }
    Launch = reinterpret_cast<klaraptor_profile_launch_fn>(
        ::dlsym(H, KLARAPTOR_PROFILE_LAUNCH_SYMBOL));
    Decide = reinterpret_cast<klaraptor_profile_decision_fn>(
        ::dlsym(H, KLARAPTOR_PROFILE_DECISION_SYMBOL));
    if (!Launch || !Decide)
      Diags.reportOnce(LogLevel::Error,
                       "'" + Path + "' is not a klaraptor profiler plug-in "
                       "(it lacks " KLARAPTOR_PROFILE_LAUNCH_SYMBOL " or "
                       KLARAPTOR_PROFILE_DECISION_SYMBOL ")");
  });
}

klaraptor_profile_launch_fn ProfilerPlugin::launchFn() {
  load();
  return Launch && Decide ? Launch : nullptr;
}

klaraptor_profile_decision_fn ProfilerPlugin::decisionFn() {
  load();
  return Launch && Decide ? Decide : nullptr;
}

} // namespace klaraptor
