// Sovereign Companion web view: the host phone's panel. The host phone does what the companion's OK does: it
// confirms seat and host requests, forgets phones, hands host rights over, shows a PIN for another phone, makes a
// new owner code, and presses the companion's buttons (its mirror above them), so a box without its panel is played
// wholly from the phones. Loaded after app.js and using its helpers (el, clear, post, say, me, snap).
"use strict";

let hostKey = null;   // what the panel was built for: rebuilt only when that changes (a PIN shown stays)
let hostPin = null;   // {pin, until, phones}: the PIN this phone showed, until it runs out

function renderHost() {
  const section = $("host");
  const keys = $("device-keys");
  if (!me.paired || !me.host) {
    section.hidden = true;
    clear(section);
    clear(keys);
    hostKey = null;
    return;
  }
  section.hidden = false;
  if (!keys.firstChild) keys.append(deviceKeys());
  const phones = me.phones || [];
  const seatName = (seat) => {
    const p = snap && snap.state ? (snap.state.players || []).find((x) => x.seat === seat) : null;
    return p ? p.name : null;
  };
  const key = JSON.stringify([phones, me.panel, hostPin, snap && snap.state ? snap.state.players : null]);
  if (key === hostKey) return;
  hostKey = key;
  const asked = (p) => p.pending === "host" ? "host rights" :
    "seat " + p.pending + (seatName(p.pending) ? " (" + seatName(p.pending) + ")" : "");
  const requests = phones.filter((p) => p.pending !== null && p.pending !== undefined);
  clear(section,
    el("h2", {id: "host-title", text: "Host: the table's phones"}),
    requests.length ? el("ul", {id: "requests", class: "requests"}, requests.map((p) => el("li", {},
      el("p", {class: "pending", text: "Phone " + p.code + " asks for " + asked(p) + "."}),
      el("div", {class: "stepper"},
        el("button", {"data-grant": p.code, onclick: () => grant(p, true)}, "Yes"),
        el("button", {class: "secondary", onclick: () => grant(p, false)}, "No"))))) :
      el("p", {class: "hint", text: "No phone is asking for a seat."}),
    el("h3", {text: "Paired phones"}),
    el("ul", {id: "phones", class: "phones"}, phones.map((p) => el("li", {"data-code": p.code},
      el("span", {class: "phone-name", text: p.code + (p.me ? " (this phone)" : "") + ": " + role(p, seatName)}),
      el("span", {class: "phone-actions"},
        p.host ? null : el("button", {class: "secondary", onclick: () => act("/api/host", p)},
          "Make host"),
        el("button", {class: "secondary", onclick: () => act("/api/forget", p)}, "Forget"))))),
    pairBox(), ownerBox());
}

function role(p, seatName) {
  const bits = [];
  if (p.seat) bits.push("seat " + p.seat + (seatName(p.seat) ? " (" + seatName(p.seat) + ")" : ""));
  if (p.host) bits.push("host");
  return bits.join(", ") || "watching";
}

async function grant(p, yes) {
  const r = await post("/api/grant", {code: p.code, yes, asked: p.pending});
  say(r.ok ? r.data.message : r.data.error, r.ok);
}

async function act(path, p) {
  const r = await post(path, {code: p.code});
  say(r.ok ? r.data.message : r.data.error, r.ok);
}

function pairBox() {
  const box = el("div", {id: "host-pin"}, el("h3", {text: "Pair a phone"}));
  if (hostPin && Date.now() < hostPin.until) {
    const left = Math.max(1, Math.round((hostPin.until - Date.now()) / 60000));
    box.append(el("p", {class: "pin", "aria-label": "PIN " + hostPin.pin.split("").join(" "),
      text: hostPin.pin.slice(0, 3) + " " + hostPin.pin.slice(3)}),
      el("p", {class: "hint", text: "Type it on the other phone (this page's address, then Pair). It lasts about " +
        left + (left === 1 ? " minute" : " minutes") + " and pairs " + hostPin.phones + " phones."}));
  }
  box.append(el("button", {id: "new-pin", class: hostPin ? "secondary" : null, onclick: async () => {
    const r = await post("/api/pin", {});
    if (!r.ok) { say(r.data.error, false); return; }
    hostPin = {pin: r.data.pin, until: Date.now() + r.data.valid_s * 1000, phones: r.data.phones};
    hostKey = null;
    renderHost();
  }}, hostPin ? "A new PIN" : "Show a PIN"));
  return box;
}

function ownerBox() {
  const code = el("input", {id: "owner-now", type: "text", autocomplete: "off", autocapitalize: "characters",
    "aria-label": "The owner code now", placeholder: "ABCD-EFGH", maxlength: 12});
  const out = el("p", {id: "owner-new", role: "status"});
  const go = async () => {
    const r = await post("/api/owner-code", {owner: code.value});
    if (!r.ok) { say(r.data.error, false); return; }
    code.value = "";
    out.textContent = "New owner code: " + r.data.owner_code + " (kept in " + r.data.kept_in +
      "). The old one no longer pairs: write this one down.";
    say("New owner code made", true);
  };
  return el("details", {id: "owner-box"}, el("summary", {text: "New owner code"}),
    el("p", {class: "hint", text: "Type the owner code now (printed on the box) to make a new one, e.g. after a " +
      "sticker was seen by someone who should not pair as the host."}),
    el("div", {class: "stepper"}, code, el("button", {onclick: go}, "Make a new one")), out);
}

// the companion's buttons under its mirror: a box without its panel is driven from here (new game, menus...)
const KEY_LABELS = [["up", "▲", "Up"], ["down", "▼", "Down"], ["ok", "OK", "OK"], ["back", "Back", "Back"],
  ["hold", "Menu", "Hold OK: the game menu"]];
let keyChain = Promise.resolve();  // presses go one after another, in the order tapped (never overtaking)
function deviceKeys() {
  const group = el("div", {class: "device-keys", role: "group", "aria-label": "The companion's buttons",
    "data-done": 0});
  const send = async (key) => {
    const r = await post("/api/key", {key});
    if (!r.ok) say(r.data.error || r.data.message, false);
    else if (r.data.message) say(r.data.message, "note");
    group.dataset.done = String(Number(group.dataset.done) + 1);
  };
  group.append(...KEY_LABELS.map(([key, label, name]) => el("button", {class: "secondary key", "data-key": key,
    "aria-label": name, onclick: () => { keyChain = keyChain.then(() => send(key)); }}, label)));
  return group;
}

// "#owner=ABCD-EFGH" (the QR code on the box): pair this phone as the owner's, then forget the code from the address
async function pairFromAddress() {
  const m = /^#owner=([A-Za-z0-9 -]{8,12})$/.exec(decodeURIComponent(location.hash || ""));
  if (!m) return;
  history.replaceState(null, "", location.pathname + location.search);
  const r = await post("/api/pair", {owner: m[1]});
  if (r.ok) { me.csrf = r.data.csrf; say("Paired as the host", true); await start(); }
  else say(r.data.error, false);
}

document.addEventListener("DOMContentLoaded", pairFromAddress);
