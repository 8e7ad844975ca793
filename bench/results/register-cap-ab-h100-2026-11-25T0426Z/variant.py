import re, sys
# variant.py CAP SRC DST : __launch_bounds__(N) -> __launch_bounds__(N, M) with M = 65536 // (N * CAP) when > 1
cap = int(sys.argv[1]); src = open(sys.argv[2]).read()
def sub(m):
    n = int(m.group(1)); k = 65536 // (n * cap)
    return m.group(0) if k <= 1 else "__launch_bounds__(%d, %d)" % (n, k)
out = re.sub(r"__launch_bounds__\((\d+)\)(?= \w+__ldcc_checked)", sub, src)
open(sys.argv[3], "w").write(out)
