#!/usr/bin/env python3
"""The figures of one side-by-side run (benches/side-by-side.sh) as data and as tables.

  side_by_side.py summarize RAW            raw.txt -> summary.json (stdout)
  side_by_side.py tables SUMMARY [NAME..]  every generated table (or those named), Markdown
  side_by_side.py ir CALLGRIND.OUT FUNCTION..
                                           per FUNCTION: `IR function=NAME calls=N
                                           ir=TOTAL ir_per_call=X` (inclusive instructions of
                                           every call, from callgrind's call records)
  side_by_side.py splice SUMMARY FILE.md [NAME..]
                                           rewrites each table (or those named) between its
                                           markers in FILE.md
  side_by_side.py merge SUMMARY PARTIAL    SUMMARY with what a partial run (STAGES=...,
                                           IR_GROUPS=...) measured put over it (stdout): each
                                           section, instruction-count group and extra group the
                                           partial run has replaces the old one whole; the run
                                           table names both runs

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
        # The JSON twin: the load group's run (3.8, 4.2) or the skel group's own (3.7, 4.3).
        json_group = "load" if value("load", "bonescope", s, "LOAD", "median_us") else "skel"
        json_who = "bonescope" if json_group == "load" else "json"
        js = value(json_group, json_who, s, "LOAD", "median_us")
        rs = value("skel", "rusty", s, "LOAD", "median_us")
        skel[s] = {
            "bytes_skel": next(iter(value("skel", "bonescope", s, "LOAD", "bytes").values()), None),
            "bytes_json": next(iter(value(json_group, json_who, s, "LOAD", "bytes").values()), None),
            "us": {"skel": side(sk), "json": side(js), "rusty_skel": side(rs)},
            "json_over_skel": paired(js, sk),
            "skel_over_rusty": paired(sk, rs) if rs else None,
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

    # Spine 4.3 exports beside their 4.2 twins (same rounds, the twin right after).
    spine43 = {}
    for s in subjects("load43") + subjects("frame43"):
        v, name = s.split("/", 1)
        if v != "4.3" or name in spine43:
            continue
        l43 = value("load43", "bonescope", s, "LOAD", "median_us")
        l42 = value("load43", "bonescope", f"4.2/{name}", "LOAD", "median_us")
        f43 = value("frame43", "bonescope", s, "SUMMARY", "mean_ns")
        f42 = value("frame43", "bonescope", f"4.2/{name}", "SUMMARY", "mean_ns")
        spine43[name] = {
            "bytes": {
                "4.3": next(iter(value("load43", "bonescope", s, "LOAD", "bytes").values()), None),
                "4.2": next(iter(value("load43", "bonescope", f"4.2/{name}", "LOAD", "bytes").values()), None),
            },
            "load_us": {"4.3": side(l43), "4.2": side(l42)},
            "frame_ns": {"4.3": side(f43), "4.2": side(f42)},
            "load_43_over_42": paired(l43, l42) if l42 else None,
            "frame_43_over_42": paired(f43, f42) if f42 else None,
        }

    # DragonBones (wall): load beside the plain `Value` floor (JSON files), and frame.
    dragonbones = {}
    for s in subjects("dragonbones"):
        lb = value("dragonbones", "bonescope", s, "LOAD", "median_us")
        lv = value("dragonbones", "value", s, "FLOOR", "median_us")
        fr = value("dbframe", "bonescope", s, "SUMMARY", "mean_ns")
        dragonbones[s] = {
            "bytes": next(iter(value("dragonbones", "bonescope", s, "LOAD", "bytes").values()), None),
            "load_us": side(lb), "value_us": side(lv), "frame_ns": side(fr),
            "mix_ns": side(value("dbframe", "bonescope", s, "SUMMARY", "mix_ns")),
            "load_over_value": paired(lb, lv) if lv else None,
        }

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

    # The real viewer playing in tmux: its CPU share (goal 4).
    playcpu = {}
    for (g, _, s), rounds in rec.items():
        if g == "playcpu":
            f = kv(rounds[1][0])
            cpu = f["ticks"] / f["hz"]
            playcpu[s] = {"seconds": f["seconds"], "cpu_s": cpu, "percent": 100 * cpu / f["seconds"]}

    rss = {}
    for (g, _, s), rounds in rec.items():
        if g == "rss":
            f = kv(rounds[1][0])
            rss[s] = {"vmhwm_kb": f["vmhwm_kb"], "bytes": f["bytes"]}

    # Instruction counts (callgrind, once): group -> subject -> who -> function -> figures.
    ir = {}
    for (g, who, subj), rounds in rec.items():
        if not g.startswith("ir-"):
            continue
        for text in rounds.get(1, []):
            fn = re.search(r"function=(\S+)", text)
            f = kv(text)
            if fn and f.get("calls"):
                ir.setdefault(g[3:], {}).setdefault(subj, {}).setdefault(who, {})[fn[1]] = {
                    "per_call": f["ir_per_call"], "calls": int(f["calls"])}
    irsize = {}
    for (g, _, subj), rounds in rec.items():
        if g == "irsize":
            irsize[subj] = kv(rounds[1][0]).get("bytes")
    seekmem = {}
    for (g, _, subj), rounds in rec.items():
        if g == "seekmem":
            for text in rounds.get(1, []):
                seekmem[subj] = kv(text)
    # Other benchmark groups (benches/side-by-side.d): group -> [{who, subject, fields}].
    extra = {}
    for (g, who, subj), rounds in rec.items():
        if g.startswith("extra-"):
            for text in rounds.get(1, []):
                extra.setdefault(g[6:], []).append(
                    {"who": who, "subject": subj, "fields": dict(re.findall(r"(\w+)=(\S+)", text))})

    meta["loadavg_rounds"] = loadavg
    if loadavg:
        one = [x[0] for x in loadavg]
        meta["loadavg_1min_range"] = [min(one), max(one)]
    return {"meta": meta, "load": load, "skel": skel, "frame": frame, "frame_ratio": frame_ratio,
            "linear": linear, "terminal_bytes": term, "idle": idle, "rss": rss, "spine43": spine43,
            "dragonbones": dragonbones, "playcpu": playcpu,
            "ir": ir, "irsize": irsize, "seekmem": seekmem, "extra": extra}


def merge(old, new):
    """`old` with every section `new` measured replacing the old one (instruction-count and
    extra groups one by one), and `new`'s run recorded in meta["merged"]."""
    out = dict(old)
    for key, value in new.items():
        if key == "meta" or not value:
            continue
        if key in ("ir", "extra"):
            out[key] = {**old.get(key, {}), **value}
        else:
            out[key] = value
    m = new.get("meta", {})
    out["meta"] = dict(old.get("meta", {}))
    out["meta"]["merged"] = old.get("meta", {}).get("merged", []) + [{
        "date": m.get("date"), "commit": m.get("commit"), "stages": m.get("stages"),
        "ir_groups": m.get("ir_groups"), "loadavg_end": m.get("loadavg_end"), "seconds": m.get("seconds"),
        "sections": sorted(k for k, v in new.items() if k != "meta" and v),
        "ir": sorted(new.get("ir", {})), "extra": sorted(new.get("extra", {}))}]
    return out


