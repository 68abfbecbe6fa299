// Hard classes of the differential generator (t/oracle/gen.mjs): documents
// built around the constructs an implementation on top of libyaml gets wrong
// most easily, each at a real weight rather than as a rarity.
//
// Every class has named constructs ("class.construct", e.g. `tags.merge`);
// gen.mjs --exclude takes class or construct names and then never emits
// them, in a class's own documents or inside another class's (a real-file
// document holds no template placeholder when `ckey.template` is excluded).
// A document is plain text; its constructs are recorded as features
// `hard-<class>.<construct>` (gen.mjs --features).
//
// The generator functions get a context X:
//   X.r            the document's Rng
//   X.on(name)     is this class or construct enabled
//   X.feat(name)   record a feature
//   X.dq(s), X.sq(s), X.words(n)   quoting and filler text

import { OUTSIDE } from './gen-outside.mjs';

// ---------------------------------------------------------------- pools

// Scalars as written in a flow context (inside a collection key), covering
// the quoting rules of the reference's flow writer: strings that look like
// numbers, booleans or null, indicators, spaces, escapes, long text.
const FLOW_SCALARS = ['a', 'b', 'x', 'key', 'config_data', '1', '-1', '0', '-0', '1.5', '1e3',
  '0x1F', '0o17', '.inf', '-.inf', '.nan', 'true', 'false', 'null', '~', '""', "''", '"a b"',
  '"x: y"', "'#x'", '"a\\"b"', "'it''s'", '"\\u00e9"', 'é', '中文', 'a b', '12345678901234567890',
  '2001-12-14', '"[x]"', '"{x}"', '"-"', '"- a"', '"? x"', '"a,b"', '"null"', '"true"', '"123"',
  '!!str 1', '!!int "2"', '"  lead"', '"trail "', '"\\t"', "'\"'", '"\\n"', '"a\\nb"', '"\\x00"',
  '"\\u2028"', '"\\ufeff"', '" "', '"@x"', '"`x"', '"%x"', '"&x"', '"*x"', '"!x"', '"|"', '">"',
  '"#"', '":"', '"a:"', '"a #b"', 'a#b', 'a:b', '.5', '+1', '1_000', '"0x1F"', '"1.0"', '1.0',
  '1.50', '100', '-.5', '1e+21', '"' + 'long '.repeat(18) + 'end"', 'Yes', 'on', 'y', '"é"',
  '"\\U0001F600"', '\u{1F600}', '"\\ud800"', 'a-b', 'a_b', '$x', '"$x"', '{{x}}'];
const WORDS = ['alpha', 'beta', 'name', 'value', 'data', 'item', 'host', 'port', 'image', 'env',
  'app', 'svc', 'main', 'dev', 'prod', 'build', 'test', 'run', 'step', 'job'];

const YAML11_BOOL = ['y', 'Y', 'yes', 'Yes', 'YES', 'n', 'N', 'no', 'No', 'NO', 'true', 'True',
  'TRUE', 'false', 'False', 'FALSE', 'on', 'On', 'ON', 'off', 'Off', 'OFF', 'tRUE', 'yEs', 'oN'];
const YAML11_INT = ['0b1010', '-0b1010', '+0b1', '0b1_0', '0b', '0b2', '017', '-017', '+017',
  '0o17', '0x1F', '-0x1F', '0x_1F', '0x1_F', '1_000', '1__0', '_1', '1_', '190:20:30', '-1:30',
  '+1:0', '1:60', '1:5', '0', '-0', '00', '09', '08', '0_7', '12345678901234567890', '0x', '1,000',
  '3:25:45', '99:99', '1:2:3:4', '0b11111111111111111111111111111111111111111111111111111111',
  '01777777777777777777777', '0xFFFFFFFFFFFFFFFFF', '1_000_000', '+12', '-0:30'];
const YAML11_FLOAT = ['1.5', '1_000.5', '190:20:30.15', '-1:30.5', '.inf', '-.Inf', '+.INF', '.NaN',
  '.nan', '1e3', '1.0e+3', '6.8523015e+5', '685.230_15e+03', '685_230.15', '-1.', '.5', '+.5',
  '1.e3', '1.0E3', '1e-3', '0.', '._5', '1.2.3', '1_.5', '12e03', '-0.0', '3.', '1__2.5',
  '1:2.5e3', '1.7976931348623159e308'];
const YAML11_NULL = ['~', 'null', 'Null', 'NULL', 'nULL', '', '"~"'];
const YAML11_TIME = ['2001-12-14', '2001-12-14t21:59:43.10-05:00', '2001-12-14 21:59:43.10 -5',
  '2001-12-15 2:59:43.10', '2002-12-14', '2001-12-14T21:59:43Z', '2001-12-14T21:59:43.1Z',
  '2001-02-30', '2001-13-01', '0000-00-00', '2001-1-1', '2001-01-1 1:2:3',
  '1969-12-31T23:59:59.999999999Z', '2001-12-14t21:59:43.1234567-05:30', '2038-01-19 03:14:08',
  '2001-12-14 21:59:43 +05:30', '2001-12-14T21:59:43+0530', '1900-01-01', '9999-12-31T23:59:59Z',
  '2001-12-14T24:00:00Z', '2001-12-14T21:60:00Z', '2001-12-14 21:59:43.10 -12',
  '2001-12-14 21:59:43.10 +14', '275760-09-13', '2001-12-14t21:59:43.000001Z', '1970-01-01',
  '2001-12-14T21:59', '2001-12-14 21:59:43.10 Z'];

const SCHEMA_URLS = ['https://json.schemastore.org/github-workflow.json',
  'https://raw.githubusercontent.com/compose-spec/compose-spec/master/schema/compose-spec.json',
  'https://json.schemastore.org/ansible-playbook', 'https://json.schemastore.org/chart.json',
  '../schema.json', 'https://example.com/tokens.schema.json'];

function b64(r, n) {
  const bytes = [];
  for (let i = 0; i < n; i++) bytes.push(r.int(256));
  return Buffer.from(bytes).toString('base64');
}

function indentLines(text, n) {
  const pad = ' '.repeat(n);
  return text.split('\n').map((l) => (l === '' ? l : pad + l)).join('\n');
}

// ---------------------------------------------------------------- collection keys

