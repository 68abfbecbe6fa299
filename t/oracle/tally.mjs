#!/usr/bin/env node
// Tally the differential classes (as t/oracle/compare.sh defines them) per
// generator construct: which constructs produce the wrong hashes, accepted
// invalid documents and refusals.
//
// Usage: node tally.mjs FEATURES EXPECTED OURS [--examples N CORPUS]
//
// FEATURES is gen.mjs --features output for the same corpus.  A document of
// a hard class is counted under its construct (hard-<class>.<construct>);
// a base document under "base", and under each RARE-* feature it has.
// With --examples, the first N disagreeing documents of each construct are
// printed, escaped, with both result lines.
import { readFileSync } from 'node:fs';
import { records } from './oracle.mjs';

const args = process.argv.slice(2);
let nex = 0;
let corpus = null;
const pos = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--examples') {
    nex = Number(args[++i]);
    corpus = args[++i];
  } else pos.push(args[i]);
}
if (pos.length !== 3) {
  process.stderr.write('usage: node tally.mjs FEATURES EXPECTED OURS [--examples N CORPUS]\n');
  process.exit(2);
}
const lines = (f) => readFileSync(f, 'utf8').split('\n').slice(0, -1);
const feats = lines(pos[0]);
const ref = lines(pos[1]);
const ours = lines(pos[2]);
if (feats.length !== ref.length || ref.length !== ours.length) {
  process.stderr.write(`tally: ${feats.length} feature lines, ${ref.length} expected, ${ours.length} ours\n`);
  process.exit(2);
}
const kind = (l) => l.split(' ', 1)[0];
function classify(r, o) {
  const rk = kind(r);
  const ok = kind(o);
  if (rk === 'ok' && ok === 'ok') return r === o ? 'agree-hash' : 'WRONG-HASH';
  if (rk === 'error' && ok !== 'ok') return 'agree-error';
  if (rk === 'ok') return 'UNSUPPORTED';
  return 'ACCEPTED-INVALID';
}
const COLS = ['agree-hash', 'agree-error', 'WRONG-HASH', 'ACCEPTED-INVALID', 'UNSUPPORTED'];
const table = new Map();
const examples = new Map();
const docs = corpus ? [...records(readFileSync(corpus))] : null;
for (let i = 0; i < ref.length; i++) {
  const fs = feats[i].split(' ');
  const keys = fs.filter((f) => f.startsWith('hard-')).map((f) => f.slice(5));
  if (!keys.length) keys.push('base', ...fs.filter((f) => f.startsWith('RARE-')).map((f) => 'base/' + f));
  const c = classify(ref[i], ours[i]);
  for (const k of keys) {
    if (!table.has(k)) table.set(k, Object.fromEntries(COLS.map((x) => [x, 0])));
    table.get(k)[c]++;
    if (docs && c !== 'agree-hash' && c !== 'agree-error') {
      const ex = examples.get(k) || [];
      if (ex.length < nex) ex.push([i, c]);
      examples.set(k, ex);
    }
  }
}
const w = Math.max(...[...table.keys()].map((k) => k.length), 9);
process.stdout.write('construct'.padEnd(w) + COLS.map((c) => c.padStart(12)).join('') + '\n');
for (const k of [...table.keys()].sort()) {
  const row = table.get(k);
  process.stdout.write(k.padEnd(w) + COLS.map((c) => String(row[c]).padStart(12)).join('') + '\n');
}
if (docs) {
  for (const k of [...examples.keys()].sort()) {
    for (const [i, c] of examples.get(k)) {
      process.stdout.write(`\n${k} ${c} record ${i}\n  doc: ${JSON.stringify(docs[i].toString('utf8'))}\n  reference: ${ref[i]}\n  ours:      ${ours[i]}\n`);
    }
  }
}
