#!/bin/sh

test_description='verify: drift attribution names the commits

A token is committed, then changed three times, with an unrelated commit
in between.  For each recorded version, verify must name the newest
commit that still had it and the commit that changed it.'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"

# A sidecar pinning tokens/t.yml with the hash $1 (brief null).
sidecar () {
	cat <<-EOF
	{
	  "schema_version": 1,
	  "kind": "critique",
	  "ahd_version": "0.11.0",
	  "ahd_commit": null,
	  "git_dirty": null,
	  "node_version": "v22.0.0",
	  "platform": "linux-x64",
	  "invoked_at": "2026-08-03T09:57:42.291Z",
	  "argv": [],
	  "token": {
	    "path": "tokens/t.yml",
	    "hash": "$1"
	  },
	  "brief": null,
	  "sampling": {
	    "n": 1,
	    "temperature": null,
	    "seed": null
	  },
	  "models": [],
	  "conditions": {
	    "requested": [],
	    "effective": []
	  }
	}
	EOF
}

# "<12 hex> (<date>, "<subject>")" for a commit of repo.
described () {
	printf '%s (%s, "%s")' \
		"$(git -C repo rev-parse "$1" | cut -c1-12)" \
		"$(git -C repo log -1 --format=%cd --date=short "$1")" \
		"$(git -C repo log -1 --format=%s "$1")"
}

version_hash () {
	printf 'v: %s\n' "$1" >v.yml &&
	vh_=$(ahd-replay hash v.yml) &&
	printf '%s\n' "${vh_%% *}"
}

test_expect_success 'setup: a token in four versions' '
	git init -q repo &&
	mkdir repo/tokens repo/docs &&
	printf "v: 1\n" >repo/tokens/t.yml &&
	git -C repo add tokens &&
	test_tick && git -C repo commit -q -m "token v1" &&
	printf "v: 2\n" >repo/tokens/t.yml &&
	test_tick && git -C repo commit -q -am "token v2" &&
	echo readme >repo/README &&
	git -C repo add README &&
	test_tick && git -C repo commit -q -m "unrelated" &&
	printf "v: 3\n" >repo/tokens/t.yml &&
	test_tick && git -C repo commit -q -am "token v3" &&
	printf "v: 4\n" >repo/tokens/t.yml &&
	test_tick && git -C repo commit -q -am "token v4" &&
	h1=$(version_hash 1) && h2=$(version_hash 2) && h3=$(version_hash 3) &&
	sidecar "$h1" >repo/docs/one.replay.json &&
	sidecar "$h2" >repo/docs/two.replay.json &&
	sidecar "$h3" >repo/docs/three.replay.json &&
	sidecar "sha256:$(printf x | sha256sum | cut -c1-64)" \
		>repo/docs/never.replay.json
'

test_expect_success 'version 2: still there at the unrelated commit, changed by v3' '
	(cd repo && test_expect_code 1 ahd-replay verify docs/two.replay.json) >actual &&
	printf "  note: token: tokens/t.yml last had the recorded hash at %s, in place since %s; changed by %s\n" \
		"$(described HEAD~2)" "$(described HEAD~3)" "$(described HEAD~1)" >expect &&
	grep "^  note: token" actual >note &&
	test_cmp expect note
'

test_expect_success 'version 1: its own commit, changed by v2' '
	(cd repo && test_expect_code 1 ahd-replay verify docs/one.replay.json) >actual &&
	printf "  note: token: tokens/t.yml last had the recorded hash at %s; changed by %s\n" \
		"$(described HEAD~4)" "$(described HEAD~3)" >expect &&
	grep "^  note: token" actual >note &&
	test_cmp expect note
'

test_expect_success 'version 3: changed by the last commit' '
	(cd repo && test_expect_code 1 ahd-replay verify docs/three.replay.json) >actual &&
	printf "  note: token: tokens/t.yml last had the recorded hash at %s; changed by %s\n" \
		"$(described HEAD~1)" "$(described HEAD)" >expect &&
	grep "^  note: token" actual >note &&
	test_cmp expect note
'

test_expect_success 'a hash that never occurs says so' '
	(cd repo && test_expect_code 1 ahd-replay verify docs/never.replay.json) >actual &&
	test_grep "^  note: token: the recorded hash never occurs in the history of tokens/t.yml$" actual
'

test_expect_success 'one run over many reports: each gets its own version'"'"'s note' '
	cp repo/docs/two.replay.json repo/docs/two-again.replay.json &&
	for r in never one three two two-again
	do
		(cd repo && test_expect_code 1 ahd-replay verify docs/$r.replay.json) >actual &&
		grep "^  note: token" actual >>expect-all || return 1
	done &&
	(cd repo && test_expect_code 1 ahd-replay verify --all) >actual &&
	grep "^  note: token" actual >notes &&
	test_cmp expect-all notes &&
	rm repo/docs/two-again.replay.json
