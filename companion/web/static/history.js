// The table's history on a phone: every saved game (filtered by game and player), standings, luck against the exact
// odds, dice fairness as a picture, the names (the host phone renames and merges), and one game's story with its
// charts (/story/<id>). Data from /api/history and /api/story/<id>; charts by charts.js. Game text is set with
// textContent only, never parsed as HTML.
"use strict";

const $ = (id) => document.getElementById(id);
const PAGE = 40;  // games shown at once; "Show more" adds as many
const TABS = ["games", "standings", "luck", "dice", "names"];
let all = null;    // the unfiltered document: the filters' choices and the names
let doc = null;    // the document for the filters chosen
let me = {};       // this phone, from /api/state (host rights, CSRF token)
let shown = PAGE;
let luckOf = "";   // the player whose battles the luck line follows

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

async function getJSON(url) {
  try {
    const r = await fetch(url, {credentials: "same-origin"});
    const data = await r.json().catch(() => ({error: r.statusText}));
    return {ok: r.ok, status: r.status, data};
  } catch (e) {
    return {ok: false, status: 0, data: {error: "The companion cannot be reached: is this phone on its network?"}};
  }
}

function show(...nodes) {
  Charts.clear();
  $("view").replaceChildren(...nodes.flat(Infinity).filter((n) => n));
}

function problem(r) { show(el("p", {class: "problem", role: "alert", text: r.data.error || "Not available"})); }

// ------------------------------------------------------------------ words for numbers
function duration(s) {
  if (typeof s !== "number") return "";
  const m = Math.round(s / 60);
  return m < 60 ? m + " min" : Math.floor(m / 60) + " h" + (m % 60 ? " " + (m % 60) + " min" : "");
}
const DATE = new Intl.DateTimeFormat(undefined, {weekday: "short", day: "numeric", month: "short", year: "numeric",
  hour: "2-digit", minute: "2-digit"});  // made once: a formatter per card would cost a long list a second
function when(iso) {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? "" : DATE.format(d);
}
const pct = (v) => (typeof v === "number" ? Math.round(v * 100) + "%" : "—");
const num = (v) => (typeof v === "number" ? Charts.number(v) : "—");
const tenth = (v) => (typeof v === "number" ? v.toFixed(1) : "—");
const signed = (v) => (typeof v === "number" ? (v > 0 ? "+" : v < 0 ? "−" : "") + Math.abs(v).toFixed(2) : "—");
const titleOf = (id) => { const g = (all || doc).games.find((x) => x.game === id); return g ? g.title : id; };
const STATUS = {active: "in progress", abandoned: "stopped", ended: ""};
const HEAD = ["Player", "Plays", "Wins", "Win %", "Avg place", "Avg score"];

function table(head, rows, cls) {
  return el("div", {class: "scroll"}, el("table", {class: cls || null},
    el("thead", {}, el("tr", {}, head.map((h, i) => el("th", {scope: "col", class: i ? "n" : null, text: h})))),
    el("tbody", {}, rows.map((r) => el("tr", {}, r.map((c, i) => i ? el("td", {class: "n", text: c}) :
      el("th", {scope: "row", text: c})))))));
}

// ------------------------------------------------------------------ the games
function gameCard(g) {
  const ps = g.players.slice().sort((a, b) => (a.place || 99) - (b.place || 99) || a.seat - b.seat);
  const badge = g.hidden ? "hidden" : STATUS[g.status] !== undefined ? STATUS[g.status] : g.status;
  const meta = [duration(g.duration_s), typeof g.rounds === "number" ? g.rounds + " rounds" : ""].filter((x) => x);
  return el("li", {class: "game card" + (g.status === "active" ? " live" : ""), "data-game": g.game},
    el("a", {href: "/story/" + g.id, class: "game-link"},
      el("span", {class: "game-title", text: g.title}), el("span", {class: "when", text: when(g.started)}),
      badge ? el("span", {class: "badge", text: badge}) : null),
    el("p", {class: "who"}, ps.map((p, i) => [i ? " · " : "", el("span", {class: p.winner ? "winner" : null},
      (p.place ? p.place + ".\u00a0" : "") + p.name + (p.winner ? " ★" : "") + ("score" in p ? " " + p.score : ""))])),
    el("p", {class: "result", text: g.status === "active" ? "Playing now" : g.result || ""}),
    meta.length ? el("p", {class: "muted", text: meta.join(" · ")}) : null);
}

