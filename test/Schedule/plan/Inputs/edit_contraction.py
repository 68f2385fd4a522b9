# edit_contraction.py IN OUT KEY JSON: sets KEY of the first contraction of
# the first kernel of plan IN to the JSON value, writes OUT.
import json, sys
plan = json.load(open(sys.argv[1]))
plan["kernels"][0]["contractions"][0][sys.argv[3]] = json.loads(sys.argv[4])
json.dump(plan, open(sys.argv[2], "w"))
