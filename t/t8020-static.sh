#!/bin/sh

test_description='make static: one binary that needs nothing but the C library

ahd-replay-static (make static) links libgit2, libyaml, jansson, OpenSSL
and what they link from their static archives.  Its dynamic section may
name only the C library, and it must verify the demo repository in a
chroot that holds nothing but the binary, the C library and the demo: no
libgit2, no OpenSSL, no git, no shell, no /etc.  Without the binary (make
static was not run) the script skips; without the right to chroot, the
chroot case skips, saying why.'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"

STATIC=$TEST_BUILD_DIR/ahd-replay-static
if ! test -x "$STATIC"
then
	skip_all="no $STATIC: run 'make static' first"
	test_done
fi

test_lazy_prereq READELF 'readelf --version'

# The files of the C library the binary loads, as the dynamic loader
# finds them: the loader itself and each library ldd resolves.
c_library_files () {
	ldd "$STATIC" | awk '
		$2 == "=>" && $3 ~ /^\// { print $3 }
		$1 ~ /^\// { print $1 }
	'
}

test_expect_success READELF 'its dynamic section names only the C library' '
	readelf -d "$STATIC" >dynamic &&
	sed -n "s/.*(NEEDED).*\[\(.*\)\]$/\1/p" dynamic >needed &&
	test -s needed &&
	grep -v -x -e "libc\.so\.6" -e "libm\.so\.6" needed >others || : &&
	test_must_be_empty others
'

test_expect_success 'ldd finds nothing but the C library either' '
	c_library_files >files &&
	test -s files &&
	grep -v -e "/libc\.so\.6$" -e "/libm\.so\.6$" -e "/ld-linux[^/]*\.so\.[0-9]*$" \
		files >others || : &&
	test_must_be_empty others
'

test_expect_success 'the demo verification, outside the chroot, as the shared build gives it' '
	sh "$TEST_SRC_DIR/examples/make-demo-repo.sh" demo >/dev/null &&
	test_expect_code 1 "$STATIC" verify --root demo --all >static.out &&
	test_expect_code 1 ahd-replay verify --root demo --all >shared.out &&
	test_cmp shared.out static.out &&
	"$STATIC" --version >version &&
	ahd-replay --version >expect &&
	test_cmp expect version
'

test_expect_success 'setup: a root holding only the binary, the C library and the demo' '
	mkdir -p root/bin root/tmp &&
	cp "$STATIC" root/bin/ahd-replay &&
	c_library_files >files &&
	while read -r f
	do
		mkdir -p "root${f%/*}" &&
		cp -L "$f" "root$f" || return 1
	done <files &&
	cp -R demo root/demo &&
	find root -type f ! -path "root/demo/*" | sort >contents &&
	test_grep ! -e "git2" -e "yaml" -e "jansson" -e "ssl" -e "crypto" contents
'

# chroot needs root (CAP_SYS_CHROOT); as anyone else, a user namespace
# that maps us to root may allow it.
chroot_cmd=$(command -v chroot) || chroot_cmd=chroot
if test "$(id -u)" = 0
then
	in_root () { env -i HOME=/ PATH=/bin "$chroot_cmd" root "$@"; }
else
	in_root () {
		env -i HOME=/ PATH=/bin "$(command -v unshare)" --user \
			--map-root-user "$chroot_cmd" root "$@"
	}
fi
if in_root /bin/ahd-replay --version >/dev/null 2>chroot.err
then
	test_set_prereq CHROOT
else
	echo "# SKIPPING the chroot case (CHROOT): chroot is not allowed here: $(cat chroot.err)"
fi

test_expect_success CHROOT 'in the chroot: the demo verification, drift and attribution included' '
	test_expect_code 1 in_root /bin/ahd-replay verify --root /demo --all \
		>chroot.out 2>chroot.err &&
	test_grep "^6 reports: 5 intact, 1 drifted, 0 errors$" chroot.out &&
	test_grep "changed by [0-9a-f]\{12\}" chroot.out &&
	sed "s|/demo/|demo/|g" chroot.out >chroot.rel &&
	sed "s|$TRASH_DIRECTORY/demo/|demo/|g" static.out >static.rel &&
	test_cmp static.rel chroot.rel
'

test_expect_success CHROOT 'the shared build cannot even start there: its libraries are absent' '
	cp "$AHD_REPLAY" root/bin/ahd-replay-shared &&
	test_when_finished "rm root/bin/ahd-replay-shared" &&
	if in_root /bin/ahd-replay-shared --version >out 2>err
	then
		false
	fi &&
	test_grep "error while loading shared libraries" err
'

test_expect_success CHROOT 'in the chroot: hash and a single report, as a CI job runs them' '
	in_root /bin/ahd-replay hash /demo/tokens/swiss-editorial.yml >chroot.hash &&
	"$STATIC" hash demo/tokens/swiss-editorial.yml >static.hash &&
	sed "s|  /demo/|  demo/|" chroot.hash >chroot.hash.rel &&
	test_cmp static.hash chroot.hash.rel
'

test_done
