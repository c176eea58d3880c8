/* Animated previews and contact sheets beside the frames, shared by
 * preview, render and sheet. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outdir.h"
#include "preview-out.h"

enum { O_PREVIEW = ANIM_OPT_BASE, O_QUALITY, O_LOOP_COUNT, O_BITRATE, O_CONTACT };

static const struct option anim_options[] = {
	{ "preview", required_argument, NULL, O_PREVIEW },
	{ "quality", required_argument, NULL, O_QUALITY },
	{ "loop-count", required_argument, NULL, O_LOOP_COUNT },
	{ "video-bitrate", required_argument, NULL, O_BITRATE },
	{ "contact-sheet", required_argument, NULL, O_CONTACT },
};

const char anim_help[] =
	"Previews:\n"
	"  --quality N          WebP: lossy at quality N (0..100; default lossless);\n"
	"                       webm: VP9 CRF 0..63 (default 32), mp4: x264 CRF\n"
	"                       0..51 (default 23), mov: ProRes quantiser 1..31\n"
	"                       (default 4); lower is better for the three\n"
	"  --video-bitrate RATE webm, mp4: aim at RATE bits/s (e.g. 800k, 2M)\n"
	"                       instead of a constant quality\n"
	"  --loop-count N       play the cycle N times (1..65535): the loop count\n"
	"                       of a WebP, GIF or APNG, the cycle N times over in\n"
	"                       a video (rendered again each time)\n"
	"  --contact-sheet FILE.png\n"
	"                       every frame in a grid with its index and time\n"
	"                       (several animations: FILE-<anim>.png each)\n";

void anim_merge_options(struct option *tab, int n, int with_preview)
{
	int k = 0, i;

	while (tab[k].name)
		k++;
	for (i = with_preview ? 0 : 1; i < 5 && k < n - 1; i++)
		tab[k++] = anim_options[i];
	memset(&tab[k], 0, sizeof tab[k]);
}

void anim_opts_init(anim_opts *o)
{
	memset(o, 0, sizeof *o);
	o->quality = -1;
}

/* "800000", "800k", "2.5M" (SI: k = 1000) into bits/s, 1..1e9. */
static int parse_bitrate(const char *s, long long *out)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s)
		return 0;
	if (*end == 'k' || *end == 'K')
		v *= 1e3, end++;
	else if (*end == 'M')
		v *= 1e6, end++;
	if (*end || !(v >= 1) || v > 1e9)
		return 0;
	*out = (long long)(v + 0.5);
	return 1;
}

int anim_parse(anim_opts *o, int id, const char *arg, const char *cmd)
{
	switch (id) {
	case O_PREVIEW:
		if (!bb_anim_format_parse(arg, &o->format)) {
			cli_bad_format(cmd, "--preview", arg);
			return -1;
		}
		o->has_format = 1;
		return 1;
	case O_QUALITY:
		if (!cli_parse_int(arg, 0, 100, &o->quality)) {
			cli_usage_error(cmd, "--quality takes an integer 0..100, not '%s'", arg);
			return -1;
		}
		return 1;
	case O_LOOP_COUNT:
		if (!cli_parse_int(arg, 1, 65535, &o->loop_count)) {
			cli_usage_error(cmd, "--loop-count takes an integer 1..65535, not "
			                "'%s'", arg);
			return -1;
		}
		return 1;
	case O_BITRATE:
		if (!parse_bitrate(arg, &o->bitrate)) {
			cli_usage_error(cmd, "--video-bitrate takes bits per second (1 to "
			                "1000M, e.g. 800k or 2M), not '%s'", arg);
			return -1;
		}
		return 1;
	case O_CONTACT:
		if (!arg[0]) {
			cli_usage_error(cmd, "--contact-sheet takes a file name");
			return -1;
		}
		o->contact = arg;
		return 1;
	}
	return 0;
}

