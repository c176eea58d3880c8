/* Pack options shared by `pack` and `sheet`, and writing a sheet out. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "outdir.h"
#include "pack-options.h"

enum {
	O_MAX_SIZE = PACK_OPT_BASE, O_POT, O_SQUARE, O_PADDING, O_BORDER,
	O_EXTRUDE, O_TRIM, O_TRIM_ALPHA, O_NO_TRIM, O_DEDUPE, O_NO_DEDUPE,
	O_ROTATE, O_NO_ROTATE, O_MULTIPACK, O_PREMULTIPLY, O_BLEED, O_FORMAT,
	O_NAME, O_HEURISTIC, O_PNG_LEVEL
};

const struct option pack_options[] = {
	{ "max-size", required_argument, NULL, O_MAX_SIZE },
	{ "pot", no_argument, NULL, O_POT },
	{ "square", no_argument, NULL, O_SQUARE },
	{ "padding", required_argument, NULL, O_PADDING },
	{ "border", required_argument, NULL, O_BORDER },
	{ "extrude", required_argument, NULL, O_EXTRUDE },
	{ "trim", no_argument, NULL, O_TRIM },
	{ "trim-alpha", required_argument, NULL, O_TRIM_ALPHA },
	{ "no-trim", no_argument, NULL, O_NO_TRIM },
	{ "dedupe", no_argument, NULL, O_DEDUPE },
	{ "no-dedupe", no_argument, NULL, O_NO_DEDUPE },
	{ "rotate", no_argument, NULL, O_ROTATE },
	{ "no-rotate", no_argument, NULL, O_NO_ROTATE },
	{ "multipack", no_argument, NULL, O_MULTIPACK },
	{ "premultiply", no_argument, NULL, O_PREMULTIPLY },
	{ "bleed", no_argument, NULL, O_BLEED },
	{ "format", required_argument, NULL, O_FORMAT },
	{ "name", required_argument, NULL, O_NAME },
	{ "heuristic", required_argument, NULL, O_HEURISTIC },
	{ "png-level", required_argument, NULL, O_PNG_LEVEL },
};
const int pack_noptions = sizeof pack_options / sizeof pack_options[0];

const char pack_help[] =
	"Sheet layout:\n"
	"  --max-size N|WxH     largest page, border included (default 2048)\n"
	"  --pot, --square      page sides powers of two / equal\n"
	"  --padding N          pixels between sprites (default 2)\n"
	"  --border N           pixels between sprites and the page edge (0)\n"
	"  --extrude N          repeat each sprite's edge pixels N times (0)\n"
	"  --multipack          several pages when one is not enough; frames of\n"
	"                       one animation stay on one page where they fit\n"
	"  --rotate             allow sprites turned 90 degrees (off)\n"
	"  --heuristic NAME     auto (default), short-side, long-side, area,\n"
	"                       bottom-left, contact-point\n"
	"Sprites:\n"
	"  --trim, --no-trim    crop transparent borders (on); offsets keep\n"
	"                       each frame's place\n"
	"  --trim-alpha N       alpha at or below N counts as transparent (0)\n"
	"  --dedupe, --no-dedupe  store identical sprites once (on)\n"
	"  --premultiply        premultiplied-alpha pages\n"
	"  --bleed              spread edge colours into transparent pixels\n"
	"Metadata:\n"
	"  --format LIST        comma-separated, repeatable: json (TexturePacker\n"
	"                       hash: PixiJS, Phaser 3), json-array, phaser3\n"
	"                       (multiatlas), libgdx (also Spine), cocos2d\n"
	"                       (plist format 3), godot (SpriteFrames .tres);\n"
	"                       default json\n"
	"  --name NAME          base name of the files written (default sheet)\n"
	"  --png-level N|fast|small\n"
	"                       page PNG compression 0 (none) .. 9 (smallest);\n"
	"                       fast = the fast encoder, small = 9; default 6\n";

void pack_opts_init(pack_opts *o)
{
	memset(o, 0, sizeof *o);
	o->pack.layout.padding = 2;
	o->pack.lazy_pages = 1;     /* pages drawn as they are encoded */
	o->write.name = "sheet";
}

