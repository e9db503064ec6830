// Sovereign Companion web view: follows the table live (Server-Sent Events) and, once paired, answers the current
// prompt. Every piece of game text is set with textContent, never parsed as HTML (dom.js: el).
"use strict";

const $ = (id) => document.getElementById(id);
let snap = null;   // the latest snapshot (public)
let me = {paired: false, view: "open"};
let source = null;
let shownSeq = undefined;  // the prompt the form was built for (keep typed values while it stays)

function clear(node, ...children) { node.replaceChildren(...children.flat(Infinity).filter((c) => c)); return node; }

// tone: true = it worked, false = refused or failed, "note" = the companion's own announcement (neither)
function say(text, tone) {
  const t = $("toast");
  t.textContent = text || "";
  t.className = "toast" + (text ? (tone === "note" ? " note" : tone ? " good" : " bad") : "");
}

// ------------------------------------------------------------------ talking to the companion
async function post(path, body) {
  const headers = {"Content-Type": "application/json"};
  if (me.csrf) headers["X-CSRF-Token"] = me.csrf;
  let r;
  try {
    r = await fetch(path, {method: "POST", headers, body: JSON.stringify(body), credentials: "same-origin"});
  } catch (e) {
    return {ok: false, status: 0, data: {error: "The companion cannot be reached: is this phone on its network?"}};
  }
  let data = {};
  try { data = await r.json(); } catch (e) { data = {error: r.statusText}; }
  return {ok: r.ok, status: r.status, data};
}

async function answer(value) {
  if (!snap || !snap.prompt) return;
  say("Sending…", true);
  const r = await post("/api/answer", {seq: snap.prompt.seq, value});
  if (r.ok) say(r.data.message || "", true);  // taken: the page has moved on; the companion's word, if any
  else say(r.data.message || r.data.error || "Not taken", false);
}

function accept(payload) {
  const data = JSON.parse(payload);
  me = data.me || me;
  snap = data.snapshot;
  render();
}

async function load() {
  const r = await fetch("/api/state", {credentials: "same-origin"});
  const data = await r.json().catch(() => ({}));
  if (r.status === 401) {
    me = data.me || {paired: false, view: "paired"};
    snap = null;
    $("conn").textContent = "Pair this phone to watch";
    render();
    return false;
  }
  me = data.me; snap = data.snapshot;
  render();
  return true;
}

function connect() {
  if (source) source.close();
  source = new EventSource("/api/events");
  source.addEventListener("snapshot", (e) => { $("conn").textContent = "Live"; accept(e.data); });
  source.onerror = () => { $("conn").textContent = "Reconnecting…"; };
}

async function start() {
  if (await load()) connect();
  else renderPhone();
}

// ------------------------------------------------------------------ the page
// one line each from the companion itself (a file it set aside at start, its screen off): above everything else
function renderNotices() {
  const lines = (snap && Array.isArray(snap.notices)) ? snap.notices : [];
  clear($("notices"), lines.map((line) => el("li", {text: line})));
}

function render() {
  renderPhone();
  renderNotices();
  if (!snap) return;
  $("oled").src = snap.oled || "";
  $("oled").alt = "The companion's screen" + (snap.prompt ? ": " + snap.prompt.title : "");
  if (snap.screen === "home") {
    $("game-name").textContent = "Sovereign Companion";
    $("manual-link").hidden = true;
    $("whose").textContent = "No game running";
    $("round").textContent = "Start or resume one on the companion.";
    $("prompt-title").textContent = "On the companion: the home menu";
    clear($("prompt-lines")); clear($("answer"));
    if (snap.toast) say(snap.toast, false);
    for (const id of ["players-table", "views-list", "log-list", "dice-table", "game-view"]) clear($(id));
    gameKey = null;
    renderFairness();
    return;
  }
  const st = snap.state || {};
  $("game-name").textContent = snap.game.name;
  document.title = snap.game.name + " — Sovereign Companion";
  $("manual-link").href = "/manual/" + encodeURIComponent(snap.game.id);
  $("manual-link").textContent = "How this table plays " + snap.game.name;
  $("manual-link").hidden = false;
  renderNow(st);
  renderPrompt();
  renderPlayers(st);
  renderGame(st);
  renderViews();
  renderLog();
  renderDice();
  renderFairness();
}

function playerName(st, seat) {
  const p = (st.players || []).find((x) => x.seat === seat);
  return p ? p.name : null;
}

function renderNow(st) {
  let whose;
  const shared = Array.isArray(st.winners) ? st.winners.filter((w) => typeof w === "string") : [];
  if (snap.over) whose = st.winner_name ? st.winner_name + " wins" : shared.length ? shared.join(" and ") +
    (shared.length > 1 ? " win" : " wins") : "Game over";
  else if (st.state === "setup") whose = "Setting up";
  else if (snap.prompt && snap.prompt.player_name) whose = snap.prompt.player_name;
  else if (st.active_player) whose = playerName(st, st.active_player) + "'s turn";
  else whose = snap.prompt ? snap.prompt.title : "";
  $("whose").textContent = whose;
  const bits = [];
  if (st.round !== null && st.round !== undefined) bits.push("Round " + st.round);
  if (st.phase) bits.push(String(st.phase));
  else if (st.state && st.state !== "setup") bits.push(String(st.state).replaceAll("_", " "));
  if (snap.menu_open) bits.push("the companion's menu is open");
  $("round").textContent = bits.join(" · ");
}

