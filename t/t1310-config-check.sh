#!/bin/sh

test_description='ahd-replay config: the committed .ahd-replay.yml

config check accepts a well-formed file (and no file at all) and refuses
each malformed one with file:line:column; config show prints each
setting after its origin, git config over the file, the command line
over both.'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"

. "$TEST_SRC_DIR/t/lib-sidecar.sh"

test_expect_success 'setup: a repository' '
	git init -q repo
'

test_expect_success 'no file: check passes, show has AHD'"'"'s layout only' '
	(cd repo && ahd-replay config check >out 2>err) &&
	test_must_be_empty repo/out &&
	test_must_be_empty repo/err &&
	(cd repo && ahd-replay config show >../show) &&
	printf "default\tlayout.ahd.records=**/*.replay.json\n" >expect &&
	test_cmp expect show
'

test_expect_success 'a well-formed file passes' '
	cat >repo/.ahd-replay.yml <<-\EOF &&
	version: 1
	layouts:
	  - name: runs
	    records: "runs/*/*/record.json"
	    commit: /git/commit
	    inputs:
	      - name: input
	        label: /inputs/*/role
	        path: /inputs/*/path
	        hash: /inputs/*/sha256
	        mode: raw
	        spelling: hex
	policy:
	  requireSidecar: ["docs/**.md"]
	  strict: true
	EOF
	(cd repo && ahd-replay config check)
'

test_expect_success 'show: the file, git config over it, --set over both' '
	(cd repo && git config ahd-replay.strict false &&
	 ahd-replay config show --set requireSidecar=x.md >../show) &&
	grep -x "file:.ahd-replay.yml:3	layout.runs.records=runs/\*/\*/record.json" show &&
	grep -x "file:.ahd-replay.yml:3	layout.runs.input.input.mode=raw" show &&
	grep -x "git config	ahd-replay.strict=false" show &&
	grep -x "command line	ahd-replay.requireSidecar=x.md" show &&
	(cd repo && git config --unset ahd-replay.strict &&
	 ahd-replay config show >../show) &&
	grep -x "file:.ahd-replay.yml:15	ahd-replay.strict=true" show &&
	grep -x "file:.ahd-replay.yml:14	ahd-replay.requireSidecar=docs/\*\*.md" show
'

test_expect_success 'show: --set of an unknown key is a usage error' '
	(cd repo && test_must_fail ahd-replay config show --set colour=1 2>../err) &&
	grep "no such policy key" err
'

# check_refuses LINE:COLUMN MESSAGE: the file on stdin is refused there.
check_refuses () {
	cat >repo/.ahd-replay.yml &&
	(cd repo && test_expect_code 1 ahd-replay config check 2>../err) &&
	grep -F ".ahd-replay.yml:$1: " err >at &&
	grep -F "$2" at || {
		cat err
		return 1
	}
}

test_expect_success 'refused: YAML that does not parse, with its line' '
	printf "layouts: [\n" | check_refuses 2:1 "invalid YAML"
'

test_expect_success 'refused: an unknown top-level key' '
	printf "version: 1\nlayout: []\n" | check_refuses 2:1 "unknown key '"'"'layout'"'"'"
'

test_expect_success 'refused: a version other than 1' '
	printf "version: 2\n" | check_refuses 1:10 "'"'"'version'"'"' must be 1"
'

test_expect_success 'refused: an unknown key in a layout' '
	printf "layouts:\n  - name: a\n    recrods: x\n" |
	check_refuses 3:5 "unknown key '"'"'recrods'"'"' in a layout"
'

test_expect_success 'refused: a layout without inputs' '
	printf "layouts:\n  - name: a\n    records: \"*.json\"\n" |
	check_refuses 2:5 "a layout wants"
'

test_expect_success 'refused: a records glob that leaves the root' '
	printf "layouts:\n  - name: a\n    records: ../x/*.json\n" |
	check_refuses 3:14 "leads outside the repository"
'

test_expect_success 'refused: an absolute records glob' '
	printf "layouts:\n  - name: a\n    records: /etc/*.json\n" |
	check_refuses 3:14 "leads outside the repository"
'

test_expect_success 'refused: a glob with an unclosed [' '
	printf "layouts:\n  - name: a\n    records: \"r/[ab.json\"\n" |
	check_refuses 3:14 "unclosed"
'

test_expect_success 'refused: a path that is no JSON Pointer' '
	printf "layouts:\n  - name: a\n    records: r.json\n    inputs:\n      - name: i\n        path: inputs/path\n        hash: /h\n" |
	check_refuses 6:15 "wants a JSON Pointer"
'

test_expect_success 'refused: a pointer with a bad ~ escape' '
	printf "layouts:\n  - name: a\n    records: r.json\n    inputs:\n      - name: i\n        path: /p~2\n        hash: /h\n" |
	check_refuses 6:15 "must be followed by 0 or 1"
