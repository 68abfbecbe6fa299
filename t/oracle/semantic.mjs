#!/usr/bin/env node
// Hand-picked documents for the semantic rules of yaml@2.8.3 that
// t/t9120-yaml-semantics.sh checks without Node: where a !!merge scalar
// stands (key, map value, sequence item, root, alias, flow pair, !!set,
// !!omap, !!pairs, collection key, %YAML 1.1), and !!set / !!omap /
// !!pairs collections as or inside collection keys.  Each document was
// put here because the reference's answer for it was learned from the
// oracle; the answers live in t/vectors/yaml-sem/, never here.
//
// Usage: node semantic.mjs [--out FILE]     (a corpus, as gen.mjs writes)
import { writeFileSync } from 'node:fs';

const Y11 = '%YAML 1.1\n---\n';
const docs = [
  // !!merge on a key merges, whatever the key's text
  'b: &b {x: 1}\nc: {!!merge <<: *b}',
  'b: &b {x: 1}\nc:\n  !!merge <<: *b\n  y: 2',
  'b: &b {x: 1}\nc:\n  !<tag:yaml.org,2002:merge> <<: *b',
  'b: &b {x: 1}\nc:\n  ? !!merge <<\n  : *b',
  'c:\n  !!merge x: {a: 1}',
  'c:\n  !!merge "<<": {a: 1}',
  '[!!merge x: {a: 1}]',
  'c: {!!merge <<: [{a: 1}, {b: 2}]}',
  '!!merge <<: {a: 1}',
  'c: [!!merge <<: {a: 1}]',
  'b: &b {x: 1}\nc:\n  !!merge <<: [*b, {y: 2}]',
  'a: {x: 1, !!merge <<: {x: 2, y: 3}}',
  'a: {!!merge <<: {x: 2, y: 3}, x: 1}',
  'a: {!!merge <<: [{x: 1}, {x: 2, z: 3}], !!merge y: {w: 4}}',
  'x: {!!merge <<: {a: 1}, !!merge <<: {b: 2}}',
  'a: &a {p: 1, !!merge <<: {q: 2}}\nb:\n  !!merge <<: *a',
  'a: &a {p: !!merge q}\nb: {!!merge <<: *a, r: 1}',
  'a: &a {<<: 1}\nb: {!!merge <<: *a}',
  '{!!merge : {a: 1}}',
  '!!merge : {a: 1}',
  '? !!merge\n: {a: 1}',
  // ... and a merge source that is not a map is an error
  'c: {!!merge <<: 1}',
  'c:\n  !!merge <<: [1]',
  'b: &b x\nc:\n  !!merge <<: *b',
  'c:\n  !!merge x: 1',
  '{!!merge }',
  '? !<tag:yaml.org,2002:merge> "aGk="\n: v0',
  '{!!merge x: 1}: v',
  // on a map value the pair goes; in a sequence it is null; alone, an error
  'c: !!merge <<',
  'c: !!merge ""',
  'c: !!merge\nd: 1',
  'c: !!merge 5\nd: 2',
  'k0: !<tag:yaml.org,2002:merge> 0b11',
  'k0: !<tag:yaml.org,2002:merge> |+\n  aGVsbG8=\n',
  '- !!merge <<\n- a',
  '- !<tag:yaml.org,2002:merge> -0',
  '[!!merge <<]',
  '{1: x, "1": !!merge y}',
  '{"1": !!merge y, 1: x}',
  '!!merge x',
  'c: !!merge {a: 1}',
  'c: !!merge [a]',
  'c:\n  <<: !!merge {a: 1}',
  // aliases of a !!merge scalar: a Symbol, "Symbol(<<)" as a key
  'a: &m !!merge x\nb: *m\nc: [*m]\n*m : 1',
  '- &a !!merge x\n- *a',
  'a: !!merge &x y\nb: *x',
  'a: &x {b: &y !!merge c}\nd: *y',
  'a: {&m !!merge x: {y: 1}}\nb: {*m : 2}',
  'a: {&m !!merge x: {y: 1}}\nb: {!!merge <<: {*m : 2}}',
  'a: &m !!merge x\n{!!merge <<: {k: *m}}: v',
  // in !!set, !!omap, !!pairs
  's: !!set {!!merge <<}',
  's: !!set {!!merge <<: x}',
  '!!set {&m !!merge x}',
  '!!omap [!!merge x: 1]',
  '!!omap [!!merge x]',
  '!!omap [&m !!merge x: 1, *m : 2]',
  '!!omap [&a x: 1, *a : 2]',
  '- &m !!merge x\n- !!omap [*m, *m]',
  '!!pairs [!!merge x: {a: 1, b: 2}]',
  '!!pairs [!!merge x]',
  '- &m !!merge x\n- !!pairs [*m]',
  '--- !!pairs [<<]',
  '--- !!omap [<<, <<]',
  's: !!set {a: !!null ~}',
  // inside collection keys: printed "!!merge <<"
  '[!!merge x]: v',
  '[&a !!merge x, *a]: v',
  'a: &m !!merge x\n[*m]: v',
  // under %YAML 1.1 only "<<" passes the merge tag's test
  Y11 + 'c: !!merge x\nd: [!!merge y]',
  Y11 + 'c: !!merge x\nd: !!merge <<\ne: [!!merge <<]\n!!merge x: {a: 1}',
  Y11 + '!!merge "<<": {a: 1}',
  Y11 + '[!!merge x]: v',
  Y11 + '[!!merge <<]: v',
  Y11 + '[<<]: v',
  Y11 + '--- !!set {<<}',
  Y11 + '? !!set {<<}\n: v',
  Y11 + '--- !!omap [<<]',
  Y11 + '--- !!pairs [<<]',
  Y11 + '--- !!pairs [!!str <<]',
  Y11 + '--- !!pairs ["<<"]',
  Y11 + '- &m <<\n- !!pairs [*m]',
  Y11 + '--- !!pairs [<<: {a: 1}, b]',
  Y11 + '--- !!omap [<<: 1, <<: 2]',
  Y11 + '--- !!omap [<<, <<]',
  // !!set, !!omap and !!pairs as or inside collection keys
  "? !!set {a, b}\n: x",
  "!!set {a, b}: x",
  "[!!set {a}]: v",
  "[!!omap [a: 1]]: v",
  "[!!pairs [a: 1, a: 2]]: v",
  "? !!omap [a: 1, b: 2]\n: v",
  "? !!pairs [a: 1]\n: v",
  "{a: !!set {x}}: v",
  "? !!set\n  ? a\n  ? b\n: v",
  "[!!set {}]: v",
  "[!!omap []]: v",
  "[!!set {a: }]: v",
  "[!!omap [a, b: 1]]: v",
  "[!!pairs [[a], {b: 1}]]: v",
  "[!!omap [{}]]: v",
  "[!!omap [&x {a: 1}, !t {b: 2}]]: v",
  "[!!pairs [*x, &x a]]: v",
  "- &x a\n- [!!pairs [*x, {*x : 1}]]: v",
  "[!!set {[a], {b: 1}, \"q\", ? x}]: v",
  "[!!set {a: ~}]: v",
  "[!!set {a: !!null}]: v",
  "[!!pairs [!!merge x: {a: 1}]]: v",
  "[!!pairs [{}, {}, x]]: v",
  "? !!set {aaaaaaaaaaaaaaaaaaaa, bbbbbbbbbbbbbbbbbbbbbbb, ccccccccccccccccccccccccc, dddddddddddddddddd}\n: v",
  "? !!omap [aaaaaaaaaaaaaaaaaaaa: 1, bbbbbbbbbbbbbbbbbbbbbbb: 2, ccccccccccccccccccccccccc: 3, dddddddddddddddddd: 4]\n: v",
  "? !!pairs [[a, b]: [c, d], {x: y}: z]\n: v",
  "%YAML 1.1\n---\n? !!set {<<}\n: v",
  "%YAML 1.1\n---\n? !!set {a, yes, 0x1F}\n: v",
  "%YAML 1.1\n---\n? !!omap [yes: no, <<: 1]\n: v",
  "%YAML 1.1\n---\n? !!pairs [<<: {a: 1}, b]\n: v",
  "!!set {a}: v\n!!set {a}: w",
  "? !!pairs\n  - a: 1\n  - b\n: v",
  "? !!omap\n  - a: 1\n  - b\n: v",
  "? [!!omap [a: |\n    x\n  ]]\n: v",
  "&s !!set {a}: v\nk: *s",
  "k: &s !!set {a}\n*s : v",
  // aliases of them weigh as yaml weighs the collection as written
  'a: &a !!set {x}\nb: [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a]',
  'a: &a !!set {x}\nb: [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a]',
  'a: &a !!omap [x: 1]\nb: [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a]',
  'a: &a !!omap [{}]\nb: [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a]',
  'a: &a !!pairs [[]]\nb: [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a]',
  'a: &a !!pairs [{[]: []}]\nb: [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a]',
  // a collection key weighs as the collection, not as its string
  'b: &b [x]\nc: &a {[*b, *b]: 1}\nd: [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a]',
  'b: &b [x]\nc: &a {[*b, *b]: 1}\nd: [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a]',
  'a: &a {[]: []}\nb: [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a]',
];

const out = [];
for (const d of docs) {
  const b = Buffer.from(d.startsWith(Y11 + '--- ') ? '%YAML 1.1\n' + d.slice(Y11.length) : d, 'utf8');
  out.push(Buffer.from(`#${b.length}\n`), b, Buffer.from('\n'));
}
const i = process.argv.indexOf('--out');
if (i > 0) writeFileSync(process.argv[i + 1], Buffer.concat(out));
else process.stdout.write(Buffer.concat(out));
