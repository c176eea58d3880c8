/* bonebake — command table. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#ifdef HAVE_MALLOPT
#include <malloc.h>
#endif
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "outdir.h"

struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
};

static const struct command commands[] = {
	{ "info", cmd_info, "list armatures, animations, frame counts" },
	{ "render", cmd_render, "render animations to PNG frames + frames.json" },
	{ "pose", cmd_pose, "print bone world matrices and draw lists as JSON" },
	{ "diff", cmd_diff, "compare PNG files or folders (regression diffs)" },
	{ "pack", cmd_pack, "pack PNG files into sprite sheets with metadata" },
	{ "sheet", cmd_sheet, "render animations and pack them into sheets" },
	{ "preview", cmd_preview, "render animations to animated WebP, GIF or APNG" },
	{ "gallery", cmd_gallery, "an HTML page playing render output folders" },
	{ "batch", cmd_batch, "run a manifest of render/sheet jobs (shards, skips)" },
};

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: bonebake COMMAND [OPTIONS] ...\n\ncommands:\n");
	for (i = 0; i < sizeof commands / sizeof commands[0]; i++)
		fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\n'bonebake COMMAND --help' describes a command's options.\n"
	           "Exit codes: 0 ok, 1 differences (diff), 2 usage, 3 bad input,\n"
	           "4 I/O, 5 size mismatch (diff), 6 missing/added files (diff),\n"
	           "70 internal error, 129/130/143 stopped by SIGHUP/SIGINT/SIGTERM\n"
	           "(nothing half-written is left).\n");
}

/* What went to stdout must have arrived (a full disk, a closed pipe):
 * never exit 0 on a truncated output.  A stdout closed before the run
 * (`>&-`) is an error only when something was written to it: the flush
 * fails then; with nothing to write only the close does (EBADF). */
static int stdout_done(int rc)
{
	if (fflush(stdout) != 0 || ferror(stdout) ||
	    (fclose(stdout) != 0 && errno != EBADF)) {
		fprintf(stderr, "bonebake: standard output: write error: %s\n",
		        strerror(errno ? errno : EIO));
		return rc ? rc : EXIT_IO;
	}
	return rc;
}

/* The command argv[1]'s exit code; stdout closed after it (its errors
 * checked) unless `again`. */
static int run_command(int argc, char **argv, int again)
{
	size_t i;

	opterr = 0;   /* commands print their own usage errors */
	optind = 0;   /* getopt from scratch (a batch job runs after batch's) */
	cli_warning_reset();
	cli_interrupt_install();
	for (i = 0; i < sizeof commands / sizeof commands[0]; i++)
		if (strcmp(argv[1], commands[i].name) == 0) {
			int rc = commands[i].run(argc - 1, argv + 1);

			/* an interrupted run removed its staging folder: say so */
			if (cli_interrupted)
				return 128 + cli_interrupted;
			if (again)
				return fflush(stdout) == 0 ? rc : rc ? rc : EXIT_IO;
			return stdout_done(rc);
		}
	fprintf(stderr, "bonebake: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return EXIT_USAGE;
}

int cli_command(int argc, char **argv)
{
	return run_command(argc, argv, 0);
}

int cli_command_again(int argc, char **argv)
{
	return run_command(argc, argv, 1);
}

/* A page of fresh memory costs a fault (about 0.25 us on bare metal, 10 us
 * in some virtual machines); memory handed back to malloc costs none.  By
 * default glibc gives each block of 128 KiB or more pages of its own and
 * unmaps them when it is freed, so a run's file buffers, parse trees and
 * per-frame scratch each take fresh pages.  A one-shot program keeps them
 * instead: blocks up to 32 MiB come from the heap, which keeps up to
 * 64 MiB of freed memory for the next ones. */
static void keep_freed_memory(void)
{
#ifdef HAVE_MALLOPT
	(void)mallopt(M_MMAP_THRESHOLD, 32 << 20);
	(void)mallopt(M_TRIM_THRESHOLD, 64 << 20);
#endif
}

int main(int argc, char **argv)
{
	keep_freed_memory();
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		usage(stdout);
		return stdout_done(EXIT_OK);
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("bonebake %s\n", PACKAGE_VERSION);
		return stdout_done(EXIT_OK);
	}
	return cli_command(argc, argv);
}
