#!/bin/sh

test_description='backfill writes its sidecars in large batches, each flushed before it is put in place

A sidecar waiting in a batch holds no descriptor: its temporary is
closed once written and the directory it goes into is held once for
all the sidecars of that directory.  So a batch is not bounded by the
limit on open files but by its size: a thousand sidecars in one
directory are two flushes to disk (syncfs), even under a low limit.  A
temporary that cannot be renamed into place (a bind mount: the same
device, another mount) is copied beside its target, opened again by its
name, and the copy is flushed before it is put in place.'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"

. "$TEST_SRC_DIR/t/lib-backfill.sh"

test_lazy_prereq STRACE 'strace -o /dev/null true'

test_expect_success 'setup: a thousand reports in one directory' '
	git init -q big &&
	reports big 1000
'

test_expect_success STRACE 'a thousand sidecars: two flushes, no fsync' '
	rm -rf two && cp -R big two &&
	(cd two && under_strace -f -e trace=fsync,fdatasync,syncfs -o ../flushes \
		ahd-replay backfill >../out) &&
	test_grep "written=1000 .*failed=0$" out &&
	grep -c "^[0-9]* *syncfs(" flushes >syncs &&
	echo 2 >expect &&
	test_cmp expect syncs &&
	! grep "^[0-9]* *f\(data\)\{0,1\}sync(" flushes
'

test_expect_success STRACE 'under a low limit on open files: the same two flushes' '
	rm -rf low && cp -R big low &&
	(ulimit -n 100 && cd low &&
	 under_strace -f -e trace=syncfs -o ../flushes ahd-replay backfill >../out) &&
	test_grep "written=1000 .*failed=0$" out &&
	grep -c "^[0-9]* *syncfs(" flushes >syncs &&
	test_cmp expect syncs
'

test_lazy_prereq MOUNT_NS 'unshare -Urm true'

# The git directory is on the device of docs/evals/sub, but not on its
# mount: the temporary made there cannot be renamed into place.
test_expect_success STRACE,MOUNT_NS 'a sidecar on a bind mount is copied beside it, flushed, then put in place' '
	rm -rf bound && git init -q bound && reports bound 2 &&
	mkdir bound/docs/evals/sub elsewhere &&
	cp bound/docs/evals/r1.md elsewhere/r3.md &&
	unshare -Urm sh -c "mount --bind elsewhere bound/docs/evals/sub &&
		cd bound && git add . && git commit -q -m sub &&
		ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		strace -f -e trace=fsync,syncfs,rename,renameat,renameat2,link,linkat \
			-o ../calls ahd-replay backfill >../out" &&
	test_grep "written=3 .*failed=0$" out &&
	test_grep "\"backfilled\": true" elsewhere/r3.replay.json &&
	# the copy beside the target is flushed, then linked into place
	grep -n "fsync(" calls >fsyncs &&
	test_line_count = 1 fsyncs &&
	grep -n "r3.replay.json.tmp-.*r3.replay.json" calls >put &&
	test "$(cut -d: -f1 fsyncs)" -lt "$(cut -d: -f1 put)" &&
	ls -a elsewhere >left &&
	test_grep ! "tmp-" left
'

# Two sidecars the batch refuses to open (hard-linked: replacing one
# would detach it) around one it rewrites: a refused file used to close
# descriptor 0, which the next directory opened then got, so the second
# refusal closed that directory under the sidecar waiting to go there.
test_expect_success 'a refused sidecar closes nothing the batch holds' '
	git init -q refused &&
	mkdir -p refused/tokens &&
	printf "name: swiss\n" >refused/tokens/swiss.yml &&
	for r in a/x b/c b2/y d3/c d3/f
	do
		mkdir -p refused/docs/evals/${r%/*} &&
		printf "# ahd eval · swiss · 2026-01-13T00:00:00Z\n\n- Samples per cell: **1**\n" \
			>refused/docs/evals/$r.md || return 1
	done &&
	(cd refused && git add . && git commit -q -m reports &&
	 ahd-replay backfill >../out) &&
	test_grep "written=5 .*failed=0$" out &&
	printf "{\"captured\": true}\n" >refused/docs/evals/d3/c.replay.json &&
	cp refused/docs/evals/d3/c.replay.json captured &&
	ln refused/docs/evals/a/x.replay.json link1 &&
	ln refused/docs/evals/b2/y.replay.json link2 &&
	(cd refused && test_must_fail ahd-replay backfill --force >../out 2>../err) &&
	test_grep "written=2 skipped=1 failed=2$" out &&
	test_grep ! "Bad file descriptor" err &&
	test_cmp captured refused/docs/evals/d3/c.replay.json
'

test_done
