#!/bin/sh

test_description='validate: a layout'"'"'s records against the layout'"'"'s schema

The demo (examples/make-demo-runs-repo.sh) gains a schema for its run
records, named by the layout'"'"'s schema key.  validate checks each record
against it (an operand, the records under a directory, or every record
of a layout with a schema when there are no operands); the schema is
read beneath the top.'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"

make_demo=$TEST_SRC_DIR/examples/make-demo-runs-repo.sh
base=runs/2026-09-01/baseline/record.json

test_expect_success 'setup: the demo, its layout naming a schema' '
	lsan_ignore_libgit2_leaks &&
	sh "$make_demo" demo &&
	mkdir demo/schema &&
	cat >demo/schema/record.schema.json <<-\EOF &&
	{
	  "$schema": "https://json-schema.org/draft/2020-12/schema",
	  "type": "object",
	  "required": ["name", "git", "inputs"],
	  "properties": {
	    "name": {"type": "string"},
	    "git": {
	      "type": "object",
	      "required": ["commit"],
	      "properties": {"commit": {"type": "string", "pattern": "^[0-9a-f]{40}$"}}
	    },
	    "inputs": {"type": "array"}
	  }
	}
	EOF
	sed "s|^    command: /command\$|&\\
    schema: schema/record.schema.json|" demo/.ahd-replay.yml >yml &&
	mv yml demo/.ahd-replay.yml &&
	(cd demo && ahd-replay config check)
'

test_expect_success 'no operands: every record of the layout, against its schema' '
	(cd demo && ahd-replay validate >../out) &&
	cat >expect <<-EOF &&
	runs/2026-09-01/baseline/record.json: valid
	runs/2026-09-02/nightly/record.json: valid
	runs/2026-09-03/long-context/record.json: valid
	3 files: 3 valid, 0 invalid, 0 errors
	EOF
	test_cmp expect out
'

test_expect_success 'a record that breaks the layout'"'"'s schema: its pointer, exit 1' '
	sed "s/\"name\": \"baseline\"/\"name\": 7/" demo/$base >rec &&
	mv rec demo/$base &&
	(cd demo && test_expect_code 1 ahd-replay validate $base >../bad) &&
	echo "$base: /name: must be string" >expect &&
	test_cmp expect bad &&
	(cd demo && git checkout -q -- $base)
'

test_expect_success 'a directory operand: the records below it' '
	(cd demo && ahd-replay validate runs/2026-09-02 >../dir) &&
	echo "runs/2026-09-02/nightly/record.json: valid" >expect &&
	test_cmp expect dir
'

test_expect_success 'records and AHD sidecars together, with --format=json' '
	(cd demo && ahd-replay validate --format=json $base >../j) &&
	grep "\"file\": \"$base\"" j &&
	grep "\"valid\": true" j
'

test_expect_success 'a layout without a schema: its record cannot be validated, exit 2' '
	cp -R demo noschema &&
	grep -v "^    schema:" noschema/.ahd-replay.yml >yml &&
	mv yml noschema/.ahd-replay.yml &&
	(cd noschema && test_expect_code 2 ahd-replay validate $base 2>../err) &&
	grep "layout .runs. names no schema" err &&
	(cd noschema && test_expect_code 2 ahd-replay validate 2>../usage) &&
	grep "no sidecar given" usage
'

test_expect_success 'config check refuses a schema path that leaves the top' '
	cp -R demo escape &&
	sed "s|schema: schema/record.schema.json|schema: ../record.schema.json|" \
		escape/.ahd-replay.yml >yml &&
	mv yml escape/.ahd-replay.yml &&
	(cd escape && test_expect_code 1 ahd-replay config check 2>../err) &&
	grep "path .../record.schema.json. leads outside the repository" err
'

test_expect_success 'a schema that a symbolic link leads out of the top is refused' '
	cp -R demo linked &&
	cp demo/schema/record.schema.json outside.schema.json &&
	rm linked/schema/record.schema.json &&
	ln -s "$PWD/outside.schema.json" linked/schema/record.schema.json &&
	(cd linked && test_expect_code 2 ahd-replay validate $base 2>../err) &&
	grep "layout .runs.: schema schema/record.schema.json: " err
'

test_done
