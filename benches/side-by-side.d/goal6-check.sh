#!/usr/bin/env bash
# Issue 33 goal 6: `check --json` on a folder of CHECK_FILES exports (10,000 by default;
# benches/check_folder.sh makes it), with its throughput and whether every core worked
# (user + sys CPU time over the wall time: above 1.5 on 2 cores shows both were used).
#
#   benches/side-by-side.d/goal6-check.sh BIN_DIR       # CHECK_FILES, SHARED
set -euo pipefail
BIN_DIR=${1:?usage: goal6-check.sh BIN_DIR}
HERE=$(cd "$(dirname "$0")/../.." && pwd)
N=${CHECK_FILES:-10000}
out=$(BIN="$BIN_DIR/bonescope" "$HERE/benches/check_folder.sh" "$N" 2>&1) || {
    echo "$out" >&2
    exit 1
}
echo "$out" >&2
CHECK_OUT=$out python3 - <<'PY'
import os, re
out = os.environ["CHECK_OUT"]
cores = int(re.search(r"cores: (\d+)", out).group(1))
load = re.search(r"load average: (\S+)", out).group(1)
wall, user, sys_ = (float(x) for x in re.search(r"wall (\S+) s, user (\S+) s, sys (\S+) s", out).groups())
m = re.search(r"(\d+) files, (\S+) MB in \S+ s on (\d+) threads: (\d+) files/s, (\S+) MB/s", out)
files, mb, threads, fps, mbps = m.groups()
ratio = (user + sys_) / wall if wall > 0 else 0.0
# Every core shows as CPU time above 1.5 x wall on 2 cores (0.75 x cores in general).
used = ratio > 0.75 * cores if cores > 1 else True
print(f"goal6-check bonescope check-{files}-files files_per_s={fps} MB_per_s={mbps} "
      f"threads={threads} cores={cores} cpu_over_wall={ratio:.2f} wall_s={wall:.1f} "
      f"load_1min={load} every_core={'met' if used else '**missed**'}")
PY
