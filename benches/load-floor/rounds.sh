#!/bin/bash
# Interleaved load rounds (docs/PERFORMANCE.md, "Load"): per round and per file, bonescope's
# load, then the peer. Run from the repository root after
#   cargo build --release --example load_loop
#   (cd benches/load-floor && cargo build --release)
# ANCHOR: the rusty_spine anchor binary (../shared/perf-anchors/rust-bench built with
# `--features libc` outside the repository); CC_JSON / CC_ATLAS: the celestial-circus copy
# and generated atlas it needs (see PERFORMANCE.md). ROUNDS (7), FLOOR=0 skips the floor,
# SYNTH="a.json b.json" adds synthetic files (load and plain Value, 9 loads each).
set -u
L=target/release/examples/load_loop
FL=benches/load-floor/target/release/load-floor
C=../shared/corpus/spine/4.2
ANCHOR=${ANCHOR:-}
atlas() { case $1 in spineboy-pro) echo $C/spineboy.atlas;; raptor-pro) echo $C/raptor.atlas;; mix-and-match-pro) echo $C/mix-and-match.atlas;; celestial-circus-pro) echo ${CC_ATLAS:-};; esac; }
json_a() { if [ $1 = celestial-circus-pro ]; then echo ${CC_JSON:-}; else echo $C/$1.json; fi; }
for r in $(seq 1 ${ROUNDS:-7}); do
  echo "ROUND $r $(date -u +%T) $(cut -d' ' -f1 /proc/loadavg)"
  if [ -n "$ANCHOR" ]; then
    for n in spineboy-pro raptor-pro mix-and-match-pro celestial-circus-pro; do
      echo "BS42 $n $($L $C/$n.json 200)"
      echo "RS42 $n $($ANCHOR load $(json_a $n) $(atlas $n) 200 5)"
    done
  fi
  if [ "${FLOOR:-1}" = 1 ]; then
    for f in ../shared/corpus/spine/3.8/spineboy-pro.json ../shared/corpus/spine/3.8/raptor-pro.json $C/spineboy-pro.json $C/raptor-pro.json; do
      v=$(basename $(dirname $f)); n=$(basename $f .json)
      echo "BSF $v/$n $($L $f 200)"
      echo "VAL $v/$n $($FL value $f 200)"
      echo "IGN $v/$n $($FL ignored $f 200)"
    done
  fi
  for f in ${SYNTH:-}; do
    echo "BSS $(basename $f .json) $($L $f 9)"
    echo "VALS $(basename $f .json) $($FL value $f 9)"
  done
done
