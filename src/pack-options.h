/* What pack and sheet share: the packing and metadata options (named as
 * TexturePacker and libGDX users know them) and writing a packed sheet
 * into an output folder. */
#ifndef BB_PACK_OPTIONS_H
#define BB_PACK_OPTIONS_H

#include <getopt.h>

#include "cli.h"

typedef struct pack_opts {
	bb_pack_options pack;         /* layout, trim, dedupe, extrude ... */
	bb_sheet_write_options write; /* name, formats */
	int rotate;                   /* --rotate: direction from the formats */
} pack_opts;

/* Option ids >= PACK_OPT_BASE belong to the pack options (figure options
 * use FIG_OPT_BASE = 1000). */
enum { PACK_OPT_BASE = 2000 };
extern const struct option pack_options[];
extern const int pack_noptions;
/* Help text for the pack options. */
extern const char pack_help[];

/* The CLI's defaults: padding 2, trim, dedupe, JSON hash, "sheet". */
void pack_opts_init(pack_opts *o);
/* Handles one getopt_long result; returns 1 if it was a pack option, 0 if
 * not, or -1 after printing a usage error for `cmd`. */
int pack_parse(pack_opts *o, int id, const char *arg, const char *cmd);
/* After parsing: picks the rotation direction the chosen formats read.
 * Returns 0, or EXIT_USAGE after printing why (e.g. --rotate with godot,
 * or with libgdx and json together). */
int pack_finish(pack_opts *o, const char *cmd);
/* Appends pack_options to the zero-terminated table `tab` of n entries. */
void pack_merge_options(struct option *tab, int n);
/* Encodes s and writes pages + metadata into folder `dest` (created if
 * missing) all-or-nothing, then prints one line per file unless quiet.
 * Returns an exit code (errors already printed). */
int pack_write(const bb_sheet *s, const pack_opts *o, const char *dest,
               int quiet);
/* The same for n (<= OUTDIR_SETS_MAX) sheets already encoded (files[i],
 * named names[i]): one output set, all written or none. */
int pack_write_sets(const bb_sheet *const *s, bb_sheet_files *const *files,
                    const char *const *names, int n, const char *dest,
                    int quiet);

#endif