// A flow collection usable as a key; depth limits nesting.
function flowColl(X, depth) {
  const { r } = X;
  const isMap = r.chance(0.55);
  const n = r.weighted([[1, 0], [3, 1], [4, r.range(2, 3)], [1, r.range(4, 6)]]);
  const parts = [];
  const used = new Set();
  for (let i = 0; i < n; i++) {
    const sub = () => (depth > 0 && r.chance(0.2) ? flowColl(X, depth - 1) : r.pick(FLOW_SCALARS));
    if (isMap) {
      let k = r.chance(0.9) ? r.pick(FLOW_SCALARS) : sub();
      if (used.has(k)) k = 'k' + i;
      used.add(k);
      const style = r.int(10);
      if (style === 0) parts.push(k); // {a} — null value
      else if (style === 1) parts.push(k + ':');
      else if (style === 2) parts.push('? ' + k);
      else parts.push(k + ': ' + sub());
    } else if (r.chance(0.08)) {
      parts.push(r.pick(FLOW_SCALARS.slice(0, 10)) + ': ' + sub()); // single-pair map
    } else parts.push(sub());
  }
  let props = '';
  if (r.chance(0.1)) props += `&c${r.int(3)} `;
  if (r.chance(0.08)) props += r.pick(isMap ? ['!!map ', '!foo ', '!!set ', '!!omap '] : ['!!seq ', '!bar ', '!!omap ', '!!pairs ']) + '';
  if (props && !X.on('tags')) props = props.replace(/!\S+ /, '');
  const gap = r.pick(['', ' ']);
  const open = isMap ? '{' : '[';
  const close = isMap ? '}' : ']';
  return props + open + gap + parts.join(r.pick([', ', ',', ' , '])) + (n && r.chance(0.05) ? ',' : '') + gap + close;
}

function blockCollKey(X) {
  const { r } = X;
  if (r.chance(0.5)) {
    const n = r.range(1, 3);
    const items = [];
    for (let i = 0; i < n; i++) items.push('- ' + r.pick(FLOW_SCALARS));
    return items.join('\n  ');
  }
  const n = r.range(1, 3);
  const items = [];
  for (let i = 0; i < n; i++) items.push(`${WORDS[i]}: ${r.pick(FLOW_SCALARS)}`);
  return items.join('\n  ');
}

function template(X) {
  const { r } = X;
  const inner = r.pick(['config_data', ' config_data ', 'x', ' .Values.image.tag ', '.Release.Name',
    ' item ', 'ansible_host', ' var | default("x") ', ' a.b ', '', ' x }', 'x:y', ' x: y ',
    ' secrets.TOKEN ', ' - x ']);
  return '{{' + inner + '}}';
}

const CKEY = {
  implicit: [6, (X) => {
    const { r } = X;
    const lines = [];
    const n = r.range(1, 3);
    for (let i = 0; i < n; i++) lines.push(`${flowColl(X, 2)}: ${r.chance(0.8) ? r.pick(FLOW_SCALARS) : ''}`.trimEnd());
    if (r.chance(0.5)) lines.splice(r.int(lines.length + 1), 0, `${r.pick(WORDS)}: ${r.pick(FLOW_SCALARS)}`);
    return lines.join('\n');
  }],
  explicit: [5, (X) => {
    const { r } = X;
    const key = r.chance(0.75) ? flowColl(X, 2) : blockCollKey(X);
    const v = r.weighted([[3, ' ' + r.pick(FLOW_SCALARS)], [1, ''], [1, '\n  - a\n  - b'], [1, ' ' + flowColl(X, 1)]]);
    const noValue = r.chance(0.1);
    let t = `? ${key}` + (noValue ? '' : `\n:${v}`);
    if (r.chance(0.4)) t = `${r.pick(WORDS)}: 1\n` + t;
    if (r.chance(0.3)) t = 'outer:\n' + indentLines(t, r.pick([2, 4]));
    return t;
  }],
  template: [6, (X) => {
    const { r } = X;
    const form = r.int(8);
    const t = template(X);
    switch (form) {
      case 0: return `data: ${t}`;
      case 1: return `${t}: y`;
      case 2: return `name: app\nvalues:\n  image: ${t}\n  tag: "{{ .Values.tag }}"`;
      case 3: return `- ${t}\n- ${template(X)}`;
      case 4: return `args: [${t}, ${template(X)}]`;
      case 5: return `env:\n  ${t}: ${template(X)}`;
      case 6: return `{${t}: 1}`;
      default: return `when: ${t}\nmsg: "{{ msg }}"`;
    }
  }],
  nested: [3, (X) => {
    const { r } = X;
    return r.pick([`{[{a: b}]: c}: d`, `[[a, [b]]]: x`, `{a: {b: {c: d}}}: e`, `? [{a: [b, {c: d}]}]\n: v`,
      `[{a: 1}: b]: c`, `{[a]: [b]}: [c]`, `? {? [a] : b}\n: c`]) + (r.chance(0.5) ? `\nz: ${flowColl(X, 2)}` : '');
  }],
  alias: [3, (X) => {
    const { r } = X;
    return r.pick([
      `base: &k [a, b]\n*k : v`,
      `&k {a: 1}: x\nref: *k`,
      `? &k [a]\n: 1\nother: *k`,
      `s: &s str\n[*s, b]: 1`,
      `m: &m {x: 1}\n{k: *m}: 2`,
      `[&a x, *a]: y`,
      `? &k [a]\n: 1\n? *k\n: 2`,
      `a: &a [1]\n? [*a, *a]\n: z`,
    ]);
  }],
  empty: [3, (X) => {
    const { r } = X;
    return r.pick([`{}: x`, `[]: y`, `? {}\n: a\n? []\n: b`, `{[]: 1}`, `[{}: 1]`, `{a: []}: 1`,
      `? []`, `[{}, []]: c`, `{{}: 1}: 2`]);
  }],
  nullkey: [3, (X) => {
    const { r } = X;
    return r.pick([`[null]: a`, `{~: 1}: b`, `[~, null, ""]: c`, `{: x}: y`, `? [null]\n: z`,
      `{a: null}: 1`, `[{null: ~}]: 2`, `? \n: x\n[~]: y`, `{? : 1}: 3`]);
  }],
  collide: [2, (X) => {
    const { r } = X;
    return r.pick([`[a]: 1\n"[ a ]": 2`, `{a: 1}: x\n"{ a: 1 }": y`, `[a, b]: 1\n[a, b]: 2`,
      `[1]: a\n[1.0]: b`, `{}: 1\n"{}": 2`, `[]: 1\n'[]': 2`]);
  }],
  flowctx: [3, (X) => {
    const { r } = X;
    const k = flowColl(X, 1);
    return r.pick([`{${k}: v}`, `[${k}: v]`, `{? ${k} : v}`, `[? ${k} : v]`, `top: {${k}: v, b: 2}`,
      `- ${k}: v`, `- ? ${k}\n  : v`]);
  }],
  scalars: [4, (X) => {
    // one key, many scalars: the quoting rules of the flow writer
    const { r } = X;
    const n = r.range(3, 8);
    const items = [];
    for (let i = 0; i < n; i++) items.push(r.pick(FLOW_SCALARS));
    return r.chance(0.5) ? `[${items.join(', ')}]: v` : `? {${items.map((s, i) => `k${i}: ${s}`).join(', ')}}\n: v`;
  }],
  blockscalar: [1, (X) => {
    const { r } = X;
    return r.pick([`? |\n  key text\n: v`, `? >-\n  folded\n  key\n: v`, `? [a, "b\n  c"]\n: v`,
      `? [a,\n  b]\n: v`, `? {a: "multi\n  line"}\n: v`]);
  }],
  tagged: [2, (X) => {
    // keys that are tagged collections, or scalars whose value is not a
    // string (!!binary bytes, !!timestamp dates)
    const { r } = X;
    return r.pick([`!!set {a, b}: x`, `!foo [a]: 1`, `!!str [1, 1]: v`, `!!map {}: v`, `? !!seq []\n: v`, `!!binary 1.5: v`,
      `? !!binary aGVsbG8=\n: v`, `!!timestamp "2001-12-14": v`, `!!timestamp 2001-12-14t21:59:43.10-05:00: v`, `? !!binary\n: v`,
      `!e!x {a, b}: v`.replace(/^/, '%TAG !e! !local-\n---\n'), `!<tag:yaml.org,2002:binary> aGk=: v`]);
  }],
  yaml11: [1, (X) => {
    const { r } = X;
    if (!X.on('yaml11')) return `[yes, 0b1, 017]: x`;
    return `%YAML 1.1\n---\n` + r.pick([`[yes, 0b1, 017, 1:30]: x`, `{on: off}: y`, `[2001-12-14]: d`,
      `? [!!binary aGVsbG8=]\n: b`, `[.inf, 1_000]: n`]);
  }],
};