def callgrind_calls(path, names):
    """Inclusive instructions and call count of each function in `names` (matched on the
    whole demangled name or its last `::` segments), from a callgrind output file's call
    records: a `calls=N ...` line is followed by the call's position and inclusive cost."""
    ids = {}
    out = {n: [0, 0] for n in names}

    def match(fname):
        for n in names:
            if fname == n or fname.endswith("::" + n) or fname.endswith(" " + n):
                return n
        return None

    callee = None
    pending = None
    for line in open(path, errors="replace"):
        if pending is not None:
            fields = line.split()
            if len(fields) >= 2 and pending in out:
                out[pending][1] += int(fields[1])
            pending = None
            continue
        if line.startswith(("fn=", "cfn=", "cfni=")):
            rest = line.split("=", 1)[1].strip()
            m = re.match(r"\((\d+)\)(?: (.*))?$", rest)
            name = rest
            if m:
                name = m[2] if m[2] is not None else ids.get(m[1], "")
                if m[2] is not None:
                    ids[m[1]] = m[2]
            if line.startswith("c"):
                callee = name
        elif line.startswith("calls="):
            n = match(callee or "")
            if n is not None:
                out[n][0] += int(line[6:].split()[0])
                pending = n
            else:
                pending = ""
    return out


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
    if m.get("stages") and m["stages"] != "rounds linear ir extra bytes idle rss":
        lines.append(f"| stages | {m['stages']} (ir groups: {m.get('ir_groups', '?')}) |")
    for x in m.get("merged", []):
        what = ", ".join([f"ir-{g}" for g in x.get("ir", [])] + [f"extra-{g}" for g in x.get("extra", [])]
                         + [k for k in x.get("sections", []) if k not in ("ir", "extra")])
        lines.append(f"| later partial run merged in | {x.get('date', '?')}, commit `{x.get('commit', '?')}`, "
                     f"load average at its end {x.get('loadavg_end', '?')}: {what} |")
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
    out = ["| file (JSON / `.skel`) | `format::load` JSON | `format::load` `.skel` | JSON / `.skel` (target ≥ 3) "
           "| rusty_spine +libc `.skel` | `.skel` / rusty_spine (target < 1) | runs |",
           "|---|---|---|---|---|---|---|"]
    for subj, e in s["skel"].items():
        j, k = e["us"]["json"], e["us"]["skel"]
        rs = e["us"].get("rusty_skel")
        out.append(f"| {label(subj)} ({size(e['bytes_json'])} / {size(e['bytes_skel'])}) | {t(j and j['median'])} "
                   f"| {t(k and k['median'])} | {r(e['json_over_skel'])} | {t(rs and rs['median'])} "
                   f"| {r(e.get('skel_over_rusty'), 1.0)} | {k['runs'] if k else 0} |")
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


