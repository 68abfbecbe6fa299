// A stand-in for the reference's scripts/backfill-replay.mjs, written from
// its rules (SPEC section 6, "backfill") for the byte comparison tests:
// the same header patterns, `git log -1` and `git show` per report, yaml
// for parsing, the reference's canonical JSON, zod for the final check,
// JSON.stringify(value, null, 2) + "\n" for the file.
//
//   node backfill-standin.mjs ROOT [REPORTS_DIR] [--dry-run]
//
// ROOT is the repository root; REPORTS_DIR defaults to ROOT/docs/evals.
// Prints what it did in the same words as `ahd-replay backfill`.

import { createRequire } from "node:module";
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";

const require = createRequire(import.meta.url);
const YAML = require("yaml");
const { z } = require("zod");
process.emitWarning = () => {};

const args = process.argv.slice(2);
const dryRun = args.includes("--dry-run");
const positional = args.filter((a) => a !== "--dry-run");
const root = resolve(positional[0]);
const scanRoot = positional[1] ? resolve(positional[1]) : resolve(root, "docs/evals");

function canonical(v) {
  if (v === null || typeof v !== "object") return v;
  if (Array.isArray(v)) return v.map(canonical);
  const out = {};
  for (const k of Object.keys(v).sort()) {
    if (v[k] !== undefined) out[k] = canonical(v[k]);
  }
  return out;
}
const sha = (s) => "sha256:" + createHash("sha256").update(s).digest("hex");
const hashStructured = (v) => sha(JSON.stringify(canonical(v)));

const hash = z.string().regex(/^sha256:[a-f0-9]{64}$/i);
const input = z.object({ path: z.string().min(1), hash }).strict();
const Replay = z.object({
  schema_version: z.literal(1),
  kind: z.enum(["eval-live", "critique", "eval-image"]),
  ahd_version: z.string().min(1),
  ahd_commit: z.string().nullable(),
  git_dirty: z.boolean().nullable(),
  node_version: z.string().min(1),
  platform: z.string().min(1),
  invoked_at: z.string().datetime(),
  argv: z.array(z.string()),
  token: input,
  brief: input.nullable(),
  sampling: z.object({
    n: z.number().int().positive(),
    temperature: z.number().nullable(),
    seed: z.number().int().nullable(),
  }).strict(),
  models: z.array(z.object({
    id: z.string().min(1),
    provider: z.string().min(1),
    provider_request_ids: z.array(z.string()),
  }).strict()),
  conditions: z.object({ requested: z.array(z.string()), effective: z.array(z.string()) }).strict(),
  backfilled: z.boolean().optional(),
}).strict();

function markdownFiles(dir) {
  if (!existsSync(dir)) return [];
  const found = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) found.push(...markdownFiles(p));
    else if (name.endsWith(".md")) found.push(p);
  }
  return found;
}

function header(md) {
  const h = { kind: null, token: null, runAt: null, brief: null, n: null, models: [] };
  const top = md.match(/^# ahd (eval|eval-image|critique)(?: ·|\s)\s*([^·\n]+?)\s*·\s*([^\s]+)/m);
  if (top) {
    h.kind = top[1] === "eval" ? "eval-live" : top[1];
    h.token = top[2].trim();
    h.runAt = top[3].trim();
  }
  const brief = md.match(/^-\s+Brief:\s+`([^`]+)`/m);
  if (brief) h.brief = brief[1];
  const n = md.match(/^-\s+Samples per cell:\s+\*\*(\d+)\*\*/m);
  if (n) h.n = parseInt(n[1], 10);
  if (h.n == null) {
    const counts = [...md.matchAll(/\(n=(\d+)\)/g)].map((m) => parseInt(m[1], 10));
    if (counts.length) h.n = counts.reduce((a, b) => a + b, 0);
  }
  for (const line of md.match(/^\s+-\s+`([^`]+)`\s+\(([^)]+)\)\s+·\s+spec\s+`([^`]+)`/gm) || []) {
    const m = line.match(/`([^`]+)`\s+\(([^)]+)\)\s+·\s+spec\s+`([^`]+)`/);
    if (m) h.models.push({ id: m[3], provider: m[2] });
  }
  if (h.kind === "critique" && h.models.length === 0) {
    const critic = md.match(/^critic:\s+`([^`]+)`/m);
    if (critic) h.models.push({ id: critic[1], provider: "critic" });
  }
  return h;
}

