#!/bin/sh

test_description='verify: the cache of input hashes in the git directory

A warm run answers from .git/ahd-replay/cache/store, keyed by the blob id
of the bytes read: an input edited to the same size within the same
second (its mtime put back) is still seen to drift.  A store that is
corrupted, truncated, from another version or build, a symlink, or
one that anyone but this user could have written (owned by another
user, or it or its directory group- or world-writable), is not
believed; a git directory that cannot be written, --no-cache and
ahd-replay.cache=false run without one; concurrent runs leave a store
that is whole; where no thread can start, the store is read all the same.'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"

. "$TEST_SRC_DIR/t/lib-sidecar.sh"

store=repo/.git/ahd-replay/cache/store

# store_whole STORE: its last line is the SHA-256 of every line above it.
store_whole () {
	sed '$d' "$1" >store.body &&
	printf 'sha256:%s\n' "$(test_sha256 store.body)" >store.want &&
	tail -n 1 "$1" >store.have &&
	test_cmp store.want store.have
}

# reseal STORE: recompute its checksum line after an edit.
reseal () {
	sed '$d' "$1" >store.body &&
	cp store.body "$1" &&
	printf 'sha256:%s\n' "$(test_sha256 store.body)" >>"$1"
}

# The store, with a wrong hash for tokens/x.yml's entry, sealed as this
# build seals it: only where a store comes from decides whether it is
# believed.
plant_sealed_bad_hash () {
	id=$(git -C repo hash-object tokens/x.yml) &&
	bad=sha256:$(printf "%064d" 0) &&
	sed "s/^\(in\.s\.$id\) [^@]*@/\1 $bad@/" "$store" >sealed &&
	reseal sealed &&
	cp sealed "$store"
}

test_expect_success 'setup: a repository with two reports sharing a token' '
	git init -q repo &&
	mkdir -p repo/tokens repo/briefs repo/docs &&
	printf "{\"name\": \"@adastracomputing/ahd\"}\n" >repo/package.json &&
	printf "id: x\ncolor: {ink: \"#111111\"}\n" >repo/tokens/x.yml &&
	printf "id: t\nsize: 1\n" >repo/briefs/b.yml &&
	(cd repo && write_sidecar --brief-structured docs/a.replay.json \
		tokens/x.yml briefs/b.yml &&
		write_sidecar docs/b.replay.json tokens/x.yml) &&
	git -C repo add -A &&
	test_tick && git -C repo commit -q -m reports &&
	(cd repo && ahd-replay verify --no-cache) >expect &&
	test_path_is_missing "$store"
'

test_expect_success 'a first run writes the store, keyed by blob ids' '
	(cd repo && ahd-replay verify) >actual &&
	test_cmp expect actual &&
	store_whole "$store" &&
	head -n 1 "$store" >header &&
	test_grep "^ahd-replay-cache 1 contract=1 version=[^ ]* build=[^ ]* run=1$" header &&
	id=$(git -C repo hash-object tokens/x.yml) &&
	hash=$(cd repo && hash_of tokens/x.yml) &&
	sum=$(test_sha256 repo/tokens/x.yml) &&
	test_grep "^in\.s\.$id $hash@$sum 1$" "$store"
'

test_expect_success 'a warm run prints the same, in every format' '
	cp "$store" before &&
	(cd repo && ahd-replay verify) >actual &&
	test_cmp expect actual &&
	(cd repo && ahd-replay verify --format=json) >warm.json &&
	(cd repo && ahd-replay verify --no-cache --format=json) >cold.json &&
	test_cmp cold.json warm.json &&
	test_cmp before "$store"
'

