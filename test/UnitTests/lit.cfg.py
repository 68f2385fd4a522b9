# Runs the GoogleTest unit tests (build/unittests) as lit tests.
import os
import lit.formats

config.name = "ktflow-unit"
config.suffixes = []
config.test_source_root = os.path.join(config.ktflow_obj_root, "unittests")
config.test_exec_root = config.test_source_root
config.test_format = lit.formats.GoogleTest(".", "Tests")
