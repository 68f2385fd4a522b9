# set_plan_keys.py IN OUT KEY=JSON...: sets each KEY of the first
# contraction of the first kernel of plan IN to its JSON value (the value
# `null` drops the key: the scheduler decides it again), writes OUT.
import json, sys
plan = json.load(open(sys.argv[1]))
c = plan["kernels"][0]["contractions"][0]
for arg in sys.argv[3:]:
    key, value = arg.split("=", 1)
    value = json.loads(value)
    if value is None:
        c.pop(key, None)
    else:
        c[key] = value
json.dump(plan, open(sys.argv[2], "w"))