function gamesView() {
  const games = doc.games.slice().reverse();  // newest first
  if (!games.length) return [el("p", {text: "No saved games match."})];
  const list = el("ol", {id: "games", class: "games"}, games.slice(0, shown).map(gameCard));
  const more = el("button", {id: "more", class: "secondary", onclick: () => {  // the next ones below the last
    list.append(...games.slice(shown, shown + PAGE).map(gameCard));
    shown += PAGE;
    label();
  }});
  const label = () => {
    const left = games.length - shown;
    more.textContent = "Show " + Math.min(PAGE, left) + " more of " + left;
    if (left <= 0) more.remove();
  };
  label();
  return [list, games.length > shown ? more : null];
}

// ------------------------------------------------------------------ standings
function standingsView() {
  const names = Object.keys(doc.players).sort((a, b) => doc.players[b].wins - doc.players[a].wins ||
    doc.players[b].plays - doc.players[a].plays || a.localeCompare(b));
  if (!names.length) return [el("p", {text: "No finished games yet: standings come with the first."})];
  const out = [el("div", {id: "chart-wins"})];
  const row = (n, p, scored) => [n, num(p.plays), num(p.wins), pct(p.win_rate), tenth(p.avg_place),
    ...(scored ? [tenth(p.avg_score)] : [])];
  const head = (first, scored) => [first, ...HEAD.slice(1, scored ? 6 : 5)];
  const scores = (rows) => rows.some((p) => typeof p.avg_score === "number");
  out.push(el("h2", {text: "Every game"}), table(head("Player", false), names.map((n) => row(n, doc.players[n])),
    "standings"));
  const player = $("filter-player").value;
  if (player && doc.players[player]) {
    const gs = doc.players[player].games || {};
    const sc = scores(Object.values(gs));
    out.push(el("h2", {text: player + ", game by game"}), table(head("Game", sc),
      Object.keys(gs).map((id) => row(titleOf(id), gs[id], sc)), "standings"));
  }
  for (const [id, s] of Object.entries(doc.standings).sort((a, b) => b[1].plays - a[1].plays)) {
    const bits = [s.plays + (s.plays === 1 ? " play" : " plays")];
    if (s.longest_s) bits.push("longest " + duration(s.longest_s), "shortest " + duration(s.shortest_s));
    out.push(el("h2", {text: titleOf(id)}), el("p", {class: "muted", text: bits.join(" · ")}),
      table(head("Player", scores(s.players)), s.players.map((p) => row(p.name, p, scores(s.players))),
        "standings"));
  }
  return out;
}

function drawStandings() {
  const names = Object.keys(doc.players).sort((a, b) => doc.players[b].plays - doc.players[a].plays).slice(0, 12);
  if (!names.length || !$("chart-wins")) return;
  Charts.draw($("chart-wins"), {id: "wins", title: "Plays and wins", kind: "bar", x_label: "", y_label: "Games",
    x: names.map((_, i) => i + 1), x_labels: names, series: [
      {name: "Plays", values: names.map((n) => doc.players[n].plays)},
      {name: "Wins", values: names.map((n) => doc.players[n].wins)}]});
}

// ------------------------------------------------------------------ luck: won − chance, with what chance explains
function sides(b) {  // each battle from both sides: [name, chance, won]
  return [[b.attacker, b.p_attacker_wins, b.attacker_won ? 1 : 0],
          [b.defender, 1 - b.p_attacker_wins, b.attacker_won ? 0 : 1]];
}

// the 95% band of Σ(won − chance) after each battle: exact (Poisson-binomial) for up to 400 battles, normal beyond
function band(ps) {
  const lo = [], hi = [];
  let dist = [1], mean = 0, v = 0;
  ps.forEach((p) => {
    mean += p; v += p * (1 - p);
    if (ps.length > 400) { lo.push(-1.96 * Math.sqrt(v)); hi.push(1.96 * Math.sqrt(v)); return; }
    const next = new Array(dist.length + 1).fill(0);
    dist.forEach((q, k) => { next[k] += q * (1 - p); next[k + 1] += q * p; });
    dist = next;
    let acc = 0, a = null, b = null;
    dist.forEach((q, k) => { acc += q; if (a === null && acc >= 0.025) a = k; if (b === null && acc >= 0.975) b = k; });
    lo.push(+(a - mean).toFixed(4)); hi.push(+(b - mean).toFixed(4));
  });
  return {lo, hi};
}