// ---------------------------------------------------------------- %YAML 1.1

function y11(body) {
  return '%YAML 1.1\n---\n' + body;
}

function y11map(X, pool, asKeys) {
  const { r } = X;
  const n = r.range(2, 8);
  const lines = [];
  const used = new Set();
  for (let i = 0; i < n; i++) {
    let v = r.pick(pool);
    if (asKeys && r.chance(0.5)) {
      if (used.has(v)) continue;
      used.add(v);
      lines.push(`${v === '' ? '""' : v}: ${r.pick(WORDS)}`);
    } else lines.push(`k${i}: ${v}`.trimEnd());
  }
  if (r.chance(0.3)) return `[${lines.map((l) => l.replace(/^k\d+: /, '')).join(', ')}]`;
  return lines.join('\n');
}

const YAML11 = {
  bool: [4, (X) => y11(y11map(X, YAML11_BOOL, true))],
  int: [4, (X) => y11(y11map(X, YAML11_INT, true))],
  float: [4, (X) => y11(y11map(X, YAML11_FLOAT, true))],
  null: [1, (X) => y11(y11map(X, YAML11_NULL, false))],
  merge: [5, (X) => {
    const { r } = X;
    return y11(r.pick([
      `base: &b {a: 1, b: 2}\nx:\n  <<: *b\n  c: 3`,
      `a: &a {x: 1}\nb: &b {y: 2}\nc:\n  <<: [*a, *b]\n  z: 3`,
      `a: &a {x: 1}\nc:\n  x: 0\n  <<: *a`,
      `a: &a {x: 1}\nc:\n  <<: *a\n  x: 0`,
      `c:\n  <<: {a: 1}\n  b: 2`,
      `c:\n  <<: 1`,
      `c:\n  <<: [1, 2]`,
      `s: &s str\nc:\n  <<: *s`,
      `a: &a {x: 1}\nc: {<<: *a, y: 2}`,
      `a: &a {x: 1}\nc:\n  "<<": *a`,
      `a: &a {x: 1}\nc:\n  ? <<\n  : *a`,
      `a: &a {x: 1}\nc:\n  !!merge <<: *a`,
      `a: &a {x: {y: 1}}\nb: &b\n  <<: *a\n  z: 2\nc:\n  <<: *b`,
      `a: &a [x]\nc:\n  <<: *a`,
      `<<: {a: 1}\nb: 2`,
      `- &a {x: 1}\n- <<: *a\n  y: 2`,
      `a: &a {x: 1}\nc:\n  <<: [*a, {y: 2}]`,
      `a: &a {x: 1, <<: {y: 2}}\nc:\n  <<: *a`,
      `c:\n  <<: ~`,
      `c:\n  <<:\n  a: 1`,
      `a: &a {x: 1}\nc:\n  <<: *a\n  <<: {y: 2}`,
    ]));
  }],
  timestamp: [5, (X) => {
    const { r } = X;
    const t = r.pick(YAML11_TIME);
    return y11(r.pick([`d: ${t}`, `- ${t}\n- ${r.pick(YAML11_TIME)}`, `${t}: x`, `d: !!timestamp ${t}`,
      `d: !!timestamp "${t}"`, `d: "${t}"`, `[${t}, ${r.pick(YAML11_TIME)}]`]));
  }],
  binary: [3, (X) => {
    const { r } = X;
    const s = b64(r, r.range(0, 30));
    return y11(r.pick([`b: !!binary ${s || '""'}`, `b: !!binary |\n  ${s.match(/.{1,12}/g)?.join('\n  ') ?? ''}`,
      `b: !!binary "${s}"`, `b: !!binary ${s.slice(0, 5) || 'a'}!`, `- !!binary ${s || 'QQ=='}`,
      `b: !!binary ${s.replace(/=+$/, '') || 'QQ'}`, `? !!binary ${s || 'QQ=='}\n: k`]));
  }],
  collections: [5, (X) => {
    const { r } = X;
    return y11(r.pick([
      `!!omap\n- a: 1\n- b: 2`, `o: !!omap [a: 1, b: 2]`, `o: !!omap\n  - a: 1\n  - a: 2`,
      `o: !!omap [a, b]`, `p: !!pairs\n  - a: 1\n  - a: 2`, `p: !!pairs [a: 1, b: 2, a: 3]`,
      `s: !!set {a, b, c}`, `s: !!set\n  ? a\n  ? b`, `s: !!set {a: 1}`, `s: !!set [a]`,
      `o: !!omap {a: 1}`, `p: !!pairs {a: 1}`, `o: !!omap\n  - {a: 1, b: 2}`, `s: !!set {}`,
      `o: !!omap []`, `!!set\n? x\n? y`, `p: !!pairs\n  - [a, 1]`,
    ]));
  }],
  mixed: [4, (X) => {
    const { r } = X;
    const pools = [YAML11_BOOL, YAML11_INT, YAML11_FLOAT, YAML11_TIME, YAML11_NULL];
    const lines = [];
    const n = r.range(3, 10);
    for (let i = 0; i < n; i++) {
      const v = r.pick(r.pick(pools));
      lines.push(r.chance(0.2) ? `k${i}:\n  - ${v}` : `k${i}: ${v}`.trimEnd());
    }
    if (r.chance(0.3)) lines.push(`str: ${X.dq(r.pick(YAML11_BOOL))}`);
    if (r.chance(0.2)) lines.push(`tagged: !!str ${r.pick(YAML11_BOOL)}`);
    if (r.chance(0.2)) lines.push(`int: !!int ${r.pick(YAML11_INT)}`);
    if (r.chance(0.2)) lines.push(`float: !!float ${r.pick(YAML11_INT)}`);
    if (r.chance(0.1)) lines.push(`bool: !!bool ${r.pick(YAML11_BOOL)}`);
    return y11(lines.join('\n'));
  }],
  docs: [2, (X) => {
    const { r } = X;
    return r.pick([`%YAML 1.1\n--- yes`, `%YAML 1.1\n--- 0b11`, `%YAML 1.1\n---\n`, `%YAML 1.1\n--- !!set {a}`,
      `%YAML 1.1\n# c\n---\non: off\n...\n`, `%YAML 1.1\n%TAG !e! tag:example.com,2000:\n---\na: !e!x yes`,
      `%YAML   1.1   # c\n---\na: y`, `%YAML 1.1\n---\n--- b`, `a: yes\n...\n%YAML 1.1\n---\nb: yes`,
      `%YAML 1.1\n---\na: 1\n...\n---\nb: 2`]);
  }],
  json: [1, (X) => y11(`{"a": yes, "b": 017, "c": 1:30, "d": 2001-12-14}`)],
};

