// One script against the firmware in MicroPython's interpreter: the firmware imported as `main` (boot.mjs), then
// the Python on stdin run; its print()s come out on stdout. On an exception: the traceback on stderr, exit 1.
//   node run_script.mjs FIRMWARE.py|FIRMWARE.mpy [--ticks-start N] [--seed N] [--still] < script.py
import { readFileSync } from "node:fs";
import { load, options, prelude } from "./boot.mjs";

const [firmware, ...args] = process.argv.slice(2);
try {
  const mp = await load(firmware, {
    stdout: (line) => process.stdout.write(line + "\n"),
    stderr: (line) => process.stderr.write(line + "\n"),
  });
  mp.runPython(prelude(options(args)));
  mp.runPython(readFileSync(0, "utf8"));
} catch (e) {
  if (e.name !== "PythonError") throw e;
  process.stderr.write(e.message);
  process.exit(1);
}
