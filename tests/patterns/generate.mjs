// Evaluates pattern cases with node's RegExp in u-mode and writes the tables
// read by the Rust differential test.
//
//   node tests/patterns/generate.mjs
//       -> tests/patterns/ecma-cases.json      (from cases.mjs)
//       -> tests/patterns/ecma-generated.json  (from random.mjs, seed 1, 3000 patterns)
//
//   node tests/patterns/generate.mjs --random SEED COUNT OUT.json
//       -> an extra, uncommitted table for larger runs
//
// Verdicts: `new RegExp(p, "u")` (SyntaxError => valid: false, with the
// message) and `.test(input)` per input. No `g`/`y` flag, so lastIndex is
// never consulted or updated.

import { writeFileSync } from "node:fs";
import { Worker, isMainThread, parentPort, workerData } from "node:worker_threads";
import { fileURLToPath } from "node:url";
import { dirname, join, resolve } from "node:path";
import cases from "./cases.mjs";
import { generate } from "./random.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const RANDOM_SEED = 1;
const RANDOM_COUNT = 3000;

const LONE_SURROGATE = /[\uD800-\uDFFF]/u;
const isWellFormed = (s) => !LONE_SURROGATE.test(s);

function prepare(list, label) {
  // Deduplicate patterns (merging their inputs) while keeping first-seen order.
  const byPattern = new Map();
  let skippedPatterns = 0;
  let skippedInputs = 0;
  for (const { pattern, inputs } of list) {
    if (typeof pattern !== "string" || !isWellFormed(pattern)) {
      // serde_json cannot read lone surrogates into a String.
      skippedPatterns++;
      continue;
    }
    let set = byPattern.get(pattern);
    if (!set) byPattern.set(pattern, (set = new Set()));
    for (const input of inputs) {
      if (typeof input !== "string" || !isWellFormed(input)) {
        skippedInputs++;
        continue;
      }
      set.add(input);
    }
  }
  if (skippedPatterns || skippedInputs) {
    console.warn(`${label}: skipped ${skippedPatterns} pattern(s), ${skippedInputs} input(s) with lone surrogates`);
  }

  return [...byPattern].map(([p, inputs]) => ({ p, inputs: [...inputs] }));
}

// Runs in the worker: evaluates items[from..] and posts one message per pattern.
function evaluateInWorker({ items, from }) {
  for (let i = from; i < items.length; i++) {
    const { p, inputs } = items[i];
    let re;
    try {
      re = new RegExp(p, "u");
    } catch (e) {
      if (!(e instanceof SyntaxError)) throw e;
      parentPort.postMessage({ i, entry: { p, valid: false, error: e.message } });
      continue;
    }
    const results = [];
    for (const input of inputs) {
      re.lastIndex = 0;
      results.push([input, re.test(input)]);
    }
    parentPort.postMessage({ i, entry: { p, valid: true, cases: results } });
  }
  parentPort.postMessage({ done: true });
}

// A random pattern can backtrack catastrophically in V8 (e.g. nested
// quantifiers). Patterns whose evaluation makes no progress for TIMEOUT_MS are
// reported and left out (the worker is terminated and restarted after them).
const TIMEOUT_MS = 3000;

function evaluateAll(items) {
  return new Promise((resolveAll, reject) => {
    const entries = new Array(items.length).fill(null);
    const timedOut = [];
    const start = (from) => {
      if (from >= items.length) return resolveAll({ entries: entries.filter(Boolean), timedOut });
      const worker = new Worker(fileURLToPath(import.meta.url), { workerData: { items, from } });
      let next = from;
      let timer;
      const arm = () => {
        clearTimeout(timer);
        timer = setTimeout(() => {
          timedOut.push(items[next].p);
          worker.removeAllListeners();
          worker.terminate().then(() => start(next + 1), reject);
        }, TIMEOUT_MS);
      };
      arm();
      worker.on("message", (msg) => {
        if (msg.done) {
          clearTimeout(timer);
          worker.terminate();
          return start(items.length);
        }
        entries[msg.i] = msg.entry;
        next = msg.i + 1;
        arm();
      });
      worker.on("error", (e) => {
        clearTimeout(timer);
        reject(e);
      });
    };
    start(0);
  });
}

// JSON with invisible / confusable characters escaped as \uXXXX so that the
// tables diff and review well. Everything stays valid JSON (surrogate pairs
// for astral characters are written as escaped pairs, which serde_json reads).
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Z}\p{M}\p{Co}\p{Cn}\p{Cs}]/gu;
function stringify(value) {
  return JSON.stringify(value).replace(INVISIBLE, (ch) => {
    if (ch === " ") return ch;
    let out = "";
    for (let i = 0; i < ch.length; i++) out += "\\u" + ch.charCodeAt(i).toString(16).padStart(4, "0");
    return out;
  });
}

function write(path, source, entries) {
  const header = [
    `"node": ${stringify(process.version)}`,
    `"unicode": ${stringify(process.versions.unicode)}`,
    `"v8": ${stringify(process.versions.v8)}`,
    `"source": ${stringify(source)}`,
  ].join(", ");
  const body = entries.map((e) => "  " + stringify(e)).join(",\n");
  const text = `{${header},\n "patterns": [\n${body}\n ]}\n`;
  JSON.parse(text); // sanity check
  writeFileSync(path, text);

  const valid = entries.filter((e) => e.valid);
  const nCases = valid.reduce((n, e) => n + e.cases.length, 0);
  const nTrue = valid.reduce((n, e) => n + e.cases.filter(([, m]) => m).length, 0);
  console.log(
    `${path}: ${entries.length} patterns (${valid.length} valid, ${entries.length - valid.length} invalid), ` +
      `${nCases} cases (${nTrue} match, ${nCases - nTrue} no match), ${text.length} chars`,
  );
}

async function build(list, label, limit = Infinity) {
  const { entries, timedOut } = await evaluateAll(prepare(list, label));
  for (const p of timedOut) console.warn(`${label}: dropped (evaluation exceeded ${TIMEOUT_MS} ms): ${JSON.stringify(p)}`);
  return { entries: entries.slice(0, limit), timedOut };
}

async function main() {
  const args = process.argv.slice(2);
  if (args[0] === "--random") {
    const seed = Number(args[1]);
    const count = Number(args[2]);
    const out = args[3];
    if (!Number.isInteger(seed) || !Number.isInteger(count) || count <= 0 || !out) {
      console.error("usage: node tests/patterns/generate.mjs --random SEED COUNT OUT.json");
      process.exit(2);
    }
    // Generate a few spare patterns so that dropped (too slow) ones are replaced.
    const { entries } = await build(generate(seed, count + Math.ceil(count / 50)), "random", count);
    write(resolve(out), `random.mjs seed=${seed} count=${count}`, entries);
  } else if (args.length === 0) {
    const hand = await build(cases, "cases.mjs");
    if (hand.timedOut.length) throw new Error("hand-written cases must not time out");
    write(join(HERE, "ecma-cases.json"), "cases.mjs", hand.entries);
    const { entries } = await build(
      generate(RANDOM_SEED, RANDOM_COUNT + Math.ceil(RANDOM_COUNT / 50)),
      "random.mjs",
      RANDOM_COUNT,
    );
    write(join(HERE, "ecma-generated.json"), `random.mjs seed=${RANDOM_SEED} count=${RANDOM_COUNT}`, entries);
  } else {
    console.error("usage: node tests/patterns/generate.mjs [--random SEED COUNT OUT.json]");
    process.exit(2);
  }
}

if (isMainThread) {
  await main();
} else {
  evaluateInWorker(workerData);
}
