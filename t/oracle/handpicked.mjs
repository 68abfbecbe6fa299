#!/usr/bin/env node
// Hand-picked documents, one for each consequence listed in SPEC 4.3 and a
// few quirks of the reference found by the generator.  Writes a corpus
// (`#<len>\n<bytes>\n` records) to stdout or to --out FILE.
import { writeFileSync } from 'node:fs';

const docs = [];
const add = (x) => docs.push(typeof x === 'string' ? Buffer.from(x, 'utf8') : Buffer.from(x));
const rep = (s, n) => s.repeat(n);

// Hashes of the simplest values.
['a: 1\n', '', '\n', '# only a comment\n', '---\n', '---\n...\n', '~\n', 'null', '[]', '{}', '""', "''",
  'x', '1', 'true', '- a\n- b\n', 'a: 1'].forEach(add);

// Core-schema scalar resolution.
for (const s of ['null', 'Null', 'NULL', '~', '', 'nULL', 'true', 'True', 'TRUE', 'false', 'False', 'FALSE',
  'tRUE', 'yes', 'no', 'on', 'off', 'y', 'n', '0', '-0', '+0', '012', '0012', '-012', '+12', '0o17', '0o8',
  '0x1F', '0x1f', '0X1F', '0b101', '1_000', '0x', '0o', '.5', '-.5', '+.5', '1.', '1e3', '1E-3', '1e+3',
  '.inf', '-.Inf', '+.INF', '.NaN', '.nan', '.NAN', '.NAn', '.nAn', '12345678901234567890', '9007199254740993',
  '1e309', '-1e309', '1e-400', '-0.0', '0.0', '1e-7', '1e-6', '1e21', '1e20', '100000000000000000000',
  '1000000000000000000000', '0.1', '5e-324', '1.7976931348623157e308', '2001-12-14', '190:20:30', '1:30']) {
  add(`v: ${s}\n`);
}
// Quoted and block scalars stay strings; escapes.
['v: "1"\n', "v: '1'\n", 'v: "\\0\\a\\b\\e\\f\\n\\r\\t\\v\\N\\_\\L\\P\\"\\/\\\\\\x41\\u00e9\\U0001F600"\n',
  'v: "\\ud800"\n', 'v: "\\udfff"\n', 'v: "\\ud83d\\ude00"\n', 'v: "\\ude00\\ud83d"\n', 'v: "\\x7f\\u2028\\u2029\\u0085"\n',
  'v: "a\\\n  b"\n', 'v: "a\n  b\n\n  c"\n', "v: 'it''s\n  folded'\n", 'v: "\\q"\n', 'v: "\\U00110000"\n',
  'v: |\n  a\n  b\n', 'v: |-\n  a\n\n', 'v: |+\n  a\n\n', 'v: >\n  a\n  b\n\n  c\n', 'v: >\n  a\n    more\n  b\n',
  'v: |2\n    lead\n  x\n', 'v: >-2\n   x\n', 'v: |\n', 'v: |\n  a\n  # not a comment\n', '--- |\n  root\n'].forEach(add);
// Tags.
['v: !!str 1\n', 'v: !!int "12"\n', 'v: !!int 1.5\n', 'v: !!float 1\n', 'v: !!bool "true"\n', 'v: !!null ""\n',
  'v: !!map {a: 1}\n', 'v: !!seq [1]\n', 'v: !!binary aGVsbG8=\n', 'v: !!binary |\n  aGVs\n  bG8=\n', 'v: !!binary ""\n',
  'v: !foo bar\n', 'v: !foo 12\n', 'v: ! 12\n', 'v: !<tag:yaml.org,2002:str> 12\n', 'v: !<tag:yaml.org,2002:int> "7"\n',
  '%TAG !e! tag:example.com,2000:\n---\nv: !e!x 1\n', 'v: !e!x 1\n', 'v: !!timestamp 2001-12-14\n', 'v: !!set {a}\n',
  'v: !!omap [a: 1]\n', 'v: !!set {a: 1}\n'].forEach(add);
