"""Renders an msprof timeline (msprof_{ts}.json, a Chrome trace) as a self-contained HTML page with one
SVG: a row per track (host threads, then per device its streams and engines), task slices labelled and
coloured by name, launch and event flows as arrows, the memory counter as a step line, msproftx marks and
ranges. No scripts, no network: it opens anywhere and renders headless (the README screenshot). For
traces of more than MAX_SLICES slices use Perfetto instead. Standard library only."""

import html

MAX_SLICES = 20000
PALETTE = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#ff9da7", "#9c755f",
           "#bab0ac"]


def _color(name):
    h = 0
    for c in name.split(" ")[0]:
        h = (h * 31 + ord(c)) & 0xffffffff
    return PALETTE[h % len(PALETTE)]


def render(trace, title="npurt timeline", width=1400):
    ev = trace["traceEvents"]
    pnames = {e["pid"]: e["args"]["name"] for e in ev if e["ph"] == "M" and e["name"] == "process_name"}
    tnames = {(e["pid"], e["tid"]): e["args"]["name"] for e in ev if e["ph"] == "M" and e["name"] == "thread_name"}
    slices = [e for e in ev if e["ph"] == "X"]
    if len(slices) > MAX_SLICES:
        return None
    timed = [e for e in ev if e["ph"] != "M" and "ts" in e]
    if not timed:
        return None
    t0 = min(e["ts"] for e in timed)
    t1 = max(e["ts"] + e.get("dur", 0) for e in timed)
    # Start at the first launch: runtime start-up (aclInit, device open) would take most of the width.
    launches = [e["ts"] for e in ev if e["ph"] == "s"]
    if launches and min(launches) > t0:
        t0 = max(t0, min(launches) - 0.03 * (t1 - min(launches)))
    span = max(t1 - t0, 1e-3)
    # Rows: host processes first (by pid), then devices; inside, by sort index (tid).
    rows = []
    for key in sorted({(e["pid"], e["tid"]) for e in slices + [e for e in ev if e["ph"] in ("i", "b")]},
                      key=lambda k: (k[0] >= (1 << 24), k[0], k[1])):
        rows.append(key)
    counters = sorted({e["pid"] for e in ev if e["ph"] == "C"})
    label_w, row_h, top = 330, 26, 40
    plot_w = width - label_w - 20
    height = top + row_h * (len(rows) + 2 * len(counters)) + 50

    def x(ts):
        return label_w + (ts - t0) / span * plot_w

    row_y = {k: top + i * row_h for i, k in enumerate(rows)}
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="DejaVu Sans, sans-serif" '
           'font-size="11">' % (width, height),
           '<defs><marker id="arr" markerWidth="8" markerHeight="8" refX="7" refY="4" orient="auto">'
           '<path d="M0,0 L8,4 L0,8 z" fill="#333"/></marker></defs>',
           '<rect width="100%" height="100%" fill="#fff"/>',
           '<text x="10" y="22" font-size="15" font-weight="bold">%s</text>' % html.escape(title),
           '<text x="%d" y="22" fill="#555">grey arrow: launch -> execution   red arrow: event record -> '
           'wait   red diamond: msproftx mark</text>' % (width - 560)]
    # time axis
    for i in range(11):
        ts = t0 + span * i / 10
        out.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#eee"/>' % (x(ts), top - 4, x(ts), height - 30))
        out.append('<text x="%.1f" y="%d" fill="#666" text-anchor="middle">%.0f us</text>' %
                   (x(ts), height - 14, ts))
    last_pid = None
    for k in rows:
        y = row_y[k]
        if k[0] != last_pid:
            out.append('<line x1="0" y1="%d" x2="%d" y2="%d" stroke="#999"/>' % (y, width, y))
            last_pid = k[0]
        label = "%s / %s" % (pnames.get(k[0], str(k[0])), tnames.get(k, str(k[1])))
        out.append('<rect x="0" y="%d" width="%d" height="%d" fill="%s"/>' %
                   (y, label_w - 4, row_h, "#f4f6fa" if k[0] < (1 << 24) else "#f7f4ee"))
        out.append('<text x="6" y="%d">%s</text>' % (y + 17, html.escape(label[:52])))
    for e in slices:
        k = (e["pid"], e["tid"])
        if k not in row_y or e["ts"] + e.get("dur", 0) < t0:
            continue
        y = row_y[k]
        start = max(e["ts"], t0)
        xa, w = x(start), max((e["ts"] + e.get("dur", 0) - start) / span * plot_w, 1.0)
        out.append('<rect x="%.2f" y="%d" width="%.2f" height="%d" fill="%s" stroke="#fff" stroke-width="0.5">'
                   '<title>%s %.3f us</title></rect>' % (xa, y + 3, w, row_h - 6, _color(e["name"]),
                                                         html.escape(e["name"]), e.get("dur", 0)))
        if w > 7 * len(e["name"]) * 0.6:
            out.append('<text x="%.1f" y="%d" fill="#fff">%s</text>' % (xa + 3, y + 17, html.escape(e["name"])))
    # msproftx ranges and marks
    opened = {}
    for e in ev:
        if e["ph"] == "b":
            opened[e["id"]] = e
        elif e["ph"] == "e" and e["id"] in opened:
            b = opened.pop(e["id"])
            y = row_y.get((b["pid"], b["tid"]))
            if y is not None and e["ts"] >= t0:
                bs = max(b["ts"], t0)
                out.append('<rect x="%.1f" y="%d" width="%.1f" height="4" fill="#b07aa1"><title>%s</title></rect>' %
                           (x(bs), y + row_h - 5, max(x(e["ts"]) - x(bs), 1), html.escape(b["name"])))
        elif e["ph"] == "i" and (e["pid"], e["tid"]) in row_y and e["ts"] >= t0:
            y = row_y[(e["pid"], e["tid"])]
            xm = x(e["ts"])
            out.append('<path d="M%.1f,%d l5,6 l-5,6 l-5,-6 z" fill="#e15759"><title>%s</title></path>' %
                       (xm, y + 1, html.escape(e["name"])))
            out.append('<text x="%.1f" y="%d" fill="#e15759" font-size="9">%s</text>' %
                       (xm + 6, y + 10, html.escape(e["name"])))
    # flows
    starts = {}
    for e in ev:
        if e["ph"] == "s":
            starts[(e["cat"], e["id"])] = e
    for e in ev:
        if e["ph"] != "f":
            continue
        s = starts.get((e["cat"], e["id"]))
        if not s or (s["pid"], s["tid"]) not in row_y or (e["pid"], e["tid"]) not in row_y or s["ts"] < t0:
            continue
        y0 = row_y[(s["pid"], s["tid"])] + row_h / 2
        y1 = row_y[(e["pid"], e["tid"])] + row_h / 2
        color = "#d62728" if e["cat"] == "event" else "#555"
        out.append('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="%s" '
                   'marker-end="url(#arr)" opacity="0.7"/>' % (x(s["ts"]), y0, x(e["ts"]), y1, color,
                                                               "1.6" if e["cat"] == "event" else "0.8"))
    # counters
    base = top + row_h * len(rows)
    for i, pid in enumerate(counters):
        pts = sorted((e["ts"], list(e["args"].values())[0]) for e in ev if e["ph"] == "C" and e["pid"] == pid)
        y0 = base + i * 2 * row_h
        out.append('<rect x="0" y="%d" width="%d" height="%d" fill="#f7f4ee"/>' % (y0, label_w - 4, 2 * row_h))
        out.append('<text x="6" y="%d">%s / memory in use (MiB)</text>' % (y0 + 17, html.escape(pnames.get(pid, ""))))
        vmax = max(v for _, v in pts) or 1
        path, prev = [], None
        for ts, v in pts:
            ts = max(ts, t0)
            yy = y0 + 2 * row_h - 4 - v / vmax * (2 * row_h - 10)
            if prev is not None:
                path.append("L%.1f,%.1f" % (x(ts), prev))
            path.append(("M" if not path else "L") + "%.1f,%.1f" % (x(ts), yy))
            prev = yy
        path.append("L%.1f,%.1f" % (x(t1), prev))
        out.append('<path d="%s" fill="none" stroke="#4e79a7" stroke-width="1.5"/>' % " ".join(path))
        out.append('<text x="%d" y="%d" fill="#4e79a7">max %.2f MiB</text>' % (width - 120, y0 + 14, vmax))
    out.append("</svg>")
    return ("<!DOCTYPE html><html><head><meta charset='utf-8'><title>%s</title></head>"
            "<body style='margin:0'>%s</body></html>\n" % (html.escape(title), "\n".join(out)))


def main(argv):
    """timeline_svg.py TRACE.json OUT.svg [--width N] [--title T]: the bare SVG of a timeline, e.g. for
    `rsvg-convert -b white OUT.svg -o OUT.png` (librsvg2-bin), as docs/images/timeline.png was made."""
    import argparse
    import json
    ap = argparse.ArgumentParser(prog="timeline_svg.py", description=main.__doc__)
    ap.add_argument("trace")
    ap.add_argument("out")
    ap.add_argument("--width", type=int, default=1400)
    ap.add_argument("--title", default="npurt timeline")
    args = ap.parse_args(argv)
    with open(args.trace) as f:
        page = render(json.load(f), args.title, args.width)
    if page is None:
        print("timeline_svg.py: no timed events, or more than %d slices" % MAX_SLICES)
        return 1
    svg = page[page.index("<svg"):page.rindex("</svg>") + len("</svg>")]
    with open(args.out, "w") as f:
        f.write(svg + "\n")
    return 0


if __name__ == "__main__":
    import sys
    sys.exit(main(sys.argv[1:]))
