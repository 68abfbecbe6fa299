#!/bin/sh

test_description='the Dockerfile: runtime libraries, and the image itself

Without docker: the runtime stage installs exactly the packages that hold
the libraries the binary links (its DT_NEEDED entries, libc aside), plus
git, so the image neither lacks a library nor carries a stray one.  With a
docker daemon: the image builds, runs as its ENTRYPOINT, and verifies the
demo repository mounted at /repo while the container runs as a user that
does not own it (safe.directory).'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"

dockerfile=$TEST_SRC_DIR/Dockerfile

test_lazy_prereq DPKG_READELF '
	command -v dpkg >/dev/null && command -v readelf >/dev/null &&
	command -v ldd >/dev/null
'
# A sanitizer build links the sanitizer runtimes, which the image has not.
test_lazy_prereq PLAIN_BUILD '
	readelf -d "$AHD_REPLAY" >needed.all &&
	! grep -q "libasan\|libubsan" needed.all
'
test_lazy_prereq DOCKER '
	command -v docker >/dev/null && docker info >/dev/null 2>&1
'

# runtime_packages: the package names of the last stage's apt-get install.
runtime_packages () {
	awk '
		/^FROM / { stage++; text = "" }
		{ text = text " " $0 }
		END { print text }
	' "$dockerfile" |
	sed -e 's/\\//g' -e 's/.*apt-get install -y --no-install-recommends//' \
		-e 's/&&.*//' |
	tr -s " " "\n" | sed "/^$/d" | sort
}

test_expect_success 'the Dockerfile is two stages on debian:12-slim, ENTRYPOINT ahd-replay' '
	grep "^FROM " "$dockerfile" >froms &&
	test_line_count = 2 froms &&
	test_grep -c "debian:12-slim" froms >count &&
	echo 2 >expect &&
	test_cmp expect count &&
	test_grep "^ENTRYPOINT \[\"ahd-replay\"\]$" "$dockerfile" &&
	test_grep "safe.directory /repo$" "$dockerfile" &&
	test_grep "^WORKDIR /repo$" "$dockerfile"
'

test_expect_success DPKG_READELF,PLAIN_BUILD 'the runtime stage installs the packages of the linked libraries, and git' '
	readelf -d "$AHD_REPLAY" >needed.all &&
	sed -n "s/.*Shared library: \[\(.*\)\]/\1/p" needed.all >needed &&
	test -s needed &&
	ldd "$AHD_REPLAY" >ldd &&
	while read -r lib
	do
		path=$(sed -n "s|^[[:space:]]*$lib => \(/[^ ]*\) .*|\1|p" ldd) &&
		test -n "$path" &&
		real=$(readlink -f "$path") &&
		# merged /usr: dpkg knows one of the spellings
		for p in "$path" "$real" "${real#/usr}" "/usr$path"
		do
			dpkg -S "$p" >owner 2>/dev/null && break
		done &&
		sed -n "1s/:.*//p" owner || return 1
	done <needed >packages &&
	{ echo git && grep -v "^libc6$" packages; } | sort -u >expect &&
	runtime_packages >actual &&
	test_cmp expect actual
'

test_expect_success DOCKER 'the image builds, and verifies a mounted repository it does not own' '
	image=ahd-replay-test-$$ &&
	test_when_finished "docker rmi -f $image >/dev/null 2>&1 || :" &&
	docker build -q -t $image "$TEST_SRC_DIR" &&
	docker run --rm $image --version >version &&
	test_grep "^ahd-replay " version &&
	AHD_REPLAY=$AHD_REPLAY sh "$TEST_SRC_DIR/examples/make-demo-repo.sh" demo &&
	chmod -R a+rX demo &&
	test_expect_code 1 docker run --rm --user 54321:54321 \
		-v "$PWD/demo:/repo" $image verify --at=HEAD --all >out &&
	test_grep "^6 reports: 5 intact, 1 drifted, 0 errors$" out
'

test_done
