#!/bin/sh

test_description='action.yml: the composite action'"'"'s steps, run as GitHub runs them

The steps'"'"' scripts (action/*.sh) run with the variables GitHub sets
(GITHUB_ACTION_PATH, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, GITHUB_BASE_REF,
RUNNER_TEMP, ...) and the inputs as action.yml passes them, against a
repository with a remote, as a pull request'"'"'s checkout has one.  The
release step downloads from a file:// stand-in of the releases page.
The build step runs only with AHD_TEST_EXPENSIVE set (it builds the
tree).'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"
. "$TEST_SRC_DIR/t/lib-sidecar.sh"

ACTION=$TEST_SRC_DIR
test_lazy_prereq PYYAML 'python3 -c "import yaml"'
test_lazy_prereq PYJSONSCHEMA 'python3 -c "import jsonschema"'
test_lazy_prereq BASH 'bash --version'
test_lazy_prereq DEPS 'pkg-config --exists libgit2 yaml-0.1 jansson libcrypto'
test_lazy_prereq EXPENSIVE 'test -n "$AHD_TEST_EXPENSIVE"'

# run_verify [VAR=VALUE...]: action/verify.sh in work/ as the Verify step
# runs it, with fresh GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files; its
# exit status in verify.status.
run_verify () {
	: >output && : >summary &&
	(
		cd work &&
		env GITHUB_ACTION_PATH="$ACTION" GITHUB_OUTPUT="$TRASH_DIRECTORY/output" \
			GITHUB_STEP_SUMMARY="$TRASH_DIRECTORY/summary" \
			GITHUB_WORKSPACE="$TRASH_DIRECTORY/work" RUNNER_TEMP="$TRASH_DIRECTORY/tmp" \
			AHD_REPLAY="$TRASH_DIRECTORY/prefix/bin/ahd-replay" \
			AHD_PATHS= AHD_TRUSTED_KEYS= AHD_REQUIRE_SIGNATURE=false \
			AHD_CHANGED_SINCE= AHD_REQUIRE_SIDECAR= AHD_SARIF= AHD_FAIL_ON=drift \
			"$@" "$ACTION/action/verify.sh"
	) >log 2>err
	echo $? >verify.status
}

test_expect_success PYYAML 'action.yml: a composite action whose steps run the scripts, inputs only through env' '
	python3 - "$ACTION/action.yml" "$ACTION" <<-\EOF
	import os, re, sys, yaml
	a = yaml.safe_load(open(sys.argv[1]))
	assert a["runs"]["using"] == "composite"
	inputs = set(a["inputs"])
	assert inputs == {"paths", "trusted-keys", "require-signature", "changed-since",
	                  "require-sidecar", "sarif", "fail-on"}, inputs
	used = set()
	steps = a["runs"]["steps"]
	assert steps[0]["id"] == "release", steps[0]
	for step in steps[1:-1]:
	    assert step["if"].startswith("steps.release.outputs.binary == \x27\x27"), step
	assert "steps.release.outputs.binary ||" in steps[-1]["env"]["AHD_REPLAY"]
	for step in steps:
	    run = step.get("run")
	    if run is None:
	        assert step["uses"].startswith("actions/cache@"), step
	        continue
	    assert "${{" not in run, run
	    m = re.fullmatch(r"\"\$GITHUB_ACTION_PATH/(action/[a-z-]+\.sh)\"", run)
	    assert m, run
	    assert os.access(os.path.join(sys.argv[2], m.group(1)), os.X_OK), m.group(1)
	    assert step["shell"] == "bash"
	    for v in (step.get("env") or {}).values():
	        used.update(re.findall(r"inputs\.([a-z-]+)", v))
	assert used == inputs, used
	EOF
'

test_expect_success DEPS 'install-deps: nothing to do when the dependencies are there' '
	"$ACTION/action/install-deps.sh" >out &&
	test_grep "build dependencies are installed" out
'

