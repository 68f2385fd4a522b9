# lit configuration for ktflow's tests.
import os
import lit.formats

config.name = "ktflow"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.ktflow_obj_root, "test")
config.excludes = ["UnitTests", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py", "Inputs"]

config.environment["PATH"] = os.pathsep.join(
    [config.ktflow_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", os.environ["PATH"])])

config.substitutions.append(("%examples", os.path.join(config.ktflow_src_root, "examples")))
config.substitutions.append(("%arch_dir", os.path.join(config.ktflow_src_root, "arch")))
# The KTIR example corpus the repository carries is %examples/ktir (invalid/ beside it).

config.substitutions.append(("%ktflow_version", config.ktflow_version))
# test/Install: `cmake --install` of this build and a consumer built with
# the compiler ktflow was built with.
config.substitutions.append(("%ktflow_obj_root", config.ktflow_obj_root))
config.substitutions.append(("%cmake", config.cmake_command))
config.substitutions.append(("%cxx", config.cxx_compiler))

# ASan/UBSan (and fuzzing) builds: inputs that crash the uninstrumented
# upstream MLIR parser do not crash there, so the tests of those crashes
# check the crash report only without this feature (`%if !sanitizers`).
if getattr(config, "ktflow_instrumented", False):
    config.available_features.add("sanitizers")

# Headless Chromium renders the HTML reports (test/Report) as a browser
# would. scripts/install-deps.sh installs it and `make test` runs that
# first; without it the substitution names a command that does not exist,
# so those tests fail instead of passing unseen.
import shutil
chromium = shutil.which("chromium") or "chromium-not-installed--run-scripts-install-deps.sh"
config.substitutions.append(("%chromium", " ".join([
    "timeout", "300", chromium, "--headless", "--no-sandbox", "--disable-gpu",
    "--disable-dev-shm-usage", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"])))

# GNU parallel runs the tuner's shards (test/Tune/shards.test; docs/tune.md).
# scripts/install-deps.sh installs it; without it the substitution names a
# command that does not exist, so the test fails instead of passing unseen.
parallel = shutil.which("parallel") or "parallel-not-installed--run-scripts-install-deps.sh"
config.substitutions.append(("%parallel", parallel + " --will-cite"))
