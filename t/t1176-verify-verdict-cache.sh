#!/bin/sh

test_description='verify: the verdict level of the cache

A warm run answers a report from an entry keyed by the SHA-256 of its
sidecar'"'"'s and its markdown'"'"'s bytes and parses neither: it prints
byte for byte what a cold run and a --no-cache run print, in every
format.  Whatever else the verdict depends on (the inputs, the .sig,
the trust files, the options) is checked on every run, so an edit to
any of them within the same second, to the same size and mtime, is
seen; an entry that is not in the spelling written is not believed.'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"

. "$TEST_SRC_DIR/t/lib-sidecar.sh"

store=repo/.git/ahd-replay/cache/store

# reseal STORE: recompute its checksum line after an edit.
reseal () {
	sed '$d' "$1" >store.body &&
	cp store.body "$1" &&
	printf 'sha256:%s\n' "$(test_sha256 store.body)" >>"$1"
}

# verdict_key SIDECAR [MARKDOWN]: the key of the entry for these bytes.
verdict_key () {
	if test -n "${2:-}"
	then
		vk_md=sha256:$(test_sha256 "$2")
	else
		vk_md=-
	fi
	printf "sha256:%s %s" "$(test_sha256 "$1")" "$vk_md" >vk.in &&
	printf "vd.%s\n" "$(test_sha256 vk.in)"
}

# same_as_uncached ARGS...: verify ARGS in repo, warm (twice) and without
# the cache, in each format: the same bytes and the same exit status.
same_as_uncached () {
	for fmt in text json sarif junit github
	do
		(cd repo && ahd-replay verify --format=$fmt "$@" >../cold.$fmt;
		 echo $? >../cold.rc) &&
		(cd repo && ahd-replay verify --format=$fmt "$@" >../warm.$fmt;
		 echo $? >../warm.rc) &&
		(cd repo && ahd-replay verify --no-cache --format=$fmt "$@" \
			>../none.$fmt; echo $? >../none.rc) &&
		test_cmp none.$fmt cold.$fmt &&
		test_cmp none.$fmt warm.$fmt &&
		test_cmp none.rc cold.rc &&
		test_cmp none.rc warm.rc || return 1
	done
}

test_expect_success 'setup: reports with and without markdown' '
	git init -q repo &&
	mkdir -p repo/tokens repo/briefs repo/docs &&
	printf "{\"name\": \"@adastracomputing/ahd\"}\n" >repo/package.json &&
	printf "id: x\ncolor: {ink: \"#111111\"}\n" >repo/tokens/x.yml &&
	printf "id: t\nsize: 1\n" >repo/briefs/b.yml &&
	printf "# Brief\n\nDo it.\n" >repo/briefs/m.md &&
	(
		cd repo &&
		write_sidecar --brief-structured docs/a.replay.json \
			tokens/x.yml briefs/b.yml &&
		{
			printf "# A\n\n" &&
			ahd-replay render docs/a.replay.json &&
			printf "\nDone.\n"
		} >docs/a.md &&
		write_sidecar --kind=critique --dirty=true --commit=null \
			--extra="
  \"odd%key\": 1," docs/b.replay.json tokens/x.yml &&
		write_sidecar --token-path=/home/runner/work/ahd/ahd/tokens/x.yml \
			docs/c.replay.json tokens/x.yml briefs/m.md &&
		printf "# C\n\nno block here\n" >docs/c.md
	) &&
	git -C repo add -A &&
	test_tick && git -C repo commit -q -m reports &&
	(cd repo && ahd-replay verify --no-cache) >expect &&
	test_grep "^3 reports: 3 intact" expect &&
	test_grep "re-rooted" expect &&
	test_grep "unknown fields" expect &&
	test_path_is_missing "$store"
'