'

test_expect_success 'verify --at names the commits below that commit' '
	(cd repo && test_expect_code 1 ahd-replay verify --at=HEAD~1 docs/two.replay.json) >actual &&
	printf "  note: token: tokens/t.yml last had the recorded hash at %s, in place since %s; changed by %s\n" \
		"$(described HEAD~2)" "$(described HEAD~3)" "$(described HEAD~1)" >expect &&
	grep "^  note: token" actual >note &&
	test_cmp expect note
'

WALKS=$TEST_BUILD_DIR/t/helper/test-verify-walks

test_expect_success 'test-verify-walks is built' '
	test -x "$WALKS" || {
		echo "missing $WALKS (built by make check)" >&2
		false
	}
'

test_expect_success 'many sidecars pinning hashes of one token: one history walk' '
	mkdir repo/docs/many &&
	for i in 1 2 3 4 5 6 7 8 9 10 11 12
	do
		sidecar "sha256:$(printf "fake %s" $i | sha256sum | cut -c1-64)" \
			>repo/docs/many/fake$i.replay.json || return 1
	done &&
	cp repo/docs/one.replay.json repo/docs/two.replay.json \
		repo/docs/many/ &&
	(cd repo && "$WALKS" docs/many/*.replay.json) >actual &&
	test_grep "^walks: 1$" actual &&
	test $(grep -c "^  note: token: the recorded hash never occurs in the history of tokens/t.yml$" actual) = 12 &&
	(cd repo && test_expect_code 1 ahd-replay verify docs/two.replay.json) >one &&
	grep "^  note: token" one >expect &&
	sed -n "/^docs\/many\/two.replay.json$/{n;p;}" actual >note &&
	test_cmp expect note
'

test_expect_success 'the same hash pinned by many sidecars is answered once per walk' '
	(cd repo && "$WALKS" docs/one.replay.json docs/many/one.replay.json \
		docs/many/two.replay.json docs/two.replay.json) >actual &&
	test_grep "^walks: 1$" actual &&
	grep "^  note" actual >notes &&
	test_line_count = 4 notes &&
	test "$(sed -n 1p notes)" = "$(sed -n 2p notes)" &&
	test "$(sed -n 3p notes)" = "$(sed -n 4p notes)"
'

test_expect_success 'a token and a brief: one walk per path' '
	printf "# brief\n" >repo/brief.md &&
	git -C repo add brief.md &&
	test_tick && git -C repo commit -q -m "brief" &&
	printf "# brief, changed\n" >repo/brief.md &&
	sed -e "s|\"brief\": null|\"brief\": {\"path\": \"brief.md\", \"hash\": \"sha256:$(printf "# brief\n" | sha256sum | cut -c1-64)\"}|" \
		repo/docs/many/fake1.replay.json >repo/docs/many/with-brief.replay.json &&
	(cd repo && "$WALKS" docs/many/*.replay.json) >actual &&
	test_grep "^walks: 2$" actual &&
	test_grep "^  note: brief: the committed brief.md at .* has the recorded hash; the change is not committed$" actual &&
	git -C repo checkout -q brief.md &&
	rm repo/docs/many/with-brief.replay.json
'

test_expect_success '--no-attribution: no history walk and no note, the drift still fails' '
	(cd repo && "$WALKS" --no-attribution docs/many/*.replay.json) >actual &&
	test_grep "^walks: 0$" actual &&
	! grep "^  note: token" actual &&
	(cd repo && test_expect_code 1 ahd-replay verify --no-attribution docs/two.replay.json) >actual &&
	test_grep "^  FAIL  token: token contents have changed" actual &&
	test_grep "^verdict: drift detected$" actual &&
	! grep "^  note: token" actual
'

test_expect_success 'verify --at: one walk from that commit for all the hashes' '
	(cd repo && "$WALKS" --at=HEAD~1 docs/many/*.replay.json) >actual &&
	test_grep "^walks: 1$" actual &&
	test_grep "^  note: token: tokens/t.yml last had the recorded hash at" actual
'

test_expect_success 'a shallow clone: the history is truncated, not an error' '
	git clone -q --depth 2 "file://$TRASH_DIRECTORY/repo" shallow &&
	mkdir shallow/docs &&
	cp repo/docs/one.replay.json shallow/docs/ &&
	(cd shallow && test_expect_code 1 ahd-replay verify docs/one.replay.json) >actual &&
	test_grep "never occurs in the history of tokens/t.yml (the history is truncated: a shallow clone)" actual
'

test_done