def table_spine43(s):
    out = ["| skeleton | bytes 4.3 / 4.2 | load 4.3 | load 4.2 | load 4.3 / 4.2 | frame 4.3 | frame 4.2 | frame 4.3 / 4.2 | runs |",
           "|---|---|---|---|---|---|---|---|---|"]
    for name, e in s.get("spine43", {}).items():
        b43, b42 = e["bytes"]["4.3"], e["bytes"]["4.2"]
        l43, l42 = e["load_us"]["4.3"], e["load_us"]["4.2"]
        f43, f42 = e["frame_ns"]["4.3"], e["frame_ns"]["4.2"]
        bytes_ = f"{size(b43)} / {size(b42) if b42 else '-'}"
        out.append(f"| {name} | {bytes_} | {t(l43 and l43['median'])} | {t(l42 and l42['median'])} "
                   f"| {r(e['load_43_over_42'])} | {ns(f43 and f43['median'])} | {ns(f42 and f42['median'])} "
                   f"| {r(e['frame_43_over_42'])} | {l43['runs'] if l43 else 0} |")
    return "\n".join(out)


def table_dragonbones(s):
    out = ["| file | bytes | load | plain `Value` | load / `Value` | frame | mixing | runs |",
           "|---|---|---|---|---|---|---|---|"]
    for subj, e in s.get("dragonbones", {}).items():
        g = lambda k: (e.get(k) or {}).get("median")
        out.append(f"| {subj} | {size(e['bytes'])} | {t(g('load_us'))} | {t(g('value_us'))} "
                   f"| {r(e.get('load_over_value'))} | {ns(g('frame_ns'))} | {ns(g('mix_ns'))} "
                   f"| {(e.get('load_us') or {}).get('runs', 0)} |")
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


# --- issue 33's goals: instruction counts first, wall ratios beside them ------------------------

FRAME_TARGET = 0.85  # bonescope / rusty_spine instructions per frame, plain and mixing
LOAD_TARGET = 0.6    # bonescope load / plain serde_json Value, instructions
SEEK_TARGET = 2e6    # instructions per step back or random seek, any session length


def mi(v):
    """Instructions, in a unit that fits."""
    if v is None:
        return "-"
    if v >= 1e6:
        return f"{v / 1e6:.2f} M"
    if v >= 1e3:
        return f"{v / 1e3:.1f} k"
    return f"{v:.0f}"


