/* Fuzz target for batch manifests (bonebake/batch.h): the input is a
 * manifest's text, parsed as if it were the file fuzz/m.json; every job it
 * yields is walked (name, command, paths, each word of its options) and
 * given its shard, as `batch --shard` and `--list` would.  Nothing is run
 * and no stamp is read.  Built with -DBB_LIBFUZZER and -fsanitize=fuzzer it
 * is a libFuzzer target; otherwise replay-main.c replays saved inputs in
 * `make check`. */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "bonebake/bonebake.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	bb_batch *b = NULL;
	bb_error err;
	size_t sum = 0;
	int i, k;

	if (bb_batch_parse((const char *)data, size, "fuzz/m.json", &b, &err) != BB_OK) {
		char msg[2048];

		bb_error_format(&err, msg, sizeof msg);
		return 0;
	}
	for (i = 0; i < bb_batch_job_count(b); i++) {
		const bb_batch_job *j = bb_batch_job_at(b, i);

		sum += strlen(j->name) + strlen(j->command) + strlen(j->input) +
		       strlen(j->output);
		for (k = 0; k < j->nargs; k++)
			sum += strlen(j->args[k]);
		sum += (size_t)bb_batch_shard(j, 1 + i % 7);
	}
	bb_batch_free(b);
	return sum == (size_t)-1;   /* never: the walk is what matters */
}
