#!/bin/sh

test_description='the walls: each library behind its door, no include cycle
between folders, files and functions of a readable size

tools/check-walls.sh holds the rules as data and checks a source tree; the
first tests run each rule on src/.  A rule the tree still breaks is a known
breakage (test_expect_failure) until the change that mends it lands; run
this script with -v to see what breaks it.  The tests after that plant
each kind of violation in a small clean tree, and one in a copy of src/,
to show that every rule names the file and the call, and that comments
and string literals never trip it.'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"

walls=$TEST_SRC_DIR/tools/check-walls.sh
SQ="'"

# walls_stand RULE TREE: RULE holds in TREE (status 0, no output).
walls_stand () {
	sh "$walls" --rule="$1" "$2" >out 2>err
	ws_status=$?
	cat out err
	test_must_be_empty err &&
	test_must_be_empty out &&
	test "$ws_status" = 0
}

# walls_broken RULE TREE: RULE is broken in TREE (status 1, nothing on
# stderr); what the checker says is left in "out".
walls_broken () {
	sh "$walls" --rule="$1" "$2" >out 2>err
	wb_status=$?
	test_must_be_empty err &&
	if test "$wb_status" != 1
	then
		echo "check-walls exited with $wb_status, not 1"
		return 1
	fi
}

# plant NAME: NAME is a fresh copy of the clean tree.
plant () {
	rm -rf "$1" &&
	cp -R clean "$1"
}

# lines N: N empty lines.
lines () {
	awk -v n="$1" "BEGIN { for (i = 0; i < n; i++) print \"\" }"
}

# function_of NAME N: a C function NAME whose body, braces included, is
# N lines long.
function_of () {
	echo "int $1(void)" &&
	echo "{" &&
	awk -v n="$(($2 - 3))" "BEGIN { for (i = 0; i < n; i++) print \"\tx++;\" }" &&
	echo "	return x;" &&
	echo "}"
}

test_expect_success 'the checker runs on src/ (every rule; 0 or 1, nothing on stderr)' '
	sh "$walls" "$TEST_SRC_DIR/src" >report 2>err
	status=$? &&
	test_must_be_empty err &&
	test "$status" -le 1
'

# The walls of src/ as they stand.  Known breakages are marked so until
# the moves that mend them land.
test_expect_success 'libgit2 is called only in git/ and ahd-replay.c' '
	walls_stand libgit2 "$TEST_SRC_DIR/src"
'

test_expect_success 'jansson is called only in json/' '
	walls_stand jansson "$TEST_SRC_DIR/src"
'

test_expect_success 'libyaml is called only in yaml/' '
	walls_stand libyaml "$TEST_SRC_DIR/src"
'

test_expect_success 'OpenSSL is called only in sign/ and hash/digest.c' '
	walls_stand openssl "$TEST_SRC_DIR/src"
'

test_expect_success 'nothing of ours is named git_* or json_*' '
	walls_stand names "$TEST_SRC_DIR/src"
'

test_expect_success 'no include cycle between folders' '
	walls_stand cycles "$TEST_SRC_DIR/src"
'

test_expect_success 'each builtin/*.c is at most 300 lines' '
	walls_stand builtin-size "$TEST_SRC_DIR/src"
'

test_expect_success 'no file is over 1,000 lines (but the numfmt table)' '
	walls_stand file-size "$TEST_SRC_DIR/src"
'

test_expect_success 'no function is over 120 lines' '
	walls_stand function-size "$TEST_SRC_DIR/src"
'

