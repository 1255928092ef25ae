#!/usr/bin/env bash
# Issue 33 goal 6: `check --json` on a folder of CHECK_FILES exports (10,000 by default;
# benches/check_folder.sh makes it), with its throughput and whether every core worked
# (user + sys CPU time over the wall time: above 0.75 x cores, 1.5 on 2 cores, shows that every
# core was used). `others_cores` is the CPU every other process used meanwhile (in cores): when
# they left less than 0.75 x cores free, the use of every core cannot show here, and the
# goals table says so with what was measured.
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
others = float(re.search(r"other processes: (\S+) cores", out).group(1))
m = re.search(r"(\d+) files, (\S+) MB in \S+ s on (\d+) threads: (\d+) files/s, (\S+) MB/s", out)
files, mb, threads, fps, mbps = m.groups()
ratio = (user + sys_) / wall if wall > 0 else 0.0
print(f"goal6-check bonescope check-{files}-files files_per_s={fps} MB_per_s={mbps} MB={mb} "
      f"threads={threads} cores={cores} cpu_over_wall={ratio:.2f} others_cores={others:.2f} "
      f"wall_s={wall:.1f} load_1min={load}")
PY