void pack_merge_options(struct option *tab, int n)
{
	int k = 0, i;

	while (k < n - 1 && tab[k].name)
		k++;
	for (i = 0; i < pack_noptions && k < n - 1; i++)
		tab[k++] = pack_options[i];
	memset(&tab[k], 0, sizeof tab[k]);
}

static int parse_formats(pack_opts *o, const char *arg, const char *cmd)
{
	char buf[256], *tok, *save = NULL;

	if (strlen(arg) >= sizeof buf) {
		cli_usage_error(cmd, "--format list too long");
		return -1;
	}
	strcpy(buf, arg);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		bb_sheet_format f;

		if (!bb_sheet_format_parse(tok, &f)) {
			cli_usage_error(cmd, "unknown --format '%s' (json, json-array, "
			                "phaser3, libgdx, cocos2d, godot)", tok);
			return -1;
		}
		o->write.formats |= 1u << f;
	}
	return 1;
}

static int parse_heuristic(pack_opts *o, const char *arg, const char *cmd)
{
	static const char *names[] = { "auto", "short-side", "long-side", "area",
	                               "bottom-left", "contact-point" };
	size_t i;

	for (i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strcmp(arg, names[i]) == 0) {
			o->pack.layout.heuristic = (bb_pack_heuristic)i;
			return 1;
		}
	cli_usage_error(cmd, "unknown --heuristic '%s'", arg);
	return -1;
}

static int spacing(const char *arg, int *out, const char *opt, const char *cmd)
{
	if (cli_parse_int(arg, 0, BB_PACK_MAX_SPACING, out))
		return 1;
	cli_usage_error(cmd, "%s wants a whole number 0..%d, not '%s'", opt,
	                BB_PACK_MAX_SPACING, arg);
	return -1;
}

int pack_parse(pack_opts *o, int id, const char *arg, const char *cmd)
{
	bb_pack_layout *lo = &o->pack.layout;

	switch (id) {
	case O_MAX_SIZE:
		if (cli_parse_size(arg, &lo->max_width, &lo->max_height))
			return 1;
		if (cli_parse_int(arg, 1, BB_IMAGE_MAX_SIDE, &lo->max_width)) {
			lo->max_height = lo->max_width;
			return 1;
		}
		cli_usage_error(cmd, "--max-size wants N or WxH (1..%d), not '%s'",
		                BB_IMAGE_MAX_SIDE, arg);
		return -1;
	case O_POT: lo->pot = 1; return 1;
	case O_SQUARE: lo->square = 1; return 1;
	case O_PADDING: return spacing(arg, &lo->padding, "--padding", cmd);
	case O_BORDER: return spacing(arg, &lo->border, "--border", cmd);
	case O_EXTRUDE: return spacing(arg, &o->pack.extrude, "--extrude", cmd);
	case O_TRIM: o->pack.no_trim = 0; return 1;
	case O_NO_TRIM: o->pack.no_trim = 1; return 1;
	case O_TRIM_ALPHA:
		if (cli_parse_int(arg, 0, 254, &o->pack.trim_alpha))
			return 1;
		cli_usage_error(cmd, "--trim-alpha wants 0..254, not '%s'", arg);
		return -1;
	case O_DEDUPE: o->pack.no_dedupe = 0; return 1;
	case O_NO_DEDUPE: o->pack.no_dedupe = 1; return 1;
	case O_ROTATE: o->rotate = 1; return 1;
	case O_NO_ROTATE: o->rotate = 0; return 1;
	case O_MULTIPACK: lo->multipack = 1; return 1;
	case O_PREMULTIPLY: o->pack.premultiply = 1; return 1;
	case O_BLEED: o->pack.bleed = 1; return 1;
	case O_FORMAT: return parse_formats(o, arg, cmd);
	case O_NAME:
		if (!arg[0] || strchr(arg, '/') || strcmp(arg, ".") == 0 ||
		    strcmp(arg, "..") == 0) {
			cli_usage_error(cmd, "--name wants a plain file name, not '%s'", arg);
			return -1;
		}
		o->write.name = arg;
		return 1;
	case O_HEURISTIC: return parse_heuristic(o, arg, cmd);
	case O_PNG_LEVEL:
		if (cli_parse_png_level(arg, &o->write.png))
			return 1;
		cli_usage_error(cmd, "--png-level takes 0..9, fast or small, not '%s'",
		                arg);
		return -1;
	default:
		return 0;
	}
}