test_expect_success 'a cold run writes an entry per report, keyed by the bytes' '
	(cd repo && ahd-replay verify) >actual &&
	test_cmp expect actual &&
	for r in a c
	do
		key=$(verdict_key repo/docs/$r.replay.json repo/docs/$r.md) &&
		test_grep "^$key p1," "$store" || return 1
	done &&
	key=$(verdict_key repo/docs/b.replay.json) &&
	test_grep "^$key p1,critique,0.11.0,~,1," "$store" &&
	test_grep "^$key .*,odd%25key [0-9]*$" "$store"
'

test_expect_success 'a warm run hits every entry: it adds nothing to the store' '
	cp "$store" before &&
	(cd repo && ahd-replay verify) >actual &&
	test_cmp expect actual &&
	test_cmp before "$store"
'

test_expect_success 'warm, cold and --no-cache print the same in every format' '
	rm -rf repo/.git/ahd-replay &&
	same_as_uncached &&
	same_as_uncached docs/a.md docs/b.replay.json
'

test_expect_success 'control: a sealed entry is believed, so a hit parses nothing' '
	test_when_finished "rm -rf repo/.git/ahd-replay" &&
	key=$(verdict_key repo/docs/a.replay.json repo/docs/a.md) &&
	sed "/^$key /s/2026-08-03T09/1999-01-01T00/" "$store" >planted &&
	reseal planted &&
	cp planted "$store" &&
	(cd repo && ahd-replay verify docs/a.md) >actual &&
	test_grep "invoked_at: 1999-01-01T00:57:42.291Z" actual
'

test_expect_success 'an entry not in the spelling written is not believed' '
	(cd repo && ahd-replay verify) >/dev/null &&
	key=$(verdict_key repo/docs/a.replay.json repo/docs/a.md) &&
	for bad in "p2,eval-live" "p1,eval%2dlive" "p1,eval%2Dlive" \
		"p1,eval%2Glive" "p1,eval%00live" "p1,eval-live%2" \
		"p1,eval live" "p1,~"
	do
		sed "/^$key /s/p1,eval-live/$bad/" "$store" >planted &&
		test_grep "^$key $bad" planted &&
		reseal planted &&
		cp planted "$store" &&
		(cd repo && ahd-replay verify) >actual &&
		test_cmp expect actual &&
		test_grep "^$key p1,eval-live," "$store" || return 1
	done
'

test_expect_success 'a sidecar edited to the same size within the same second' '
	test_when_finished "git -C repo checkout -q docs/a.replay.json" &&
	(cd repo && ahd-replay verify) >/dev/null &&
	touch -r repo/docs/a.replay.json stamp &&
	sed "s/2026-08-03T09/2026-08-03T08/" repo/docs/a.replay.json >edited &&
	cp edited repo/docs/a.replay.json &&
	touch -r stamp repo/docs/a.replay.json &&
	(cd repo && ahd-replay verify docs/a.md) >actual &&
	test_grep "invoked_at: 2026-08-03T08:57:42.291Z" actual &&
	test_grep "replay block in docs/a.md differs" actual &&
	same_as_uncached docs/a.md
'

test_expect_success 'a markdown block edited to the same size within the same second' '
	test_when_finished "git -C repo checkout -q docs/a.md" &&
	(cd repo && ahd-replay verify) >/dev/null &&
	touch -r repo/docs/a.md stamp &&
	sed "s/0\.11\.0/0.11.1/" repo/docs/a.md >edited &&
	! test_cmp edited repo/docs/a.md &&
	cp edited repo/docs/a.md &&
	touch -r stamp repo/docs/a.md &&
	(cd repo && ahd-replay verify docs/a.md) >actual &&
	test_grep "replay block in docs/a.md differs" actual &&
	same_as_uncached docs/a.md
'

test_expect_success 'a markdown report that appears or goes is seen' '
	test_when_finished "rm -f repo/docs/b.md; git -C repo checkout -q docs/c.md" &&
	(cd repo && ahd-replay verify) >/dev/null &&
	cp repo/docs/a.md repo/docs/b.md &&
	(cd repo && ahd-replay verify docs/b.replay.json) >actual &&
	test_grep "replay block in docs/b.md differs" actual &&
	same_as_uncached docs/b.replay.json &&
	rm repo/docs/c.md &&
	same_as_uncached docs/c.replay.json