def verdict(value, target):
    if value is None:
        return "not measured in this run"
    return "met" if value <= target else "**missed**"


def per_call(entry, who, fn):
    x = (entry or {}).get(who, {}).get(fn)
    return x["per_call"] if x else None


def ratio(a, b):
    return a / b if a is not None and b else None


def fx(v, digits=2):
    return "-" if v is None else f"{v:.{digits}f}"


def frame_rows(s):
    """(rig, plain ratio, mix ratio, bonescope, rusty, bonescope mix, rusty mix)."""
    rows = []
    for subj, e in s.get("ir", {}).get("frame", {}).items():
        b, p = per_call(e, "bonescope", "frame_loop::frame"), per_call(e, "rusty", "bench_frame")
        bm, pm = per_call(e, "bonescope", "frame_loop::frame_mix"), per_call(e, "rusty", "bench_frame_mix")
        rows.append((subj, ratio(b, p), ratio(bm, pm), b, p, bm, pm))
    return rows


def load_rows(s, group="load"):
    """(subject, load / Value, load, Value) of each JSON file of an instruction-count group
    ("load": Spine JSON; "dragonbones": DragonBones JSON, its `.dbbin` files have no floor)."""
    rows = []
    for subj, e in s.get("ir", {}).get(group, {}).items():
        b, v = per_call(e, "bonescope", "load_loop::load_once"), per_call(e, "value", "parse_once")
        if v is not None:
            rows.append((subj, ratio(b, v), b, v))
    return rows


def worst(rows, i):
    known = [r for r in rows if r[i] is not None]
    return max(known, key=lambda r: r[i]) if known else None


def table_goals(s):
    out = ["| goal (issue 33) | measured (instructions: callgrind; times and bytes: the run named) | target | verdict | wall ratio, same run |",
           "|---|---|---|---|---|"]
    fr = frame_rows(s)
    wall = s.get("frame_ratio", {})
    for i, what, key in ((1, "plain", "4.2/rusty"), (2, "mixing", "mix 4.2/rusty")):
        w = worst(fr, i)
        walls = [v[key]["median"] for v in wall.values() if v.get(key)]
        wall_txt = f"{min(walls):.2f}-{max(walls):.2f} over {len(walls)} rigs" if walls else "-"
        n = sum(1 for r in fr if r[i] is not None)
        fig = f"worst {w[i]:.3f} ({w[0]}); {sum(1 for r in fr if r[i] is not None and r[i] <= FRAME_TARGET)} of {n} rigs within" if w else "-"
        out.append(f"| 1. frame / rusty_spine, {what} | {fig} | ≤ {FRAME_TARGET} on every rig | {verdict(w and w[i], FRAME_TARGET)} | {wall_txt} |")
    lr = load_rows(s)
    w = worst(lr, 1)
    walls = [e["ratio"]["value"]["median"] for e in s.get("load", {}).values() if e["ratio"].get("value")]
    wall_txt = f"{min(walls):.2f}-{max(walls):.2f} over {len(walls)} files" if walls else "-"
    fig = f"worst {w[1]:.3f} ({w[0]}); {sum(1 for r in lr if r[1] is not None and r[1] <= LOAD_TARGET)} of {len(lr)} files within" if w else "-"
    out.append(f"| 2. JSON load / plain `Value`, Spine JSON | {fig} | ≤ {LOAD_TARGET} on every file | {verdict(w and w[1], LOAD_TARGET)} | {wall_txt} |")
    lr = load_rows(s, "dragonbones")
    w = worst(lr, 1)
    walls = [e["load_over_value"]["median"] for e in s.get("dragonbones", {}).values()
             if (e.get("load_over_value") or {}).get("median") is not None]
    wall_txt = f"{min(walls):.2f}-{max(walls):.2f} over {len(walls)} files" if walls else "-"
    fig = f"worst {w[1]:.3f} ({w[0]}); {sum(1 for r in lr if r[1] is not None and r[1] <= LOAD_TARGET)} of {len(lr)} files within" if w else "-"
    out.append(f"| 2. JSON load / plain `Value`, DragonBones JSON | {fig} | ≤ {LOAD_TARGET} on every file | {verdict(w and w[1], LOAD_TARGET)} | {wall_txt} |")
    seek = s.get("ir", {}).get("seek", {})
    for fn, what in (("seek_probe::step_back", "step back"), ("seek_probe::random_seek", "random seek")):
        figs = {n: per_call(e, "bonescope", fn) for n, e in seek.items()}
        figs = {n: v for n, v in figs.items() if v is not None}
        top = max(figs.values()) if figs else None
        fig = ", ".join(f"{mi(v)} at {int(n):,} frames" for n, v in sorted(figs.items(), key=lambda x: int(x[0])))
        lengths = {int(n) for n in figs}
        missing = [f"{n:,}" for n in (1000, 100000, 1000000) if n not in lengths]
        note = f" (not measured at {', '.join(missing)} frames)" if missing else ""
        out.append(f"| 3. scrubbing: one {what} | {fig or '-'}{note} | ≤ 2 M at 10^3, 10^5, 10^6 frames | "
                   f"{verdict(top, SEEK_TARGET) if not missing or (top or 0) > SEEK_TARGET else 'not measured at every length'} | - |")
    out.append(goal3_memory_row(s))
    out += goal4_rows(s) + goal5_rows(s) + goal6_rows(s)
    return "\n".join(out)