# A tree that keeps every wall: each library called through its door,
# folders that include one way, and a file that mentions every library
# in comments and string literals only.  Q stands for a single quote; C
# bodies are indented with spaces, as <<- strips the tabs.
test_expect_success 'setup: a clean tree' '
	mkdir -p clean/builtin clean/git clean/json clean/yaml clean/sign \
		clean/hash clean/record &&
	cat >clean/ahd-replay.c <<-\EOF &&
	#include <git2.h>
	#include "config.h"
	#include "builtin.h"
	#include "git/repo.h"

	int main(int argc, char **argv)
	{
	    git_libgit2_init();
	    return cmd_frob(argc, argv);
	}
	EOF
	echo "int cmd_frob(int argc, char **argv);" >clean/builtin.h &&
	echo "struct strbuf { char *buf; };" >clean/strbuf.h &&
	echo "#include \"strbuf.h\"" >clean/strbuf.c &&
	cat >clean/builtin/frob.c <<-\EOF &&
	#include "builtin.h"
	#include "record/notes.h"

	int cmd_frob(int argc, char **argv)
	{
	    return notes_count();
	}
	EOF
	cat >clean/git/repo.h <<-\EOF &&
	#include <git2/types.h>
	#include "strbuf.h"

	int repo_open(struct strbuf *path);
	git_repository *repo_handle(void);
	EOF
	cat >clean/git/repo.c <<-\EOF &&
	#include <git2.h>
	#include "repo.h"

	int repo_open(struct strbuf *path)
	{
	    git_repository *r = NULL;

	    return git_repository_open(&r, path->buf);
	}
	EOF
	echo "int value_parse(const char *text);" >clean/json/value.h &&
	cat >clean/json/value.c <<-\EOF &&
	#include <jansson.h>
	#include "value.h"

	int value_parse(const char *text)
	{
	    json_error_t e;
	    json_t *j = json_loads(text, 0, &e);

	    json_decref(j);
	    return j ? 0 : -1;
	}
	EOF
	lines 1100 >clean/json/numfmt.c &&
	echo "int load(void);" >clean/yaml/load.h &&
	cat >clean/yaml/load.c <<-\EOF &&
	#include <yaml.h>
	#include "load.h"
	#include "json/value.h"

	int load(void)
	{
	    yaml_parser_t p;

	    return yaml_parser_initialize(&p);
	}
	EOF
	echo "int key_free(void);" >clean/sign/key.h &&
	cat >clean/sign/key.c <<-\EOF &&
	#include <openssl/evp.h>
	#include "key.h"

	int key_free(void)
	{
	    EVP_PKEY_free(NULL);
	    ERR_clear_error();
	    return 0;
	}
	EOF
	echo "int digest(void);" >clean/hash/digest.h &&
	cat >clean/hash/digest.c <<-\EOF &&
	#include <openssl/evp.h>
	#include "digest.h"

	int digest(void)
	{
	    EVP_MD_CTX *c = EVP_MD_CTX_new();

	    EVP_MD_CTX_free(c);
	    return 0;
	}
	EOF
	echo "int notes_count(void);" >clean/record/notes.h &&
	sed "s/Q/$SQ/g" >clean/record/notes.c <<-\EOF &&
	/*
	 * Never git_repository_open( here, nor json_loads(, json_t,
	 * yaml_parser_parse(, EVP_DigestInit(, #include <git2.h> or
	 * #include <openssl/evp.h>: the doors are elsewhere.
	 * int git_frob(void)
	 * #define JSON_MAX 3
	 */
	#include "git/repo.h"
	#include "json/value.h"
	#include "notes.h" /* git_blob_lookup( */

	// json_object( in a line comment
	static const char *why = "git_repository_open( json_t yaml_emitter_emit(";
	static const char *ssl = "EVP_MD_CTX_new( OPENSSL_free( <openssl/sha.h>";
	static const char quote = Q"Q;
	static const char bs = Q\\Q;
	static const char *esc = "\" git_blob_lookup( \\";
	static const char *cont = "a string continued \
	on a line of its own: json_object_get( yaml_parser_delete(";

	int notes_count(void)
	{
	    return quote + bs + why[0] + ssl[0] + esc[0] + cont[0]; /* json_t */
	}
	EOF
	function_of fits 120 >>clean/record/notes.c &&
	lines 299 >clean/builtin/long.c &&
	lines 999 >clean/record/long.c
'

for rule in libgit2 jansson libyaml openssl names cycles builtin-size \
	file-size function-size
do
	test_expect_success "the clean tree keeps the $rule wall" '
		walls_stand '"$rule"' clean
	'
done

