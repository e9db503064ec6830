// The roller firmware in MicroPython's interpreter, live: booted (main.boot()) and then stepped (main.step()) from
// Node's event loop every LOOP_MS, since the interpreter runs Python synchronously and a `while True` there would
// never let a byte in. The test's side (tests/fw_shim/engines.py NodeEngine) speaks text lines:
//   in:  rx HEX (bytes from the host) | pin ID LEVEL | tap ID MS DEBOUNCE_MS [FAST] | untap | leds ID | freeze | thaw
//        | advance MS | quit
//   out: ready | tx HEX (bytes the firmware wrote) | ok CMD | leds N | halted WHY | error tap WHY
//   node runner.mjs FIRMWARE.py [--ticks-start N] [--seed N] [--set NAME=JSON ...] [--pin ID=LEVEL ...]
// `tap` is answered once the firmware's own steps have seen the press held MS of its ticks and then the release
// (../fw_tap.py, moved on after each step), whatever Node's timers were late by; `untap` drops a tap under way.
import { createInterface } from "node:readline";
import { load, options, prelude } from "./boot.mjs";

const LOOP_MS = 5;
const say = (line) => process.stdout.write(line + "\n");
const rx = [];  // bytes from the host, read by the firmware's sys.stdin.buffer.read(1)
let tx = [];    // bytes the firmware wrote to sys.stdout.buffer
let booted = false, frozen = false, halted = false, tapping = false;

function flush() {
  if (tx.length) { say("tx " + Buffer.from(tx).toString("hex")); tx = []; }
}
function halt(why) {
  if (!halted) { halted = true; flush(); say("halted " + why); }
  if (tapping) { tapping = false; say("error tap the firmware stopped: " + why); }
}
function py(code) {  // an exception stops the firmware, as a board drops to its REPL
  try { return mp.runPython(code); }
  catch (e) {
    if (e.name !== "PythonError") throw e;
    halt(`${e.type}: ${e.message.trim().split("\n").slice(-1)[0]}`);
    return undefined;
  }
}

const [firmware, ...args] = process.argv.slice(2);
const mp = await load(firmware, {
  stdin: () => (rx.length ? rx.shift() : null),  // null: nothing there, read(1) gives b""
  stdout: (bytes) => { for (const b of bytes) tx.push(b); },
  stderr: (text) => process.stderr.write(text),
  linebuffer: false,
});
py(prelude(options(args)));
if (!halted) py("_fw = main.boot()\n_booted = _fw is not None");
booted = !halted && mp.globals.get("_booted") === true;
if (!halted && !booted) halt("safe mode");
flush();
say("ready");
setInterval(() => {
  if (halted || frozen || !booted) return;
  py("main.step(*_fw)");
  if (tapping && !halted) {
    py("_tapped = _tap.step(_fw[0].last_tick)");
    if (mp.globals.get("_tapped") === true) { tapping = false; say("ok tap"); }
  }
  flush();
}, LOOP_MS);

const M = mp._module;
const pin = (id) => `fw_board.inputs[json.loads(${JSON.stringify(id)})]`;
createInterface({ input: process.stdin }).on("line", (line) => {
  const [cmd, ...rest] = line.trim().split(/\s+/);
  if (cmd === "rx") {
    for (const b of Buffer.from(rest[0] || "", "hex")) {
      // rp2's USB CDC driver: the interrupt character raises KeyboardInterrupt unless kbd_intr(-1) was called
      if (b === M._mp_hal_get_interrupt_char()) M._mp_sched_keyboard_interrupt();
      rx.push(b);
    }
    return;  // no reply: bytes stream
  }
  if (cmd === "pin") py(`${pin(rest[0])} = ${Number(rest[1])}`);
  else if (cmd === "tap") {
    if (halted) { say("error tap the firmware has stopped"); return; }
    const fast = rest[3] === "1" ? "True" : "False";
    py(`import fw_tap\n_tap = fw_tap.Tap(json.loads(${JSON.stringify(rest[0])}), ${Number(rest[1])}, ${Number(rest[2])}, ${fast})`);
    tapping = true;
    return;  // answered by the step that ends it
  }
  else if (cmd === "untap") tapping = false;
  else if (cmd === "leds") {
    py(`_n = fw_board.rising_edges.get(json.loads(${JSON.stringify(rest[0])}), 0)`);
    say("leds " + mp.globals.get("_n"));
    return;
  }
  else if (cmd === "freeze") frozen = true;
  else if (cmd === "thaw") frozen = false;
  else if (cmd === "advance") py(`fw_time.advance(${Number(rest[0])})`);
  else if (cmd === "quit") { flush(); process.exit(0); }
  else { say(`error unknown command ${cmd}`); return; }
  say(`ok ${cmd}`);
}).on("close", () => process.exit(0));