int anim_check(const anim_opts *o, const char *cmd)
{
	int video = o->has_format && bb_anim_format_is_video(o->format);
	const char *name = bb_anim_format_name(o->format);

	if (video && !bb_anim_video_available())
		return cli_usage_error(cmd, "%s previews are not built in (configured "
		                       "--without-video)", name);
	if (o->quality >= 0 && !video && (!o->has_format || o->format != BB_ANIM_WEBP))
		return cli_usage_error(cmd, "--quality applies to WebP and video "
		                       "previews only");
	if (video && o->quality >= 0) {
		int lo = o->format == BB_ANIM_MOV, hi = o->format == BB_ANIM_WEBM ? 63 :
		         o->format == BB_ANIM_MP4 ? 51 : 31;

		if (o->quality < lo || o->quality > hi)
			return cli_usage_error(cmd, "--quality for %s is %s %d..%d, not %d",
			                       name, lo ? "a ProRes quantiser" : "a CRF",
			                       lo, hi, o->quality);
	}
	if (o->bitrate && (!video || o->format == BB_ANIM_MOV))
		return cli_usage_error(cmd, "--video-bitrate applies to webm and mp4 "
		                       "previews only");
	if (o->bitrate && o->quality >= 0)
		return cli_usage_error(cmd, "--quality and --video-bitrate exclude each "
		                       "other (a constant quality or an average rate)");
	return 0;
}

/* ---- files renamed into place at the end ----------------------------- */

int pending_refused(const char *final)
{
	struct stat st;

	if (stat(final, &st) != 0 || !S_ISDIR(st.st_mode))
		return 0;
	fprintf(stderr, "bonebake: %s: is a folder\n", final);
	return 1;
}

int pending_add(pending *p, const char *final, const char **staged)
{
	const char *slash = strrchr(final, '/');
	int fd;

	if (p->n == p->cap) {
		int cap = p->cap ? 2 * p->cap : 8;
		void *a = realloc(p->final, (size_t)cap * sizeof *p->final);

		if (a)
			p->final = a;
		a = a ? realloc(p->staged, (size_t)cap * sizeof *p->staged) : NULL;
		if (!a) {
			fprintf(stderr, "bonebake: out of memory\n");
			return EXIT_INTERNAL;
		}
		p->staged = a;
		p->cap = cap;
	}
	if (strlen(final) >= sizeof p->final[0] - 40) {
		fprintf(stderr, "bonebake: %s: path too long\n", final);
		return EXIT_IO;
	}
	if (pending_refused(final))
		return EXIT_IO;
	strcpy(p->final[p->n], final);
	snprintf(p->staged[p->n], sizeof p->staged[0], "%.*s.%s.bonebake-XXXXXX",
	         slash ? (int)(slash - final + 1) : 0, final, slash ? slash + 1 : final);
	fd = mkstemp(p->staged[p->n]);
	if (fd < 0) {
		fprintf(stderr, "bonebake: %s: cannot write: %s\n", final, strerror(errno));
		return EXIT_IO;
	}
	/* mkstemp makes it 0600; the file it becomes gets open's mode */
	fchmod(fd, bb_new_file_mode(0666));
	close(fd);
	if (p->n == 0)
		cli_stage_hold();        /* a signal now cleans up */
	*staged = p->staged[p->n++];
	return 0;
}

int pending_commit(pending *p)
{
	int i, rc = 0;

	for (i = 0; i < p->n; i++)
		if (rc == 0 && rename(p->staged[i], p->final[i]) != 0) {
			fprintf(stderr, "bonebake: %s: cannot write: %s\n", p->final[i],
			        strerror(errno));
			rc = EXIT_IO;
		}
	if (rc) {
		pending_abort(p);
		return rc;
	}
	if (p->n)
		cli_stage_release();
	free(p->final);
	free(p->staged);
	memset(p, 0, sizeof *p);
	return rc;
}

void pending_abort(pending *p)
{
	int i;

	for (i = 0; i < p->n; i++)
		unlink(p->staged[i]);
	if (p->n)
		cli_stage_release();
	free(p->final);
	free(p->staged);
	memset(p, 0, sizeof *p);
}

/* ---- encoders fed in frame order ------------------------------------- */

int contact_path(const char *file, const fig_job *j, int njobs, char *buf,
                 size_t size)
{
	const char *base = strrchr(file, '/'), *dot;
	char tag[700];
	size_t i;
	int n;

	if (njobs <= 1)
		return snprintf(buf, size, "%s", file) < (int)size;
	base = base ? base + 1 : file;
	dot = strrchr(base, '.');
	if (!dot || dot == base)
		dot = base + strlen(base);
	snprintf(tag, sizeof tag, "%s", j->dir);
	for (i = 0; tag[i]; i++)
		if (tag[i] == '/')
			tag[i] = '-';
	n = snprintf(buf, size, "%.*s-%s%s", (int)(dot - file), file, tag, dot);
	return n >= 0 && (size_t)n < size;
}

