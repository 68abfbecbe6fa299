/*
 * Test helper: verify the sidecars named on the command line as one run
 * (as `ahd-replay verify` does), then print how many history walks drift
 * attribution took ("walks: N") and each report's notes.  The tests use
 * it to count work, not time: attribution walks each input path once per
 * run however many hashes the reports want of it.
 *
 *	test-verify-walks [--no-attribution] [--at=<rev>] <sidecar>...
 */
#include "config.h"
#include "git/repo.h"
#include "sign/signature.h"
#include "strutil.h"
#include "usage.h"
#include "verify/verify.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	struct verify_options opts;
	struct sig_keyring keyring = SIG_KEYRING_INIT;
	struct verify_run run;
	struct verify_report *reports;
	struct strbuf err = STRBUF_INIT;
	size_t n, i;
	int a = 1;

	memset(&opts, 0, sizeof(opts));
	for (; a < argc && starts_with(argv[a], "--"); a++) {
		if (!strcmp(argv[a], "--no-attribution"))
			opts.no_attribution = 1;
		else if (starts_with(argv[a], "--at="))
			opts.at = argv[a] + 5;
		else
			die("unknown option '%s'", argv[a]);
	}
	if (repo_library_init(&err))
		die("%s", err.buf);
	n = (size_t)(argc - a);
	reports = xcalloc(n ? n : 1, sizeof(*reports));
	verify_run_init(&run, &opts, &keyring);
	for (i = 0; i < n; i++) {
		verify_report_init(&reports[i], argv[a + i], argv[a + i]);
		verify_one(&run, &reports[i]);
	}
	verify_attribute(&run, reports, n);
	printf("walks: %zu\n", run.history_walks);
	for (i = 0; i < n; i++) {
		printf("%s\n%s", argv[a + i], reports[i].notes.buf);
		verify_report_release(&reports[i]);
	}
	free(reports);
	verify_run_release(&run);
	strbuf_release(&err);
	repo_library_shutdown();
	return finish_stdout(0);
}