int pack_finish(pack_opts *o, const char *cmd)
{
	unsigned fm = o->write.formats ? o->write.formats : 1u << BB_SHEET_JSON_HASH;
	bb_pack_rotation dir = BB_PACK_ROTATE_NONE;
	int f;

	if ((fm & 1u << BB_SHEET_JSON_HASH) && (fm & 1u << BB_SHEET_JSON_ARRAY))
		return cli_usage_error(cmd, "json and json-array both write %s.json; "
		                       "choose one", o->write.name);
	o->pack.rotation = BB_PACK_ROTATE_NONE;
	if (!o->rotate)
		return 0;
	for (f = 0; f < BB_SHEET_FORMAT_COUNT; f++) {
		bb_pack_rotation r = bb_sheet_format_rotation((bb_sheet_format)f);

		if (!(fm & 1u << f))
			continue;
		if (r == BB_PACK_ROTATE_NONE)
			return cli_usage_error(cmd, "--rotate: %s cannot show rotated "
			                       "sprites", bb_sheet_format_name(f));
		if (dir != BB_PACK_ROTATE_NONE && r != dir)
			return cli_usage_error(cmd, "--rotate: the formats chosen read "
			                       "rotated sprites in opposite directions "
			                       "(libgdx counter-clockwise, the others "
			                       "clockwise); pack them separately");
		dir = r;
	}
	o->pack.rotation = dir;
	return 0;
}

int pack_write_sets(const bb_sheet *const *s, bb_sheet_files *const *files,
                    const char *const *names, int n, const char *dest,
                    int quiet)
{
	outdir od;
	bb_error err;
	size_t i;
	int rc, v;

	if (n < 1 || n > OUTDIR_SETS_MAX)
		return EXIT_INTERNAL;
	if ((rc = outdir_open_sets(&od, dest, names, n)) != 0)
		return rc;
	for (v = 0; v < n; v++)
		if (bb_sheet_files_write(files[v], od.stage, &err) != BB_OK) {
			/* name the file in the destination, not the staging folder */
			snprintf(err.file, sizeof err.file, "%s", dest);
			rc = cli_fail(&err);
			outdir_abort(&od);
			return rc;
		}
	rc = outdir_commit(&od);
	for (v = 0; rc == 0 && !quiet && v < n; v++) {
		for (i = 0; i < s[v]->n_pages; i++)
			printf("%s/%s: %dx%d\n", dest, files[v]->files[i].name,
			       s[v]->page_w[i], s[v]->page_h[i]);
		for (; i < files[v]->n; i++)
			printf("%s/%s\n", dest, files[v]->files[i].name);
		printf("%zu frames, %zu sprites, %zu page%s, occupancy %.1f%%\n",
		       s[v]->n_frames, s[v]->n_sprites, s[v]->n_pages,
		       s[v]->n_pages == 1 ? "" : "s", 100.0 * bb_sheet_occupancy(s[v]));
	}
	return rc;
}

int pack_write(const bb_sheet *s, const pack_opts *o, const char *dest,
               int quiet)
{
	bb_sheet_files *files = NULL;
	bb_error err;
	int rc;

	if (bb_sheet_encode(s, &o->write, &files, &err) != BB_OK)
		return cli_fail(&err);
	rc = pack_write_sets(&s, &files, &o->write.name, 1, dest, quiet);
	bb_sheet_files_free(files);
	return rc;
}
