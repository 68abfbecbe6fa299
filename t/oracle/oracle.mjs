#!/usr/bin/env node
// Differential-test oracle: computes the reference's structured hash
// (SPEC 4.3) for every record of a corpus.
//
// Usage: node oracle.mjs [--canon] [CORPUS]      (CORPUS defaults to stdin)
//
// A corpus is a sequence of records `#<decimal byte length>\n<bytes>\n`.
// For every record one line is printed:
//   ok sha256:<64 hex>      the reference hashes the document
//   ok <canonical JSON>     the same, with --canon
//   error <message>         the reference throws (newlines become spaces)
//
// The reference, for a file, does:
//   text  = fs.readFileSync(path, 'utf8')
//   value = require('yaml').parse(text)          // yaml@2.8.3, defaults
//   canon = JSON.stringify(canonicalizeJson(value))
//   hash  = 'sha256:' + createHash('sha256').update(canon).digest('hex')
// and any exception on the way means "the reference throws".
import { createHash } from 'node:crypto';
import { readFileSync, realpathSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

// Load yaml exactly as the reference does (CommonJS require of the package
// pinned by package-lock.json next to this file).
const require = createRequire(import.meta.url);
const YAML = require('yaml');

// yaml reports document warnings through process.emitWarning; they never
// change the parsed value, so keep them off stderr.
process.emitWarning = () => {};

function canonicalizeJson(value) {
  if (value === null) return null;
  if (typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(canonicalizeJson);
  const out = {};
  for (const k of Object.keys(value).sort()) {
    if (value[k] === undefined) continue;
    out[k] = canonicalizeJson(value[k]);
  }
  return out;
}

// readFileSync(path, 'utf8') is Buffer#toString('utf8'): WHATWG UTF-8
// decoding with U+FFFD replacement that keeps a leading BOM as U+FEFF.
function decode(bytes) {
  return bytes.toString('utf8');
}

export function reference(bytes, canonOnly = false) {
  const text = decode(bytes);
  const value = YAML.parse(text);
  const canon = JSON.stringify(canonicalizeJson(value));
  if (canonOnly) {
    if (typeof canon !== 'string') throw new TypeError('JSON.stringify returned undefined');
    return canon;
  }
  return 'sha256:' + createHash('sha256').update(canon).digest('hex');
}

export function* records(buf) {
  let pos = 0;
  let index = 0;
  while (pos < buf.length) {
    if (buf[pos] !== 0x23 /* # */) throw new Error(`corpus: record ${index}: expected '#' at byte ${pos}`);
    const nl = buf.indexOf(0x0a, pos);
    if (nl < 0) throw new Error(`corpus: record ${index}: unterminated length line`);
    const lenText = buf.toString('latin1', pos + 1, nl);
    if (!/^[0-9]+$/.test(lenText)) throw new Error(`corpus: record ${index}: bad length '${lenText}'`);
    const len = Number(lenText);
    const start = nl + 1;
    const end = start + len;
    if (end + 1 > buf.length || buf[end] !== 0x0a)
      throw new Error(`corpus: record ${index}: truncated or missing final newline`);
    yield buf.subarray(start, end);
    pos = end + 1;
    index++;
  }
}

// Only LF and CR matter to the line-based consumers of the output.
function oneLine(s) {
  return String(s).replace(/\r\n|[\r\n]/g, ' ');
}

function main(argv) {
  let canonOnly = false;
  let file = null;
  for (const a of argv) {
    if (a === '--canon') canonOnly = true;
    else if (a === '-h' || a === '--help') {
      process.stdout.write('usage: node oracle.mjs [--canon] [CORPUS|-]\n');
      return 0;
    } else if (a.startsWith('--')) {
      process.stderr.write(`oracle: unknown option ${a}\n`);
      return 2;
    } else file = a;
  }
  const buf = readFileSync(file === null || file === '-' ? 0 : file);
  let out = [];
  let outLen = 0;
  const flush = () => {
    if (out.length) {
      writeSync(1, out.join(''));
      out = [];
      outLen = 0;
    }
  };
  try {
    for (const rec of records(buf)) {
      let line;
      try {
        line = 'ok ' + reference(rec, canonOnly);
      } catch (e) {
        const msg = e && e.message !== undefined ? e.message : String(e);
        const name = e && e.code ? e.code + ': ' : (e && e.name ? e.name + ': ' : '');
        line = 'error ' + oneLine(name + msg);
      }
      out.push(line, '\n');
      outLen += line.length;
      if (outLen > 1 << 16) flush();
    }
  } catch (e) {
    flush();
    process.stderr.write(`oracle: ${e.message}\n`);
    return 2;
  }
  flush();
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) {
  process.exitCode = main(process.argv.slice(2));
}
