#!/bin/sh

test_description='log verify: the rules of a REPLAY.jsonl event log

Logs come from t/helper/test-eventlog-writer, which prints each event of
its input in canonical form and fills in "@params" and "@raw:FIELD"
hashes; each rule gets a log that breaks it and one that keeps it.'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"

W=$TEST_BUILD_DIR/t/helper/test-eventlog-writer
H1=sha256:1111111111111111111111111111111111111111111111111111111111111111
H2=sha256:2222222222222222222222222222222222222222222222222222222222222222

# write_log OUT: the writer's log of standard input.
write_log () {
	"$W" >"$1"
}

# edit_log OUT SED-SCRIPT: the good log with one edit.
edit_log () {
	sed "$2" good.in | write_log "$1"
}

# check_pass LOG [OPTION...]: exit 0, no problem printed.
check_pass () {
	test_log_=$1
	shift
	ahd-replay log verify -q "$@" "$test_log_" >out 2>err &&
	test_must_be_empty out &&
	test_must_be_empty err
}

# check_fail LOG LINE RULE [OPTION...]: exit 1 and a RULE problem on LINE.
check_fail () {
	test_log_=$1 test_line_=$2 test_rule_=$3
	shift 3
	test_expect_code 1 ahd-replay log verify -q "$@" "$test_log_" >out 2>err &&
	test_must_be_empty err &&
	test_grep "^$test_log_:$test_line_: $test_rule_: " out
}

test_expect_success 'setup: a good log' '
	cat >good.in <<-EOF &&
	{"event":"ReplayHeader","replay_version":1,"producer":"t@1","created_at":"2026-01-13T10:00:00Z"}
	{"event":"SessionStart","t":"2026-01-13T10:00:00Z","session_id":"s1","issue_number":42,"policy_version":"v1"}
	{"event":"ToolCall","t":"2026-01-13T10:00:02Z","id":"tc_1","tool":"file_read","params":{"path":"src/a.rs","w":[1.0,2.5]},"params_hash":"@params","step_id":"step-1"}
	{"event":"ToolResult","t":"2026-01-13T10:00:02.5+00:00","id":"tc_1","output_hash":"$H1","exit_code":null,"step_utility":0.8,"latency_ms":45}
	{"event":"ToolCall","t":"2026-01-13T11:00:03+01:00","id":"tc_2","tool":"shell","params":{"cmd":"cargo test"},"params_hash":"@params","step_id":"step-2"}
	{"event":"ToolResult","t":"2026-01-13T10:00:04Z","id":"tc_2","output_hash":"$H2","exit_code":0,"step_utility":-1,"latency_ms":3}
	{"event":"StepComplete","t":"2026-01-13T10:00:05Z","step_id":"step-2","status":"Success","iterations":1}
	{"event":"SessionEnd","t":"2026-01-13T10:05:32Z","status":"Success","confidence":0.92,"total_tool_calls":2,"total_latency_ms":48}
	EOF
	write_log good.jsonl <good.in &&
	test_line_count = 8 good.jsonl &&
	check_pass good.jsonl &&
	ahd-replay log verify good.jsonl >out &&
	echo "good.jsonl: 8 lines, 2 tool calls, 0 problems, 0 unknown events, 0 unknown fields" >expect &&
	test_cmp expect out
'

test_expect_success 'header: version 1 first, else refused' '
	edit_log v2.jsonl "s/\"replay_version\":1/\"replay_version\":2/" &&
	test_expect_code 2 ahd-replay log verify v2.jsonl >out 2>err &&
	test_grep "replay_version 2 is not supported (this tool reads version 1)" err &&
	edit_log nohead.jsonl 1d &&
	test_expect_code 2 ahd-replay log verify nohead.jsonl 2>err &&
	test_grep "the first line is not a ReplayHeader" err &&
	: >empty.jsonl &&
	test_expect_code 2 ahd-replay log verify empty.jsonl 2>err &&
	test_grep "empty log" err &&
	test_expect_code 2 ahd-replay log verify missing.jsonl 2>err &&
	test_grep "cannot open" err &&
	sed -n 1p good.in | cat good.in - | write_log twohead.jsonl &&
	check_fail twohead.jsonl 9 header
'