// ---------------------------------------------------------------- tags

const TAG_NODES = {
  plain: (X, t) => `${t} ${X.r.pick(['x', '1', '1.5', 'true', 'null', '<<', '2001-12-14', 'aGVsbG8=', '0x1F', '.inf', 'yes', '-0', '~', '0b11'])}`,
  quoted: (X, t) => `${t} ${X.r.pick(['"1"', "'true'", '"x"', '""', "''", '"2001-12-14"', '"<<"', '"aGk="'])}`,
  empty: (X, t) => t,
  block: (X, t) => `${t} ${X.r.pick(['|', '>-', '|+'])}\n  aGVsbG8=\n  line`,
  flowmap: (X, t) => `${t} ${X.r.pick(['{a: 1}', '{}', '{a, b}', '{<<: {x: 1}}', '{a: 1, a2: }'])}`,
  flowseq: (X, t) => `${t} ${X.r.pick(['[a, b]', '[]', '[a: 1, b: 2]', '[{a: 1}]', '[1, 1]'])}`,
  blockmap: (X, t) => `${t}\n  a: 1\n  b: x`,
  blockseq: (X, t) => `${t}\n  - a\n  - b: 1`,
};

function taggedDoc(X, tags) {
  const { r } = X;
  const n = r.range(1, 4);
  const lines = [];
  for (let i = 0; i < n; i++) {
    const t = r.pick(tags);
    const kind = r.pick(Object.keys(TAG_NODES));
    const node = TAG_NODES[kind](X, t);
    X.feat('tag-node-' + kind);
    const where = r.weighted([[6, 'value'], [2, 'item'], [2, 'key'], [1, 'anchored'], [1, 'root']]);
    if (where === 'value') lines.push(`k${i}: ${node}`);
    else if (where === 'item') lines.push(`k${i}:\n  - ${node.replace(/\n/g, '\n  ')}`);
    else if (where === 'key' && !node.includes('\n') && (X.on('ckey.tagged') || (kind !== 'flowmap' && kind !== 'flowseq'
        && !/^!!(binary|timestamp)|^!<tag:yaml.org,2002:(binary|timestamp)>/.test(t))))
      lines.push(r.chance(0.5) ? `${node}: v${i}` : `? ${node}\n: v${i}`);
    else if (where === 'anchored') lines.push(`k${i}: &t${i} ${node}\nr${i}: *t${i}`);
    else if (where === 'root' && lines.length === 0) return (r.chance(0.3) ? '--- ' : '') + node;
    else lines.push(`k${i}: ${node}`);
  }
  return lines.join('\n');
}

const TAGS = {
  merge: [5, (X) => {
    const { r } = X;
    return r.pick([
      `b: &b {x: 1}\nc: {!!merge <<: *b}`,
      `b: &b {x: 1}\nc:\n  !!merge <<: *b\n  y: 2`,
      `b: &b {x: 1}\nc:\n  !<tag:yaml.org,2002:merge> <<: *b`,
      `c: !!merge <<`,
      `- !!merge <<\n- a`,
      `s: !!set {!!merge <<}`,
      `s: !!set {!!merge <<: x}`,
      `c: {!!merge <<: 1}`,
      `c:\n  !!merge <<: [1]`,
      `b: &b x\nc:\n  !!merge <<: *b`,
      `c:\n  !!merge x: 1`,
      `c:\n  !!merge "<<": {a: 1}`,
      `b: &b {x: 1}\nc:\n  !!merge <<: [*b, {y: 2}]`,
      `!!merge <<: {a: 1}`,
      `c: [!!merge <<: {a: 1}]`,
      `b: &b {x: 1}\nc:\n  ? !!merge <<\n  : *b`,
      `c: !!merge {a: 1}`,
      `c: !!merge [a]`,
      `c: !!merge ""`,
      `c:\n  <<: !!merge {a: 1}`,
      `k0: !<tag:yaml.org,2002:merge> 0b11`,
      `- !<tag:yaml.org,2002:merge> -0`,
      `? !<tag:yaml.org,2002:merge> "aGk="\n: v0`,
    ]);
  }],
  yaml11coll: [4, (X) => taggedDoc(X, ['!!set', '!!omap', '!!pairs'])],
  binary: [2, (X) => taggedDoc(X, ['!!binary'])],
  timestamp: [2, (X) => taggedDoc(X, ['!!timestamp'])],
  core: [6, (X) => taggedDoc(X, ['!!str', '!!int', '!!float', '!!bool', '!!null', '!!map', '!!seq'])],
  custom: [3, (X) => taggedDoc(X, ['!foo', '!', '!!foo', '!e!x', '!a!'])],
  handle: [2, (X) => `%TAG !e! ${X.r.pick(['tag:example.com,2000:', '!local-', 'tag:yaml.org,2002:'])}\n---\n` + taggedDoc(X, ['!e!x', '!e!str', '!e!int', '!e!', '!e!set'])],
  verbatim: [3, (X) => taggedDoc(X, ['!<tag:yaml.org,2002:str>', '!<tag:yaml.org,2002:int>',
    '!<tag:yaml.org,2002:set>', '!<tag:yaml.org,2002:binary>', '!<!foo>', '!<tag:example.com,2000:x>', '!<tag:yaml.org,2002:map>',
    '!<tag:yaml.org,2002:timestamp>', '!<tag:yaml.org,2002:null>', '!<tag:yaml.org,2002:bool>', '!<tag:yaml.org,2002:float>'])],
  yaml11: [2, (X) => (X.on('yaml11') ? '%YAML 1.1\n---\n' : '') + taggedDoc(X, ['!!set', '!!omap', '!!pairs',
    '!!binary', '!!timestamp', '!!str', '!!int', '!!float', '!!bool', '!!null', ...(X.on('tags.merge') ? ['!!merge'] : [])])],
  double: [1, (X) => X.r.pick(['a: !!str !!int 1', 'a: !!str &x 1\nb: *x', 'a: &x !!int "1"\nb: *x', 'a: !!str\n  !!int 1'])],
};

// ---------------------------------------------------------------- BOM

