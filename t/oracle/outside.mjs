#!/usr/bin/env node
// Hand-picked documents for the constructs an outside adversarial corpus
// found wrong, accepted where the reference errors, or refused (issue
// "exactness III"), checked by t/t9130-yaml-outside.sh without Node.
// Each is here because the reference's answer for it was learned from
// the oracle; the answers live in t/vectors/yaml-outside/, never here.
//
// Usage: node outside.mjs [--out FILE]     (a corpus, as gen.mjs writes)
import { writeFileSync } from 'node:fs';

const Y11 = '%YAML 1.1\n---\n';
const docs = [
  // a scalar tag on a collection inside a key: yaml prints the collection
  // with that tag's stringifier, its value undefined, on a line of its own
  '[ !!str [a] ]: x',
  '[ !!str {} ]: x',
  '{ !!str [a]: 1 }: y',
  '{ k: &a !!str [x], j: 1 }: v',
  '{ ? !!str [a] }: v',
  '[ !!str [a]: 1 ]: v',
  '[ [ !!str {} ] ]: w',
  '? [ !!str [a], b ]\n: v',
  '[ !!str { "a": "" } ]: x',
  '{ ? !!str { "a": "" } : v }: x',
  '[ !!int [x], !!float {}, !!bool [], !!null [a] ]: v',
  '[ &a !!int [x] ]: v',
  Y11 + '[ !!timestamp [a], b ]: x',
  Y11 + '[ !!binary [a] ]: x',
  Y11 + '[ !!merge [a] ]: x',
  Y11 + '{ k: !!bool [a] }: x',
  Y11 + '[ !!int [], !!float [], !!null [] ]: x',
  '[ !!map {a: 1}, !!seq {b: 2}, !foo [c], !!set {d} ]: x',
  '[ &a:b !!float .nan ]: x',
  '{ ? &a:b !!float .nan : v }: x',
  // a comment line at a block map's column before a later flow
  // collection key: yaml throws "Map comment with trailing content"
  'a: 1\n# c\n[x]: 1',
  'a: 1\n# c\n\n[x]: 1',
  'a: 1\n\n# c\n[x]: 1',
  'o:\n  a: 1\n  # c\n  [x]: 1',
  '- a: 1\n  # c\n  [x]: 1',
  'a:\n  - 1\n# c\n[x]: 1',
  'a: 1\n# c\n{x: 1}:\n  b: 2',
  'a: 1\n# c\n&a [x]: 1',
  'a: 1\n# c\n[x] : 1',
  'a: |\n  x\n# c\n[x]: 1',
  '{toJSON: x}:\n- a\n# comment\n{d: 1}: 2',
  '? a\n: 1\n# c\n[x]: 1',
  // ... but not before the first pair, nor further right
  '# c\n[x]: 1',
  'a: 1\n  # c\n[x]: 1',
  'a: 1 # c\n[x]: 1',
  'o:\n  # c\n  [x]: 1',
  'a: 1\n# c\n"q": 1',
  // !!binary beyond ASCII: Node's base64 decoder reads UTF-16 units
  // truncated to bytes (U+0141 is an 'A', a high surrogate 0xD83D an '=')
  Y11 + 'b: !!binary éŁQUJD',
  Y11 + 'b: !!binary "Q乁JD"',
  Y11 + 'b: !!binary QUJD\u{1F600}QQ==',
  Y11 + '- !!binary |\n  aGVs\n  ĽbG8=',
  Y11 + 'b: !!binary aGVs\u00a0bG8=',
  Y11 + 'b: !!binary ÿ\u00ffßΩ中\u2028',
  Y11 + '? !!binary Łŀ\u{1D11E}QQ==\n: k',
  Y11 + '[!!binary aGVsŁ]: k',
  'b: !!binary aGVsŁ',
  // a merge source's collection keys: the source is read as a Map, whose
  // keys are the JavaScript arrays and objects; defineProperty() makes
  // them String(key), the first of equal strings winning
  Y11 + 'base: &b {[a, b]: 1, c: 2}\nx:\n  <<: *b\n  d: 3',
  Y11 + 'base: &b {[1, null, true]: 1, {a: 1}: 2, [[a], b]: 3, []: 4, {}: 5}\nx:\n  <<: *b',
  Y11 + 'base: &b {[1.5, .inf, -0, 0x1F, 1e21, .nan]: 1}\nx: {<<: *b}',
  Y11 + 'base: &b {[!!binary aGk=, é]: 1}\nx: {<<: *b}',
  Y11 + 'base: &b {[a, b]: 1, "a,b": 2}\nx: {<<: *b}',
  Y11 + 'base: &b {"a,b": 2, [a, b]: 1}\nx: {<<: *b}',
  Y11 + 'base: &b {[a, b]: 1}\nx:\n  a,b: 0\n  <<: *b',
  Y11 + 'base: &b {[a, b]: 1}\nx:\n  <<: *b\n  a,b: 0',
  Y11 + 'base: &b {[a]: 1, [a]: 2}\nx: {<<: *b}',
  Y11 + 'x:\n  <<: {[a, [b, [c]]]: 1, [~]: 2, [""]: 3}',
  Y11 + 'x:\n  <<: [{[a]: 1}, {[a]: 2}]',
  Y11 + 'base: &b\n  ? - a\n    - b\n  : 3\nx:\n  <<: *b',
  Y11 + 'x:\n  <<: {[a, {b: c}]: 1}',
  Y11 + 'x:\n  <<: {[yes, no, 0o17, 017, 0b11]: 1}',
  Y11 + '- &a {[x, 1]: 2, y: 3}\n- <<: *a\n  z: 4',
  // a collection tag on a scalar in a key: the string prints without the
  // actualString check (0x1F, ~ stay plain); an unknown tag with it
  '[!!map x]: 1',
  '[!!seq ""]: 1',
  '{!!map a: b}: c',
  '[!!seq ]: v',
  '[a, !!map 1]: 1',
  '{k: !!map ~}: v',
  '[!!map 0x1F, !!seq y]: 1',
  Y11 + '[!!set x, !!omap 0x1F, !!pairs ~]: 1',
  '[&a !!map x]: 1',
  '[!!map "a b"]: 1',
  '[ !!map x: 1 ]: 1',
  '[!!foo 0x1F, !foo 0x1F]: 1',
  '[!!foo x]: 1',
  "[!!map 'it''s', !!seq \"\\t\"]: 1",
  '[!!seq true, !!map null, !!seq 1.5]: x',
  // a lone CR is content to yaml, inside a word or after white space
  // within a line; 'a: 1\rb: 2' is an error
  'a: x\ry',
  'a: 1\rb: 2',
  'a: "x\ry"',
  "a: 'x\ry'",
  '# c\rd\na: 1',
  'a: |\n  x\ry\n',
  'key: va\rlue\nother: 1',
  'a: x\ry\n  z',
  'a: "x\ry\n  z"',
  'a: >\n  x\ry\n  z\n',
  'a\rb: 1',
  '"a\rb": 1',
  '[x\ry]',
  '{x\ry: 1}',
  'a: b # c\rd',
  'k: v\nx\ry: 1',
  'a: x\ryy\r\n',
  '- a\r- b',
  'a: "x\r  y"',
  "a: 'x\r  y'",
  'a: x\r  y',
  'a: x \ry',
  'a: "x \r y"',
  'a: x\r:y',
  '? a\r: b',
  'a: x\r\ty',
  '[a\r, b]',
  '{a: b\r}',
  '? - |\n    x # not\n: v',
  // a flow collection as a key in a flow collection, its ':' on a later
  // line: yaml takes it (the line break after it is the collection's)
  '{[a]\n: b}',
  '[a, [b]\n: c]',
  '{[a]\n: b, [c]\n: d}',
  '{[a,\n b]: c}',
  '{&x [a]\n: b}',
  '{!!seq [a]\n: b}',
  '[[a] # c\n: b]',
  '{[a]\n\n: b}',
  '{{a: [b]}\n  : c}',
  '{a: b, [c]\n: d}',
  '[x, [c]\n: d]',
  '[[a]\n: b]',
  '[ &a [x]\n  : *a ]',
  '{&a !!seq [x]\n : b}',
  '[{}\n: v]',
  '[[a]\n : b, [c]\n : d]',
  '{a: [b]\n: c}',
  '[[a]\n\n: b]',
  '[{}\n\n: v]',
  '[[a,\n b]: c]',
  // a comment at column 0 right below a node that takes the line break
  // for itself (a value, a key collection): yaml's composer finds no
  // white space before it
  '{a: b\n# c\n}',
  '{a: b\n\n# c\n}',
  '{a: b # x\n# c\n}',
  '{a: b\n  # c\n}',
  '[a: b\n# c\n]',
  '[[a]\n# c\n]',
  '{a: [b]\n# c\n}',
  '{[a]\n# c\n: b}',
  '{a: "q"\n# c\n}',
  '[a\n# c\n]',
  '{a\n# c\n: b}',
  '{a: b,\n# c\n}',
  '{a:\n# c\n}',
  '{? a\n# c\n: b}',
  '[{a: b}\n# c\n, x]',
  '{a: b\n# c\n, d: e}',
  '[[a]\n# c\n: b]',
  '{? [a]\n# c\n: b}',
  '{a: &x\n# c\n}',
  '[? [a]\n# c\n]',
  '[[a]\n# c\n# d\n]',
  '{a: b\r\n# c\r\n}',
  // anchor and alias names yaml prints in a key unless anchorIsValid()
  // throws (control characters, JavaScript white space, ',[]{}')
  '- &é {}\n- {*é : v}',
  Y11 + 'a: &😀 []\nb:\n  *😀 : v',
  '{&é a: b}: c',
  '? {k: &😀 v}\n: w',
  'a: &😀 {a: 1}\n[*😀]: v',
  Y11 + 'a: &é []\n*é : v',
  'a: &a\u00a0b [1]\n*a\u00a0b : v',
  '[&a\u3000b x]: 1',
  'a: &x\u1680 [1]\n*x\u1680 : v',
  '[&a\u200bb x]: 1',
  '[&a\u205fb x]: 1',
  '[&a\u202fb x, *a\u202fb]: 1',
  Y11 + 'a: &é !!binary aGk=\n*é : v',
];

const out = [];
for (const d of docs) {
  const b = Buffer.from(d, 'utf8');
  out.push(Buffer.from(`#${b.length}\n`), b, Buffer.from('\n'));
}
const i = process.argv.indexOf('--out');
if (i > 0) writeFileSync(process.argv[i + 1], Buffer.concat(out));
else process.stdout.write(Buffer.concat(out));