test_expect_success 'json: one object with an event string per line' '
	{ cat good.in && echo "RAW {\"event\":" ; } | write_log broken.jsonl &&
	check_fail broken.jsonl 9 json &&
	{ cat good.in && echo "RAW [1,2]" ; } | write_log array.jsonl &&
	check_fail array.jsonl 9 json &&
	{ cat good.in && echo "RAW {\"t\":1}" ; } | write_log noevent.jsonl &&
	check_fail noevent.jsonl 9 json &&
	{ cat good.in && echo "RAW {\"a\":1,\"a\":2,\"event\":\"X\"}" ; } |
	write_log dupkey.jsonl &&
	check_fail dupkey.jsonl 9 json
'

test_expect_success 'unknown events and fields are counted, not problems' '
	{
		sed "3s/\"step_id\"/\"extra\":true,\"step_id\"/" good.in &&
		echo "{\"event\":\"Telemetry\",\"t\":\"not a time\"}"
	} | write_log unknown.jsonl &&
	ahd-replay log verify unknown.jsonl >out &&
	test_grep "0 problems, 1 unknown events, 1 unknown fields" out
'

test_expect_success 'canonical: RFC 8785 form on every line' '
	sed "2s/^/RAW /" good.in | write_log unsorted.jsonl &&
	check_fail unsorted.jsonl 2 canonical &&
	{ sed 1d good.jsonl | sed "s/^/RAW /" >rest && sed 1q good.in &&
	  cat rest ; } | write_log ok.jsonl &&
	check_pass ok.jsonl &&
	sed "4s/0.8/0.80/" good.jsonl >zero.jsonl &&
	check_fail zero.jsonl 4 canonical &&
	sed "3s/\\[1,/[1.0,/" good.jsonl >float.jsonl &&
	! test_cmp good.jsonl float.jsonl &&
	check_fail float.jsonl 3 canonical &&
	sed "5s/,/, /" good.jsonl >space.jsonl &&
	check_fail space.jsonl 5 canonical &&
	sed "5s/\$/ /" good.jsonl >trailing.jsonl &&
	check_fail trailing.jsonl 5 canonical
'

test_expect_success '--canonicalize rewrites a log atomically' '
	sed "s/,/, /g;s/:0.8,/:0.80,/;s/\\[1,/[1.0,/" good.jsonl >loose.jsonl &&
	test_expect_code 1 ahd-replay log verify -q loose.jsonl >out &&
	test_line_count = 8 out &&
	chmod 640 loose.jsonl &&
	ahd-replay log verify -q --canonicalize loose.jsonl >out &&
	test_must_be_empty out &&
	test_cmp good.jsonl loose.jsonl &&
	test "$(ls -l loose.jsonl | cut -c1-10)" = "-rw-r-----" &&
	cp good.jsonl bad.jsonl &&
	echo "not json" >>bad.jsonl &&
	cp bad.jsonl bad.orig &&
	test_expect_code 2 ahd-replay log verify --canonicalize bad.jsonl 2>err &&
	test_grep "line 9: invalid JSON" err &&
	test_cmp bad.orig bad.jsonl &&
	ls >files &&
	test_grep ! tmp- files
'

test_expect_success '--canonicalize through a symlink rewrites its target' '
	sed "s/,/, /g" good.jsonl >target.jsonl &&
	ln -s target.jsonl link.jsonl &&
	ahd-replay log verify -q --canonicalize link.jsonl >out &&
	test -h link.jsonl &&
	test_cmp good.jsonl target.jsonl
'

test_expect_success '--canonicalize refuses a log with several hard links' '
	sed "s/,/, /g" good.jsonl >one.jsonl &&
	ln one.jsonl two.jsonl &&
	cp one.jsonl one.orig &&
	test_expect_code 2 ahd-replay log verify -q --canonicalize one.jsonl 2>err &&
	test_grep "has 2 hard links" err &&
	test_cmp one.orig one.jsonl &&
	test "$(ls -i one.jsonl | cut -d" " -f1)" = "$(ls -i two.jsonl | cut -d" " -f1)"
'

test_lazy_prereq ROOT 'test "$(id -u)" = 0'