SEEK_LENGTHS = (1000, 100000, 1000000)


def goal3_memory_row(s):
    """Checkpoint bytes and event log lines at each session length against their budgets."""
    mem = {int(n): m for n, m in s.get("seekmem", {}).items() if m.get("checkpoint_budget_bytes")}
    if not mem:
        return "| 3. scrubbing: memory within its budgets | not measured in this run | checkpoints ≤ budget, log ≤ budget | not measured in this run | - |"
    figs, over = [], False
    for n in sorted(mem):
        m = mem[n]
        cp = m["checkpoints"] * m["checkpoint_bytes"]
        over |= cp > m["checkpoint_budget_bytes"] or m["log_lines"] > m["log_budget_lines"]
        figs.append(f"{n:,} frames: {m['checkpoints']:.0f} checkpoints × {m['checkpoint_bytes'] / 1024:.1f} KiB = "
                    f"{cp / 2**20:.1f} MiB, {m['log_lines']:.0f} log lines ({m['log_dropped']:.0f} dropped)")
    last = mem[max(mem)]
    target = (f"checkpoints ≤ {last['checkpoint_budget_bytes'] / 2**20:.0f} MiB, "
              f"log ≤ {last['log_budget_lines']:,.0f} lines")
    missing = [f"{n:,}" for n in SEEK_LENGTHS if n not in mem]
    v = "**missed**" if over else (f"not measured at {', '.join(missing)} frames" if missing else "met")
    return f"| 3. scrubbing: memory within its budgets | {'; '.join(figs)} | {target} | {v} | - |"


def extra_rows(s, group):
    return s.get("extra", {}).get(group, [])


def num(fields, key):
    try:
        return float(fields[key])
    except (KeyError, ValueError):
        return None


def unit(fields):
    return fields.get("unit", "").replace("_", " ")


def judged(fields):
    """met / **missed** for a line with value and target (value <= target; a picture line also
    needs 0 bytes paused), or None."""
    v, t = num(fields, "value"), num(fields, "target")
    if v is None or t is None:
        return None
    ok = v <= t and num(fields, "paused_bytes") in (None, 0.0)
    return "met" if ok else "**missed**"


GOAL4 = (("ir-per-frame-120x40-no-colour", "instructions per frame drawn, 120x40, no colour"),
         ("ir-per-frame-120x40-colour", "instructions per frame drawn, 120x40, colour"),
         ("cpu-share-playing-120x40", "share of a core playing (user+sys of 300 frames)"),
         ("bytes-120x40-no-colour", "bytes a second playing, 120x40, no colour"),
         ("bytes-120x40-colour", "bytes a second playing, 120x40, colour"))