test_expect_success 'libgit2: a call, an include, outside git/' '
	plant p &&
	n=$(wc -l <p/record/notes.c) &&
	cat >>p/record/notes.c <<-\EOF &&
	int notes_open(git_repository *r)
	{
	    return git_repository_open (&r, ".");
	}
	#include <git2/oid.h>
	EOF
	echo "#include <git2.h>" >>p/builtin/frob.c &&
	walls_broken libgit2 p &&
	cat >expect <<-EOF &&
	record/notes.c:$((n + 3)): libgit2 outside git/,ahd-replay.c: git_repository_open (
	builtin/frob.c:8: libgit2 outside git/,ahd-replay.c: #include <git2.h>
	record/notes.c:$((n + 5)): libgit2 outside git/,ahd-replay.c: #include <git2/oid.h>
	EOF
	test_cmp expect out
'

test_expect_success 'libgit2: a call planted in a copy of src/ is named' '
	mkdir real &&
	(cd "$TEST_SRC_DIR/src" && find . -name "*.[ch]") >sources &&
	while read -r f
	do
		mkdir -p "real/${f%/*}" &&
		cp "$TEST_SRC_DIR/src/$f" "real/$f" || return 1
	done <sources &&
	n=$(wc -l <real/strbuf.c) &&
	printf "void planted(void)\n{\n\tgit_repository_open(0, 0);\n}\n" \
		>>real/strbuf.c &&
	walls_broken libgit2 real &&
	test_grep "^strbuf.c:$((n + 3)): libgit2 outside git/,ahd-replay.c: git_repository_open($" out
'

test_expect_success 'jansson: a call, json_t, json_error_t, an include, outside json/' '
	plant p &&
	n=$(wc -l <p/record/notes.c) &&
	cat >>p/record/notes.c <<-\EOF &&
	static json_t *notes_json(json_error_t *e)
	{
	    return json_object ();
	}
	#include <jansson.h>
	EOF
	walls_broken jansson p &&
	cat >expect <<-EOF &&
	record/notes.c:$((n + 3)): jansson outside json/: json_object (
	record/notes.c:$((n + 1)): jansson outside json/: json_t
	record/notes.c:$((n + 1)): jansson outside json/: json_error_t
	record/notes.c:$((n + 5)): jansson outside json/: #include <jansson.h>
	EOF
	test_cmp expect out
'

test_expect_success 'libyaml: a call and an include outside yaml/' '
	plant p &&
	printf "#include <yaml.h>\nint f(void) { return yaml_parser_parse(0, 0); }\n" \
		>>p/json/value.c &&
	walls_broken libyaml p &&
	n=$(wc -l <p/json/value.c) &&
	cat >expect <<-EOF &&
	json/value.c:$n: libyaml outside yaml/: yaml_parser_parse(
	json/value.c:$((n - 1)): libyaml outside yaml/: #include <yaml.h>
	EOF
	test_cmp expect out
'

test_expect_success 'OpenSSL: any of its prefixes, an include, outside sign/ and hash/digest.c' '
	plant p &&
	cat >p/hash/file.c <<-\EOF &&
	#include <openssl/sha.h>
	void f(void)
	{
	    EVP_MD_CTX *c = EVP_MD_CTX_new();
	    OPENSSL_free(c);
	    BN_free(0); RSA_free(0); EC_KEY_free(0);
	    ERR_clear_error(); PEM_read_bio(0);
	}
	EOF
	walls_broken openssl p &&
	cat >expect <<-\EOF &&
	hash/file.c:4: openssl outside sign/,hash/digest.c: EVP_MD_CTX
	hash/file.c:4: openssl outside sign/,hash/digest.c: EVP_MD_CTX_new
	hash/file.c:5: openssl outside sign/,hash/digest.c: OPENSSL_free
	hash/file.c:6: openssl outside sign/,hash/digest.c: BN_free
	hash/file.c:6: openssl outside sign/,hash/digest.c: RSA_free
	hash/file.c:6: openssl outside sign/,hash/digest.c: EC_KEY_free
	hash/file.c:7: openssl outside sign/,hash/digest.c: ERR_clear_error
	hash/file.c:7: openssl outside sign/,hash/digest.c: PEM_read_bio
	hash/file.c:1: openssl outside sign/,hash/digest.c: #include <openssl/sha.h>
	EOF
	test_cmp expect out
'

test_expect_success 'names: a function, a struct, a typedef, a macro of ours named git_/json_' '
	plant p &&
	n=$(wc -l <p/json/value.c) &&
	cat >>p/json/value.c <<-\EOF &&
	static json_t *
	json_wrap(json_t *v)
	{
	    return v;
	}
	int git_notes(void);
	struct json_box {
	    int x;
	};
	typedef int json_count;
	typedef struct {
	    int y;
	} git_pair;
	#define GIT_NOTES_MAX 3
	# define json_max(a) (a)
	EOF
	walls_broken names p &&
	cat >expect <<-EOF &&
	json/value.c:$((n + 2)): names: function json_wrap()
	json/value.c:$((n + 6)): names: function git_notes()
	json/value.c:$((n + 7)): names: struct json_box
	json/value.c:$((n + 10)): names: typedef json_count
	json/value.c:$((n + 13)): names: typedef git_pair
	json/value.c:$((n + 14)): names: macro GIT_NOTES_MAX
	json/value.c:$((n + 15)): names: macro json_max
	EOF
	test_cmp expect out
'

test_expect_success 'cycles: two folders that include each other' '
	plant p &&
	echo "#include \"record/notes.h\"" >>p/git/repo.h &&
	walls_broken cycles p &&
	cat >expect <<-\EOF &&
	git/repo.h:6: cycles: git/ -> record/ -> git/: #include "record/notes.h"
	record/notes.c:8: cycles: record/ -> git/ -> record/: #include "git/repo.h"
	EOF
	test_cmp expect out
'

test_expect_success 'cycles: three folders in a ring' '
	plant p &&
	echo "#include \"hash/digest.h\"" >>p/json/value.c &&
	echo "#include \"yaml/load.h\"" >>p/hash/digest.c &&
	walls_broken cycles p &&
	cat >expect <<-\EOF &&
	hash/digest.c:11: cycles: hash/ -> yaml/ -> json/ -> hash/: #include "yaml/load.h"
	json/value.c:12: cycles: json/ -> hash/ -> yaml/ -> json/: #include "hash/digest.h"
	yaml/load.c:3: cycles: yaml/ -> json/ -> hash/ -> yaml/: #include "json/value.h"
	EOF
	test_cmp expect out
'

test_expect_success 'cycles: a bare name is the base folder when its own folder lacks it' '
	plant p &&
	echo "#include \"git/repo.h\"" >>p/strbuf.c &&
	walls_broken cycles p &&
	cat >expect <<-\EOF &&
	git/repo.h:2: cycles: git/ -> (base) -> git/: #include "strbuf.h"
	strbuf.c:2: cycles: (base) -> git/ -> (base): #include "git/repo.h"
	EOF
	test_cmp expect out &&
	plant p &&
	echo "#include \"git/repo.h\"" >>p/strbuf.c &&
	echo "struct strbuf;" >p/git/strbuf.h &&
	walls_stand cycles p
'

test_expect_success 'builtin-size: 301 lines in builtin/' '
	plant p &&
	echo >>p/builtin/long.c &&
	echo >>p/builtin/long.c &&
	walls_broken builtin-size p &&
	echo "builtin/long.c: builtin-size: 301 lines, more than 300" >expect &&
	test_cmp expect out
'

test_expect_success 'file-size: 1,001 lines, but json/numfmt.c' '
	plant p &&
	echo >>p/record/long.c &&
	echo >>p/record/long.c &&
	walls_broken file-size p &&
	echo "record/long.c: file-size: 1001 lines, more than 1000" >expect &&
	test_cmp expect out
'

test_expect_success 'function-size: a body of 121 lines' '
	plant p &&
	n=$(wc -l <p/record/notes.c) &&
	function_of too_long 121 >>p/record/notes.c &&
	walls_broken function-size p &&
	echo "record/notes.c:$((n + 2)): function-size: too_long() is 121 lines, more than 120" >expect &&
	test_cmp expect out
'

test_expect_success 'usage errors exit 2' '
	sh "$walls" >out 2>err
	test $? = 2 &&
	test_grep "^usage:" err &&
	sh "$walls" --rule=bogus clean >out 2>err
	test $? = 2 &&
	test_grep "unknown rule" err &&
	sh "$walls" no-such-dir >out 2>err
	test $? = 2
'

test_done