test_expect_success 'an edit to the same size within the same second is drift' '
	touch -r repo/tokens/x.yml stamp &&
	size=$(wc -c <repo/tokens/x.yml) &&
	printf "id: y\ncolor: {ink: \"#111111\"}\n" >repo/tokens/x.yml &&
	touch -r stamp repo/tokens/x.yml &&
	test "$(wc -c <repo/tokens/x.yml)" -eq "$size" &&
	test "$(stat -c %Y.%y repo/tokens/x.yml)" = "$(stat -c %Y.%y stamp)" &&
	(cd repo && test_must_fail ahd-replay verify --no-attribution) >actual &&
	test_grep "FAIL  token: token contents have changed" actual &&
	(cd repo && test_must_fail ahd-replay verify --no-attribution \
		--no-cache) >cold &&
	test_cmp cold actual &&
	id=$(git -C repo hash-object tokens/x.yml) &&
	test_grep "^in\.s\.$id " "$store" &&
	git -C repo checkout -q tokens/x.yml
'

test_expect_success 'control: a store this build sealed is believed, planted hash and all' '
	test_when_finished "rm -rf repo/.git/ahd-replay" &&
	plant_sealed_bad_hash &&
	(cd repo && test_must_fail ahd-replay verify --no-attribution) >actual &&
	test_grep "FAIL  token" actual
'

test_expect_success 'a corrupted entry is not believed, and the store is rebuilt' '
	(cd repo && ahd-replay verify) >/dev/null &&
	id=$(git -C repo hash-object tokens/x.yml) &&
	bad=sha256:$(printf "%064d" 0) &&
	sed "s/^\(in\.s\.$id\) [^@]*@/\1 $bad@/" "$store" >planted &&
	cp planted "$store" &&
	(cd repo && ahd-replay verify) >actual &&
	test_cmp expect actual &&
	store_whole "$store" &&
	! test_grep "$bad" "$store"
'

test_expect_success 'a truncated store is not believed, and is rebuilt' '
	size=$(wc -c <"$store") &&
	head -c $((size / 2)) "$store" >half &&
	cp half "$store" &&
	(cd repo && ahd-replay verify) >actual &&
	test_cmp expect actual &&
	store_whole "$store" &&
	test_grep "^in\.s\." "$store"
'

test_lazy_prereq STRACE 'strace -o /dev/null true'

# A store cut short by a crash is what the test above gives: ignored and
# rebuilt.  So saving it is not worth a flush to disk.
test_expect_success STRACE 'the store is replaced atomically, without a flush to disk' '
	rm -f "$store" &&
	(cd repo && under_strace -f -e trace=fsync,fdatasync,rename \
		-o ../trace ahd-replay verify) >actual &&
	test_cmp expect actual &&
	store_whole "$store" &&
	test_grep "rename(.*cache/store\"" trace &&
	test_grep ! "fsync\|fdatasync" trace
'

# no_threads CMD...: CMD with a stack limit of 4 GB in 3 GB of address
# space, where no thread's stack can be mapped: pthread_create() fails,
# and the cache's store is read on the calling thread instead.  Not
# under ASan, whose shadow memory needs terabytes of address space.
no_threads () {
	(ulimit -s 4194304 && ulimit -v 3145728 && "$@")
}
test_lazy_prereq NO_THREADS '
	no_threads ahd-replay hash --raw "$TEST_SRC_DIR/README.md" >/dev/null
'

test_expect_success NO_THREADS,STRACE 'no thread can start: the store is still read, and believed' '
	(cd repo && ahd-replay verify) >/dev/null &&
	cp "$store" good &&
	test_when_finished "cp good $store" &&
	plant_sealed_bad_hash &&
	(cd repo && no_threads under_strace -f -e trace=clone,clone3 \
		-o ../trace ahd-replay verify --no-attribution >../actual;
	 echo $? >../rc) &&
	test_grep ! "clone" trace &&
	echo 1 >rc.want &&
	test_cmp rc.want rc &&
	test_grep "FAIL  token" actual
'