def goal4_rows(s):
    rows = {x["subject"]: x["fields"] for x in extra_rows(s, "goal4-viewer")}
    out = []
    for subject, e in s.get("playcpu", {}).items():
        out.append(f"| 4. viewer: share of a core playing, the real viewer at 120x40 in tmux ({subject}, `walk`) "
                   f"| {e['percent']:.1f} % of a core ({e['cpu_s']:.2f} s of CPU in {e['seconds']:.0f} s, `/proc` utime + stime) "
                   f"| ≤ 5 % of a core | {'met' if e['percent'] <= 5 else '**missed**'} | - |")
    for subject, what in GOAL4:
        f = rows.get(subject)
        if f is None:
            why = ("callgrind (valgrind) was not found" if subject.startswith("ir-") and rows
                   else "benches/side-by-side.d/goal4-viewer.sh printed no such line")
            out.append(f"| 4. viewer: {what} | not measured in this run ({why}) | - | not measured in this run | - |")
            continue
        out.append(f"| 4. viewer: {what} (spineboy-pro 4.2 `walk`) | {f['value']} {unit(f)} "
                   f"| ≤ {f['target']} {unit(f)} | {judged(f)} | - |")
    return out


def goal5_rows(s):
    rows = extra_rows(s, "goal5-reload")
    if not rows:
        return ["| 5. reload, write to screen, p95 | not measured in this run (no `goal5-reload` lines) | ≤ 40 ms spineboy-pro, ≤ 200 ms 10 MB | not measured in this run | - |"]
    out = []
    for x in rows:
        f = x["fields"]
        out.append(f"| 5. reload, write to screen, p95: {x['subject']} ({f.get('MB', '?')} MB) "
                   f"| p95 {f['value']} ms (p50 {f.get('screen_p50_ms', '?')} ms; {f.get('reloads', '?')} re-exports; "
                   f"load average {f.get('load_1min', '?')}) | ≤ {f['target']} ms | {judged(f)} | - |")
    return out


def goal6_rows(s):
    rows = extra_rows(s, "goal6-check")
    if not rows:
        return ["| 6. `check` on a folder: every core, throughput | not measured in this run (no `goal6-check` lines) | every core; files/s and MB/s reported | not measured in this run | - |"]
    out = []
    for x in rows:
        f = x["fields"]
        cores, ratio, others = num(f, "cores"), num(f, "cpu_over_wall"), num(f, "others_cores")
        fig = (f"{f['files_per_s']} files/s, {f['MB_per_s']} MB/s ({x['subject'].replace('check-', '').replace('-', ' ')}, "
               f"{f.get('MB', '?')} MB) on {f['threads']} worker threads; CPU over wall {f['cpu_over_wall']} "
               f"on {f['cores']} cores")
        if others is not None:
            fig += f" while other processes used {f['others_cores']} cores"
        if ratio is not None and cores and ratio > 0.75 * cores:
            v = "met"
        elif others is not None and cores and cores - others < 0.75 * cores:
            v = (f"not measurable here: other processes held {others:.2f} of {cores:.0f} cores, so CPU over wall "
                 f"could not exceed {cores - others:.2f} (every core shows above {0.75 * cores:.2f}); "
                 f"throughput reported")
        elif cores == 1:
            v = "met (one core)"
        else:
            v = "**missed**"
        out.append(f"| 6. `check` on a folder: every core, throughput | {fig} | CPU over wall > {0.75 * (cores or 0):.2f} "
                   f"(every core); files/s and MB/s reported | {v} | - |")
    return out


def table_ir_frame(s):
    out = ["| rig (4.2 export) | bonescope Ir/frame | rusty_spine Ir/frame | ratio (target ≤ 0.85) | bonescope mixing | rusty_spine mixing | ratio (target ≤ 0.85) | wall ratio plain / mixing (rounds) |",
           "|---|---|---|---|---|---|---|---|"]
    for subj, rp, rm, b, p, bm, pm in frame_rows(s):
        wr = s.get("frame_ratio", {}).get(subj.split("/", 1)[1], {})
        wall = f"{r(wr.get('4.2/rusty'))} / {r(wr.get('mix 4.2/rusty'))}" if wr else "-"
        v1 = "" if rp is None else (" met" if rp <= FRAME_TARGET else " **missed**")
        v2 = "" if rm is None else (" met" if rm <= FRAME_TARGET else " **missed**")
        out.append(f"| {subj[4:]} | {mi(b)} | {mi(p)} | {fx(rp, 3)}{v1} | {mi(bm)} | {mi(pm)} | {fx(rm, 3)}{v2} | {wall} |")
    return "\n".join(out)


