/* The plain main of the fuzz targets: replays the files (or folders of
 * files, recursively, in name order) named on the command line through
 * LLVMFuzzerTestOneInput, so `make check` replays the saved corpus and
 * crashers without libFuzzer.  Not linked into -fsanitize=fuzzer builds. */
#include "config.h"

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	long n;

	if (!f) {
		fprintf(stderr, "cannot open %s\n", path);
		return 1;
	}
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc(n > 0 ? (size_t)n : 1);
	if (!buf || (n > 0 && fread(buf, 1, (size_t)n, f) != (size_t)n)) {
		fclose(f);
		free(buf);
		return 1;
	}
	fclose(f);
	LLVMFuzzerTestOneInput(buf, n > 0 ? (size_t)n : 0);
	free(buf);
	return 0;
}

static int replay(const char *path, int *count)
{
	struct stat st;
	struct dirent **list;
	int i, n, rc = 0;

	if (stat(path, &st) != 0)
		return 1;
	if (!S_ISDIR(st.st_mode)) {
		(*count)++;
		return replay_file(path);
	}
	n = scandir(path, &list, NULL, alphasort);
	for (i = 0; i < n; i++) {
		char sub[4096];

		if (list[i]->d_name[0] != '.') {
			snprintf(sub, sizeof sub, "%s/%s", path, list[i]->d_name);
			rc |= replay(sub, count);
		}
		free(list[i]);
	}
	free(list);
	return rc;
}

int main(int argc, char **argv)
{
	int i, rc = 0, count = 0;

	for (i = 1; i < argc; i++)
		rc |= replay(argv[i], &count);
	printf("replayed %d inputs\n", count);
	return rc;
}
