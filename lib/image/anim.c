/* Animated image files and videos: the writer object, the temporary file
 * and the table of encoders, one row per format (anim-webp.c,
 * anim-gif.c, anim-apng.c, anim-video.c). */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/util.h"
#include "image/anim-int.h"

static bb_status video_add(bb_anim_writer *w, const bb_image *img,
                           double start, double end, bb_error *err)
{
	(void)start;
	(void)end;          /* frames are at o.fps */
	return bb__video_add(w, img, err);
}

/* The output formats, in bb_anim_format order: a new format is a row here
 * (and its enum value and file). */
static const struct encoder {
	const char *name;        /* --format name and file extension */
	const char *also;        /* another extension recognised, or NULL */
	int max_side;            /* the format's largest canvas side */
	int video;
	bb_status (*open)(bb_anim_writer *w, bb_error *err);
	bb_status (*add)(bb_anim_writer *w, const bb_image *img, double start,
	                 double end, bb_error *err);
	bb_status (*finish)(bb_anim_writer *w, bb_error *err);
	void (*free)(bb_anim_writer *w);
} encoders[BB_ANIM_NFORMATS] = {
	{ "webp", NULL, 16383, 0, bb__webp_open, bb__webp_add, bb__webp_finish,
	  bb__webp_free },
	{ "gif", NULL, 65535, 0, bb__gif_open, bb__gif_add, bb__gif_finish,
	  bb__gif_free },
	{ "apng", "png", BB_IMAGE_MAX_SIDE, 0, bb__apng_open, bb__apng_add,
	  bb__apng_finish, bb__apng_free },
	{ "webm", NULL, 16384, 1, bb__video_open, video_add, bb__video_finish,
	  bb__video_free },
	{ "mp4", NULL, 16384, 1, bb__video_open, video_add, bb__video_finish,
	  bb__video_free },
	{ "mov", NULL, 16384, 1, bb__video_open, video_add, bb__video_finish,
	  bb__video_free },
};

const char *bb_anim_format_name(bb_anim_format f)
{
	return (unsigned)f < BB_ANIM_NFORMATS ? encoders[f].name : "?";
}

const char *bb_anim_format_extension(bb_anim_format f)
{
	return bb_anim_format_name(f);
}

int bb_anim_format_parse(const char *name, bb_anim_format *out)
{
	int i;

	for (i = 0; i < BB_ANIM_NFORMATS; i++)
		if (strcmp(name, encoders[i].name) == 0) {
			*out = (bb_anim_format)i;
			return 1;
		}
	return 0;
}

const char *bb_anim_format_list(const char *sep, char *buf, unsigned long size)
{
	size_t n = 0;
	int i;

	if (size == 0)
		return buf;
	buf[0] = '\0';
	for (i = 0; i < BB_ANIM_NFORMATS && n < size; i++)
		n += (size_t)snprintf(buf + n, size - n, "%s%s", i ? sep : "",
		                      encoders[i].name);
	return buf;
}

int bb_anim_format_is_video(bb_anim_format f)
{
	return (unsigned)f < BB_ANIM_NFORMATS && encoders[f].video;
}

int bb_anim_video_available(void)
{
#ifdef HAVE_VIDEO
	return 1;
#else
	return 0;
#endif
}

int bb_anim_format_from_path(const char *path, bb_anim_format *out)
{
	const char *base = bb__basename(path), *dot = strrchr(base, '.');
	int i;

	if (!dot || dot == base)
		return 0;
	dot++;
	for (i = 0; i < BB_ANIM_NFORMATS; i++)
		if (strcasecmp(dot, encoders[i].name) == 0 ||
		    (encoders[i].also && strcasecmp(dot, encoders[i].also) == 0)) {
			*out = (bb_anim_format)i;
			return 1;
		}
	return 0;
}

bb_status bb__anim_write_failed(const bb_anim_writer *w, int e, bb_error *err)
{
	return bb_error_set(err, BB_ERR_IO, w->path, NULL, "write failed: %s",
	                    strerror(e ? e : EIO));
}

long long bb__anim_units(double t, int per_second)
{
	return llround(t * per_second);
}

static void drop(bb_anim_writer *w)
{
	encoders[w->o.format].free(w);
	if (w->f) {
		fclose(w->f);
		w->f = NULL;
		unlink(w->tmp);
	}
}

void bb_anim_free(bb_anim_writer *w)
{
	if (!w)
		return;
	drop(w);
	free(w);
}

