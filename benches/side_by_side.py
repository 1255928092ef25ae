#!/usr/bin/env python3
"""The figures of one side-by-side run (benches/side-by-side.sh) as data and as tables.

  side_by_side.py summarize RAW            raw.txt -> summary.json (stdout)
  side_by_side.py tables SUMMARY [NAME..]  every generated table (or those named), Markdown
  side_by_side.py splice SUMMARY FILE.md   rewrites each table between its markers in FILE.md

A generated table sits in docs/PERFORMANCE.md between
  <!-- BEGIN generated:NAME -->
  <!-- END generated:NAME -->
and `splice` replaces what is between them with `tables SUMMARY NAME`. A table is a function
of the summary registered in TABLES below; a new measurement adds its lines to the script,
its figures to `summarize` and its table here.

Times: the median of each run's median (a run = one program invocation: 200 loads, 10,000
frames per animation), then the median over the rounds. Ratios: the median of the per-round
ratios (each round runs both sides one after the other) with their range, which the
machine's drift affects less than a ratio of medians.
"""

import json
import re
import statistics
import sys
from collections import defaultdict

LINE = re.compile(r"^R(\d+) (\S+) (\S+) (\S+) (.*)$")
KV = re.compile(r"(\w+)=([-0-9.eE+]+)")


def kv(text):
    return {k: float(v) for k, v in KV.findall(text)}


def median(xs):
    return statistics.median(xs) if xs else None


def ratio_stats(pairs):
    """Per-round ratios a/b -> {median, min, max, rounds}."""
    rs = [a / b for a, b in pairs if a is not None and b]
    if not rs:
        return None
    return {"median": median(rs), "min": min(rs), "max": max(rs), "rounds": len(rs)}


