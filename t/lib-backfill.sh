# shellcheck shell=sh
# Sourced by the backfill tests that need many reports to fill.

# reports DIR N: N committed reports with a valid header in DIR.
reports () {
	mkdir -p "$1/tokens" "$1/docs/evals" &&
	printf "name: swiss\n" >"$1/tokens/swiss.yml" &&
	r_i=1 &&
	while test $r_i -le $2
	do
		printf "# ahd eval · swiss · 2026-01-13T00:00:00Z\n\n- Samples per cell: **1**\n" \
			>"$1/docs/evals/r$r_i.md" &&
		r_i=$((r_i + 1)) || return 1
	done &&
	(cd "$1" && git add . && git commit -q -m reports)
}
