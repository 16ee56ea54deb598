// Seeded random generator of ECMA-262 u-mode patterns and inputs.
//
//   import { generate } from "./random.mjs";
//   generate(1, 3000) // -> [{ pattern, inputs }, ...]  (same shape as cases.mjs)
//
//   node tests/patterns/random.mjs [SEED] [COUNT]   prints a few samples
//
// Patterns come from a small grammar (literals, escapes, class escapes,
// classes with ranges, properties, dot, anchors, \b \B, groups, alternation,
// greedy/lazy/counted quantifiers, and occasionally lookarounds and
// backreferences). About 15% are then deliberately broken. For every pattern
// we build ~8 inputs: strings generated from the AST (which usually match),
// mutations of them, and random strings from the same character pool. All
// inputs are well-formed Unicode (built from code points, never from halves of
// surrogate pairs).
//
// Output depends only on the seed and on node's Unicode data (used to sample
// members of classes / properties), so regenerating with another node may
// change some inputs. The committed JSON is the source of truth.

export function mulberry32(seed) {
  let a = seed >>> 0;
  return function () {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// ------------------------------------------------------------------ pools

const ASCII_POOL = [
  ..."abcdefxyzABCDEFXYZ0123456789_ -.,:;!?@#$%^&*()[]{}|\\/+=<>'\"`~",
].map((c) => c.codePointAt(0));

// Non-ASCII look-alikes and edge characters (all stable since long before
// Unicode 16), plus ASCII controls.
const SPECIAL_POOL = [
  0x0660, 0x0663, 0x0669, // Arabic-Indic digits
  0x0966, 0x0969, // Devanagari digits
  0xff10, 0xff13, 0xff21, 0xff41, // fullwidth 0 3 A a
  0x00e9, 0x00c9, 0x00df, 0x00aa, 0x017f, 0x212a, 0x01c5, // é É ß ª ſ K ǅ
  0x03b1, 0x03a9, 0x03c2, 0x0430, 0x0628, 0x060c, 0x0964, // Greek, Cyrillic, Arabic, danda
  0x4e2d, 0x6587, 0x3042, 0x30fc, // CJK, kana, prolonged sound mark
  0x1f600, 0x1f601, 0x1f602, 0x1f3fb, 0x1d400, 0x1d7ce, 0x10ffff, // astral
  0x0301, 0x0308, 0x0345, 0x200d, 0x200c, 0x200b, // marks, ZWJ, ZWNJ, ZWSP
  0x00a0, 0x1680, 0x2000, 0x2003, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff,
  0x0085, 0x180e, // not \s in JS
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x00, 0x08, 0x7f, 0x80,
  0x00b2, 0x2167, 0x24b6, 0x00a9, 0x20ac, 0x2013, // ² Ⅷ Ⓐ © € –
  0xe000, 0xfffd, 0xffff, 0x0378, // PUA, replacement, noncharacter, unassigned
];

const PROPS = [
  "L", "Lu", "Ll", "Lt", "Lm", "Lo", "N", "Nd", "Nl", "No", "P", "Pd", "S", "Sc", "Sm", "So",
  "Z", "Zs", "M", "Mn", "Cc", "Cf", "Co", "Cn", "LC", "Letter", "Number", "Punctuation",
  "gc=L", "gc=Nd", "General_Category=Lu", "General_Category=Letter",
  "Script=Latin", "sc=Grek", "sc=Arab", "Script=Han", "sc=Cyrl", "sc=Deva", "sc=Zyyy", "sc=Zinh",
  "scx=Arab", "scx=Deva", "Script_Extensions=Latin", "scx=Hira",
  "Alphabetic", "White_Space", "ASCII", "Any", "Assigned", "Emoji", "Emoji_Presentation",
  "Extended_Pictographic", "Uppercase", "Lowercase", "ID_Start", "ID_Continue", "Hex_Digit",
  "ASCII_Hex_Digit", "Dash", "Math",
];

const CLASS_ESCAPES = ["\\d", "\\D", "\\w", "\\W", "\\s", "\\S"];

// Syntax characters that must be escaped as literals outside a class.
const SYNTAX = new Set([..."^$\\.*+?()[]{}|"]);
// Characters escaped inside a class (identity escapes allowed in u-mode).
const CLASS_SPECIAL = new Set([..."\\]^-["]);
const IDENTITY_ESCAPABLE = [..."^$\\.*+?()[]{}|/"];

const SIMPLE_ESCAPES = [
  ["\\n", 0x0a], ["\\r", 0x0d], ["\\t", 0x09], ["\\v", 0x0b], ["\\f", 0x0c], ["\\0", 0x00],
];

const BROKEN_SNIPPETS = [
  "a**", "\\p{Foo}", "[z-a]", "\\-", "(?i)", "\\pL", "\\u{110000}", "\\x4", "\\c1", "[\\d-z]",
  "^*", "(?=a)*", "(?P<n>a)", "[[:alpha:]]", "\\_", "\\:", "x{2}{3}", "\\8", "\\p{letter}",
  "(?<a>x)(?<a>y)", "\\k<zz>", "{1}", "}", "]", "{", "\\p{Greek}", "(?i:a)", "x{,2}", "\\u12",
  "[a-z&&[^b]]", "\\b+", "\\@", "a{2,1}", "\\1", "\\u{}", "(?<1>a)", "[\\w-a]", "\\z", "(?#c)",
];
const BROKEN_INSERTS = [
  "(", ")", "[", "]", "{", "}", "*", "+", "?", "\\", "|", "{2,1}", "{,", "(?", "\\p{", "\\k<q>",
  "\\-", "\\9", "{1}", "-", "^", "$", "\\u{", "\\x",
];

// ------------------------------------------------------------------ helpers

// Code points whose Unicode properties have not changed for many versions.
// Only these (and the pools above) are ever put into inputs, so that the
// verdicts do not depend on Unicode 16/17 assignments.
const STABLE_RANGES = [
  [0x0000, 0x017f], [0x0391, 0x03a1], [0x03a3, 0x03c9], [0x0410, 0x044f], [0x0621, 0x063a],
  [0x0660, 0x0669], [0x0966, 0x096f], [0x3041, 0x3094], [0x30a1, 0x30fa], [0x4e00, 0x9fa5],
  [0xac00, 0xd7a3], [0xe000, 0xf8ff], [0xff10, 0xff19], [0xff21, 0xff3a], [0xff41, 0xff5a],
  [0x1d400, 0x1d454], [0x1d7ce, 0x1d7ff], [0x1f600, 0x1f640], [0x1f645, 0x1f64f],
];
const POOL_SET = new Set([...ASCII_POOL, ...SPECIAL_POOL]);
const isStable = (cp) => POOL_SET.has(cp) || STABLE_RANGES.some(([lo, hi]) => cp >= lo && cp <= hi);

const hex = (n, w) => n.toString(16).toUpperCase().padStart(w, "0");
const isSurrogate = (cp) => cp >= 0xd800 && cp <= 0xdfff;
const cpStr = (cp) => String.fromCodePoint(cp);

const memberRe = new Map();
function memberTest(src) {
  let re = memberRe.get(src);
  if (re === undefined) {
    try {
      re = new RegExp("^(?:" + src + ")$", "u");
    } catch {
      re = null;
    }
    memberRe.set(src, re);
  }
  return re;
}

class Rng {
  constructor(seed) {
    this.next = mulberry32(seed);
  }
  float() {
    return this.next();
  }
  int(n) {
    return Math.floor(this.next() * n);
  }
  range(lo, hi) {
    return lo + this.int(hi - lo + 1);
  }
  chance(p) {
    return this.next() < p;
  }
  pick(arr) {
    return arr[this.int(arr.length)];
  }
  poolCp() {
    return this.chance(0.55) ? this.pick(ASCII_POOL) : this.pick(SPECIAL_POOL);
  }
  poolString(maxLen) {
    const n = this.int(maxLen + 1);
    let s = "";
    for (let i = 0; i < n; i++) s += cpStr(this.poolCp());
    return s;
  }
}

// ------------------------------------------------------------------ AST construction

class PatternBuilder {
  constructor(rng) {
    this.rng = rng;
    this.groups = 0; // capturing groups created so far
    this.names = [];
  }

  // How a single code point is written as a (non-class) atom.
  charAtom(cp) {
    const rng = this.rng;
    const r = rng.float();
    if (r < 0.6) {
      const s = cpStr(cp);
      if (SYNTAX.has(s)) return { t: "char", cp, src: "\\" + s };
      if (s === "/" && rng.chance(0.5)) return { t: "char", cp, src: "\\/" };
      return { t: "char", cp, src: s };
    }
    return { t: "char", cp, src: this.escapeFor(cp) };
  }

  // Some escape spelling of a code point (valid in u-mode, in or out of class).
  escapeFor(cp) {
    const rng = this.rng;
    const opts = [];
    for (const [src, c] of SIMPLE_ESCAPES) if (c === cp && c !== 0) opts.push(src);
    if (cp < 0x100) opts.push("\\x" + (rng.chance(0.5) ? hex(cp, 2) : hex(cp, 2).toLowerCase()));
    if (cp <= 0xffff && !isSurrogate(cp)) opts.push("\\u" + hex(cp, 4));
    if (cp > 0xffff) {
      const s = cpStr(cp);
      opts.push("\\u" + hex(s.charCodeAt(0), 4) + "\\u" + hex(s.charCodeAt(1), 4));
    }
    opts.push("\\u{" + "0".repeat(rng.int(3)) + hex(cp, 1) + "}");
    const ch = cpStr(cp);
    if (IDENTITY_ESCAPABLE.includes(ch)) opts.push("\\" + ch);
    if (cp >= 1 && cp <= 26) opts.push("\\c" + (rng.chance(0.5) ? cpStr(cp + 64) : cpStr(cp + 96)));
    return rng.pick(opts);
  }

  escapeAtom() {
    const rng = this.rng;
    const r = rng.float();
    if (r < 0.3) {
      const [src, cp] = rng.pick(SIMPLE_ESCAPES);
      return { t: "char", cp, src, nul: cp === 0 };
    }
    if (r < 0.4) {
      const l = rng.range(1, 26);
      return { t: "char", cp: l, src: "\\c" + cpStr(l + (rng.chance(0.5) ? 64 : 96)) };
    }
    if (r < 0.5) {
      const ch = rng.pick(IDENTITY_ESCAPABLE);
      return { t: "char", cp: ch.codePointAt(0), src: "\\" + ch };
    }
    if (r < 0.53) {
      // A lone surrogate escape: valid, but can never match a well-formed string.
      return { t: "char", cp: null, src: "\\u" + hex(rng.range(0xd800, 0xdfff), 4) };
    }
    const cp = rng.poolCp();
    return { t: "char", cp, src: this.escapeFor(cp) };
  }

  propAtom() {
    const rng = this.rng;
    const neg = rng.chance(0.25);
    return { t: "set", src: (neg ? "\\P{" : "\\p{") + rng.pick(PROPS) + "}" };
  }

  classCharSrc(cp) {
    const s = cpStr(cp);
    if (this.rng.chance(0.7)) return CLASS_SPECIAL.has(s) ? "\\" + s : s;
    return this.escapeFor(cp);
  }

  classAtom() {
    const rng = this.rng;
    if (rng.chance(0.04)) return { t: "set", src: rng.pick(["[^]", "[]", "[\\s\\S]", "[^\\s\\S]"]) };
    const neg = rng.chance(0.3);
    const n = rng.range(1, 4);
    const items = [];
    const hints = []; // candidate members for sampling
    for (let i = 0; i < n; i++) {
      const r = rng.float();
      if (r < 0.35) {
        const cp = rng.poolCp();
        items.push(this.classCharSrc(cp));
        hints.push(cp);
      } else if (r < 0.65) {
        let a = rng.poolCp();
        let b = rng.chance(0.5) ? rng.poolCp() : a + rng.range(0, 30);
        if (b > 0x10ffff) b = 0x10ffff;
        if (a > b) [a, b] = [b, a];
        if (isSurrogate(b) || isSurrogate(a)) continue;
        items.push(this.classCharSrc(a) + "-" + this.classCharSrc(b));
        hints.push(a, b);
        if (b - a > 1) {
          const m = a + rng.int(b - a + 1);
          if (isStable(m)) hints.push(m);
        }
      } else if (r < 0.8) {
        items.push(rng.pick(CLASS_ESCAPES));
      } else if (r < 0.9) {
        items.push(this.propAtom().src);
      } else if (r < 0.95) {
        items.push("\\b");
        hints.push(0x08);
      } else {
        items.push("-"); // literal dash at an arbitrary position
        hints.push(0x2d);
      }
    }
    return { t: "set", src: "[" + (neg ? "^" : "") + items.join("") + "]", hints };
  }

  groupAtom(depth) {
    const rng = this.rng;
    const r = rng.float();
    if (r < 0.4) {
      const index = ++this.groups;
      return { t: "group", kind: "cap", index, body: this.alt(depth + 1) };
    }
    if (r < 0.55) {
      const index = ++this.groups;
      const name = rng.pick(["g", "n", "_", "$", "é", "x"]) + index;
      this.names.push({ name, index });
      return { t: "group", kind: "named", index, name, body: this.alt(depth + 1) };
    }
    return { t: "group", kind: "nc", body: this.alt(depth + 1) };
  }

  atom(depth) {
    const rng = this.rng;
    const r = rng.float();
    if (r < 0.34) return this.charAtom(rng.poolCp());
    if (r < 0.44) return this.escapeAtom();
    if (r < 0.54) return { t: "set", src: rng.pick(CLASS_ESCAPES) };
    if (r < 0.61) return this.propAtom();
    if (r < 0.76) return this.classAtom();
    if (r < 0.82) return { t: "set", src: "." };
    if (depth < 2) return this.groupAtom(depth);
    return this.charAtom(rng.poolCp());
  }

  quantifier(node) {
    const rng = this.rng;
    const r = rng.float();
    let min, max, src;
    if (r < 0.2) [min, max, src] = [0, Infinity, "*"];
    else if (r < 0.4) [min, max, src] = [1, Infinity, "+"];
    else if (r < 0.6) [min, max, src] = [0, 1, "?"];
    else if (r < 0.75) {
      min = rng.range(0, 4);
      max = min;
      src = `{${min}}`;
    } else if (r < 0.87) {
      min = rng.range(0, 3);
      max = Infinity;
      src = `{${min},}`;
    } else {
      min = rng.range(0, 3);
      max = min + rng.range(0, 4);
      src = `{${min},${max}}`;
    }
    if (rng.chance(0.25)) src += "?";
    return { t: "quant", body: node, min, max, src };
  }

  term(depth) {
    const rng = this.rng;
    const r = rng.float();
    if (r < 0.08) return { t: "assert", src: rng.pick(["^", "$", "\\b", "\\B", "\\b", "\\B"]) };
    if (r < 0.095 && depth < 2) {
      const kind = rng.pick(["(?=", "(?!", "(?<=", "(?<!"]);
      return { t: "look", kind, body: this.alt(depth + 1) };
    }
    if (r < 0.105 && (this.groups > 0 || this.names.length > 0)) {
      if (this.names.length > 0 && rng.chance(0.5)) {
        const { name, index } = rng.pick(this.names);
        return { t: "backref", index, src: `\\k<${name}>` };
      }
      if (this.groups > 0) {
        const index = rng.range(1, this.groups);
        return { t: "backref", index, src: "\\" + index, digitEnd: true };
      }
    }
    const a = this.atom(depth);
    return rng.chance(0.35) ? this.quantifier(a) : a;
  }

  seq(depth) {
    const n = this.rng.range(1, depth === 0 ? 5 : 3);
    const items = [];
    for (let i = 0; i < n; i++) items.push(this.term(depth));
    return { t: "seq", items };
  }

  alt(depth) {
    const rng = this.rng;
    const n = rng.chance(depth === 0 ? 0.15 : 0.25) ? rng.range(2, 3) : 1;
    const alts = [];
    for (let i = 0; i < n; i++) {
      // Occasionally an empty alternative.
      alts.push(n > 1 && rng.chance(0.1) ? { t: "seq", items: [] } : this.seq(depth));
    }
    return { t: "alt", alts };
  }

  pattern() {
    const rng = this.rng;
    const body = this.alt(0);
    const anchored = rng.float();
    const items = [];
    if (anchored < 0.5) {
      items.push({ t: "assert", src: "^" });
      items.push(body.alts.length > 1 ? { t: "group", kind: "nc", body } : body);
      items.push({ t: "assert", src: "$" });
      return { t: "seq", items };
    }
    return body;
  }
}

// ------------------------------------------------------------------ serialisation

function src(node) {
  switch (node.t) {
    case "char":
    case "set":
    case "assert":
    case "backref":
      return node.src;
    case "quant":
      return src(node.body) + node.src;
    case "group": {
      const open = node.kind === "cap" ? "(" : node.kind === "nc" ? "(?:" : `(?<${node.name}>`;
      return open + src(node.body) + ")";
    }
    case "look":
      return node.kind + src(node.body) + ")";
    case "alt":
      return node.alts.map(src).join("|");
    case "seq": {
      let out = "";
      for (const it of node.items) {
        const s = src(it);
        // `\0` or `\1` followed by a digit would change meaning / be invalid.
        if (/\\[0-9]+$/.test(out) && /^[0-9]/.test(s)) out += "(?:)";
        out += s;
      }
      return out;
    }
  }
  throw new Error("unknown node " + node.t);
}

// ------------------------------------------------------------------ matching-string generation

function sampleMember(rng, node) {
  const re = memberTest(node.src);
  if (!re) return null;
  const candidates = [];
  if (node.hints) for (const h of node.hints) candidates.push(h);
  for (let i = 0; i < 40; i++) candidates.push(rng.poolCp());
  // Prefer hints first (in random order), then pool characters.
  const hintCount = node.hints ? node.hints.length : 0;
  for (let i = hintCount - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [candidates[i], candidates[j]] = [candidates[j], candidates[i]];
  }
  for (const cp of candidates) {
    const s = cpStr(cp);
    if (re.test(s)) return s;
  }
  return null;
}

function gen(rng, node, caps) {
  switch (node.t) {
    case "char":
      return node.cp === null ? null : cpStr(node.cp);
    case "set":
      return sampleMember(rng, node);
    case "assert":
    case "look":
      return "";
    case "backref":
      return caps.get(node.index) ?? "";
    case "quant": {
      const hi = Math.min(node.max, node.min + 3);
      const n = rng.range(node.min, hi);
      let s = "";
      for (let i = 0; i < n; i++) {
        const part = gen(rng, node.body, caps);
        if (part === null) return null;
        s += part;
      }
      return s;
    }
    case "group": {
      const s = gen(rng, node.body, caps);
      if (s !== null && node.index) caps.set(node.index, s);
      return s;
    }
    case "alt":
      return gen(rng, rng.pick(node.alts), caps);
    case "seq": {
      let s = "";
      for (const it of node.items) {
        const part = gen(rng, it, caps);
        if (part === null) return null;
        s += part;
      }
      return s;
    }
  }
  throw new Error("unknown node " + node.t);
}

function mutate(rng, s) {
  const cps = Array.from(s);
  const r = rng.float();
  const i = rng.int(cps.length + 1);
  if (r < 0.3 && cps.length > 0) cps.splice(Math.min(i, cps.length - 1), 1); // delete
  else if (r < 0.6) cps.splice(i, 0, cpStr(rng.poolCp())); // insert
  else if (r < 0.85 && cps.length > 0) cps[Math.min(i, cps.length - 1)] = cpStr(rng.poolCp()); // replace
  else if (cps.length > 0) {
    const j = Math.min(i, cps.length - 1);
    cps.splice(j, 0, cps[j]); // duplicate
  } else cps.push(cpStr(rng.poolCp()));
  return cps.join("");
}

const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

function makeInputs(rng, ast, broken) {
  const out = new Set();
  const matches = [];
  const tries = broken ? 1 : 3;
  for (let i = 0; i < tries; i++) {
    const m = gen(rng, ast, new Map());
    if (m !== null) {
      matches.push(m);
      out.add(m);
    }
  }
  if (matches.length > 0) {
    const m = rng.pick(matches);
    out.add(rng.poolString(2) + m + rng.poolString(2));
    out.add(mutate(rng, m));
    out.add(mutate(rng, rng.pick(matches)));
    if (rng.chance(0.3)) out.add(m + "\n");
  }
  if (rng.chance(0.25)) out.add("");
  let guard = 0;
  while (out.size < 8 && guard++ < 30) out.add(rng.poolString(6));
  return [...out].filter((s) => !LONE_SURROGATE.test(s)).slice(0, 9);
}

function breakPattern(rng, p) {
  const cps = Array.from(p);
  const r = rng.float();
  const i = rng.int(cps.length + 1);
  if (r < 0.4) cps.splice(i, 0, rng.pick(BROKEN_INSERTS));
  else if (r < 0.55 && cps.length > 1) cps.splice(Math.min(i, cps.length - 1), 1);
  else if (r < 0.8) cps.splice(i, 0, rng.pick(BROKEN_SNIPPETS));
  else return rng.chance(0.5) ? p + rng.pick(BROKEN_SNIPPETS) : rng.pick(BROKEN_SNIPPETS) + p;
  return cps.join("");
}

// ------------------------------------------------------------------ entry point

export function generate(seed = 1, count = 3000) {
  const rng = new Rng(seed);
  const seen = new Set();
  const out = [];
  let attempts = 0;
  while (out.length < count && attempts++ < count * 20) {
    const ast = new PatternBuilder(rng).pattern();
    let pattern = src(ast);
    const broken = rng.chance(0.15);
    if (broken) pattern = breakPattern(rng, pattern);
    if (pattern.length > 120 || seen.has(pattern) || LONE_SURROGATE.test(pattern)) continue;
    seen.add(pattern);
    out.push({ pattern, inputs: makeInputs(rng, ast, broken) });
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const seed = Number(process.argv[2] ?? 1);
  const count = Number(process.argv[3] ?? 20);
  for (const c of generate(seed, count)) console.log(JSON.stringify(c));
}