function luckView() {
  const battles = doc.battles || [];
  if (!battles.length) return [el("p", {text: "No battles here yet: luck is measured in Sovereign's battles, " +
    "against the odds the companion showed before each one."})];
  const per = {};
  for (const b of battles) for (const [n, p, w] of sides(b)) (per[n] = per[n] || []).push([p, w, b]);
  const names = Object.keys(per).sort((a, b) => per[b].length - per[a].length);
  const filter = $("filter-player").value;
  if (!per[luckOf]) luckOf = per[filter] ? filter : names[0];
  const pick = el("select", {id: "luck-player", "aria-label": "Whose battles",
    onchange: (e) => { luckOf = e.target.value; render(); }}, names.map((n) => el("option", {value: n,
    selected: n === luckOf}, n + " (" + per[n].length + ")")));
  const odd = battles.map((b) => [b, b.attacker_won ? 1 - b.p_attacker_wins : b.p_attacker_wins])
    .sort((a, b) => b[1] - a[1]).slice(0, 3).map(([b]) => el("li", {text: (b.attacker_won ? b.attacker : b.defender) +
      " won at " + pct(b.attacker_won ? b.p_attacker_wins : 1 - b.p_attacker_wins) + " against " +
      (b.attacker_won ? b.defender : b.attacker) + " (game " + b.game_id + (b.round ? ", round " + b.round : "") + ")"}));
  return [el("p", {class: "muted", text: "Luck is what a player won minus the chance they had, added up over " +
      "their battles; the two sides of a battle add up to zero. Inside the shaded band, chance alone explains it."}),
    el("div", {id: "chart-luck-players"}),
    el("label", {class: "inline"}, "Battle by battle: ", pick), el("div", {id: "chart-luck-line"}),
    el("div", {id: "chart-calibration"}), el("h2", {text: "The least likely wins"}), el("ul", {class: "odd"}, odd)];
}

function drawLuck() {
  const battles = doc.battles || [];
  if (!battles.length || !$("chart-luck-players")) return;
  const per = {};
  for (const b of battles) for (const [n, p, w] of sides(b)) (per[n] = per[n] || []).push([p, w]);
  const luck = (n) => +per[n].reduce((s, [p, w]) => s + w - p, 0).toFixed(3);
  const names = Object.keys(per).sort((a, b) => luck(b) - luck(a));
  const sd = (n) => 1.96 * Math.sqrt(per[n].reduce((s, [p]) => s + p * (1 - p), 0));
  Charts.draw($("chart-luck-players"), {id: "luck-players", title: "Luck by player", kind: "bar", x_label: "",
    y_label: "Won − chance", x: names.map((_, i) => i + 1), x_labels: names,
    series: [{name: "Luck", values: names.map(luck)}],
    band: {lo: names.map((n) => -sd(n)), hi: names.map(sd), label: "what chance alone explains (95%)"}});
  const mine = per[luckOf] || [];
  let sum = 0;
  const b = band(mine.map(([p]) => p));
  Charts.draw($("chart-luck-line"), {id: "luck-line", title: luckOf + ": luck battle by battle", kind: "band",
    x_label: "Battle", y_label: "Won − chance", x: mine.map((_, i) => i + 1),
    series: [{name: luckOf, values: mine.map(([p, w]) => +(sum += w - p).toFixed(3))}],
    band: {lo: b.lo, hi: b.hi, label: "what chance alone explains (95%)"}});
  const buckets = [0, 1, 2, 3, 4].map(() => ({n: 0, p: 0, w: 0}));
  for (const x of battles) {
    const k = Math.min(4, Math.floor(x.p_attacker_wins * 5));
    buckets[k].n += 1; buckets[k].p += x.p_attacker_wins; buckets[k].w += x.attacker_won ? 1 : 0;
  }
  Charts.draw($("chart-calibration"), {id: "calibration", title: "Attackers' wins against their odds", kind: "bar",
    x_label: "Attacker's chance", y_label: "Battles won", x: [1, 2, 3, 4, 5],
    x_labels: ["0–20%", "20–40%", "40–60%", "60–80%", "80–100%"], series: [
      {name: "Expected", values: buckets.map((k) => +k.p.toFixed(2))}, {name: "Won", values: buckets.map((k) => k.w)}]});
}

