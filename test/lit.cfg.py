# lit configuration for klaraptor's tests.
import os
import shutil
import subprocess

import lit.formats

config.name = "klaraptor"
config.test_format = lit.formats.ShTest(not lit_config.noExecute)
config.suffixes = [".cu", ".ll", ".c", ".cpp", ".test"]
config.excludes = ["Inputs", "lit.cfg.py", "lit.site.cfg.py", "CMakeLists.txt"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.klaraptor_obj_root, "test")

# Tools from LLVM 19 first, then ours.
config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, config.klaraptor_bin_dir, config.environment.get("PATH", "")])
for var in ["HOME", "TMPDIR", "LANG"]:
    if var in os.environ:
        config.environment[var] = os.environ[var]
# Tests decide klaraptor's environment themselves.
for var in list(config.environment):
    if var.startswith("KLARAPTOR_"):
        del config.environment[var]

shim = os.path.join(config.klaraptor_obj_root, "lib", "klaraptor", "cuda-shim")
host_cuda = ("%s -x cuda --cuda-host-only --cuda-path=%s --cuda-gpu-arch=sm_90 "
             "-Wno-unknown-cuda-version -isystem %s" % (config.clangxx, config.cuda_path, shim))

subs = [
    ("%klaraptor-clang\\+\\+", os.path.join(config.klaraptor_bin_dir, "klaraptor-clang++")),
    ("%klaraptor-clangxx", os.path.join(config.klaraptor_bin_dir, "klaraptor-clang++")),
    ("%plugin", config.plugin),
    ("%host_cuda", host_cuda),
    ("%clangxx", config.clangxx),
    ("%clang_c", config.clang_c),
    ("%nvcc", config.nvcc),
    ("%cuda_path", config.cuda_path),
    ("%opt", os.path.join(config.llvm_tools_dir, "opt")),
    ("%rt_include", config.rt_include),
    ("%klaraptor_lib", config.klaraptor_lib_dir),
    ("%recording_cudart", config.recording_cudart),
    ("%examples", config.examples_dir),
    ("%examples_bin", os.path.join(config.klaraptor_obj_root, "examples")),
    ("%unittest_dir", os.path.join(config.klaraptor_obj_root, "unittests")),
    ("%src_root", config.klaraptor_src_root),
    ("%obj_root", config.klaraptor_obj_root),
    ("%python", config.python),
]
config.substitutions.extend(subs)

# A GPU answers only where nvidia-smi lists one; elsewhere tests that need
# it report UNSUPPORTED.
smi = shutil.which("nvidia-smi")
if smi:
    try:
        out = subprocess.run([smi, "-L"], capture_output=True, text=True, timeout=30)
        if out.returncode == 0 and "GPU" in out.stdout:
            config.available_features.add("cuda-gpu")
    except Exception:
        pass

# A headless Chromium (Debian package chromium) for the report's screenshot
# test (scripts/report-screenshot.sh); elsewhere it reports UNSUPPORTED.
if shutil.which("chromium") or shutil.which("chromium-browser"):
    config.available_features.add("chromium")

# Debian's OpenBLAS builds, each in a folder of its own beside the reference
# LAPACK (libopenblas0-serial, -pthread, -openmp): test/Fitting/openblas.test
# runs the LAPACK wrappers' tests on each one present; elsewhere UNSUPPORTED.
openblas_dirs = [d for d in
                 ("/usr/lib/x86_64-linux-gnu/openblas-serial",
                  "/usr/lib/x86_64-linux-gnu/openblas-pthread",
                  "/usr/lib/x86_64-linux-gnu/openblas-openmp")
                 if os.path.exists(os.path.join(d, "liblapack.so.3"))]
if openblas_dirs:
    config.available_features.add("openblas")
    config.substitutions.append(("%openblas_dirs", " ".join(openblas_dirs)))