function git(argv) {
  try {
    return execFileSync("git", argv, { encoding: "utf8", cwd: root,
      stdio: ["ignore", "pipe", "ignore"], maxBuffer: 64 << 20 });
  } catch {
    return null;
  }
}

function build(report, h) {
  if (!h.kind || !h.token || !h.runAt)
    return { reason: "header did not match the expected pattern (need # ahd <kind> · <token> · <runAt>)" };
  const log = (git(["log", "-1", "--format=%H", "--", relative(root, report)]) ?? "").trim();
  if (log.length !== 40)
    return { reason: "no git commit found for the report; needs to be tracked first" };
  let version = "unknown";
  const pkg = git(["show", `${log}:package.json`]);
  if (pkg) {
    try { version = JSON.parse(pkg).version ?? "unknown"; } catch { version = "unknown"; }
  }
  const tokenPath = `tokens/${h.token}.yml`;
  const token = git(["show", `${log}:${tokenPath}`]);
  if (!token) return { reason: `token file ${tokenPath} not present at commit ${log.slice(0, 12)}` };
  let tokenHash;
  try { tokenHash = hashStructured(YAML.parse(token)); } catch (e) {
    return { reason: `token at ${log.slice(0, 12)}:${tokenPath} did not parse as YAML: ${e.message}` };
  }
  let brief = null;
  if (h.brief && h.kind !== "critique") {
    const text = git(["show", `${log}:${h.brief}`]);
    if (text) {
      let briefHash;
      try { briefHash = hashStructured(YAML.parse(text)); } catch { briefHash = sha(text); }
      brief = { path: h.brief, hash: briefHash };
    }
  }
  const critique = h.kind === "critique";
  const replay = {
    schema_version: 1, kind: h.kind, ahd_version: version, ahd_commit: log,
    git_dirty: false, node_version: "unknown", platform: "unknown",
    invoked_at: h.runAt, argv: [], token: { path: tokenPath, hash: tokenHash },
    brief, sampling: { n: h.n ?? 0, temperature: null, seed: null },
    models: h.models.map((m) => ({ id: m.id, provider: m.provider, provider_request_ids: [] })),
    conditions: { requested: critique ? [] : ["raw", "compiled"], effective: critique ? [] : ["raw", "compiled"] },
    backfilled: true,
  };
  const checked = Replay.safeParse(replay);
  if (!checked.success) return { reason: "built replay does not validate" };
  return { replay: checked.data };
}

let scanned = 0, written = 0, skipped = 0, failed = 0;
const failures = [];
for (const report of markdownFiles(scanRoot)) {
  scanned++;
  const sidecar = report.replace(/\.md$/, ".replay.json");
  if (existsSync(sidecar)) { skipped++; continue; }
  const result = build(report, header(readFileSync(report, "utf8")));
  if (!result.replay) {
    failed++;
    failures.push(`${relative(root, report)}: ${result.reason}`);
    continue;
  }
  if (dryRun) console.log(`would write ${relative(root, sidecar)}`);
  else {
    writeFileSync(sidecar, JSON.stringify(result.replay, null, 2) + "\n");
    console.log(`wrote ${relative(root, sidecar)}`);
  }
  written++;
}
console.log("");
console.log(`backfill: scanned=${scanned} written=${written} skipped=${skipped} failed=${failed}`);
if (failures.length) {
  console.log("failures:");
  for (const f of failures) console.log(`  - ${f}`);
}
process.exit(failed > 0 && !dryRun ? 1 : 0);
