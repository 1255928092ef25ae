#!/usr/bin/env bash
# One side-by-side performance run: every figure table of docs/PERFORMANCE.md from one session
# on one machine (see the top of that file). Builds what it needs, runs interleaved rounds of
# bonescope and its peers, writes the raw lines and a machine-readable summary, and renders the
# tables:
#
#   benches/side-by-side.sh            # full run (ROUNDS=5: about 10-15 minutes)
#   benches/side-by-side.sh --quick    # smoke run: 1 round, fewer iterations, 5 s idle, 1-10 MB
#
# Output (OUT, default target/side-by-side): raw.txt (every measurement line, tagged),
# summary.json (medians, per-round ratios, run counts, load average, date, git commit) and
# tables.md (`python3 benches/side_by_side.py tables OUT/summary.json` renders it again).
#
# Environment:
#   ROUNDS         interleaved rounds (5; --quick: 1)
#   IDLE_SECONDS   the idle CPU measurement, run once (60; --quick: 5)
#   ANCHOR_RUSTY   an already-built rusty_spine anchor binary (spine-perf-anchor-rusty, built
#                  with `--features libc`, with benches/anchor-load-skel.patch applied for the
#                  binary load); unset: built offline from ../shared/perf-anchors with the patch
#   NODE_MODULES   a node_modules folder holding @esotericsoftware/spine-core 4.2.119 for the
#                  JS anchor; unset: the JS anchor runs only if `npm install --offline` works
#   NO_JS=1        skip the JS anchor;  NO_BUILD=1  use the binaries already in target/
#   NO_IR=1        skip the instruction counts (callgrind; run once, after the rounds)
#   SEEK_FRAMES    session lengths of the scrubbing counts ("1000 100000 1000000"; the
#                  10^6-frame session takes about 2.5 minutes under callgrind on spineboy-pro:
#                  seeks leave out the world pass of the frames they pass through)
#   SHARED         the shared corpus folder (../shared)
#   OUT            the output folder (target/side-by-side)
#   STAGES         the stages to run ("rounds linear ir extra bytes idle rss": all)
#   IR_GROUPS      the groups of the ir stage ("frame load formats seek linear": all)
#   CHECK_FILES, RELOAD_ITERATIONS, RELOAD_BIG_ITERATIONS, VIEWER_IR_FRAMES
#                  the goal scripts of benches/side-by-side.d (10000, 40, 20, 120; --quick:
#                  1000, 10, 5, 60)
#
# Only some figures again (after a change that moves only them): run those stages into another
# folder, merge its summary over the last full run's, and splice only the tables they feed:
#   STAGES=ir IR_GROUPS="frame load" OUT=target/sbs-ir benches/side-by-side.sh
#   python3 benches/side_by_side.py merge target/side-by-side/summary.json \
#       target/sbs-ir/summary.json >target/sbs-ir/merged.json
#   python3 benches/side_by_side.py splice target/sbs-ir/merged.json docs/PERFORMANCE.md \
#       run goals ir-frame ir-load
set -euo pipefail

die() {
    echo "side-by-side: $*" >&2
    exit 1
}
note() { echo "side-by-side: $*" >&2; }

QUICK=0
for arg in "$@"; do
    case $arg in
    --quick) QUICK=1 ;;
    -h | --help)
        sed -n '2,41p' "$0"
        exit 0
        ;;
    *) die "unknown argument $arg (try --help)" ;;
    esac
done

ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
SHARED=${SHARED:-$ROOT/../shared}
[ -d "$SHARED/corpus/spine" ] || die "no corpus at $SHARED/corpus/spine (set SHARED)"
ANCHORS=$SHARED/perf-anchors
[ -d "$ANCHORS" ] || die "no perf anchors at $ANCHORS"
OUT=${OUT:-$ROOT/target/side-by-side}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
if [ $QUICK = 1 ]; then
    ROUNDS=${ROUNDS:-1} IDLE_SECONDS=${IDLE_SECONDS:-5}
    N_LOAD=20 N_SYNTH=5 N_JS=10 FRAMES=2000 TB_SECONDS=3 LINEAR_ANIMS="5 30 60" VIEWER_SECONDS=2 PLAY_SECONDS=3
    IR_FRAMES=60 SEEK_FRAMES=${SEEK_FRAMES:-"1000 10000"} SEEK_PROBES=5
    # The goal scripts of benches/side-by-side.d, shorter.
    export CHECK_FILES=${CHECK_FILES:-1000} RELOAD_ITERATIONS=${RELOAD_ITERATIONS:-10}
    export RELOAD_BIG_ITERATIONS=${RELOAD_BIG_ITERATIONS:-5} VIEWER_IR_FRAMES=${VIEWER_IR_FRAMES:-60}
