#!/usr/bin/env bash
# Issue 33 goal 5: hot reload, write -> screen (examples/reload_latency: atomic re-exports of a
# copy of the file while the watcher runs; "screen" adds `App::reload`, which replays the
# session, and one full 120x40 frame), p95 over the re-exports:
# - spineboy-pro 4.2 (RELOAD_ITERATIONS, 40): target p95 <= 40 ms;
# - a 10 MB synthetic 3.8 skeleton (gen_synth.py --anims 60, 10.1 MB; RELOAD_BIG_ITERATIONS,
#   20): target p95 <= 200 ms.
# Wall times: a loaded machine inflates them (the load average is printed beside them).
#
#   benches/side-by-side.d/goal5-reload.sh BIN_DIR   # SHARED, SBS_INPUTS (a folder that may
#                                                     # hold synth-3.8-60.json already)
set -euo pipefail
BIN_DIR=${1:?usage: goal5-reload.sh BIN_DIR}
HERE=$(cd "$(dirname "$0")/../.." && pwd)
SHARED=${SHARED:-$HERE/../shared}
RL=$BIN_DIR/examples/reload_latency
[ -x "$RL" ] || { echo "missing $RL" >&2; exit 1; }
SMALL=$SHARED/corpus/spine/4.2/spineboy-pro.json
[ -f "$SMALL" ] || { echo "no $SMALL (set SHARED)" >&2; exit 1; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
BIG=${SBS_INPUTS:-$TMP}/synth-3.8-60.json
if [ ! -s "$BIG" ]; then
    BIG=$TMP/synth-3.8-60.json
    python3 "$SHARED/perf-anchors/gen_synth.py" --format 3.8 --anims 60 --out "$BIG" \
        --atlas "$TMP/synth.atlas" >/dev/null
fi

one() { # SUBJECT FILE ITERATIONS TARGET_MS
    local load line
    load=$(cut -d' ' -f1 /proc/loadavg)
    line=$("$RL" "$2" "$3")
    echo "$line" >&2
    python3 - "$1" "$4" "$load" "$line" <<'PY'
import re, sys
subject, target, load, line = sys.argv[1:5]
m = re.search(r"(\d+) reloads.*model ready p50 (\S+) ms p95 (\S+) ms; screen updated p50 (\S+) ms p95 (\S+) ms", line)
n, r50, r95, s50, s95 = m.groups()
mb = re.search(r"\((\S+) MB\)", line).group(1)
print(f"goal5-reload bonescope {subject} value={float(s95):.1f} target={target} unit=ms_p95_write_to_screen "
      f"screen_p50_ms={float(s50):.1f} ready_p50_ms={float(r50):.1f} ready_p95_ms={float(r95):.1f} "
      f"reloads={n} MB={mb} load_1min={load} how=reload_latency")
PY
}
one spineboy-pro-4.2 "$SMALL" "${RELOAD_ITERATIONS:-40}" 40
one synth-3.8-60-10MB "$BIG" "${RELOAD_BIG_ITERATIONS:-20}" 200