test_expect_success 'cache-key: a key from the system and the source, and the prefix' '
	mkdir tmp fake fake/src &&
	echo "int x;" >fake/src/a.c && echo "AC_INIT" >fake/configure.ac &&
	key () {
		: >out1 &&
		GITHUB_ACTION_PATH=$1 GITHUB_OUTPUT=out1 RUNNER_TEMP=$TRASH_DIRECTORY/tmp \
			RUNNER_OS=${2:-Linux} RUNNER_ARCH=X64 ImageOS=ubuntu24 \
			"$ACTION/action/cache-key.sh" >/dev/null &&
		sed -n "s/^key=//p" out1
	} &&
	k1=$(key fake) && k2=$(key fake) && test "$k1" = "$k2" &&
	case $k1 in ahd-replay-Linux-X64-ubuntu24-*) ;; *) false ;; esac &&
	k3=$(key fake macOS) && test "$k1" != "$k3" &&
	echo "int y;" >fake/src/a.c &&
	k4=$(key fake) && test "$k1" != "$k4" &&
	test_grep "^prefix=$TRASH_DIRECTORY/tmp/ahd-replay-[0-9a-f]\{40\}$" out1
'

test_expect_success 'setup: a repository on a remote, a pull request branch, the build as a cache hit' '
	mkdir -p prefix/bin &&
	ln -s "$TEST_BUILD_DIR/ahd-replay" prefix/bin/ahd-replay &&
	git init -q -b main src &&
	mkdir -p src/tokens src/docs &&
	for n in a b c
	do
		printf "color:\n  accent: \"#%s%s%s\"\n" $n $n $n >src/tokens/$n.yml &&
		echo "# report $n" >src/docs/$n.md &&
		(cd src && write_sidecar docs/$n.replay.json tokens/$n.yml) || return 1
	done &&
	git -C src add . && test_tick && git -C src commit -q -m base &&
	git clone -q --bare src origin.git &&
	git clone -q origin.git work &&
	git -C work checkout -q -b feature &&
	echo "spacing: 4" >>work/tokens/a.yml &&
	test_tick && git -C work commit -q -am "feature: token a"
'

test_expect_success BASH 'a pull request: only its reports, annotations, summary, outputs, status' '
	run_verify GITHUB_EVENT_NAME=pull_request GITHUB_BASE_REF=main GITHUB_HEAD_REF=feature &&
	echo 1 >expect && test_cmp expect verify.status &&
	# the pull request changed the token: the annotation is on it, inline
	test_grep "^::error file=tokens/a.yml,line=1,title=replay token drift::" log &&
	test_grep ! "docs/b" log &&
	test_grep "^2 reports unchanged since origin/main (merge base [0-9a-f]*) not checked$" log &&
	test_grep "^exit-status=1$" output &&
	test_grep "^sarif=$" output &&
	test_grep "^### ahd-replay verify$" summary &&
	test_grep "docs/a\\\\.md | drifted | drift" summary
'

test_expect_success BASH 'fail-on: error and never keep a drift from failing the step; the output still says 1' '
	run_verify GITHUB_BASE_REF=main AHD_FAIL_ON=never &&
	echo 0 >expect && test_cmp expect verify.status &&
	test_grep "^exit-status=1$" output &&
	run_verify GITHUB_BASE_REF=main AHD_FAIL_ON=error &&
	test_cmp expect verify.status &&
	run_verify GITHUB_BASE_REF=main AHD_FAIL_ON=sometimes &&
	echo 2 >expect && test_cmp expect verify.status &&
	test_grep "^::error title=ahd-replay action::fail-on must be drift, error or never$" log
'

test_expect_success BASH 'a push: every report' '
	run_verify GITHUB_EVENT_NAME=push &&
	echo 1 >expect && test_cmp expect verify.status &&
	test_grep "^3 reports: 2 intact, 1 drifted, 0 errors$" log &&
	test_grep ! "not checked" log &&
	run_verify GITHUB_BASE_REF=main AHD_CHANGED_SINCE=all &&
	test_grep "^3 reports: 2 intact, 1 drifted, 0 errors$" log
'

test_expect_success BASH 'the base branch is fetched when the checkout lacks it' '
	git -C work update-ref -d refs/remotes/origin/main &&
	run_verify GITHUB_BASE_REF=main &&
	echo 1 >expect && test_cmp expect verify.status &&
	test_grep "^2 reports unchanged since origin/main" log &&
	git -C work rev-parse -q --verify refs/remotes/origin/main
'