const BOM = '\uFEFF';
function plainDoc(X) {
  const { r } = X;
  return r.pick([`a: 1`, `name: x\nvalue: 2`, `- a\n- b`, `k: [1, 2]`, `"q": v`, `{a: 1}`, `key: value`]);
}

const BOMS = {
  'after-comment': [5, (X) => `# yaml-language-server: $schema=${X.r.pick(SCHEMA_URLS)}\n${BOM}${plainDoc(X)}`],
  'after-modeline': [2, (X) => `${X.r.pick(['# -*- mode: yaml -*-', '# vim: set ft=yaml:', '#!/usr/bin/env yaml', '#'])}\n${BOM}${plainDoc(X)}`],
  'after-blank': [3, (X) => `${X.r.pick(['\n', '\n\n', '  \n', '\t\n', '\r\n'])}${BOM}${plainDoc(X)}`],
  'before-marker': [3, (X) => X.r.pick([`${BOM}---\n${plainDoc(X)}`, `\n${BOM}---\n${plainDoc(X)}`, `# c\n${BOM}--- ${plainDoc(X).split('\n')[0]}`,
    `${BOM}${BOM}---\na: 1`, `# c\n\n${BOM}---\n${plainDoc(X)}`])],
  'between-docs': [3, (X) => X.r.pick([`a: 1\n---\n${BOM}b: 2`, `a: 1\n...\n${BOM}`, `a: 1\n...\n${BOM}# c\n`, `---\na: 1\n${BOM}---\nb: 2`,
    `a: 1\n${BOM}...\n`, `---\n${BOM}\na: 1`])],
  'after-directive': [2, (X) => X.r.pick([`%YAML 1.2\n${BOM}---\na: 1`, `${BOM}%YAML 1.2\n---\na: 1`, `%YAML 1.2\n---\n${BOM}a: 1`,
    `# c\n${BOM}%YAML 1.2\n---\na: 1`])],
  'in-content': [3, (X) => X.r.pick([`a: x${BOM}y`, `a: "x${BOM}"`, `a: 1\n${BOM}b: 2`, `a:\n  ${BOM}b: 1`, `- a\n${BOM}- b`,
    `[a, ${BOM}b]`, `{${BOM}a: 1}`, `a: 1 # c${BOM}`, `a: |\n  x\n  ${BOM}y`, `a: ${BOM}`, `'a${BOM}': 1`])],
  'empty-key': [1, (X) => X.r.pick([`${BOM}: 1`, `${BOM}:\n`, `${BOM}- #x`, `${BOM}-  # x\n  - b`, `${BOM}- - #x`])],
  double: [1, (X) => `${BOM}${BOM}${plainDoc(X)}`],
  // The reference does not count the indentation of the line a leading BOM
  // starts.
  'indented-first': [2, (X) => X.r.pick([`${BOM} a:\n b: v`, `${BOM}  a: 1\n  b: 2`, `${BOM}  - a\n  - b`, `${BOM}  a: 1`,
    `${BOM} a:\n  b: v\n c: 1`, `${BOM}\ta: 1`, `${BOM}   k: [1]\n   l: 2`])],
  end: [1, (X) => `${plainDoc(X)}\n${BOM}`],
};

// ---------------------------------------------------------------- directives

const DIRECTIVES = {
  yaml12: [3, (X) => X.r.pick([`%YAML 1.2\n---\n${plainDoc(X)}`, `%YAML 1.2\n--- ${plainDoc(X).split('\n')[0]}`, `%YAML 1.2 # c\n---\na: 1`,
    `%YAML 1.2\n\n# c\n---\na: 1`, `%YAML\t1.2\n---\na: 1`])],
  version: [2, (X) => `%YAML ${X.r.pick(['1.0', '1.3', '2.0', '1.1.1', '1', 'x', '01.2', '1.2 extra'])}\n---\na: 1`],
  tag: [3, (X) => X.r.pick([`%TAG ! tag:example.com,2000:\n---\na: !x 1`, `%TAG !! tag:example.com,2000:\n---\na: !!str 1`,
    `%TAG !e! tag:e.com:\n%TAG !f! tag:f.com:\n---\n- !e!a 1\n- !f!b 2`, `%TAG !e! tag:e.com:\n---\na: !f!x 1`,
    `%TAG !e! %61\n---\na: !e!b 1`, `%TAG !e!\n---\na: 1`])],
  unknown: [2, (X) => X.r.pick([`%FOO bar baz\n---\na: 1`, `%FOO\n---\na: 1`, `%foo\n--- x`, `%%\n---\na: 1`, `% x\n---\na: 1`])],
  'no-marker': [2, (X) => X.r.pick([`%YAML 1.2\na: 1`, `%TAG !e! tag:e.com:\na: 1`, `%FOO\na: 1`])],
  'after-content': [2, (X) => X.r.pick([`a: 1\n%YAML 1.2\n---\nb: 2`, `a: 1\n...\n%YAML 1.2\n---\nb: 2`, `# c\n...\n%YAML 1.2\n---\nb: 2`,
    `...\n%YAML 1.2\n---\nb: 2`, `a: 1\n...\n%YAML 1.2\n`, `a:\n  %YAML 1.2`, `a: %x`, `- %YAML`, ` %YAML 1.2\n---\na`])],
  repeat: [1, (X) => X.r.pick([`%YAML 1.2\n%YAML 1.2\n---\na: 1`, `%YAML 1.2\n%YAML 1.1\n---\na: 1`,
    `%TAG !e! tag:e.com:\n%TAG !e! tag:g.com:\n---\na: 1`])],
  comment: [2, (X) => X.r.pick([`# c\n%YAML 1.2\n---\na: 1`, `%YAML 1.2\n# c\n---\na: 1`, `%YAML 1.2#c\n---\na: 1`,
    `%TAG !e! tag:e.com: # c\n---\na: !e!x 1`, `%YAML 1.2\n---#c\na: 1`])],
};

// ---------------------------------------------------------------- block scalars

const BLOCK_BODIES = [
  ['text'], ['a', 'b'], ['a', '', 'b'], ['a', '  b', 'c'], ['  more', 'less'], ['a', ''], ['a', '', ''],
  ['a', ' '], ['a', '  '], ['a', '   '], ['', 'a'], ['  ', 'a'], ['   ', '  a'], ['a', '\tb'], ['a\t'],
  ['a  ', 'b '], ['# not comment'], ['a', '', '  ', ''], ['a', '    '], ['', '', 'a'], ['a', '  ', 'b'],
  ['\ta'], ['a', '  # x'], ['- a', '- b'], ['a: b'], ['"q"'], [' '], ['  '], [''], ['', ''],
];

