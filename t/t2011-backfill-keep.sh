#!/bin/sh

test_description='backfill never loses a sidecar and leaves no temporary file

--force rewrites only sidecars backfill wrote ("backfilled": true); a
sidecar captured during a run is kept, said per report and in the
summary.  A backfill killed while it writes leaves no temporary file
that git status shows: temporaries live under the git directory, are
removed on SIGTERM, SIGINT and SIGHUP, and those of processes that have
ended are removed by the next run.'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"

. "$TEST_SRC_DIR/t/lib-backfill.sh"

# no_temporaries DIR: git status in DIR shows no temporary file, and no
# file of our temporaries' patterns is anywhere in the work tree.
no_temporaries () {
	(cd "$1" && git status --porcelain --ignored) >"$1.git-status" &&
	test_grep ! "tmp-" "$1.git-status" &&
	(cd "$1" && find . -path ./.git -prune -o -name "*.tmp-*" -print) \
		>"$1.found" &&
	test_must_be_empty "$1.found"
}

test_expect_success 'setup' '
	git init -q small &&
	reports small 3 &&
	(cd small && ahd-replay backfill >../out) &&
	test_grep "^backfill: scanned=3 written=3 skipped=0 failed=0$" out &&
	cp small/docs/evals/r2.replay.json backfilled.json
'

test_expect_success '--force keeps a captured sidecar, says so, rewrites backfilled ones' '
	(
		cd small &&
		AHD_REPLAY_NOW=2026-01-02T03:04:05.678Z ahd-replay capture \
			--kind=eval-live --token=tokens/swiss.yml --n=1 --force \
			--model=m=p:req_1 --out=docs/evals/r1.replay.json -- ahd eval &&
		cp docs/evals/r1.replay.json ../captured.json &&
		echo "{}" >docs/evals/r2.replay.json &&
		ahd-replay backfill --force >../out
	) &&
	test_grep "^kept docs/evals/r1.replay.json: it was captured during a run" out &&
	test_grep "^kept docs/evals/r2.replay.json: it does not load" out &&
	test_grep "^wrote docs/evals/r3.replay.json$" out &&
	test_grep "^backfill: scanned=3 written=1 skipped=2 failed=0$" out &&
	test_grep "^kept 2 sidecars backfill did not write" out &&
	test_cmp captured.json small/docs/evals/r1.replay.json &&
	echo "{}" >empty.json &&
	test_cmp empty.json small/docs/evals/r2.replay.json
'

test_expect_success '--force and sidecars that are symlinks' '
	(
		cd small &&
		cp ../backfilled.json docs/evals/real.json &&
		sed "s/\"n\": 1/\"n\": 5/" docs/evals/real.json >docs/evals/tmp &&
		mv docs/evals/tmp docs/evals/real.json &&
		chmod 640 docs/evals/real.json &&
		ln -sf real.json docs/evals/r2.replay.json &&
		ln -sf ../../../captured-link docs/evals/r3.replay.json &&
		cp ../captured.json ../captured-link &&
		ahd-replay backfill --force >../out
	) &&
	test -h small/docs/evals/r2.replay.json &&
	test_cmp backfilled.json small/docs/evals/real.json &&
	test "$(ls -l small/docs/evals/real.json | cut -c1-10)" = "-rw-r-----" &&
	test -h small/docs/evals/r3.replay.json &&
	test_cmp captured.json captured-link &&
	test_grep "^kept docs/evals/r3.replay.json: it was captured" out
'

test_expect_success 'a dangling symlink sidecar is not replaced without --force' '
	ln -sf nowhere small/docs/evals/r3.replay.json &&
	(cd small && ahd-replay backfill >../out) &&
	test_grep "^backfill: scanned=3 written=0 skipped=3 failed=0$" out &&
	test -h small/docs/evals/r3.replay.json
'

test_expect_success 'stale temporaries are removed by the next run, live ones kept' '
	sleep 600 >/dev/null 2>&1 &
	live=$!
	# a pid no process has: one that ran and ended
	sh -c "exit 0" &
	dead=$!
	wait $dead
	test_when_finished "kill $live" &&
	git init -q stale &&
	reports stale 2 &&
	mkdir -p stale/.git/ahd-replay-tmp &&
	echo x >stale/.git/ahd-replay-tmp/tmp-$dead-abcdef &&
	echo x >stale/.git/ahd-replay-tmp/tmp-$live-abcdef &&
	echo x >stale/docs/evals/r1.replay.json.tmp-$dead-AbCdEf &&
	echo x >stale/docs/evals/r9.replay.json.tmp-X1y2Z3 &&
	touch -d "2020-01-01" stale/docs/evals/r9.replay.json.tmp-X1y2Z3 &&
	echo x >stale/docs/evals/r2.replay.json.tmp-a1b2c3 &&
	echo mine >stale/docs/evals/notes.tmp-$dead-abcdef &&
	(cd stale && ahd-replay backfill >../out) &&
	test_path_is_missing stale/.git/ahd-replay-tmp/tmp-$dead-abcdef &&
	test_path_is_file stale/.git/ahd-replay-tmp/tmp-$live-abcdef &&
	test_path_is_missing stale/docs/evals/r1.replay.json.tmp-$dead-AbCdEf &&
	test_path_is_missing stale/docs/evals/r9.replay.json.tmp-X1y2Z3 &&
	test_path_is_file stale/docs/evals/r2.replay.json.tmp-a1b2c3 &&
	test_path_is_file stale/docs/evals/notes.tmp-$dead-abcdef
