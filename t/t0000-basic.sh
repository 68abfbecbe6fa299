#!/bin/sh

test_description='the binary: --version, --help, help CMD, usage errors'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"

test_expect_success 'the binary under test exists' '
	test -x "$AHD_REPLAY" &&
	command -v ahd-replay
'

test_expect_success 'a git command in the trash finds no repository, not the project'"'"'s' '
	mkdir lost &&
	(cd lost && ! git rev-parse --git-dir 2>err)
'

test_expect_success '--version prints the name and version' '
	echo "ahd-replay 0.1.0" >expect &&
	ahd-replay --version >actual 2>err &&
	test_cmp expect actual &&
	test_must_be_empty err
'

for opt in --help help
do
	test_expect_success "$opt lists hash and canon with a description" '
		ahd-replay '"$opt"' >out 2>err &&
		test_grep "^usage: ahd-replay" out &&
		test_grep -E "^[	 ]+hash[	 ]+[A-Za-z]" out &&
		test_grep -E "^[	 ]+canon[	 ]+[A-Za-z]" out &&
		test_must_be_empty err
	'
done

test_expect_success 'no arguments prints the usage and exits 2' '
	test_expect_code 2 ahd-replay >out 2>err &&
	cat out err >all &&
	test_grep "^usage: ahd-replay" all
'

test_expect_success 'an unknown command exits 2 and says so' '
	test_expect_code 2 ahd-replay frob >out 2>err &&
	test_grep "^ahd-replay: '\''frob'\'' is not an ahd-replay command" err &&
	test_must_be_empty out
'

test_expect_success 'an unknown global option exits 2' '
	test_expect_code 2 ahd-replay --frobnicate >out 2>err &&
	test_must_be_empty out
'

test_expect_success 'help for an unknown command fails' '
	test_must_fail ahd-replay help frob >out 2>err &&
	test_grep "frob" err
'

for cmd in hash canon
do
	test_expect_success "help $cmd prints the usage to stdout" '
		ahd-replay help '"$cmd"' >out 2>err &&
		test_grep "^usage: ahd-replay '"$cmd"'" out
	'

	test_expect_success "$cmd -h prints the usage to stdout and exits 0" '
		ahd-replay '"$cmd"' -h >out 2>err &&
		head -n 1 out >first &&
		test_grep "^usage: ahd-replay '"$cmd"'" first &&
		test_must_be_empty err
	'

	test_expect_success "help $cmd and $cmd -h agree" '
		ahd-replay help '"$cmd"' >help.out &&
		ahd-replay '"$cmd"' -h >h.out &&
		test_cmp help.out h.out
	'

	test_expect_success "$cmd with an unknown option exits 2, usage on stderr" '
		test_expect_code 2 ahd-replay '"$cmd"' --frobnicate x.yml >out 2>err &&
		test_grep "usage: ahd-replay '"$cmd"'" err &&
		test_must_be_empty out
	'
done

test_expect_success 'the usage of hash names its options' '
	ahd-replay hash -h >out &&
	test_grep -e "--raw" out &&
	test_grep -e "--jcs" out &&
	test_grep -e "--max-size" out
'

test_lazy_prereq DEVFULL '
	test -c /dev/full && ! (echo x >/dev/full) 2>/dev/null
'

test_expect_success DEVFULL 'a write error on stdout is a failure' '
	test_must_fail ahd-replay --version >/dev/full 2>err
'

# Like git's t0450: the SYNOPSIS of the man page shows what -h shows.
test_expect_success GROFF 'the man page synopsis matches -h' '
	groff -man -Tascii -rLL=300n -P-cbou \
		"$TEST_SRC_DIR/doc/ahd-replay.1" >man.raw 2>man.err &&
	test_must_be_empty man.err &&
	tr -s " \n" "  " <man.raw >man.txt &&
	for cmd in hash canon keygen sign
	do
		ahd-replay $cmd -h >usage.$cmd &&
		sed -n "1s/^usage: //p" usage.$cmd | tr -s " " " " >want.$cmd &&
		test -s want.$cmd &&
		grep -F -f want.$cmd man.txt >/dev/null || {
			echo "synopsis of $cmd not in the man page: $(cat want.$cmd)"
			return 1
		}
	done