function renderPrompt() {
  const p = snap.prompt;
  // "Move — Ana", but "Ana: Gold" and "Start: Ana" as they are (not "Ana: Gold — Ana")
  const named = p.player_name && p.kind !== "secret_vote" && !p.title.startsWith(p.player_name + ":") &&
    !p.title.endsWith(": " + p.player_name);
  $("prompt-title").textContent = p.title + (named ? " — " + p.player_name : "");
  clear($("prompt-lines"), p.lines.map((l) => el("li", {text: l})));
  if (snap.toast) say(snap.toast, "note");
  const key = p.seq + ":" + (me.ballot ? "b" : "") + (me.paired ? "p" : "") + (me.seat || "") + (me.host ? "h" : "") +
    ":" + (mayAnswer(p) ? "" : (me.seats_held || []).join(","));  // (a form being filled in is never redrawn)
  if (key === shownSeq) return;
  shownSeq = key;
  // a keyboard or screen-reader user who just answered stays at the question: focus moves to the new one (whose
  // title the reader then says), so one Tab reaches its first control; nobody reading elsewhere is pulled up
  const answering = $("answer").contains(document.activeElement);
  const box = clear($("answer"));
  if (answering) $("prompt").focus({preventScroll: true});
  if (snap.over) {  // the end of the game: its story (charts, standings) is one tap away
    box.append(el("p", {text: "The game is over."}), snap.game.record ? el("a", {id: "story-link", class: "button",
      href: "/story/" + snap.game.record}, "See this game's story") : null);
    return;
  }
  if (p.seq === null || p.seq === undefined) return;  // nothing to answer (a sealed turn): no button to refuse
  if (p.kind === "secret_vote") { box.append(secretVote(p)); return; }
  if (p.kind === "random") { box.append(el("p", {text: "The companion draws this itself."})); return; }
  if (!me.paired) { box.append(el("p", {text: "Pair this phone (below) to answer from here."})); return; }
  if (!mayAnswer(p)) {
    const where = me.panel === false ? "" : " or the companion";
    const who = p.player_name || "Seat " + p.player;
    // a seat no phone holds is answered where the table's questions are (its own phone, once it holds the seat)
    const held = (me.seats_held || []).includes(p.player);
    box.append(el("p", {class: "not-mine", text: !p.player ?
      "The whole table answers this on the host's phone" + where + "." : held ?
      who + " answers this on their phone" + where + "." : (me.panel === false ? who + " answers this on the " +
      "host's phone" : who + " answers this on the companion or the host's phone") + " (no phone holds seat " +
      p.player + ")."}));
    return;
  }
  const form = FORMS[p.kind];
  if (form) box.append(...[form(p)].flat(Infinity));
}

// whether this phone gets the form for prompt p (the server refuses the others: nothing to show them)
function mayAnswer(p) {
  return !!p && p.seq !== null && p.seq !== undefined && !snap.over && me.paired &&
    (me.host || (!!p.player && me.seat === p.player));
}

function secretVote(p) {
  const who = p.voter_name || p.player_name || "A player";
  if (me.ballot) {
    const b = me.ballot;
    return el("div", {class: "ballot", role: "group", "aria-label": "Your secret ballot"},
      el("p", {text: "Your secret ballot, " + who + ": nobody else sees this."}),
      b.lines.map((l) => el("p", {class: "hint", text: l})),
      el("div", {class: "answer"}, b.options.map((o) =>
        el("button", {class: "choice", disabled: !o.enabled, onclick: () => answer(o.key)}, o.label))));
  }
  const held = (me.seats_held || []).includes(p.player);
  return el("p", {text: who + " is casting a secret vote" + (held ? " on their phone." : me.panel === false ?
    ": on their own phone, once it holds seat " + p.player + " (pair it, tap the seat, the host confirms)." :
    " on the companion.")});
}