else
    ROUNDS=${ROUNDS:-5} IDLE_SECONDS=${IDLE_SECONDS:-60}
    N_LOAD=200 N_SYNTH=9 N_JS=50 FRAMES=10000 TB_SECONDS=10 LINEAR_ANIMS="5 30 60 150 300" VIEWER_SECONDS=5 PLAY_SECONDS=10
    IR_FRAMES=100 SEEK_FRAMES=${SEEK_FRAMES:-"1000 100000 1000000"} SEEK_PROBES=20
fi
for v in ROUNDS IDLE_SECONDS; do
    [[ ${!v} =~ ^[1-9][0-9]*$ ]] || die "$v must be a positive integer, not '${!v}'"
done
STAGES=${STAGES:-"rounds linear ir extra bytes idle rss"}
IR_GROUPS=${IR_GROUPS:-"frame load formats seek linear"}
for st in $STAGES; do
    case $st in rounds | linear | ir | extra | bytes | idle | rss) ;; *) die "unknown stage '$st' in STAGES" ;; esac
done
for g in $IR_GROUPS; do
    case $g in frame | load | formats | seek | linear) ;; *) die "unknown group '$g' in IR_GROUPS" ;; esac
done
stage() { [[ " $STAGES " == *" $1 "* ]]; }
ir_group() { [[ " $IR_GROUPS " == *" $1 "* ]]; }
command -v python3 >/dev/null || die "python3 is needed (synthetic files, summary)"
command -v tmux >/dev/null || die "tmux is needed (the viewer's peak RSS and idle CPU)"

C38=$SHARED/corpus/spine/3.8
C42=$SHARED/corpus/spine/4.2
C43=$SHARED/corpus/spine/4.3
# Spine 4.3: the exports with a 4.2 twin (the same rig), then those without one (diamond-pro,
# and the project's own sample lever-43).
TWINS43="spineboy-pro spineboy-ess vine-pro owl-pro snowglobe-pro windmill-ess"
for f in $C38/{spineboy-pro,raptor-pro,mix-and-match-pro}.{json,skel} \
    $C42/{spineboy-pro,raptor-pro,mix-and-match-pro}.{json,skel} $C42/celestial-circus-pro.json \
    $C42/{spineboy,raptor,mix-and-match}.atlas $C43/diamond-pro.json $ROOT/samples/spine/lever-43.json; do
    [ -f "$f" ] || die "missing corpus file $f"
done
for n in $TWINS43; do
    for f in "$C43/$n.json" "$C42/$n.json"; do [ -f "$f" ] || die "missing corpus file $f"; done
done
C37=$SHARED/corpus/spine/3.7
CDB=$SHARED/corpus/dragonbones
# DragonBones, wall times: 4.5 JSON beside 5.0 / 5.5 JSON and every 5.x `.dbbin` beside its JSON
# twin (issue 31); the instruction counts below take every file of the corpus.
DB_WALL="4.5/Demon.json 4.5/DragonBoy.json 4.5/Ubbie.json 5.0/Ubbie_ske.json
    5.0/dragon_boy_ske.json 5.0/dragon_boy_ske.dbbin 5.5/mecha_2903_ske.json
    5.5/starter_ske.json 5.5/starter_ske.dbbin
    5.5/mecha_1002_101d_show_ske.json 5.5/mecha_1002_101d_show_ske.dbbin"
dbfile() { # 4.5/NAME or 5.x/NAME -> the corpus file
    case $1 in
    4.*) echo "$CDB/$1" ;;
    *) echo "$CDB/5.x/$1" ;;
    esac
}
for f in $C37/{spineboy-pro,raptor-pro}.{json,skel}; do [ -f "$f" ] || die "missing corpus file $f"; done
for d in $DB_WALL; do [ -f "$(dbfile "$d")" ] || die "missing corpus file $(dbfile "$d")"; done
spine43() { # NAME -> the 4.3 file
    case $1 in
    lever-43) echo "$ROOT/samples/spine/lever-43.json" ;;
    *) echo "$C43/$1.json" ;;
    esac
}