test_expect_success BASH 'a shallow checkout checks every report, and says why' '
	git -C work push -q origin feature &&
	mv work deep &&
	git clone -q --depth 1 --branch feature "file://$TRASH_DIRECTORY/origin.git" work &&
	run_verify GITHUB_BASE_REF=main &&
	echo 1 >expect && test_cmp expect verify.status &&
	test_grep "^::warning title=ahd-replay::no merge base with origin/main (a shallow checkout? use fetch-depth: 0); checking every report$" log &&
	test_grep "^3 reports: 2 intact, 1 drifted, 0 errors$" log &&
	rm -rf work && mv deep work
'

test_expect_success BASH,PYJSONSCHEMA 'sarif: a valid SARIF file for upload-sarif, named in the outputs' '
	run_verify GITHUB_BASE_REF=main AHD_SARIF=../replay.sarif &&
	echo 1 >expect && test_cmp expect verify.status &&
	test_grep "^sarif=../replay.sarif$" output &&
	python3 "$TEST_SRC_DIR/t/sarif/validate.py" \
		"$TEST_SRC_DIR/t/sarif/sarif-schema-2.1.0.json" replay.sarif
'

test_expect_success BASH 'paths, require-sidecar and signature inputs reach verify' '
	echo "# orphan" >"work/docs/an orphan.md" &&
	run_verify AHD_CHANGED_SINCE=all AHD_PATHS="docs/b.md
docs/c.md" AHD_REQUIRE_SIDECAR="  docs/*.md  
" &&
	echo 1 >expect && test_cmp expect verify.status &&
	test_grep "^::error file=docs/an orphan.md,line=1,title=replay missing sidecar::" log &&
	test_grep "^3 reports: 2 intact, 0 drifted, 0 errors, 1 missing sidecars$" log &&
	rm "work/docs/an orphan.md" &&
	run_verify AHD_CHANGED_SINCE=all AHD_PATHS=docs/b.md AHD_REQUIRE_SIGNATURE=true &&
	test_cmp expect verify.status &&
	test_grep "title=replay signature::signature: no signature at" log &&
	run_verify AHD_REQUIRE_SIGNATURE=maybe &&
	echo 2 >expect && test_cmp expect verify.status
'

test_expect_success BASH 'inputs are data, never shell' '
	run_verify AHD_CHANGED_SINCE=all AHD_PATHS="\$(touch pwned)" AHD_REQUIRE_SIDECAR="\`touch pwned2\`" &&
	test_path_is_missing work/pwned &&
	test_path_is_missing work/pwned2 &&
	test_path_is_missing pwned
'

# fetch_release REF [VAR=VALUE...]: action/fetch-release.sh as the
# Release binary step runs it, the releases page being releases/; its
# exit status in fetch.status, the binary it names in fetch.binary.
fetch_release () {
	fr_ref=$1 &&
	shift &&
	: >output &&
	mkdir -p tmp &&
	(
		env GITHUB_ACTION_PATH="$ACTION" GITHUB_OUTPUT="$TRASH_DIRECTORY/output" \
			RUNNER_TEMP="$TRASH_DIRECTORY/tmp" RUNNER_OS=Linux RUNNER_ARCH=X64 \
			AHD_ACTION_REF="$fr_ref" AHD_ACTION_REPOSITORY=someone/ahd-replay \
			AHD_RELEASE_BASE="file://$TRASH_DIRECTORY/releases" \
			"$@" "$ACTION/action/fetch-release.sh"
	) >log 2>err
	echo $? >fetch.status &&
	sed -n "s/^binary=\(..*\)/\1/p" output >fetch.binary
}

test_lazy_prereq CURL 'curl --version && sha256sum --version'

test_expect_success CURL 'setup: a release of this version, with its SHA256SUMS' '
	version=$(ahd-replay --version) &&
	tag=v${version#ahd-replay } &&
	echo "$tag" >tag &&
	mkdir -p "releases/$tag" &&
	cp "$AHD_REPLAY" "releases/$tag/ahd-replay-linux-x86_64" &&
	echo "fake deb" >"releases/$tag/ahd-replay_${tag#v}_amd64.deb" &&
	(cd "releases/$tag" && sha256sum ahd-replay-linux-x86_64 *.deb >SHA256SUMS)
'

test_expect_success CURL 'a version tag: the release binary, checked, no build' '
	fetch_release "$(cat tag)" &&
	echo 0 >expect && test_cmp expect fetch.status &&
	test_grep "^$TRASH_DIRECTORY/tmp/.*/bin/ahd-replay$" fetch.binary &&
	"$(cat fetch.binary)" --version >version &&
	ahd-replay --version >expect &&
	test_cmp expect version &&
	test_grep "the release binary of $(cat tag) (sha256 [0-9a-f]\{64\})" log