const FORMS = {
  choice(p) {
    const main = p.options.filter((o) => !o.in_menu);
    if (main.length > 8 && main.every((o) => o.path && o.path.length >= 2)) return pathChoice(p, main);
    const items = p.options.map((o) => el("button", {class: "choice", disabled: !o.enabled,
      "aria-describedby": null, onclick: () => answer(o.key)}, o.label,
      !o.enabled && o.hint ? el("span", {class: "hint", text: o.hint}) : null));
    if (p.text) {  // a pasted message (a Society PM): read by the companion, each line shown back for the GM
      const area = el("textarea", {id: "paste-text", rows: 8, maxlength: 8000, "aria-label": p.text});
      items.unshift(el("label", {for: "paste-text", text: p.text}), area,
        el("button", {id: "paste-read", onclick: () => answer({text: area.value})}, "Read"));
    }
    if (p.back !== null && p.back !== undefined && !p.options.some((o) => o.key === p.back))
      items.push(el("button", {class: "secondary", onclick: () => answer(p.back)}, "Back"));
    return items;
  },
  number(p) {
    const input = el("input", {type: "number", id: "num", min: p.lo, max: p.hi, step: p.step, value: p.default,
      inputmode: "numeric", "aria-label": p.title + (p.unit ? " (" + p.unit + ")" : "")});
    const bump = (d) => { const v = Math.min(p.hi, Math.max(p.lo, (parseInt(input.value, 10) || 0) + d));
      input.value = v; };
    return [el("div", {class: "stepper"},
      el("button", {class: "secondary", "aria-label": "less", onclick: () => bump(-p.step)}, "−"), input,
      el("button", {class: "secondary", "aria-label": "more", onclick: () => bump(p.step)}, "+"),
      p.unit ? el("span", {text: p.unit}) : null),
      el("button", {onclick: () => answer(parseInt(input.value, 10))}, "OK")];
  },
  confirm(p) {
    return [el("button", {onclick: () => answer(true)}, p.yes),
            el("button", {class: "secondary", onclick: () => answer(false)}, p.no)];
  },
  multi(p) {
    const boxes = p.options.map((o) => el("input", {type: "checkbox", value: o.key, disabled: !o.enabled,
      checked: p.preselected.includes(o.key)}));
    const rule = "Pick " + (p.max_count === null ? "at least " + p.min_count :
      (p.min_count === p.max_count ? p.min_count : p.min_count + " to " + p.max_count));
    return [el("fieldset", {}, el("legend", {text: rule}),
      p.options.map((o, i) => el("label", {class: "check"}, boxes[i], o.label))),
      el("button", {onclick: () => answer(boxes.filter((b) => b.checked).map((b) => b.value))}, "Done")];
  },
  dice(p) {
    const out = [];
    if (p.sources.includes("typed")) {
      const inputs = Array.from({length: p.count}, (_, i) => el("input", {type: "number", min: 1, max: p.sides,
        inputmode: "numeric", "aria-label": p.count === 1 ? "the " + p.die : p.die + " " + (i + 1) + " of " + p.count}));
      out.push(el("fieldset", {}, el("legend", {text: "Type the " + (p.count === 1 ? "" : p.count + " ") + p.die + " as rolled"}),
        el("div", {class: "dice-inputs"}, inputs)));
      out.push(el("button", {onclick: () =>
        answer({values: inputs.map((i) => parseInt(i.value, 10)), source: "typed"})}, "Enter roll"));
    }
    if (p.sources.includes("rng"))
      out.push(el("button", {class: "secondary", onclick: () => answer({source: "rng"})}, "Companion rolls"));
    if (!out.length) out.push(el("p", {text: "Roll the dice on the roller."}));
    return out;
  },
  info(p) { return [el("button", {onclick: () => answer(true)}, "OK")]; },
};

// many options that share first steps (a chess move: the piece, then its target): pick step by step
let pathPicked = null;
function pathChoice(p, main) {
  const box = el("div", {class: "answer", id: "path-choice"});
  const draw = () => {
    const refocus = box.contains(document.activeElement);  // a step picked by keyboard: focus the next step's first
    const first = [...new Set(main.map((o) => o.path[0]))];
    const picked = pathPicked && first.includes(pathPicked) ? pathPicked : null;
    clear(box, picked === null ?
      el("fieldset", {}, el("legend", {text: "Pick a piece"}), el("div", {class: "answer"},
        first.map((f) => el("button", {class: "secondary", onclick: () => { pathPicked = f; draw(); }}, f)))) :
      el("fieldset", {}, el("legend", {text: picked + " to"}), el("div", {class: "answer"},
        main.filter((o) => o.path[0] === picked).map((o) => el("button", {disabled: !o.enabled,
          "aria-label": o.label, onclick: () => { pathPicked = null; answer(o.key); }},
          o.path.slice(1).join(" "))),
        el("button", {class: "secondary", onclick: () => { pathPicked = null; draw(); }}, "Another piece"))),
      el("details", {}, el("summary", {text: "More"}), el("div", {class: "answer"},
        p.options.filter((o) => o.in_menu).map((o) => el("button", {class: "secondary", disabled: !o.enabled,
          onclick: () => answer(o.key)}, o.label)))));
    if (refocus) { const next = box.querySelector("button:not([disabled])"); if (next) next.focus(); }
  };
  draw();
  return box;
}