# --- build -------------------------------------------------------------------------------
BIN=$ROOT/target/profiling
FLOOR=$ROOT/benches/load-floor/target/release/load-floor
if [ "${NO_BUILD:-0}" != 1 ]; then
    note "building bonescope (profile profiling: release with line tables; the binary and the examples)"
    cargo build --profile profiling --bin bonescope --examples
    note "building the load floor (benches/load-floor, plain serde_json)"
    (cd benches/load-floor && cargo build --release)
fi
for b in "$BIN/bonescope" "$BIN/examples/load_loop" "$BIN/examples/frame_loop" \
    "$BIN/examples/terminal_bytes" "$BIN/examples/idle_cpu" "$BIN/examples/seek_probe" \
    "$BIN/examples/reload_latency" "$BIN/examples/picture_bytes" "$FLOOR"; do
    [ -x "$b" ] || die "missing $b (run without NO_BUILD=1)"
done

if [ -n "${ANCHOR_RUSTY:-}" ]; then
    [ -x "$ANCHOR_RUSTY" ] || die "ANCHOR_RUSTY=$ANCHOR_RUSTY is not an executable"
    RUSTY=$ANCHOR_RUSTY
else
    # The anchor is built outside the repository's package (its own lock file), offline from
    # the registry cache, as ../shared/perf-anchors/README.md describes.
    RB=$OUT/rust-bench
    mkdir -p "$RB"
    cp -r "$ANCHORS/rust-bench/." "$RB/"
    # A `load-skel` mode: rusty_spine's SkeletonBinary, same protocol as `load`.
    patch -s -d "$RB" -p1 <"$ROOT/benches/anchor-load-skel.patch" ||
        die "benches/anchor-load-skel.patch does not apply to $ANCHORS/rust-bench"
    note "building the rusty_spine anchor (cargo --release --features libc --offline in $RB)"
    (cd "$RB" && cargo build --release --features libc --offline) ||
        die "the rusty_spine anchor did not build offline; build ../shared/perf-anchors/rust-bench with --features libc elsewhere and set ANCHOR_RUSTY to its spine-perf-anchor-rusty"
    RUSTY=$RB/target/release/spine-perf-anchor-rusty
fi
[ -x "$RUSTY" ] || die "no rusty_spine anchor binary at $RUSTY"
RUSTY_SKEL=$RUSTY
if ! "$RUSTY" load-skel "$C42/spineboy-pro.skel" "$C42/spineboy.atlas" 1 1 >/dev/null 2>&1; then
    note "rusty_spine .skel load skipped: $RUSTY has no load-skel mode (benches/anchor-load-skel.patch)"
    RUSTY_SKEL=""
fi

JS=""
if [ "${NO_JS:-0}" != 1 ] && command -v node >/dev/null; then
    NB=$OUT/node-bench
    mkdir -p "$NB"
    cp "$ANCHORS/node-bench/bench.mjs" "$ANCHORS/node-bench/package.json" "$NB/"
    if [ -n "${NODE_MODULES:-}" ]; then
        [ -d "$NODE_MODULES/@esotericsoftware/spine-core" ] ||
            die "NODE_MODULES=$NODE_MODULES holds no @esotericsoftware/spine-core"
        ln -sfn "$NODE_MODULES" "$NB/node_modules"
    elif [ ! -d "$NB/node_modules/@esotericsoftware/spine-core" ]; then
        (cd "$NB" && npm install --offline --no-audit --no-fund >/dev/null 2>&1) ||
            note "JS anchor skipped: npm install --offline failed (set NODE_MODULES)"
    fi
    [ -d "$NB/node_modules/@esotericsoftware/spine-core" ] && JS="node $NB/bench.mjs"
else
    note "JS anchor skipped (NO_JS=1 or no node)"
fi