test_expect_success 'a store from another version, build or contract is not believed' '
	id=$(git -C repo hash-object tokens/x.yml) &&
	bad=sha256:$(printf "%064d" 0) &&
	sed -e "1s/version=[^ ]*/version=0.0.0-other/" \
	    -e "s/^\(in\.s\.$id\) [^@]*@/\1 $bad@/" "$store" >other &&
	reseal other &&
	cp other "$store" &&
	(cd repo && ahd-replay verify) >actual &&
	test_cmp expect actual &&
	! test_grep "$bad" "$store" &&
	! test_grep "0.0.0-other" "$store" &&
	sed -e "1s/build=[^ ]*/build=0.0.0/" \
	    -e "s/^\(in\.s\.$id\) [^@]*@/\1 $bad@/" "$store" >rebuilt &&
	reseal rebuilt &&
	cp rebuilt "$store" &&
	(cd repo && ahd-replay verify) >actual &&
	test_cmp expect actual &&
	! test_grep "$bad" "$store" &&
	sed -e "1s/contract=1/contract=0/" \
	    -e "s/^\(in\.s\.$id\) [^@]*@/\1 $bad@/" "$store" >older &&
	reseal older &&
	cp older "$store" &&
	(cd repo && ahd-replay verify) >actual &&
	test_cmp expect actual &&
	! test_grep "$bad" "$store"
'

test_expect_success 'a malformed line in a sealed store voids all of it' '
	id=$(git -C repo hash-object tokens/x.yml) &&
	bad=sha256:$(printf "%064d" 0) &&
	sed "s/^\(in\.s\.$id\) [^@]*@/\1 $bad@/" "$store" >malformed &&
	printf "no-value-here\n" >>malformed &&
	reseal malformed &&
	cp malformed "$store" &&
	(cd repo && ahd-replay verify) >actual &&
	test_cmp expect actual &&
	! test_grep "$bad" "$store"
'

test_expect_success 'a symlink in place of the store is neither read nor followed' '
	test_when_finished "rm -f elsewhere" &&
	cp "$store" elsewhere &&
	id=$(git -C repo hash-object tokens/x.yml) &&
	bad=sha256:$(printf "%064d" 0) &&
	sed "s/^\(in\.s\.$id\) [^@]*@/\1 $bad@/" elsewhere >planted &&
	reseal planted &&
	cp planted elsewhere &&
	rm "$store" &&
	ln -s "$PWD/elsewhere" "$store" &&
	(cd repo && ahd-replay verify) >actual &&
	test_cmp expect actual &&
	test_cmp planted elsewhere &&
	! test -h "$store" &&
	store_whole "$store"
'

# plant_sealed: a store this build would believe, but answering the token
# with a wrong hash (sealed, so only who wrote it can tell it apart).
plant_sealed () {
	id=$(git -C repo hash-object tokens/x.yml) &&
	bad=sha256:$(printf "%064d" 0) &&
	sed "s/^\(in\.s\.$id\) [^@]*@/\1 $bad@/" "$store" >sealed &&
	reseal sealed &&
	cp sealed "$store"
}

test_expect_success 'the store is made 0600 in directories made 0700' '
	rm -rf repo/.git/ahd-replay &&
	(cd repo && ahd-replay verify) >actual &&
	test_cmp expect actual &&
	test "$(stat -c %a repo/.git/ahd-replay)" = 700 &&
	test "$(stat -c %a repo/.git/ahd-replay/cache)" = 700 &&
	test "$(stat -c %a "$store")" = 600
'

test_expect_success 'a sealed store others may write (0666) is not believed' '
	plant_sealed &&
	chmod 0666 "$store" &&
	(cd repo && ahd-replay verify) >actual &&
	test_cmp expect actual &&
	test_grep ! "$bad" "$store" &&
	test "$(stat -c %a "$store")" = 600
'

test_expect_success 'a sealed store in a directory others may write is not believed' '
	test_when_finished "chmod 0700 repo/.git/ahd-replay/cache" &&
	plant_sealed &&
	chmod 0777 repo/.git/ahd-replay/cache &&
	(cd repo && ahd-replay verify) >actual &&
	test_cmp expect actual &&
	test_grep ! "$bad" "$store" &&
	# only the write bits others had are taken away
	test "$(stat -c %a repo/.git/ahd-replay/cache)" = 755
'

test_lazy_prereq ROOT_NOBODY 'test "$(id -u)" = 0 && id -u nobody'

