#!/usr/bin/env node
// Seeded generator of documents whose mapping keys are collections, for
// the differential test of the key stringifier (src/yamlkey.c).
//
// Usage: node keys.mjs [--seed S] [--count N] [--out FILE]
//
// Writes a corpus (`#<byte length>\n<bytes>\n` per document).  Document i
// depends only on (S, i).  Keys are flow and block maps and sequences,
// nested up to three levels, holding scalars of every core-schema form in
// every quoting style, escapes, long and multi-line strings, anchors,
// aliases, tags and empty collections, placed as implicit keys, explicit
// keys, keys inside flow collections and template placeholders ({{x}}).
import { writeSync, openSync, closeSync } from 'node:fs';

function mulberry32(a) {
  return function () {
    a |= 0; a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function seedOf(str) {
  let h = 0x811c9dc5;
  for (let i = 0; i < str.length; i++) h = Math.imul(h ^ str.charCodeAt(i), 16777619);
  return h >>> 0;
}

const PLAIN = [
  'a', 'b', 'x', 'key', 'hello world', 'a b c', 'é', '日本', '😀', 'a:b', 'a#b', 'a-b',
  '-a', '?a', 'a?', 'foo.bar', 'x y', 'config_data', 'name', '1a', '0x', '.', '~x',
  '~', 'null', 'Null', 'NULL', 'true', 'True', 'TRUE', 'false', 'FALSE', 'yes', 'on',
  'no', 'off', 'y', 'n', '0', '1', '-1', '+1', '007', '012', '0o17', '0x1F', '0xff',
  '0b101', '1_000', '1.5', '1.50', '1.0', '-1.50', '01.50', '+1.5', '1.', '.5', '.50',
  '1e3', '1E3', '1.5e3', '-1.5e-3', '2.50e+3', '1e400', '-1e400', '.inf', '-.Inf',
  '+.INF', '.nan', '.NaN', '.NAN', '12345678901234567890', '0.1', '100000000000000000000',
  '1e21', '1e-7', '0.000001', '-0', '-0.0', '0.0', '123456789012345680000', '3.14159',
  '2001-12-14', '12:30:45', '190:20:30', 'a\'b', 'a"b', '@x', '`x', '%x', 'x%',
];

const QUOTED = [
  '', ' ', 'a', 'a b', ' lead', 'trail ', 'it\'s', 'say "hi"', 'both \' and "', 'a\nb',
  'a\n\nb', '\n', 'a\n', 'line1\nline2\nline3', 'a \nb', 'a\n b', 'tab\there', '\t',
  '# x', 'a: b', 'a:', '- x', '-', '?', '? x', '[a]', '{a}', 'a,b', 'a]', '%x', '---',
  '...', '--- x', 'x\n---', 'x\n...', '@x', '`x', '!x', '&x', '*x', '|', '>', '\'', '"',
  'true', 'True', 'yes', 'null', '~', '123', '0x1F', '1.5', '1e3', '.inf', '.nan', '-0',
  '2001-12-14', 'é', '😀', '\u2028', '\u0085', '\u00a0', 'a\u00a0', '\x01', '\x00',
  '\x07', '\x0b', '\x1b', '\x7f', '\x9f', '\ud800', 'a\udc00b', '\x08\x0c',
  'a'.repeat(30), 'word '.repeat(12).trim(), 'x'.repeat(75), 'y'.repeat(90),
  'a long line with spaces that goes on and on past eighty columns for sure yes',
  'short\nwith a newline that is long enough to pass forty units',
  'multi\n\nline string that has a few more words to exceed forty',
  'z'.repeat(50) + '\n' + 'z'.repeat(10),
];

function jsDouble(s) {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0);
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += (c & 1) ? '\\t' : '\t';
    else if (c < 0x20 || c === 0x7f || (c >= 0x80 && c <= 0x9f)) out += '\\x' + c.toString(16).padStart(2, '0');
    else if (c === 0x2028 || c === 0x2029 || c === 0x85 || c === 0xa0) out += '\\u' + c.toString(16).padStart(4, '0');
    else if (c >= 0xd800 && c <= 0xdfff) out += '\\u' + c.toString(16);
    else out += ch;
  }
  return out + '"';
}

function canSingle(s) {
  for (const ch of s) {
    const c = ch.codePointAt(0);
    if ((c < 0x20 && c !== 9 && c !== 10) || c === 0x7f || (c >= 0x80 && c <= 0x9f) ||
        (c >= 0xd800 && c <= 0xdfff) || c === 0x2028 || c === 0x2029 || c === 0x85 || c === 0xfeff)
      return false;
  }
  return !/\n/.test(s);
}