// ------------------------------------------------------------------ this phone: pairing and seat
let phoneKey = null;  // what the pairing box was built for: rebuilt only when that changes (keeps a half-made choice)
function renderPhone() {
  if (typeof renderHost === "function") renderHost();  // host.js: the host phone's panel and the companion's buttons
  const players0 = snap && snap.state ? (snap.state.players || []).map((p) => p.name) : [];
  const key = JSON.stringify([me.paired, me.seat, me.seats_held, players0, me.host, me.pending, me.code, me.panel]);
  if (key === phoneKey) return;
  phoneKey = key;
  const box = clear($("pair-box"));
  if (!me.paired) {
    const pin = el("input", {id: "pin", type: "text", inputmode: "numeric", autocomplete: "one-time-code",
      pattern: "[0-9]{6}", maxlength: 6, "aria-label": "PIN", placeholder: "6-digit PIN"});
    const go = async () => {
      const r = await post("/api/pair", {pin: pin.value.trim()});
      if (r.ok) { me.csrf = r.data.csrf; shownSeq = undefined; say("Paired", true); await start(); }
      else say(r.data.error, false);
    };
    pin.addEventListener("keydown", (e) => { if (e.key === "Enter") go(); });
    const owner = el("input", {id: "owner", type: "text", autocomplete: "off", autocapitalize: "characters",
      maxlength: 12, "aria-label": "Owner code", placeholder: "ABCD-EFGH"});
    const asOwner = async () => {
      const r = await post("/api/pair", {owner: owner.value});
      if (r.ok) { me.csrf = r.data.csrf; shownSeq = undefined; say("Paired as the host", true); await start(); }
      else say(r.data.error, false);
    };
    owner.addEventListener("keydown", (e) => { if (e.key === "Enter") asOwner(); });
    box.append(el("p", {text: "To answer from this phone, enter the PIN that Pair a phone shows on " +
      (me.panel === false ? "the host's phone." : "the companion or on the host's phone.")}),
      el("div", {class: "stepper"}, pin, el("button", {id: "pair-btn", onclick: go}, "Pair")),
      el("details", {id: "owner-pair", open: me.panel === false},
        el("summary", {text: "The owner's phone: pair with the owner code"}),
        el("p", {class: "hint", text: "The code printed on the box (or 'companion owner-code'): this phone is then " +
          "the host, which answers for the whole table and confirms the other phones."}),
        el("div", {class: "stepper"}, owner, el("button", {id: "owner-btn", onclick: asOwner}, "Pair as owner"))));
    return;
  }
  const players = snap && snap.state ? snap.state.players || [] : [];
  const name = (seat) => playerName(snap && snap.state || {}, seat);
  const held = me.seats_held || [];
  let text;
  if (me.host) text = "This phone is the host's: it answers for the whole table (not the secret ballots).";
  else if (me.seat) text = "This phone holds seat " + me.seat + (name(me.seat) ? " (" + name(me.seat) + ")" : "") +
    ": it answers that seat's questions and gets its secret ballots.";
  else text = "Paired. Pick your seat: " + (me.panel === false ? "the host phone confirms it." :
    "the table confirms it (OK on the companion, or the host phone).");
  const ask = async (seat) => {
    const r = await post("/api/claim", {seat});
    if (r.status === 202) say(r.data.message, true);
    else say(r.ok ? (r.data.seat ? "" : "Seat given up") : r.data.error, r.ok);
  };
  const pending = me.pending !== null && me.pending !== undefined;
  const seats = el("div", {class: "seats", role: "group", "aria-label": "Seats"}, players.map((p) =>
    el("button", {class: "seat" + (p.seat === me.seat ? " mine" : ""), "data-seat": p.seat,
      "aria-pressed": p.seat === me.seat ? "true" : "false", disabled: p.seat === me.seat || pending,
      onclick: () => ask(p.seat)},
      el("span", {class: "seat-name", text: p.seat + ". " + p.name}),
      el("span", {class: "hint", text: p.seat === me.seat ? "yours" : held.includes(p.seat) ? "held by a phone" :
        "free"}))));
  const unpair = async () => { await post("/api/unpair", {}); me = {paired: false, view: me.view};
    shownSeq = undefined; phoneKey = null; render(); };
  box.append(el("p", {id: "phone-code", text: "This phone: " + (me.code || "?")}), el("p", {text}));
  const what = me.pending === "host" ? "host rights" : "seat " + me.pending;
  if (pending) box.append(el("p", {id: "pending", class: "pending", role: "status",
    text: me.panel === false ? "Waiting for the host phone to give " + what + " to phone " + me.code + "." :
      "Waiting for the table: OK on the companion (or the host phone) gives " + what + " to phone " + me.code + "."}));
  box.append(seats, el("div", {class: "stepper"},
    me.seat || me.host ? el("button", {class: "secondary", onclick: () => ask(null)},
      me.seat && me.host ? "Give up my seat and host rights" : me.seat ? "Give up my seat" : "Give up host rights") :
      null,
    me.host ? null : el("button", {class: "secondary", disabled: pending, onclick: () => ask("host")}, "Host"),
    el("button", {class: "secondary", id: "unpair-btn", onclick: unpair}, "Unpair")));
}

// ------------------------------------------------------------------ tables
function fmt(v) {
  if (v === null || v === undefined) return "—";
  if (Array.isArray(v)) return v.length ? v.map(fmt).join(", ") : "—";
  if (typeof v === "object") return Object.entries(v).map(([k, x]) => k + " " + fmt(x)).join(", ");
  if (typeof v === "boolean") return v ? "yes" : "no";
  return String(v);
}

const TABLE_COLUMNS = 3;  //: more counters than this per player: cards instead of a table
// a players-table column's head: the game's own name for it (a TOML game's counter), else its key in words
function columnName(key) {
  const named = (snap.columns || {})[key];
  return typeof named === "string" ? named : key.replaceAll("_", " ");
}

function renderPlayers(st) {
  const players = st.players || [];
  const cols = [];
  for (const p of players) for (const k of Object.keys(p)) if (!["name", "seat"].includes(k) && !cols.includes(k))
    cols.push(k);
  const active = (p) => p.seat === st.active_player;
  if (cols.length > TABLE_COLUMNS) {  // too wide for a phone held upright: one card per player, every field shown
    clear($("players-table"), el("ul", {class: "cards"}, players.map((p) => el("li", {class: active(p) ? "card active" :
      "card", "aria-current": active(p) ? "true" : null}, el("h3", {text: p.seat + ". " + p.name}),
      el("dl", {class: "kv"}, cols.filter((c) => c in p).map((c) => [el("dt", {text: columnName(c)}),
        el("dd", {text: fmt(p[c])})]))))));
    return;
  }
  const head = el("tr", {}, el("th", {scope: "col", text: "Player"}),
    cols.map((c) => el("th", {scope: "col", text: columnName(c)})));
  const rows = players.map((p) => el("tr", {class: active(p) ? "active" : null,
    "aria-current": active(p) ? "true" : null},
    el("th", {scope: "row", text: p.seat + ". " + p.name}), cols.map((c) => el("td", {text: fmt(p[c])}))));
  clear($("players-table"), el("div", {class: "scroll"}, el("table", {}, el("thead", {}, head), el("tbody", {}, rows))));
}