'

test_expect_success 'an input edited to the same size within the same second drifts' '
	test_when_finished "git -C repo checkout -q tokens/x.yml" &&
	(cd repo && ahd-replay verify) >/dev/null &&
	touch -r repo/tokens/x.yml stamp &&
	printf "id: y\ncolor: {ink: \"#111111\"}\n" >repo/tokens/x.yml &&
	touch -r stamp repo/tokens/x.yml &&
	(cd repo && test_must_fail ahd-replay verify --no-attribution) >actual &&
	test_grep "^3 reports: 0 intact, 3 drifted" actual &&
	same_as_uncached --no-attribution
'

test_expect_success 'a signature, and the trust files, are checked on every run' '
	test_when_finished "rm -f repo/docs/a.replay.json.sig" &&
	ahd-replay keygen --out key >/dev/null &&
	mkdir trusted empty &&
	cp key.pub trusted/ &&
	(cd repo && ahd-replay verify) >/dev/null &&
	ahd-replay sign --key key repo/docs/a.replay.json >/dev/null &&
	(cd repo && ahd-replay verify --trusted-keys ../trusted docs/a.md) >actual &&
	test_grep "^  ok    signature by" actual &&
	same_as_uncached --trusted-keys ../trusted &&
	same_as_uncached --trusted-keys ../empty &&
	same_as_uncached --require-signature --trusted-keys ../trusted &&
	rm repo/docs/a.replay.json.sig &&
	same_as_uncached --require-signature --trusted-keys ../trusted
'

test_expect_success 'options that change the verdict: warm is still --no-cache' '
	(cd repo && ahd-replay verify) >/dev/null &&
	same_as_uncached --allow-outside-root &&
	same_as_uncached --root=docs &&
	same_as_uncached --at=HEAD &&
	same_as_uncached --changed-since=HEAD &&
	same_as_uncached --explain
'

test_expect_success 'a sidecar whose fields run long is not kept' '
	test_when_finished "rm -f repo/docs/long.replay.json" &&
	long=$(printf "%05000d" 0) &&
	(cd repo && write_sidecar --extra="
  \"u$long\": 1," docs/long.replay.json tokens/x.yml) &&
	(cd repo && ahd-replay verify docs/long.replay.json) >actual &&
	test_grep "unknown fields in the sidecar: u0000" actual &&
	key=$(verdict_key repo/docs/long.replay.json) &&
	test_grep ! "^$key " "$store" &&
	same_as_uncached docs/long.replay.json
'

test_expect_success 'concurrent cold runs: the same answers, and every entry kept' '
	rm -rf repo/.git/ahd-replay &&
	for i in 1 2 3 4
	do
		(cd repo && ahd-replay verify >../conc$i 2>&1; echo $? >../rc$i) &
	done &&
	wait &&
	for i in 1 2 3 4
	do
		test "$(cat rc$i)" = 0 &&
		test_cmp expect conc$i || return 1
	done &&
	(cd repo && ahd-replay verify) >actual &&
	test_cmp expect actual &&
	for r in a c
	do
		key=$(verdict_key repo/docs/$r.replay.json repo/docs/$r.md) &&
		test_grep "^$key p1," "$store" || return 1
	done
'

test_expect_success '--no-cache and ahd-replay.cache=false write no entry' '
	test_when_finished "git -C repo config --unset ahd-replay.cache" &&
	rm -rf repo/.git/ahd-replay &&
	(cd repo && ahd-replay verify --no-cache) >actual &&
	test_cmp expect actual &&
	git -C repo config ahd-replay.cache false &&
	(cd repo && ahd-replay verify) >actual &&
	test_cmp expect actual &&
	test_path_is_missing "$store"
'

test_done
