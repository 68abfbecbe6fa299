# shellcheck shell=sh
# Shell library for the tests that run node against t/oracle: finds or
# installs its packages (yaml@2.8.3 and zod, pinned by package-lock.json).
#
# Source it after test-lib.sh, with ORACLE_SRC set to t/oracle and
# oracle_npm_home set to HOME as it was before test-lib.sh replaced it
# (npm keeps its cache and configuration there).  Then:
#
#   oracle_setup
#
# sets oracle_dir to a directory whose node_modules is ready, or
# oracle_skip to the reason there is none.

oracle_ready () {
	test -f "$1/node_modules/yaml/package.json" &&
	grep '"version": "2.8.3"' "$1/node_modules/yaml/package.json" >/dev/null &&
	test -f "$1/node_modules/zod/package.json"
}

# dir_writable DIR: writable, and not made read-only on purpose (root may
# write anywhere, but `make distcheck` marks its source tree read-only).
dir_writable () {
	test -w "$1" && test -n "$(find "$1" -prune -perm -u=w 2>/dev/null)"
}

oracle_install () {
	if ! command -v npm >/dev/null 2>&1
	then
		oracle_skip="npm not found, cannot install yaml and zod into $oracle_dir/node_modules"
		return
	fi
	echo "# installing yaml and zod with npm ci in $oracle_dir"
	oracle_timeout_=
	command -v timeout >/dev/null 2>&1 && oracle_timeout_='timeout 600'
	if ! (cd "$oracle_dir" && HOME=$oracle_npm_home $oracle_timeout_ \
		npm ci --no-audit --no-fund --loglevel=error) \
		>"$TRASH_DIRECTORY/npm-ci.log" 2>&1 ||
	   ! oracle_ready "$oracle_dir"
	then
		oracle_skip="npm ci failed in $oracle_dir (no registry or cache?)"
		tail -n 5 "$TRASH_DIRECTORY/npm-ci.log" | sed 's/^/#   npm: /'
	fi
}

oracle_setup () {
	oracle_dir=
	oracle_skip=
	if ! test_have_prereq NODE
	then
		oracle_skip="node not found or not runnable (NODE='$NODE')"
		return
	fi
	if oracle_ready "$ORACLE_SRC"
	then
		oracle_dir=$ORACLE_SRC
		return
	fi
	if dir_writable "$ORACLE_SRC" && { test ! -e "$ORACLE_SRC/node_modules" ||
		dir_writable "$ORACLE_SRC/node_modules"; }
	then
		oracle_dir=$ORACLE_SRC
	else
		# read-only source tree (make distcheck): install into a copy
		# in the trash directory, which goes away when the tests pass
		oracle_dir=$TRASH_DIRECTORY/oracle
		if ! { mkdir -p "$oracle_dir" &&
			cp "$ORACLE_SRC"/package.json "$ORACLE_SRC"/package-lock.json \
				"$ORACLE_SRC"/*.mjs "$oracle_dir"/ &&
			chmod u+w "$oracle_dir"/*; }
		then
			oracle_skip="cannot copy the oracle to $oracle_dir"
			return
		fi
	fi
	oracle_ready "$oracle_dir" || oracle_install
}

# test_checked_in_vectors SET...: for each SET, hash $VECTORS/SET.bin with
# $BATCH and compare with the reference's answers in $VECTORS/SET.txt
# ($COMPARE), allowing $SET_max unsupported records; the compare's
# summary goes to the TAP output as comments.
test_checked_in_vectors () {
	for set in "$@"
	do
		eval "max=\$${set}_max"
		test_expect_success "checked-in vectors: $set" '
			"$BATCH" "$VECTORS/$set.bin" >$set.ours &&
			sh "$COMPARE" --corpus "$VECTORS/$set.bin" \
				--max-unsupported $max \
				"$VECTORS/$set.txt" $set.ours >$set.compare ||
			{ cat $set.compare; false; }
		'
		if test -f "$TRASH_DIRECTORY/$set.compare"
		then
			sed -n -e "/^$/q" -e "s/^/# $set vectors: /p" \
				"$TRASH_DIRECTORY/$set.compare"
		fi
	done
}

# oracle_prereq: oracle_setup, then the ORACLE prerequisite when the
# oracle is ready, or a comment saying why the live comparison skips.
oracle_prereq () {
	oracle_setup
	if test -z "$oracle_skip"
	then
		test_set_prereq ORACLE
	else
		echo "# SKIPPING the live comparison: $oracle_skip"
	fi
}
