// The "outside" class of the differential generator (gen-hard.mjs): the
// constructs an outside team's adversarial corpus found wrong, accepted
// where the reference errors, or refused far more often than our other
// classes make them (issue "exactness III").  Its weight is 0 unless a mix
// asks for it (gen.mjs --mix exact3), so the corpora of older seeds stay
// as they were.
//
// Constructs, with what each one aims at:
//   ckeyspace     collection keys whose items yaml prints on several lines:
//                 blank lines before items (also after block scalars whose
//                 chomping keeps or drops them), comments after or before
//                 items
//   ckeytag       a tag on a collection inside a collection key, anchors
//                 and tags together on scalars inside one
//   ckey11ts      a %YAML 1.1 timestamp inside a collection key
//   commentkey    a comment line right before a flow collection used as an
//                 implicit key of a block mapping
//   mergekey      a merge source with a key that is a collection
//   lonecr        a carriage return not followed by a line feed
//   flowmap       a flow collection as a key of a flow mapping, its ':' on
//                 a later line (libyaml: "did not find expected ',' or '}'")
//   binary        !!binary text with characters beyond ASCII
//   aliaskey      aliases of collections and binary data as mapping keys,
//                 with anchor names of every kind
//   anchorname    anchors in collection keys whose names yaml may refuse
//                 to print
//   colltag       a collection tag on a scalar inside a collection key
//   flowkey2      a flow collection as an implicit key after the first
//                 pair of an indented block mapping
//   hugenum       huge hexadecimal, octal and binary numbers in keys
//   setcomment    !!set with comments
//   mergespecial  a merge source that is a !!set, !!omap or !!pairs

const SCALARS = ['a', 'b', 'x', 'key', '1', '-1', '0', '1.5', '1e3', '0x1F', '0o17', '.inf', '.nan',
  'true', 'null', '~', '""', "''", '"a b"', '"x: y"', "'#x'", '"\\u00e9"', 'é', 'a b', '"0 \u200b"',
  '"\\t"', '"  lead"', '"trail "', 'with space', '"a\\nb"', "'it''s'", '-0', '"1"', '"true"',
  '"' + 'long '.repeat(14) + 'end"', 'a#b', 'a:b', '"#"', '"- a"'];
const WORDS = ['a', 'key', 'name', 'value', 'with space', 'toJSON', 'x', 'data', 'item', 'port'];
const COMMENTS = ['# c', '# comment', '#', '## hash', '# a: b', '# [x]'];
const ANCHORS = ['a', 'k', 'x1', 'a-b', 'a_b', 'a.b', 'a:b', 'a/b', 'é', 'a\u00a0b', 'a\u3000b',
  'a\u2028b', 'a\ufeffb', 'x\u1680', '\u{1F600}', 'a*b', 'a&b', 'a!b', 'a|b', 'a"b', "a'b", 'a#b',
  'a%b', 'a@b', 'a`b', 'a\u0085b', 'a\u200bb', 'a\u2000b', 'a\u205fb'];

function blockScalar(X, indent) {
  const { r } = X;
  const ind = r.chance(0.2) ? String(r.range(1, 3)) : '';
  const chomp = r.pick(['', '-', '+']);
  const head = r.pick(['|', '>']) + (r.chance(0.5) ? ind + chomp : chomp + ind);
  const step = ind ? Number(ind) : 2;
  const pad = ' '.repeat(indent + step);
  const lines = [];
  const n = r.range(1, 3);
  for (let i = 0; i < n; i++) lines.push(r.pick(['text', 'more text', '  deeper', 'x: y', '# not', '']));
  if (lines[0] === '' || lines[0].startsWith(' ')) lines[0] = 'first';
  let body = lines.map((l) => (l ? pad + l : '')).join('\n');
  const trail = r.weighted([[2, 0], [3, 1], [2, 2]]);
  for (let i = 0; i < trail; i++) body += '\n' + (r.chance(0.2) ? pad : '');
  return head + '\n' + body;
}

function gap(X) {
  const { r } = X;
  return r.weighted([[3, ''], [3, '\n'], [1, '\n\n'], [1, `\n# c`], [1, '\n\n# c']]);
}

function itemValue(X, indent, flow) {
  const { r } = X;
  if (!flow && r.chance(0.3)) return blockScalar(X, indent);
  return r.pick(SCALARS);
}

function commentAfter(X) {
  return X.r.chance(0.25) ? ' ' + X.r.pick(COMMENTS) : '';
}

