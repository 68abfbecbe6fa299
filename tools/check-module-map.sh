#!/bin/sh
#
# check-module-map.sh: doc/HACKING.md names every source file under src/,
# and none that is gone.
#
#	tools/check-module-map.sh HACKING.md SRCDIR
#
# A file is named by its path under src/ ("git/repo.c", "src/git/repo.c",
# "parse-options.[ch]", "builtin/*.c", "yaml/yamlfix-{bom,tabs}.c"), or by
# its bare name on a folder line: a bare name belongs to the folder last
# named before it on its line ("`git/`: `repo.c`, `lfs.c`"), or to src/
# itself when no folder came before it.  A path that starts neither with
# src/ nor with a folder of src/ is not about src/ (t/unit/tap.h).
# Prints "DOC:LINE: gone: NAME" for a name that matches no file and
# "missing: PATH" for a file the map never names; exits 1 if there is
# either, 2 on a usage error.

# Names that stand for no file: the placeholders of the how-to sections
# (src/foo.c, builtin/frob.c) and config.h, which configure writes.
PLACEHOLDERS='foo.c foo.h frob.c config.h'

test $# = 2 || {
	echo "usage: $0 HACKING.md SRCDIR" >&2
	exit 2
}
doc=$1
srcdir=$2
test -f "$doc" || {
	echo "check-module-map: no file '$doc'" >&2
	exit 2
}
test -d "$srcdir" || {
	echo "check-module-map: no directory '$srcdir'" >&2
	exit 2
}

files=$(cd "$srcdir" && find . -type f -name '*.[ch]' | sed 's|^\./||' |
	LC_ALL=C sort) || exit 2
dirs=$(cd "$srcdir" && find . -type d | sed '/^\.$/d; s|^\./||') || exit 2

report=$(printf '%s\n' "$files" | awk -v doc="$doc" -v dirs="$dirs" \
	-v shown="${doc##*/}" -v placeholders="$PLACEHOLDERS" '
# glob(pat, s): the shell pattern pat (with * and ?) matches s; * does
# not cross a slash.
function glob(pat, s,    re) {
	re = pat
	gsub(/[.+^$()|]/, "\\\\&", re)
	gsub(/\*/, "[^/]*", re)
	gsub(/\?/, "[^/]", re)
	return s ~ ("^" re "$")
}

# expand(tok, out): tok with its one {a,b} group and its [ch] expanded;
# returns how many names out[1..n] holds.
function expand(tok, out,    n, pre, post, alts, k, m, a, i) {
	n = 0
	if (match(tok, /\{[^{}]*\}/)) {
		pre = substr(tok, 1, RSTART - 1)
		post = substr(tok, RSTART + RLENGTH)
		m = split(substr(tok, RSTART + 1, RLENGTH - 2), alts, ",")
		for (k = 1; k <= m; k++)
			a[++n] = pre alts[k] post
	} else {
		a[++n] = tok
	}
	m = 0
	for (i = 1; i <= n; i++) {
		if (sub(/\.\[ch\]$/, "", a[i])) {
			out[++m] = a[i] ".c"
			out[++m] = a[i] ".h"
		} else {
			out[++m] = a[i]
		}
	}
	return m
}

# name(path, where): path (under src/) is named in the map at where.
function name(path, where,    i, hit, base) {
	base = path
	sub(/.*\//, "", base)
	if (index(" " placeholders " ", " " base " "))
		return
	hit = 0
	for (i = 1; i <= nfiles; i++)
		if (glob(path, file[i])) {
			named[file[i]] = 1
			hit = 1
		}
	if (!hit)
		printf "%s: gone: %s\n", where, path
}

{
	file[++nfiles] = $0
}

END {
	ndirs = split(dirs, d, "\n")
	for (i = 1; i <= ndirs; i++)
		isdir[d[i] "/"] = 1
	while ((getline line < doc) > 0) {
		lineno++
		folder = ""
		# Words are made of the characters of paths, globs and groups.
		gsub(/[^]A-Za-z0-9_.\/*?{},[-]+/, " ", line)
		nw = split(line, w, " ")
		for (j = 1; j <= nw; j++) {
			tok = w[j]
			# A comma outside a {} group ends a word.
			while (tok != "") {
				if (match(tok, /^[^,{]*(\{[^}]*\}[^,{]*)*/) && RLENGTH > 0) {
					one = substr(tok, 1, RLENGTH)
					tok = substr(tok, RLENGTH + 2)
				} else {
					one = tok
					tok = ""
				}
				sub(/[.:]+$/, "", one)
				if (one == "src/") {
					folder = ""
					continue
				}
				insrc = sub(/^src\//, "", one)
				if (one ~ /\/$/) {
					if (isdir[one])
						folder = one
					continue
				}
				if (one !~ /\.(c|h|\[ch\])$/)
					continue
				if (one ~ /\//) {
					top = one
					sub(/\/.*/, "/", top)
					if (!insrc && !isdir[top])
						continue
				} else {
					one = folder one
				}
				m = expand(one, names)
				for (k = 1; k <= m; k++)
					name(names[k], shown ":" lineno)
			}
		}
	}
	close(doc)
	for (i = 1; i <= nfiles; i++)
		if (!(file[i] in named))
			printf "missing: %s\n", file[i]
}
') || exit 2
test -z "$report" && exit 0
printf '%s\n' "$report"
exit 1
