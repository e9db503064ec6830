// One renderer for every chart on the history pages. A chart is design-32's shape — {title, kind: "line" | "bar" |
// "scatter" | "band" | "step", x: [numbers], x_label, y_label, series: [{name, seat?, values: [number | null]}],
// band?: {lo: [...], hi: [...], label}} — whatever the game; the page's own charts add x_labels (a name per x) and
// y_floor (false: the value axis need not start at 0). Drawn by uPlot (static/uPlot.iife.min.js, shipped with the
// companion). Colours are the page's CSS custom properties, so light and dark follow prefers-color-scheme; every
// chart is drawn again when the scheme changes, and resized with its box. Text is set with textContent only (dom.js).
"use strict";

const Charts = (() => {
  const HEIGHT = 220;
  const KINDS = ["line", "bar", "scatter", "band", "step"];
  const drawn = [];  // {box, chart, plot}
  const css = (name) => getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  const colour = (i) => css("--series-" + ((i % 8) + 1));
  const number = (v) => (v === null || v === undefined || Number.isNaN(v) ? "—" :
    Math.abs(v) >= 100 || Number.isInteger(v) ? Math.round(v).toLocaleString() : (+v.toFixed(3)).toString());

  function sizeOf(box) { return {width: Math.max(220, Math.floor(box.clientWidth)), height: HEIGHT}; }

  // uPlot needs x ascending: the points of a chart whose x is not are put in order (with their values)
  function ordered(chart) {
    const x = chart.x.slice();
    const idx = x.map((_, i) => i);
    if (!x.every((v, i) => i === 0 || x[i - 1] <= v)) idx.sort((a, b) => x[a] - x[b]);
    const pick = (arr) => idx.map((i) => (arr && arr[i] !== undefined ? arr[i] : null));
    return {x: pick(x), series: chart.series.map((s) => pick(s.values)),
      band: chart.band ? [pick(chart.band.hi), pick(chart.band.lo)] : null};
  }

  function axis(label, extra) {
    return Object.assign({stroke: css("--fg"), font: "12px system-ui, sans-serif",
      labelFont: "600 12px system-ui, sans-serif", label: label || undefined, labelSize: label ? 16 : 0,
      labelGap: 0, grid: {stroke: css("--grid"), width: 1}, ticks: {stroke: css("--grid"), width: 1, size: 4}},
    extra || {});
  }

  function step(x) {
    let d = Infinity;
    for (let i = 1; i < x.length; i++) if (x[i] - x[i - 1] > 0) d = Math.min(d, x[i] - x[i - 1]);
    return Number.isFinite(d) ? d : 1;
  }

  function seriesOf(chart, s, i, k, dx) {
    const c = colour(s.seat ? s.seat - 1 : i);
    const base = {label: s.name, stroke: c, width: 2, spanGaps: true};
    if (chart.kind === "scatter")
      return Object.assign(base, {width: 0, paths: () => null, points: {show: true, size: 9, fill: c, stroke: c}});
    if (chart.kind === "bar") {
      const w = (0.8 * dx) / k;  // bars of one x side by side, each series its own slot
      return Object.assign(base, {width: 1, fill: c + "b0", points: {show: false}, spanGaps: false,
        paths: uPlot.paths.bars({disp: {
          x0: {unit: 1, values: (u) => u.data[0].map((v) => v - 0.4 * dx + i * w)},
          size: {unit: 1, values: () => [w]}}})});
    }
    if (chart.kind === "step") Object.assign(base, {paths: uPlot.paths.stepped({align: 1})});
    return Object.assign(base, {points: {show: chart.x.length <= 40, size: 5, fill: c}});
  }

  const INTEGERS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000];
  const whole = (arrs) => arrs.every((a) => a.every((v) => v === null || Number.isInteger(v)));
  const short = (t) => (t.length > 11 ? t.slice(0, 10) + "…" : t);  // an axis label; the table says it whole

  // uPlot's options and its data columns (x first) for `chart`
  function build(chart, data, size) {
    const k = chart.series.length;
    const dx = step(data.x);
    const series = [{label: chart.x_label || "", value: (u, v) =>
      (chart.x_labels ? chart.x_labels[v - 1] || "" : number(v))}];
    const cols = [data.x];
    const opts = {width: size.width, height: size.height, series,
      legend: {live: false, markers: {fill: (u, i) => u.series[i].stroke(u, i)}},  // a swatch in the series' colour
      cursor: {show: false}, scales: {x: {time: false}, y: {}},
      axes: [axis(chart.x_label), axis(chart.y_label, {size: 50, space: 22})]};
    if (data.band && chart.kind === "bar") {  // a range per x, shaded behind its bars
      series.push({label: "", class: "band-edge", stroke: css("--band-edge"), width: 0, fill: css("--band"),
        points: {show: false}, paths: uPlot.paths.bars({disp: {
          x0: {unit: 1, values: (u) => u.data[0].map((v) => v - 0.45 * dx)}, size: {unit: 1, values: () => [0.9 * dx]},
          y0: {unit: 1, values: () => data.band[1]}, y1: {unit: 1, values: () => data.band[0]}}})});
      cols.push(data.band[0]);
    }
    chart.series.forEach((s, i) => { series.push(seriesOf(chart, s, i, k, dx)); cols.push(data.series[i]); });
    if (data.band && chart.kind !== "bar") {  // a band between two lines
      const edge = {label: "", class: "band-edge", stroke: css("--band-edge"), width: 1, dash: [4, 4],
        points: {show: false}, spanGaps: true};
      series.push(Object.assign({}, edge), Object.assign({}, edge));
      cols.push(data.band[0], data.band[1]);
      opts.bands = [{series: [series.length - 2, series.length - 1], fill: css("--band")}];
    }
    const values = [...data.series, ...(data.band || [])];
    const lo = Math.min(...values.flat().filter((v) => v !== null));
    const hi = Math.max(...values.flat().filter((v) => v !== null));
    const pad = (hi - lo) * 0.08 || 1;
    if (chart.kind === "bar" || chart.kind === "scatter") {  // room for the first and last bar or point
      const room = chart.kind === "bar" ? 0.6 * dx : 0.4 * dx;
      opts.scales.x.range = () => [data.x[0] - room, data.x[data.x.length - 1] + room];
      if (chart.kind === "scatter") opts.scales.y.range = () => [lo - pad, hi + pad];
    }
    if (chart.kind === "bar") {
      opts.scales.y.range = chart.y_floor === false ? () => [lo - pad, hi + pad] :
        () => [Math.min(0, lo - (lo < 0 ? pad : 0)), Math.max(0, hi + (hi > 0 ? pad : 0)) || 1];
    }
    if (hi === lo && chart.kind !== "bar") opts.scales.y.range = () => [lo - 1, hi + 1];  // a flat line: near it
    if (whole([data.x])) opts.axes[0].incrs = INTEGERS;
    if (whole(values)) opts.axes[1].incrs = INTEGERS;
    if (chart.x_labels) {
      opts.axes[0].splits = () => data.x;
      opts.axes[0].values = (u, splits) => splits.map((v) => short(chart.x_labels[v - 1] || ""));
      if (chart.x_labels.length > 3) {  // names slanted, the last one room to end in
        Object.assign(opts.axes[0], {rotate: -40, size: 70});
        opts.padding = [12, 28, 0, 0];
      }
    }
    return {opts, cols};
  }

  function table(chart, data) {
    const head = [chart.x_label || "", ...chart.series.map((s) => s.name)];
    if (data.band) head.push("band from", "band to");
    const rows = data.x.slice(0, 300).map((x, i) => [chart.x_labels ? chart.x_labels[x - 1] : number(x),
      ...data.series.map((v) => number(v[i])),
      ...(data.band ? [number(data.band[1][i]), number(data.band[0][i])] : [])]);
    return el("details", {class: "numbers"}, el("summary", {text: "The numbers"}),
      el("div", {class: "scroll"}, el("table", {}, el("thead", {}, el("tr", {}, head.map((h) =>
        el("th", {scope: "col", text: h})))), el("tbody", {}, rows.map((r) => el("tr", {}, r.map((c) =>
        el("td", {text: c}))))))));
  }

  // draw `chart` into `box` (emptied first); returns the box
  function draw(box, chart) {
    const figure = el("figure", {class: "chart", "data-kind": chart.kind, "data-id": chart.id || null});
    figure.append(el("figcaption", {text: chart.title || ""}));
    box.replaceChildren(figure);
    if (!KINDS.includes(chart.kind) || !Array.isArray(chart.x) || !Array.isArray(chart.series)) {
      figure.append(el("p", {class: "muted", text: "This chart cannot be drawn here (kind " + chart.kind + ")."}));
      return box;
    }
    if (!chart.x.length) {
      figure.append(el("p", {class: "muted", text: "Nothing to draw yet."}));
      return box;
    }
    const data = ordered(chart);
    const holder = el("div", {class: "plot", role: "img", "aria-label": (chart.title || "chart") + ": " +
      chart.series.map((s) => s.name).join(", ")});
    figure.append(holder);
    if (chart.band && chart.band.label) figure.append(el("p", {class: "caption", text: "Shaded: " + chart.band.label}));
    figure.append(table(chart, data));
    if (typeof uPlot === "undefined") {
      holder.append(el("p", {class: "muted", text: "The chart library did not load; the numbers are below."}));
      return box;
    }
    drawn.push({box: holder, chart, data, plot: plot(chart, data, holder)});
    return box;
  }

  function plot(chart, data, holder) {
    const {opts, cols} = build(chart, data, sizeOf(holder));
    return new uPlot(opts, cols, holder);
  }

  function redraw() {  // the colour scheme changed: every chart again in the new colours
    for (const e of drawn) {
      e.plot.destroy();
      e.plot = plot(e.chart, e.data, e.box);
    }
  }

  function clear() {
    for (const e of drawn.splice(0)) e.plot.destroy();
  }

  let pending = null;
  window.addEventListener("resize", () => {
    clearTimeout(pending);
    pending = setTimeout(() => { for (const e of drawn) e.plot.setSize(sizeOf(e.box)); }, 120);
  });
  if (window.matchMedia) window.matchMedia("(prefers-color-scheme: dark)").addEventListener("change", redraw);

  return {draw, clear, redraw, number, count: () => drawn.length};
})();
