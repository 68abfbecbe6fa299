#!/bin/sh
# compare.sh: classify the differences between the reference's results
# (t/oracle/oracle.mjs) and ours (t/helper/test-hash-batch) for a corpus.
#
# usage: compare.sh [--corpus FILE] [--examples N] [--dump DIR]
#                   [--max-unsupported PCT] EXPECTED OURS
#
# EXPECTED and OURS hold one line per record of the corpus:
#	ok <payload>            (payload: sha256:<hex>, or canonical JSON)
#	error <message>
#	unsupported <message>   (ours only)
# Every record falls in one class:
#	agree-hash        both ok, same payload
#	agree-error       the reference throws, we print error or unsupported
#	WRONG-HASH        both ok, different payloads
#	UNSUPPORTED       the reference hashes, we print unsupported or error
#	ACCEPTED-INVALID  the reference throws, we hash
#	BAD-OUTPUT        a line that is none of the above, or a missing/extra line
# Prints the counts, the first N (default 5) examples of each disagreement
# class (record index from 0, both lines, and the first 200 bytes of the
# document, escaped, when --corpus is given; the corpus must then have as
# many records as EXPECTED has lines), and the most frequent
# unsupported messages.  --dump DIR writes every disagreeing record to
# DIR/<index>-<class>.yaml (raw bytes) and .txt (both result lines).
#
# Exit status: 0 when WRONG-HASH, ACCEPTED-INVALID and BAD-OUTPUT are zero
# and UNSUPPORTED is below PCT percent of the records (default 0.5);
# 1 otherwise; 2 on a usage or corpus format error.
#
# Plain POSIX sh and awk (mawk or gawk), so the checked-in vectors can be
# compared on a machine without Node.

LC_ALL=C
export LC_ALL

usage () {
	echo "usage: compare.sh [--corpus FILE] [--examples N] [--dump DIR] [--max-unsupported PCT] EXPECTED OURS" >&2
	exit 2
}

corpus=
examples=5
dump=
maxpct=0.5
while test $# -gt 0
do
	case $1 in
	--corpus) test $# -ge 2 || usage; corpus=$2; shift 2 ;;
	--corpus=*) corpus=${1#*=}; shift ;;
	--examples) test $# -ge 2 || usage; examples=$2; shift 2 ;;
	--examples=*) examples=${1#*=}; shift ;;
	--dump) test $# -ge 2 || usage; dump=$2; shift 2 ;;
	--dump=*) dump=${1#*=}; shift ;;
	--max-unsupported) test $# -ge 2 || usage; maxpct=$2; shift 2 ;;
	--max-unsupported=*) maxpct=${1#*=}; shift ;;
	-h|--help) sed -n '2,30p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	--) shift; break ;;
	-*) usage ;;
	*) break ;;
	esac
done
test $# = 2 || usage
expected=$1
ours=$2
for f in "$expected" "$ours" ${corpus:+"$corpus"}
do
	test -r "$f" || { echo "compare.sh: cannot read '$f'" >&2; exit 2; }
done
case $examples in
''|*[!0-9]*) usage ;;
esac
if test -n "$dump"
then
	mkdir -p "$dump" || exit 2
fi

awk -v ref="$expected" -v ours="$ours" -v corpus="$corpus" \
    -v nex="$examples" -v dump="$dump" -v maxpct="$maxpct" '
