#!/bin/sh
#
# check-walls.sh: the house's walls, checked on a source tree.
#
#	tools/check-walls.sh [--rule=NAME]... SRCDIR
#
# SRCDIR is the src/ folder of a checkout (t/t0010-walls.sh also runs it on
# planted copies).  Each broken wall prints one line, "FILE[:LINE]: RULE:
# WHAT", FILE relative to SRCDIR, and the exit status is 1; 0 when every
# wall checked stands, 2 on a usage error.  Without --rule, all rules run.
# Comments and string literals are blanked before any pattern is matched,
# so prose about git_repository_open( breaks nothing; #include lines keep
# their file name.  POSIX sh, awk and grep -E (with \< for a word start).

# ---------------------------------------------------------------------
# The walls.  Paths are relative to SRCDIR; one ending in / is a folder.

# One door per library: a match of ERE may appear only in the files
# ALLOWED lists.  Columns: RULE  ALLOWED (comma-separated)  ERE.
LIBRARY_WALLS='
libgit2	git/,ahd-replay.c	\<git_[a-z0-9_]+[[:space:]]*\(
libgit2	git/,ahd-replay.c	^[[:space:]]*#[[:space:]]*include[[:space:]]*<git2(\.h|/[^>]*)>
jansson	json/	\<json_[a-z_]+[[:space:]]*\(
jansson	json/	\<json_(error_)?t\>
jansson	json/	^[[:space:]]*#[[:space:]]*include[[:space:]]*<jansson\.h>
libyaml	yaml/	\<yaml_[a-z0-9_]+[[:space:]]*\(
libyaml	yaml/	^[[:space:]]*#[[:space:]]*include[[:space:]]*<yaml\.h>
openssl	sign/,hash/digest.c	\<(EVP|OPENSSL|BN|RSA|EC|ERR|PEM)_[A-Za-z0-9_]*
openssl	sign/,hash/digest.c	^[[:space:]]*#[[:space:]]*include[[:space:]]*<openssl/[^>]*>
'

# Name prefixes that belong to the libraries: nothing of ours (a function,
# a struct, union or enum, a typedef, a macro) is named with one.  Macros
# are matched in either case (GIT_*, JSON_* are the libraries' macros).
RESERVED_PREFIXES='git json'

# Files that are their own node in the folder include graph: main() sits
# above every folder and includes them all.
TOP_FILES='ahd-replay.c'

BUILTIN_MAX_LINES=300	# each builtin/*.c
FILE_MAX_LINES=1000	# each .c and .h
FUNCTION_MAX_LINES=120	# a body, from its "{" to its "}" at column 0
# Files above FILE_MAX_LINES by design: the generated power-of-ten table
# (tools/numfmt-table.py).
FILE_SIZE_EXEMPT='json/numfmt.c'

ALL_RULES='libgit2 jansson libyaml openssl names cycles builtin-size
file-size function-size'

# ---------------------------------------------------------------------

# Byte ranges in [a-z], and one sort order.
LC_ALL=C
export LC_ALL

usage () {
	echo "usage: $0 [--rule=NAME]... SRCDIR" >&2
	echo "rules: $(echo $ALL_RULES)" >&2
	exit 2
}

rules=
while test $# -gt 0
do
	case $1 in
	--rule=*)
		rule=${1#--rule=}
		case " $(echo $ALL_RULES) " in
		*" $rule "*) ;;
		*) echo "check-walls: unknown rule '$rule'" >&2; usage ;;
		esac
		rules="$rules $rule" ;;
	-h|--help)
		usage ;;
	-*)
		echo "check-walls: unknown option '$1'" >&2; usage ;;
	*)
		break ;;
	esac
	shift
done
test $# = 1 || usage
test -n "$rules" || rules=$ALL_RULES
srcdir=$1
test -d "$srcdir" || {
	echo "check-walls: '$srcdir' is not a directory" >&2
	exit 2
}

