#!/bin/sh

test_description='SSH trust fails closed

A revoked-keys or allowed-signers file that cannot be read or parsed
makes every SSH signature fail, in every output format; the
allowed-signers form of a revoked key is honoured; a line ssh-keygen
skips is skipped with a warning naming it; keys from pull-request files
cost no public-key check.'

. "${TEST_SRC_DIR:-$(dirname "$0")/..}/t/test-lib.sh"

. "$TEST_SRC_DIR/t/lib-sidecar.sh"

test_lazy_prereq SSHKEYGEN '
	ssh-keygen -q -t ed25519 -N "" -C probe -f probe &&
	printf x | ssh-keygen -Y sign -n probe -f probe >probe.sig 2>/dev/null
'

test_expect_success SSHKEYGEN 'setup: a signed report' '
	git init -q repo &&
	mkdir -p repo/tokens repo/docs &&
	printf "name: swiss\ngrid: 12\n" >repo/tokens/swiss.yml &&
	(
		cd repo &&
		write_sidecar docs/run.replay.json tokens/swiss.yml
	) &&
	echo "# run" >repo/docs/run.md &&
	ssh-keygen -q -t ed25519 -N "" -C alice -f alice &&
	echo "alice@example.com $(cat alice.pub)" >allowed &&
	ahd-replay sign --ssh-key alice repo/docs/run.md >out &&
	ahd-replay verify --allowed-signers allowed repo/docs/run.md >out &&
	test_grep "^  ok    SSH signature by alice@example.com" out
'

test_expect_success SSHKEYGEN 'a missing revoked-keys file fails every format' '
	test_expect_code 2 ahd-replay verify --allowed-signers allowed \
		--revoked-keys no-such-file repo/docs/run.md >out 2>err &&
	test_grep "cannot read .no-such-file" err &&
	test_grep ! "^  ok    SSH signature" out &&
	test_grep ! "replay inputs intact" out &&
	test_grep "SSH trust did not load completely" out &&
	test_expect_code 2 ahd-replay verify --format=json \
		--allowed-signers allowed --revoked-keys no-such-file \
		repo/docs/run.md >out 2>err &&
	test_grep "\"trust-unavailable\"" out &&
	test_grep ! "\"status\": \"ok\"" out &&
	test_expect_code 2 ahd-replay verify --format=github \
		--allowed-signers allowed --revoked-keys no-such-file \
		repo/docs/run.md >out 2>err &&
	test_grep "^::error" out &&
	test_grep ! "intact" out
'

test_expect_success SSHKEYGEN 'a revoked-keys file missing at --trusted-keys-at fails' '
	cp allowed repo/allowed &&
	git -C repo add allowed tokens docs &&
	git -C repo commit -q -m base &&
	test_expect_code 2 ahd-replay verify --trusted-keys-at=HEAD \
		--allowed-signers repo/allowed --revoked-keys repo/revoked \
		repo/docs/run.md >out 2>err &&
	test_grep "is not in HEAD" err &&
	test_grep ! "^  ok    SSH signature" out &&
	test_grep "SSH trust did not load completely" out
'

test_expect_success SSHKEYGEN 'a revoked key listed as an allowed-signers line is revoked' '
	echo "alice@example.com $(cat alice.pub)" >revoked &&
	echo "* namespaces=\"git\" $(cat alice.pub)" >revoked2 &&
	for r in revoked revoked2
	do
		test_expect_code 1 ahd-replay verify --allowed-signers allowed \
			--revoked-keys $r repo/docs/run.md >out &&
		test_grep "is revoked ($r)" out || return 1
	done
'

test_expect_success SSHKEYGEN 'an unparsable revoked-keys file is named and fails closed' '
	echo "alice@example.com what-is-this AAAA" >revoked3 &&
	test_expect_code 2 ahd-replay verify --allowed-signers allowed \
		--revoked-keys revoked3 repo/docs/run.md >out 2>err &&
	test_grep "revoked3:1: " err &&
	test_grep ! "^  ok    SSH signature" out
'

test_expect_success SSHKEYGEN 'an option ssh-keygen skips skips that line only' '
	{
		echo "bob@example.com no-touch-required $(cat alice.pub)" &&
		cat allowed
	} >allowed2 &&
	ahd-replay verify --allowed-signers allowed2 repo/docs/run.md \
		>out 2>err &&
	test_grep "allowed2:1: unknown option .no-touch-required.: the line is skipped" err &&
	test_grep "^  ok    SSH signature by alice@example.com" out
'

test_expect_success SSHKEYGEN 'a broken allowed-signers file is named, not "no file"' '
	echo "alice@example.com $(cat alice.pub | cut -c1-30)" >allowed3 &&
	test_expect_code 2 ahd-replay verify --allowed-signers allowed3 \
		repo/docs/run.md >out 2>err &&
	test_grep ! "no allowed signers file" out &&
	test_grep "allowed3:1: " out
'