test_expect_success ROOT_NOBODY 'a sealed store owned by another user is not believed' '
	plant_sealed &&
	chown nobody "$store" &&
	(cd repo && ahd-replay verify) >actual &&
	test_cmp expect actual &&
	test_grep ! "$bad" "$store" &&
	test "$(stat -c %u "$store")" = 0
'

test_expect_success 'a git directory the cache cannot be written in: no cache' '
	test_when_finished "rm -f repo/.git/ahd-replay && cp -R saved repo/.git/ahd-replay" &&
	cp -R repo/.git/ahd-replay saved &&
	rm -rf repo/.git/ahd-replay &&
	printf "not a directory\n" >repo/.git/ahd-replay &&
	(cd repo && ahd-replay verify) >actual 2>err &&
	test_cmp expect actual &&
	test_must_be_empty err
'

test_lazy_prereq NOT_ROOT 'test "$(id -u)" != 0'

test_expect_success NOT_ROOT 'a read-only git directory: no cache, same answers' '
	test_when_finished "chmod -R u+w repo/.git" &&
	rm -rf repo/.git/ahd-replay &&
	chmod a-w repo/.git &&
	(cd repo && ahd-replay verify) >actual 2>err &&
	test_cmp expect actual &&
	test_must_be_empty err &&
	test_path_is_missing "$store"
'

test_expect_success '--no-cache neither reads nor writes the store' '
	rm -rf repo/.git/ahd-replay &&
	(cd repo && ahd-replay verify --no-cache) >actual &&
	test_cmp expect actual &&
	test_path_is_missing "$store"
'

test_expect_success 'ahd-replay.cache=false turns it off; a bad value warns' '
	test_when_finished "git -C repo config --unset ahd-replay.cache" &&
	git -C repo config ahd-replay.cache false &&
	(cd repo && ahd-replay verify) >actual &&
	test_cmp expect actual &&
	test_path_is_missing "$store" &&
	git -C repo config ahd-replay.cache maybe &&
	(cd repo && ahd-replay verify) >actual 2>err &&
	test_cmp expect actual &&
	test_grep "the cache is off" err &&
	test_path_is_missing "$store" &&
	git -C repo config ahd-replay.cache true &&
	(cd repo && ahd-replay verify) >actual &&
	test_cmp expect actual &&
	store_whole "$store"
'

test_expect_success 'concurrent runs leave a whole store with every entry' '
	rm -rf repo/.git/ahd-replay &&
	for i in 1 2 3 4 5 6
	do
		printf "id: t$i\nn: $i\n" >repo/tokens/t$i.yml &&
		(cd repo && write_sidecar docs/c$i.replay.json tokens/t$i.yml) ||
		return 1
	done &&
	for i in 1 2 3 4 5 6
	do
		(cd repo && ahd-replay verify docs/c$i.replay.json >../out$i 2>&1;
		 echo $? >../rc$i) &
	done &&
	wait &&
	for i in 1 2 3 4 5 6
	do
		test "$(cat rc$i)" = 0 &&
		test_grep "^verdict: replay inputs intact$" out$i || return 1
	done &&
	store_whole "$store" &&
	(cd repo && ahd-replay verify docs/c1.replay.json docs/c2.replay.json \
		docs/c3.replay.json docs/c4.replay.json docs/c5.replay.json \
		docs/c6.replay.json) >actual &&
	test_grep "^6 reports: 6 intact" actual &&
	store_whole "$store" &&
	for i in 1 2 3 4 5 6
	do
		id=$(git -C repo hash-object tokens/t$i.yml) &&
		test_grep "^in\.s\.$id " "$store" || return 1
	done
'

test_expect_success 'inputs read at a commit are cached by the same keys' '
	(cd repo && ahd-replay verify --at=HEAD docs/a.replay.json) >actual &&
	test_grep "^verdict: replay inputs intact$" actual &&
	id=$(git -C repo rev-parse HEAD:tokens/x.yml) &&
	test_grep "^in\.s\.$id " "$store"
'

test_done
