# fewer_cycles.py A B: succeeds where the `simulated cycles` of run output A
# are fewer than those of B (prints both).
import re, sys
def cycles(path):
    return int(re.search(r"simulated cycles: (\d+)", open(path).read()).group(1))
a, b = cycles(sys.argv[1]), cycles(sys.argv[2])
print(f"cycles {a} vs {b}")
sys.exit(0 if a < b else 1)