test_expect_success ROOT '--canonicalize keeps the owner and the group' '
	sed "s/,/, /g" good.jsonl >owned.jsonl &&
	chown 4321:4322 owned.jsonl &&
	chmod 604 owned.jsonl &&
	ahd-replay log verify -q --canonicalize owned.jsonl >out &&
	test_cmp good.jsonl owned.jsonl &&
	test "$(ls -ln owned.jsonl | tr -s " " | cut -d" " -f1,3,4)" = "-rw----r-- 4321 4322"
'

test_expect_success 'params_hash: the hash of the canonical params' '
	edit_log wrong.jsonl "5s/\"@params\"/\"$H1\"/" &&
	check_fail wrong.jsonl 5 params_hash &&
	test_grep "params_hash $H1 is not the hash of the canonical params" out &&
	edit_log noparams.jsonl "3s/\"params\":{[^}]*},//;3s/\"@params\"/\"$H1\"/" &&
	check_fail noparams.jsonl 3 params_hash &&
	printf "%s" "{\"cmd\":\"cargo test\"}" >params &&
	sed -n 5p good.jsonl >line5 &&
	test_grep "\"params_hash\":\"sha256:$(test_sha256 params)\"" line5
'

test_expect_success 'pairing: a ToolResult follows its open ToolCall' '
	edit_log stray.jsonl "6s/tc_2/tc_9/" &&
	check_fail stray.jsonl 6 pairing &&
	test_grep "ToolResult id tc_9 follows no open ToolCall" out &&
	edit_log twice.jsonl "5s/tc_2/tc_1/;6s/tc_2/tc_1/" &&
	check_pass twice.jsonl &&
	edit_log reuse.jsonl "4d;5s/tc_2/tc_1/;6s/tc_2/tc_1/" &&
	check_fail reuse.jsonl 4 pairing &&
	test_grep "ToolCall id tc_1 is already open" out &&
	{ sed 4q good.in && sed -n 4p good.in ; sed "1,4d" good.in ; } |
	write_log again.jsonl &&
	check_fail again.jsonl 5 pairing &&
	sed "4{s/02.5+00:00/03.5Z/;h;d;};5G" good.in | write_log interleaved.jsonl &&
	check_pass interleaved.jsonl
'

test_expect_success 'pairing: an id holding NUL is no id; a newline stays in its line' '
	edit_log nul.jsonl "3s/\"tc_1\"/\"tc_1\\\\u0000x\"/" &&
	test_grep "tc_1\\\\u0000x" nul.jsonl &&
	check_fail nul.jsonl 3 pairing &&
	test_grep "^nul.jsonl:4: pairing: ToolResult id tc_1 follows no open" out &&
	edit_log newline.jsonl "6s/\"tc_2\"/\"tc_9\\\\nnewline.jsonl:6: receipt: x\"/" &&
	check_fail newline.jsonl 6 pairing &&
	test_line_count = 1 out &&
	test_grep "tc_9?newline.jsonl:6: receipt: x follows" out
'

test_expect_success 'timestamps: ISO-8601 and never backwards' '
	edit_log back.jsonl "7s/10:00:05Z/10:00:03Z/" &&
	check_fail back.jsonl 7 timestamp &&
	edit_log backoff.jsonl "5s/11:00:03+01:00/10:00:03+01:00/" &&
	check_fail backoff.jsonl 5 timestamp &&
	edit_log frac.jsonl "4s/02.5+00:00/01.999Z/" &&
	check_fail frac.jsonl 4 timestamp &&
	edit_log notiso.jsonl "2s/2026-01-13T10:00:00Z/yesterday/" &&
	check_fail notiso.jsonl 2 timestamp &&
	edit_log feb30.jsonl "2s/2026-01-13/2026-02-30/" &&
	check_fail feb30.jsonl 2 timestamp &&
	edit_log not.jsonl "7s/\"t\":\"[^\"]*\",//" &&
	check_fail not.jsonl 7 timestamp &&
	edit_log created.jsonl "1s/2026-01-13T10:00:00Z/13 Jan 2026/" &&
	check_fail created.jsonl 1 timestamp &&
	edit_log same.jsonl "7s/10:00:05Z/10:00:04Z/" &&
	check_pass same.jsonl
'

test_expect_success 'total_tool_calls counts the ToolCall events' '
	edit_log total.jsonl "8s/\"total_tool_calls\":2/\"total_tool_calls\":5/" &&
	check_fail total.jsonl 8 total_tool_calls &&
	test_grep "total_tool_calls is 5, the log has 2 ToolCall events" out
