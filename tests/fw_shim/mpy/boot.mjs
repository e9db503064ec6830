// Power up the roller firmware in MicroPython's own interpreter (the WebAssembly port, under Node.js): write the
// stand-ins into its file system, give it the Pico's `time` (ticks from --ticks-start), os.urandom (the rp2 port
// has one, this port has not: tests/fw_shim/fw_rng.py, seeded) and rp2's armed Ctrl-C, then import the firmware as
// `main`. Shared by runner.mjs (the live link) and run_script.mjs (one script, in-process).
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";
import { readFileSync } from "node:fs";
import { dirname, extname, join } from "node:path";
import { fileURLToPath } from "node:url";

const HERE = dirname(fileURLToPath(import.meta.url));
// (machine.py, fw_rng.py and fw_tap.py are the ones CPython runs too)
const STAND_INS = { "machine.py": join(HERE, ".."), "fw_rng.py": join(HERE, ".."), "fw_tap.py": join(HERE, ".."),
                    "fw_board.py": HERE, "fw_time.py": HERE };

// argv after the firmware's path: --ticks-start N, --seed N, --set NAME=JSON (a firmware constant), --pin ID=LEVEL,
// --still (the ticks move only when the script says: time.advance)
export function options(args) {
  const o = { ticksStart: 2 ** 30 - 2000, seed: 35, sets: [], pins: [], real: true };
  while (args.length) {
    const a = args.shift();
    if (a === "--ticks-start") o.ticksStart = Number(args.shift());
    else if (a === "--seed") o.seed = Number(args.shift());
    else if (a === "--set") o.sets.push(args.shift().split(/=(.*)/s).slice(0, 2));
    else if (a === "--pin") o.pins.push(args.shift().split(/=(.*)/s).slice(0, 2));
    else if (a === "--still") o.real = false;
    else throw new Error(`unknown argument ${a}`);
  }
  return o;
}

const literal = (json) => `json.loads(${JSON.stringify(json)})`;

// the interpreter, its file system holding the firmware (/main.py) and the stand-ins; io: loadMicroPython's
// stdin/stdout/stderr/linebuffer
export async function load(firmware, io) {
  const mp = await loadMicroPython(io);
  for (const [name, dir] of Object.entries(STAND_INS)) mp.FS.writeFile("/" + name, readFileSync(join(dir, name)));
  mp.FS.writeFile("/main" + extname(firmware), readFileSync(firmware));  // main.py, or main.mpy from mpy-cross
  return mp;
}

// the Python that powers the board up and imports the firmware as `main` (run it with mp.runPython)
export function prelude(o) {
  return [
    "import sys, os, json, micropython, fw_board, fw_rng, fw_time",
    "micropython.kbd_intr(3)",  // rp2 runs main.py with Ctrl-C armed: the firmware must disarm it
    `fw_time.set_start(${Number(o.ticksStart)}, ${o.real ? "True" : "False"})`,
    'sys.modules["time"] = fw_time',
    `fw_rng.seed(${Number(o.seed)})`,
    "os.urandom = fw_rng.urandom",
    ...o.pins.map(([id, level]) => `fw_board.inputs[${literal(id)}] = ${Number(level)}`),
    "import main",
    ...o.sets.map(([name, value]) => `setattr(main, ${JSON.stringify(name)}, ${literal(value)})`),
  ].join("\n");
}