def table_ir_load(s):
    out = ["| file | bonescope Ir/load | plain `Value` Ir | ratio (target ≤ 0.6) | wall ratio (rounds) |",
           "|---|---|---|---|---|"]
    for subj, rt, b, v in load_rows(s):
        wr = s.get("load", {}).get(subj, {}).get("ratio", {}).get("value")
        mark = "" if rt is None else (" met" if rt <= LOAD_TARGET else " **missed**")
        out.append(f"| {label(subj)} | {mi(b)} | {mi(v)} | {fx(rt, 3)}{mark} | {r(wr)} |")
    return "\n".join(out)


def table_ir_formats(s):
    out = ["| file | load Ir | plain `Value` Ir | load / `Value` (goal 2, ≤ 0.6) | frame Ir (plain) | frame Ir (mixing) |",
           "|---|---|---|---|---|---|"]
    ir = s.get("ir", {})
    for subj, e in ir.get("skel", {}).items():
        out.append(f"| Spine {label(subj)} `.skel` | {mi(per_call(e, 'bonescope', 'load_loop::load_once'))} | - | - | - | - |")
    frames = ir.get("dbframe", {})

    def twin_order(subj):  # version, then each `.dbbin` right after its JSON twin
        v, name = subj.split("/", 1)
        stem, _, ext = name.rpartition(".")
        return (v, stem, ext != "json")
    for subj, e in sorted(ir.get("dragonbones", {}).items(), key=lambda x: twin_order(x[0])):
        f = frames.get(subj)
        b, v = per_call(e, 'bonescope', 'load_loop::load_once'), per_call(e, 'value', 'parse_once')
        rt = ratio(b, v)
        mark = "" if rt is None else (" met" if rt <= LOAD_TARGET else " **missed**")
        out.append(f"| DragonBones {subj} | {mi(b)} | {mi(v)} | {fx(rt, 3)}{mark} "
                   f"| {mi(per_call(f, 'bonescope', 'frame_loop::frame'))} | {mi(per_call(f, 'bonescope', 'frame_loop::frame_mix'))} |")
    return "\n".join(out)


def table_ir_linear(s):
    out = ["| file | size | instructions per load | per MB |", "|---|---|---|---|"]
    rows = []
    for subj, e in s.get("ir", {}).get("linear", {}).items():
        b = s.get("irsize", {}).get(subj)
        rows.append((b or 0, subj, per_call(e, "bonescope", "load_loop::load_once")))
    for b, subj, v in sorted(rows):
        per = v / (b / 1e6) if v is not None and b else None
        out.append(f"| `{subj}` | {size(b or None)} | {mi(v)} | {mi(per)} |")
    return "\n".join(out)


def table_ir_seek(s):
    out = ["| session length (spineboy-pro 4.2) | one step back | one random seek | target | checkpoints (interval) | log lines kept / dropped | wall: step back / seek |",
           "|---|---|---|---|---|---|---|"]
    seek = s.get("ir", {}).get("seek", {})
    for n in sorted(seek, key=int):
        e = seek[n]
        b, k = per_call(e, "bonescope", "seek_probe::step_back"), per_call(e, "bonescope", "seek_probe::random_seek")
        m = s.get("seekmem", {}).get(n, {})
        mark = lambda v: "" if v is None else (" met" if v <= SEEK_TARGET else " **missed**")
        cps = f"{m['checkpoints']:.0f} ({m['interval']:.0f} frames)" if m else "-"
        log = f"{m['log_lines']:.0f} / {m['log_dropped']:.0f}" if m else "-"
        wall = f"{m['back_us']:.0f} µs / {m['seek_us']:.0f} µs" if m else "-"
        out.append(f"| {int(n):,} frames | {mi(b)}{mark(b)} | {mi(k)}{mark(k)} | ≤ 2 M | {cps} | {log} | {wall} |")
    return "\n".join(out)


