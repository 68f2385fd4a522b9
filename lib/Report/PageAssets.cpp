//===- PageAssets.cpp - the report page's fixed parts ---------------------===//
//
// Strategy: plain DOM and SVG built by a small inline script, no library
// and no external resource (the page must open offline). Every chart is a
// horizontal-bar or lane chart in a fixed 1000-unit-wide viewBox scaled to
// the window; colours come from one palette indexed by the instruction
// class's position, stalls grey, the roofline's limiting resource in the
// accent colour. The script trusts the JSON's structure (the C++ side
// writes it) but sets text with textContent only, never as markup.
//
//===----------------------------------------------------------------------===//
#include "PageAssets.h"

using namespace ktflow;

llvm::StringRef report::pageBody() {
  return R"html(<header>
<h1>ktflow report</h1>
<p id="subtitle"></p>
</header>
<main>
<section id="summary"><h2>Summary</h2><p class="note"></p><div class="content"></div></section>
<section id="timeline"><h2>Unit timeline</h2><p class="note"></p><div class="content"></div></section>
<section id="roofline"><h2>Roofline</h2><p class="note"></p><div class="content"></div></section>
<section id="links"><h2>Bytes per link</h2><p class="note"></p><div class="content"></div></section>
<section id="utilisation"><h2>Unit utilisation</h2><p class="note"></p><div class="content"></div></section>
<section id="decisions"><h2>Schedule decisions</h2><p class="note"></p><div class="content"></div></section>
</main>
<noscript><p>This report draws its charts with an inline script; allow JavaScript to see them.</p></noscript>
<pre id="render-error" hidden></pre>
)html";
}

