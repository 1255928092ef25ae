#!/usr/bin/env bash
# Issue 33 goal 4 and issue 34's viewer pictures, on spineboy-pro 4.2 `walk` at 120x40:
# - instructions per frame drawn (callgrind: a run of VIEWER_IR_FRAMES frames minus one of 30,
#   divided by the difference; deterministic), without and with colour; target <= 5 M;
# - bytes a second the cells take at 30 fps (examples/terminal_bytes; deterministic), without
#   and with colour; targets <= 12 / <= 15 KB/s (KB = 1000 bytes);
# - the share of one core playing: user + sys CPU time of 300 frames drawn (10 s of playback)
#   less that of none; target <= 5 %;
# - textured pictures (examples/picture_bytes, kitty and sixel, 10x20-pixel cells): picture
#   bytes a second on the playback clock (frames drawn at i/30 s, so the frame-rate cap and
#   byte budget act as in real time whatever the load), pictures a second, CPU share;
#   target <= 1 MB/s each, 0 bytes paused.
#
#   benches/side-by-side.d/goal4-viewer.sh BIN_DIR      # SHARED, VIEWER_IR_FRAMES (120)
set -euo pipefail
BIN_DIR=${1:?usage: goal4-viewer.sh BIN_DIR}
HERE=$(cd "$(dirname "$0")/../.." && pwd)
SHARED=${SHARED:-$HERE/../shared}
FILE=$SHARED/corpus/spine/4.2/spineboy-pro.json
TB=$BIN_DIR/examples/terminal_bytes
PB=$BIN_DIR/examples/picture_bytes
[ -f "$FILE" ] || { echo "no $FILE (set SHARED)" >&2; exit 1; }
N=${VIEWER_IR_FRAMES:-120}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# Each line: value, target and unit (the goals table of side_by_side.py judges value <= target).
for colour in "" --color; do
    name=$([ -z "$colour" ] && echo "no-colour" || echo "colour")
    if command -v valgrind >/dev/null; then
        for n in 30 "$N"; do
            valgrind --tool=callgrind --callgrind-out-file="$TMP/cg.$n" \
                "$TB" --file "$FILE" 120x40 walk --frames "$n" $colour >/dev/null 2>"$TMP/vg.$n"
        done
        total() { grep -E '^(summary|totals):' "$TMP/cg.$1" | head -1 | awk '{print $2}'; }
        ir=$(python3 -c "import sys; print((int(sys.argv[2]) - int(sys.argv[1])) / (int(sys.argv[3]) - 30))" \
            "$(total 30)" "$(total "$N")" "$N")
        mir=$(python3 -c "import sys; print(f'{float(sys.argv[1]) / 1e6:.2f}')" "$ir")
        echo "goal4-viewer bonescope ir-per-frame-120x40-$name value=$mir target=5 unit=M_Ir/frame how=callgrind"
    fi
    bytes=$("$TB" --file "$FILE" 120x40 walk 10 $colour | sed -E 's/.* ([0-9]+) bytes\/s .*/\1/')
    target=$([ -z "$colour" ] && echo 12000 || echo 15000)
    echo "goal4-viewer bonescope bytes-120x40-$name value=$(python3 -c "print(f'{$bytes / 1000:.1f}')") target=$((target / 1000)) unit=KB/s how=terminal_bytes"
done

# CPU share: 300 frames (10 s at 30 fps) against none, user + sys.
cpu() {
    /usr/bin/time -f "%U %S" -o "$TMP/time" "$TB" --file "$FILE" 120x40 walk --frames "$1" >/dev/null
    awk '{print $1 + $2}' "$TMP/time"
}
c300=$(cpu 300)
c0=$(cpu 1)
share=$(python3 -c "import sys; print(f'{max(0.0, float(sys.argv[1]) - float(sys.argv[2])) / 10 * 100:.1f}')" "$c300" "$c0")
echo "goal4-viewer bonescope cpu-share-playing-120x40 value=$share target=5 unit=%_of_a_core how=user+sys_of_300_frames"

# Pictures (issue 34): kitty and sixel on the playback clock.
for p in kitty sixel; do
    line=$("$PB" "$FILE" walk 5 120x40 10x20 --protocol "$p")
    echo "$line" >&2
    python3 - "$p" "$line" <<'PY'
import re, sys
p, line = sys.argv[1], sys.argv[2]
kb = float(re.search(r"\((\d+) kB/s\)", line).group(1))
fps = float(re.search(r"([\d.]+) pictures/s", line).group(1))
each = re.search(r"\((\d+) KiB each\)", line).group(1)
cpu = float(re.search(r"= ([\d.]+) % of a core", line).group(1))
paused = int(re.search(r"paused: (\d+) bytes", line).group(1))
print(f"goal4-viewer bonescope pictures-{p}-120x40 value={kb / 1000:.2f} target=1 unit=MB/s "
      f"how=picture_bytes pictures_per_s={fps:.1f} "
      f"KiB_per_picture={each} cpu={cpu:.1f}% paused_bytes={paused}")
PY
done