/* Prints err naming `shown` instead of the staged file. */
static int fail_as(bb_error *err, const char *shown)
{
	if (shown)
		snprintf(err->file, sizeof err->file, "%s", shown);
	return cli_fail(err);
}

int anim_job_begin(anim_job *x, const fig_job *j, const anim_opts *o,
                   const char *anim_path, const char *anim_shown,
                   const char *sheet_path, const char *sheet_shown)
{
	const bb_plan *fa = &j->plan;
	bb_error err;

	memset(x, 0, sizeof *x);
	x->job = j;
	x->anim_path = anim_path;
	x->sheet_path = sheet_path;
	x->anim_shown = anim_shown;
	x->sheet_shown = sheet_shown;
	x->cycles = 1;
	if (anim_path) {
		bb_anim_options ao = { 0 };
		const bb_rgba white = { 1, 1, 1, 1 };

		ao.format = o->format;
		ao.loop_count = o->loop_count ? o->loop_count : fa->info.loop ? 0 : 1;
		if (bb_anim_format_is_video(o->format)) {
			/* a video plays once: the cycles are in the file */
			ao.loop_count = 0;
			x->cycles = o->loop_count ? o->loop_count : 1;
			ao.fps = fa->fps;
			ao.has_crf = o->quality >= 0;
			ao.crf = o->quality;
			ao.bitrate = o->bitrate;
			ao.background = fa->view.background.a > 0 ? fa->view.background
			                                          : white;
		} else if (o->quality >= 0) {
			ao.lossy = 1;
			ao.quality = o->quality;
		}
		if (o->format == BB_ANIM_GIF && fa->fps > 50)
			cli_warn("animation \"%s\": %g fps: GIF delays are in 1/100 s and "
			         "browsers show delays under 0.02 s as 0.1 s (use --fps 50 "
			         "or less)", fa->info.name, fa->fps);
		if (bb_anim_open(anim_path, fa->width, fa->height, &ao, &x->anim,
		                 &err) != BB_OK)
			return fail_as(&err, anim_shown);
	}
	if (sheet_path) {
		bb_contact_options co = { 0 };
		char title[600];

		snprintf(title, sizeof title, "%s    %g fps    %ld frames    %dx%d    %s",
		         fa->info.name, fa->fps, fa->frames, fa->width, fa->height,
		         fa->info.loop ? "loops" : "plays once");
		co.title = title;
		if (bb_contact_new(fa->frames, fa->width, fa->height, &co, &x->sheet,
		                   &err) != BB_OK) {
			anim_job_abort(x);
			return fail_as(&err, sheet_shown);
		}
	}
	return 0;
}

int anim_job_frame(long i, const bb_image *img, void *user)
{
	anim_job *x = user;
	const bb_plan *fa = &x->job->plan;
	bb_error err;

	if (cli_interrupted)
		return 128 + cli_interrupted;    /* stop; main reports it */
	if (x->anim && bb_anim_add(x->anim, img, bb_plan_frame_time(fa, x->cycle *
	                           fa->frames + i + 1), &err) != BB_OK)
		return fail_as(&err, x->anim_shown);
	if (x->sheet && x->cycle == 0 && bb_contact_add(x->sheet, i, bb_plan_frame_time(fa, i), img,
	                               &err) != BB_OK)
		return fail_as(&err, x->sheet_shown);
	return 0;
}

int anim_job_next_cycle(anim_job *x)
{
	if (!x->anim || x->cycle + 1 >= x->cycles)
		return 0;
	x->cycle++;
	return 1;
}

int anim_job_end(anim_job *x)
{
	bb_error err;
	int rc = 0;

	if (x->anim) {
		bb_status s = bb_anim_finish(x->anim, &err);

		x->anim = NULL;
		if (s != BB_OK)
			rc = fail_as(&err, x->anim_shown);
	}
	if (rc == 0 && x->sheet) {
		bb_image *img = NULL;

		if (bb_contact_render(x->sheet, &img, &err) != BB_OK ||
		    bb_png_write(x->sheet_path, img, &err) != BB_OK)
			rc = fail_as(&err, x->sheet_shown);
		bb_image_free(img);
	}
	bb_contact_free(x->sheet);
	x->sheet = NULL;
	return rc;
}

void anim_job_abort(anim_job *x)
{
	bb_anim_free(x->anim);
	bb_contact_free(x->sheet);
	x->anim = NULL;
	x->sheet = NULL;
}