# --- inputs ------------------------------------------------------------------------------
IN=$OUT/inputs
mkdir -p "$IN"
synth() { # FORMAT ANIMS -> path (generated once)
    local f=$IN/synth-$1-$2.json
    if [ ! -s "$f" ]; then
        python3 "$ANCHORS/gen_synth.py" --format "$1" --anims "$2" --out "$f.tmp" \
            --atlas "$IN/synth-$1.atlas" >/dev/null
        mv "$f.tmp" "$f"
    fi
    echo "$f"
}
note "generating the synthetic skeletons"
SYN38=$(synth 3.8 50)
SYN42=$(synth 4.2 50)
# Spine 4.3 has no .skel in the corpus: every 4.3 export is written as a 4.3 .skel by
# bonescope's own writer (`convert --to skel`, read by the official 4.3 runtime to the JSON's
# poses: tests/formats/spine_skel_writer.rs) for the .skel load counts.
SKEL43=$IN/skel-4.3
mkdir -p "$SKEL43"
for f in "$C43"/*.json; do
    "$BIN/bonescope" convert "$f" --to skel -o "$SKEL43/$(basename "$f" .json).skel" ||
        die "bonescope convert --to skel failed on $f"
done
# celestial-circus-pro has no atlas in the corpus, and rusty_spine 0.8 crashes on region
# attachments in slots whose name holds '/': the anchors get a generated atlas (one 16x16
# region per region/mesh path) and a copy with '|' in those slot names (same byte length).
python3 - "$C42/celestial-circus-pro.json" "$IN/celestial-circus.atlas" "$IN/celestial-circus-anchor.json" <<'EOF'
import json, sys
src, atlas_out, json_out = sys.argv[1:4]
text = open(src).read()
d = json.loads(text)
names = set()
for s in d.get('skins', []):
    for atts in s.get('attachments', {}).values():
        for n, a in atts.items():
            if a.get('type', 'region') not in ('region', 'mesh', 'linkedmesh'):
                continue
            p = a.get('path', n)
            seq = a.get('sequence')
            if seq:
                for i in range(seq.get('count', 1)):
                    names.add(p + str(seq.get('start', 1) + i).zfill(seq.get('digits', 0)))
            else:
                names.add(p)
with open(atlas_out, 'w') as f:
    f.write("synthetic.png\n\tsize: 1024, 1024\n\tfilter: Linear, Linear\n")
    for k, n in enumerate(sorted(names)):
        f.write(f"{n}\n\tbounds: {(k % 60) * 17}, {(k // 60) * 17}, 16, 16\n")
for s in d['slots']:
    if '/' in s['name']:
        text = text.replace('"%s"' % s['name'], '"%s"' % s['name'].replace('/', '|'))
open(json_out, 'w').write(text)
EOF

atlas_of() { # a 4.2 skeleton name -> its atlas
    case $1 in
    spineboy-pro) echo "$C42/spineboy.atlas" ;;
    raptor-pro) echo "$C42/raptor.atlas" ;;
    mix-and-match-pro) echo "$C42/mix-and-match.atlas" ;;
    celestial-circus-pro) echo "$IN/celestial-circus.atlas" ;;
    synth) echo "$IN/synth-4.2.atlas" ;;
    esac
}
anchor_json() { # what the anchors read for a 4.2 skeleton name
    case $1 in
    celestial-circus-pro) echo "$IN/celestial-circus-anchor.json" ;;
    synth) echo "$SYN42" ;;
    *) echo "$C42/$1.json" ;;
    esac
}

RAW=$OUT/raw.txt
: >"$RAW"
# rec ROUND GROUP WHO SUBJECT CMD...: runs CMD and records each line of its output, tagged;
# a failing command stops the run with its output.
rec() {
    local round=$1 group=$2 who=$3 subject=$4 out
    shift 4
    if ! out=$("$@" 2>&1); then
        printf '%s\n' "$out" >&2
        die "failed: $*"
    fi
    [ -n "$out" ] || die "no output from: $*"
    printf '%s\n' "$out" | sed -e '/^[[:space:]]*$/d' -e "s|^|R$round $group $who $subject |" >>"$RAW"
}
loadavg() { cut -d' ' -f1-3 /proc/loadavg; }

START=$(date -u +%s)
{
    echo "META date $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "META commit $(git rev-parse --short=12 HEAD)$(git diff --quiet HEAD -- src benches examples Cargo.toml || echo '+dirty')"
    echo "META host $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo)"
    echo "META rounds $ROUNDS"
    echo "META quick $QUICK"
    echo "META stages $STAGES"
    echo "META ir_groups $IR_GROUPS"
    echo "META n_load $N_LOAD"
    echo "META n_synth $N_SYNTH"
    echo "META frames $FRAMES"
    echo "META js $([ -n "$JS" ] && echo yes || echo no)"
    echo "META rusty $RUSTY"
} >>"$RAW"

# --- interleaved rounds --------------------------------------------------------------------
if stage rounds; then
    for r in $(seq 1 "$ROUNDS"); do
        note "round $r of $ROUNDS (load average $(loadavg))"
        echo "R$r LOADAVG start $(loadavg)" >>"$RAW"
        # Load: bonescope, the plain serde_json floor (Value, IgnoredAny), then the peers.
        for v in 3.8 4.2; do
            C=$SHARED/corpus/spine/$v
            names="spineboy-pro raptor-pro mix-and-match-pro"
            [ $v = 4.2 ] && names="$names celestial-circus-pro"
            for n in $names; do
                f=$C/$n.json
                rec "$r" load bonescope "$v/$n" "$BIN/examples/load_loop" "$f" "$N_LOAD"
                rec "$r" load value "$v/$n" "$FLOOR" value "$f" "$N_LOAD"
                rec "$r" load ignored "$v/$n" "$FLOOR" ignored "$f" "$N_LOAD"
                if [ $v = 4.2 ]; then
                    rec "$r" load rusty "$v/$n" "$RUSTY" load "$(anchor_json "$n")" "$(atlas_of "$n")" "$N_LOAD" 5
                    if [ -n "$JS" ]; then rec "$r" load js "$v/$n" $JS load "$(anchor_json "$n")" "$(atlas_of "$n")" "$N_JS" 5; fi
                fi
            done
        done
        for v in 3.8 4.2; do
            f=$([ $v = 3.8 ] && echo "$SYN38" || echo "$SYN42")
            rec "$r" load bonescope "$v/synth" "$BIN/examples/load_loop" "$f" "$N_SYNTH"
            rec "$r" load value "$v/synth" "$FLOOR" value "$f" "$N_SYNTH"
            rec "$r" load ignored "$v/synth" "$FLOOR" ignored "$f" "$N_SYNTH"
        done
        rec "$r" load rusty "4.2/synth" "$RUSTY" load "$SYN42" "$IN/synth-4.2.atlas" "$N_SYNTH" 60
        if [ -n "$JS" ]; then rec "$r" load js "4.2/synth" $JS load "$SYN42" "$IN/synth-4.2.atlas" "$N_SYNTH" 60; fi
        # .skel against JSON (bonescope both; for 3.8 and 4.2 the JSON figure is the load above,
        # for 3.7 and 4.3 the JSON load runs here), and against rusty_spine's binary load (4.2: the
        # version rusty_spine 0.8 reads). 4.3: the `.skel` bonescope's writer made (see inputs).
        for v in 3.7 3.8 4.2 4.3; do
            for n in spineboy-pro raptor-pro mix-and-match-pro; do
                sk=$SHARED/corpus/spine/$v/$n.skel
                [ $v = 4.3 ] && sk=$SKEL43/$n.skel
                [ -f "$sk" ] || continue
                if [ $v = 3.7 ] || [ $v = 4.3 ]; then
                    rec "$r" skel json "$v/$n" "$BIN/examples/load_loop" "$SHARED/corpus/spine/$v/$n.json" "$N_LOAD"
                fi
                rec "$r" skel bonescope "$v/$n" "$BIN/examples/load_loop" "$sk" "$N_LOAD"
                if [ $v = 4.2 ] && [ -n "$RUSTY_SKEL" ]; then
                    rec "$r" skel rusty "$v/$n" "$RUSTY_SKEL" load-skel "$C42/$n.skel" "$(atlas_of "$n")" "$N_LOAD" 5
                fi
            done
        done
        # DragonBones: load (and the plain `Value` floor of the JSON files), then frame.
        for d in $DB_WALL; do
            f=$(dbfile "$d")
            rec "$r" dragonbones bonescope "$d" "$BIN/examples/load_loop" "$f" "$N_LOAD"
            if [ "${f%.json}" != "$f" ]; then rec "$r" dragonbones value "$d" "$FLOOR" value "$f" "$N_LOAD"; fi
            rec "$r" dbframe bonescope "$d" "$BIN/examples/frame_loop" "$f" "$FRAMES"
        done
        # Frame: bonescope on the 3.8 and 4.2 exports, the peers on the 4.2 export.
        for n in spineboy-pro raptor-pro mix-and-match-pro celestial-circus-pro; do
            if [ $n != celestial-circus-pro ]; then
                rec "$r" frame bonescope "3.8/$n" "$BIN/examples/frame_loop" "$C38/$n.json" "$FRAMES"
            fi
            if [ $n = mix-and-match-pro ]; then
                rec "$r" frame bonescope "3.8/$n@girl" "$BIN/examples/frame_loop" "$C38/$n.json" "$FRAMES" full-skins/girl
            fi
            rec "$r" frame bonescope "4.2/$n" "$BIN/examples/frame_loop" "$C42/$n.json" "$FRAMES"
            rec "$r" frame rusty "4.2/$n" "$RUSTY" frame "$(anchor_json "$n")" "$(atlas_of "$n")" "$FRAMES"
            if [ -n "$JS" ]; then rec "$r" frame js "4.2/$n" $JS frame "$(anchor_json "$n")" "$(atlas_of "$n")" "$FRAMES"; fi
        done
        # Spine 4.3: each export, then its 4.2 twin right after it (load, then frame).
        for n in $TWINS43 diamond-pro lever-43; do
            f=$(spine43 "$n")
            rec "$r" load43 bonescope "4.3/$n" "$BIN/examples/load_loop" "$f" "$N_LOAD"
            if [ -f "$C42/$n.json" ]; then
                rec "$r" load43 bonescope "4.2/$n" "$BIN/examples/load_loop" "$C42/$n.json" "$N_LOAD"
            fi
            rec "$r" frame43 bonescope "4.3/$n" "$BIN/examples/frame_loop" "$f" "$FRAMES"
            if [ -f "$C42/$n.json" ]; then
                rec "$r" frame43 bonescope "4.2/$n" "$BIN/examples/frame_loop" "$C42/$n.json" "$FRAMES"
            fi
        done
        echo "R$r LOADAVG end $(loadavg)" >>"$RAW"
    done
fi

# --- linearity 1-50 MB (3.8 synthetic, 3 interleaved rounds of 3 loads) ----------------
if stage linear; then
    note "linearity: gen_synth.py --format 3.8 --anims $LINEAR_ANIMS"
    LIN=()
    for a in $LINEAR_ANIMS; do LIN+=("$(synth 3.8 "$a")"); done
    for r in 1 2 3; do
        for f in "${LIN[@]}"; do
            rec "$r" linear bonescope "$(basename "$f" .json)" "$BIN/examples/load_loop" "$f" 5
        done
    done
fi

# --- instruction counts (callgrind, once: deterministic, load-independent) -----------------
# Issue 33's goals are judged on these first. Each program runs whole under callgrind; the
# per-call figure is the inclusive count of the measured function over its calls
# (`side_by_side.py ir`).
ir() { # GROUP WHO SUBJECT "FUNCTION.." CMD... (recorded as round 1)
    local group=$1 who=$2 subject=$3 funcs=$4 cg
    shift 4
    cg=$IRDIR/$group.$who.$(echo "$subject" | tr '/@' '__').out
    if ! valgrind --tool=callgrind --callgrind-out-file="$cg" "$@" >/dev/null 2>"$cg.log"; then
        # A peer that cannot read a rig leaves its cell empty; bonescope failing stops the run.
        [ "$who" = bonescope ] && die "callgrind failed: $* (see $cg.log)"
        note "skipped: $who on $subject failed under callgrind (see $cg.log)"
        return 0
    fi
    # shellcheck disable=SC2086
    python3 benches/side_by_side.py ir "$cg" $funcs | sed "s|^|R1 ir-$group $who $subject |" >>"$RAW"
}
if stage ir; then
    if [ "${NO_IR:-0}" != 1 ] && command -v valgrind >/dev/null; then
        IRDIR=$OUT/callgrind
        mkdir -p "$IRDIR"
        echo "META ir yes" >>"$RAW"
        ir_group frame && note "instruction counts: frame (every 4.2 rig with an atlas, bonescope and rusty_spine)"
        ir_group frame && for f in "$C42"/*.json; do
            n=$(basename "$f" .json)
            # The atlas is named after the rig (chibi-stickers) or without its -pro/-ess suffix.
            a=$C42/$n.atlas
            [ -f "$a" ] || a=$C42/${n%-*}.atlas
            [ "$n" = celestial-circus-pro ] && a=$IN/celestial-circus.atlas
            [ -f "$a" ] || continue
            ir frame bonescope "4.2/$n" "frame_loop::frame frame_loop::frame_mix" \
                "$BIN/examples/frame_loop" "$f" "$IR_FRAMES"
            ir frame rusty "4.2/$n" "bench_frame bench_frame_mix" \
                "$RUSTY" ir-frame "$(anchor_json "$n")" "$a" "$IR_FRAMES"
        done
        ir_group load && note "instruction counts: JSON load against plain serde_json Value (every Spine JSON export)"
        ir_group load && for v in 3.7 3.8 4.0 4.1 4.2 4.3; do
            for f in "$SHARED/corpus/spine/$v"/*.json; do
                n=$(basename "$f" .json)
                ir load bonescope "$v/$n" "load_loop::load_once" "$BIN/examples/load_loop" "$f" 1
                ir load value "$v/$n" "parse_once" "$FLOOR" value "$f" 1
            done
        done
        ir_group formats && note "instruction counts: .skel, DragonBones JSON (with its plain Value floor) and .dbbin loads and frames"
        ir_group formats && for v in 3.7 3.8 4.0 4.1 4.2; do
            for n in spineboy-pro raptor-pro; do
                f=$SHARED/corpus/spine/$v/$n.skel
                if [ -f "$f" ]; then ir skel bonescope "$v/$n" "load_loop::load_once" "$BIN/examples/load_loop" "$f" 1; fi
            done
        done
        ir_group formats && for f in "$SKEL43"/*.skel; do
            ir skel bonescope "4.3/$(basename "$f" .skel)" "load_loop::load_once" "$BIN/examples/load_loop" "$f" 1
        done
        ir_group formats && for f in "$SHARED"/corpus/dragonbones/4.5/*.json "$SHARED"/corpus/dragonbones/5.x/*/*.json \
            "$SHARED"/corpus/dragonbones/5.x/*/*.dbbin; do
            [ -f "$f" ] || continue
            v=$(basename "$(dirname "$f")")
            n=$(basename "$f")
            ir dragonbones bonescope "$v/$n" "load_loop::load_once" "$BIN/examples/load_loop" "$f" 1
            # Goal 2 covers every JSON file: DragonBones JSON has its plain-Value floor too.
            if [ "${f%.json}" != "$f" ]; then ir dragonbones value "$v/$n" "parse_once" "$FLOOR" value "$f" 1; fi
            ir dbframe bonescope "$v/$n" "frame_loop::frame frame_loop::frame_mix" \
                "$BIN/examples/frame_loop" "$f" "$IR_FRAMES"
        done
        ir_group seek && note "instruction counts: scrubbing (step back, random seek) at $SEEK_FRAMES frames"
        ir_group seek && for frames in $SEEK_FRAMES; do
            ir seek bonescope "$frames" "seek_probe::step_back seek_probe::random_seek" \
                "$BIN/examples/seek_probe" "$C42/spineboy-pro.json" "$frames" "$SEEK_PROBES"
            "$BIN/examples/seek_probe" "$C42/spineboy-pro.json" "$frames" 2 |
                sed "s|^|R1 seekmem bonescope $frames |" >>"$RAW"
        done
        ir_group linear && note "instruction counts: one load of the 3.8 synthetic file at each size ($LINEAR_ANIMS animations)"
        ir_group linear && for a in $LINEAR_ANIMS; do
            f=$(synth 3.8 "$a")
            ir linear bonescope "synth-3.8-$a" "load_loop::load_once" "$BIN/examples/load_loop" "$f" 1
            echo "R1 irsize bonescope synth-3.8-$a bytes=$(stat -c %s "$f")" >>"$RAW"
        done
    else
        note "instruction counts skipped (NO_IR=1 or no valgrind)"
    fi
fi

# --- other benchmark groups (benches/side-by-side.d) ------------------------------------------
# Every executable there runs once with the binaries' folder as its argument; each line it
# prints, `GROUP WHO SUBJECT key=value ...`, becomes a table of its own (generated:extra-GROUP).
# They see SHARED and SBS_INPUTS (the generated inputs: synth-3.8-60.json, 10.1 MB, is there).
export SHARED SBS_INPUTS=$IN
if stage extra; then
    for x in "$ROOT"/benches/side-by-side.d/*; do
        [ -x "$x" ] || continue
        note "extra benchmark $(basename "$x")"
        out=$("$x" "$BIN" 2>&1) || die "failed: $x: $out"
        printf '%s\n' "$out" | grep -E '^[a-z0-9-]+ \S+ \S+ ' | sed 's|^\([a-z0-9-]*\) |R1 extra-\1 |' >>"$RAW" || true
    done
fi

# --- terminal bytes (deterministic byte counts: once) -------------------------------------
if stage bytes; then
    note "terminal bytes"
    for size in 80x24 120x40 200x60; do
        rec 1 bytes bonescope "$size" "$BIN/examples/terminal_bytes" "$size" walk "$TB_SECONDS"
        rec 1 bytes bonescope "$size+color" "$BIN/examples/terminal_bytes" "$size" walk "$TB_SECONDS" --color
    done
fi

# --- the viewer: idle CPU (once, beside idle_cpu) and peak RSS -----------------------------
SESSION=bonescope-sbs-$$
cleanup() { tmux kill-session -t "$SESSION" 2>/dev/null || true; }
trap cleanup EXIT
viewer_pid() { # start the viewer on FILE [OPTIONS..] at 120x40 in tmux; print its pid
    tmux kill-session -t "$SESSION" 2>/dev/null || true
    tmux new-session -d -s "$SESSION" -x 120 -y 40 "exec $BIN/bonescope $(printf '%q ' "$@")"
    sleep 1
    tmux display-message -p -t "$SESSION" '#{pane_pid}'
}
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

if stage idle; then
    note "idle CPU: idle_cpu and the paused viewer for $IDLE_SECONDS s, side by side"
    pid=$(viewer_pid "$SYN38")
    sleep 2 # the 10 MB load
    [ -d "/proc/$pid" ] || die "the viewer did not start on $SYN38"
    c0=$(cpu_ticks "$pid")
    rec 1 idle watcher synth "$BIN/examples/idle_cpu" "$SYN38" "$IDLE_SECONDS"
    c1=$(cpu_ticks "$pid")
    echo "R1 idle viewer synth ticks=$((c1 - c0)) seconds=$IDLE_SECONDS hz=$(getconf CLK_TCK)" >>"$RAW"
    tmux kill-session -t "$SESSION"
fi

if stage rss; then
    note "peak RSS of the viewer (120x40, $VIEWER_SECONDS s paused, then $VIEWER_SECONDS s playing)"
    for f in "$C38/spineboy-pro.json" "$C38/mix-and-match-pro.json" "$SYN38"; do
        pid=$(viewer_pid "$f")
        sleep "$VIEWER_SECONDS"
        tmux send-keys -t "$SESSION" space
        sleep "$VIEWER_SECONDS"
        [ -d "/proc/$pid" ] || die "the viewer exited early on $f"
        hwm=$(awk '/VmHWM/ {print $2}' "/proc/$pid/status")
        echo "R1 rss viewer $(basename "$f" .json) vmhwm_kb=$hwm bytes=$(stat -c %s "$f")" >>"$RAW"
        tmux kill-session -t "$SESSION"
    done
    # Goal 4's share of a core, the real viewer: spineboy-pro 4.2 `walk` playing at 120x40 in tmux
    # (colour as tmux's TERM gives), its utime + stime over PLAY_SECONDS.
    note "the viewer playing spineboy-pro 4.2 walk at 120x40 for $PLAY_SECONDS s: its CPU"
    pid=$(viewer_pid "$C42/spineboy-pro.json" --animation walk)
    sleep 2
    [ -d "/proc/$pid" ] || die "the viewer did not start on $C42/spineboy-pro.json"
    tmux send-keys -t "$SESSION" space
    sleep 1
    c0=$(cpu_ticks "$pid")
    sleep "$PLAY_SECONDS"
    c1=$(cpu_ticks "$pid")
    echo "R1 playcpu viewer spineboy-pro-4.2 ticks=$((c1 - c0)) seconds=$PLAY_SECONDS hz=$(getconf CLK_TCK)" >>"$RAW"
    tmux kill-session -t "$SESSION"
fi

echo "META seconds $(($(date -u +%s) - START))" >>"$RAW"
echo "META loadavg_end $(loadavg)" >>"$RAW"
python3 benches/side_by_side.py summarize "$RAW" >"$OUT/summary.json"
python3 benches/side_by_side.py tables "$OUT/summary.json" >"$OUT/tables.md"
note "done in $(($(date -u +%s) - START)) s: $OUT/summary.json, $OUT/tables.md"