def summarize(raw_path):
    meta = {}
    loadavg = []
    # (group, who, subject) -> round -> [lines]
    rec = defaultdict(lambda: defaultdict(list))
    for line in open(raw_path):
        line = line.rstrip("\n")
        if line.startswith("META "):
            _, key, value = (line.split(" ", 2) + [""])[:3]
            meta[key] = value
            continue
        m = LINE.match(line)
        if not m:
            continue
        rnd, group, who, subject, text = int(m[1]), m[2], m[3], m[4], m[5]
        if group == "LOADAVG":
            loadavg.append([float(x) for x in text.split()[:3]])
            continue
        rec[(group, who, subject)][rnd].append(text)

    def value(group, who, subject, prefix, key):
        """round -> the figure `key` of the line starting with `prefix`."""
        out = {}
        for rnd, lines in rec.get((group, who, subject), {}).items():
            for text in lines:
                if text.startswith(prefix):
                    v = kv(text).get(key)
                    if v is not None:
                        out[rnd] = v
        return out

    def subjects(group):
        seen = []
        for g, _, s in rec:
            if g == group and s not in seen:
                seen.append(s)
        return seen

    def side(per_round, **extra):
        if not per_round:
            return None
        return dict(median=median(list(per_round.values())), runs=len(per_round), **extra)

    def paired(a, b):
        return ratio_stats([(a[r], b.get(r)) for r in a])

    load = {}
    for s in subjects("load"):
        sides = {
            "bonescope": value("load", "bonescope", s, "LOAD", "median_us"),
            "value": value("load", "value", s, "FLOOR", "median_us"),
            "ignored": value("load", "ignored", s, "FLOOR", "median_us"),
            "rusty": value("load", "rusty", s, "LOAD", "median_us"),
            "js": value("load", "js", s, "LOAD", "median_us"),
        }
        size = value("load", "bonescope", s, "LOAD", "bytes")
        bs = sides["bonescope"]
        load[s] = {
            "bytes": next(iter(size.values()), None),
            "us": {k: side(v) for k, v in sides.items() if v},
            "ratio": {k: paired(bs, v) for k, v in sides.items() if v and k != "bonescope"},
        }

    skel = {}
    for s in subjects("skel"):
        sk = value("skel", "bonescope", s, "LOAD", "median_us")
        js = value("load", "bonescope", s, "LOAD", "median_us")
        skel[s] = {
            "bytes_skel": next(iter(value("skel", "bonescope", s, "LOAD", "bytes").values()), None),
            "bytes_json": next(iter(value("load", "bonescope", s, "LOAD", "bytes").values()), None),
            "us": {"skel": side(sk), "json": side(js)},
            "json_over_skel": paired(js, sk),
        }

    frame = {}
    for s in subjects("frame"):
        who = {w for (g, w, x) in rec if g == "frame" and x == s}
        frame[s] = {
            w: {
                "mean_ns": side(value("frame", w, s, "SUMMARY", "mean_ns")),
                "mix_ns": side(value("frame", w, s, "SUMMARY", "mix_ns")),
            }
            for w in sorted(who)
        }
    frame_ratio = {}
    for s in frame:
        v, name = s.split("/", 1)
        if v != "4.2":
            continue
        peer = {w: value("frame", w, s, "SUMMARY", "mean_ns") for w in ("rusty", "js")}
        peer_mix = {w: value("frame", w, s, "SUMMARY", "mix_ns") for w in ("rusty", "js")}
        out = {}
        for w in ("rusty", "js"):
            if not peer[w]:
                continue
            out[f"4.2/{w}"] = paired(value("frame", "bonescope", s, "SUMMARY", "mean_ns"), peer[w])
            out[f"mix 4.2/{w}"] = paired(value("frame", "bonescope", s, "SUMMARY", "mix_ns"), peer_mix[w])
            for variant in (f"3.8/{name}", f"3.8/{name}@girl"):
                b38 = value("frame", "bonescope", variant, "SUMMARY", "mean_ns")
                if b38:
                    out[f"{variant.split('/', 1)[1].replace(name, '3.8')}/{w}"] = paired(b38, peer[w])
        frame_ratio[name] = out

    linear = []
    for s in subjects("linear"):
        us = value("linear", "bonescope", s, "LOAD", "median_us")
        size = next(iter(value("linear", "bonescope", s, "LOAD", "bytes").values()), None)
        linear.append({"file": s, "bytes": size, "us": side(us)})
    linear.sort(key=lambda x: x["bytes"] or 0)

    term = {}
    for s in subjects("bytes"):
        for text in rec[("bytes", "bonescope", s)][1]:
            m = re.search(r"(\d+) bytes/s", text)
            if m:
                term[s] = int(m[1])

    idle = {}
    for text in rec.get(("idle", "watcher", "synth"), {}).get(1, []):
        m = re.search(r"\((\S+) MB\), (\S+) s idle.*CPU (\S+) s = (\S+) % of one core; watcher reads (\d+)", text)
        if m:
            idle["watcher"] = {"mb": float(m[1]), "seconds": float(m[2]), "cpu_s": float(m[3]),
                               "percent": float(m[4]), "reads": int(m[5])}
    for text in rec.get(("idle", "viewer", "synth"), {}).get(1, []):
        f = kv(text)
        cpu = f["ticks"] / f["hz"]
        idle["viewer"] = {"seconds": f["seconds"], "cpu_s": cpu, "percent": 100 * cpu / f["seconds"]}

    rss = {}
    for (g, _, s), rounds in rec.items():
        if g == "rss":
            f = kv(rounds[1][0])
            rss[s] = {"vmhwm_kb": f["vmhwm_kb"], "bytes": f["bytes"]}

    meta["loadavg_rounds"] = loadavg
    if loadavg:
        one = [x[0] for x in loadavg]
        meta["loadavg_1min_range"] = [min(one), max(one)]
    return {"meta": meta, "load": load, "skel": skel, "frame": frame, "frame_ratio": frame_ratio,
            "linear": linear, "terminal_bytes": term, "idle": idle, "rss": rss}


# --- tables -----------------------------------------------------------------------------------

def t(us):
    """A time in µs, with a unit that fits."""
    if us is None:
        return "-"
    if us >= 100_000:
        return f"{us / 1000:.0f} ms"
    if us >= 1000:
        return f"{us / 1000:.2f} ms"
    return f"{us:.0f} µs"


def ns(v):
    return "-" if v is None else f"{v / 1000:.2f} µs"


def r(stats, target=None):
    if not stats:
        return "-"
    m = stats["median"]
    # Three decimals where two would hide which side of the target the figure is on.
    digits = 3 if target is not None and abs(m - target) < 0.005 else 2
    s = f"**{m:.{digits}f}** ({stats['min']:.2f}-{stats['max']:.2f})"
    if target is not None:
        s += " met" if stats["median"] <= target else " **missed**"
    return s


def size(b):
    if b is None:
        return "?"
    return f"{b / 1e6:.1f} MB" if b >= 1e6 else f"{b / 1e3:.0f} KB"


def med(entry, who):
    x = entry["us"].get(who)
    return x["median"] if x else None


def runs(entry, who="bonescope"):
    x = entry["us"].get(who)
    return x["runs"] if x else 0


NAMES = {"synth": "synthetic (`gen_synth.py --anims 50`)"}