const BLOCK = {
  matrix: [10, (X) => {
    const { r } = X;
    const style = r.pick(['|', '>']);
    const chomp = r.pick(['', '-', '+']);
    const ind = r.weighted([[3, ''], [1, '1'], [2, '2'], [1, String(r.range(3, 9))], [0.2, '0'], [0.2, '10']]);
    // `#c` right after the header is comment.block's, a tab starting the
    // content block.tab-content's, a comment line after block.trailing-comment's.
    const head = style + (r.chance(0.5) ? chomp + ind : ind + chomp)
      + r.weighted([[8, ''], [1, ' # c'], [X.on('comment.block') ? 0.5 : 0, '#c'], [0.5, ' \t'], [0.5, '  ']]);
    const ctx = r.weighted([[3, 'value'], [2, 'top'], [2, 'item'], [2, 'nested'], [1, 'explicit']]);
    const base = { value: 2, top: 1, item: 2, nested: 4, explicit: 2 }[ctx];
    const step = ind && ind !== '0' && ind !== '10' ? Number(ind) : r.pick([1, 2, 3]);
    const pad = ' '.repeat(ctx === 'top' ? step : base + step - (ctx === 'value' || ctx === 'item' ? 2 : 2));
    const bodies = X.on('block.tab-content') ? BLOCK_BODIES : BLOCK_BODIES.filter((b) => !b[0].startsWith('\t'));
    const body = r.pick(bodies).slice();
    if (r.chance(0.3)) body.push(...r.pick(BLOCK_BODIES));
    const first = body.findIndex((l) => l.trim() !== '');
    if (!X.on('block.tab-content') && first >= 0 && body[first].startsWith('\t')) body[first] = body[first].slice(1);
    const lines = body.map((l) => (l === '' ? '' : pad + l));
    // Trailing lines: spaces only, more or less indented than the content.
    const trail = r.weighted([[3, 0], [2, 1], [1, 2]]);
    for (let i = 0; i < trail; i++) lines.push(r.pick(['', ' ', pad, pad + ' ', ' '.repeat(r.range(1, 8))]));
    // A last line of spaces only, with no line break after it, is
    // block.keep-spaces-eof's.
    if (!X.on('block.keep-spaces-eof') && lines.length && /^ +$/.test(lines[lines.length - 1])) lines[lines.length - 1] = '';
    const blk = head + '\n' + lines.join('\n');
    let t;
    const after = r.weighted([[3, ''], [2, '\nnext: 1'], [1, '\n...'], [1, '\n---\nb'], [X.on('block.trailing-comment') ? 1 : 0, '\n# end'],
      [X.on('block.trailing-comment') ? 1 : 0, '\n  # end']]);
    switch (ctx) {
      case 'top': t = blk; break;
      case 'value': t = 'k: ' + blk + (after && !after.startsWith('\n ') ? after : ''); break;
      case 'item': t = '- ' + blk + (after === '\nnext: 1' ? '\n- next' : after); break;
      case 'nested': t = 'a:\n  b: ' + blk + (after === '\nnext: 1' ? '\n  c: 1' : after); break;
      case 'explicit': t = '? ' + blk + '\n: v'; break;
    }
    X.feat(`block-${style}${chomp || 'clip'}${ind ? 'I' : ''}-${ctx}`);
    // no final newline is decided by gen.mjs; make some end mid-line here
    if (r.chance(0.3)) t = t.replace(/\n$/, '');
    return t;
  }],
  'keep-spaces-eof': [3, (X) => {
    const { r } = X;
    const h = r.pick(['|+', '>+', '|', '|-', '>', '|2+', '|1+']);
    return r.pick([`${h}\n${'  '}`, `a: ${h}\n  x\n${' '.repeat(r.range(1, 5))}`, `${h}\n ${' '.repeat(r.range(0, 3))}`,
      `- ${h}\n  x\n\n${' '.repeat(r.range(1, 4))}`, `a: ${h}\n${' '.repeat(r.range(1, 4))}`]) + '\u0000NOEOL';
  }],
  'leading-indented': [3, (X) => {
    const { r } = X;
    const h = r.pick(['|', '>', '|-', '|+', '>+', '|2', '|1', '>2']);
    return r.pick([`a: ${h}\n${' '.repeat(r.range(3, 6))}\n  x`, `${h}\n${' '.repeat(r.range(2, 5))}\n x`,
      `- ${h}\n\n${' '.repeat(r.range(4, 6))}\n  y`, `a: ${h}\n  \n    \n  x`]);
  }],
  'tab-content': [2, (X) => {
    const { r } = X;
    const h = r.pick(['|', '>', '|-', '>+', '|2']);
    return r.pick([`a: ${h}\n  \ta\n  b`, `${h}\n \ta`, `- ${h}\n  \ta\n`, `a: ${h}\n  a\n  \tb`, `? ${h}\n  \ta\n: v`]);
  }],
  'trailing-comment': [2, (X) => {
    const { r } = X;
    const h = r.pick(['|', '>', '|-', '|+', '>-']);
    return r.pick([`- ${h}\n   \n  # end`, `- ${h}\n  a\n# end`, `a: ${h}\n    \n  # end`, `a:\n  - ${h}\n   \n  # end`,
      `k: ${h}\n  x\n\n # c`, `--- ${h}\n\n# x`, `? ${h}\n   more\n less\n: v`]);
  }],
  folding: [2, (X) => {
    const { r } = X;
    return `a: >${r.pick(['', '-', '+'])}\n` + r.pick(['  a\n  b\n\n  c', '  a\n    b\n  c', '  a\n\n    b\n\n  c', '  a \n  b',
      '  a\n\n\n  b\n', '    a\n  b']);
  }],
};

// ---------------------------------------------------------------- comments next to indicators

const COMMENTS = {
  colon: [3, (X) => X.r.pick(['a:#x', 'a: #x', 'a:\t#x', 'a:#x\nb: 1', 'a: 1#x', 'a: 1 #x', 'a:  #x\n  b: 1', '"a":#x', "'a':#x", 'a :#x'])],
  dash: [3, (X) => X.r.pick(['-#', '- #x', '-#x\n- a', '- a#x', '- a #x', '-  # x\n  - b', '- - #x'])],
  flow: [4, (X) => X.r.pick(['[a,#b]', '[a, #b\n]', '[a #b\n]', '{a: 1 #c\n}', '{a: 1,#c\n}', '[a,#b\n]', '{a:#b\n}', '[#x\n]',
    '{#x\n}', '[a]#x', '{a: 1}#x', '[ a, b ] # x', '{"a":#x\n1}', '[a,\n#c\nb]'])],
  explicit: [2, (X) => X.r.pick(['? #c\n: v', '?#c\n: v', '? a #c\n: v', '? a\n:#c\n  v', '? a\n: #c', '? a\n:#c'])],
  props: [2, (X) => X.r.pick(['a: &x#b', 'a: &x #b', 'a: !t#x', 'a: !t #x', 'a: *x#b', 'a: &x 1\nb: *x#c', 'a: !!str#x', 'a: &x\n  #c\n  b: 1'])],
  quoted: [3, (X) => X.r.pick(['a: "q"#x', "a: 'q'#x", 'a: "q" #x', '"a"#x: 1', '- "q"#x', '["q"#x]', 'a: "q"\t#x'])],
  plain: [3, (X) => X.r.pick(['a: value#notcomment', 'a: b #c', 'a: b\t#c', 'a# b: 1', 'a #b: 1', 'a: http://x/#y', 'a: #', 'a: ##'])],
  block: [2, (X) => X.r.pick(['a: |#x\n  b', 'a: | #x\n  b', 'a: >-#x\n  b', 'a: |\n  b\n#x', 'a: |\n  b\n #x', 'a: |\n  b\n  #x'])],
  markers: [2, (X) => X.r.pick(['--- #x\na: 1', '---#x\na: 1', 'a: 1\n...#x', 'a: 1\n... #x', '%YAML 1.2 #x\n---\na', '--- a #x'])],
};