def table_extra(group):
    """A generic table of one benches/side-by-side.d group: a row per line, a column per key."""
    def render(s):
        rows = s.get("extra", {}).get(group)
        if not rows:
            return f"Not measured in this run (no script in `benches/side-by-side.d` printed group `{group}`)."
        keys = []
        for x in rows:
            keys += [k for k in x["fields"] if k not in keys]
        verdicts = any(judged(x["fields"]) for x in rows)
        out = ["| who | subject | " + " | ".join(keys) + (" | verdict |" if verdicts else " |"),
               "|---|---|" + "---|" * (len(keys) + verdicts)]
        for x in rows:
            cells = [x["fields"].get(k, "-").replace("_", " ") if k == "unit" else x["fields"].get(k, "-") for k in keys]
            if verdicts:
                cells.append(judged(x["fields"]) or "-")
            out.append(f"| {x['who']} | {x['subject']} | " + " | ".join(cells) + " |")
        return "\n".join(out)
    return render


TABLES = {
    "run": table_run,
    "load-floor": table_load_floor,
    "load-peers": table_load_peers,
    "load-skel": table_skel,
    "load-linear": table_linear,
    "frame": table_frame,
    "frame-mix": table_frame_mix,
    "spine43": table_spine43,
    "dragonbones": table_dragonbones,
    "terminal-bytes": table_terminal_bytes,
    "idle-cpu": table_idle,
    "viewer-rss": table_rss,
    "goals": table_goals,
    "ir-frame": table_ir_frame,
    "ir-load": table_ir_load,
    "ir-formats": table_ir_formats,
    "ir-seek": table_ir_seek,
    "ir-linear": table_ir_linear,
}


def renderer(name):
    """The table `name` renders: a registered one, or a generic one for `extra-GROUP`."""
    if name in TABLES:
        return TABLES[name]
    if name.startswith("extra-"):
        return table_extra(name[6:])
    return None

MARK = re.compile(r"(<!-- BEGIN generated:([\w-]+) -->\n)(.*?)(<!-- END generated:\2 -->)", re.S)


def main(argv):
    if len(argv) >= 2 and argv[0] == "summarize":
        json.dump(summarize(argv[1]), sys.stdout, indent=1, sort_keys=False)
        print()
    elif len(argv) >= 3 and argv[0] == "ir":
        for name, (calls, ir) in callgrind_calls(argv[1], argv[2:]).items():
            per = ir / calls if calls else 0
            print(f"IR function={name} calls={calls} ir={ir} ir_per_call={per:.1f}")
    elif len(argv) == 3 and argv[0] == "merge":
        json.dump(merge(json.load(open(argv[1])), json.load(open(argv[2]))), sys.stdout, indent=1)
        print()
    elif len(argv) >= 2 and argv[0] == "tables":
        s = json.load(open(argv[1]))
        names = argv[2:] or list(TABLES) + [f"extra-{g}" for g in s.get("extra", {})]
        for name in names:
            if renderer(name) is None:
                sys.exit(f"no table renders {name}")
            print(f"<!-- BEGIN generated:{name} -->\n{renderer(name)(s)}\n<!-- END generated:{name} -->\n")
    elif len(argv) >= 3 and argv[0] == "splice":
        s = json.load(open(argv[1]))
        text = open(argv[2]).read()
        unknown = [m[2] for m in MARK.finditer(text) if renderer(m[2]) is None] + [n for n in argv[3:] if renderer(n) is None]
        if unknown:
            sys.exit(f"no table renders {', '.join(unknown)} (known: {', '.join(TABLES)})")
        only = set(argv[3:]) or {m[2] for m in MARK.finditer(text)}
        new = MARK.sub(lambda m: m[1] + renderer(m[2])(s) + "\n" + m[4] if m[2] in only else m[0], text)
        open(argv[2], "w").write(new)
        done = [m[2] for m in MARK.finditer(text) if m[2] in only]
        print(f"{argv[2]}: {len(done)} tables generated", file=sys.stderr)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
