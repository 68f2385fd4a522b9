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

config.substitutions.append(("%shared", config.ktflow_shared_dir))
config.substitutions.append(("%examples", os.path.join(config.ktflow_src_root, "examples")))
config.substitutions.append(("%arch_dir", os.path.join(config.ktflow_src_root, "arch")))
config.substitutions.append(("%ktir_examples", os.path.join(config.ktflow_shared_dir, "ktir-examples")))

# ASan/UBSan (and fuzzing) builds: inputs that crash the uninstrumented
# upstream MLIR parser do not crash there, so the tests of those crashes
# check the crash report only without this feature (`%if !sanitizers`).
if getattr(config, "ktflow_instrumented", False):
    config.available_features.add("sanitizers")