# rsa_sig BITS: an SSHSIG armour whose key is a BITS-bit RSA modulus of
# random bytes with no small factor (no real key: only what parsing it
# costs matters).
rsa_sig () {
	python3 - "$1" <<-\PY
	import base64, os, struct, sys
	def s(b): return struct.pack(">I", len(b)) + b
	# no small factor, so that a public-key check cannot stop early
	small = [p for p in range(3, 2000, 2) if all(p % q for q in range(3, p, 2))]
	while True:
	    n = int.from_bytes(os.urandom(int(sys.argv[1]) // 8), "big")
	    n |= (1 << (int(sys.argv[1]) - 1)) | 1
	    if all(n % p for p in small):
	        break
	n = n.to_bytes(int(sys.argv[1]) // 8, "big")
	key = s(b"ssh-rsa") + s(b"\x01\x00\x01") + s(b"\x00" + n)
	sig = s(b"rsa-sha2-512") + s(bytes(len(n)))
	blob = (b"SSHSIG" + struct.pack(">I", 1) + s(key) + s(b"ahd-replay") +
		s(b"") + s(b"sha512") + s(sig))
	b = base64.b64encode(blob).decode()
	print("-----BEGIN SSH SIGNATURE-----")
	for i in range(0, len(b), 70):
	    print(b[i:i + 70])
	print("-----END SSH SIGNATURE-----")
	PY
}

test_expect_success SSHKEYGEN,PYTHON3 'a 16384-bit RSA key in a planted .sig costs no public-key check' '
	cp repo/docs/run.replay.json.sig good.sig &&
	test_when_finished "cp good.sig repo/docs/run.replay.json.sig" &&
	rsa_sig 16384 >repo/docs/run.replay.json.sig &&
	for i in 1 2 3 4 5 6
	do
		mkdir -p repo/d$i &&
		cp repo/docs/run.md repo/d$i/run.md &&
		cp repo/docs/run.replay.json repo/d$i/ &&
		rsa_sig 16384 >repo/d$i/run.replay.json.sig || return 1
	done &&
	# CPU seconds, not wall-clock: the machine may be busy.
	(
		ulimit -t 3 &&
		test_expect_code 1 ahd-replay verify --allowed-signers allowed \
			repo/docs/run.md repo/d1/run.md repo/d2/run.md \
			repo/d3/run.md repo/d4/run.md repo/d5/run.md \
			repo/d6/run.md >out
	) &&
	test_grep "^  FAIL  signature: key SHA256:.* is not in the allowed signers file allowed$" out
'

# bad_ec_sig: an SSHSIG armour whose key is a well-framed
# ecdsa-sha2-nistp256 key whose point is not on the curve, a key that
# cannot be built; its public key line in bad_ec.pub.
bad_ec_sig () {
	python3 - <<-\PY
	import base64, struct
	def s(b): return struct.pack(">I", len(b)) + b
	key = s(b"ecdsa-sha2-nistp256") + s(b"nistp256") + s(b"\x04" + b"\x01" * 64)
	with open("bad_ec.pub", "w") as f:
	    f.write("ecdsa-sha2-nistp256 " + base64.b64encode(key).decode() + "\n")
	sig = s(b"ecdsa-sha2-nistp256") + s(s(b"\x01") + s(b"\x01"))
	blob = (b"SSHSIG" + struct.pack(">I", 1) + s(key) + s(b"ahd-replay") +
		s(b"") + s(b"sha512") + s(sig))
	b = base64.b64encode(blob).decode()
	print("-----BEGIN SSH SIGNATURE-----")
	for i in range(0, len(b), 70):
	    print(b[i:i + 70])
	print("-----END SSH SIGNATURE-----")
	PY
}

test_expect_success SSHKEYGEN,PYTHON3 'a planted key nobody allows is never built' '
	cp repo/docs/run.replay.json.sig good.sig &&
	test_when_finished "cp good.sig repo/docs/run.replay.json.sig" &&
	bad_ec_sig >repo/docs/run.replay.json.sig &&
	test_expect_code 1 ahd-replay verify --allowed-signers allowed \
		repo/docs/run.md >out &&
	test_grep "^  FAIL  signature: key SHA256:.* is not in the allowed signers file allowed$" out &&
	test_grep ! "not a valid public key" out &&
	# Building that key fails: the check above never tried.
	echo "ec@example.com $(cat bad_ec.pub)" >allowed-ec &&
	test_expect_code 2 ahd-replay verify --allowed-signers allowed-ec \
		repo/docs/run.md >out 2>err &&
	test_grep "^ahd-replay: allowed-ec:1: not a valid public key$" err
'

test_expect_success SSHKEYGEN 'ssh-rsa (SHA-1) signatures are refused by name' '
	ssh-keygen -q -t rsa -b 2048 -N "" -C rsa -f rsa &&
	echo "rsa@example.com $(cat rsa.pub)" >allowed-rsa &&
	ahd-replay sign --statement repo/docs/run.md >statement &&
	ssh-keygen -Y sign -n ahd-replay -f rsa -O hashalg=sha512 \
		<statement >rsa.sig 2>/dev/null &&
	python3 - rsa.sig <<-\PY &&
	import base64, struct, sys
	def rd(b, o):
	    n = struct.unpack(">I", b[o:o + 4])[0]
	    return b[o + 4:o + 4 + n], o + 4 + n
	def s(b):
	    return struct.pack(">I", len(b)) + b
	lines = open(sys.argv[1]).read().split("\n")
	body = base64.b64decode("".join(lines[1:-2]))
	o, parts = 10, []
	for i in range(5):
	    v, o = rd(body, o)
	    parts.append(v)
	alg, o2 = rd(parts[4], 0)
	sig, _ = rd(parts[4], o2)
	new = s(b"ssh-rsa") + s(sig)
	body = body[:10] + b"".join(s(p) for p in parts[:4]) + s(new)
	b = base64.b64encode(body).decode()
	with open(sys.argv[1], "w") as f:
	    f.write("-----BEGIN SSH SIGNATURE-----\n")
	    for i in range(0, len(b), 70):
	        f.write(b[i:i + 70] + "\n")
	    f.write("-----END SSH SIGNATURE-----\n")
	PY
	cp rsa.sig repo/docs/run.replay.json.sig &&
	test_expect_code 1 ahd-replay verify --allowed-signers allowed-rsa \
		repo/docs/run.md >out &&
	test_grep "SHA-1, which is refused" out
'

test_done
