/* Prints the JSON document a Spine binary (.skel) decodes into (the one
 * the Spine JSON loader then reads), for tests/oracle/spine-binary.sh to
 * hold against the JSON export beside it.  Numbers with 17 significant
 * digits: the binary's 32-bit floats exactly, as doubles.
 *
 * usage: skel2json FILE.skel   (exit 3 and the error on bad input) */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include <jansson.h>

#include "core/util.h"
#include "loaders/loader.h"

int main(int argc, char **argv)
{
	json_t *doc = NULL;
	bb_error err;
	char *data;
	size_t size;

	if (argc != 2) {
		fprintf(stderr, "usage: skel2json FILE.skel\n");
		return 2;
	}
	if (bb__read_file(argv[1], (size_t)64 << 20, &data, &size, &err) != BB_OK ||
	    bb__decode_spine_binary(data, size, bb__basename(argv[1]), &doc, &err) != BB_OK) {
		fprintf(stderr, "skel2json: %s%s%s: %s\n", err.file, err.path[0] ? ": " : "",
		        err.path, err.message);
		return 3;
	}
	free(data);
	json_dumpf(doc, stdout, JSON_INDENT(1) | JSON_REAL_PRECISION(17) | JSON_PRESERVE_ORDER);
	putchar('\n');
	json_decref(doc);
	return 0;
}