work=$(mktemp -d "${TMPDIR:-/tmp}/check-walls.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# The sources, relative to SRCDIR, one a line, sorted.
(cd "$srcdir" && find . -type f -name '*.[ch]' | sed 's|^\./||' | sort) \
	>"$work/files" || exit 2
test -s "$work/files" || {
	echo "check-walls: no sources in '$srcdir'" >&2
	exit 2
}

# A copy of the tree under $work/code without comments and with string
# and character literals emptied ("", ''); lines keep their numbers.
# Empty files get their (empty) copy here; awk sees no line of them.
(cd "$srcdir" && find . -type d) | while read -r d
do
	mkdir -p "$work/code/$d" || exit 2
done || exit 2
while read -r f
do
	: >"$work/code/$f" || exit 2
done <"$work/files" || exit 2
(cd "$srcdir" && tr '\n' '\0' <"$work/files" |
	xargs -0 awk -v dst="$work/code" '
	FNR == 1 {
		if (out != "")
			close(out)
		out = dst "/" FILENAME
		cmt = 0
		q = ""
	}
	{
		line = $0
		n = length(line)
		res = ""
		cont = 0
		inc = !cmt && q == "" && line ~ /^[ \t]*#[ \t]*include/
		for (i = 1; i <= n; ) {
			c = substr(line, i, 1)
			if (cmt) {
				if (substr(line, i, 2) == "*/") {
					cmt = 0
					i += 2
				} else {
					i++
				}
				continue
			}
			if (q != "") {
				if (c == "\\") {
					if (i == n)
						cont = 1
					i += 2
				} else if (c == q) {
					res = res c
					q = ""
					i++
				} else {
					i++
				}
				continue
			}
			two = substr(line, i, 2)
			if (two == "/*") {
				cmt = 1
				res = res " "
				i += 2
				continue
			}
			if (two == "//")
				break
			if ((c == "\"" && !inc) || c == "\047")
				q = c
			res = res c
			i++
		}
		# A literal ends with its line unless a backslash continues it.
		if (!cont)
			q = ""
		print res > out
	}
') || exit 2

# in_list PATH "A/,B.c": PATH is one of the files or under one of the
# folders listed.
in_list () {
	il_path=$1
	il_saved_ifs=$IFS
	IFS=,
	# shellcheck disable=SC2086
	set -- $2
	IFS=$il_saved_ifs
	for il_entry
	do
		case $il_entry in
		*/) case $il_path in "$il_entry"*) return 0 ;; esac ;;
		*) test "$il_path" = "$il_entry" && return 0 ;;
		esac
	done
	return 1
}

# on_code CMD ARGS...: run CMD ARGS... FILES... in the blanked copy, on
# every source.  Anything on its stderr is a failure of this script (grep
# and awk exit 1 for "nothing found", so their status cannot tell).
on_code () {
	(cd "$work/code" && tr '\n' '\0' <"$work/files" | xargs -0 "$@") \
		2>>"$work/err"
}

# rule_library RULE: the LIBRARY_WALLS lines of RULE.
rule_library () {
	printf '%s\n' "$LIBRARY_WALLS" |
	while IFS='	' read -r lw_rule lw_allowed lw_ere
	do
		test "$lw_rule" = "$1" || continue
		on_code grep -noE -- "$lw_ere" /dev/null >"$work/hits"
		while IFS=: read -r lw_file lw_line lw_what
		do
			in_list "$lw_file" "$lw_allowed" && continue
			echo "$lw_file:$lw_line: $1 outside $lw_allowed: $lw_what"
		done <"$work/hits"
	done
}