'

test_expect_success 'refused: an unknown hash mode and spelling' '
	printf "layouts:\n  - name: a\n    records: r.json\n    inputs:\n      - name: i\n        path: /p\n        hash: /h\n        mode: bytes\n        spelling: b64\n" |
	check_refuses 8:15 "mode '"'"'bytes'"'"'" &&
	grep -F ".ahd-replay.yml:9:19: spelling '"'"'b64'"'"'" err
'

test_expect_success 'refused: two layouts of one name' '
	printf "layouts:\n  - name: a\n    records: r.json\n    inputs: [{name: i, path: /p, hash: /h}]\n  - name: a\n    records: s.json\n    inputs: [{name: i, path: /p, hash: /h}]\n" |
	check_refuses 5:1 "a second layout named"
'

test_expect_success 'refused: an unknown policy key' '
	printf "policy:\n  colour: x\n" |
	check_refuses 2:3 "unknown policy key '"'"'colour'"'"'"
'

# The trust roots: a file the change itself can edit cannot name whom to
# trust, so each is refused and the line says where it belongs.
for key in trustedKeys allowedSignersFile revokedKeysFile trustedRefs
do
	test_expect_success "refused: the trust root $key" '
		printf "policy:\n  strict: true\n  $key: keys\n" |
		check_refuses 3:3 "'"'"'$key'"'"' is refused: a file the change itself can edit cannot name whom to trust; set it in git config or on the command line"
	'
done

# The root decides where recorded paths lead: the file may not move it.
test_expect_success 'refused: root, with why' '
	printf "policy:\n  root: old-copies\n" |
	check_refuses 2:3 "'"'"'root'"'"' is refused: the root decides where recorded paths lead, and a change that could move it could point them at copies; set ahd-replay.root in git config"
'

# cache is read now (verify: cache: false turns the cache off, t1523).
test_expect_success 'refused: a cache policy that is no boolean' '
	printf "policy:\n  cache: x\n" |
	check_refuses 2:10 "'"'"'cache'"'"' wants true or false"
'

test_expect_success 'show: --set of a trust root is refused too' '
	rm -f repo/.ahd-replay.yml &&
	(cd repo && test_must_fail ahd-replay config show --set trustedKeys=k 2>../err) &&
	grep "no such policy key" err
'

test_expect_success 'show: the trust roots from git config, after the policy' '
	(cd repo && git config ahd-replay.trustedKeys .keys &&
	 git config ahd-replay.requireSignature true &&
	 ahd-replay config show >../show) &&
	git -C repo config --unset ahd-replay.trustedKeys &&
	git -C repo config --unset ahd-replay.requireSignature &&
	tail -n 2 show >last &&
	printf "git config\tahd-replay.requireSignature=true\ngit config\tahd-replay.trustedKeys=.keys\n" >expect &&
	test_cmp expect last
'

test_expect_success 'a key planted by the change through the file is not trusted' '
	git init -q pr &&
	mkdir -p pr/tokens pr/docs &&
	echo "name: swiss" >pr/tokens/swiss.yml &&
	(cd pr &&
	 write_sidecar docs/run.replay.json tokens/swiss.yml &&
	 echo "# run" >docs/run.md &&
	 ahd-replay keygen --out ../planted >/dev/null &&
	 mkdir .k && cp ../planted.pub .k/ &&
	 ahd-replay sign --key ../planted docs/run.replay.json >/dev/null &&
	 printf "policy:\n  trustedKeys: .k\n" >.ahd-replay.yml &&
	 test_expect_code 2 ahd-replay verify --require-signature \
		docs/run.replay.json >../out 2>../err) &&
	grep -F ".ahd-replay.yml:2:3: '"'"'trustedKeys'"'"' is refused" err &&
	! grep "^verdict: replay inputs intact" out &&
	rm pr/.ahd-replay.yml &&
	(cd pr && test_expect_code 1 ahd-replay verify --require-signature \
		docs/run.replay.json >../out) &&
	grep "^  FAIL  signature: unknown key .*no trusted keys" out &&
	(cd pr && ahd-replay verify --require-signature --trusted-keys .k \
		docs/run.replay.json >../out) &&
	grep "^  ok    signature by" out
'

test_expect_success 'refused: strict that is no boolean' '
	printf "policy:\n  strict: maybe\n" |
	check_refuses 2:11 "wants true or false"
'

test_expect_success 'a file that cannot be read: exit 2' '
	rm -f repo/.ahd-replay.yml &&
	mkdir repo/.ahd-replay.yml &&
	(cd repo && test_expect_code 2 ahd-replay config check) &&
	rmdir repo/.ahd-replay.yml
'

test_done