const COMMON = ["game", "state", "round", "active_player", "players", "winner", "winner_name", "winners",
  "journal_entries", "ended", "phase", "clocks"];

// a clock's seconds left as the companion shows them: m:ss (h:mm:ss from an hour), rounded up so 0:00 is the flag;
// under 10 s with tenths (0:09.4)
function clockText(seconds) {
  if (typeof seconds !== "number" || !isFinite(seconds)) return fmt(seconds);
  const tenths = Math.max(0, Math.ceil(seconds * 10 - 1e-6));
  if (tenths < 100) return "0:0" + (tenths / 10).toFixed(1);
  const s = Math.ceil(tenths / 10), two = (n) => String(n).padStart(2, "0");
  return s >= 3600 ? Math.floor(s / 3600) + ":" + two(Math.floor(s % 3600 / 60)) + ":" + two(s % 60) :
    Math.floor(s / 60) + ":" + two(s % 60);
}

// the companion's own text for a seat's clock (byo-yomi: "3x0:28", its main time without the periods), with tenths
// where the companion's main time is under 10 s
function clockShown(seat, left) {
  const shown = (snap.clocks_shown || {})[seat];
  if (typeof shown !== "string") return clockText(left);
  return shown.includes("x") || typeof left !== "number" || left >= 10 ? shown : clockText(left);
}

function renderClocks(st, box) {
  const clocks = Object.entries(st.clocks || {});
  if (!clocks.length) return;
  box.append(el("h2", {text: "Clocks"}), el("ul", {class: "clocks"}, clocks.map(([seat, left]) => {
    const mine = parseInt(seat, 10) === st.active_player && !snap.over;
    return el("li", {class: mine ? "active" : null}, el("span", {text: playerName(st, parseInt(seat, 10)) ||
      "Seat " + seat}), el("span", {class: "time", text: clockShown(seat, left)}));
  })));
}

let gameKey = null;  // the game view is rebuilt only when what it shows changes (not on every cursor move)
function renderGame(st) {
  const key = JSON.stringify([st, snap.chess || null, snap.report || null, highlightSeat, reportFormat]);
  if (key === gameKey) return;
  gameKey = key;
  const box = clear($("game-view"));
  renderClocks(st, box);
  const special = GAME_VIEWS[st.game];
  if (special) special(st, box);
  const rest = Object.keys(st).filter((k) => !COMMON.includes(k) && !(special && special.keys || []).includes(k));
  if (rest.length) {
    box.append(el("h2", {text: "The game"}), el("dl", {class: "kv"},
      rest.map((k) => [el("dt", {text: k.replaceAll("_", " ")}), el("dd", {text: fmt(st[k])})])));
  }
}

// each game's own view; `keys` are the state fields it shows (left out of the generic list)
const GAME_VIEWS = {
  soverana: Object.assign((st, box) => {
    const depts = Object.entries(st.departments || {});
    box.append(el("h2", {text: "The city" + (st.mayor ? " — mayor " + st.mayor : "")}));
    const who = {};
    for (const [name, loc] of Object.entries(st.positions || {})) if (loc) (who[loc] = who[loc] || []).push(name);
    const managers = {};
    for (const [name, d] of Object.entries(st.managers || {})) managers[d] = name;
    for (const [d, res] of depts) {
      const locs = (st.department_locations || {})[d] || [];
      box.append(el("h3", {text: d + ": " + res + " resources" + (managers[d] ? " (" + managers[d] + ")" : "")}),
        el("div", {class: "grid"}, locs.map((n) => el("div", {class: "loc " + (st.locations[n] || "")},
          n, (who[n] || []).map((w) => el("span", {class: "pill", text: w}))))));
    }
    const other = Object.keys(st.locations || {}).filter((n) =>
      !Object.values(st.department_locations || {}).some((l) => l.includes(n)));
    if (other.length) box.append(el("h3", {text: "City"}), el("div", {class: "grid"},
      other.map((n) => el("div", {class: "loc " + st.locations[n]}, n,
        (who[n] || []).map((w) => el("span", {class: "pill", text: w}))))));
  }, {keys: ["departments", "locations", "positions", "managers", "department_locations", "mayor"]}),
  sovereign: Object.assign((st, box) => {
    const b = st.battle;
    if (!b) return;
    const pct = (x) => (typeof x === "number" ? Math.round(x * 1000) / 10 + "%" : fmt(x));
    box.append(el("h2", {text: "Battle in progress"}), el("dl", {class: "kv"},
      el("dt", {text: "attacker"}), el("dd", {text: fmt(playerName(st, b.attacker) || b.attacker)}),
      el("dt", {text: "defender"}), el("dd", {text: fmt(playerName(st, b.defender) || b.defender)}),
      el("dt", {text: "attacking"}), el("dd", {text: fmt(b.attack)}),
      el("dt", {text: "defending"}), el("dd", {text: fmt(b.defence)}),
      el("dt", {text: "rolls"}), el("dd", {text: fmt(b.rolls)}),
      el("dt", {text: "attacker wins"}), el("dd", {text: pct(b.attacker_wins)})));
  }, {keys: ["battle"]}),
};