'

test_expect_success 'step_utility lies in [-1, 1]' '
	edit_log high.jsonl "4s/0.8/1.5/" &&
	check_fail high.jsonl 4 step_utility &&
	edit_log low.jsonl "6s/:-1,/:-1.01,/" &&
	check_fail low.jsonl 6 step_utility &&
	edit_log none.jsonl "4s/\"step_utility\":0.8,//" &&
	check_fail none.jsonl 4 step_utility &&
	edit_log one.jsonl "4s/0.8/1/" &&
	check_pass one.jsonl
'

# preview_log OUT PREVIEW [HASH]: the good log with an output_preview
# (and an output_hash) on the first ToolResult.
preview_log () {
	sed "4s/\"output_hash\":\"[^\"]*\"/\"output_hash\":\"${3:-$H1}\",\"output_preview\":\"$2\"/" good.in |
	write_log "$1"
}

test_expect_success 'preview: 2,000 characters, or 1,000 + ... + 1,000' '
	a1000=$(printf "%1000s" "" | tr " " a) &&
	preview_log p2000.jsonl "$a1000$a1000" &&
	check_pass p2000.jsonl &&
	preview_log p2001.jsonl "$a1000${a1000}b" &&
	check_fail p2001.jsonl 4 preview &&
	test_grep "output_preview has 2001 characters" out &&
	preview_log cut.jsonl "$a1000...$a1000" &&
	check_pass cut.jsonl &&
	preview_log offcut.jsonl "${a1000}b..$a1000" &&
	check_fail offcut.jsonl 4 preview &&
	preview_log long.jsonl "$a1000...${a1000}b" &&
	check_fail long.jsonl 4 preview
'

test_expect_success 'preview: characters are code points, not bytes or UTF-16 units' '
	e1000=$(printf "%1000s" "" | sed "s/ /é/g") &&
	smile=$(printf "\360\237\230\200") &&
	s1000=$(printf "%1000s" "" | sed "s/ /$smile/g") &&
	preview_log multi.jsonl "$e1000$s1000" &&
	check_pass multi.jsonl &&
	preview_log multicut.jsonl "$s1000...$e1000" &&
	check_pass multicut.jsonl &&
	preview_log multilong.jsonl "$s1000$s1000$smile" &&
	check_fail multilong.jsonl 4 preview
'

test_expect_success 'preview: stdout keeps 10,000 characters, 5,000 + ... + 5,000' '
	a5000=$(printf "%5000s" "" | tr " " a) &&
	sed "4s/\"id\"/\"stdout\":\"$a5000...$a5000\",\"id\"/" good.in |
	write_log out-cut.jsonl &&
	check_pass out-cut.jsonl &&
	ahd-replay log verify out-cut.jsonl >out &&
	test_grep "0 unknown events, 0 unknown fields" out &&
	sed "4s/\"id\"/\"stdout\":\"$a5000$a5000.\",\"id\"/" good.in |
	write_log out-long.jsonl &&
	check_fail out-long.jsonl 4 preview
'

test_expect_success 'preview_hash: a hash is never of a cut preview' '
	a1000=$(printf "%1000s" "" | tr " " a) &&
	preview_log ofcut.jsonl "$a1000...$a1000" "@raw:output_preview" &&
	check_fail ofcut.jsonl 4 preview_hash &&
	test_grep "output_hash is the hash of the truncated output_preview" out &&
	preview_log ofwhole.jsonl "short output" "@raw:output_preview" &&
	check_pass ofwhole.jsonl
'

