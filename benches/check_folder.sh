#!/usr/bin/env bash
# Throughput of `bonescope check` on a generated folder of N exports (issue 33 goal 6):
# copies of the corpus's Spine 4.2 and 3.8 JSON exports (and their atlases, which are
# skipped) into a scratch folder outside the project, then one `check --json` over it,
# printing the run's `throughput` and the CPU time it used (user+sys above wall time means
# several cores worked), beside the CPU time every other process on the machine used in the
# same wall time (from /proc/stat: on a shared machine, what was left for the check).
#
#   benches/check_folder.sh [N=10000]      # SHARED (default ../shared), BIN, SCRATCH
set -euo pipefail
N=${1:-10000}
HERE=$(cd "$(dirname "$0")/.." && pwd)
SHARED=${SHARED:-$HERE/../shared}
BIN=${BIN:-$HERE/target/release/bonescope}
SCRATCH=${SCRATCH:-$(mktemp -d)}
mapfile -t SOURCES < <(ls "$SHARED"/corpus/spine/4.2/*.json "$SHARED"/corpus/spine/3.8/*.json | sort)
mkdir -p "$SCRATCH/exports"
for ((i = 0; i < N; i++)); do
  src=${SOURCES[$((i % ${#SOURCES[@]}))]}
  sub="$SCRATCH/exports/$((i / 1000))"
  mkdir -p "$sub"
  ln -f "$src" "$sub/$i-$(basename "$src")" 2>/dev/null || cp "$src" "$sub/$i-$(basename "$src")"
done
cp "$SHARED"/corpus/spine/4.2/*.atlas "$SCRATCH/exports/" 2>/dev/null || true
echo "cores: $(nproc); load average: $(cut -d' ' -f1-3 /proc/loadavg)"
busy() { awk '/^cpu / {print $2 + $3 + $4 + $7 + $8 + $9}' /proc/stat; } # user nice system irq softirq steal
b0=$(busy)
/usr/bin/time -o "$SCRATCH/time" -f "wall %e s, user %U s, sys %S s, max RSS %M KB" \
  "$BIN" check --json "$SCRATCH/exports" > "$SCRATCH/out.json" || true
b1=$(busy)
cat "$SCRATCH/time"
python3 - "$b0" "$b1" "$(getconf CLK_TCK)" "$SCRATCH/time" <<'PY'
import re, sys
b0, b1, hz = (int(x) for x in sys.argv[1:4])
wall, user, sys_ = (float(x) for x in re.search(r"wall (\S+) s, user (\S+) s, sys (\S+) s", open(sys.argv[4]).read()).groups())
others = max(0.0, (b1 - b0) / hz - user - sys_) / wall if wall > 0 else 0.0
print(f"other processes: {others:.2f} cores busy during the check")
PY
python3 - "$SCRATCH/out.json" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))["throughput"]
print(f"{t['files']} files, {t['bytes'] / 1e6:.1f} MB in {t['seconds']:.2f} s on {t['threads']} threads: "
      f"{t['filesPerSecond']:.0f} files/s, {t['megabytesPerSecond']:.1f} MB/s")
PY
[ -n "${KEEP:-}" ] || rm -rf "$SCRATCH"
