//===- Device.cpp - klaraptor device --------------------------------------===//
///
/// \file
/// USAGE: klaraptor device probe [--out FILE] [--base PROFILE] [--quick]
///                               [--id ID] [--probe PROGRAM]
///
/// Runs klaraptor-device-probe (profiler/probe/DeviceProbe.cu, installed
/// next to this tool), whose microbenchmarks measure the GPU's timing and
/// MWP-CWP parameters and write a device profile, then checks that the
/// profile loads (loadDeviceProfile). docs/cli.md describes the options.
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "Options.h"
#include "Process.h"

#include "DeviceProfile.h"

#include <cstdio>
#include <unistd.h>

namespace klaraptor {
namespace cli {

const char *deviceUsage() {
  return R"(USAGE: klaraptor device probe [--out FILE] [--base PROFILE] [--quick] [OPTIONS]

Measures the CUDA device 0 with microbenchmarks (DRAM, L2 and shared-memory
latency by pointer chasing, departure delays of coalesced and uncoalesced
loads, DRAM and L2 bandwidth, latency and throughput of the fp32, int, fp64
and SFU pipes, the SM clock, launch overhead) and writes a device profile
with the device's limits, the measured 'timing.*' and 'mwp.*' keys and the
keys it cannot measure copied from a base profile; every key names its
source. Use the profile with 'klaraptor fit --device FILE' or
KLARAPTOR_EMU_DEVICE=FILE.

OPTIONS:
  --out FILE        the profile to write (default klaraptor-probed.device)
  --base PROFILE    built-in name or .device file to copy the keys that are
                    not measured from (default: the built-in profile of the
                    device's compute capability, else the default profile)
  --quick           small sizes and 3 repeats: checks the plumbing, the
                    numbers are not for use
  --id ID           the profile's id (default: from the device name)
  --probe PROGRAM   the probe program to run (default: klaraptor-device-probe
                    next to klaraptor)
)";
}

namespace {
const Syntax CommandSyntax = {
    deviceUsage,
    "unknown option '{0}' for 'device probe' (see 'klaraptor device --help')",
    "'{0}' expects a value"};
#define KLARAPTOR_OPTIONS_INC "DeviceOptions.inc"
#include "OptionTable.def"
} // namespace

int runDevice(const Args &A) {
  const llvm::StringRef Sub = A.empty() ? "" : A[0];
  if (A.empty() || Sub == "--help" || Sub == "-h") {
    std::fputs(deviceUsage(), A.empty() ? stderr : stdout);
    return A.empty() ? 1 : 0;
  }
  if (Sub != "probe") {
    error("unknown 'device' subcommand '" + Sub.str() + "' (expected 'probe')");
    return 1;
  }
  llvm::opt::InputArgList Opts;
  if (int Status = options().parse(A.drop_front(), Opts); Status >= 0)
    return Status;
  // The probe takes the options but --probe, as they were given.
  std::string Out = "klaraptor-probed.device", Base, Probe;
  llvm::opt::ArgStringList Forward;
  for (const llvm::opt::Arg *Arg : Opts) {
    if (Arg->getNumValues() && !*Arg->getValue()) {
      error("'" + Arg->getOption().getPrefixedName().str() +
            "' expects a value");
      return 1;
    }
    switch (Arg->getOption().getID()) {
    case OPT_probe:
      Probe = Arg->getValue();
      continue;
    case OPT_out:
      Out = Arg->getValue();
      break;
    case OPT_base:
      Base = Arg->getValue();
      break;
    }
    Arg->render(Opts, Forward);
  }

  // A bad base is an error before any measurement.
  devices::DeviceProfile P;
  std::string Error;
  if (!Base.empty() && !devices::loadDeviceProfile(Base, P, Error)) {
    error("--base: " + Error);
    return 1;
  }
  if (Out.size() < 7 || Out.compare(Out.size() - 7, 7, ".device") != 0)
    warning("'" + Out + "' does not end in '.device': name it with a '/' "
            "(./" + Out + ") when you pass it to --device or "
            "KLARAPTOR_EMU_DEVICE, which read other names as built-in "
            "profiles");

  if (Probe.empty()) {
    std::string Dir = selfDirectory();
    Probe = (Dir.empty() ? std::string("./") : Dir) + "klaraptor-device-probe";
  }
  if (::access(Probe.c_str(), X_OK) != 0) {
    error("the probe program '" + Probe + "' does not exist or is not "
          "executable (it is built with klaraptor; --probe PROGRAM names "
          "another)");
    return 1;
  }
  std::vector<std::string> Argv = {Probe};
  Argv.insert(Argv.end(), Forward.begin(), Forward.end());
  ProcessResult R = runProgram(Argv, {});
  if (!R.Started) {
    error("cannot run '" + Probe + "': " + R.Error);
    return 1;
  }
  if (R.Signal) {
    error("the probe '" + Probe + "' was killed by signal " +
          std::to_string(R.Signal));
    return 1;
  }
  if (R.ExitCode == 2) {
    error("no CUDA device: 'klaraptor device probe' measures a GPU, and the "
          "CUDA runtime reports none here (see the probe's message above)");
    return 1;
  }
  if (R.ExitCode != 0) {
    error("the probe '" + Probe + "' failed (exit status " +
          std::to_string(R.ExitCode) + "); no profile written");
    return 1;
  }

  // The profile must load the way --device and KLARAPTOR_EMU_DEVICE load it.
  std::string Path = Out.find('/') == std::string::npos ? "./" + Out : Out;
  devices::DeviceProfile Written;
  if (!devices::loadDeviceProfile(Path, Written, Error)) {
    error("the probe's profile does not load: " + Error);
    return 1;
  }
  std::printf("device profile '%s' (%s): %zu timing and %zu mwp keys; use it "
              "with 'klaraptor fit --device %s' or KLARAPTOR_EMU_DEVICE=%s\n",
              Written.Id.c_str(), Written.Name.c_str(), Written.Timing.size(),
              Written.Mwp.size(), Path.c_str(), Path.c_str());
  return 0;
}

} // namespace cli
} // namespace klaraptor