// ------------------------------------------------------------------ Sovereign Chess: the 16×16 board as SVG
const ARMY = {white: "#f4f4f4", ash: "#b9b2a6", slate: "#6d7b8a", black: "#1b1b1b", pink: "#f08fc0",
  red: "#d22b2b", orange: "#f08a24", yellow: "#f2d024", green: "#2e9e4f", cyan: "#22b8cf", navy: "#1f3a93",
  violet: "#7d3cb5"};
const DARK_ARMIES = ["slate", "black", "red", "green", "navy", "violet"];
const ROLE_LETTER = {king: "K", queen: "Q", rook: "R", bishop: "B", knight: "N", pawn: "P"};
const FILES = "abcdefghijklmnop";
let highlightSeat = null;

function svg(tag, attrs, ...children) {
  const e = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs || {})) if (v !== null && v !== undefined) e.setAttribute(k, String(v));
  for (const c of children.flat(Infinity)) if (c !== null && c !== undefined)
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return e;
}

function chessBoard(st, board, box) {
  const S = 24, M = 16, N = 16;
  const name = (sq) => FILES[sq % 16] + (Math.floor(sq / 16) + 1);
  const xy = (sq) => [M + (sq % 16) * S, (N - 1 - Math.floor(sq / 16)) * S];
  const lit = new Set();
  if (highlightSeat && board.control[highlightSeat]) {
    const c = board.control[highlightSeat];
    const colours = [c.owned, ...c.controlled];
    board.cells.forEach((cell, sq) => { if (cell && colours.includes(cell[0])) lit.add(sq); });
  }
  const parts = [];
  for (let sq = 0; sq < 256; sq++) {
    const [x, y] = xy(sq);
    const f = sq % 16, r = Math.floor(sq / 16);
    const cs = board.colour_squares[name(sq)];
    parts.push(svg("rect", {x, y, width: S, height: S, fill: cs ? ARMY[cs] : ((f + r) % 2 ? "#ead9b5" : "#b58863"),
      stroke: cs ? "#000" : null, "stroke-width": cs ? 0.6 : null}));
    if (board.blocked.includes(name(sq)))
      parts.push(svg("path", {d: `M${x + 5} ${y + 5}L${x + S - 5} ${y + S - 5}M${x + S - 5} ${y + 5}L${x + 5} ${y + S - 5}`,
        stroke: "#000", "stroke-width": 2}));
    if (board.last.includes(name(sq)))
      parts.push(svg("rect", {x: x + 1.5, y: y + 1.5, width: S - 3, height: S - 3, fill: "none", stroke: "#f0a500",
        "stroke-width": 3, class: "last"}));
    if (lit.has(sq))
      parts.push(svg("rect", {x: x + 1, y: y + 1, width: S - 2, height: S - 2, fill: "none", stroke: "#00e5ff",
        "stroke-width": 2.5, class: "lit"}));
    const cell = board.cells[sq];
    if (board.check.includes(name(sq)))  // the king in check: its whole square red, seen at a glance
      parts.push(svg("rect", {x, y, width: S, height: S, fill: "#e3241b", class: "check"}));
    if (cell) {
      const [army, role] = cell;
      const check = board.check.includes(name(sq));
      parts.push(svg("g", {class: "piece"},
        svg("title", {}, army + " " + role + " on " + name(sq) + (check ? ", in check" : "")),
        svg("circle", {cx: x + S / 2, cy: y + S / 2, r: S / 2 - 2.5, fill: ARMY[army], stroke: "#000",
          "stroke-width": 1.2}),
        svg("text", {x: x + S / 2, y: y + S / 2 + 4.5, "text-anchor": "middle", "font-size": 13,
          "font-weight": 700, "font-family": "sans-serif", fill: DARK_ARMIES.includes(army) ? "#fff" : "#000"},
          ROLE_LETTER[role] || "?")));
    }
  }
  for (let i = 0; i < 16; i++) {
    parts.push(svg("text", {x: M / 2, y: (N - 1 - i) * S + S / 2 + 4, "text-anchor": "middle", "font-size": 9,
      fill: "#444"}, i + 1));
    parts.push(svg("text", {x: M + i * S + S / 2, y: N * S + 11, "text-anchor": "middle", "font-size": 9,
      fill: "#444"}, FILES[i]));
  }
  const to = board.to_move_seat ? playerName(st, board.to_move_seat) : null;
  box.append(el("h2", {text: "The board" + (to ? " — " + to + " to move" : "") + (board.check.length ? " — check!" : "")}),
    svg("svg", {id: "chess-board", viewBox: `0 0 ${M + N * S} ${N * S + 14}`, role: "img", class: "board",
      "aria-label": "Sovereign Chess board" + (board.last.length ? ", last move " + board.last.join(" to ") : "")},
      parts));
  const rows = Object.entries(board.control).map(([seat, c]) => {
    const who = playerName(st, parseInt(seat, 10)) || "Seat " + seat;
    const on = highlightSeat === seat;
    return el("li", {},
      el("button", {class: "secondary", "aria-pressed": on ? "true" : "false", onclick: () => {
        highlightSeat = on ? null : seat; renderGame(snap.state); }}, on ? "Hide" : "Show"),
      " " + who + " owns ", el("span", {class: "chip", style: null, "data-army": c.owned, text: c.owned}),
      c.controlled.length ? [" and controls ", c.controlled.map((x) => el("span", {class: "chip", "data-army": x,
        text: x}))] : " and controls no other colour");
  });
  box.append(el("h3", {text: "Control map"}), el("ul", {class: "control"}, rows));
}