// ------------------------------------------------------------------ dice: the counts against a fair die's band
function diceView() {
  const dice = Object.entries(doc.dice || {}).filter(([, d]) => d && d.counts && d.counts.length);
  if (!dice.length) return [el("p", {text: "No dice rolled on the roller or typed yet."})];
  return dice.map(([die, d]) => {
    const [lo, hi] = d.band || [null, null];
    const out = d.counts.map((c, i) => [i + 1, c]).filter(([, c]) => lo !== null && (c < lo || c > hi));
    const n = d.counts.reduce((a, b) => a + b, 0);
    const verdict = !out.length ? "Every face is inside the band: nothing a fair die would not do." :
      out.map(([f, c]) => "The " + f + " came up " + c.toLocaleString() + " times, " + (c > hi ? "more" : "fewer") +
        " than a fair die gives (" + Math.round(lo) + " to " + Math.round(hi) + ")").join("; ") +
      ". Roll it more, or check the die.";
    return el("div", {class: "die", id: "die-" + die}, el("div", {class: "die-chart"}),
      el("p", {class: out.length ? "suspect" : "muted", text: n.toLocaleString() + " rolls, " + Charts.number(
        d.expected) + " a face expected. " + verdict}));
  });
}

function drawDice() {
  for (const [die, d] of Object.entries(doc.dice || {})) {
    const box = document.querySelector("#die-" + die + " .die-chart");
    if (!box) continue;
    const k = d.counts.length;
    Charts.draw(box, {id: "dice-" + die, title: die + ": rolls per face", kind: "bar", x_label: "Face",
      y_label: "Rolls", y_floor: false, x: d.counts.map((_, i) => i + 1), series: [{name: "Rolls", values: d.counts}],
      band: d.band ? {lo: new Array(k).fill(d.band[0]), hi: new Array(k).fill(d.band[1]),
        label: "what a fair die gives (95%, all faces at once)"} : undefined});
  }
}

// ------------------------------------------------------------------ names: rename and merge (the host phone)
async function rename(name, to, say) {
  const r = await fetch("/api/names", {method: "POST", credentials: "same-origin", body: JSON.stringify({name, to}),
    headers: {"Content-Type": "application/json", "X-CSRF-Token": me.csrf || ""}}).catch(() => null);
  const data = r ? await r.json().catch(() => ({})) : {error: "The companion cannot be reached"};
  if (!r || !r.ok) { say(data.error || "Not renamed", false); return; }
  await load(true);
  say(data.message, true);
}

function namesView() {
  if (!me.host) return [el("p", {text: "Only the host phone renames and merges players. Ask for Host on the " +
    "table's page, then come back."}), el("a", {href: "/", text: "The table's page"})];
  const status = el("p", {id: "names-status", role: "status", class: "toast"});
  const say = (text, ok) => { const s = $("names-status") || status; s.textContent = text; s.className = "toast " +
    (ok ? "good" : "bad"); };
  const names = Object.keys(all.players).sort((a, b) => a.localeCompare(b));
  const aliases = Object.entries(all.names || {});
  const rows = names.map((n) => {
    const input = el("input", {type: "text", value: n, maxlength: 40, "aria-label": "New name for " + n});
    const go = el("button", {class: "secondary", onclick: () => rename(n, input.value.trim(), say)}, "Rename");
    input.addEventListener("input", () => {
      const v = input.value.trim();
      go.textContent = names.includes(v) && v !== n ? "Merge into " + v : "Rename";
      go.disabled = !v || v === n;
    });
    go.disabled = true;
    const also = aliases.filter(([, to]) => to === n).map(([a]) => a);
    return el("li", {class: "card"}, el("h3", {text: n}), also.length ? el("p", {class: "muted", text: "Also " +
      "played as: " + also.join(", ")}) : null, el("div", {class: "stepper"}, input, go),
      also.map((a) => el("button", {class: "secondary", onclick: () => rename(a, a, say)}, "Separate " + a)));
  });
  return [el("p", {class: "muted", text: "A rename or merge changes how the history counts a name. The saved " +
    "games stay exactly as they were played. Typing a name that has played already merges the two."}), status,
    el("ul", {id: "names", class: "cards"}, rows)];
}