'

test_lazy_prereq PERL 'perl -e 1'

test_expect_success 'setup: a repository whose backfill takes a while' '
	git init -q big &&
	reports big 1000
'

# backfill_then SIGNAL DIR: start a backfill in DIR, send SIGNAL once it
# is writing (a temporary file, or a sidecar already in place: sidecars
# are written in batches, each flushed to disk at once, so temporaries
# come first), wait for it; its exit status in DIR.status.
backfill_then () {
	# a shell starts background commands with SIGINT ignored (and make
	# may run us with SIGHUP ignored); perl restores the defaults a
	# user's ^C or a closed terminal meets
	(cd "$2" && exec perl -e '$SIG{$_} = "DEFAULT" for qw(INT TERM HUP); exec @ARGV' \
		ahd-replay backfill >/dev/null 2>&1) &
	bt_pid=$! &&
	bt_n=0 &&
	while ! { ls "$2"/.git/ahd-replay-tmp/* >/dev/null 2>&1 ||
		ls "$2"/docs/evals/*.replay.json >/dev/null 2>&1; } &&
		test $bt_n -lt 3000
	do
		sleep 0.01 2>/dev/null || sleep 1
		bt_n=$((bt_n + 1))
	done &&
	kill -$1 $bt_pid &&
	{ wait $bt_pid; echo $? >"$2.status"; }
}

test_expect_success PERL 'SIGKILL: git status shows no temporary; the next run completes' '
	cp -R big killed &&
	backfill_then KILL killed &&
	echo 137 >expect && test_cmp expect killed.status &&
	no_temporaries killed &&
	(cd killed && ahd-replay backfill >../out) &&
	test_grep "failed=0$" out &&
	ls killed/.git/ahd-replay-tmp >left &&
	test_must_be_empty left &&
	no_temporaries killed
'

for sig in TERM INT HUP
do
	test_expect_success PERL "SIG$sig: no temporary left anywhere" '
		rm -rf sig && cp -R big sig &&
		backfill_then $sig sig &&
		test "$(cat sig.status)" -gt 128 &&
		no_temporaries sig &&
		ls sig/.git/ahd-replay-tmp >left &&
		test_must_be_empty left
	'
done

test_lazy_prereq STRACE 'strace -o /dev/null true'

# One flush to disk per batch of sidecars, not one per sidecar: 1000
# sidecars are eight batches.
test_expect_success STRACE 'sidecars reach the disk a batch at a time' '
	rm -rf flushed && cp -R big flushed &&
	(cd flushed && under_strace -f -e trace=fsync,fdatasync,syncfs -o ../flushes \
		ahd-replay backfill >../out) &&
	test_grep "written=1000 " out &&
	grep -c "^[0-9]* *syncfs(" flushes >syncs &&
	test "$(cat syncs)" -le 8 &&
	! grep "^[0-9]* *f\(data\)\{0,1\}sync(" flushes
'

test_lazy_prereq MOUNT_NS 'unshare -Urm true'

# A directory beneath the root may be another file system (a mount
# point): one syncfs(2) of the first temporary's would leave the other's
# sidecars unflushed when they are renamed into place.
test_expect_success STRACE,MOUNT_NS 'a sidecar on another file system reaches its disk too' '
	rm -rf mounted && git init -q mounted && reports mounted 2 &&
	mkdir mounted/docs/evals/sub &&
	unshare -Urm sh -c "mount -t tmpfs none mounted/docs/evals/sub &&
		cp mounted/docs/evals/r1.md mounted/docs/evals/sub/r3.md &&
		cd mounted && git add . && git commit -q -m sub &&
		ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		strace -f -e trace=fsync,fdatasync,syncfs -o ../flushes2 \
			ahd-replay backfill >../out2 &&
		test -f docs/evals/sub/r3.replay.json" &&
	test_grep "written=3 " out2 &&
	grep -c "^[0-9]* *syncfs(" flushes2 >syncs2 &&
	echo 2 >expect &&
	test_cmp expect syncs2
'

# Each sidecar of a batch holds two descriptors until the batch is put in
# place: under a low limit on open files a full batch ran out of them.
test_expect_success 'a low limit on open files fails no sidecar' '
	rm -rf lowfd && cp -R big lowfd &&
	(ulimit -n 200 && cd lowfd && ahd-replay backfill >../out3) &&
	test_grep "written=1000 .*failed=0$" out3
'

test_done