test_expect_success '--receipt: output hashes in order, mismatches in the seed words' '
	cat >receipt.json <<-EOF &&
	{"tool_calls":[{"tool":"file_read","output_hash":"$H1"},
	               {"tool":"shell","output_hash":"$H2"}]}
	EOF
	check_pass good.jsonl --receipt=receipt.json &&
	ahd-replay log verify -q good.jsonl --receipt receipt.json >out &&
	test_must_be_empty out &&
	cat >swapped.json <<-EOF &&
	{"tool_calls":[{"tool":"file_read","output_hash":"$H2"},
	               {"tool":"shell","output_hash":"$H1"}]}
	EOF
	test_expect_code 1 ahd-replay log verify -q --receipt=swapped.json good.jsonl >out &&
	cat >expect <<-EOF &&
	good.jsonl:4: receipt: Tool file_read output mismatch: expected $H2, got $H1
	good.jsonl:6: receipt: Tool shell output mismatch: expected $H1, got $H2
	EOF
	test_cmp expect out &&
	cat >short.json <<-EOF &&
	{"tool_calls":[{"tool":"file_read","output_hash":"$H1"}]}
	EOF
	check_fail good.jsonl 8 receipt --receipt=short.json &&
	test_grep "the receipt has 1 tool_calls, the log 2 ToolResult events" out &&
	edit_log nulhash.jsonl "4s/\"$H1\"/\"$H1\\\\u0000\"/" &&
	check_fail nulhash.jsonl 4 receipt --receipt=receipt.json &&
	test_grep "expected $H1, got none" out &&
	echo "{\"tool_calls\":[{}]}" >nohash.json &&
	test_expect_code 2 ahd-replay log verify --receipt=nohash.json good.jsonl 2>err &&
	test_grep "tool_calls\\[0\\] has no output_hash" err
'

test_expect_success 'formats: json and github' '
	edit_log two.jsonl "5s/\"@params\"/\"$H1\"/;8s/:2,/:3,/" &&
	test_expect_code 1 ahd-replay log verify --format=json two.jsonl >out.json &&
	ahd-replay canon --jcs out.json >canon &&
	test_grep "\"exit_status\":1" canon &&
	test_grep "\"problems\":\\[{\"line\":5,\"message\":\"params_hash $H1 is not" canon &&
	test_grep "{\"line\":8,\"message\":\"total_tool_calls is 3, the log has 2 ToolCall events\",\"rule\":\"total_tool_calls\"}\\]" canon &&
	test_grep "\"summary\":{\"lines\":8,\"problems\":2,\"tool_calls\":2" canon &&
	ahd-replay log verify --format=json good.jsonl >out.json &&
	ahd-replay canon --jcs out.json >canon &&
	test_grep "\"error\":null,\"exit_status\":0,\"file\":\"good.jsonl\",\"problems\":\\[\\]" canon &&
	test_expect_code 2 ahd-replay log verify --format=json v2.jsonl >out.json 2>err &&
	ahd-replay canon --jcs out.json >canon &&
	test_grep "\"error\":\"replay_version 2 is not supported" canon &&
	test_expect_code 1 ahd-replay log verify --format=github two.jsonl >out &&
	test_grep "^::error file=two.jsonl,line=5,title=replay log params_hash::params_hash $H1" out &&
	test_line_count = 2 out
'

test_expect_success 'usage errors exit 2' '
	test_expect_code 2 ahd-replay log 2>err &&
	test_expect_code 2 ahd-replay log check good.jsonl 2>err &&
	test_expect_code 2 ahd-replay log verify 2>err &&
	test_expect_code 2 ahd-replay log verify --format=xml good.jsonl 2>err &&
	ahd-replay log verify --help >out &&
	test_grep "usage: ahd-replay log verify" out
'

# Peak RSS only where /usr/bin/time reports it and no sanitizer inflates it.
test_lazy_prereq TIME_RSS '
	/usr/bin/time -v true 2>out &&
	grep "Maximum resident set size" out &&
	! ldd "$AHD_REPLAY" | grep -q -e asan -e ubsan
'

peak_kb () {
	/usr/bin/time -v ahd-replay log verify -q "$1" 2>rss.out >/dev/null &&
	sed -n "s/.*Maximum resident set size (kbytes): //p" rss.out
}

test_expect_success TIME_RSS 'memory stays flat: a 20 MB log needs what a small one does' '
	"$W" --gen 100 >small.jsonl &&
	"$W" --gen 40000 300 >big.jsonl &&
	test "$(wc -c <big.jsonl)" -gt 20000000 &&
	check_pass small.jsonl &&
	check_pass big.jsonl &&
	small=$(peak_kb small.jsonl) &&
	big=$(peak_kb big.jsonl) &&
	echo "peak RSS: small $small KiB, big $big KiB" &&
	test "$big" -lt $((small + 2048))
'

test_done
