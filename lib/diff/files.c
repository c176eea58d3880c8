/* Comparing PNG files: byte-identical files are recognised before any
 * decoding, sizes are read from the headers so a size mismatch costs no
 * decoding either, and budgets are checked in one place. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bonebake/diff.h"
#include "core/foreign.h"
#include "core/util.h"
#include "diff/internal.h"

/* PNG files larger than this are refused (as the PNG reader does). */
#define DIFF_MAX_FILE_BYTES ((size_t)512 << 20)

/* A whole file in memory. */
struct blob {
	uint8_t *data;
	size_t size;
};

/* Reads a regular file whole, sized with fstat: one allocation and, for
 * most files, one read. */
static bb_status blob_read(const char *path, struct blob *b, bb_error *err)
{
	struct stat st;
	size_t got = 0;
	int fd;

	b->data = NULL;
	b->size = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return bb_error_set(err, BB_ERR_IO, path, NULL, "cannot open: %s",
		                    strerror(errno));
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return bb_error_set(err, BB_ERR_IO, path, NULL,
		                    "not a readable regular file");
	}
	if ((uintmax_t)st.st_size > DIFF_MAX_FILE_BYTES) {
		close(fd);
		return bb_error_set(err, BB_ERR_LIMIT, path, NULL,
		                    "file larger than the limit of %zu bytes",
		                    DIFF_MAX_FILE_BYTES);
	}
	b->data = malloc((size_t)st.st_size + 1);
	if (!b->data) {
		close(fd);
		return bb_error_set(err, BB_ERR_NOMEM, path, NULL, "out of memory");
	}
	while (got < (size_t)st.st_size) {
		ssize_t n = read(fd, b->data + got, (size_t)st.st_size - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;

			close(fd);
			free(b->data);
			b->data = NULL;
			return bb_error_set(err, BB_ERR_IO, path, NULL,
			                    "read error: %s", strerror(e));
		}
		if (n == 0)
			break;  /* the file shrank; compare what is there */
		got += (size_t)n;
	}
	close(fd);
	b->size = got;
	return BB_OK;
}

static bb_status blob_decode(const struct blob *b, const char *path,
                             size_t max_pixels, bb_image **out, bb_error *err)
{
	return bb_png_read_mem_limited(b->data, b->size, path, max_pixels, out, err);
}

/* Decoding the second file on another thread. */
struct decode_job {
	const struct blob *blob;
	const char *path;
	size_t max_pixels;
	bb_image *img;
	bb_error err;
	bb_status status;
};

static void decode_one(void *arg, size_t i, int worker)
{
	struct decode_job *j = (struct decode_job *)arg + i;

	(void)worker;
	j->status = blob_decode(j->blob, j->path, j->max_pixels, &j->img, &j->err);
}

/* Decodes both files, at once when allowed two threads (decoding is most
 * of a comparison's time).  On failure, reports the first file's error
 * first. */
static bb_status decode_both(const struct blob *fa, const char *path_a,
                             const struct blob *fb, const char *path_b,
                             int threads, size_t max_pixels, bb_image **ia,
                             bb_image **ib, bb_error *err)
{
	struct decode_job job[2] = {
		{ fa, path_a, max_pixels, NULL, { 0 }, BB_OK },
		{ fb, path_b, max_pixels, NULL, { 0 }, BB_OK },
	};
	bb_status s;

	bb_parallel_for(2, threads > 1 ? 2 : 1, decode_one, job);
	*ia = job[0].img;
	*ib = job[1].img;
	s = job[0].status != BB_OK ? job[0].status : job[1].status;
	if (s != BB_OK && err)
		*err = job[0].status != BB_OK ? job[0].err : job[1].err;
	return s;
}

/* Identical files: the result of comparing an image with itself, computed
 * from the header alone. */
static void same_file(int w, int h, const bb_diff_options *opts,
                      bb_diff_result *res)
{
	memset(res, 0, sizeof *res);
	res->a_width = res->b_width = w;
	res->a_height = res->b_height = h;
	res->total_pixels = (long long)w * h - bb__diff_ignored_pixels(opts, w, h);
	res->same_bytes = 1;
}

/* Compares decoded images; draws the diff image only when there is
 * something to show, in a second pass (cheap next to decoding). */
static bb_status compare_decoded(const bb_image *a, const bb_image *b,
                                 const bb_diff_options *opts,
                                 bb_diff_result *res, bb_image **diff_out,
                                 bb_error *err)
{
	bb_status s = bb_diff_images(a, b, opts, res, NULL, err);

	if (s != BB_OK || !diff_out ||
	    (res->diff_pixels == 0 && res->aa_pixels == 0))
		return s;
	return bb_diff_images(a, b, opts, res, diff_out, err);
}

static bb_status not_png(const char *path, const struct blob *b, bb_error *err)
{
	const char *what = bb__foreign_file(b->data, b->size);

	return bb_error_set(err, BB_ERR_INPUT, path, NULL, "not a PNG file%s%s",
	                    what ? ": " : " (bad signature or header)", what ? what : "");
}

bb_status bb_diff_files(const char *path_a, const char *path_b,
                        const bb_diff_options *opts, bb_diff_result *res,
                        bb_image **diff_out, bb_error *err)
{
	struct blob fa = { NULL, 0 }, fb = { NULL, 0 };
	bb_image *ia = NULL, *ib = NULL;
	int aw, ah, bw, bh;
	bb_status s;

	memset(res, 0, sizeof *res);
	if (diff_out)
		*diff_out = NULL;
	s = bb_diff_options_check(opts, err);
	if (s != BB_OK)
		return s;
	s = blob_read(path_a, &fa, err);
	if (s != BB_OK)
		goto fail;
	s = blob_read(path_b, &fb, err);
	if (s != BB_OK)
		goto fail;
	if (!bb_png_size(fa.data, fa.size, &aw, &ah)) {
		s = not_png(path_a, &fa, err);
		goto fail;
	}
	if (!bb_png_size(fb.data, fb.size, &bw, &bh)) {
		s = not_png(path_b, &fb, err);
		goto fail;
	}
	res->a_width = aw;
	res->a_height = ah;
	res->b_width = bw;
	res->b_height = bh;
	if (fa.size == fb.size && memcmp(fa.data, fb.data, fa.size) == 0) {
		same_file(aw, ah, opts, res);
		s = BB_OK;
		goto fail;
	}
	if (aw != bw || ah != bh) {
		s = bb_error_set(err, BB_ERR_MISMATCH, path_b, NULL,
		                 "image sizes differ: %dx%d vs %dx%d", aw, ah, bw,
		                 bh);
		goto fail;
	}
	s = decode_both(&fa, path_a, &fb, path_b, opts ? opts->threads : 1,
	                opts ? opts->max_pixels : 0, &ia, &ib, err);
	free(fa.data);
	free(fb.data);
	fa.data = fb.data = NULL;
	if (s != BB_OK)
		goto fail;
	s = compare_decoded(ia, ib, opts, res, diff_out, err);
fail:
	free(fa.data);
	free(fb.data);
	bb_image_free(ia);
	bb_image_free(ib);
	return s;
}

int bb_diff_within_budget(const bb_diff_budget *b, const bb_diff_result *res)
{
	if (!b || (!b->max_pixels_set && !b->max_ratio_set && !b->max_window_set))
		return res->diff_pixels == 0;
	if (b->max_window_set && res->window_pixels > b->max_window_pixels)
		return 0;
	if (b->max_pixels_set && res->diff_pixels > b->max_pixels)
		return 0;
	if (b->max_ratio_set && res->diff_ratio > b->max_ratio)
		return 0;
	return 1;
}