// Numbers as the reference prints them.
add('n: [12345678901234567890, -0, 1e-7, 1e21, 1e20, .nan, -.inf, 0x1F, 0o17, 012, 0.1, 1.5e300, 4.35, 0.000001]\n');
// Key order and key conversion.
add('{10: a, 2: b, 01: c, -1: d, 4294967295: e, 4294967294: f, 0: g, "4294967296": h, b: i, A: j}\n');
add('"a\u{1F600}": 1\n"a\u{E000}": 2\n"a\u{FFFD}": 3\n"a\u{F8FF}": 4\na\u{10000}: 5\n');
add('1: a\ntrue: b\nnull: c\n~: d\n');
add('1: a\n"1": b\n');
add('"1": a\n1: b\n');
add('1.5: a\n.inf: b\n.nan: c\n-0: d\n1e21: e\n0x10: f\n');
add('__proto__: 1\nb: 2\n');
add('__proto__: {x: 1}\nb: 2\n');
add('__proto__: null\nb: 2\n');
add('__proto__:\n  - 1\nb: 2\n');
add('"__proto__": x\n');
add('a:\n  __proto__: {y: 2}\n  b: 1\n');
add('constructor: 1\ntoString: 2\nhasOwnProperty: 3\n');
add('? [a, b]\n: x\n');
add('{a: 1}: x\n');
add('[a]: b\n');
add('? {a: [1, {b: 2}]}\n: y\n');
// Aliases, anchors, merge keys.
add('a: &x 1\nb: *x\n');
add('a: &x [1, 2]\nb: *x\nc: *x\n');
add('a: &x 1\nb: *x\nc: &x 2\nd: *x\n');
add('a: &r [1, *r]\n');
add('a: *nope\n');
add('base: &b {c: red}\nd:\n  <<: *b\n  s: 1\n');
add('d:\n  <<: {a: 1}\n  <<: {b: 2}\n');
for (const n of [98, 99, 100, 101]) add('s: &s x\nl: [' + Array(n).fill('*s').join(', ') + ']\n');
for (const [k, m] of [[2, 32], [2, 33], [3, 24], [3, 25], [10, 8], [10, 9]]) {
  add(`s: &s x\nc: &c [${Array(k).fill('*s').join(', ')}]\nd: [${Array(m).fill('*c').join(', ')}]\n`);
}
add('a: &a [x, y]\nb: &b [*a, *a, *a]\nc: &c [*b, *b, *b]\nd: &d [*c, *c, *c]\ne: [*d, *d]\n');
// Documents, markers, BOM, line breaks.
add('a: 1\n---\nb: 2\n');
add('a: 1\n---\n');
add('a: 1\n...\n');
add('---\na: 1\n...\n---\n');
add('\u{FEFF}a: 1\n');
add('\u{FEFF}- a\n');
add('\u{FEFF}\n- a\n');
add('\u{FEFF}[a]\n');
add('a: \u{FEFF}b\n');
add('a: 1\r\nb:\r\n  - x\r\n  - y\r\n');
add('a: 1\rb: 2\r');
add('a: "x\r\n  y"\r\n');
add('%YAML 1.2\n---\na: 1\n');
add('%YAML 1.1\n---\na: yes\nb: 0777\nc: 0b101\nd: 190:20:30\ne: 2001-12-14\nf: <<\n');
add('%YAML 1.1\n---\nb: &b {x: 1}\nc:\n  <<: *b\n  y: 2\n');
// Duplicate keys.
for (const [a, b] of [['a', 'a'], ['1', '1.0'], ['1', '0x1'], ['~', 'null'], ['-0', '0'], ['true', 'True'],
  ['1', '"1"'], ['.nan', '.nan'], ['null', '""'], ['a', '"a"']]) add(`${a}: x\n${b}: y\n`);
add('{"a": 1, "a": 2}\n');
// Errors of syntax, tabs, long keys.
add('a: [1, 2\n');
add('a: "open\n');
add('a: b: c\n');
add('a:\n\tb: 1\n');
add('a:\t1\n');
add('- a\nb: c\n');
for (const n of [1023, 1024, 1025]) add(rep('k', n) + ': v\n');
for (const n of [1022, 1023, 1024]) add('"' + rep('k', n - 2) + '": v\n');
for (const n of [511, 512, 513]) add(rep('\u{1F600}', n) + ': v\n'); // 2 UTF-16 units each
add('{' + rep('k', 1030) + ': v}\n');
// Control characters, raw and escaped; invalid UTF-8.
add('a: "x\x01y"\n');
add('a: x\x7fy\n');
add('a: x\u2028y\n');
add('a: x\u0085y\n');
add('a: "x\x00y"\n');
add([0x61, 0x3a, 0x20, 0xff, 0xfe, 0x0a]);
add([0x61, 0x3a, 0x20, 0xc0, 0x80, 0xed, 0xa0, 0x80, 0xf0, 0x9f, 0x98, 0x0a]);
add([0x23, 0x20, 0x80, 0x0a, 0x61, 0x3a, 0x20, 0x31, 0x0a]);
add([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf, 0x61, 0x3a, 0x20, 0x31, 0x0a]);
// Nesting.
for (const d of [100, 300, 511, 512, 513]) add(rep('[', d) + ']'.repeat(d) + '\n');
for (const d of [100, 300]) add(rep('- ', d) + 'x\n');
// Realistic tokens with traps.
add('color:\n  primary: #fff\n  ref: {color.primary}\n  quoted: "#fff"\nfont: Inter, sans-serif\n');
add('spacing: [0, 4, 8, 16]\nscale:\n- 1\n- 2\n');

let out = [];
for (const d of docs) out.push(Buffer.from(`#${d.length}\n`, 'latin1'), d, Buffer.from('\n'));
const buf = Buffer.concat(out);
const i = process.argv.indexOf('--out');
if (i > 0) writeFileSync(process.argv[i + 1], buf);
else process.stdout.write(buf);
