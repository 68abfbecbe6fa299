#!/bin/sh

test_description='log verify --max-line-bytes: a line over the limit refuses the log

The log is read in large blocks, a line checked where it lies; a line
longer than the limit (64 MiB unless --max-line-bytes says otherwise)
refuses the log before more of it is read, so memory stays bounded
whatever one line holds.'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"

W=$TEST_BUILD_DIR/t/helper/test-eventlog-writer

test_expect_success 'setup: a log and the length of its longest line' '
	"$W" --gen 3 >good.jsonl &&
	test_line_count = 8 good.jsonl &&
	awk "{ if (length(\$0) > n) n = length(\$0) } END { print n }" \
		good.jsonl >longest &&
	test "$(cat longest)" -gt 200
'

test_expect_success 'a line as long as the limit passes, one byte over is refused' '
	n=$(cat longest) &&
	ahd-replay log verify -q --max-line-bytes=$n good.jsonl >out 2>err &&
	test_must_be_empty out &&
	test_must_be_empty err &&
	test_expect_code 2 ahd-replay log verify --max-line-bytes=$((n - 1)) \
		good.jsonl >out 2>err &&
	test_grep "^ahd-replay: good.jsonl: line 2: longer than the limit of $((n - 1)) bytes (--max-line-bytes)\$" err &&
	test_must_be_empty out
'

test_expect_success 'the problems before the long line are reported, then the refusal' '
	sed "2s/sha256:[0-9a-f]*/sha256:0000/" good.jsonl >bad.jsonl &&
	awk "NR == 5 { printf \"%s\", \$0; for (i = 0; i < 2000; i++) printf \"x\"; print \"\"; next } { print }" \
		bad.jsonl >long.jsonl &&
	test_expect_code 2 ahd-replay log verify -q --max-line-bytes=1k \
		long.jsonl >out 2>err &&
	test_grep "^long.jsonl:2: params_hash: " out &&
	test_line_count = 1 out &&
	test_grep "line 5: longer than the limit of 1 KiB" err
'

test_expect_success 'a last line without its newline is held to the limit too' '
	sed "\$d" good.jsonl >open.jsonl &&
	printf "{\"event\":\"Telemetry\",\"pad\":\"%2000s\"}" "" >>open.jsonl &&
	ahd-replay log verify open.jsonl >out &&
	test_grep "8 lines, 3 tool calls, 0 problems, 1 unknown events" out &&
	test_expect_code 2 ahd-replay log verify -q --max-line-bytes=1k \
		open.jsonl >out 2>err &&
	test_grep "line 8: longer than the limit of 1 KiB" err
'

test_expect_success 'json and --canonicalize: the refusal is the error, the log stays' '
	awk "NR == 2 { sub(/,/, \", \") } { print }" good.jsonl >loose.jsonl &&
	awk "NR == 4 { printf \"%s\", \$0; for (i = 0; i < 2000; i++) printf \" \"; print \"\"; next } { print }" \
		loose.jsonl >spaced.jsonl &&
	cp spaced.jsonl spaced.orig &&
	test_expect_code 2 ahd-replay log verify --canonicalize \
		--max-line-bytes=1k spaced.jsonl 2>err &&
	test_grep "line 4: longer than the limit of 1 KiB" err &&
	test_cmp spaced.orig spaced.jsonl &&
	ls >files &&
	test_grep ! tmp- files &&
	test_expect_code 2 ahd-replay log verify --format=json \
		--max-line-bytes=1k spaced.jsonl >out.json 2>err &&
	ahd-replay canon --jcs out.json >canon &&
	test_grep "\"error\":\"line 4: longer than the limit of 1 KiB (--max-line-bytes)\"" canon &&
	test_grep "\"exit_status\":2" canon
'

test_expect_success 'lines longer than one read are whole lines' '
	"$W" --gen 4 600000 >wide.jsonl &&
	test "$(wc -c <wide.jsonl)" -gt 2400000 &&
	ahd-replay log verify wide.jsonl >out &&
	echo "wide.jsonl: 10 lines, 4 tool calls, 0 problems, 0 unknown events, 0 unknown fields" >expect &&
	test_cmp expect out &&
	test_expect_code 2 ahd-replay log verify --max-line-bytes=500k \
		wide.jsonl 2>err &&
	test_grep "line 2: longer than the limit of 500 KiB" err
'

test_expect_success 'the limit must be a size' '
	test_expect_code 2 ahd-replay log verify --max-line-bytes=0 good.jsonl 2>err &&
	test_grep "invalid" err &&
	test_expect_code 2 ahd-replay log verify --max-line-bytes=lots good.jsonl 2>err &&
	test_grep "invalid" err &&
	ahd-replay log verify -h >out &&
	test_grep "max-line-bytes=<n>" out
'

# Peak RSS only where /usr/bin/time reports it and no sanitizer inflates it.
test_lazy_prereq TIME_RSS '
	/usr/bin/time -v true 2>out &&
	grep "Maximum resident set size" out &&
	! ldd "$AHD_REPLAY" | grep -q -e asan -e ubsan
'

# peak_kb LOG [OPTION...]: the peak RSS of a log verify expected to exit 2.
peak_kb () {
	test_log_=$1
	shift
	test_expect_code 2 /usr/bin/time -v ahd-replay log verify -q "$@" \
		"$test_log_" 2>rss.out >/dev/null &&
	sed -n "s/.*Maximum resident set size (kbytes): //p" rss.out
}

test_expect_success TIME_RSS 'memory stays bounded: a 40 MB line under a 64k limit' '
	{
		sed 1q good.jsonl &&
		printf "{\"event\":\"" &&
		head -c 40000000 /dev/zero | tr "\\000" a &&
		echo "\"}"
	} >huge.jsonl &&
	{
		sed 1q good.jsonl &&
		head -c 100000 /dev/zero | tr "\\000" a &&
		echo
	} >short.jsonl &&
	small=$(peak_kb short.jsonl --max-line-bytes=64k) &&
	capped=$(peak_kb huge.jsonl --max-line-bytes=64k) &&
	test_grep "longer than the limit of 64 KiB" rss.out &&
	/usr/bin/time -v ahd-replay log verify -q huge.jsonl 2>rss.out &&
	whole=$(sed -n "s/.*Maximum resident set size (kbytes): //p" rss.out) &&
	echo "peak RSS: a 100 kB line $small KiB, the 40 MB line under the limit $capped KiB, read whole $whole KiB" &&
	test "$capped" -lt $((small + 2048)) &&
	test "$whole" -gt $((small + 40000))
'

test_done