'

test_expect_success PYTHON3 'the numfmt table is what its generator prints' '
	python3 "$TEST_SRC_DIR/tools/numfmt-table.py" >table &&
	sed -n "/^static const uint64_t g_table/,/^};/p" \
		"$TEST_SRC_DIR/src/json/numfmt.c" >in-tree &&
	test_line_count = 619 table &&
	test_cmp table in-tree
'

# Every command page's SYNOPSIS line is a line of its command's -h, and
# every command's usage lines are in a page (hook, run only by the hooks
# install-hooks writes, has none).
test_expect_success 'each command page SYNOPSIS is what -h shows' '
	for page in "$TEST_SRC_DIR"/doc/ahd-replay*.1
	do
		sed -n "/^\.SH SYNOPSIS/,/^\.SH/p" "$page" |
		grep "^\\\\fBahd" |
		sed -e "s/\\\\f[BIR]//g" -e "s/\\\\-/-/g" || return 1
	done >man.lines &&
	grep -v "\[options\]\|\.\.\.$\|help\]\? *\[\|--version" man.lines \
		>man.synopsis &&
	for cmd in backfill canon capture config diff hash hooks install-hooks \
		keygen log render replay sign uninstall-hooks validate verify
	do
		ahd-replay $cmd -h >usage.$cmd &&
		sed -n -e "s/^usage: //p" -e "s/^   or: //p" usage.$cmd ||
		return 1
	done >help.lines &&
	{ grep -vxF -f help.lines man.synopsis >extra.man || :; } &&
	{ grep -vxF -f man.lines help.lines >extra.help || :; } &&
	test_line_count -gt 10 man.synopsis &&
	test_must_be_empty extra.man &&
	test_must_be_empty extra.help
'


# The README's second command, run with stand-ins for apt-get, autoreconf
# and make on a PATH that holds nothing else, in a directory with a
# stand-in configure: which packages would it install?
readme_test_command () {
	grep -A 3 "^Install, build, and run the whole test suite:" \
		"$TEST_SRC_DIR/README.md" | grep "make check" >cmd &&
	test_line_count -eq 1 cmd &&
	rm -rf fake run && mkdir fake run &&
	for tool in apt-get autoreconf make "$@"
	do
		printf "#!/bin/sh\necho \"%s \$*\" >>\"%s/calls\"\n" \
			"$tool" "$TRASH_DIRECTORY" >fake/$tool &&
		chmod +x fake/$tool || return 1
	done &&
	printf "#!/bin/sh\necho configure >>\"%s/calls\"\n" "$TRASH_DIRECTORY" \
		>run/configure &&
	chmod +x run/configure &&
	: >calls &&
	(cd run && PATH=$TRASH_DIRECTORY/fake /bin/sh ../cmd)
}

test_expect_success 'README: the test command keeps a Node it finds (NodeSource'"'"'s conflicts with Debian'"'"'s npm)' '
	readme_test_command node npm &&
	test_grep "^apt-get install -y .*libgit2-dev" calls &&
	test_grep ! "nodejs\|npm" calls &&
	test_grep "^make check$" calls
'

test_expect_success 'README: the test command installs Node and npm where there are none' '
	readme_test_command &&
	test_grep "^apt-get install -y nodejs npm$" calls &&
	test_grep "^make check$" calls &&
	readme_test_command node &&
	test_grep "^apt-get install -y nodejs npm$" calls
'

test_expect_success 'README and the man page point at the contract in doc/' '
	test_path_is_file "$TEST_SRC_DIR/doc/SPEC.md" &&
	test_grep "(doc/SPEC.md)" "$TEST_SRC_DIR/README.md" &&
	test_grep ! "shared directory" "$TEST_SRC_DIR/README.md" &&
	test_grep "^\\.B doc/SPEC.md$" "$TEST_SRC_DIR/doc/ahd-replay.1" &&
	test_grep "^## 4. The hash contract$" "$TEST_SRC_DIR/doc/SPEC.md"
'

test_done
