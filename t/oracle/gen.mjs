#!/usr/bin/env node
// Seeded generator of adversarial YAML documents for the differential test.
//
// Usage: node gen.mjs [--seed S] [--count N] [--start I] [--out FILE]
//                     [--features FILE] [--stats] [--mix NAME]
//
// --mix exact3 weights in the outside class of gen-outside.mjs (weight 0
// otherwise, so a seed without --mix gives the documents it always gave).
//
// Writes a corpus: for each document `#<byte length>\n<bytes>\n`.  Document i
// depends only on (S, i): the same seed with a larger count yields the same
// documents first.  The generator uses its own PRNG (mulberry32) and no
// Math.random, so a seed gives the same corpus with every Node version.
//
// --features FILE writes one line per document listing the feature classes it
// used; --stats prints the share of documents using each class to stderr.
//
// Document kinds (weight per document, of 100.5):
//   tokens 60     realistic design tokens (groups of colors, spacing scales,
//                 typography, nested maps of lists) with adversarial scalars,
//                 keys, tags, anchors and layout variants mixed in; each
//                 document has an adversarial level 0/1/2 (30/50/20%) that
//                 sets how often a scalar or key is adversarial
//   scalars 9     a map or sequence of scalars of every core-schema form
//   keys 7        tricky keys: integer-like, float-like, bool/null, astral
//                 vs private-use, __proto__ (scalar, map, null values), <<
//   json 6        JSON documents (quoted keys, compact and pretty, escapes)
//   blocks 4      block scalars: | and >, chomping, indentation indicators
//   aliases 4.5   alias fan-out of a scalar (mostly 95..102 aliases), the
//                 billion-laughs pattern, collection fan-out, redefined
//                 anchors, recursive and unresolved aliases, << keys
//   empty 3       empty, blank, comment-only and marker-only documents
//   flowmix 3     flow collections: nested, trailing commas, multi-line,
//                 comments inside, single-pair maps in sequences
//   deep 2        nesting in block and flow form: 10..300 levels, rarely
//                 550..650
//   longkey 2     implicit keys of 1014..1034 UTF-16 units (astral chars)
// Scalars (per scalar, level 1): realistic 75, plain core-schema forms 14
//   (null/bool/int/float/random int/random double/look-alike strings/empty),
//   double-quoted with escapes 5, single-quoted 2, unicode 3, block 5,
//   multi-line folded 2.5, tagged 4, escaped control characters 1.5.
// Document-level features (probability per document):
//   leading BOM 3%, CRLF 5%, no final newline 6%, --- 10% (always with a
//   directive), ... 3%, %YAML 1.2 2%, %TAG 1.5%, several documents 4.5%,
//   invalid UTF-8 2% (and in 10% of unicode scalars), tab indentation 2%,
//   tabs as separators 3%, syntax mutation 9%, duplicate keys colliding 7%
//   and non-colliding 1.4%, comments 25%, invalid escapes 2%, unresolved
//   aliases 1%, scalars starting with an indicator 2%.
// Rare features, named RARE-* in --features (the first six together about
//   0.2% of documents): complex keys 0.05%, %YAML 1.1 0.05%, raw control
//   characters (C0, DEL, C1, U+FFFE/U+FFFF) 0.04%, raw U+2028/U+2029/U+0085
//   0.04%, BOM in the middle 0.03%, lone CR 0.04%; and anchor names libyaml
//   rejects, YAML 1.1 tags (!!timestamp, !!set, !!omap, !!pairs), a flow
//   ':' right before ',' or '}', a tab after '-' or an explicit ':'
//   (another 0.15% together).
// About 78% of the documents are accepted by the reference.
import { writeSync, openSync, closeSync } from 'node:fs';
import { HARD_CLASSES, hardDocument } from './gen-hard.mjs';

// ---------------------------------------------------------------- PRNG