// ------------------------------------------------------------------ one game's story
async function story(id) {
  $("tabs").hidden = true;
  $("filters").hidden = true;
  const r = await getJSON("/api/story/" + encodeURIComponent(id));
  if (!r.ok) { problem(r); return; }
  const s = r.data;
  $("title").textContent = s.title + " · game " + s.id;
  document.title = s.title + " (game " + s.id + ") — Sovereign Companion";
  const rows = (s.table || []).slice().sort((a, b) => (a.place || 99) - (b.place || 99) || a.seat - b.seat);
  const scored = rows.some((p) => "score" in p);
  const meta = [s.started ? when(s.started) : "", duration(s.duration_s),
    typeof s.rounds === "number" ? s.rounds + " rounds" : ""].filter((x) => x).join(" · ");
  const boxes = (s.charts || []).map(() => el("div", {class: "story-chart"}));
  show(el("section", {class: "outcome"}, el("p", {class: "result", id: "story-result",
      text: s.status === "active" ? "Still being played" : s.result || ""}),
    s.decider ? el("p", {class: "decider", id: "story-decider", text: s.decider}) : null,
    meta ? el("p", {class: "muted", text: meta}) : null),
  table(["Player", "Place", ...(scored ? ["Score"] : []), "Won"], rows.map((p) => [p.name, num(p.place),
    ...(scored ? [num(p.score)] : []), p.winner ? "★" : ""]), "story-table"),
  boxes.length ? el("div", {class: "story-grid"}, boxes) : el("p", {class: "muted", text: s.status === "active" ? "Its charts come once it ends." :
    "This game has no charts."}));
  (s.charts || []).forEach((c, i) => Charts.draw(boxes[i], c));
}

// ------------------------------------------------------------------ the page
function tab() {
  const t = location.hash.slice(1);
  return TABS.includes(t) ? t : "games";
}

const VIEWS = {games: [gamesView], standings: [standingsView, drawStandings], luck: [luckView, drawLuck],
  dice: [diceView, drawDice], names: [namesView]};

function render() {
  const t = tab();
  for (const a of document.querySelectorAll("#tabs a")) a.setAttribute("aria-current", a.dataset.tab === t ?
    "page" : "false");
  const [view, draw] = VIEWS[t];
  show(view());
  if (draw) draw();
}

function query() {
  const q = new URLSearchParams();
  if ($("filter-game").value) q.set("game", $("filter-game").value);
  if ($("filter-player").value) q.set("player", $("filter-player").value);
  return q.toString();
}

function fillFilters(wanted) {
  const games = new Map(all.games.map((g) => [g.game, g.title]));
  $("filter-game").replaceChildren(el("option", {value: ""}, "All games"), ...[...games].sort((a, b) =>
    a[1].localeCompare(b[1])).map(([id, t]) => el("option", {value: id, selected: id === wanted.get("game")}, t)));
  $("filter-player").replaceChildren(el("option", {value: ""}, "Everyone"), ...Object.keys(all.players).sort((a, b) =>
    a.localeCompare(b)).map((n) => el("option", {value: n, selected: n === wanted.get("player")}, n)));
}

async function load(again) {
  if (again || !all) {
    const r = await getJSON("/api/history");
    if (!r.ok) { problem(r); return false; }
    all = r.data;
    fillFilters(again ? new URLSearchParams(query()) : new URLSearchParams(location.search));
  }
  const q = query();
  history.replaceState(null, "", "/history" + (q ? "?" + q : "") + location.hash);
  const r = q ? await getJSON("/api/history?" + q) : {ok: true, data: all};
  if (!r.ok) { problem(r); return false; }
  doc = r.data;
  shown = PAGE;
  const done = doc.games.filter((g) => g.status !== "active").length;
  $("count").textContent = doc.games.length + (doc.games.length === 1 ? " game" : " games") +
    (done !== doc.games.length ? " (" + (doc.games.length - done) + " in progress)" : "");
  render();
  return true;
}

async function start() {
  const state = await getJSON("/api/state");
  me = (state.data && state.data.me) || {};
  $("names-tab").hidden = !me.host;
  const m = location.pathname.match(/^\/story\/(\d+)$/);
  if (m) { await story(m[1]); return; }
  $("to-history").hidden = true;
  $("tabs").hidden = false;
  $("filters").hidden = false;
  for (const id of ["filter-game", "filter-player"]) $(id).addEventListener("change", () => load(false));
  window.addEventListener("hashchange", render);
  await load(false);
}

document.addEventListener("DOMContentLoaded", start);
