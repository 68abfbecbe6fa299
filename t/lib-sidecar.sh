# shellcheck shell=sh
# Sourced by the tests that write sidecars for fixtures.
#
# write_sidecar [OPTIONS] SIDECAR TOKEN [BRIEF]
#
# Write a replay sidecar, in the shape JSON.stringify(v, null, 2) gives,
# that pins TOKEN and BRIEF (paths relative to the root, recorded as
# given) with the hashes `ahd-replay hash` prints for them now: TOKEN's
# structured hash, BRIEF's raw hash.  Without BRIEF, "brief" is null.
# Options:
#	--root=DIR		hash DIR/TOKEN and DIR/BRIEF (default: .)
#	--token-path=P		record P as the token path
#	--brief-path=P		record P as the brief path
#	--token-hash=H		record H as the token hash
#	--brief-hash=H		record H as the brief hash
#	--brief-structured	record the brief's structured hash
#	--kind=K		default eval-live
#	--version=V		ahd_version, default 0.11.0
#	--commit=C		ahd_commit: 40 hex digits, or null
#	--dirty=D		git_dirty: true, false (default) or null
#	--argv=JSON		default ["ahd", "eval"]
#	--sampling=JSON, --models=JSON, --conditions=JSON
#	--extra=TEXT		members added after schema_version
write_sidecar () {
	ws_root=. ws_tpath='' ws_bpath='' ws_thash='' ws_bhash='' ws_bmode=--raw
	ws_kind=eval-live ws_version=0.11.0
	ws_commit='"905b740756a181d64097b96f42f6d9c0f52093db"' ws_dirty=false
	ws_argv='["ahd", "eval", "--token", "swiss"]'
	ws_sampling='{"n": 3, "temperature": 0.7, "seed": null}'
	ws_models='[{"id": "claude-x", "provider": "anthropic", "provider_request_ids": ["req_1", "req_2"]}]'
	ws_conditions='{"requested": ["raw", "compiled"], "effective": ["raw", "compiled"]}'
	ws_extra=
	while test $# -gt 0
	do
		case $1 in
		--root=*) ws_root=${1#*=} ;;
		--token-path=*) ws_tpath=${1#*=} ;;
		--brief-path=*) ws_bpath=${1#*=} ;;
		--token-hash=*) ws_thash=${1#*=} ;;
		--brief-hash=*) ws_bhash=${1#*=} ;;
		--brief-structured) ws_bmode= ;;
		--kind=*) ws_kind=${1#*=} ;;
		--version=*) ws_version=${1#*=} ;;
		--commit=null) ws_commit=null ;;
		--commit=*) ws_commit="\"${1#*=}\"" ;;
		--dirty=*) ws_dirty=${1#*=} ;;
		--argv=*) ws_argv=${1#*=} ;;
		--sampling=*) ws_sampling=${1#*=} ;;
		--models=*) ws_models=${1#*=} ;;
		--conditions=*) ws_conditions=${1#*=} ;;
		--extra=*) ws_extra=${1#*=} ;;
		-*) BUG "write_sidecar: unknown option '$1'" ;;
		*) break ;;
		esac
		shift
	done
	test $# -ge 2 || BUG "write_sidecar wants SIDECAR TOKEN [BRIEF]"
	ws_file=$1 ws_token=$2 ws_brief=${3:-}
	if test -z "$ws_thash"
	then
		ws_thash=$(ahd-replay hash "$ws_root/$ws_token") || return 1
		ws_thash=${ws_thash%% *}
	fi
	ws_brief_json=null
	if test -n "$ws_brief"
	then
		if test -z "$ws_bhash"
		then
			# shellcheck disable=SC2086
			ws_bhash=$(ahd-replay hash $ws_bmode "$ws_root/$ws_brief") ||
				return 1
			ws_bhash=${ws_bhash%% *}
		fi
		ws_brief_json="{
    \"path\": \"${ws_bpath:-$ws_brief}\",
    \"hash\": \"$ws_bhash\"
  }"
	fi
	cat >"$ws_file" <<-EOF
	{
	  "schema_version": 1,$ws_extra
	  "kind": "$ws_kind",
	  "ahd_version": "$ws_version",
	  "ahd_commit": $ws_commit,
	  "git_dirty": $ws_dirty,
	  "node_version": "v22.3.0",
	  "platform": "linux-x64",
	  "invoked_at": "2026-08-03T09:57:42.291Z",
	  "argv": $ws_argv,
	  "token": {
	    "path": "${ws_tpath:-$ws_token}",
	    "hash": "$ws_thash"
	  },
	  "brief": $ws_brief_json,
	  "sampling": $ws_sampling,
	  "models": $ws_models,
	  "conditions": $ws_conditions
	}
	EOF
}

# write_sidecar_pinned SIDECAR TOKEN-PATH TOKEN-HASH [BRIEF-PATH BRIEF-HASH]:
# a sidecar that records the given paths and hashes as they are, whether
# or not the files exist (CI paths, hashes of other contents).
write_sidecar_pinned () {
	if test $# -ge 5
	then
		write_sidecar --token-hash="$3" --brief-hash="$5" "$1" "$2" "$4"
	else
		write_sidecar --token-hash="$3" "$1" "$2"
	fi
}

# hash_of [--raw] FILE: the hash `ahd-replay hash` prints for FILE.
hash_of () {
	hash_of_=$(ahd-replay hash "$@") || return 1
	printf '%s\n' "${hash_of_%% *}"
}

# file_sha256 FILE: "sha256:" and the SHA-256 of FILE's bytes, computed
# without ahd-replay: what `ahd-replay hash --raw FILE` must print.
file_sha256 () {
	file_sha256_=$(test_sha256 "$1") || return 1
	printf 'sha256:%s\n' "$file_sha256_"
}

# committed_raw_hash REPO REV PATH: the hash `ahd-replay hash --raw` prints
# for PATH as committed at REV in REPO, once checked against file_sha256
# of the same bytes (its scratch files, crh.*, stay in the current
# directory).
committed_raw_hash () {
	git -C "$1" show "$2:$3" >crh.in &&
	hash_of --raw crh.in >crh.ours &&
	file_sha256 crh.in >crh.sum &&
	test_cmp crh.sum crh.ours >&2 &&
	cat crh.ours
}

# short HASH: sha256: and the first 12 hex digits, as verify and the
# hooks show it.
short () {
	printf 'sha256:%s\n' "$(printf '%s' "${1#sha256:}" | cut -c1-12)"
}