function gen(rnd) {
  const pick = a => a[Math.floor(rnd() * a.length)];
  const chance = p => rnd() < p;
  let anchorN = 0;
  const anchors = [];

  function props(isColl) {
    let p = '';
    if (chance(0.08)) {
      const name = pick(['a', 'b', 'k' + anchorN++, 'x1', 'n-m', 'a.b']);
      anchors.push(name);
      p += '&' + name + ' ';
    }
    if (chance(0.1)) {
      p += pick(isColl
        ? ['!!map ', '!!seq ', '! ', '!foo ', '!!set ', '!!omap ', '!!pairs ', '!<tag:x> ']
        : ['!!str ', '!!int ', '!!float ', '!!bool ', '!!null ', '! ', '!foo ', '!!binary ',
           '!!timestamp ', '!e!x ', '!<tag:x> ']);
    }
    return p;
  }

  function scalar(ctx) {
    const r = rnd();
    if (anchors.length && chance(0.06)) return '*' + pick(anchors);
    const pr = props(false);
    if (r < 0.45) return pr + pick(PLAIN);
    const s = pick(QUOTED);
    if (r < 0.75 || !canSingle(s)) return pr + jsDouble(s);
    return pr + "'" + s.replace(/'/g, "''") + "'";
  }

  function flow(depth) {
    const isMap = chance(0.5);
    const n = chance(0.1) ? 0 : 1 + Math.floor(rnd() * (depth ? 3 : 5));
    const items = [];
    for (let i = 0; i < n; i++) {
      const sub = () => (depth < 2 && chance(0.25) ? flow(depth + 1) : scalar());
      if (isMap) {
        const k = sub();
        const form = rnd();
        if (form < 0.12) items.push(k);
        else if (form < 0.2) items.push(k + ':');
        else if (form < 0.25) items.push('? ' + k);
        else items.push(k + ': ' + sub());
      } else if (chance(0.1)) {
        items.push(scalar() + ': ' + sub());
      } else items.push(sub());
    }
    const sep = chance(0.1) ? ',' : ', ';
    const body = items.join(sep) + (n && chance(0.05) ? ',' : '');
    return props(true) + (isMap ? '{' + body + '}' : '[' + body + ']');
  }

  function block(indent, depth) {
    const pad = ' '.repeat(indent);
    const isMap = chance(0.5);
    const n = 1 + Math.floor(rnd() * 3);
    const lines = [];
    for (let i = 0; i < n; i++) {
      const val = () => {
        if (depth < 2 && chance(0.2)) return '\n' + block(indent + 2, depth + 1);
        if (chance(0.2)) return ' ' + flow(2);
        if (chance(0.08)) return ' |\n' + pad + '  lit\n' + pad + '  text';
        return ' ' + scalar();
      };
      if (isMap) {
        const k = scalar().replace(/^\*(.*)$/, '*$1 ');
        lines.push(pad + k + ':' + (chance(0.1) ? '' : val()));
      } else lines.push(pad + '-' + val());
    }
    return lines.join('\n');
  }

  const kind = rnd();
  let prefix = '';
  if (chance(0.2)) {
    const name = pick(['a', 'b', 'x1']);
    anchors.push(name);
    prefix = 'base: &' + name + ' ' + pick(['v', '[1, 2]', '{p: q}', '"s"', '7']) + '\n';
  }
  if (kind < 0.4) return prefix + flow(0) + ': value\n';
  if (kind < 0.55) return prefix + '? ' + flow(0) + '\n: value\n';
  if (kind < 0.7) return prefix + '?\n' + block(2, 0) + '\n: value\n';
  if (kind < 0.78) return prefix + 'data: {{' + pick(['x', 'config_data', 'a.b', ' name ', 'x: 1']) + '}}\n';
  if (kind < 0.84) return prefix + '- ' + flow(1) + ': v\n- ' + flow(1) + ': w\n';
  if (kind < 0.9) return prefix + '[' + flow(1) + ': v]\n';
  if (kind < 0.95) return prefix + '{' + flow(1) + ': v, ' + flow(1) + '}\n';
  return prefix + 'outer:\n  ' + flow(0) + ': 1\n  ' + flow(0) + ': 2\n';
}

function main(argv) {
  let seed = 'keys', count = 1000, out = null;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--seed') seed = argv[++i];
    else if (argv[i] === '--count') count = Number(argv[++i]);
    else if (argv[i] === '--out') out = argv[++i];
    else {
      process.stderr.write(`keys.mjs: unknown argument ${argv[i]}\n`);
      return 2;
    }
  }
  const fd = out ? openSync(out, 'w') : 1;
  const base = seedOf(seed);
  for (let i = 0; i < count; i++) {
    const doc = Buffer.from(gen(mulberry32((base + Math.imul(i, 0x9e3779b1)) | 0)), 'utf8');
    writeSync(fd, `#${doc.length}\n`);
    writeSync(fd, doc);
    writeSync(fd, '\n');
  }
  if (out) closeSync(fd);
  return 0;
}

process.exitCode = main(process.argv.slice(2));