function fnv1a(str) {
  let h = 0x811c9dc5;
  for (let i = 0; i < str.length; i++) {
    h ^= str.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

function mix32(x) {
  x = Math.imul(x ^ (x >>> 16), 0x7feb352d) >>> 0;
  x = Math.imul(x ^ (x >>> 15), 0x846ca68b) >>> 0;
  return (x ^ (x >>> 16)) >>> 0;
}

class Rng {
  constructor(seed) {
    this.a = seed >>> 0;
  }
  next() {
    // mulberry32
    this.a = (this.a + 0x6d2b79f5) >>> 0;
    let t = this.a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  u32() {
    return Math.floor(this.next() * 4294967296) >>> 0;
  }
  int(n) {
    return Math.floor(this.next() * n);
  }
  range(lo, hi) {
    // inclusive
    return lo + this.int(hi - lo + 1);
  }
  chance(p) {
    return this.next() < p;
  }
  pick(arr) {
    return arr[this.int(arr.length)];
  }
  // list of [weight, value]
  weighted(list) {
    let total = 0;
    for (const [w] of list) total += w;
    let x = this.next() * total;
    for (const [w, v] of list) {
      if (x < w) return v;
      x -= w;
    }
    return list[list.length - 1][1];
  }
}

// ---------------------------------------------------------------- pools

const INVALID_MARK = '\u{10FFFD}\u{10FFFD}'; // replaced by invalid UTF-8 bytes
const INVALID_SEQS = [
  [0x80], [0xbf], [0xc0, 0x80], [0xc1, 0xbf], [0xc2], [0xe2, 0x82], [0xe0, 0x80, 0x80],
  [0xed, 0xa0, 0x80], [0xed, 0xbf, 0xbf], [0xf0, 0x9f, 0x98], [0xf4, 0x90, 0x80, 0x80],
  [0xf5], [0xf8, 0x88, 0x80, 0x80, 0x80], [0xfe], [0xff], [0xff, 0xfe], [0xc3, 0x28],
  [0xe2, 0x28, 0xa1], [0xf0, 0x28, 0x8c, 0x28], [0x9f, 0x9f, 0x9f], [0xef, 0xbb],
];

const TOKEN_GROUPS = ['color', 'colors', 'spacing', 'space', 'size', 'sizing', 'radius', 'radii',
  'shadow', 'shadows', 'typography', 'font', 'fonts', 'motion', 'duration', 'easing', 'breakpoints',
  'opacity', 'z-index', 'border', 'elevation', 'grid', 'icon', 'brand', 'semantic', 'component',
  'button', 'card', 'modal', 'tooltip', 'theme', 'light', 'dark', 'meta', 'tokens', 'global'];
const TOKEN_NAMES = ['primary', 'secondary', 'tertiary', 'accent', 'neutral', 'surface', 'background',
  'foreground', 'border', 'outline', 'text', 'link', 'heading', 'body', 'caption', 'label', 'danger',
  'warning', 'success', 'info', 'hover', 'active', 'disabled', 'focus', 'base', 'muted', 'subtle',
  'strong', 'inverse', 'xs', 'sm', 'md', 'lg', 'xl', '2xl', '3xl', 'none', 'full', 'default',
  'family', 'weight', 'line-height', 'letter-spacing', 'fast', 'slow', 'in', 'out', 'in-out',
  '50', '100', '200', '300', '400', '500', '600', '700', '800', '900', '0', '1', '2', '4', '8', '12',
  'gutter', 'columns', 'max-width', 'min', 'max', 'on-primary', 'container', 'overlay', 'scrim',
  'value', 'type', 'description', '$value', '$type', '$description', 'comment', 'deprecated',
  'extensions', 'alias', 'ref', 'name', 'id', 'version', 'tags'];
const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'token', 'value', 'primary', 'blue', 'red', 'green',
  'grey', 'gray', 'slate', 'ink', 'paper', 'brand', 'sans', 'serif', 'mono', 'Inter', 'Roboto',
  'Helvetica', 'Neue', 'system-ui', 'bold', 'regular', 'light', 'the', 'of', 'and', 'for', 'use',
  'with', 'button', 'surface', 'elevated', 'card', 'note', 'deprecated', 'see', 'also', 'ok'];
const UNICODE_BITS = ['é', 'e\u0301', 'ü', 'ß', 'ø', 'Ω', 'π', 'Ж', 'ж', '中文', '日本', '한국', 'א',
  'ش', '\u00a0', '\u3000', '\u200d', '\u200b', '€', '£', '¥', '°', '±', '×', '…', '“', '”', '‘',
  '\u{1F600}', '\u{1F3A8}', '\u{1F44D}\u{1F3FD}', '\u{10000}', '\u{1D11E}', '\u{20000}', '\u{10FFFF}',
  '\u{E000}', '\u{E001}', '\u{E123}', '\u{F8FF}', '\u{F000}', '\u{FFFD}', '\u{FFFC}', '\u{FF21}',
  '\u{FB01}', '\u{D7FF}', '\u{1F1FA}\u{1F1F8}'];
const ASTRAL = ['\u{1F600}', '\u{1F3A8}', '\u{10000}', '\u{1D11E}', '\u{20000}', '\u{1F4A9}',
  '\u{10FFFF}', '\u{E0041}', '\u{1F9D1}'];
const PRIVATE = ['\u{E000}', '\u{E001}', '\u{E0FF}', '\u{EFFF}', '\u{F000}', '\u{F8FF}', '\u{FFFD}',
  '\u{FF5E}', '\u{FEFE}', '\u{FFEE}'];

// Plain scalars of every core-schema form (and look-alikes that stay strings).
const PLAIN_NULL = ['null', 'Null', 'NULL', '~', 'nULL', 'NuLL', 'nul', 'None', 'none', 'nil'];
const PLAIN_BOOL = ['true', 'True', 'TRUE', 'false', 'False', 'FALSE', 'tRUE', 'fALSE', 'TrUe',
  'yes', 'Yes', 'YES', 'no', 'No', 'NO', 'on', 'On', 'ON', 'off', 'Off', 'OFF', 'y', 'Y', 'n', 'N'];
const PLAIN_INT = ['0', '-0', '+0', '00', '007', '-007', '+007', '012', '08', '09', '1', '-1', '+1',
  '+12', '42', '-42', '255', '65535', '2147483647', '2147483648', '-2147483649', '4294967294',
  '4294967295', '4294967296', '9007199254740991', '9007199254740992', '9007199254740993',
  '-9007199254740993', '18446744073709551615', '18446744073709551616', '12345678901234567890',
  '123456789012345678901234567890', '99999999999999999999999', '0000000000000000000001',
  '1' + '0'.repeat(21), '1' + '0'.repeat(20), '1' + '0'.repeat(308), '1' + '0'.repeat(309),
  '0o0', '0o7', '0o17', '0o777', '0o8', '0o', '-0o17', '+0o17', '0O17', '0o1777777777777777777777',
  '0x0', '0x1', '0x1F', '0x1f', '0xff', '0xFF', '0xDEADbeef', '0xFFFFFFFF', '0x100000000',
  '0x1FFFFFFFFFFFFF', '0x20000000000000', '0x20000000000001', '0xFFFFFFFFFFFFFFFFFFFF', '0x',
  '-0x1F', '+0x1F', '0X1F', '0xG', '0b101', '0B101', '0b', '1_000', '1_000_000', '1,000', '1 000',
  '0.', '-0.', '1.', '+1.', '0x1.8p1', '1__0', '१२', '１２'];
const PLAIN_FLOAT = ['.5', '-.5', '+.5', '0.5', '1.0', '1.5', '-1.5', '+1.5', '1.', '-1.', '1e3',
  '1E3', '1e+3', '1e-3', '1E-3', '-1e3', '+1e3', '1.5e3', '1.5E+03', '6.02e23', '6.02E+23', '1e21',
  '1e20', '1e-6', '1e-7', '0.000001', '0.0000001', '123e-20', '1e308', '1.7976931348623157e308',
  '1.7976931348623158e308', '1.7976931348623159e308', '1e309', '-1e309', '1e-323', '5e-324',
  '2.5e-324', '2.4703282292062327e-324', '1e-400', '-1e-400', '0.0', '-0.0', '+0.0', '0e0', '-0e0',
  '0.1', '0.2', '0.3', '0.30000000000000004', '3.14159265358979323846', '2.718281828459045',
  '100.0', '1000000.0', '123456789012345680000', '0.1e1', '.1e1', '1.e1', '.e1', '1e', 'e3', 'E3',
  '1e3.5', '1.2.3', '1..2', '--1', '+-1', '1e+', '1e-', '.', '-.', '+.', '.0', '-.0',
  '.inf', '.Inf', '.INF', '-.inf', '-.Inf', '-.INF', '+.inf', '+.Inf', '.iNf', '.InF', 'inf', 'Infinity',
  '-Infinity', '.nan', '.NaN', '.NAN', '.NAn', '.nAn', '.nAN', 'nan', 'NaN', '-.nan', '+.nan',
  '4.9406564584124654e-324', '2.2250738585072014e-308', '2.2250738585072011e-308',
  '9007199254740993.0', '9007199254740993e0', '0.1e-6', '1e-06', '1E+21', '1e+21', '12e300',
  '190:20:30', '1:30', '2001-12-14', '2001-12-14t21:59:43.10-05:00', '12:30:00'];
const PLAIN_STR = ['hello', 'hello world', 'a b  c', 'Inter, sans-serif', 'rgba(0, 0, 0, 0.5)',
  'a#b', 'a# b', 'foo:bar', 'http://example.com/a?b=c#d', 'x-y_z', 'C:\\path', '50%', '-1px',
  '1px solid', 'cubic-bezier(0.4, 0, 0.2, 1)', '16px', '1.5rem', '.5rem', '150ms', '0 1px 2px #000',
  "it's", 'say "hi"', 'a\\nb', 'a/b', '@@x', 'x@y', 'a!b', 'a&b', 'a*b', 'a|b', 'a>b', 'a%b',
  'a`b', 'tab\there', 'trailing', 'multi  space', '=', '-', '--', '---x', '...x', '-x', '?x',
  ':x', 'x:', 'x::y', '<<', '<', '>x', '|x', '!x', '&x', '*x', '%x', '@x', '`x', '#x', '"x',
  "'x", '[x', ']x', '{x', '}x', ',x', 'x,y', 'x]', 'x}', 'x[y]', 'x{y}'];
const RISKY_PLAIN = new Set(['@@x', '>x', '|x', '!x', '&x', '*x', '%x', '@x', '`x', '#x', '"x',
  "'x", '[x', ']x', '{x', '}x', ',x', 'x]', 'x}', '?x', ':x', '-']);

const ESC_NAMED = ['\\0', '\\a', '\\b', '\\e', '\\f', '\\n', '\\r', '\\t', '\\\t', '\\v', '\\N',
  '\\_', '\\L', '\\P', '\\"', '\\/', '\\\\', '\\ '];
const ESC_HEX = ['\\x00', '\\x01', '\\x07', '\\x08', '\\x09', '\\x0a', '\\x0A', '\\x0d', '\\x1b',
  '\\x1f', '\\x20', '\\x22', '\\x5c', '\\x7f', '\\x80', '\\x85', '\\x9f', '\\xa0', '\\xA9', '\\xff',
  '\\xFF'];
const ESC_U = ['\\u0000', '\\u0001', '\\u001f', '\\u001F', '\\u0020', '\\u0022', '\\u005c', '\\u007f',
  '\\u0080', '\\u0085', '\\u00a0', '\\u00e9', '\\u2028', '\\u2029', '\\u200b', '\\u3042', '\\ud7ff',
  '\\ue000', '\\uE000', '\\uf8ff', '\\ufeff', '\\uFEFF', '\\ufffd', '\\ufffe', '\\uffff', '\\uFFFF'];
const ESC_BIGU = ['\\U00000000', '\\U00000041', '\\U000000e9', '\\U0001F600',
  '\\U0001f600', '\\U00010000', '\\U0010FFFF', '\\U0010ffff', '\\U0000D800', '\\U0000DFFF',
  '\\U0000FEFF', '\\U000E0041', '\\U0001D11E', '\\U00020000'];
const ESC_SURR = ['\\ud800', '\\uD800', '\\udfff', '\\uDFFF', '\\udbff', '\\udc00', '\\ud83d',
  '\\ude00', '\\ud83d\\ude00', '\\uD83D\\uDE00', '\\udbff\\udfff', '\\ud800\\udc00',
  '\\ude00\\ud83d', '\\ud83d\\ud83d', '\\ud83d\\U0001F600', '\\ud83dx', '\\ud800\\u0041'];
const ESC_BAD = ['\\U0000e9', '\\q', '\\x4', '\\x4g', '\\u12', '\\u12g4', '\\U0011000', '\\U00110000',
  '\\UFFFFFFFF', '\\c', '\\\'', '\\%', '\\8'];

// ---------------------------------------------------------------- helpers

function isWellFormedUtf16(s) {
  return typeof s.isWellFormed === 'function' ? s.isWellFormed()
    : !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s);
}

function utf16len(s) {
  return s.length;
}

// A conservative test: may this text be written as a plain scalar here
// without changing its meaning?
function plainOk(s, flow) {
  if (s === '') return false;
  if (/^[\s]|[\s]$/.test(s)) return false;
  if (/[\n\r\t\u0085\u2028\u2029\ufeff]/.test(s)) return false;
  if (/[\x00-\x1f\x7f]/.test(s)) return false;
  if (/^[-?:](\s|$)/.test(s)) return false;
  if (/^[\[\]{},#&*!|>'"%@`]/.test(s)) return false;
  if (/: |:$| #/.test(s)) return false;
  if (/^(---|\.\.\.)(\s|$)/.test(s)) return false;
  if (flow && /[\[\]{},]|:[\[\]{},]/.test(s)) return false;
  return true;
}

function hex(n, w) {
  return n.toString(16).padStart(w, '0');
}

// Double-quote an arbitrary string, sometimes with gratuitous escapes.
function dq(G, s) {
  const r = G.r;
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0);
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (cp < 0x20 || cp === 0x7f) {
      const named = { 0: '\\0', 7: '\\a', 8: '\\b', 9: '\\t', 10: '\\n', 11: '\\v', 12: '\\f',
        13: '\\r', 27: '\\e' }[cp];
      out += named && r.chance(0.6) ? named : r.chance(0.5) ? '\\x' + hex(cp, 2) : '\\u' + hex(cp, 4);
    } else if (cp === 0x85 || cp === 0x2028 || cp === 0x2029 || cp === 0xfeff || cp === 0xa0) {
      out += r.pick(['\\u' + hex(cp, 4), '\\u' + hex(cp, 4).toUpperCase(),
        { 0x85: '\\N', 0x2028: '\\L', 0x2029: '\\P', 0xfeff: '\\ufeff', 0xa0: '\\_' }[cp]]);
    } else if (cp > 0x7f && r.chance(0.15)) {
      if (cp > 0xffff) {
        if (r.chance(0.5)) out += '\\U' + hex(cp, 8);
        else {
          const hi = 0xd800 + ((cp - 0x10000) >> 10);
          const lo = 0xdc00 + ((cp - 0x10000) & 0x3ff);
          out += '\\u' + hex(hi, 4) + '\\u' + hex(lo, 4);
        }
      } else if (cp <= 0xff && r.chance(0.5)) out += '\\x' + hex(cp, 2);
      else out += '\\u' + hex(cp, 4);
    } else out += ch;
  }
  return out + '"';
}

function sq(s) {
  return "'" + s.replace(/'/g, "''") + "'";
}

// Quote for this context: plain when possible (usually), else quoted.
function quoteAuto(G, s, flow) {
  if (plainOk(s, flow) && G.r.chance(0.85)) return s;
  if (/[\x00-\x1f\x7f\u0085\u2028\u2029\ufeff]/.test(s) || G.r.chance(0.5)) return dq(G, s);
  return sq(s);
}

function feat(G, name) {
  G.features.add(name);
}

// ---------------------------------------------------------------- nodes
// Node kinds:
//   {t:'s', text, flowOk}       single-line scalar text as it appears
//   {t:'ml', lines, flowOk}     multi-line flow scalar (plain or quoted)
//   {t:'blk', header, body}     block scalar: body lines relative to content indent
//   {t:'map', entries:[{k, v, comment, explicit}], flow, props, multiline, trailing}
//   {t:'seq', items, flow, props, multiline, trailing}
//   {t:'alias', name}
//   props: string like '&a !!map' or ''

function S(text, flowOk = true) {
  return { t: 's', text, flowOk };
}

// ---------------------------------------------------------------- scalars

function randomDoubleText(G) {
  const r = G.r;
  const kind = r.int(6);
  let x;
  if (kind === 0) {
    const buf = new DataView(new ArrayBuffer(8));
    buf.setUint32(0, r.u32());
    buf.setUint32(4, r.u32());
    x = buf.getFloat64(0);
  } else if (kind === 1) x = r.int(1000000) / Math.pow(10, r.int(8));
  else if (kind === 2) x = (r.next() - 0.5) * Math.pow(10, r.range(-30, 30));
  else if (kind === 3) x = r.int(2 ** 31) * 2 ** r.range(0, 40);
  else if (kind === 4) x = Math.pow(2, r.range(-1074, 1023)) * (1 + r.int(8) / 8);
  else x = r.int(100000) * Math.pow(10, r.range(-330, 310));
  if (!Number.isFinite(x)) return r.pick(['.inf', '-.inf', '.nan']);
  const f = r.int(5);
  let t;
  if (f === 0) t = String(x);
  else if (f === 1) t = x.toExponential(r.int(17));
  else if (f === 2 && Math.abs(x) < 1e21) t = x.toFixed(r.int(20));
  else if (f === 3) t = x.toPrecision(r.range(1, 21));
  else t = String(x).replace('e+', r.pick(['e', 'E', 'E+', 'e+']));
  if (r.chance(0.1)) t = t.replace(/^(-?)0\./, '$1.');
  if (r.chance(0.05) && !t.startsWith('-')) t = '+' + t;
  return t;
}

function randomIntText(G) {
  const r = G.r;
  let digits = String(r.range(0, 9));
  const n = r.weighted([[5, r.range(0, 3)], [3, r.range(4, 12)], [2, r.range(13, 25)]]);
  for (let i = 0; i < n; i++) digits += String(r.int(10));
  const lead = r.chance(0.15) ? '0'.repeat(r.range(1, 3)) : '';
  const sign = r.weighted([[8, ''], [2, '-'], [1, '+']]);
  return sign + lead + digits;
}

function wordsText(G, n) {
  const parts = [];
  for (let i = 0; i < n; i++) parts.push(G.r.pick(WORDS));
  return parts.join(' ');
}

function unicodeText(G) {
  const r = G.r;
  let s = '';
  const n = r.range(1, 5);
  for (let i = 0; i < n; i++) {
    s += r.weighted([[3, () => r.pick(WORDS)], [3, () => r.pick(UNICODE_BITS)],
      [1, () => r.pick(ASTRAL)], [1, () => r.pick(PRIVATE)], [1, () => ' ']])();
  }
  if (G.r.chance(0.1)) {
    feat(G, 'invalid-utf8');
    s = G.r.chance(0.5) ? INVALID_MARK + s : s + INVALID_MARK;
  }
  return s;
}

function realisticScalar(G, flow) {
  const r = G.r;
  const hex6 = () => '#' + hex(r.u32() & 0xffffff, 6);
  const kind = r.weighted([[10, 'color'], [8, 'dim'], [7, 'num'], [4, 'font'], [4, 'ref'],
    [4, 'sentence'], [2, 'rgba'], [2, 'dur'], [2, 'bool'], [1, 'shadow']]);
  switch (kind) {
    case 'color': {
      const c = r.chance(0.2) ? hex6().slice(0, 4) : hex6();
      if (!flow && r.chance(0.12)) {
        feat(G, 'unquoted-hash-comment');
        return S(c, true); // a comment: the value is null
      }
      return S(r.chance(0.5) ? `"${c}"` : `'${c}'`);
    }
    case 'dim':
      return S(r.pick(['0', '1', '2', '4', '8', '12', '16', '24', '32', '48', '64', '0.5', '0.25',
        '1.25', '-1', '-2']) + r.pick(['px', 'rem', 'em', '%', 'vh', 'vw', '', 'pt', 'dp']));
    case 'num':
      return S(r.pick(['0', '1', '2', '4', '8', '16', '100', '400', '600', '700', '1.5', '1.25',
        '0.08', '-0.02', '0.5', '0.75', '1000', '9999', '-1', '3.0', '100.0', '0.1', '0.2']));
    case 'font': {
      const f = r.pick(['Inter', 'Roboto', '"Helvetica Neue"', 'Arial', 'system-ui', 'sans-serif',
        'monospace', 'Georgia', 'serif', '"SF Mono"']);
      const g = r.pick(['sans-serif', 'serif', 'monospace', 'system-ui']);
      const t = r.chance(0.5) ? `${f}, ${g}` : f;
      if (flow) return S(dq(G, t.replace(/"/g, '')));
      if (t.startsWith('"') && t !== f) return S(r.chance(0.5) ? sq(t) : dq(G, t));
      return S(t, !/[,"]/.test(t));
    }
    case 'ref': {
      const t = `{${r.pick(TOKEN_GROUPS)}.${r.pick(TOKEN_NAMES)}}`;
      if (r.chance(0.1)) {
        feat(G, 'unquoted-brace-ref');
        return S(t); // a flow mapping!
      }
      return S(r.chance(0.6) ? `"${t}"` : `'${t}'`);
    }
    case 'sentence': {
      let t = wordsText(G, r.range(2, 9));
      if (r.chance(0.2)) t += r.pick([': see docs', ' # not a comment?', '.', '!', ' - x', ' (a, b)']);
      return S(quoteAuto(G, t, flow));
    }
    case 'rgba': {
      const t = `rgba(${r.int(256)}, ${r.int(256)}, ${r.int(256)}, ${r.int(11) / 10})`;
      return S(flow ? dq(G, t) : t, flow);
    }
    case 'dur':
      return S(r.pick(['100ms', '150ms', '0.3s', '1s', 'ease-in-out', 'linear',
        'cubic-bezier(0.4, 0, 0.2, 1)']), false);
    case 'bool':
      return S(r.pick(['true', 'false', 'yes', 'no', 'on', 'off']));
    case 'shadow':
      return S(dq(G, `0 ${r.int(8)}px ${r.int(24)}px rgba(0, 0, 0, 0.${r.int(10)})`));
  }
  return S('x');
}

function plainFormScalar(G, flow) {
  const r = G.r;
  const cls = r.weighted([[2, 'null'], [2, 'bool'], [5, 'int'], [5, 'float'], [2, 'randint'],
    [3, 'randfloat'], [2, 'str'], [0.6, 'empty']]);
  feat(G, 'plain-' + cls);
  let t;
  switch (cls) {
    case 'null': t = r.pick(PLAIN_NULL); break;
    case 'bool': t = r.pick(PLAIN_BOOL); break;
    case 'int': t = r.pick(PLAIN_INT); break;
    case 'float': t = r.pick(PLAIN_FLOAT); break;
    case 'randint': t = randomIntText(G); break;
    case 'randfloat': t = randomDoubleText(G); break;
    case 'str': t = r.pick(PLAIN_STR); break;
    case 'empty': return S('');
  }
  if (!plainOk(t, flow)) {
    if (RISKY_PLAIN.has(t) && G.risky && r.chance(0.5)) {
      feat(G, 'risky-plain');
      return S(t);
    }
    return S(quoteAuto(G, t, flow));
  }
  return S(t);
}

function doubleQuotedScalar(G) {
  const r = G.r;
  let out = '"';
  const n = r.range(1, 6);
  for (let i = 0; i < n; i++) {
    const k = r.weighted([[4, 'text'], [4, 'named'], [2, 'hex'], [3, 'u'], [2, 'U'], [2, 'surr'],
      [G.badEsc ? 1 : 0, 'bad'], [1, 'uni'], [0.5, 'quote']]);
    feat(G, 'dq-' + k);
    switch (k) {
      case 'text': out += r.pick(WORDS) + (r.chance(0.3) ? ' ' : ''); break;
      case 'named': out += r.pick(ESC_NAMED); break;
      case 'hex': out += r.pick(ESC_HEX); break;
      case 'u': out += r.pick(ESC_U); break;
      case 'U': out += r.pick(ESC_BIGU); break;
      case 'surr': out += r.pick(ESC_SURR); break;
      case 'bad': out += r.pick(ESC_BAD); break;
      case 'uni': out += r.pick(UNICODE_BITS); break;
      case 'quote': out += r.pick(["'", "''", '#', ' #x', ': ', '[', '{', ',']); break;
    }
  }
  return S(out + '"');
}

function singleQuotedScalar(G) {
  const r = G.r;
  let s = '';
  const n = r.range(0, 5);
  for (let i = 0; i < n; i++) {
    s += r.weighted([[5, () => r.pick(WORDS)], [2, () => "''"], [2, () => ' '], [1, () => '\\n'],
      [1, () => '"'], [1, () => r.pick(UNICODE_BITS)], [1, () => ': '], [1, () => ' # ']])();
  }
  feat(G, 'single-quoted');
  return S("'" + s + "'");
}

// Multi-line flow scalars: plain or quoted, with folding.
function multiLineScalar(G, flow) {
  const r = G.r;
  const style = r.weighted([[3, 'plain'], [3, 'dq'], [2, 'sq']]);
  feat(G, 'multiline-' + style);
  const lines = [];
  const n = r.weighted([[8, r.range(2, 6)], [1, r.range(10, 40)]]);
  if (n > 6) feat(G, 'multiline-long');
  for (let i = 0; i < n; i++) {
    if (i > 0 && r.chance(0.2)) lines.push('');
    else {
      let l = wordsText(G, r.range(1, 6));
      if (style !== 'plain' && r.chance(0.15)) l = ' ' + l;
      if (r.chance(0.1)) l += ' ';
      if (style === 'dq' && i < n - 1 && r.chance(0.15)) l += r.pick(['\\', ' \\', '\\t', '\\n']);
      if (style === 'sq' && r.chance(0.2)) l += " it''s";
      lines.push(l);
    }
  }
  if (lines[lines.length - 1] === '') lines.push('end');
  if (style === 'plain') {
    lines[0] = lines[0].trimStart() || 'x';
    return { t: 'ml', lines: lines.map((l) => l.trimEnd()), flowOk: false };
  }
  const q = style === 'dq' ? '"' : "'";
  lines[0] = q + lines[0];
  lines[lines.length - 1] += q;
  return { t: 'ml', lines, flowOk: true };
}

function blockScalar(G) {
  const r = G.r;
  const style = r.pick(['|', '>']);
  const chomp = r.weighted([[3, ''], [2, '-'], [2, '+']]);
  feat(G, 'block-' + style + (chomp || 'clip'));
  const body = [];
  const leading = r.weighted([[8, 0], [1, 1], [1, 2]]);
  for (let i = 0; i < leading; i++) body.push(r.chance(0.3) ? ' ' : '');
  const n = r.range(1, 6);
  let firstIndented = false;
  for (let i = 0; i < n; i++) {
    const k = r.weighted([[8, 'text'], [2, 'more'], [1, 'blank'], [1, 'hash'], [0.5, 'tab'],
      [0.5, 'trail'], [0.5, 'uni']]);
    let l;
    switch (k) {
      case 'text': l = wordsText(G, r.range(1, 7)); break;
      case 'more': l = ' '.repeat(r.range(1, 4)) + wordsText(G, r.range(1, 4)); feat(G, 'block-more-indented'); break;
      case 'blank': l = ''; break;
      case 'hash': l = '# not a comment ' + r.pick(WORDS); break;
      case 'tab': l = (r.chance(0.5) ? '\t' : 'a\t') + r.pick(WORDS); break;
      case 'trail': l = r.pick(WORDS) + '  '; break;
      case 'uni': l = unicodeText(G); break;
    }
    if (body.every((b) => b.trim() === '') && /^[ \t]/.test(l)) firstIndented = true;
    body.push(l);
  }
  const trailing = r.weighted([[4, 0], [3, 1], [2, 2], [1, 3]]);
  for (let i = 0; i < trailing; i++) body.push(r.chance(0.2) ? '  ' : '');
  let indicator = '';
  if (firstIndented || leading > 0 || r.chance(0.12)) {
    indicator = 'I'; // filled in at render time with the actual offset
    feat(G, 'block-indent-indicator');
  }
  const order = r.chance(0.5);
  const comment = r.chance(0.08) ? ' # header comment' : '';
  return { t: 'blk', style, chomp, indicator, order, comment, body };
}

const TAGGED = [
  ['!!str', () => ['123', '1.5', 'true', 'null', '~', '', '"x"', '0x1F', '.inf', 'yes']],
  ['!!int', () => ['12', '-7', '012', '0x1F', '0o17', '"12"', "'0x10'", '1.5', 'abc', '1e3', '+5',
    '12345678901234567890', '', '~']],
  ['!!float', () => ['1', '.5', '1e3', '-.inf', '.nan', 'abc', '"2.5"', '12', '1_0', '0x10', '']],
  ['!!bool', () => ['true', 'False', 'yes', '"false"', 'on', '1', '']],
  ['!!null', () => ['', '~', 'null', '"x"', 'abc', "''"]],
  ['!!binary', null],
  ['!foo', () => ['bar', '12', 'true', '"q"', '', '~']],
  ['!', () => ['12', 'true', 'null', '1.5', 'x', '""', '']],
  ['!<tag:yaml.org,2002:str>', () => ['12', 'true', '~']],
  ['!<tag:yaml.org,2002:int>', () => ['"7"', '7', 'x']],
  ['!<tag:yaml.org,2002:float>', () => ['"7"', '7.5']],
  ['!<!bar>', () => ['x', '1']],
  ['!<tag:example.com,2000:x>', () => ['x', '1']],
  ['!!timestamp', () => ['2001-12-14', '"2001-12-14t21:59:43.10-05:00"']],
  ['!!set', () => ['x']],
  ['!!omap', () => ['x']],
  ['!!python/object', () => ['x']],
  ['!e!thing', () => ['x', '12', 'true']],
  ['!!e!x', () => ['x']],
];

// Tags of the YAML 1.1 types; yaml@2.8.3 resolves them oddly in the core
// schema (!!timestamp becomes {}), so they are a rare feature.
const YAML11_TAGS = new Set(['!!timestamp', '!!set', '!!omap', '!!pairs', '!!python/object']);

function base64Of(bytes) {
  return Buffer.from(bytes).toString('base64');
}

function taggedScalar(G, flow) {
  const r = G.r;
  let [tag, vals] = r.pick(TAGGED);
  if ((tag === '!e!thing' && !G.tagHandle) || (tag === '!!e!x' && !G.badTag) ||
      (YAML11_TAGS.has(tag) && !G.yaml11Tags)) [tag, vals] = TAGGED[r.int(5)];
  if (YAML11_TAGS.has(tag)) feat(G, 'RARE-yaml11-tag');
  feat(G, 'tag-' + tag.replace(/[^a-z0-9!]/gi, '_'));
  if (tag === '!e!thing' && G.tagHandle) feat(G, 'tag-directive-used');
  if (tag === '!!binary') {
    const n = r.range(0, 40);
    const bytes = [];
    for (let i = 0; i < n; i++) bytes.push(r.int(256));
    let b64 = base64Of(bytes);
    const k = r.weighted([[5, 'plain'], [3, 'block'], [1, 'quoted'], [0.5, 'bad'], [0.5, 'nopad']]);
    feat(G, 'binary-' + k);
    if (k === 'bad') return S(`${tag} ${b64.slice(0, 3) || 'a'}!$`, !flow);
    if (k === 'nopad') b64 = b64.replace(/=+$/, '') || 'QQ';
    if (k === 'block' && !flow) {
      const body = [];
      const w = r.range(4, 20);
      for (let i = 0; i < b64.length; i += w) body.push(b64.slice(i, i + w));
      if (!body.length) body.push('');
      return { t: 'blk', style: '|', chomp: r.pick(['', '-']), indicator: '', order: true,
        comment: '', body, prefix: tag + ' ' };
    }
    if (k === 'quoted' || b64 === '') return S(`${tag} "${b64}"`);
    return S(`${tag} ${b64}`);
  }
  let v = r.pick(vals());
  if (flow && v === '') v = '""';
  return S(v === '' ? tag : `${tag} ${v}`);
}

function escapedControlScalar(G) {
  const r = G.r;
  feat(G, 'escaped-controls');
  let s = '';
  const n = r.range(1, 4);
  for (let i = 0; i < n; i++) {
    const cp = r.weighted([[4, () => r.int(0x20)], [1, () => 0x7f], [1, () => 0x85],
      [1, () => 0x2028], [1, () => 0x2029], [1, () => 0xfeff], [1, () => 0xa0]])();
    s += r.pick(WORDS).slice(0, 3) + String.fromCodePoint(cp);
  }
  return S(dq(G, s));
}

function genScalar(G, flow) {
  const r = G.r;
  const k = r.weighted([[[150, 75, 40][G.level], 'real'], [14, 'plain'], [5, 'dq'], [2, 'sq'], [3, 'uni'],
    [flow ? 0 : 5, 'block'], [2.5, 'ml'], [4, 'tag'], [1.5, 'ctl'], [G.rare.rawCtl ? 40 : 0, 'rawctl'],
    [G.rare.rawSep ? 40 : 0, 'rawsep']]);
  switch (k) {
    case 'real': return realisticScalar(G, flow);
    case 'plain': return plainFormScalar(G, flow);
    case 'dq': return doubleQuotedScalar(G);
    case 'sq': return singleQuotedScalar(G);
    case 'uni': feat(G, 'unicode-scalar'); return S(quoteAuto(G, unicodeText(G), flow));
    case 'block': return blockScalar(G);
    case 'ml': return multiLineScalar(G, flow);
    case 'tag': return taggedScalar(G, flow);
    case 'ctl': return escapedControlScalar(G);
    case 'rawctl': {
      feat(G, 'RARE-raw-control');
      // C0 controls, DEL, C1 controls and the non-characters U+FFFE, U+FFFF
      const c = String.fromCharCode(r.pick([0, 1, 7, 8, 0x0b, 0x0c, 0x1b, 0x1f, 0x7f, 0x7f, 0x80, 0x9f,
        0xfffe, 0xffff]));
      const w = r.pick(WORDS);
      return S(r.weighted([[1, `${w}${c}x`], [1, `"${w}${c}"`], [1, `'${c}${w}'`]]), false);
    }
    case 'rawsep': {
      feat(G, 'RARE-raw-linesep');
      const c = r.pick(['\u2028', '\u2029', '\u0085']);
      const w = r.pick(WORDS);
      return S(r.weighted([[1, `${w}${c}x`], [1, `"${w}${c}y"`], [1, `'${c}${w}'`], [1, `${w} ${c}`]]), false);
    }
  }
  return S('x');
}

// ---------------------------------------------------------------- keys

const KEY_ADV = ['0', '01', '00', '-1', '+1', '1', '2', '10', '1.0', '1.5', '1e3', '.5', '-0', '0.0',
  '4294967294', '4294967295', '4294967296', '9007199254740993', '18446744073709551616',
  '12345678901234567890', '0x1F', '0o17', '0b11', '1_000', '1e21', '1e-7', '1e309', '.inf',
  '-.inf', '.nan', '.NaN', 'true', 'True', 'false', 'null', '~', 'yes', 'no', 'on', 'off',
  '__proto__', 'constructor', 'toString', 'prototype', 'hasOwnProperty', 'valueOf', '__defineGetter__',
  '<<', '=', 'length', '-', '$ref', 'a b', 'a#b', 'é', 'e\u0301', 'ß', 'Z', 'a', 'A', '_', '中文',
  '\u{1F600}', 'x\u{1F600}', 'x\u{E000}', 'x\u{FFFD}', 'x\u{F8FF}', '\u{E000}', '\u{10000}', '\u{FFFD}',
  '\u{FF21}', '\u{10FFFF}', '\u{1D11E}'];
const KEY_QUOTED = ['"1"', "'01'", '""', "''", '"__proto__"', "'__proto__'", '"a\\tb"', '"\\u0000"',
  '"\\ud800"', '"\\uDFFF"', '"\\uD83D\\uDE00"', '"\\U0001F600"', '"\\ue000"', '"\\uffff"', '"-0"',
  '"4294967295"', '"4294967294"', '"0"', '"true"', '"null"', '"a\\nb"', '" lead"', '"trail "',
  '"\\x7f"', '"\\N"', '"\\L"', '"a: b"', '"# c"', '"[x]"', "'it''s'"];

// Approximate core-schema identity of a plain key, to avoid accidental
// duplicates (intended duplicates are added on purpose).
let nanSerial = 0;
function keyIdentity(text) {
  let t = text;
  const q = /^"(.*)"$|^'(.*)'$/s.exec(t);
  if (q) return 'S:' + (q[1] ?? q[2]);
  t = t.replace(/^!\S+\s*/, '');
  if (/^(null|Null|NULL|~|)$/.test(t)) return 'null';
  if (/^(true|True|TRUE)$/.test(t)) return 'true';
  if (/^(false|False|FALSE)$/.test(t)) return 'false';
  if (/^0o[0-7]+$/.test(t)) return 'N:' + parseInt(t.slice(2), 8);
  if (/^0x[0-9a-fA-F]+$/.test(t)) return 'N:' + Number(t);
  if (/^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/.test(t)) {
    const n = Number(t);
    return 'N:' + (Object.is(n, -0) ? 0 : n);
  }
  if (/^[-+]?\.(inf|Inf|INF)$/.test(t)) return 'N:' + (t[0] === '-' ? '-inf' : 'inf');
  if (/^\.(nan|NaN|NAN)$/.test(t)) return 'NaN#' + (nanSerial++); // NaN never collides
  return 'S:' + t;
}

function genKeyText(G, flow, used) {
  const r = G.r;
  for (let tries = 0; tries < 8; tries++) {
    const k = r.weighted([[[40, 12, 6][G.level], 'name'], [[0.5, 1, 4][G.level], 'adv'], [[0.3, 0.6, 1][G.level], 'quoted'],
      [1, 'compound'], [[0.2, 0.4, 0.6][G.level], 'astralpair']]);
    let t;
    switch (k) {
      case 'name': t = r.pick(TOKEN_NAMES); break;
      case 'adv': t = r.pick(KEY_ADV); feat(G, 'key-adv'); break;
      case 'quoted': t = r.pick(KEY_QUOTED); feat(G, 'key-quoted'); break;
      case 'compound': t = r.pick(TOKEN_NAMES) + r.pick(['-', '_', '.', '/', ' ', '']) + r.pick(TOKEN_NAMES); break;
      case 'astralpair': {
        feat(G, 'key-astral-vs-private');
        const base = r.pick(TOKEN_NAMES);
        t = base + r.pick([...ASTRAL, ...PRIVATE]);
        break;
      }
    }
    if (!/^["']/.test(t) && !plainOk(t, flow)) t = quoteAuto(G, t, flow);
    if (t === '' || t === '""' || t === "''") {
      if (flow) t = '""';
    }
    const id = keyIdentity(t);
    if (!used.has(id)) {
      used.add(id);
      if (/__proto__/.test(t)) feat(G, 'key-proto');
      return t;
    }
  }
  // Fall back to a fresh name.
  const t = 'k' + G.fresh++;
  used.add(keyIdentity(t));
  return t;
}

// ---------------------------------------------------------------- anchors

function anchorName(G) {
  const r = G.r;
  if (G.anchors.length && r.chance(0.15)) {
    feat(G, 'anchor-redefined');
    return r.pick(G.anchors);
  }
  const n = r.weighted([[6, () => r.pick(['a', 'b', 'c', 'x', 'base', 'ref', 'def', 'color', 'A'])
    + (r.chance(0.5) ? String(G.anchors.length) : '')], [1, () => 'anc-' + r.int(100)],
  [G.exoticAnchor ? 3 : 0, () => (feat(G, 'RARE-anchor-name'), r.pick(['\u{1F600}', 'é1', 'a.b', 'a:b', 'a/b']))],
  [0.3, () => r.pick(['1', '_', 'A-1'])]])();
  return n;
}

// Record an anchor definition; aliases used as keys only name anchors whose
// latest definition is a scalar (a collection key is a rare feature).
function defineAnchor(G, name, isScalar) {
  G.anchors.push(name);
  G.scalarAnchors = G.scalarAnchors.filter((n) => n !== name);
  if (isScalar) G.scalarAnchors.push(name);
}

function maybeProps(G, node, flow) {
  const r = G.r;
  let props = '';
  let name = null;
  if (r.chance(G.adv ? 0.09 : 0.04)) {
    name = anchorName(G);
    props = '&' + name;
    feat(G, 'anchor');
  }
  if (node.t === 'map' || node.t === 'seq') {
    if (r.chance(0.04)) {
      const tag = r.weighted([[5, node.t === 'map' ? '!!map' : '!!seq'], [2, '!foo'], [1, '!'],
        [0.5, node.t === 'map' ? '!!seq' : '!!map'], [G.yaml11Tags ? 3 : 0, r.pick(['!!set', '!!omap', '!!pairs'])],
        [0.5, '!!str'], [0.5, '!<tag:yaml.org,2002:map>']]);
      if (YAML11_TAGS.has(tag)) feat(G, 'RARE-yaml11-tag');
      feat(G, 'tag-collection-' + tag.replace(/[^a-z0-9!]/gi, '_'));
      props = props ? (r.chance(0.5) ? `${props} ${tag}` : `${tag} ${props}`) : tag;
    }
  }
  node.props = props;
  return name;
}

// ---------------------------------------------------------------- trees

function genValue(G, depth, flow) {
  const r = G.r;
  const deep = depth >= G.maxDepth || G.budget <= 0;
  G.budget--;
  const k = r.weighted([
    [deep ? 10 : 5, 'scalar'],
    [deep ? 0 : 2.2, 'map'],
    [deep ? 0 : 1.2, 'seq'],
    [deep || flow ? 0 : 0.6, 'flow'],
    [G.anchors.length ? (G.adv ? 0.5 : 0.15) : 0, 'alias'],
  ]);
  let node;
  let name = null;
  switch (k) {
    case 'scalar':
      node = genScalar(G, flow);
      if (node.t === 's' && r.chance(G.adv ? 0.09 : 0.04)) {
        name = anchorName(G);
        if (!/^[!&]/.test(node.text)) node.props = '&' + name;
        else name = null;
        if (name) feat(G, 'anchor');
      }
      break;
    case 'map':
      node = genMap(G, depth + 1, flow);
      break;
    case 'seq':
      node = genSeq(G, depth + 1, flow);
      break;
    case 'flow': {
      node = r.chance(0.5) ? genMap(G, depth + 1, true) : genSeq(G, depth + 1, true);
      break;
    }
    case 'alias':
      feat(G, 'alias');
      node = { t: 'alias', name: r.pick(G.anchors) };
      if (G.badAlias && r.chance(0.3)) {
        feat(G, 'alias-unresolved');
        node.name = 'nosuch' + r.int(10);
      }
      break;
  }
  if (name !== null) defineAnchor(G, name, node.t === 's');
  return node;
}

function genMap(G, depth, flow) {
  const r = G.r;
  const node = { t: 'map', entries: [], flow };
  const name = maybeProps(G, node, flow);
  const n = r.weighted([[1, 0], [6, r.range(1, 4)], [3, r.range(5, 9)], [0.5, r.range(10, 20)]]);
  const used = new Set();
  for (let i = 0; i < n; i++) {
    if (G.budget <= 0 && i > 0) break;
    const e = { k: null, v: null };
    const kk = r.weighted([[40, 'text'], [G.scalarAnchors.length ? 0.6 : 0, 'alias'],
      [G.rare.complex ? 6 : 0, 'complex'], [0.6, 'anchored']]);
    if (kk === 'alias') {
      feat(G, 'alias-key');
      e.k = { t: 'alias', name: r.pick(G.scalarAnchors) };
    } else if (kk === 'complex') {
      feat(G, 'RARE-complex-key');
      const sub = r.chance(0.5) ? genSeq(G, G.maxDepth, true) : genMap(G, G.maxDepth, true);
      e.k = sub;
      e.explicit = flow ? false : r.chance(0.5);
    } else {
      const t = genKeyText(G, flow, used);
      e.k = S(t);
      if (kk === 'anchored') {
        const an = anchorName(G);
        e.k.props = '&' + an;
        defineAnchor(G, an, true);
        feat(G, 'anchor-on-key');
      }
    }
    if (!flow && r.chance(0.03)) {
      e.explicit = true;
      feat(G, 'explicit-key');
    }
    e.v = r.chance(0.04) ? S('') : genValue(G, depth, flow);
    if (e.v.t === 's' && e.v.text === '') feat(G, 'empty-value');
    if (!flow && G.comments && r.chance(0.12)) e.comment = '# ' + wordsText(G, r.range(1, 4));
    if (!flow && G.comments && r.chance(0.06)) e.commentBefore = '# ' + wordsText(G, r.range(1, 3));
    node.entries.push(e);
  }
  if (flow) {
    node.multiline = r.chance(0.2);
    node.trailing = n > 0 && r.chance(0.08);
    if (node.trailing) feat(G, 'flow-trailing-comma');
    if (node.multiline) feat(G, 'flow-multiline');
  }
  if (name !== null) defineAnchor(G, name, false);
  return node;
}

function genSeq(G, depth, flow) {
  const r = G.r;
  const node = { t: 'seq', items: [], flow };
  const name = maybeProps(G, node, flow);
  const n = r.weighted([[1, 0], [6, r.range(1, 5)], [2, r.range(6, 12)]]);
  for (let i = 0; i < n; i++) {
    if (G.budget <= 0 && i > 0) break;
    const v = r.chance(0.03) ? S('') : genValue(G, depth, flow);
    if (!flow && G.comments && r.chance(0.06)) v.itemComment = '# ' + wordsText(G, 2);
    node.items.push(v);
  }
  if (flow) {
    node.multiline = r.chance(0.2);
    node.trailing = n > 0 && r.chance(0.08);
    if (node.trailing) feat(G, 'flow-trailing-comma');
    if (node.multiline) feat(G, 'flow-multiline');
    if (n > 0 && r.chance(0.05)) {
      feat(G, 'flow-seq-single-pair');
      node.items.push({ t: 'pair', k: S(r.pick(TOKEN_NAMES)), v: genScalar(G, true) });
    }
  }
  if (name !== null) defineAnchor(G, name, false);
  return node;
}

// ---------------------------------------------------------------- rendering

function sp(n) {
  return ' '.repeat(Math.max(0, n));
}

function withProps(node, text) {
  return node.props ? (text === '' ? node.props : node.props + ' ' + text) : text;
}

// Render a scalar-ish or flow node on one line (flow context).
function renderFlow(G, node, indent) {
  const r = G.r;
  switch (node.t) {
    case 's':
      return withProps(node, node.text === '' && !node.props ? '""' : node.text);
    case 'alias':
      return '*' + node.name;
    case 'ml':
      return withProps(node, node.flowOk ? node.lines.join('\n' + sp(indent + 1)) : dq(G, node.lines.join(' ')));
    case 'blk':
      return dq(G, node.body.join('\n'));
    case 'pair':
      return `${renderFlow(G, node.k, indent)}: ${renderFlow(G, node.v, indent)}`;
    case 'seq':
    case 'map': {
      const parts = [];
      if (node.t === 'seq') {
        for (const it of node.items) parts.push(renderFlow(G, it, indent + 2));
      } else {
        for (const e of node.entries) {
          const kt = e.k.t === 'alias' ? '*' + e.k.name + ' ' : renderFlow(G, e.k, indent + 2);
          const vt = e.v.t === 's' && e.v.text === '' && !e.v.props ? '' : renderFlow(G, e.v, indent + 2);
          const style = r.int(10);
          if (vt === '' && style < 3) parts.push(kt); // {a, b}
          else if (vt === '' && G.flowAdjColon) { parts.push(kt + ':'); feat(G, 'RARE-flow-adjacent-colon'); }
          else if (vt === '') parts.push(kt + ': ');
          else if (/^["']/.test(kt) && style === 9) parts.push(kt + ':' + vt); // JSON-like adjacency
          else if (style === 8 && !/^[?]/.test(kt)) { parts.push('? ' + kt + ' : ' + vt); feat(G, 'flow-explicit-key'); }
          else parts.push(kt + ': ' + vt);
        }
      }
      const open = node.t === 'seq' ? '[' : '{';
      const close = node.t === 'seq' ? ']' : '}';
      let body;
      if (node.multiline && parts.length) {
        const inner = sp(indent + 2);
        body = open + '\n' + parts.map((p, i) => {
          let line = inner + p + (i < parts.length - 1 || node.trailing ? ',' : '');
          if (G.comments && r.chance(0.2)) { line += ' # c' + i; feat(G, 'comment-in-flow'); }
          return line;
        }).join('\n') + '\n' + sp(indent + 1) + close;
      } else {
        const gap = r.chance(0.1) ? '' : ' ';
        body = open + (parts.length && gap === ' ' && r.chance(0.3) ? ' ' : '')
          + parts.join(',' + gap) + (node.trailing ? ',' : '')
          + (parts.length && r.chance(0.2) ? ' ' : '') + close;
      }
      return withProps(node, body);
    }
  }
  throw new Error('renderFlow: ' + node.t);
}

function blockHeader(node, offset) {
  let ind = '';
  if (node.indicator) ind = String(Math.min(9, Math.max(1, offset)));
  return node.style + (node.order ? node.chomp + ind : ind + node.chomp);
}

// Text after an indicator (`key:`, `- `, `? `) for a node whose parent
// collection sits at column `indent`.  Returns the rest of the line and any
// following lines (no trailing newline).
function renderAfter(G, node, indent, sepDefault, afterDash = false) {
  const r = G.r;
  const w = G.indentStep();
  let sep = sepDefault;
  if (G.tabSep && r.chance(0.3) && !afterDash) {
    feat(G, 'tab-separator');
    sep = '\t';
  } else if (G.tabAfterDash && afterDash && r.chance(0.5)) {
    feat(G, 'RARE-tab-after-dash');
    sep = '\t';
  }
  switch (node.t) {
    case 's':
      if (node.text === '' && !node.props) return '';
      return sep + withProps(node, node.text);
    case 'alias':
      return sep + '*' + node.name;
    case 'ml': {
      const cont = sp(indent + w);
      return sep + withProps(node, node.lines[0] + node.lines.slice(1).map((l) => '\n' + (l === '' ? '' : cont + l)).join(''));
    }
    case 'blk': {
      const head = (node.prefix || '') + withProps(node, blockHeader(node, w));
      const cont = sp(indent + w);
      return sep + head + node.comment + node.body.map((l) => '\n' + (l === '' ? '' : cont + l)).join('');
    }
    case 'map':
    case 'seq': {
      if (node.flow) return sep + renderFlow(G, node, indent);
      const empty = node.t === 'map' ? node.entries.length === 0 : node.items.length === 0;
      if (empty) return sep + withProps(node, node.t === 'map' ? '{}' : '[]');
      const sameIndent = node.t === 'seq' && !afterDash && r.chance(0.3);
      if (sameIndent) feat(G, 'seq-same-indent-as-key');
      const childIndent = sameIndent && indent >= 0 ? indent : indent + w;
      const inner = renderBlock(G, node, Math.max(0, childIndent));
      if (node.props) return sep + node.props + '\n' + inner;
      return '\n' + inner;
    }
  }
  throw new Error('renderAfter: ' + node.t);
}

function renderKey(G, k, indent) {
  if (k.t === 'alias') return '*' + k.name + ' ';
  if (k.t === 's') return withProps(k, k.text);
  return renderFlow(G, k, indent);
}

function renderBlock(G, node, indent) {
  const r = G.r;
  const pre = sp(indent);
  const lines = [];
  if (node.t === 'map') {
    for (const e of node.entries) {
      if (e.commentBefore) lines.push(sp(r.chance(0.7) ? indent : r.int(indent + 3)) + e.commentBefore);
      if (e.explicit || (e.k.t !== 's' && e.k.t !== 'alias' && e.explicit !== false)) {
        const kt = e.k.t === 's' || e.k.t === 'alias' ? renderKey(G, e.k, indent) : renderFlow(G, e.k, indent);
        lines.push(pre + '?' + (kt ? ' ' + kt : ''));
        const vt = renderAfter(G, e.v, indent, ' ', true);
        lines.push(pre + ':' + vt + (e.comment ? ' ' + e.comment : ''));
      } else {
        let line = pre + renderKey(G, e.k, indent) + ':' + renderAfter(G, e.v, indent, ' ');
        if (e.comment && !/\n/.test(line)) line += ' ' + e.comment;
        else if (e.comment) feat(G, 'comment');
        lines.push(line);
      }
    }
  } else if (node.t === 'seq') {
    for (const it of node.items) {
      if (it.itemComment) lines.push(pre + it.itemComment);
      if ((it.t === 'map' || it.t === 'seq') && !it.flow && !it.props &&
          (it.t === 'map' ? it.entries.length : it.items.length) && r.chance(0.7)) {
        // compact form: "- key: v" / "- - x"
        const s = r.chance(0.85) ? 1 : r.range(2, 3);
        const inner = renderBlock(G, it, indent + 1 + s);
        const firstNl = inner.indexOf('\n');
        const first = firstNl < 0 ? inner : inner.slice(0, firstNl);
        if (/^\s*#/.test(first)) {
          lines.push(pre + '-\n' + inner);
        } else {
          lines.push(pre + '-' + sp(s) + inner.trimStart());
        }
        feat(G, 'compact-nested');
      } else {
        lines.push(pre + '-' + renderAfter(G, it, indent, ' ', true));
      }
    }
  }
  return lines.join('\n');
}

function renderRoot(G, node) {
  switch (node.t) {
    case 'map':
    case 'seq':
      if (node.flow) return renderFlow(G, node, 0);
      if ((node.t === 'map' ? node.entries.length : node.items.length) === 0) return withProps(node, node.t === 'map' ? '{}' : '[]');
      return (node.props ? node.props + '\n' : '') + renderBlock(G, node, 0);
    case 's':
      return withProps(node, node.text);
    case 'alias':
      return '*' + node.name;
    case 'ml':
      return withProps(node, node.lines.join('\n' + (node.flowOk ? ' ' : '')));
    case 'blk':
      return (node.prefix || '') + withProps(node, blockHeader(node, 1)) + node.comment + node.body.map((l) => '\n' + (l === '' ? '' : ' ' + l)).join('');
  }
  throw new Error('renderRoot: ' + node.t);
}

// ---------------------------------------------------------------- kinds

function kindTokens(G) {
  const r = G.r;
  const root = { t: 'map', entries: [], flow: false, props: '' };
  const used = new Set();
  const ngroups = r.weighted([[4, r.range(1, 3)], [4, r.range(3, 5)], [1, r.range(6, 8)]]);
  for (let g = 0; g < ngroups; g++) {
    let name = r.chance(0.85) ? r.pick(TOKEN_GROUPS) : genKeyText(G, false, used);
    if (used.has(keyIdentity(name))) name = 'group-' + g;
    used.add(keyIdentity(name));
    const v = r.weighted([[6, () => genMap(G, 1, false)], [1.5, () => genSeq(G, 1, false)],
      [1, () => genValue(G, 1, false)], [0.7, () => scaleSeq(G)]])();
    const e = { k: S(name), v };
    if (G.comments && r.chance(0.2)) e.commentBefore = '# ' + wordsText(G, r.range(1, 5));
    root.entries.push(e);
  }
  return root;
}

function scaleSeq(G) {
  const r = G.r;
  feat(G, 'scale-list');
  const items = [];
  let x = r.pick([0, 1, 2, 4]);
  const n = r.range(3, 10);
  const unit = r.pick(['', '', 'px', 'rem']);
  for (let i = 0; i < n; i++) {
    items.push(S(String(x) + unit));
    x = x === 0 ? 2 : x * 2;
  }
  return { t: 'seq', items, flow: r.chance(0.5), props: '' };
}

function kindScalars(G) {
  const r = G.r;
  feat(G, 'kind-scalars');
  const n = r.range(4, 30);
  const asSeq = r.chance(0.4);
  const flow = r.chance(0.25);
  const used = new Set();
  if (asSeq) {
    const items = [];
    for (let i = 0; i < n; i++) items.push(r.chance(0.7) ? plainFormScalar(G, flow) : genScalar(G, flow));
    return { t: 'seq', items, flow, props: '' };
  }
  const entries = [];
  for (let i = 0; i < n; i++) {
    const k = r.chance(0.7) ? 'v' + i : genKeyText(G, flow, used);
    used.add(keyIdentity(k));
    entries.push({ k: S(k), v: r.chance(0.7) ? plainFormScalar(G, flow) : genScalar(G, flow) });
  }
  return { t: 'map', entries, flow, props: '' };
}

function kindKeys(G) {
  const r = G.r;
  feat(G, 'kind-keys');
  const flow = r.chance(0.2);
  const entries = [];
  const used = new Set();
  const n = r.range(3, 25);
  const family = r.weighted([[3, 'mixed'], [2, 'intlike'], [2, 'astral'], [1, 'proto']]);
  for (let i = 0; i < n; i++) {
    let t;
    if (family === 'intlike' && r.chance(0.7)) {
      t = r.pick(['0', '1', '2', '9', '10', '01', '-1', '+1', '1.0', '4294967294', '4294967295',
        '4294967296', '9007199254740993', '42', '007', '"5"', '"05"', '3', '100', '99', '1e2', '0x10',
        '"4294967294"', '"4294967295"', '2147483648', '"-0"', '999999999999']);
      feat(G, 'key-intlike');
    } else if (family === 'astral' && r.chance(0.7)) {
      const base = r.pick(['icon', 'a', '', 'x-', 'Z']);
      t = base + r.pick([...ASTRAL, ...PRIVATE, 'z', '\u{D7FF}', '~']);
      if (r.chance(0.3)) t = dq(G, t);
      feat(G, 'key-astral-vs-private');
    } else if (family === 'proto' && r.chance(0.5)) {
      t = r.pick(['__proto__', '"__proto__"', "'__proto__'", 'constructor', 'prototype', 'toString',
        '__proto', '_proto_', '__PROTO__', 'hasOwnProperty']);
      feat(G, 'key-proto');
    } else t = genKeyText(G, flow, new Set());
    if (!/^["']/.test(t) && !plainOk(t, flow)) t = dq(G, t);
    if (t === '') t = '""';
    const id = keyIdentity(t);
    if (used.has(id)) continue;
    used.add(id);
    let v;
    if (/__proto__/.test(t)) {
      v = r.weighted([[2, () => S(String(r.int(10)))], [2, () => genMap(G, G.maxDepth - 1, flow)],
        [1, () => S('null')], [1, () => S('')], [1, () => genSeq(G, G.maxDepth - 1, flow)]])();
    } else v = r.chance(0.8) ? realisticScalar(G, flow) : genValue(G, 2, flow);
    entries.push({ k: S(t), v });
  }
  return { t: 'map', entries, flow, props: '' };
}

function jsonValue(G, depth) {
  const r = G.r;
  const k = r.weighted([[depth > 4 ? 0 : 2, 'obj'], [depth > 4 ? 0 : 1, 'arr'], [3, 'str'], [2, 'num'],
    [0.5, 'lit']]);
  switch (k) {
    case 'obj': {
      const entries = [];
      const used = new Set();
      const n = r.range(0, 6);
      for (let i = 0; i < n; i++) {
        let key = r.chance(0.8) ? r.pick(TOKEN_NAMES) : r.pick(KEY_ADV);
        if (used.has(key)) continue;
        used.add(key);
        entries.push({ k: S(jsonStr(G, key)), v: jsonValue(G, depth + 1) });
      }
      return { t: 'map', entries, flow: true, props: '', multiline: false };
    }
    case 'arr': {
      const items = [];
      const n = r.range(0, 6);
      for (let i = 0; i < n; i++) items.push(jsonValue(G, depth + 1));
      return { t: 'seq', items, flow: true, props: '', multiline: false };
    }
    case 'str':
      return S(jsonStr(G, r.chance(0.7) ? wordsText(G, r.range(0, 3)) : unicodeText(G)));
    case 'num':
      return S(r.weighted([[3, () => randomIntText(G).replace(/^\+/, '').replace(/^(-?)0+(?=\d)/, '$1')],
        [3, () => randomDoubleText(G).replace(/^\+/, '')], [1, () => r.pick(['-0', '0', '1E5', '1e-400', '1e309',
          '12345678901234567890', '0.1', '-0.0', '1E+2', '5e-324'])]])());
    case 'lit':
      return S(r.pick(['true', 'false', 'null']));
  }
  return S('null');
}

function jsonStr(G, s) {
  const r = G.r;
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0);
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (cp < 0x20) out += '\\u' + hex(cp, 4);
    else if (cp > 0x7f && r.chance(0.2)) {
      if (cp > 0xffff) {
        const hi = 0xd800 + ((cp - 0x10000) >> 10);
        const lo = 0xdc00 + ((cp - 0x10000) & 0x3ff);
        out += '\\u' + hex(hi, 4) + '\\u' + hex(lo, 4);
      } else out += '\\u' + hex(cp, 4);
    } else if (ch === '/' && r.chance(0.5)) out += '\\/';
    else out += ch;
  }
  if (r.chance(0.1)) out += r.pick(['\\b', '\\f', '\\n', '\\r', '\\t', '\\/', '\\u0000', '\\ud800', '\\u00e9']);
  return out + '"';
}

function renderJson(G, node, indent, pretty) {
  if (node.t === 's') return node.text;
  const open = node.t === 'seq' ? '[' : '{';
  const close = node.t === 'seq' ? ']' : '}';
  const parts = node.t === 'seq'
    ? node.items.map((v) => renderJson(G, v, indent + 2, pretty))
    : node.entries.map((e) => e.k.text + (pretty ? ': ' : ':') + renderJson(G, e.v, indent + 2, pretty));
  if (!parts.length) return open + close;
  if (!pretty) return open + parts.join(',') + close;
  return open + '\n' + parts.map((p) => sp(indent + 2) + p).join(',\n') + '\n' + sp(indent) + close;
}

function kindJson(G) {
  feat(G, 'kind-json');
  const r = G.r;
  const v = jsonValue(G, 0);
  const root = r.chance(0.85) ? { t: 'map', entries: [{ k: S('"tokens"'), v }, { k: S('"version"'), v: S('1') }], flow: true, props: '' } : v;
  if (r.chance(0.1) && root.t === 'map' && root.entries.length) {
    feat(G, 'dup-key-json');
    root.entries.push({ k: root.entries[0].k, v: S('0') });
  }
  return { text: renderJson(G, root, 0, r.chance(0.5)) };
}

function kindBlocks(G) {
  feat(G, 'kind-blocks');
  const r = G.r;
  const entries = [];
  const n = r.range(1, 6);
  for (let i = 0; i < n; i++) entries.push({ k: S('text' + i), v: blockScalar(G) });
  if (r.chance(0.2)) {
    feat(G, 'block-root');
    return blockScalar(G);
  }
  if (r.chance(0.3)) {
    feat(G, 'block-in-seq');
    return { t: 'seq', items: entries.map((e) => e.v), flow: false, props: '' };
  }
  return { t: 'map', entries, flow: false, props: '' };
}

function kindAliases(G) {
  const r = G.r;
  feat(G, 'kind-aliases');
  const form = r.weighted([[3, 'scalar-fanout'], [3, 'laughs'], [2, 'redefine'], [1, 'recursive'],
    [1, 'unresolved'], [1, 'collection-fanout'], [1, 'merge']]);
  feat(G, 'alias-' + form);
  const lines = [];
  const flow = r.chance(0.5);
  const list = (items, ind) => flow ? '[' + items.join(', ') + ']'
    : items.map((x) => '\n' + sp(ind) + '- ' + x).join('');
  switch (form) {
    case 'scalar-fanout': {
      const n = r.weighted([[1, r.range(1, 20)], [3, r.range(95, 102)], [1, r.range(103, 150)]]);
      lines.push('base: &v ' + r.pick(['x', '1', '"str"', '~', '1.5', '{}', '[]', '!!str 7']));
      const items = Array(n).fill('*v');
      // Split among a few keys sometimes.
      if (r.chance(0.3)) {
        const cut = r.int(n + 1);
        lines.push('use1: ' + list(items.slice(0, cut), 2).replace(/^\n/, '\n'));
        lines.push('use2: ' + list(items.slice(cut), 2));
      } else lines.push('use: ' + list(items, 2));
      break;
    }
    case 'laughs': {
      const levels = r.range(2, 4);
      const fan = [];
      for (let i = 0; i < levels; i++) fan.push(r.range(2, 12));
      lines.push('l0: &l0 ' + r.pick(['[x, y]', 'x', '{a: 1}', '[1, 2, 3]']));
      for (let i = 1; i <= levels; i++) {
        const items = Array(fan[i - 1]).fill(`*l${i - 1}`);
        lines.push(`l${i}: &l${i} [${items.join(', ')}]`);
      }
      const m = r.range(1, 4);
      lines.push(`top: [${Array(m).fill('*l' + levels).join(', ')}]`);
      break;
    }
    case 'redefine':
      lines.push('a: &x 1', 'b: *x', 'c: &x [2, 3]', 'd: *x', 'e: &x {k: v}', 'f: *x');
      if (r.chance(0.5)) lines.push('g: &y *x');
      break;
    case 'recursive':
      lines.push(r.pick(['a: &r [1, *r]', 'a: &r {k: *r}', 'a: &r\n  b: *r', 'a: &r [*r]']));
      break;
    case 'unresolved':
      lines.push(r.pick(['a: *nope', 'a: [*x, &x 1]', 'a: *x\nb: &x 1', 'a: &x 1\nb: * x', 'a: *', 'a: &x 1\nb: *x\nc: *X']));
      break;
    case 'collection-fanout': {
      const k = r.range(1, 12);
      const m = r.range(5, 40);
      lines.push('s: &s leaf');
      lines.push(`c: &c [${Array(k).fill('*s').join(', ')}]`);
      lines.push(`d: [${Array(m).fill('*c').join(', ')}]`);
      break;
    }
    case 'merge':
      lines.push('base: &base', '  color: red', '  size: 1', 'derived:', '  <<: *base', '  size: 2');
      if (r.chance(0.3)) lines.push('other:', '  <<: [*base, {z: 1}]');
      if (r.chance(0.3)) lines.push('dup:', '  <<: *base', '  <<: {q: 1}');
      if (r.chance(0.3)) lines.push('"<<": x');
      break;
  }
  return { text: lines.join('\n') };
}

function kindEmpty(G) {
  const r = G.r;
  feat(G, 'kind-empty');
  return {
    text: r.pick(['', '\n', '\n\n', ' ', '   \n', '# only a comment', '# c1\n# c2\n', '---', '---\n',
      '--- ', '---\n...', '---\n...\n', '...', '...\n', '--- # c\n', '%YAML 1.2\n---\n', '%YAML 1.2\n---',
      '--- ~\n', '--- null', '---\n# c\n...\n', '#', '\t\n', '\t', '  # indented comment\n', '--- |\n',
      '--- >-\n', '""', "''", '~', '!!null', '--- !!str', '--- &a', '%TAG ! tag:x,2000:\n---\n',
      '...\n---\n', '--- ...', 'a #c', '-', '- ', '?', ':', '[]', '{}', '--- []\n...\n'])
  };
}

function kindDeep(G) {
  const r = G.r;
  const depth = r.weighted([[55, r.range(10, 60)], [30, r.range(60, 150)], [13, r.range(150, 300)],
    [G.veryDeep ? 100 : 0, r.range(550, 650)]]);
  const form = r.weighted([[3, 'flowseq'], [2, 'flowmap'], [2, 'blockseq'], [2, 'blockmap'], [1, 'mixed'], [1, 'seqmap']]);
  feat(G, 'deep-' + form);
  if (depth >= 300) feat(G, 'deep-over-300');
  const leaf = r.pick(['x', '1', '~', '"s"', '[]', '{}', '']);
  let t;
  switch (form) {
    case 'flowseq': t = '['.repeat(depth) + (leaf || 'x') + ']'.repeat(depth); break;
    case 'flowmap': t = '{a: '.repeat(depth) + (leaf || 'x') + '}'.repeat(depth); break;
    case 'blockseq': t = '- '.repeat(depth) + (leaf || 'x'); break;
    case 'blockmap': {
      // one space per level keeps the text small
      const parts = [];
      const d = Math.min(depth, 200);
      for (let i = 0; i < d; i++) parts.push(sp(i) + 'k' + (i % 10) + ':');
      t = parts.join('\n') + ' ' + (leaf || 'x');
      break;
    }
    case 'mixed': {
      const d = Math.min(depth, 100);
      const parts = [];
      for (let i = 0; i < d; i++) parts.push(sp(i) + 'k:');
      t = parts.join('\n') + ' ' + '['.repeat(depth - d) + 'x' + ']'.repeat(depth - d);
      break;
    }
    case 'seqmap': {
      const d = Math.min(depth, 120);
      const parts = [];
      for (let i = 0; i < d; i++) parts.push(sp(2 * i) + '- k:');
      t = parts.join('\n') + ' ' + (leaf || 'x');
      break;
    }
  }
  return { text: 'root: ' + (form.startsWith('block') || form === 'mixed' || form === 'seqmap' ? '\n' + t.split('\n').map((l) => '  ' + l).join('\n') : t) };
}

function kindLongKey(G) {
  const r = G.r;
  feat(G, 'kind-longkey');
  const target = r.range(1014, 1034);
  const quoted = r.weighted([[3, ''], [1, '"'], [1, "'"]]);
  const useAstral = r.chance(0.6);
  let s = '';
  while (s.length < target - 2 * quoted.length) {
    if (useAstral && r.chance(0.2)) s += r.pick(ASTRAL);
    else if (r.chance(0.05)) s += r.pick(['é', '中', '\u{E000}']);
    else s += r.pick(['a', 'b', 'c', '-', '_', 'x', 'y']);
  }
  while (s.length > target - 2 * quoted.length) s = s.slice(0, -1);
  if (!isWellFormedUtf16(s)) s = s.slice(0, -1) + 'z';
  if (quoted === '' && /[-]$/.test(s)) s += 'z';
  const key = quoted + s + quoted;
  feat(G, utf16len(key) > 1024 ? 'longkey-over' : 'longkey-under');
  const space = r.chance(0.2) ? ' ' : '';
  let where = r.weighted([[3, 'top'], [1, 'nested'], [1, 'flow'], [1, 'explicit']]);
  if (where === 'nested' && !G.cfg.on('keylen.after-empty')) where = 'top';
  switch (where) {
    case 'top': return { text: `a: 1\n${key}${space}: v\nz: 2` };
    case 'nested': return { text: `outer:\n  ${key}${space}: v` };
    case 'flow': return { text: `{${key}${space}: v}` };
    case 'explicit': return { text: `? ${key}\n: v` };
  }
  return { text: '' };
}

function kindFlowMix(G) {
  const r = G.r;
  return r.chance(0.5) ? genMap(G, 1, true) : { t: 'map', entries: [{ k: S('list'), v: genSeq(G, 1, true) }, { k: S('map'), v: genMap(G, 1, true) }], flow: false, props: '' };
}

// ---------------------------------------------------------------- doc-level features

const DUP_FAMILIES = [
  ['1', '1.0', '0x1', '+1', '01', '0o1', '1e0', '!!int 1', '!!float 1', '1.'],
  ['~', 'null', 'Null', 'NULL', '!!null ""'],
  ['-0', '0', '+0', '0.0', '-0.0', '0x0', '0o0', '00', '0e5'],
  ['true', 'True', 'TRUE', '!!bool true'],
  ['false', 'False', 'FALSE'],
  ['.inf', '.Inf', '+.inf', '1e309', '.INF'],
  ['1000', '1e3', '1000.0', '0x3E8', '0o1750'],
  ['a', '"a"', "'a'", '!!str a', '! a'],
  ['4294967295', '4294967295.0', '0xFFFFFFFF'],
  ['9007199254740992', '9007199254740993'],
];
const NODUP_FAMILIES = [
  ['1', '"1"'], ['true', '"true"'], ['null', '""'], ['~', '"~"'], ['.nan', '.nan'], ['.NaN', '.nan'],
  ['1', "'1'"], ['0', '"0"'], ['1_000', '1000'], ['0b1', '1'], ['-0', '"-0"'], ['.inf', '"Infinity"'],
  ['1e21', '"1e+21"'], ['0x1F', '"31"'], ['yes', 'true'], ['.nan', '"NaN"'], ['~', '""'],
];

function findBlockMaps(node, out, depth = 0) {
  if (!node || typeof node !== 'object') return out;
  if (node.t === 'map' && !node.flow) out.push(node);
  if (node.t === 'map') for (const e of node.entries) findBlockMaps(e.v, out, depth + 1);
  if (node.t === 'seq') for (const it of node.items) findBlockMaps(it, out, depth + 1);
  return out;
}

function addDuplicate(G, root, colliding) {
  const r = G.r;
  const maps = findBlockMaps(root, []);
  if (!maps.length) return false;
  const m = r.pick(maps);
  const fam = r.pick(colliding ? DUP_FAMILIES : NODUP_FAMILIES);
  let a = r.pick(fam);
  let b = colliding && r.chance(0.3) ? a : r.pick(fam);
  if (!colliding) [a, b] = r.chance(0.5) ? [fam[0], fam[1]] : [fam[1], fam[0]];
  if (colliding && r.chance(0.25) && m.entries.length) {
    // same text as an existing key
    const ex = r.pick(m.entries);
    if (ex.k.t === 's') { a = null; b = ex.k.text; }
  }
  const mk = (t) => ({ k: t.startsWith('[') ? { t: 'seq', items: [S('a')], flow: true, props: '' } : S(t),
    v: realisticScalar(G, false), explicit: t.startsWith('[') ? false : undefined });
  if (a !== null) m.entries.splice(r.int(m.entries.length + 1), 0, mk(a));
  m.entries.splice(r.int(m.entries.length + 1), 0, mk(b));
  feat(G, colliding ? 'dup-key-colliding' : 'dup-key-noncolliding');
  return true;
}

function mutateSyntax(G, text) {
  const r = G.r;
  const lines = text.split('\n');
  let kind = r.weighted([[2, 'unclosed-flow'], [2, 'unclosed-quote'], [2, 'bad-indent'],
    [1, 'colon-chain'], [1, 'stray-close'], [1, 'dash-in-map'], [2, 'truncate'], [1, 'bad-anchor'],
    [1, 'double-colon'], [0.5, 'bad-directive']]);
  // Indenting a long key's line is keylen.after-empty's (see gen-hard.mjs).
  if (kind === 'bad-indent' && G.features.has('kind-longkey') && !G.cfg.on('keylen.after-empty')) kind = 'truncate';
  feat(G, 'syntax-' + kind);
  const li = r.int(lines.length);
  switch (kind) {
    case 'unclosed-flow': lines.splice(li, 0, 'zz: [a, {b: c'); break;
    case 'unclosed-quote': lines.splice(li, 0, r.pick(['zz: "open', "zz: 'open", 'zz: "a\\"']));
      break;
    case 'bad-indent':
      if (lines[li] !== undefined && lines[li].trim()) lines[li] = sp(r.range(1, 3)) + lines[li];
      else lines.push('  zz: 1');
      break;
    case 'colon-chain': lines.splice(li, 0, 'zz: a: b'); break;
    case 'stray-close': lines.splice(li, 0, r.pick(['zz: ]', '}', 'zz: a]', ']'])); break;
    case 'dash-in-map': lines.splice(li, 0, '- item'); break;
    case 'truncate': {
      let cut = r.int(text.length + 1);
      if (cut > 0 && /[\uD800-\uDBFF]/.test(text[cut - 1])) cut--;
      return text.slice(0, cut);
    }
    case 'bad-anchor': lines.splice(li, 0, r.pick(['zz: & x', 'zz: &a &b 1', 'zz: !!str !!int 1', 'zz: *a b'])); break;
    case 'double-colon': lines.splice(li, 0, 'zz:: 1'); break;
    case 'bad-directive': return r.pick(['%YAML 1.2\n%YAML 1.2\n---\n', '%YAML 2.0\n---\n', '%FOO bar\n---\n', '%YAML\n---\n']) + text;
  }
  return lines.join('\n');
}

function addTabIndent(G, text) {
  const lines = text.split('\n');
  const idx = [];
  for (let i = 0; i < lines.length; i++) if (/^ +\S/.test(lines[i])) idx.push(i);
  if (!idx.length) return text + '\nzz:\n\tq: 1';
  const i = G.r.pick(idx);
  lines[i] = lines[i].replace(/^ +/, (m) => G.r.chance(0.5) ? '\t' : m.slice(1) + '\t');
  return lines.join('\n');
}

// ---------------------------------------------------------------- document

const RARE = { complex: 0.0005, yaml11: 0.0005, rawCtl: 0.0004, rawSep: 0.0004, midBom: 0.0003, loneCr: 0.0004 };
// The hard construct each rare feature belongs to: --exclude turns it off
// in base documents too.
const RARE_CONSTRUCT = { complex: 'ckey.implicit', yaml11: 'yaml11.mixed', rawCtl: 'base', rawSep: 'base',
  midBom: 'bom.in-content', loneCr: 'base' };

// The document class: 'base' (the kinds above) or a hard class of
// gen-hard.mjs.  Drawn from a stream of its own, so that a base document is
// the same whatever the class weights are.
function pickClass(seedHash, index, cfg) {
  const r = new Rng(mix32(seedHash ^ Math.imul(index + 1, 0x85ebca6b) ^ 0x27d4eb2f));
  r.next();
  return r.weighted(cfg.weights);
}

function genDocument(seedHash, index, cfg) {
  const r = new Rng(mix32(seedHash ^ Math.imul(index + 1, 0x9e3779b9)));
  r.next();
  const cls = pickClass(seedHash, index, cfg);
  if (cls !== 'base') return genHardDocument(r, index, cls, cfg);
  const G = {
    r,
    cfg,
    features: new Set(),
    anchors: [],
    scalarAnchors: [],
    fresh: 0,
    maxDepth: r.range(2, 5),
    level: r.weighted([[3, 0], [5, 1], [2, 2]]),
    budget: r.weighted([[5, r.range(6, 25)], [3, r.range(25, 60)], [1, r.range(60, 160)]]),
    comments: r.chance(0.25),
    tabSep: r.chance(0.03),
    veryDeep: r.chance(0.02),
    badEsc: r.chance(0.02),
    badAlias: r.chance(0.01),
    risky: r.chance(0.02),
    badTag: r.chance(0.004),
    exoticAnchor: r.chance(0.0015),
    yaml11Tags: r.chance(0.002),
    tabAfterDash: r.chance(0.0015),
    flowAdjColon: r.chance(0.002),
    rare: {},
  };
  for (const [k, p] of Object.entries(RARE)) G.rare[k] = r.chance(p) && cfg.on(RARE_CONSTRUCT[k]);
  G.yaml11Tags = G.yaml11Tags && cfg.on('tags.yaml11coll');
  G.tabAfterDash = G.tabAfterDash && cfg.on('tabs.after-dash');
  G.flowAdjColon = G.flowAdjColon && cfg.on('flowcolon.empty');
  G.adv = G.level >= 2;
  feat(G, 'level-' + G.level);
  const widths = [1, 2, 2, 2, 3, 4];
  const baseW = r.pick(widths);
  const varyW = r.chance(0.1);
  G.indentStep = () => (varyW ? r.pick(widths) : baseW);
  if (varyW) feat(G, 'indent-varying');
  else feat(G, 'indent-' + baseW);
  if (G.comments) feat(G, 'comments');

  // Directives first (they influence tags).
  let pre = '';
  let needMarker = false;
  if (G.rare.yaml11) {
    feat(G, 'RARE-yaml11');
    pre += '%YAML 1.1\n';
    needMarker = true;
  } else if (r.chance(0.02)) {
    feat(G, 'directive-yaml12');
    pre += '%YAML 1.2\n';
    needMarker = true;
  }
  if (r.chance(0.015)) {
    feat(G, 'directive-tag');
    const d = r.pick(['%TAG !e! tag:example.com,2000:app/\n', '%TAG !e! !local-\n', '%TAG !! tag:example.com,2000:\n',
      '%TAG ! tag:yaml.org,2002:\n', '%TAG !e! tag:yaml.org,2002:\n']);
    G.tagHandle = d.startsWith('%TAG !e!');
    pre += d;
    needMarker = true;
  }

  const kind = r.weighted([[60, 'tokens'], [9, 'scalars'], [7, 'keys'], [6, 'json'], [4, 'blocks'],
    [4.5, 'aliases'], [3, 'empty'], [2, 'deep'], [2, 'longkey'], [3, 'flowmix']]);
  feat(G, 'kind-' + kind);
  let tree = null;
  let text;
  switch (kind) {
    case 'tokens': tree = kindTokens(G); break;
    case 'scalars': tree = kindScalars(G); break;
    case 'keys': tree = kindKeys(G); break;
    case 'json': text = kindJson(G).text; break;
    case 'blocks': tree = kindBlocks(G); break;
    case 'aliases': text = kindAliases(G).text; break;
    case 'empty': text = kindEmpty(G).text; break;
    case 'deep': text = kindDeep(G).text; break;
    case 'longkey': text = kindLongKey(G).text; break;
    case 'flowmix': tree = kindFlowMix(G); break;
  }
  if (G.rare.complex && tree && tree.t === 'map' && !tree.flow) {
    feat(G, 'RARE-complex-key');
    const ck = r.pick([
      { k: { t: 'seq', items: [S('a'), S('b')], flow: true, props: '' }, explicit: true },
      { k: { t: 'map', entries: [{ k: S('a'), v: S('1') }], flow: true, props: '' }, explicit: false },
      { k: { t: 'seq', items: [S('a')], flow: true, props: '' }, explicit: false },
      { k: { t: 'map', entries: [{ k: S('a'), v: { t: 'seq', items: [S('1'), S('2')], flow: true, props: '' } }], flow: true, props: '' }, explicit: true },
      { k: { t: 'blk', style: '|', chomp: '', indicator: '', order: true, comment: '', body: ['key', 'text'] }, explicit: true },
    ]);
    ck.v = S('x');
    tree.entries.splice(r.int(tree.entries.length + 1), 0, ck);
  }
  if (tree) {
    if (r.chance(0.07)) addDuplicate(G, tree, true);
    else if (r.chance(0.015)) addDuplicate(G, tree, false);
    text = renderRoot(G, tree);
  }

  // Markers and extra documents.
  if (needMarker || r.chance(0.1)) {
    feat(G, 'doc-start-marker');
    const inlineOk = tree ? (tree.flow || tree.t === 's' || tree.t === 'blk') : /^[\[{"']/.test(text);
    text = r.chance(0.85) || !text || !inlineOk ? '---\n' + text : '--- ' + text;
  }
  if (r.chance(0.03)) {
    feat(G, 'doc-end-marker');
    text += r.pick(['\n...', '\n...\n', '\n... # end']);
  }
  text = pre + text;
  if (r.chance(0.045)) {
    feat(G, 'multi-doc');
    text += r.pick(['\n---\n', '\n---\nb: 2\n', '\n--- \n', '\n...\n---\n', '\n---\n# empty\n',
      '\n...\n--- x\n', '\n---', '\n---\n---\n']);
  }
  if (G.rare.complex && !G.features.has('RARE-complex-key')) {
    feat(G, 'RARE-complex-key');
    text = r.pick(['? [a, b]\n: x\n', '{a: 1}: x\n', '[a]: b\n', '? {a: [1, {b: 2}]}\n: y\n',
      '? - a\n  - b\n: z\n', '[1, 2]: a\n"[1, 2]": b\n']) + (text.startsWith('---') || text.startsWith('%') ? '' : text.replace(/^\uFEFF/, ''));
  }

  // Text-level mutations.
  if (r.chance(0.02)) {
    feat(G, 'tab-indent');
    text = addTabIndent(G, text);
  }
  if (r.chance(0.09)) text = mutateSyntax(G, text);

  // Final newline, line breaks, BOM.
  if (r.chance(0.94)) text += '\n';
  else feat(G, 'no-final-newline');
  if (r.chance(0.05)) {
    feat(G, 'crlf');
    text = text.replace(/\n/g, '\r\n');
  }
  if (G.rare.loneCr) {
    feat(G, 'RARE-lone-cr');
    const nl = [...text.matchAll(/\n/g)].map((m) => m.index);
    if (nl.length) {
      const at = r.pick(nl);
      text = text.slice(0, at) + '\r' + text.slice(at + 1);
    } else text += '\r';
  }
  if (G.rare.midBom) {
    feat(G, 'RARE-bom-middle');
    const at = r.int(text.length + 1);
    text = text.slice(0, at) + '\uFEFF' + text.slice(at);
    if (!isWellFormedUtf16(text)) text = text.replace(/\uFEFF/, '') + '\uFEFF';
  }
  if (r.chance(0.03) && (cfg.on('bom.indented-first') || !/^[ \t]/.test(text))) {
    feat(G, 'bom');
    text = '\uFEFF' + text;
  }
  if (r.chance(0.02)) {
    // invalid UTF-8 in a comment, a plain scalar or a quoted scalar
    feat(G, 'invalid-utf8');
    const where = tree && tree.t === 'map' && !tree.flow ? r.int(3) : 0;
    if (where === 0) text += (text.endsWith('\n') || text === '' ? '' : '\n') + '# bad ' + INVALID_MARK + '\n';
    else if (where === 1) text += (text.endsWith('\n') || text === '' ? '' : '\n') + 'zzbad: a' + INVALID_MARK + 'b\n';
    else text += (text.endsWith('\n') || text === '' ? '' : '\n') + 'zzbad: "' + INVALID_MARK + '"\n';
  }
  if (!isWellFormedUtf16(text)) throw new Error(`generator bug: document ${index} is not well-formed UTF-16`);
  // Encode, then replace the invalid-UTF-8 markers.
  let bytes = Buffer.from(text, 'utf8');
  const mark = Buffer.from(INVALID_MARK, 'utf8');
  for (let at = bytes.indexOf(mark); at >= 0; at = bytes.indexOf(mark)) {
    const seq = Buffer.from(r.pick(INVALID_SEQS));
    bytes = Buffer.concat([bytes.subarray(0, at), seq, bytes.subarray(at + mark.length)]);
  }
  return { bytes, features: [...G.features].sort() };
}

// A document of a hard class (gen-hard.mjs), with the document-level
// variations that do not change its class: line breaks, final newline,
// a leading BOM.
function genHardDocument(r, index, cls, cfg) {
  const features = new Set(['class-' + cls]);
  const X = {
    r,
    on: cfg.on,
    feat: (f) => features.add(f),
    dq: (s) => dq({ r }, s),
    sq,
  };
  const doc = hardDocument(X, cls);
  let text = doc.text;
  if (!doc.noFinalNewline && r.chance(0.94)) text += '\n';
  else features.add('no-final-newline');
  if (r.chance(0.04)) {
    features.add('crlf');
    text = text.replace(/\r?\n/g, '\r\n');
  }
  // A BOM right before `-`, `?` or `:` is a construct of its own
  // (bom.empty-key, tabs.after-bom), and so is one before indentation
  // (bom.indented-first).
  if (r.chance(0.03) && !/^[-?:]/.test(text) && (cfg.on('bom.indented-first') || !/^[ \t]/.test(text))) {
    features.add('bom');
    text = '\uFEFF' + text;
  }
  if (!isWellFormedUtf16(text)) throw new Error(`generator bug: document ${index} is not well-formed UTF-16`);
  return { bytes: Buffer.from(text, 'utf8'), features: [...features].sort() };
}

// ---------------------------------------------------------------- classes

const BASE_WEIGHT = 60;

// The names --only and --exclude accept: base, the hard classes and their
// constructs.
function knownNames() {
  const names = new Set(['base']);
  for (const [cls, { constructs }] of Object.entries(HARD_CLASSES)) {
    names.add(cls);
    for (const c of Object.keys(constructs)) names.add(`${cls}.${c}`);
  }
  return names;
}

function splitList(v) {
  return v.split(/[\s,]+/).filter((x) => x !== '');
}

// cfg.on(name): may this class or construct be generated; cfg.weights: the
// [weight, class] list of the document classes.
function makeConfig(only, exclude, weightOverrides) {
  const known = knownNames();
  for (const n of [...only, ...exclude, ...Object.keys(weightOverrides)]) {
    if (!known.has(n)) throw new Error(`unknown class or construct '${n}' (see --list-classes)`);
  }
  const excluded = new Set(exclude);
  const onlyClasses = new Set(only.map((n) => n.split('.')[0]));
  const onlyConstructs = new Set(only.filter((n) => n.includes('.')));
  const on = (name) => {
    const [cls, c] = name.split('.');
    if (excluded.has(cls) || excluded.has(name)) return false;
    if (c !== undefined && onlyClasses.has(cls) && [...onlyConstructs].some((o) => o.startsWith(cls + '.')))
      return onlyConstructs.has(name);
    return true;
  };
  const weights = [];
  const classWeight = (cls, w) => {
    if (only.length && !onlyClasses.has(cls)) return 0;
    if (cls in weightOverrides) return weightOverrides[cls];
    // a class of weight 0 (outside) counts when --only names it
    return w || (onlyClasses.has(cls) ? 1 : 0);
  };
  const wb = classWeight('base', BASE_WEIGHT);
  if (wb > 0 && !excluded.has('base')) weights.push([wb, 'base']);
  for (const [cls, { weight, constructs }] of Object.entries(HARD_CLASSES)) {
    const w = classWeight(cls, weight);
    if (w > 0 && Object.keys(constructs).some((c) => on(`${cls}.${c}`))) weights.push([w, cls]);
  }
  if (!weights.length) throw new Error('every document class is excluded');
  return { on, weights };
}

// Named weightings (--mix).  exact3: the outside team's adversarial
// weighting of issue "exactness III", about 7.8% of the documents in the
// outside class, each of its classes at least as often as they measured
// it (gen-outside.mjs).
const MIXES = {
  exact3: { outside: 8.5 },
};

function listClasses() {
  const lines = [`base\t${BASE_WEIGHT}\tthe mixed kinds (tokens, scalars, keys, json, ...)`];
  for (const [cls, { weight, constructs }] of Object.entries(HARD_CLASSES)) {
    const total = Object.values(constructs).reduce((a, [w]) => a + w, 0);
    const cw = weight || 1;
    lines.push(`${cls}\t${weight}`);
    for (const [c, [w]] of Object.entries(constructs)) lines.push(`${cls}.${c}\t${(cw * w / total).toFixed(2)}`);
  }
  return lines.join('\n') + '\n';
}

// ---------------------------------------------------------------- main

function main(argv) {
  let seed = '1';
  let count = 1000;
  let start = 0;
  let out = null;
  let featuresOut = null;
  let stats = false;
  const only = [];
  const exclude = [];
  const weights = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const val = () => {
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
      return argv[++i];
    };
    if (a === '--seed') seed = val();
    else if (a === '--count') count = Number(val());
    else if (a === '--start') start = Number(val());
    else if (a === '--out') out = val();
    else if (a === '--features') featuresOut = val();
    else if (a === '--stats') stats = true;
    else if (a === '--only') only.push(...splitList(val()));
    else if (a === '--exclude') exclude.push(...splitList(val()));
    else if (a === '--mix') {
      const m = val();
      if (!(m in MIXES)) throw new Error(`--mix: unknown mix '${m}' (${Object.keys(MIXES).join(', ')})`);
      for (const [cls, w] of Object.entries(MIXES[m])) if (!(cls in weights)) weights[cls] = w;
    } else if (a === '--weights') {
      for (const kv of splitList(val())) {
        const m = /^([a-z0-9]+)=([0-9.]+)$/.exec(kv);
        if (!m) throw new Error(`--weights: bad entry '${kv}' (CLASS=WEIGHT)`);
        weights[m[1]] = Number(m[2]);
      }
    } else if (a === '--list-classes') {
      process.stdout.write(listClasses());
      return 0;
    }
    else if (a === '-h' || a === '--help') {
      process.stdout.write('usage: node gen.mjs [--seed S] [--count N] [--start I] [--out FILE] [--features FILE] [--stats]\n'
        + '                   [--only NAMES] [--exclude NAMES] [--weights CLASS=W,...] [--mix NAME] [--list-classes]\n');
      return 0;
    } else throw new Error(`unknown argument ${a}`);
  }
  if (!Number.isInteger(count) || count < 0 || !Number.isInteger(start) || start < 0) throw new Error('bad --count/--start');
  const cfg = makeConfig(only, exclude, weights);
  const seedHash = mix32(fnv1a(String(seed)));
  const fd = out ? openSync(out, 'w') : 1;
  const ffd = featuresOut ? openSync(featuresOut, 'w') : null;
  const tally = new Map();
  let chunks = [];
  let size = 0;
  let fchunks = [];
  const flush = () => {
    if (chunks.length) writeSync(fd, Buffer.concat(chunks));
    if (ffd !== null && fchunks.length) writeSync(ffd, fchunks.join(''));
    chunks = [];
    fchunks = [];
    size = 0;
  };
  for (let i = start; i < start + count; i++) {
    const { bytes, features } = genDocument(seedHash, i, cfg);
    chunks.push(Buffer.from(`#${bytes.length}\n`, 'latin1'), bytes, Buffer.from('\n'));
    size += bytes.length;
    if (ffd !== null) fchunks.push(features.join(' ') + '\n');
    for (const f of features) tally.set(f, (tally.get(f) || 0) + 1);
    if (size > 1 << 20) flush();
  }
  flush();
  if (out) closeSync(fd);
  if (ffd !== null) closeSync(ffd);
  if (stats) {
    const rows = [...tally.entries()].sort((a, b) => b[1] - a[1]);
    for (const [f, n] of rows) process.stderr.write(`${(100 * n / count).toFixed(3).padStart(8)}%  ${n}\t${f}\n`);
  }
  return 0;
}

try {
  process.exitCode = main(process.argv.slice(2));
} catch (e) {
  process.stderr.write(`gen: ${e.message}\n`);
  process.exitCode = 2;
}