function kind(l) {
	if (substr(l, 1, 3) == "ok ") return "ok"
	if (l == "error" || substr(l, 1, 6) == "error ") return "error"
	if (l == "unsupported" || substr(l, 1, 12) == "unsupported ") return "unsupported"
	return "bad"
}
function short(l) {
	return length(l) > 240 ? substr(l, 1, 240) "..." : l
}
function note(i, cls) {
	count[cls]++
	if (dump != "" || count[cls] <= nex) {
		want[i] = cls
		nwant++
	}
}
function esc(s,    out, i, c, n) {
	out = ""
	n = length(s)
	for (i = 1; i <= n; i++) {
		c = substr(s, i, 1)
		if (c == "\\") out = out "\\\\"
		else if (c == "\n") out = out "\\n"
		else if (c == "\r") out = out "\\r"
		else if (c == "\t") out = out "\\t"
		else if (c == "\"") out = out "\\\""
		else if ((c in ORD) && ORD[c] >= 32 && ORD[c] < 127) out = out c
		else out = out sprintf("\\x%02x", (c in ORD) ? ORD[c] : 0)
	}
	return out
}
function msgkey(l) {
	sub(/^[a-z]+ /, "", l)
	gsub(/[0-9]+/, "N", l)
	return substr(l, 1, 90)
}
BEGIN {
	for (i = 1; i < 256; i++) ORD[sprintf("%c", i)] = i
	n = 0
	while ((r = getline line < ref) > 0) R[n++] = line
	if (r < 0) { print "compare.sh: cannot read " ref > "/dev/stderr"; exit 2 }
	close(ref)
	m = 0
	while ((r = getline line < ours) > 0) O[m++] = line
	if (r < 0) { print "compare.sh: cannot read " ours > "/dev/stderr"; exit 2 }
	close(ours)
	split("agree-hash agree-error WRONG-HASH UNSUPPORTED ACCEPTED-INVALID BAD-OUTPUT", CLS, " ")
	for (c = 1; c <= 6; c++) count[CLS[c]] = 0
	unsup_err = 0
	nwant = 0
	for (i = 0; i < n; i++) {
		rl = R[i]
		ol = (i < m) ? O[i] : "<missing line>"
		rk = kind(rl)
		ok = (i < m) ? kind(ol) : "bad"
		if (rk == "bad" || rk == "unsupported" || ok == "bad") note(i, "BAD-OUTPUT")
		else if (rk == "ok" && ok == "ok") {
			if (rl == ol) count["agree-hash"]++
			else note(i, "WRONG-HASH")
		} else if (rk == "error" && ok != "ok") count["agree-error"]++
		else if (rk == "ok") {
			note(i, "UNSUPPORTED")
			if (ok == "error") unsup_err++
			k = msgkey(ol)
			if (!(k in umsg)) uorder[nu++] = k
			umsg[k]++
		} else note(i, "ACCEPTED-INVALID")
	}
	extra = m > n ? m - n : 0
	count["BAD-OUTPUT"] += extra

	# Fetch the documents of the examples from the corpus.
	corpus_bad = ""
	if (corpus != "") {
		idx = 0
		while ((r = getline line < corpus) > 0) {
			if (substr(line, 1, 1) != "#" || line !~ /^#[0-9]+$/) {
				corpus_bad = "record " idx ": bad header"
				break
			}
			len = substr(line, 2) + 0
			keep = (idx in want)
			data = ""
			got = 0
			first = 1
			while (got < len + 1) {
				if ((getline l2 < corpus) <= 0) { corpus_bad = "record " idx ": truncated"; break }
				if (keep) data = first ? l2 : data "\n" l2
				first = 0
				got += length(l2) + 1
			}
			if (corpus_bad != "") break
			if (got != len + 1) { corpus_bad = "record " idx ": length mismatch"; break }
			if (keep) DOC[idx] = data
			idx++
		}
		close(corpus)
		if (corpus_bad == "" && idx != n)
			corpus_bad = "corpus has " idx " records, expected output has " n " lines"
	}

	print "records: " n
	for (c = 1; c <= 6; c++) {
		cls = CLS[c]
		extra_txt = ""
		if (cls == "UNSUPPORTED")
			extra_txt = sprintf(" (%.3f%%; %d of them error, not unsupported)", n ? 100 * count[cls] / n : 0, unsup_err)
		if (cls == "BAD-OUTPUT" && (extra || m < n))
			extra_txt = " (ours has " m " lines for " n " records)"
		print cls ": " count[cls] extra_txt
	}
	if (corpus_bad != "") print "corpus: " corpus_bad

	for (c = 3; c <= 6; c++) {
		cls = CLS[c]
		shown = 0
		for (i = 0; i < n && shown < nex; i++) {
			if (!(i in want) || want[i] != cls) continue
			shown++
			print ""
			print cls " example: record " i
			print "  reference: " short(R[i])
			print "  ours:      " short(i < m ? O[i] : "<missing line>")
			if (i in DOC) {
				d = DOC[i]
				print "  document (" length(d) " bytes): \"" esc(substr(d, 1, 200)) "\"" (length(d) > 200 ? "..." : "")
			}
		}
	}
	if (nu > 0) {
		print ""
		print "unsupported messages (most frequent first):"
		for (j = 0; j < nu; j++) ORDU[j] = uorder[j]
		# selection of the top 10
		for (t = 0; t < 10 && t < nu; t++) {
			best = -1
			for (j = 0; j < nu; j++)
				if (!(j in usedu) && (best < 0 || umsg[ORDU[j]] > umsg[ORDU[best]])) best = j
			usedu[best] = 1
			printf "  %6d  %s\n", umsg[ORDU[best]], ORDU[best]
		}
	}
	if (dump != "") {
		for (k in want) {
			i = k + 0
			f = sprintf("%s/%06d-%s", dump, i, want[k])
			if (i in DOC) { printf "%s", DOC[i] > (f ".yaml"); close(f ".yaml") }
			print "reference: " R[i] > (f ".txt")
			print "ours:      " (i < m ? O[i] : "<missing line>") > (f ".txt")
			close(f ".txt")
		}
		print ""
		print "disagreeing records written to " dump
	}

	fail = ""
	if (n == 0) fail = fail " no records;"
	if (count["WRONG-HASH"] > 0) fail = fail " wrong hashes;"
	if (count["ACCEPTED-INVALID"] > 0) fail = fail " accepted invalid input;"
	if (count["BAD-OUTPUT"] > 0) fail = fail " malformed or missing output lines;"
	if (corpus_bad != "") fail = fail " corpus does not match the output;"
	if (n > 0 && 100 * count["UNSUPPORTED"] >= maxpct * n) fail = fail " unsupported at or above " maxpct "%;"
	print ""
	if (fail == "") { print "result: PASS"; exit 0 }
	print "result: FAIL:" fail
	exit 1
}'