bb_status bb_anim_open(const char *path, int width, int height,
                       const bb_anim_options *opts, bb_anim_writer **out,
                       bb_error *err)
{
	bb_anim_options o = { 0 };
	bb_anim_writer *w;
	int fd, limit;
	bb_status s;

	*out = NULL;
	if (opts)
		o = *opts;
	if ((unsigned)o.format >= BB_ANIM_NFORMATS)
		return bb_error_set(err, BB_ERR_USAGE, path, NULL,
		                    "unknown animation format %d", (int)o.format);
	if (bb_anim_format_is_video(o.format) &&
	    (s = bb__video_check(path, &o, err)) != BB_OK)
		return s;
	if (o.quality < 0 || o.quality > 100)
		return bb_error_set(err, BB_ERR_USAGE, path, NULL,
		                    "quality %d outside 0..100", o.quality);
	if (o.alpha_threshold < 0 || o.alpha_threshold > 255)
		return bb_error_set(err, BB_ERR_USAGE, path, NULL,
		                    "alpha threshold %d outside 0..255", o.alpha_threshold);
	if (o.loop_count < 0 || o.loop_count > 65535)
		return bb_error_set(err, BB_ERR_USAGE, path, NULL,
		                    "loop count %d outside 0..65535", o.loop_count);
	if (o.lossy && o.quality == 0)
		o.quality = 75;
	if (o.alpha_threshold == 0)
		o.alpha_threshold = 128;
	limit = encoders[o.format].max_side;
	if (width <= 0 || height <= 0 || width > limit || height > limit)
		return bb_error_set(err, BB_ERR_LIMIT, path, NULL, "canvas %dx%d outside "
		                    "1..%d (%s)", width, height, limit,
		                    encoders[o.format].name);
	w = calloc(1, sizeof *w);
	if (!w)
		return bb_error_set(err, BB_ERR_NOMEM, path, NULL, "out of memory");
	w->o = o;
	w->width = width;
	w->height = height;
	if (snprintf(w->path, sizeof w->path, "%s", path) >= (int)sizeof w->path) {
		free(w);
		return bb_error_set(err, BB_ERR_IO, path, NULL, "path too long");
	}
	snprintf(w->tmp, sizeof w->tmp, "%s.tmp-XXXXXX", path);
	fd = mkstemp(w->tmp);
	if (fd < 0) {
		s = bb_error_set(err, BB_ERR_IO, path, NULL, "cannot create: %s",
		                 strerror(errno));
		free(w);
		return s;
	}
	fchmod(fd, bb_new_file_mode(0666));
	w->f = fdopen(fd, "w+b");
	if (!w->f) {
		close(fd);
		unlink(w->tmp);
		free(w);
		return bb_error_set(err, BB_ERR_NOMEM, path, NULL, "out of memory");
	}
	s = encoders[o.format].open(w, err);
	if (s != BB_OK) {
		bb_anim_free(w);
		return s;
	}
	*out = w;
	return BB_OK;
}

bb_status bb_anim_add(bb_anim_writer *w, const bb_image *frame,
                      double end_time, bb_error *err)
{
	double start = w->frames ? w->last_end : 0;
	bb_status s;

	if (w->failed)
		return bb_error_set(err, BB_ERR_USAGE, w->path, NULL,
		                    "writer failed earlier");
	if (frame->width != w->width || frame->height != w->height)
		return bb_error_set(err, BB_ERR_USAGE, w->path, NULL, "frame %ld is "
		                    "%dx%d, the canvas %dx%d", w->frames, frame->width,
		                    frame->height, w->width, w->height);
	if (!isfinite(end_time) || end_time < start || end_time - start > 655)
		return bb_error_set(err, BB_ERR_USAGE, w->path, NULL, "frame %ld: end "
		                    "time %g outside [%g, %g]", w->frames, end_time,
		                    start, start + 655);
	s = encoders[w->o.format].add(w, frame, start, end_time, err);
	if (s != BB_OK) {
		w->failed = 1;
		return s;
	}
	w->frames++;
	w->last_end = end_time;
	return BB_OK;
}

bb_status bb_anim_finish(bb_anim_writer *w, bb_error *err)
{
	bb_status s;

	if (w->failed || w->frames == 0) {
		s = bb_error_set(err, BB_ERR_USAGE, w->path, NULL, w->failed ?
		                 "writer failed earlier" : "no frame added");
		bb_anim_free(w);
		return s;
	}
	s = encoders[w->o.format].finish(w, err);
	if (s == BB_OK && (fflush(w->f) != 0 || ferror(w->f)))
		s = bb__anim_write_failed(w, errno, err);
	if (s == BB_OK) {
		int rc = fclose(w->f);

		w->f = NULL;
		if (rc != 0 || rename(w->tmp, w->path) != 0) {
			s = bb_error_set(err, BB_ERR_IO, w->path, NULL, "cannot write: %s",
			                 strerror(errno));
			unlink(w->tmp);
		}
	}
	bb_anim_free(w);
	return s;
}