def label(subject):
    v, name = subject.split("/", 1)
    return f"{NAMES.get(name, name)} {v}"


def table_run(s):
    m = s["meta"]
    la = m.get("loadavg_1min_range")
    lines = [
        "| run | |",
        "|---|---|",
        f"| date | {m.get('date', '?')} |",
        f"| commit | `{m.get('commit', '?')}` |",
        f"| machine | {m.get('host', '?')} |",
        f"| interleaved rounds | {m.get('rounds', '?')}{' (quick smoke run)' if m.get('quick') == '1' else ''} |",
        f"| load average (1 min, at each round's start and end) | {la[0]:.1f}-{la[1]:.1f} |" if la else "| load average | ? |",
        f"| duration | {int(m.get('seconds', 0)) // 60} min {int(m.get('seconds', 0)) % 60} s |",
        f"| JS anchor (spine-core 4.2.119 in Node) | {'yes' if m.get('js') == 'yes' else 'not run'} |",
    ]
    return "\n".join(lines)


def table_load_floor(s):
    out = ["| file | bonescope `format::load` | plain `Value` | plain `IgnoredAny` | load / `Value` (target) | runs |",
           "|---|---|---|---|---|---|"]
    targets = {"3.8/spineboy-pro": 0.65, "3.8/raptor-pro": 0.65, "3.8/synth": 0.5}
    for subj, e in s["load"].items():
        out.append(f"| {label(subj)} ({size(e['bytes'])}) | {t(med(e, 'bonescope'))} | {t(med(e, 'value'))} "
                   f"| {t(med(e, 'ignored'))} | {r(e['ratio'].get('value'), targets.get(subj))} | {runs(e)} |")
    return "\n".join(out)


def table_load_peers(s):
    out = ["| skeleton (4.2 export) | bonescope | rusty_spine +libc | bonescope / rusty_spine (target ≤ 0.6) | spine-core JS | bonescope / JS | runs |",
           "|---|---|---|---|---|---|---|"]
    for subj, e in s["load"].items():
        if "rusty" not in e["us"]:
            continue
        out.append(f"| {label(subj)} ({size(e['bytes'])}) | {t(med(e, 'bonescope'))} | {t(med(e, 'rusty'))} "
                   f"| {r(e['ratio'].get('rusty'), 0.6)} | {t(med(e, 'js'))} | {r(e['ratio'].get('js'))} | {runs(e)} |")
    return "\n".join(out)


def table_skel(s):
    out = ["| file (JSON / `.skel`) | `format::load` JSON | `format::load` `.skel` | JSON / `.skel` (target ≥ 3) | runs |",
           "|---|---|---|---|---|"]
    for subj, e in s["skel"].items():
        j, k = e["us"]["json"], e["us"]["skel"]
        out.append(f"| {label(subj)} ({size(e['bytes_json'])} / {size(e['bytes_skel'])}) | {t(j and j['median'])} "
                   f"| {t(k and k['median'])} | {r(e['json_over_skel'])} | {k['runs'] if k else 0} |")
    return "\n".join(out)


def table_frame(s):
    out = ["| skeleton | bonescope 3.8 export | bonescope 4.2 export | rusty_spine 4.2 | 4.2 / rusty_spine (target ≤ 1) | 3.8 / rusty_spine | spine-core JS 4.2 | 4.2 / JS | runs |",
           "|---|---|---|---|---|---|---|---|---|"]
    names = []
    for subj in s["frame"]:
        name = subj.split("/", 1)[1].split("@")[0]
        if name not in names:
            names.append(name)
    for name in names:
        f = s["frame"]
        b38 = f.get(f"3.8/{name}", {}).get("bonescope", {}).get("mean_ns")
        b42 = f.get(f"4.2/{name}", {}).get("bonescope", {}).get("mean_ns")
        rs = f.get(f"4.2/{name}", {}).get("rusty", {}).get("mean_ns")
        js = f.get(f"4.2/{name}", {}).get("js", {}).get("mean_ns")
        rr = s["frame_ratio"].get(name, {})
        out.append(f"| {name} | {ns(b38 and b38['median'])} | {ns(b42 and b42['median'])} | {ns(rs and rs['median'])} "
                   f"| {r(rr.get('4.2/rusty'), 1.0)} | {r(rr.get('3.8/rusty'))} | {ns(js and js['median'])} "
                   f"| {r(rr.get('4.2/js'))} | {b42['runs'] if b42 else 0} |")
        girl = f.get(f"3.8/{name}@girl", {}).get("bonescope", {}).get("mean_ns")
        if girl:
            out.append(f"| {name}, skin full-skins/girl | {ns(girl['median'])} | - | - | - | {r(rr.get('3.8@girl/rusty'))} | - | - | {girl['runs']} |")
    return "\n".join(out)