# rule_names: definitions of ours that use a library's prefix.
rule_names () {
	on_code awk -v prefixes="$RESERVED_PREFIXES" '
	BEGIN {
		np = split(prefixes, p, " ")
		alt = ""
		for (i = 1; i <= np; i++)
			alt = alt (i > 1 ? "|" : "") p[i]
		ALT = alt
		UALT = toupper(alt)
		id = "[A-Za-z0-9_]*"
	}
	function report(what) {
		printf "%s:%d: names: %s\n", FILENAME, FNR, what
	}
	# A function defined or declared at column 0: the first name followed
	# by "(" on the line, with no "=" before it.
	/^[A-Za-z_]/ && !/^typedef[ \t]/ &&
	    match($0, /[A-Za-z_][A-Za-z0-9_]*[ \t]*\(/) {
		name = substr($0, RSTART, RLENGTH)
		before = substr($0, 1, RSTART - 1)
		sub(/[ \t]*\($/, "", name)
		if (before !~ /=/ && name ~ ("^(" ALT ")_"))
			report("function " name "()")
	}
	# A struct, union or enum of ours with its body.
	match($0, "(^|[^A-Za-z0-9_])(struct|union|enum)[ \t]+(" ALT ")_" id "[ \t]*(\\{|$)") {
		what = substr($0, RSTART, RLENGTH)
		sub(/^[^a-z]*/, "", what)
		sub(/[ \t]*\{?$/, "", what)
		report(what)
	}
	# A typedef name: "typedef ... git_x;" or the "} json_x;" closing one.
	match($0, "(^[ \t]*typedef[ \t].*|^\\}[ \t]*)[^A-Za-z0-9_](" ALT ")_" id "[ \t]*;") {
		what = substr($0, RSTART, RLENGTH)
		sub(/[ \t]*;$/, "", what)
		sub(/.*[^A-Za-z0-9_]/, "", what)
		report("typedef " what)
	}
	match($0, "^[ \t]*#[ \t]*define[ \t]+(" ALT "|" UALT ")_" id) {
		what = substr($0, RSTART, RLENGTH)
		sub(/.*define[ \t]+/, "", what)
		report("macro " what)
	}
	'
}

# rule_cycles: the folder graph of #include "..." lines has no cycle.  A
# folder includes another when one of its files names a header there;
# a bare name is the including file's folder's, else SRCDIR's.  The files
# of SRCDIR itself are the folder "(base)", but for TOP_FILES.
rule_cycles () {
	on_code grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' \
		/dev/null >"$work/includes"
	while IFS=: read -r rc_file rc_line rc_text
	do
		rc_name=${rc_text#*\"}
		rc_name=${rc_name%%\"*}
		case $rc_file in
		*/*) rc_dir=${rc_file%/*}/ ;;
		*) rc_dir= ;;
		esac
		if test -f "$srcdir/$rc_dir$rc_name"
		then
			rc_target=$rc_dir$rc_name
		elif test -f "$srcdir/$rc_name"
		then
			rc_target=$rc_name
		else
			continue	# config.h and other generated headers
		fi
		printf '%s\t%s\t%s\t%s\n' "$rc_file" "$rc_line" "$rc_name" "$rc_target"
	done <"$work/includes" >"$work/edges"
	awk -F '\t' -v top=" $TOP_FILES " '
	function node(path) {
		if (index(top, " " path " "))
			return path
		if (path ~ /\//) {
			sub(/\/.*/, "/", path)
			return path
		}
		return "(base)"
	}
	{
		a = node($1)
		b = node($4)
		if (a == b)
			next
		n++
		ef[n] = $1; el[n] = $2; en[n] = $3; ea[n] = a; eb[n] = b
		if (!((a, b) in adj)) {
			adj[a, b] = 1
			out[a] = out[a] " " b
		}
	}
	# path(from, to): a shortest chain of folders from "from" to "to".
	function path(from, to,
	    queue, head, tail, seen, prev, cur, k, nb, m, res) {
		head = 1; tail = 1; queue[1] = from; seen[from] = 1
		while (head <= tail) {
			cur = queue[head++]
			if (cur == to)
				break
			m = split(out[cur], nb, " ")
			for (k = 1; k <= m; k++)
				if (!(nb[k] in seen)) {
					seen[nb[k]] = 1
					prev[nb[k]] = cur
					queue[++tail] = nb[k]
				}
		}
		if (!(to in seen))
			return ""
		res = to
		for (cur = to; cur != from; cur = prev[cur])
			res = prev[cur] " -> " res
		return res
	}
	END {
		for (i = 1; i <= n; i++) {
			back = path(eb[i], ea[i])
			if (back != "")
				printf "%s:%s: cycles: %s -> %s: #include \"%s\"\n",
					ef[i], el[i], ea[i], back, en[i]
		}
	}
	' "$work/edges"
}

# rule_size NAME MAX GLOB: files matching GLOB have at most MAX lines.
rule_size () {
	while read -r rs_file
	do
		# shellcheck disable=SC2254
		case $rs_file in
		$3) ;;
		*) continue ;;
		esac
		test "$1" = file-size &&
			in_list "$rs_file" "$(echo $FILE_SIZE_EXEMPT | tr ' ' ,)" &&
			continue
		rs_lines=$(wc -l <"$srcdir/$rs_file") || return 1
		rs_lines=$((rs_lines + 0))
		test "$rs_lines" -gt "$2" &&
			echo "$rs_file: $1: $rs_lines lines, more than $2"
	done <"$work/files"
}

# rule_function_size: a function body opens with "{" at column 0 and
# closes with the "}" that brings the depth back to zero.
rule_function_size () {
	on_code awk -v max="$FUNCTION_MAX_LINES" '
	FNR == 1 {
		depth = 0
		infn = 0
		name = "?"
	}
	depth == 0 && /^[A-Za-z_]/ &&
	    match($0, /[A-Za-z_][A-Za-z0-9_]*[ \t]*\(/) {
		name = substr($0, RSTART, RLENGTH)
		sub(/[ \t]*\($/, "", name)
	}
	depth == 0 && /^\{/ {
		infn = 1
		start = FNR
	}
	{
		line = $0
		opens = gsub(/\{/, "", line)
		closes = gsub(/\}/, "", line)
		depth += opens - closes
		if (depth < 0)
			depth = 0
		if (infn && depth == 0) {
			infn = 0
			len = FNR - start + 1
			if (len > max)
				printf "%s:%d: function-size: %s() is %d lines, more than %d\n",
					FILENAME, start, name, len, max
		}
	}
	'
}

for rule in $rules
do
	case $rule in
	libgit2|jansson|libyaml|openssl)
		rule_library "$rule" ;;
	names)
		rule_names ;;
	cycles)
		rule_cycles ;;
	builtin-size)
		rule_size builtin-size "$BUILTIN_MAX_LINES" 'builtin/*.c' ;;
	file-size)
		rule_size file-size "$FILE_MAX_LINES" '*' ;;
	function-size)
		rule_function_size ;;
	esac
done >"$work/report" 2>>"$work/err"
if test -s "$work/err"
then
	cat "$work/err" >&2
	echo "check-walls: the checks themselves failed" >&2
	exit 2
fi
cat "$work/report"
test ! -s "$work/report"