// ---------------------------------------------------------------- tabs

const TABS = {
  'after-dash': [4, (X) => X.r.pick(['-\tx', '-\tx\n-\ty', '- \tx', '-\t- x', '-\t-\tx', '-\ta: 1', '-\ta: 1\n \tb: 2',
    'k:\n  -\tx\n  -\ty', '-\t\tx', '-\t"q"'])],
  'before-indicator': [2, (X) => X.r.pick(['-\t{a: 1}', '-\t[a]', '-\t|\n  x', '-\t>-\n  x', '?\t[a]\n: b', '?\t{a: 1}\n: b', '- \t[a]'])],
  'after-bom': [1, (X) => X.r.pick(['\uFEFF?\ta\n:\tb', '\uFEFF? \ta\n: b', '\uFEFF?\ta', '\uFEFF-\tx', '\uFEFFa:\tb'])],
  'after-colon': [3, (X) => X.r.pick(['a:\tb', 'a:\t1\nb:\t2', 'a: \tb', 'a:\t\tb', 'a:\t[1]', 'a:\t{b: 1}', 'a:\t|\n  x', 'a:\t&x 1', 'a:\t\n  b: 1'])],
  'after-question': [2, (X) => X.r.pick(['?\ta\n:\tb', '? \ta\n: b', '?\ta', '? a\n:\t- b'])],
  flow: [2, (X) => X.r.pick(['[a,\tb]', '{a:\tb}', '[\ta\t]', '{\ta: 1\t}', '[a\t,b]', 'k: [a,\tb]'])],
  comment: [1, (X) => X.r.pick(['a: 1\t#c', '-\t#c', 'a:\t#c', '[a\t#c\n]'])],
  indent: [2, (X) => X.r.pick(['a:\n\tb: 1', 'a:\n \tb: 1', '- a\n\t- b', 'a: |\n\tx', '\ta: 1'])],
  'trailing-line': [1, (X) => X.r.pick(['a:\n  b: 1\n\t', 'a: 1\n\t\n', '- a\n \t', 'a:\n  - b\n\t\t',
    '---\n\t\u0000NOEOL', 'a:\n\t\u0000NOEOL', '---\n\t\t\u0000NOEOL'])],
  many: [2, (X) => {
    const { r } = X;
    const n = r.weighted([[6, r.range(10, 200)], [2, r.range(200, 2000)], [1, r.range(2000, 4000)]]);
    const line = r.pick(['-\tx', '-\t1', 'k%d:\tv', '-\ta: 1', '- \tx']);
    const out = [];
    for (let i = 0; i < n; i++) out.push(line.replace('%d', String(i)));
    return out.join('\n');
  }],
  'over-cap': [0.5, (X) => {
    // more lines than the 4096 re-parses the libyaml workaround layer allowed
    const { r } = X;
    const n = r.range(4097, 6000);
    const line = r.pick(['-\tx', '-\t1', 'k%d:\tv', '-\ta: 1']);
    const out = [];
    for (let i = 0; i < n; i++) out.push(line.replace('%d', String(i)));
    return out.join('\n');
  }],
};

// ---------------------------------------------------------------- ':' in flows

const FLOWCOLON = {
  empty: [4, (X) => X.r.pick(['{a:,b:}', '[a:,b]', '{a:}', '[a:]', '{a: ,}', '{a:\n}', '{a:,}', '[a:, b:]', 'k: {a:, b: 1}', '- [a:]'])],
  adjacent: [3, (X) => X.r.pick(['{"a":b}', '{a:b}', '["a":1]', '{"a":[1]}', '{a:[b]}', '{a:{b}}', '{\'a\':b}', '{"a":"b","c":1}', '[a:b]', '{a:1}'])],
  explicit: [2, (X) => X.r.pick(['[? a]', '{? a:}', '{? a}', '[? a :]', '[? : b]', '{? : }', '[? a : b, c]'])],
  odd: [2, (X) => X.r.pick(['[a: b: c]', '{a::b}', '[::]', '{:a}', '[:a]', '{a: :}', '[a :b]', '{a :b}', '[":"]', '{:}', '[:]', '{a:#c\n}'])],
};

// ---------------------------------------------------------------- real-file shapes

function templ(X, quoted) {
  if (!X.on('ckey.template') || quoted) return X.r.pick(['"${{ secrets.TOKEN }}"', '"{{ .Values.image }}"', "'{{ item }}'", '"{{config_data}}"']);
  X.feat('realfile-template');
  return template(X);
}

function modeline(X) {
  const { r } = X;
  if (!r.chance(0.35)) return '';
  const line = `# yaml-language-server: $schema=${r.pick(SCHEMA_URLS)}\n`;
  if (X.on('bom.after-comment') && r.chance(0.3)) {
    X.feat('realfile-bom-after-comment');
    return line + BOM;
  }
  return line;
}

// ---------------------------------------------------------------- implicit key length

// Implicit keys near the 1024-character limit.  After a key whose value is
// empty (`a:` and a line break) the reference counts the limit from that
// key's `:`, not from the start of the long key (keylen.after-empty).
function longKeyDoc(X, afterEmpty) {
  const { r } = X;
  const ind = r.pick([0, 0, 1, 2, 4]);
  const spaces = r.pick([0, 0, 1, 2]);
  const n = 1024 - spaces - r.range(-3, 3);
  const key = 'k'.repeat(n) + ' '.repeat(spaces);
  const pad = ' '.repeat(ind);
  if (afterEmpty) return r.pick([`${pad}a:\n${pad}${key}: v`, `${pad}a: # c\n${pad}${key}: v`, `${pad}a: 1\n${pad}b:\n${pad}${key}: v`]);
  return r.pick([`${pad}${key}: v`, `${pad}a: 1\n${pad}${key}: v`, `- ${key}: v`, `a:\n${pad}  ${key}: v`]);
}

const KEYLEN = {
  plain: [2, (X) => longKeyDoc(X, false)],
  'after-empty': [2, (X) => longKeyDoc(X, true)],
};