// A block sequence or mapping as an explicit key at indentation `ind`.
function blockKey(X, ind) {
  const { r } = X;
  const pad = ' '.repeat(ind + 2);
  const isMap = r.chance(0.45);
  const n = r.range(1, 4);
  let t = '';
  for (let i = 0; i < n; i++) {
    const g = i ? gap(X).replace(/\n# c/g, `\n${pad}# c`) : '';
    const v = itemValue(X, ind + 2, false);
    const c = v.includes('\n') ? '' : commentAfter(X);
    t += g + (i ? '\n' + pad : '') + (isMap ? `${WORDS[i]}: ${v}` : `- ${v}`) + c;
  }
  return t;
}

// A flow collection spread over lines, as a key.
function flowKey(X, ind) {
  const { r } = X;
  const pad = ' '.repeat(ind + 2);
  const isMap = r.chance(0.5);
  const n = r.range(1, 4);
  const parts = [];
  for (let i = 0; i < n; i++) {
    const g = i ? gap(X).replace(/\n# c/g, `\n${pad}# c`) : '';
    const v = r.pick(SCALARS);
    const c = commentAfter(X);
    const last = i === n - 1;
    const comma = last ? (r.chance(0.2) ? ',' : '') : ',';
    parts.push(g + '\n' + pad + (isMap ? `${WORDS[i]}: ${v}` : v) + comma + c);
  }
  const open = isMap ? '{' : '[';
  const close = isMap ? '}' : ']';
  return open + parts.join('') + '\n' + ' '.repeat(ind) + close;
}

function wrapExplicit(X, key, ind) {
  const { r } = X;
  const pad = ' '.repeat(ind);
  const v = r.pick([' v', ' 1', '', ' [a]', '\n' + pad + '  - x']);
  let t = `${pad}? ${key}\n${pad}:${v}`;
  if (r.chance(0.3)) t = `${pad}${r.pick(WORDS)}: 1\n` + t;
  return t;
}

const OUTSIDE = {
  ckeyspace: [8, (X) => {
    const { r } = X;
    const ind = r.pick([0, 0, 2]);
    const key = r.chance(0.55) ? blockKey(X, ind) : flowKey(X, ind);
    const t = wrapExplicit(X, key, ind);
    return ind ? 'outer:\n' + t : t;
  }],
  ckeytag: [2, (X) => {
    const { r } = X;
    const tagged = r.pick(['!!str { "a": "" }', '!!str [a]', '!!map {a: 1}', '!!seq [b]', '!foo {a: 1}',
      '!!str {}', '!!set {a}', '&a:b !!float .nan', '&a !!str 1', '!!int &b 2', '&k !!map {a: b}', '!!str &s [x]',
      '&a:b !!str x', '!!float &f .inf']);
    return r.pick([`{ ? ${tagged} : v }: x`, `[ ${tagged} ]: x`, `? [ ${tagged}, b ]\n: v`, `? { k: ${tagged} }\n: v`,
      `{ ${tagged}: 1 }: y`, `- [ ${tagged} ]: z`, `[ [ ${tagged} ] ]: w`]);
  }],
  ckey11ts: [1, (X) => {
    const { r } = X;
    const ts = r.pick(['2002-1-1', '2001-12-14', '2001-12-14t21:59:43.10-05:00', '2002-12-14 21:59:43 +1', '1970-01-01']);
    const other = r.pick(['"\\t\u2026"', 'a', '1', '"x"']);
    return '%YAML 1.1\n---\n' + r.pick([`[ ${other}, ${ts} ]: x`, `? [ ${ts} ]\n: v`, `{ d: ${ts} }: x`, `[ ${ts}, ${other} ]: x`,
      `? - ${ts}\n  - ${other}\n: v`]);
  }],
  commentkey: [3, (X) => {
    const { r } = X;
    const c = r.pick(COMMENTS);
    const key = r.pick(['{toJSON: x}', '[a, b]', '{a: 1}', '[x]', '{}', '[]', '"q"', 'plain']);
    const v = r.pick([':\n- a', ': 1', ':\n  b: 2', ': [x]']);
    return r.pick([`${c}\n${key}${v}`, `a: 1\n${c}\n${key}${v}`, `top:\n  ${c}\n  ${key}${v.replace(/\n/g, '\n  ')}`,
      `${c}\n\n${key}${v}`, `- ${c}\n  ${key}${v.replace(/\n/g, '\n  ')}`, `${key}${v}\n${c}\n${r.pick(['[c]', '{d: 1}'])}: 2`]);
  }],
  mergekey: [9, (X) => {
    const { r } = X;
    const keys = ['[a, b]', '[1, null, true]', '[[a], b]', '{a: 1}', '[]', '{}', '[1.5, .inf, -0, 0x1F]', '[~]', '[""]',
      '[a, {b: c}]', '[!!binary aGk=]', '[1e21, 0.1]', '[yes, no]', '[[], [[]]]', '[a, [b, [c]]]', '[é, "\\u0000"]',
      '[-.inf, .nan]', '[0o17, 017, 0b11]', '[1_000]', '[!!str 1, "2"]', '[!!binary 4pyT]'];
    const k1 = r.pick(keys);
    const k2 = r.pick(keys);
    const src = r.pick([`{${k1}: 1, c: 2}`, `\n  ${k1}: 1\n  c: 2`, `\n  ? ${k1}\n  : 1`, `{${k1}: 1, ${k2}: 2}`,
      `\n  ? - a\n    - b\n  : 3`, `{c: 1, ${k1}: x}`]);
    const body = r.pick([
      `base: &b ${src}\nx:\n  <<: *b\n  d: 3`,
      `base: &b ${src}\nx:\n  d: 3\n  <<: *b`,
      `x:\n  <<: ${src.startsWith('\n') ? src.replace(/\n/g, '\n  ') : src}`,
      `base: &b ${src}\nx:\n  <<: [*b, {${k2}: 9}]`,
      `base: &b ${src}\nx:\n  "${k1.replace(/[[\]{} ]/g, '').replace(/"/g, '')}": 0\n  <<: *b`,
      `base: &b ${src}\nx: {<<: *b, e: 1}`,
      `base: &b ${src}\nx:\n  a,b: 0\n  <<: *b`,
      `base: &b ${src}\n- <<: *b`.replace(/^base: &b (.*)\n- /s, '- &b $1\n- '),
    ]);
    return '%YAML 1.1\n---\n' + body;
  }],
  lonecr: [5, (X) => {
    const { r } = X;
    if (r.chance(0.4)) {
      const doc = r.pick(['a: x\ny: 1', '- a\n- b', 'a:\n  b: 1\n  c: 2', 'a: "x\n  y"', 'a: |\n  x\n  y\nb: 1', '# c\na: 1',
        'a: 1 # c\nb: 2', '[a,\n b]', '{a: 1,\n b: 2}', 'key: value\nother: [1, 2]', 'a: >\n  x\n  y', "a: 'x\n  y'", 'a: b\n\nc: d']);
      const nl = [...doc.matchAll(/\n/g)].map((m) => m.index);
      const at = r.pick(nl);
      return doc.slice(0, at) + '\r' + doc.slice(at + 1) + (r.chance(0.2) ? '\r' : '');
    }
    return r.pick(['a: x\ry', 'a: 1\rb: 2', '- a\r- b', 'a: "x\ry"', "a: 'x\ry'", '# c\rd\na: 1', 'a: |\n  x\ry\n', 'a: x \ry',
      'a: x\r', 'key: va\rlue\nother: 1', 'a:\r  b', '[a\r, b]', '{a: b\r}', 'a: x\r# c', 'a\rb: 1', '"a\rb": 1', 'a: x\r\r',
      'a: &x\ry', 'a: !t\ry', '- x\r  y', 'a: x\r\ty', 'a: "x \r y"', 'a: x\r:y', 'a: x:\ry', '? a\r: b', 'a: [x\ry]',
      'a: {x\ry: 1}', 'a: >\n  x\ry\n  z\n', 'a: x\r\n', 'a: \r', 'a: x\r\n\rb', '\ra: 1', 'a: 1\n\r', 'a: "\r"', 'a: x\r#c']);
  }],
  flowmap: [8, (X) => {
    const { r } = X;
    const key = r.pick(['[a]', '{a: b}', '[a, b]', '{}', '[]', '[[a]]', '{a: [b]}']);
    const sep = r.pick(['\n', '\n  ', ' # c\n', '\n\n', '\n# c\n ']);
    return r.pick([`{${key}${sep}: v}`, `{x: 1, ${key}${sep}: v}`, `[${key}${sep}: v]`, `k: {${key}${sep}: v}`,
      `- {${key}${sep}: v, y: 2}`, `{${key}${sep}:v}`, `{${key}${sep}: ${key}}`]);
  }],
  binary: [5, (X) => {
    const { r } = X;
    const bits = ['aGVs', 'bG8=', 'QUJD', 'é', 'Ł', '乁', '\u{1F600}', 'ā', '\u00ff', 'ÿ', '\u0141\u0141', 'Ω', '中', '\u2028',
      '\u00a0', 'ß', '\u0151', '\u013d', '\u{1F43D}', '\u{1D11E}', '\ufffd', '='];
    let s = '';
    const n = r.range(2, 6);
    for (let i = 0; i < n; i++) s += r.pick(bits);
    const y11 = r.chance(0.85) ? '%YAML 1.1\n---\n' : '';
    return y11 + r.pick([`b: !!binary ${s}`, `b: !!binary "${s}"`, `b: !!binary |\n  ${s}\n  ${r.pick(bits)}QQ==`,
      `- !!binary ${s}`, `b: !<tag:yaml.org,2002:binary> ${s}`, `? !!binary ${s}\n: k`, `b: !!binary '${s}'`]);
  }],
  aliaskey: [12, (X) => {
    const { r } = X;
    const name = r.pick(ANCHORS);
    const node = r.pick(['[1, 2]', '{a: 1}', '!!binary aGk=', '[]', '{}', '[a, [b]]']);
    const y11 = node.includes('binary') || r.chance(0.3) ? '%YAML 1.1\n---\n' : '';
    return y11 + r.pick([`a: &${name} ${node}\n*${name} : v`, `a: &${name} ${node}\n? *${name}\n: v`,
      `- &${name} ${node}\n- {*${name} : v}`, `a: &${name} ${node}\nb:\n  *${name} : v`, `a: &${name} ${node}\n[*${name}]: v`]);
  }],
  anchorname: [7, (X) => {
    const { r } = X;
    const name = r.pick(ANCHORS);
    return r.pick([`[&${name} x, *${name}]: 1`, `{&${name} a: b}: c`, `? [&${name} x]\n: v`, `[&${name} [a]]: 1`,
      `a: &${name} x\n[*${name}]: 1`, `? {k: &${name} v}\n: w`, `[&${name} ]: 1`]);
  }],
  colltag: [2, (X) => {
    const { r } = X;
    const t = r.pick(['!!map', '!!seq', '!!set', '!!omap', '!!pairs']);
    const s = r.pick(['x', '""', '1', '~', '']);
    const y11 = r.chance(0.3) ? '%YAML 1.1\n---\n' : '';
    return y11 + r.pick([`[${t} ${s}]: 1`, `{${t} ${s}: a}: b`, `? [${t} ${s}]\n: v`, `{k: ${t} ${s}}: v`, `[a, ${t} ${s}]: 1`]);
  }],
  flowkey2: [1.5, (X) => {
    const { r } = X;
    const key = r.pick(['[b]', '{b: c}', '[]', '{}', '[a, b]']);
    return r.pick([`outer:\n  a: 1\n  ${key}: 2`, `x:\n  a: 1\n  b: 2\n  ${key}: d`, `- a: 1\n  ${key}: 2`,
      `o:\n  a:\n  ${key}: 2`, `o:\n  ? a\n  ${key}: 2`, `o:\n  "a": 1\n  ${key}: 2`]);
  }],
  hugenum: [3, (X) => {
    const { r } = X;
    const num = r.pick(['0x123456789ABCDEF01234', '0xFFFFFFFFFFFFFFFFFFFF', '0o77777777777777777777777',
      '0x20000000000001', '0o400000000000000001', '0x1fffffffffffff', '0x7FFFFFFFFFFFFFFF', '-0x123456789ABCDEF0123']);
    const y11 = r.chance(0.3) ? '%YAML 1.1\n---\n' : '';
    const n11 = y11 ? r.pick([num, '0b' + '1'.repeat(r.range(54, 80)), '0' + '7'.repeat(r.range(19, 26))]) : num;
    return y11 + r.pick([`[${n11}]: v`, `{${n11}: a}: b`, `? [${n11}, x]\n: v`, `${n11}: v`]);
  }],
  setcomment: [0.5, (X) => {
    const { r } = X;
    return '%YAML 1.1\n---\n' + r.pick(['s: !!set\n  ? a # c\n  ? b', 's: !!set {a, # c\n  b}', 's: !!set\n  # c\n  ? a',
      '!!set\n? a\n# c\n? b', 's: !!set\n  ? a\n\n  ? b', 's: !!set { a, b } # c']);
  }],
  mergespecial: [0.5, (X) => {
    const { r } = X;
    const src = r.pick(['!!omap [a: 1]', '!!set {a, b}', '!!pairs [a: 1]', '!!omap\n  - a: 1', '!!set\n  ? a']);
    return '%YAML 1.1\n---\n' + r.pick([`b: &b ${src}\nc:\n  <<: *b`, `b: &b ${src}\nc:\n  <<: [*b]\n  d: 1`]);
  }],
};

export { OUTSIDE };
