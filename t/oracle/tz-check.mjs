#!/usr/bin/env node
// tz-check.mjs: which of our time-zone refusals have no one reference hash.
//
// Usage: node tz-check.mjs EXP OURS CORPUS...
//
// EXP and OURS are the reference's and our result lines for the records
// of the CORPUS files, in order.  A document whose mapping key is a
// timestamp is refused by us ("its text depends on the reference's time
// zone"): the reference turns the key into String(date), which names the
// zone of the process that runs it.  For each such record, the reference
// runs again under a second zone (TZ=Asia/Kolkata, where EXP came from
// another one); when the hash changes, the document has no hash to match
// and our refusal is the only answer that is never wrong.  Prints
//   tz-refused N          records we refused for the time zone
//   tz-reference-varies M of them whose reference hash changes with it
// and exits 0.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const [expPath, oursPath, ...corpora] = process.argv.slice(2);
if (!expPath || !oursPath || !corpora.length) {
	process.stderr.write('usage: tz-check.mjs EXP OURS CORPUS...\n');
	process.exit(2);
}
const lines = (p) => readFileSync(p, 'utf8').split('\n').filter((l) => l.length);
const exp = lines(expPath);
const ours = lines(oursPath);
const mark = "its text depends on the reference's time zone";

// The records of the corpora, in order, as raw bytes with their framing.
function* records() {
	for (const path of corpora) {
		const buf = readFileSync(path);
		let at = 0;
		while (at < buf.length) {
			const nl = buf.indexOf(10, at);
			const len = Number(buf.subarray(at + 1, nl).toString('latin1'));
			const end = nl + 1 + len + 1;
			yield buf.subarray(at, end);
			at = end;
		}
	}
}

const picked = [];
const wanted = [];
let i = 0;
for (const rec of records()) {
	if (ours[i] && ours[i].startsWith('unsupported') && ours[i].includes(mark)) {
		picked.push(rec);
		wanted.push(exp[i]);
	}
	i++;
}
let varies = 0;
if (picked.length) {
	const dir = mkdtempSync(join(tmpdir(), 'tz-check-'));
	const corpus = join(dir, 'tz.bin');
	writeFileSync(corpus, Buffer.concat(picked));
	const oracle = join(dirname(fileURLToPath(import.meta.url)), 'oracle.mjs');
	const other = execFileSync(process.execPath, [oracle, corpus], {
		env: { ...process.env, TZ: 'Asia/Kolkata' },
		maxBuffer: 1 << 30,
	}).toString('utf8').split('\n').filter((l) => l.length);
	rmSync(dir, { recursive: true, force: true });
	other.forEach((line, k) => {
		if (line !== wanted[k])
			varies++;
	});
}
process.stdout.write(`tz-refused ${picked.length}\ntz-reference-varies ${varies}\n`);
