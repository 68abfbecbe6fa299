#!/usr/bin/env node
// Seeded generator of `%YAML 1.1` documents for the differential test of
// the YAML 1.1 schema (src/yaml11.c).
//
// Usage: node yaml11.mjs [--seed S] [--count N] [--out FILE]
//
// Writes a corpus (`#<byte length>\n<bytes>\n` per document).  Document i
// depends only on (S, i).  Documents mix every scalar form the 1.1 schema
// resolves (booleans, binary/octal/decimal/hexadecimal ints with '_',
// sexagesimal ints and floats, floats, timestamps, nulls) and near misses,
// as values and keys, with and without explicit tags, and "<<" merges of
// inline maps, aliases and sequences of them (nested, overridden, invalid).
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

const SCALARS = [
  'y', 'Y', 'yes', 'Yes', 'YES', 'yEs', 'n', 'N', 'no', 'No', 'NO', 'on', 'On', 'ON', 'oN',
  'off', 'Off', 'OFF', 'true', 'True', 'TRUE', 'false', 'False', 'FALSE', 'tRue',
  '~', 'null', 'Null', 'NULL', 'nULL', '', '0', '-0', '+0', '00', '007', '0_7', '0_', '08',
  '0777', '-0777', '+017', '09', '0b101', '-0b1_0', '+0b1', '0b', '0b_', '0b2', '0x1F',
  '0x_1f', '-0xff', '0x', '0xg', '0o17', '1_000', '1__0', '_1', '1_', '123456789012345678901',
  '0b' + '1'.repeat(70), '0x' + 'f'.repeat(20), '0' + '7'.repeat(30),
  '1.5', '-1.5', '+.5', '.5', '.', '-.', '1.', '1_0.5_0', '1.50', '._', '1e3', '1E3', '1.5e+3',
  '-2.5e-3', 'e5', '.e5', '1.e5', '1_0e1_0', '1e400', '-1e400', '.inf', '-.Inf', '+.INF', '.nan',
  '.NaN', '.NAN', 'inf', 'nan', '190:20:30', '-190:20:30', '+1:30', '1:60', '1:5:7', '1:05',
  '1_0:30', '190:20:30.15', '-1:30.5', '1:30.', '1:30._5', '12:30:45', ':30', '1::30',
  '2001-12-14', '2001-1-1', '2001-12-14t21:59:43.10-05:00', '2001-12-14 21:59:43.10 -5',
  '2001-12-14T21:59:43Z', '2001-12-14 21:59:43.10', '2001-12-14\t21:59:43 +02:30',
  '2001-12-14T21:59:43.1234567Z', '2001-13-45', '2001-12-14T25:61:61', '201-12-14',
  '2001-12-14T21:59', '2001-12-14 21:59:43 Z', '2001-12-14 21:59:43  +3', '2002-02-30',
  '<<', '=', 'a', 'hello world', '"quoted yes"', "'on'", '"12"', '"<<"',
];

const TAGS = ['!!int ', '!!float ', '!!bool ', '!!null ', '!!str ', '!!timestamp ',
  '!!merge ', '!!binary ', '! ', '!x '];

function gen(rnd) {
  const pick = a => a[Math.floor(rnd() * a.length)];
  const chance = p => rnd() < p;
  const anchors = [];
  let next = 0;

  function scalar() {
    let s = pick(SCALARS);
    if (s === '') return chance(0.5) ? '""' : '';
    if (chance(0.12)) s = pick(TAGS) + (s === '<<' || s.startsWith('"') || s.startsWith("'") ? s : s);
    return s;
  }

  function mapLiteral(depth) {
    const n = Math.floor(rnd() * 4);
    const items = [];
    for (let i = 0; i < n; i++) {
      if (chance(0.2)) items.push('<<: ' + mergeValue(depth + 1));
      else items.push(scalar() + ': ' + (depth < 2 && chance(0.15) ? mapLiteral(depth + 1) : scalar()));
    }
    const anchor = chance(0.4) ? '&m' + next++ + ' ' : '';
    const s = anchor + '{' + items.join(', ') + '}';
    if (anchor) anchors.push(anchor.slice(1, -1));
    return s;
  }

  function mergeValue(depth) {
    const r = rnd();
    if (anchors.length && r < 0.4) return '*' + pick(anchors);
    if (r < 0.7 || depth > 2) return mapLiteral(depth);
    if (r < 0.9) {
      const n = Math.floor(rnd() * 3);
      const xs = [];
      for (let i = 0; i < n; i++)
        xs.push(anchors.length && chance(0.6) ? '*' + pick(anchors) : mapLiteral(depth + 1));
      return '[' + xs.join(', ') + ']';
    }
    return pick(['', 'x', '[a]', '2001-12-14', '!!omap [{a: 1}]', '!!set {a}', '!!pairs [{a: 1}]', '[{a: 1}, b]']);
  }

  const lines = [];
  const kind = rnd();
  if (kind < 0.35) {
    const n = 1 + Math.floor(rnd() * 6);
    for (let i = 0; i < n; i++) lines.push('k' + i + ': ' + scalar());
  } else if (kind < 0.55) {
    const n = 1 + Math.floor(rnd() * 6);
    const xs = [];
    for (let i = 0; i < n; i++) xs.push(scalar());
    lines.push(chance(0.5) ? '[' + xs.join(', ') + ']' : xs.map(x => '- ' + x).join('\n'));
  } else if (kind < 0.7) {
    const n = 1 + Math.floor(rnd() * 5);
    for (let i = 0; i < n; i++) lines.push(scalar() + ': v' + i);
  } else {
    const n = 1 + Math.floor(rnd() * 3);
    for (let i = 0; i < n; i++) lines.push('base' + i + ': ' + mapLiteral(0));
    const m = 1 + Math.floor(rnd() * 3);
    for (let i = 0; i < m; i++) {
      const items = [];
      const k = 1 + Math.floor(rnd() * 4);
      for (let j = 0; j < k; j++)
        items.push(chance(0.5) ? '<<: ' + mergeValue(0) : scalar() + ': ' + scalar());
      if (chance(0.5)) lines.push('use' + i + ': {' + items.join(', ') + '}');
      else lines.push('use' + i + ':\n' + items.map(x => '  ' + x).join('\n'));
    }
  }
  const head = chance(0.9) ? '%YAML 1.1\n---\n' : '%YAML 1.1\n--- ';
  return head + lines.join('\n') + '\n';
}

function main(argv) {
  let seed = 'yaml11', count = 1000, out = null;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--seed') seed = argv[++i];
    else if (argv[i] === '--count') count = Number(argv[++i]);
    else if (argv[i] === '--out') out = argv[++i];
    else {
      process.stderr.write(`yaml11.mjs: unknown argument ${argv[i]}\n`);
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