def table_frame_mix(s):
    out = ["| skeleton (4.2 export) | bonescope mix | rusty_spine mix_ns | bonescope / rusty_spine | spine-core JS mix_ns |",
           "|---|---|---|---|---|"]
    for subj, e in s["frame"].items():
        if not subj.startswith("4.2/"):
            continue
        name = subj[4:]
        g = lambda w: (e.get(w, {}).get("mix_ns") or {}).get("median")
        out.append(f"| {name} | {ns(g('bonescope'))} | {ns(g('rusty'))} | {r(s['frame_ratio'].get(name, {}).get('mix 4.2/rusty'))} | {ns(g('js'))} |")
    return "\n".join(out)


def table_linear(s):
    out = ["| file | size | wall (median) | per MB | runs |", "|---|---|---|---|---|"]
    for e in s["linear"]:
        us = e["us"]["median"] if e["us"] else None
        per = us / (e["bytes"] / 1e6) if us and e["bytes"] else None
        out.append(f"| `{e['file']}` | {size(e['bytes'])} | {t(us)} | {t(per)} | {e['us']['runs'] if e['us'] else 0} |")
    return "\n".join(out)


def table_terminal_bytes(s):
    out = ["| size | no colour | 16 colours |", "|---|---|---|"]
    tb = s["terminal_bytes"]
    for sz in [k for k in tb if "+" not in k]:
        c = tb.get(sz + "+color")
        out.append(f"| {sz} | {tb[sz] / 1000:.1f} KB/s | {'-' if c is None else f'{c / 1000:.1f} KB/s'} |")
    return "\n".join(out)


def table_idle(s):
    out = ["| what (synthetic 3.8 file, paused) | CPU | share of one core (target < 0.5 %) | watcher reads |", "|---|---|---|---|"]
    i = s["idle"]
    if "watcher" in i:
        w = i["watcher"]
        out.append(f"| watcher alone (`idle_cpu`, {w['seconds']:.0f} s, {w['mb']:.1f} MB) | {w['cpu_s']:.2f} s | {w['percent']:.3f} % | {w['reads']} |")
    if "viewer" in i:
        v = i["viewer"]
        out.append(f"| the viewer, 120x40 in tmux, paused ({v['seconds']:.0f} s, same time) | {v['cpu_s']:.2f} s | {v['percent']:.3f} % | - |")
    return "\n".join(out)


def table_rss(s):
    out = ["| file | size | peak RSS of the viewer (`VmHWM`) |", "|---|---|---|"]
    for name, e in s["rss"].items():
        out.append(f"| {name} | {size(e['bytes'])} | {e['vmhwm_kb'] / 1024:.1f} MiB |")
    return "\n".join(out)


TABLES = {
    "run": table_run,
    "load-floor": table_load_floor,
    "load-peers": table_load_peers,
    "load-skel": table_skel,
    "load-linear": table_linear,
    "frame": table_frame,
    "frame-mix": table_frame_mix,
    "terminal-bytes": table_terminal_bytes,
    "idle-cpu": table_idle,
    "viewer-rss": table_rss,
}

MARK = re.compile(r"(<!-- BEGIN generated:([\w-]+) -->\n)(.*?)(<!-- END generated:\2 -->)", re.S)


def main(argv):
    if len(argv) >= 2 and argv[0] == "summarize":
        json.dump(summarize(argv[1]), sys.stdout, indent=1, sort_keys=False)
        print()
    elif len(argv) >= 2 and argv[0] == "tables":
        s = json.load(open(argv[1]))
        for name in argv[2:] or TABLES:
            print(f"<!-- BEGIN generated:{name} -->\n{TABLES[name](s)}\n<!-- END generated:{name} -->\n")
    elif len(argv) == 3 and argv[0] == "splice":
        s = json.load(open(argv[1]))
        text = open(argv[2]).read()
        unknown = [m[2] for m in MARK.finditer(text) if m[2] not in TABLES]
        if unknown:
            sys.exit(f"no table renders {', '.join(unknown)} (known: {', '.join(TABLES)})")
        new = MARK.sub(lambda m: m[1] + TABLES[m[2]](s) + "\n" + m[4], text)
        open(argv[2], "w").write(new)
        print(f"{argv[2]}: {len(MARK.findall(text))} tables generated", file=sys.stderr)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
