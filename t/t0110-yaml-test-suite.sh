#!/bin/sh

test_description='hash: the public YAML test suite against the reference verdicts

Every line of t/vectors/yaml-test-suite/expected.tsv (the
verdict of yaml@2.8.3 for each in.yaml and in.json of the suite) is
checked without Node: the same hash where the reference hashes, an error
where it throws.  The files we still refuse are listed below by case,
with the reason; a refusal not listed fails, and so does a listed case
that now hashes (take it off the list).'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"

SUITE=$TEST_DIRECTORY/vectors/yaml-test-suite

# Case (path under cases/ without /in.yaml), then the reason; none today.
: >refusals.expect

test_expect_success 'every verdict of the suite: same hash, or an error' '
	test -f "$SUITE/expected.tsv" &&
	: >wrong &&
	: >refused &&
	tab=$(printf "\t") &&
	grep -v "^#" "$SUITE/expected.tsv" >verdicts &&
	while IFS=$tab read -r path verdict rest
	do
		if ahd-replay hash "$SUITE/$path" >out 2>err
		then
			read -r got name <out &&
			if test "$verdict" = ERROR
			then
				echo "$path: the reference throws, we hash" >>wrong
			elif test "$got" != "$verdict"
			then
				echo "$path: $got, the reference $verdict" >>wrong
			fi
		elif test "$verdict" != ERROR
		then
			case=${path#cases/} &&
			echo "${case%/in.*}" >>refused
		fi || return 1
	done <verdicts &&
	test_line_count -gt 600 verdicts &&
	test_must_be_empty wrong &&
	cut -f1 refusals.expect | sort >refusals.ids &&
	sort refused >refused.ids &&
	test_cmp refusals.ids refused.ids
'

test_done