// the moves as the table says them: the pie rule's answer in words, not "accept"/"reject"
const PIE = {accept: "first move accepted: the sides swap (pie rule)",
  reject: "first move declined: the sides stay (pie rule)"};
function chessMoves(st, box) {
  const moves = st.moves || [];
  if (st.result) box.append(el("p", {class: "whose", text: "Result " + st.result +
    (st.termination ? " (" + String(st.termination).replaceAll("_", " ") + ")" : "")}));
  box.append(el("h3", {text: "Moves (" + moves.filter((m) => !(m in PIE)).length + ")"}),
    moves.length ? el("p", {class: "moves", text: moves.map((m) => PIE[m] || m).join(", ")}) :
      el("p", {text: "No move yet."}));
}

const CHESS_KEYS = ["position", "owned", "controlled", "check", "to_move", "moves", "result", "termination"];
GAME_VIEWS["sovereign-chess"] = Object.assign((st, box) => {
  if (snap.chess) chessBoard(st, snap.chess, box);
  chessMoves(st, box);
}, {keys: CHESS_KEYS});
GAME_VIEWS["sovereign-chess-royale"] = Object.assign((st, box) => {
  if (snap.chess) chessBoard(st, snap.chess, box);
  if (st.interregnum && st.interregnum.length) box.append(el("p", {text: "Interregnum: " +
    st.interregnum.map((s) => playerName(st, s)).join(", ")}));
  chessMoves(st, box);
}, {keys: [...CHESS_KEYS, "kings", "interregnum"]});

// ------------------------------------------------------------------ Society: the GM's console
const seatHue = (seat) => Math.round((seat * 137.508) % 360);
let reportFormat = "markdown";

function societyMap(st, box) {
  const m = st.map;
  if (!m || !m.width) return;
  const S = 22, L = 18;
  const cities = m.cities || {};
  const starts = {};
  (m.start_squares || []).forEach((sq, i) => { if (sq) starts[sq] = i + 1; });
  const wonders = {};
  for (const [name, w] of Object.entries(st.wonders || {})) if (w.square) wonders[w.square] = name;
  const nuked = new Set(m.nuked || []);
  const parts = [];
  for (let r = 0; r < m.height; r++) {
    parts.push(svg("text", {x: L - 3, y: L + r * S + S / 2 + 4, "text-anchor": "end", "font-size": 9, fill: "#444"},
      r + 1));
    for (let c = 0; c < m.width; c++) {
      const name = String.fromCharCode(65 + c) + (r + 1);
      const seat = cities[name] || starts[name];
      const x = L + c * S, y = L + r * S;
      const who = seat ? playerName(st, seat) || "seat " + seat : null;
      const label = name + (who ? ": " + who + (cities[name] ? " city" : " start") : ": empty") +
        (nuked.has(name) ? ", nuked" : "") + (wonders[name] ? ", " + wonders[name] : "");
      parts.push(svg("g", {class: seat ? "city" : "empty"}, svg("title", {}, label),
        svg("rect", {x, y, width: S - 1, height: S - 1, rx: 2,
          fill: nuked.has(name) ? "#333" : seat ? `hsl(${seatHue(seat)} 65% 55%)` : "#f1ede4",
          stroke: wonders[name] ? "#000" : "#cfc8b8", "stroke-width": wonders[name] ? 2.5 : 1}),
        seat || nuked.has(name) ? svg("text", {x: x + S / 2 - 0.5, y: y + S / 2 + 4, "text-anchor": "middle",
          "font-size": 10, "font-weight": 700, fill: nuked.has(name) ? "#fff" : "#000"},
          nuked.has(name) ? "*" : seat + (wonders[name] ? "+" : "")) : null));
    }
  }
  for (let c = 0; c < m.width; c++)
    parts.push(svg("text", {x: L + c * S + S / 2, y: L - 5, "text-anchor": "middle", "font-size": 9, fill: "#444"},
      String.fromCharCode(65 + c)));
  const map = svg("svg", {id: "society-map", class: "board", role: "img",
    viewBox: `0 0 ${L + m.width * S} ${L + m.height * S}`,
    "aria-label": "Map, " + m.width + " by " + m.height + ": each city marked with its society's seat number"}, parts);
  map.style.maxWidth = Math.min(40, 2 + m.width * 1.9) + "rem";  // a small map stays small (CSSOM: allowed by the CSP)
  box.append(el("h3", {text: "The map"}), map);
}