llvm::StringRef report::pageStyle() {
  return R"css(body { font-family: system-ui, -apple-system, "Segoe UI", Helvetica, Arial, sans-serif;
  margin: 0 auto; max-width: 1200px; padding: 0 1.5em 3em; color: #222; background: #fff; }
header { border-bottom: 2px solid #4e79a7; margin-bottom: 1em; }
h1 { margin: 0.6em 0 0.1em; font-size: 1.6em; }
h2 { font-size: 1.2em; margin: 1.6em 0 0.4em; border-bottom: 1px solid #ddd; padding-bottom: 0.2em; }
#subtitle { color: #555; margin: 0 0 0.6em; font-family: ui-monospace, Menlo, monospace; font-size: 0.9em; }
.note { color: #555; font-size: 0.9em; margin: 0.2em 0 0.6em; max-width: 70em; }
svg { display: block; width: 100%; height: auto; font-size: 11px; }
svg text { fill: #333; }
svg .label { font-family: ui-monospace, Menlo, monospace; font-size: 10px; }
svg .axis line { stroke: #ccc; }
svg .axis text { fill: #777; font-size: 10px; }
svg .row-bg { fill: #f6f6f6; }
svg rect.res { fill: #4e79a7; }
svg rect.limit { fill: #e15759; }
svg rect.busy { fill: #59a14f; }
svg rect.stall { fill: #c8c8c8; }
svg rect.idle { fill: #f0f0f0; }
svg rect.bytes { fill: #76b7b2; }
svg line.marker { stroke: #222; stroke-width: 1.5; stroke-dasharray: 5 3; }
dl.summary { display: grid; grid-template-columns: max-content auto; gap: 0.25em 1.2em; margin: 0; }
dl.summary dt { color: #555; }
dl.summary dd { margin: 0; }
.match { color: #2e7d32; font-weight: 600; }
.mismatch { color: #c62828; font-weight: 600; }
.legend { display: flex; flex-wrap: wrap; gap: 0.3em 1em; font-size: 0.85em; margin: 0.3em 0; }
.legend span.swatch { display: inline-block; width: 0.9em; height: 0.9em; margin-right: 0.3em;
  vertical-align: -0.1em; border-radius: 2px; }
table { border-collapse: collapse; font-size: 0.85em; margin: 0.4em 0; }
th, td { text-align: left; padding: 0.15em 0.7em; border-bottom: 1px solid #eee; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
td.source-heuristic { color: #555; }
td.source-plan { color: #b07aa1; font-weight: 600; }
td.source-costmodel { color: #f28e2b; font-weight: 600; }
details { margin: 0.5em 0; }
summary { cursor: pointer; color: #4e79a7; }
#render-error { color: #c62828; white-space: pre-wrap; }
)css";
}

llvm::StringRef report::pageScript() {
  return R"js("use strict";
(function () {
  const SVG = "http://www.w3.org/2000/svg";
  const PALETTE = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948",
    "#b07aa1", "#ff9da7", "#9c755f", "#86bcb6", "#d37295", "#8cd17d", "#a0cbe8",
    "#ffbe7d", "#499894", "#f1ce63"];
  const STALL = "#c8c8c8";
  const WIDTH = 1000;
  const data = JSON.parse(document.getElementById("ktflow-data").textContent);
  const total = Math.max(1, data.cycles);

  function html(tag, attrs, parent, text) {
    const e = document.createElement(tag);
    for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    if (parent) parent.appendChild(e);
    return e;
  }
  function svg(tag, attrs, parent, text) {
    const e = document.createElementNS(SVG, tag);
    for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    if (parent) parent.appendChild(e);
    return e;
  }
  function num(x) { return Math.round(x).toLocaleString("en-US"); }
  function pct(x) { return (100 * x).toFixed(1) + "%"; }
  function bytes(n) {
    const units = ["B", "KiB", "MiB", "GiB", "TiB"];
    let i = 0;
    while (n >= 1024 && i + 1 < units.length) { n /= 1024; ++i; }
    return (i === 0 ? String(n) : n.toFixed(n < 10 ? 2 : n < 100 ? 1 : 0)) + " " + units[i];
  }
  function short(x) { return x >= 100 ? num(x) : String(Number(x.toPrecision(3))); }
  function content(id) { return document.querySelector("#" + id + " .content"); }
  function note(id, text) { document.querySelector("#" + id + " .note").textContent = text; }
  /// "@dma[core=3]" -> "@dma": the unit or link a row is an instance of.
  function kindOf(name) { const i = name.indexOf("["); return i < 0 ? name : name.slice(0, i); }
  function stateColour(classes, state) {
    return classes[state] === "stall" ? STALL : PALETTE[state % PALETTE.length];
  }
  function table(parent, headers, rows, numeric) {
    const t = html("table", {}, parent);
    const head = html("tr", {}, html("thead", {}, t));
    headers.forEach((name, i) => html("th", numeric[i] ? { class: "num" } : {}, head, name));
    const body = html("tbody", {}, t);
    for (const row of rows) {
      const tr = html("tr", {}, body);
      row.forEach((cell, i) => {
        const attrs = {};
        if (numeric[i]) attrs.class = "num";
        if (cell && typeof cell === "object") { attrs.class = cell.cls; cell = cell.text; }
        html("td", attrs, tr, String(cell));
      });
    }
    return t;
  }
  /// Ticks at 1, 2 or 5 times a power of ten, about `count` of them up to `max`.
  function ticks(max, count) {
    const raw = max / count, power = Math.pow(10, Math.floor(Math.log10(raw)));
    const step = [1, 2, 5, 10].map(m => m * power).find(s => s >= raw);
    const out = [];
    for (let v = 0; v <= max + 1e-9; v += step) out.push(v);
    return out;
  }
  /// Horizontal bars: rows of {label, value, text, cls}; an optional dashed
  /// marker at `marker.value` labelled `marker.label`.
  function barChart(parent, rows, max, marker) {
    const left = 230, right = 330, rowHeight = 20, top = marker ? 18 : 4;
    const span = WIDTH - left - right;
    const height = top + rows.length * rowHeight + 6;
    const chart = svg("svg", { viewBox: "0 0 " + WIDTH + " " + height, class: "bars" }, parent);
    const x = v => left + span * Math.min(1, v / Math.max(max, 1e-9));
    rows.forEach((row, i) => {
      const y = top + i * rowHeight;
      if (i % 2 === 0) svg("rect", { class: "row-bg", x: 0, y: y, width: WIDTH, height: rowHeight }, chart);
      svg("text", { class: "label", x: left - 6, y: y + 14, "text-anchor": "end" }, chart, row.label);
      const bar = svg("rect", { class: row.cls, x: left, y: y + 3,
        width: Math.max(1, x(row.value) - left), height: rowHeight - 6 }, chart);
      svg("title", {}, bar, row.label + ": " + row.text);
      svg("text", { x: x(row.value) + 6, y: y + 14 }, chart, row.text);
    });
    if (marker) {
      const mx = x(marker.value);
      svg("line", { class: "marker", x1: mx, x2: mx, y1: 12, y2: height }, chart);
      svg("text", { x: mx, y: 10, "text-anchor": "middle" }, chart, marker.label);
    }
    return chart;
  }

  function renderSummary() {
    document.getElementById("subtitle").textContent = data.command || data.title;
    const dl = html("dl", { class: "summary" }, content("summary"));
    const item = (term, text, cls) => {
      html("dt", {}, dl, term);
      return html("dd", cls ? { class: cls } : {}, dl, text);
    };
    item("kernel", data.title);
    item("architecture", data.arch);
    if (!data.compared) {
      item("result", "not compared (saved device code: no interpreter run)");
    } else if (data.match) {
      item("result", "match: " + data.outputs.length + " output" +
        (data.outputs.length === 1 ? "" : "s") + " agree with the interpreter", "match");
    } else {
      const bad = data.outputs.filter(o => o.mismatch !== undefined);
      item("result", "MISMATCH: " + bad.map(o => o.name + " at element " + o.mismatch +
        " (got " + o.got + ", expected " + o.expected + ")").join("; "), "mismatch");
    }
    item("simulated", num(data.cycles) + " cycles (" + data.time + ")");
    const r = data.roofline;
    if (r && !r.error && r.limiting !== undefined) {
      const limit = r.resources[r.limiting];
      item("roofline bound", num(r.bound) + " cycles, limited by " + limit.name);
      item("cycles / bound", (data.cycles / Math.max(1, r.bound)).toFixed(2) + " (1.00 is the physical limit)");
    }
    item("units", data.units.length + " unit instances, " + data.links.length + " links used");
    item("decisions", data.decisions.length + " recorded");
  }

  function renderTimeline() {
    const t = data.timeline, units = data.units;
    note("timeline", t.binned
      ? num(t.events) + " trace events, more than the " + num(t.maxExactEvents) +
        " this page draws one by one: each row is cut into bins of " + num(t.binWidth) +
        " cycles and every bin shows the state occupying most of it (blank: mostly idle)."
      : num(t.events) + " trace events, each drawn as it happened; grey is a stall (hover for what it waited on).");
    const root = content("timeline");
    const legend = html("div", { class: "legend" }, root);
    t.classes.forEach((name, i) => {
      const item = html("span", {}, legend);
      html("span", { class: "swatch", style: "background:" + stateColour(t.classes, i) }, item);
      item.appendChild(document.createTextNode(name));
    });
    const left = 190, rowHeight = 12, top = 22, span = WIDTH - left - 10;
    const height = top + units.length * rowHeight + 4;
    const chart = svg("svg", { viewBox: "0 0 " + WIDTH + " " + height, class: "lanes" }, root);
    const x = c => left + span * c / total;
    const axis = svg("g", { class: "axis" }, chart);
    for (const v of ticks(total, 8)) {
      svg("line", { x1: x(v), x2: x(v), y1: top - 4, y2: height }, axis);
      svg("text", { x: x(v), y: top - 8, "text-anchor": "middle" }, axis, num(v));
    }
    units.forEach((unit, i) => {
      const y = top + i * rowHeight;
      if (i % 2 === 0) svg("rect", { class: "row-bg", x: left, y: y, width: span, height: rowHeight }, chart);
      svg("text", { class: "label", x: left - 6, y: y + 9, "text-anchor": "end" }, chart, unit.name);
    });
    const segments = svg("g", { class: "segments" }, chart);
    for (const [unit, start, end, state, detail] of t.segments) {
      const rect = svg("rect", { x: x(start), y: top + unit * rowHeight + 1,
        width: Math.max(0.4, x(end) - x(start)), height: rowHeight - 2,
        fill: stateColour(t.classes, state) }, segments);
      if (!t.binned)
        svg("title", {}, rect, units[unit].name + ": " + t.classes[state] +
          (detail !== undefined ? " (" + t.details[detail] + ")" : "") +
          ", cycles " + num(start) + "-" + num(end));
    }
    html("p", { class: "note" }, root, "cycles 0 to " + num(data.cycles) + " (" + data.time + ")");
  }

  function renderRoofline() {
    const r = data.roofline, root = content("roofline");
    if (!r) {
      note("roofline", "No roofline: saved device code carries no workload (run the kernel itself to see one).");
      return;
    }
    if (r.error) { note("roofline", "No roofline: " + r.error); return; }
    note("roofline", "Each bar is one resource's work over the throughput of its active instances: " +
      "the fewest cycles that resource needs. The longest bar is the roofline bound and its resource " +
      "the limit (highlighted); the dashed line is the simulated time.");
    const rows = r.resources.map((res, i) => ({
      label: res.name,
      value: res.cycles,
      cls: i === r.limiting ? "limit" : "res",
      text: (res.unit === "bytes" ? bytes(res.work) : num(res.work) + " " + res.unit) + " / " +
        short(res.throughput) + (res.unit === "bytes" ? " B" : "") + " per cycle (" +
        res.instances + "\u00d7) = " + num(res.cycles) + " cycles",
    }));
    barChart(root, rows, Math.max(data.cycles, r.bound) * 1.02,
      { value: data.cycles, label: "simulated " + num(data.cycles) + " cycles" });
    if (r.limiting !== undefined)
      html("p", {}, root, "Bound " + num(r.bound) + " cycles, limited by " +
        r.resources[r.limiting].name + "; simulated " + num(data.cycles) + " cycles = " +
        (data.cycles / Math.max(1, r.bound)).toFixed(2) + "\u00d7 the bound.");
  }

  /// Bars per link (or port) kind, and every instance in a table.
  function renderTraffic(root, stats, what) {
    const kinds = new Map();
    for (const s of stats) {
      const k = kindOf(s.name);
      if (!kinds.has(k)) kinds.set(k, { bytes: 0, instances: 0, busy: 0 });
      const agg = kinds.get(k);
      agg.bytes += s.bytes; agg.instances += 1; agg.busy = Math.max(agg.busy, s.busy);
    }
    const rows = [...kinds].map(([name, agg]) => ({
      label: name, value: agg.bytes, cls: "bytes",
      text: bytes(agg.bytes) + " over " + agg.instances + " instance" + (agg.instances === 1 ? "" : "s") +
        ", busiest " + pct(agg.busy / total) + " busy",
    }));
    const max = Math.max(1, ...rows.map(r => r.value));
    barChart(root, rows, max * 1.02);
    const details = html("details", {}, root);
    const limit = 512;
    html("summary", {}, details, "every " + what + " instance (" + stats.length + ")");
    table(details, [what, "bytes", "busy cycles", "busy"],
      stats.slice(0, limit).map(s => [s.name, num(s.bytes), num(s.busy), pct(s.busy / total)]),
      [false, true, true, true]);
    if (stats.length > limit)
      html("p", { class: "note" }, details, "first " + limit + " of " + stats.length + " shown");
  }

  function renderLinks() {
    const root = content("links");
    if (data.links.length === 0 && data.ports.length === 0) {
      note("links", "No link or memory port carried traffic.");
      return;
    }
    note("links", "Bytes moved over every link the run used, per link (all its instances together), " +
      "with the busiest instance's share of the simulated time; memory ports below.");
    renderTraffic(root, data.links, "link");
    if (data.ports.length) {
      html("h3", {}, root, "Memory ports");
      renderTraffic(root, data.ports, "port");
    }
  }

  function renderUtilisation() {
    const root = content("utilisation");
    note("utilisation", "Share of the simulated time each unit spent busy (executing, green), " +
      "stalled (blocked on a FIFO or semaphore, grey) and idle, averaged over its instances.");
    const kinds = new Map();
    for (const u of data.units) {
      const k = kindOf(u.name);
      if (!kinds.has(k)) kinds.set(k, { busy: 0, stall: 0, instances: 0 });
      const agg = kinds.get(k);
      agg.busy += u.busy; agg.stall += u.stall; agg.instances += 1;
    }
    const left = 230, right = 250, rowHeight = 20, span = WIDTH - left - right;
    const height = kinds.size * rowHeight + 6;
    const chart = svg("svg", { viewBox: "0 0 " + WIDTH + " " + height, class: "utilisation" }, root);
    let i = 0;
    for (const [name, agg] of kinds) {
      const y = i++ * rowHeight, busy = agg.busy / (agg.instances * total);
      const stall = agg.stall / (agg.instances * total);
      svg("text", { class: "label", x: left - 6, y: y + 14, "text-anchor": "end" }, chart,
        name + " \u00d7" + agg.instances);
      svg("rect", { class: "idle", x: left, y: y + 3, width: span, height: rowHeight - 6 }, chart);
      svg("rect", { class: "busy", x: left, y: y + 3, width: span * busy, height: rowHeight - 6 }, chart);
      svg("rect", { class: "stall", x: left + span * busy, y: y + 3,
        width: span * Math.min(stall, 1 - busy), height: rowHeight - 6 }, chart);
      svg("text", { x: left + span + 8, y: y + 14 }, chart, pct(busy) + " busy, " + pct(stall) + " stalled");
    }
    const details = html("details", {}, root);
    html("summary", {}, details, "every unit instance (" + data.units.length + ")");
    table(details, ["unit", "busy cycles", "stall cycles", "busy", "stalled", "instructions", "finished at"],
      data.units.map(u => [u.name, num(u.busy), num(u.stall), pct(u.busy / total), pct(u.stall / total),
        num(u.instructions), u.finished ? num(u.finish) : "blocked"]),
      [false, true, true, true, true, true, true]);
  }

  function renderDecisions() {
    const root = content("decisions");
    if (!data.hasDecisions) {
      note("decisions", "No decisions: saved device code does not carry its schedule.");
      return;
    }
    const sources = new Map();
    for (const d of data.decisions) sources.set(d.source, (sources.get(d.source) || 0) + 1);
    note("decisions", data.decisions.length + " decisions of the schedule (" +
      [...sources].map(([s, n]) => n + " " + s).join(", ") + "). A plan file (ktflow compile " +
      "--dump-plan) holds the replayable ones; --plan replays an edited plan, and its decisions " +
      "show the source \"plan\".");
    table(root, ["kernel", "group", "on", "decision", "value", "source"],
      data.decisions.map(d => [d.kernel, d.group || "-", d.where, d.name, d.value,
        { text: d.source, cls: "source-" + d.source }]),
      [false, false, false, false, false, false]);
  }

  const errors = [];
  for (const render of [renderSummary, renderTimeline, renderRoofline, renderLinks,
                        renderUtilisation, renderDecisions]) {
    try { render(); } catch (e) { errors.push(render.name + ": " + e); }
  }
  if (errors.length) {
    const pre = document.getElementById("render-error");
    pre.hidden = false;
    pre.textContent = errors.join("\n");
  }
  document.body.setAttribute("data-rendered", errors.length ? "error" : "yes");
})();
)js";
}
