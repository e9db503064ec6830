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
  if (m < 1) return "under a minute";
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
const rounds = (n) => (typeof n === "number" ? n + (n === 1 ? " round" : " rounds") : "");
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
  const meta = [duration(g.duration_s), rounds(g.rounds)].filter((x) => x);
  return el("li", {class: "game card" + (g.status === "active" ? " live" : ""), "data-game": g.game},
    el("a", {href: "/story/" + g.id, class: "game-link"},
      el("span", {class: "game-title", text: g.title}), el("span", {class: "when", text: when(g.started)}),
      badge ? el("span", {class: "badge", text: badge}) : null),
    el("p", {class: "who"}, ps.map((p, i) => [i ? " · " : "", el("span", {class: p.winner ? "winner" : null},
      (p.place ? p.place + ".\u00a0" : "") + p.name + (p.winner ? " ★" : "") +
      ("score" in p ? " " + p.score : ""))])),
    el("p", {class: "result", text: g.status === "active" ? "Playing now" : g.result || ""}),
    meta.length ? el("p", {class: "muted", text: meta.join(" · ")}) : null);
}

function gamesView() {
  const games = doc.games.slice().sort((a, b) => String(b.started).localeCompare(String(a.started)) || b.id - a.id);
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
  out.push(el("h2", {text: "Every game"}), typeof doc.h_index === "number" ? el("p", {class: "muted", text:
    "The table's H-index: " + doc.h_index + " (that many games each played at least that often)"}) : null,
    table(head("Player", false), names.map((n) => row(n, doc.players[n])), "standings"));
  const player = $("filter-player").value;
  if (player && doc.players[player]) {
    const gs = doc.players[player].games || {};
    const sc = scores(Object.values(gs));
    out.push(el("h2", {text: player + ", game by game"}), table(head("Game", sc),
      Object.keys(gs).map((id) => row(titleOf(id), gs[id], sc)), "standings"));
  }
  for (const [id, s] of Object.entries(doc.standings).sort((a, b) => b[1].plays - a[1].plays)) {
    const game = (what, secs, gid) => [" · " + what + " ", gid ? el("a", {href: "/story/" + gid}, duration(secs)) :
      duration(secs)];
    out.push(el("h2", {text: s.title || titleOf(id)}), el("p", {class: "muted"}, s.plays +
      (s.plays === 1 ? " play" : " plays"), s.longest_s ? [game("longest", s.longest_s, s.longest_id),
      game("shortest", s.shortest_s, s.shortest_id)] : null),
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
const CHANCE = "what chance alone explains (95%)";

function luckView() {
  const luck = doc.luck || {};
  const names = Object.keys(luck).sort((a, b) => luck[b].x.length - luck[a].x.length);
  if (!names.length) return [el("p", {text: "No battles here yet: luck is measured in Sovereign's battles, " +
    "against the odds the companion showed before each one."})];
  const filter = $("filter-player").value;
  if (!luck[luckOf]) luckOf = luck[filter] ? filter : names[0];
  const pick = el("select", {id: "luck-player", "aria-label": "Whose battles",
    onchange: (e) => { luckOf = e.target.value; render(); }}, names.map((n) => el("option", {value: n,
    selected: n === luckOf}, n + " (" + luck[n].x.length + ")")));
  const won = (b) => (b.attacker_won ? [b.attacker, b.p_attacker_wins, b.defender, b] :
    [b.defender, 1 - b.p_attacker_wins, b.attacker, b]);
  const odd = (doc.battles || []).map(won).sort((a, b) => a[1] - b[1]).slice(0, 3).map(([w, p, l, b]) =>
    el("li", {}, w + " won at " + pct(p) + " against " + l + " (", el("a", {href: "/story/" + b.game_id},
      "game " + b.game_id), (b.round ? ", round " + b.round : "") + ")"));
  return [el("p", {class: "muted", text: "Luck is what a player won minus the chance they had, added up over " +
      "their battles; the two sides of a battle add up to zero. Inside the shaded band, chance alone explains it."}),
    el("div", {id: "chart-luck-players"}),
    el("label", {class: "inline"}, "Battle by battle: ", pick), el("div", {id: "chart-luck-line"}),
    el("div", {id: "chart-calibration"}), el("h2", {text: "The least likely wins"}), el("ul", {class: "odd"}, odd)];
}

function drawLuck() {
  const luck = doc.luck || {};
  const last = (a) => a[a.length - 1];
  const names = Object.keys(luck).sort((a, b) => last(luck[b].values) - last(luck[a].values));
  if (!names.length || !$("chart-luck-players")) return;
  Charts.draw($("chart-luck-players"), {id: "luck-players", title: "Luck by player", kind: "bar", x_label: "",
    y_label: "Won − chance", x: names.map((_, i) => i + 1), x_labels: names,
    series: [{name: "Luck", values: names.map((n) => last(luck[n].values))}],
    band: {lo: names.map((n) => last(luck[n].lo)), hi: names.map((n) => last(luck[n].hi)), label: CHANCE}});
  const mine = luck[luckOf];
  Charts.draw($("chart-luck-line"), {id: "luck-line", title: luckOf + ": luck battle by battle", kind: "band",
    x_label: "Battle", y_label: "Won − chance", x: mine.x, series: [{name: luckOf, values: mine.values}],
    band: {lo: mine.lo, hi: mine.hi, label: CHANCE}});
  const buckets = [0, 1, 2, 3, 4].map(() => ({p: 0, w: 0}));
  for (const x of doc.battles || []) {
    const k = Math.min(4, Math.floor(x.p_attacker_wins * 5));
    buckets[k].p += x.p_attacker_wins; buckets[k].w += x.attacker_won ? 1 : 0;
  }
  Charts.draw($("chart-calibration"), {id: "calibration", title: "Attackers' wins against their odds", kind: "bar",
    x_label: "Attacker's chance", y_label: "Battles won", x: [1, 2, 3, 4, 5],
    x_labels: ["0–20%", "20–40%", "40–60%", "60–80%", "80–100%"], series: [
      {name: "Expected", values: buckets.map((k) => +k.p.toFixed(2))},
      {name: "Won", values: buckets.map((k) => k.w)}]});
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
      out.map(([f, c], i) => (i ? "the " : "The ") + f + " came up " + c.toLocaleString() + " times, " +
        (c > hi ? "more" : "fewer") + " than a fair die gives (" + Math.round(lo).toLocaleString() + " to " +
        Math.round(hi).toLocaleString() + ")").join("; ") +
      ". Roll it more, or check the die.";
    return el("div", {class: "die", id: "die-" + die}, el("div", {class: "die-chart"}),
      el("p", {class: out.length ? "suspect" : "muted", text: n.toLocaleString() + " rolls, " +
        (+d.expected.toFixed(1)).toLocaleString() + " a face expected. " + verdict}),
      d.flagged && d.verdict ? el("p", {class: "suspect", text: d.verdict + "."}) : null);
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
async function change(body, say) {
  const r = await fetch("/api/names", {method: "POST", credentials: "same-origin", body: JSON.stringify(body),
    headers: {"Content-Type": "application/json", "X-CSRF-Token": me.csrf || ""}}).catch(() => null);
  const data = r ? await r.json().catch(() => ({})) : {error: "The companion cannot be reached"};
  if (!r || !r.ok) { say(data.error || "Not changed", false); return; }
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
    const into = () => names.find((x) => x !== n && x.toLocaleLowerCase() === input.value.trim().toLocaleLowerCase());
    const go = el("button", {class: "secondary", disabled: true, onclick: () => { const v = input.value.trim();
      change(into() ? {merge: {from: n, into: into()}} : {rename: {from: n, to: v}}, say); }}, "Rename");
    input.addEventListener("input", () => {
      const v = input.value.trim();
      go.textContent = into() ? "Merge into " + into() : "Rename";
      go.disabled = !v || v === n;
    });
    const also = aliases.filter(([a, to]) => to === n && a !== n.toLocaleLowerCase()).map(([a]) => a);
    return el("li", {class: "card"}, el("h3", {text: n}), also.length ? el("p", {class: "muted", text: "Also " +
      "played as: " + also.join(", ")}) : null, el("div", {class: "stepper"}, input, go));
  });
  return [el("p", {class: "muted", text: "A rename or merge changes how the history counts a name; the saved " +
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
  if (s.pending === true) {  // not summarised yet: the companion is reading it
    show(el("p", {class: "muted", id: "story-pending", role: "status", text: (s.title || "This game") +
      " is still being read: its story shows here in a moment."}));
    setTimeout(() => story(id), AGAIN_MS);
    return;
  }
  $("title").textContent = s.title + " · game " + s.id;
  document.title = s.title + " (game " + s.id + ") — Sovereign Companion";
  const rows = (s.table || []).slice().sort((a, b) => (a.place || 99) - (b.place || 99) || a.seat - b.seat);
  const scored = rows.some((p) => "score" in p);
  const meta = [s.started ? when(s.started) : "", duration(s.duration_s),
    rounds(s.rounds)].filter((x) => x).join(" · ");
  const boxes = (s.charts || []).map(() => el("div", {class: "story-chart"}));
  show(el("section", {class: "outcome"}, el("p", {class: "result", id: "story-result",
      text: s.status === "active" ? "Still being played" : s.result || ""}),
    s.decider ? el("p", {class: "decider", id: "story-decider", text: s.decider}) : null,
    meta ? el("p", {class: "muted", text: meta}) : null),
  table(["Player", "Place", ...(scored ? ["Score"] : []), "Won"], rows.map((p) => [p.name, num(p.place),
    ...(scored ? [num(p.score)] : []), p.winner ? "★" : ""]), "story-table"),
  boxes.length ? el("div", {class: "story-grid"}, boxes) : el("p", {class: "muted", text: s.status === "active" ?
    "Its charts come once it ends." :
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
  const live = doc.games.filter((g) => g.status === "active").length;
  $("count").textContent = doc.games.length + (doc.games.length === 1 ? " game" : " games") +
    (live ? " (" + live + " in progress)" : "") + (doc.pending ? "; " + doc.pending + (doc.pending === 1 ?
    " game" : " games") + " still being read" : "");
  render();
  clearTimeout(again_);
  if (doc.pending) again_ = setTimeout(() => load(true), AGAIN_MS);  // the rest of the saved games, once read
  return true;
}
let again_ = null;
const AGAIN_MS = 3000;  // a history or story still being read is asked for again this much later

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