GAME_VIEWS.society = Object.assign((st, box) => {
  box.append(el("h2", {text: "Society" + (st.turn !== undefined ? ": turn " + st.turn : ": set-up")}));
  if (st.win_reason) box.append(el("p", {class: "whose", text: st.win_reason}));
  if ((st.wars || []).length) box.append(el("p", {text: "At war: " + st.wars.map((k) => k.split("-").map(
    (x) => playerName(st, parseInt(x, 10)) || x).join(" – ")).join("; ")}));
  societyMap(st, box);
  const wonders = Object.entries(st.wonders || {});
  if (wonders.length) box.append(el("h3", {text: "Wonders"}), el("ul", {}, wonders.map(([n, w]) => el("li", {},
    n + ": " + (playerName(st, w.owner) || "seat " + w.owner) + (w.square ? " at " + w.square : "") +
    (w.obsolete ? " (obsolete)" : "")))));
  if (st.orders) box.append(el("h3", {text: "Orders entered this turn (" + st.orders.length + ")"}),
    st.orders.length ? el("ol", {id: "society-orders"}, st.orders.map((o) => el("li", {text:
      (o.seat !== undefined ? (playerName(st, parseInt(o.seat, 10)) || "seat " + o.seat) + ": " : "") + o.text}))) :
      el("p", {text: mayAnswer(snap.prompt) ? "None yet: pick a society in the form above to enter its orders." :
        "None yet: the game master enters them on the host's phone" + (me.panel === false ? "" :
          " or the companion") + "."}));
  const rep = snap.report;
  if (rep) {
    const area = el("textarea", {id: "report-text", readonly: true, rows: 12, "aria-label": "Turn report"});
    area.value = rep[reportFormat];
    const copy = async () => {
      area.focus(); area.select();
      let ok = false;
      try { if (navigator.clipboard && window.isSecureContext) { await navigator.clipboard.writeText(area.value); ok = true; } }
      catch (e) { ok = false; }
      if (!ok) ok = document.execCommand && document.execCommand("copy");
      say(ok ? "Report copied" : "Select the text and copy it", !!ok);
    };
    box.append(el("h3", {text: "Turn report for the forum"}), el("div", {class: "answer"},
      ["markdown", "bbcode"].map((f) => el("button", {class: "secondary", "aria-pressed": f === reportFormat ? "true" :
        "false", onclick: () => { reportFormat = f; renderGame(snap.state); }}, f === "markdown" ? "Markdown" : "BBCode")),
      el("button", {id: "copy-report", onclick: copy}, "Copy report")), area);
  }
}, {keys: ["map", "wonders", "wars", "orders", "entry", "last_report", "turn", "win_reason", "winners"]});

function renderViews() {
  clear($("views-list"), (snap.views || []).map((v) => el("details", {},
    el("summary", {text: v.title}), el("pre", {class: "page", text: v.lines.join("\n")}))));
}

function renderLog() {
  const lines = (snap.log || []).slice().reverse();
  clear($("log-list"), lines.map((l) => el("li", {text: l})));
}

function renderDice() {
  const rows = (snap.dice || []).slice().reverse().map((d) => el("tr", {class: d.undone ? "undone" : null},
    el("td", {text: d.player_name || "—"}), el("td", {text: d.die}), el("td", {text: d.values.join(" ")}),
    el("td", {text: d.source + (d.undone ? " (undone)" : "")}), el("td", {text: d.purpose || ""})));
  clear($("dice-table"), rows.length ? el("thead", {}, el("tr", {}, ["Who", "Die", "Values", "Source", "For"].map(
    (h) => el("th", {scope: "col", text: h})))) : null, el("tbody", {}, rows));
}

// each die: the verdict in a sentence, its faces as bars against what a fair die gives, the numbers one tap away
function renderFairness() {
  const f = snap ? snap.fairness || [] : [];
  const key = (r) => r.die + " " + r.roller;  // "The numbers" a reader opened stay open through the next update
  const open = new Set([...$("fairness").querySelectorAll("details[open]")].map((d) => d.dataset.die));
  clear($("fairness"), f.length ? f.map((r) => el("li", {class: "die-check"},
    el("p", {}, el("strong", {text: r.die + (r.roller === "typed" ? " typed in" : " from " + r.roller) + ": "}),
      el("span", {class: r.flagged ? "suspect" : null, text: r.words || r.verdict})),
    faceBars(r),
    el("details", {"data-die": key(r), open: open.has(key(r))}, el("summary", {text: "The numbers"}), el("p", {class: "hint", text: r.n + " rolls; " +
      "chi-square p = " + r.p_value + "; Bayes factor " + r.bayes_factor + " (20 or more flags the die)"}))))
    : [el("li", {text: "No physical rolls yet."})]);
}

function faceBars(r) {
  const k = r.counts.length, W = 22, H = 56, top = Math.max(1, ...r.counts), fair = r.n / k;
  const y = (c) => 4 + (H - 4) * (1 - c / Math.max(top, fair));
  const bars = r.counts.map((c, i) => [
    svg("rect", {x: i * W + 3, y: y(c), width: W - 6, height: H - y(c), class: "bar"}),
    svg("text", {x: i * W + W / 2, y: H + 12, "text-anchor": "middle", "font-size": 10}, i + 1)]);
  return svg("svg", {class: "faces", viewBox: `0 0 ${k * W} ${H + 15}`, role: "img", "aria-label": "How often " +
    "each face came up: " + r.counts.map((c, i) => (i + 1) + ": " + c).join(", ") + "; a fair die about " +
    Math.round(fair) + " each"}, bars, svg("line", {x1: 0, x2: k * W, y1: y(fair), y2: y(fair), class: "fair"}));
}

document.addEventListener("DOMContentLoaded", start);