const REALFILE = {
  workflow: [3, (X) => {
    const { r } = X;
    const on = r.pick(['on', "'on'", '"on"', 'true']);
    const trig = r.pick(['[push, pull_request]', 'push', '\n  push:\n    branches: [main]\n  pull_request:\n    branches:\n      - main\n      - "release/**"',
      '\n  workflow_dispatch:\n  schedule:\n    - cron: "0 0 * * *"']);
    const step = r.pick(['      - uses: actions/checkout@v4', '      - name: Build\n        run: |\n          make -j2\n          make check',
      '      - run: echo "${{ github.sha }}"', `      - run: echo ${r.chance(0.5) ? '${{ secrets.TOKEN }}' : templ(X, r.chance(0.5))}`,
      '      - name: Test\n        if: ${{ always() }}\n        run: >-\n          npm test\n          --ci',
      '      - uses: actions/setup-node@v4\n        with:\n          node-version: 20.x\n          cache: npm']);
    return `${modeline(X)}name: CI\n${on}: ${trig}\npermissions:\n  contents: read\njobs:\n  build:\n    runs-on: ${r.pick(['ubuntu-latest', '${{ matrix.os }}'])}\n`
      + `    strategy:\n      matrix:\n        os: [ubuntu-latest, windows-latest]\n        node: [18, 20.x, "22"]\n    steps:\n${step}\n${r.pick(['', '      - run: npm ci', '      - run: make  # build\n'])}`;
  }],
  k8s: [3, (X) => {
    const { r } = X;
    const docs = r.weighted([[3, 1], [1, 2]]);
    const one = () => `apiVersion: ${r.pick(['v1', 'apps/v1'])}\nkind: ${r.pick(['ConfigMap', 'Deployment', 'Service'])}\nmetadata:\n  name: app\n  labels:\n    app: web\n    tier: "frontend"\n`
      + r.pick([`data:\n  config.yaml: |\n    key: value\n    list:\n      - a\n  port: "8080"\n  enabled: ${r.pick(['true', 'yes', '"true"', 'on'])}`,
        `spec:\n  replicas: ${r.pick(['3', '03', '0x3', '3.0'])}\n  template:\n    spec:\n      containers:\n        - name: web\n          image: ${templ(X, r.chance(0.4))}\n          ports:\n            - containerPort: 80\n          env:\n            - name: A\n              value: "1"`,
        `spec:\n  ports:\n  - port: 80\n    targetPort: 8080\n  selector:\n    app: web`,
        `data:\n  ${templ(X, false)}`]);
    const out = [];
    for (let i = 0; i < docs; i++) out.push(one());
    return modeline(X) + (r.chance(0.3) ? '---\n' : '') + out.join('\n---\n');
  }],
  compose: [3, (X) => {
    const { r } = X;
    const merge = r.chance(0.5) ? '    <<: *default\n' : '';
    return `${modeline(X)}version: ${r.pick(['"3.8"', '3.8', "'3'", '3'])}\nx-default: &default\n  restart: always\n  logging:\n    driver: json-file\nservices:\n  web:\n${merge}`
      + `    image: "nginx:1.25"\n    ports:\n      - "80:80"\n      - ${r.pick(['8080:80', '"443:443"', '22:22', '5000:5000', '9090'])}\n    environment:\n      - KEY=value\n      - DEBUG=${r.pick(['true', 'yes', '1'])}\n`
      + `    volumes:\n      - ./data:/data:ro\n    command: ["npm", "start"]\n  db:\n    image: postgres\n    environment:\n      POSTGRES_PASSWORD: ${r.pick(['secret', '"${DB_PASS}"', '${DB_PASS:-x}', 'yes', '0123'])}\n    healthcheck:\n      test: ["CMD", "pg_isready"]\n      interval: ${r.pick(['10s', '1m30s', '1:30'])}`;
  }],
  ansible: [3, (X) => {
    const { r } = X;
    return `${modeline(X)}---\n- hosts: ${r.pick(['all', 'web', '"{{ target }}"'])}\n  become: ${r.pick(['yes', 'true', 'True', 'on'])}\n  vars:\n    port: 8080\n    mode: ${r.pick(['0644', "'0644'", '0o644', '644'])}\n`
      + `  tasks:\n    - name: Install\n      apt:\n        name: "{{ item }}"\n        state: present\n      with_items:\n        - nginx\n        - git\n`
      + `    - name: Template\n      template: src=a.j2 dest=/etc/a mode=0644\n      when: ${r.pick(['ansible_os_family == "Debian"', 'x is defined', templ(X, r.chance(0.5))])}\n`
      + `    - debug:\n        msg: ${r.pick(['"{{ msg }}"', 'hello', templ(X, r.chance(0.3))])}\n  handlers:\n    - name: restart\n      service: name=nginx state=restarted`;
  }],
  helm: [2, (X) => {
    const { r } = X;
    return `${modeline(X)}replicaCount: 1\nimage:\n  repository: nginx\n  tag: ${templ(X, r.chance(0.4))}\n  pullPolicy: IfNotPresent\nresources: {}\nnodeSelector: {}\ntolerations: []\n`
      + `podAnnotations:\n  checksum/config: ${templ(X, r.chance(0.5))}\ningress:\n  enabled: false\n  hosts:\n    - host: chart-example.local\n      paths: ["/"]`;
  }],
  schematest: [2, (X) => {
    const { r } = X;
    return `${modeline(X) || '# yaml-language-server: $schema=../schema.json\n'}${r.pick(['a: 1', 'name: test\nitems:\n  - 1\n  - 2', 'on: push', '$schema: x\nkey: ~', 'date: 2001-12-14'])}`;
  }],
};

// ---------------------------------------------------------------- table

export const HARD_CLASSES = {
  ckey: { weight: 7, constructs: CKEY },
  yaml11: { weight: 6, constructs: YAML11 },
  tags: { weight: 6, constructs: TAGS },
  bom: { weight: 4, constructs: BOMS },
  directive: { weight: 2, constructs: DIRECTIVES },
  block: { weight: 4, constructs: BLOCK },
  comment: { weight: 3, constructs: COMMENTS },
  tabs: { weight: 3, constructs: TABS },
  flowcolon: { weight: 2, constructs: FLOWCOLON },
  keylen: { weight: 1, constructs: KEYLEN },
  realfile: { weight: 3, constructs: REALFILE },
  // weight 0: only a mix (gen.mjs --mix) turns it on, so older seeds keep
  // their documents
  outside: { weight: 0, constructs: OUTSIDE },
};

// Generate one document of class `cls`: pick an enabled construct by weight.
// Returns { text, noFinalNewline } or null when every construct is excluded.
export function hardDocument(X, cls) {
  const list = [];
  for (const [name, [w, fn]] of Object.entries(HARD_CLASSES[cls].constructs))
    if (X.on(`${cls}.${name}`)) list.push([w, [name, fn]]);
  if (!list.length) return null;
  const [name, fn] = X.r.weighted(list);
  X.feat(`hard-${cls}.${name}`);
  let text = fn(X);
  let noFinalNewline = false;
  if (text.endsWith('\u0000NOEOL')) {
    text = text.slice(0, -6);
    noFinalNewline = true;
  }
  return { text, noFinalNewline };
}