'

test_expect_success CURL 'without github.action_ref, the ref comes from the action'"'"'s path' '
	mkdir -p "_actions/someone/ahd-replay/$(cat tag)" &&
	fetch_release "" GITHUB_ACTION_PATH="$TRASH_DIRECTORY/_actions/someone/ahd-replay/$(cat tag)" &&
	echo 0 >expect && test_cmp expect fetch.status &&
	test -s fetch.binary
'

test_expect_success CURL 'a binary that does not match SHA256SUMS is refused, never run' '
	cp -R "releases/$(cat tag)" releases/v9.9.9 &&
	printf "#!/bin/sh\ntouch %s/ran\n" "$TRASH_DIRECTORY" >releases/v9.9.9/ahd-replay-linux-x86_64 &&
	fetch_release v9.9.9 &&
	echo 2 >expect && test_cmp expect fetch.status &&
	test_grep "^::error title=ahd-replay::the ahd-replay-linux-x86_64 of release v9.9.9 does not match its SHA256SUMS" log &&
	test_must_be_empty fetch.binary &&
	test_path_is_missing ran
'

test_expect_success CURL 'a release whose binary is another version is refused' '
	rm -rf releases/v9.9.9 &&
	cp -R "releases/$(cat tag)" releases/v9.9.9 &&
	fetch_release v9.9.9 &&
	echo 2 >expect && test_cmp expect fetch.status &&
	test_grep "release v9.9.9 holds" log
'

test_expect_success CURL 'no release for the tag (a moving major tag), a branch, a commit: build from source' '
	fetch_release v1 &&
	echo 0 >expect && test_cmp expect fetch.status &&
	test_must_be_empty fetch.binary &&
	test_grep "no release binary for v1" log &&
	test_grep "^binary=$" output &&
	fetch_release main &&
	test_cmp expect fetch.status &&
	test_grep "ref .main. is not a version tag; building from source" log &&
	fetch_release 0123456789abcdef0123456789abcdef01234567 &&
	test_must_be_empty fetch.binary &&
	fetch_release "$(cat tag)" RUNNER_ARCH=ARM64 &&
	test_grep "no release binary for Linux/ARM64" log &&
	test_must_be_empty fetch.binary
'

test_expect_success PYYAML 'release.yml: a version tag builds the .deb and the static binary, published with SHA256SUMS' '
	python3 - "$ACTION/.github/workflows/release.yml" <<-\EOF
	import sys, yaml
	w = yaml.safe_load(open(sys.argv[1]))
	on = w.get("on", w.get(True))
	assert list(on) == ["push"] and on["push"]["tags"] == ["v[0-9]+.[0-9]+.[0-9]+"], on
	build, release = w["jobs"]["build"], w["jobs"]["release"]
	assert build["container"] == "debian:12", build
	runs = "\n".join(s.get("run", "") for s in build["steps"])
	for word in ("make static", "make -j\"$(nproc)\" check", "t8020-static.trs",
	             "dpkg-buildpackage", "strip -o /tmp/dist/ahd-replay-linux-x86_64",
	             "sha256sum ahd-replay-linux-x86_64 ahd-replay_*.deb >SHA256SUMS"):
	    assert word in runs, word
	assert release["needs"] == "build" and release["permissions"] == {"contents": "write"}
	runs = "\n".join(s.get("run", "") for s in release["steps"])
	assert "sha256sum -c SHA256SUMS" in runs
	assert "ahd-replay-linux-x86_64 ahd-replay_*.deb SHA256SUMS" in runs
	assert w["permissions"] == {"contents": "read"}
	EOF
'

test_expect_success EXPENSIVE 'build: the action'"'"'s source builds and installs under the prefix' '
	GITHUB_ACTION_PATH="$ACTION" AHD_PREFIX="$TRASH_DIRECTORY/built" \
		RUNNER_TEMP="$TRASH_DIRECTORY/tmp" "$ACTION/action/build.sh" >out 2>&1 &&
	test_grep "^ahd-replay " out &&
	"$TRASH_DIRECTORY/built/bin/ahd-replay" --version
'

test_done
