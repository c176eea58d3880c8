/* Animated files, contact sheets and the frames.json reader: each preview
 * format written through the public API (videos: see `videos`) is read
 * back with the library that reads it (tests/tools/anim-read.c) and
 * checked for frame count,
 * delays, loop count, canvas and pixels; bad arguments fail cleanly and
 * leave no file behind. */
#include "config.h"

#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bonebake/bonebake.h"
#include "../tools/anim-read.h"

static char dir[256];

static void setup(void)
{
	snprintf(dir, sizeof dir, "%s/check-anim.XXXXXX", P_tmpdir);
	ck_assert(mkdtemp(dir) != NULL);
}

static void teardown(void)
{
	char cmd[400];

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

/* Entries in the test folder (temporary files included). */
static int entries(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	ck_assert(d != NULL);
	while ((e = readdir(d)) != NULL)
		n += e->d_name[0] != '.' || (strcmp(e->d_name, ".") != 0 &&
		                             strcmp(e->d_name, "..") != 0);
	closedir(d);
	return n;
}

/* Frame k of a test animation: a moving opaque square with an outline of
 * half-transparent pixels over a transparent background, and a stripe of
 * a colour that changes with k. */
static bb_image *frame(int w, int h, int k)
{
	bb_image *img;
	int x, y;

	ck_assert_int_eq(bb_image_new(w, h, &img, NULL), BB_OK);
	for (y = 0; y < h; y++)
		for (x = 0; x < w; x++) {
			uint8_t *p = bb_image_pixel(img, x, y);
			int dx = x - (2 + k), dy = y - 3;

			if (dx >= 0 && dx < 6 && dy >= 0 && dy < 5) {
				int edge = dx == 0 || dx == 5 || dy == 0 || dy == 4;

				p[0] = (uint8_t)(200 - 20 * k);
				p[1] = (uint8_t)(40 + 30 * dy);
				p[2] = (uint8_t)(250 - 9 * dx);
				p[3] = edge ? 90 : 255;
			} else if (y == h - 1) {
				p[0] = (uint8_t)(17 * k);
				p[1] = 128;
				p[2] = (uint8_t)(255 - 17 * k);
				p[3] = 255;
			}
		}
	return img;
}

static void write_anim(const char *path, bb_anim_format f, int loop_count,
                       int w, int h, int n, double fps, int repeat_last)
{
	bb_anim_options o = { 0 };
	bb_anim_writer *wr;
	bb_error err;
	int k;

	o.format = f;
	o.loop_count = loop_count;
	ck_assert_int_eq(bb_anim_open(path, w, h, &o, &wr, &err), BB_OK);
	for (k = 0; k < n; k++) {
		bb_image *img = frame(w, h, repeat_last && k == n - 1 ? k - 1 : k);

		ck_assert_int_eq(bb_anim_add(wr, img, (k + 1) / fps, &err), BB_OK);
		bb_image_free(img);
	}
	ck_assert_int_eq(bb_anim_finish(wr, &err), BB_OK);
}

/* Pixels equal; transparent pixels equal whatever their colour bytes. */
static void same_pixels(const bb_image *a, const bb_image *b)
{
	int x, y;

	ck_assert_int_eq(a->width, b->width);
	ck_assert_int_eq(a->height, b->height);
	for (y = 0; y < a->height; y++)
		for (x = 0; x < a->width; x++) {
			const uint8_t *p = bb_image_pixel(a, x, y), *q = bb_image_pixel(b, x, y);

			if (p[3] == 0 && q[3] == 0)
				continue;
			ck_assert_msg(memcmp(p, q, 4) == 0, "pixel %d,%d: %d %d %d %d vs "
			              "%d %d %d %d", x, y, p[0], p[1], p[2], p[3], q[0], q[1],
			              q[2], q[3]);
		}
}

static void lossless_round_trip(bb_anim_format f, const char *name)
{
	char path[400];
	struct anim_result r;
	long k, total = 0;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	write_anim(path, f, 0, 17, 11, 7, 30, 0);
	anim_read(path, &r);
	ck_assert_int_eq(r.width, 17);
	ck_assert_int_eq(r.height, 11);
	ck_assert_int_eq(r.frames, 7);
	ck_assert_int_eq(r.plays, 0);
	for (k = 0; k < r.frames; k++) {
		bb_image *want = frame(17, 11, (int)k);

		same_pixels(r.images[k], want);
		bb_image_free(want);
		/* the ends rounded, not the durations: 33 or 34 ms */
		ck_assert_int_eq(r.delays[k], lround((k + 1) * 1000 / 30.0) -
		                 lround(k * 1000 / 30.0));
		total += r.delays[k];
	}
	ck_assert_int_eq(total, 233);   /* 7/30 s */
	anim_result_free(&r);
	ck_assert_int_eq(entries(), 1);  /* no temporary file left */
}

START_TEST(webp_lossless)
{
	lossless_round_trip(BB_ANIM_WEBP, "a.webp");
}
END_TEST

START_TEST(apng_lossless)
{
	lossless_round_trip(BB_ANIM_APNG, "a.png");
}
END_TEST

START_TEST(gif_palette_and_delays)
{
	char path[400];
	struct anim_result r;
	long k, total = 0;
	int x, y;

	snprintf(path, sizeof path, "%s/a.gif", dir);
	write_anim(path, BB_ANIM_GIF, 0, 17, 11, 10, 30, 0);
	anim_read(path, &r);
	ck_assert_str_eq(r.format, "gif");
	ck_assert_int_eq(r.width, 17);
	ck_assert_int_eq(r.frames, 10);
	ck_assert_int_eq(r.plays, 0);
	ck_assert_int_eq(r.unit, 100);
	for (k = 0; k < r.frames; k++) {
		bb_image *want = frame(17, 11, (int)k);

		/* 1/30 s in 1/100 s: 3, 4, 3, 3, 4, 3 ... */
		ck_assert_int_eq(r.delays[k], lround((k + 1) * 100 / 30.0) -
		                 lround(k * 100 / 30.0));
		total += r.delays[k];
		for (y = 0; y < 11; y++)
			for (x = 0; x < 17; x++) {
				const uint8_t *p = bb_image_pixel(r.images[k], x, y),
				              *q = bb_image_pixel(want, x, y);
				int c;

				/* alpha below 128 is the transparent entry, the rest opaque */
				ck_assert_int_eq(p[3], q[3] >= 128 ? 255 : 0);
				for (c = 0; q[3] >= 128 && c < 3; c++)
					ck_assert_msg(abs(p[c] - q[c]) <= 8, "frame %ld %d,%d "
					              "channel %d: %d vs %d", k, x, y, c, p[c], q[c]);
			}
		bb_image_free(want);
	}
	ck_assert_int_eq(total, 33);    /* 10/30 s to 1/100 s */
	anim_result_free(&r);
}
END_TEST

START_TEST(loop_counts)
{
	static const bb_anim_format f[3] = { BB_ANIM_WEBP, BB_ANIM_GIF, BB_ANIM_APNG };
	static const int plays[3] = { 1, 3, 0 };
	int i, j;

	for (i = 0; i < 3; i++)
		for (j = 0; j < 3; j++) {
			char path[400];
			struct anim_result r;

			snprintf(path, sizeof path, "%s/loop%d%d.%s", dir, i, j,
			         bb_anim_format_extension(f[i]));
			write_anim(path, f[i], plays[j], 9, 8, 3, 12, 0);
			anim_read(path, &r);
			ck_assert_int_eq(r.plays, plays[j]);
			anim_result_free(&r);
		}
}
END_TEST

START_TEST(repeated_frames)
{
	char path[400];
	struct anim_result r;
	long total = 0, k;

	/* APNG keeps every frame (the unchanged one as a 1x1 update) */
	snprintf(path, sizeof path, "%s/rep.apng", dir);
	write_anim(path, BB_ANIM_APNG, 0, 17, 11, 4, 10, 1);
	anim_read(path, &r);
	ck_assert_int_eq(r.frames, 4);
	same_pixels(r.images[3], r.images[2]);
	for (k = 0; k < r.frames; k++)
		total += r.delays[k];
	ck_assert_int_eq(total, 400);
	anim_result_free(&r);
	/* libwebp merges an unchanged frame into the previous one's duration:
	 * fewer frames, the same total */
	snprintf(path, sizeof path, "%s/rep.webp", dir);
	write_anim(path, BB_ANIM_WEBP, 0, 17, 11, 4, 10, 1);
	anim_read(path, &r);
	ck_assert_int_le(r.frames, 4);
	for (k = total = 0; k < r.frames; k++)
		total += r.delays[k];
	ck_assert_int_eq(total, 400);
	anim_result_free(&r);
}
END_TEST

START_TEST(same_bytes)
{
	static const bb_anim_format f[3] = { BB_ANIM_WEBP, BB_ANIM_GIF, BB_ANIM_APNG };
	int i;

	for (i = 0; i < 3; i++) {
		char a[400], b[400], cmd[900];

		snprintf(a, sizeof a, "%s/x%d.1", dir, i);
		snprintf(b, sizeof b, "%s/x%d.2", dir, i);
		write_anim(a, f[i], 0, 20, 12, 6, 24, 0);
		write_anim(b, f[i], 0, 20, 12, 6, 24, 0);
		snprintf(cmd, sizeof cmd, "cmp -s '%s' '%s'", a, b);
		ck_assert_int_eq(system(cmd), 0);
	}
}
END_TEST

START_TEST(bad_arguments)
{
	bb_anim_options o = { 0 };
	bb_anim_writer *w;
	bb_image *img;
	bb_error err;
	char path[400];

	snprintf(path, sizeof path, "%s/bad.webp", dir);
	o.lossy = 1;
	o.quality = 101;
	ck_assert_int_eq(bb_anim_open(path, 10, 10, &o, &w, &err), BB_ERR_USAGE);
	ck_assert(strstr(err.message, "quality") != NULL);
	o.quality = -1;
	ck_assert_int_eq(bb_anim_open(path, 10, 10, &o, &w, &err), BB_ERR_USAGE);
	o.quality = 50;
	ck_assert_int_eq(bb_anim_open(path, 0, 10, &o, &w, &err), BB_ERR_LIMIT);
	ck_assert_int_eq(bb_anim_open(path, 16384, 10, &o, &w, &err), BB_ERR_LIMIT);
	ck_assert_int_eq(bb_anim_open("/nonexistent-bonebake/x.webp", 10, 10, &o,
	                              &w, &err), BB_ERR_IO);
	ck_assert_str_eq(err.file, "/nonexistent-bonebake/x.webp");
	ck_assert_int_eq(entries(), 0);
	/* a frame of the wrong size, a time going back, then only free */
	ck_assert_int_eq(bb_anim_open(path, 10, 10, &o, &w, &err), BB_OK);
	img = frame(11, 10, 0);
	ck_assert_int_eq(bb_anim_add(w, img, 0.1, &err), BB_ERR_USAGE);
	bb_image_free(img);
	img = frame(10, 10, 0);
	ck_assert_int_eq(bb_anim_add(w, img, 0.1, &err), BB_OK);
	ck_assert_int_eq(bb_anim_add(w, img, 0.05, &err), BB_ERR_USAGE);
	bb_image_free(img);
	ck_assert_int_eq(entries(), 1);   /* the temporary file only */
	bb_anim_free(w);
	ck_assert_int_eq(entries(), 0);
	/* finishing without a frame fails and leaves nothing */
	ck_assert_int_eq(bb_anim_open(path, 10, 10, NULL, &w, &err), BB_OK);
	ck_assert_int_eq(bb_anim_finish(w, &err), BB_ERR_USAGE);
	ck_assert_int_eq(entries(), 0);
}
END_TEST

START_TEST(format_names)
{
	bb_anim_format f;

	ck_assert(bb_anim_format_from_path("x/a.WebP", &f) && f == BB_ANIM_WEBP);
	ck_assert(bb_anim_format_from_path("a.gif", &f) && f == BB_ANIM_GIF);
	ck_assert(bb_anim_format_from_path("a.png", &f) && f == BB_ANIM_APNG);
	ck_assert(bb_anim_format_from_path("a.apng", &f) && f == BB_ANIM_APNG);
	ck_assert(!bb_anim_format_from_path("a.bmp", &f));
	ck_assert(!bb_anim_format_from_path("x.gif/a", &f));
	ck_assert(!bb_anim_format_from_path(".gif", &f));
	ck_assert(bb_anim_format_parse("apng", &f) && f == BB_ANIM_APNG);
	ck_assert(!bb_anim_format_parse("png", &f));
	ck_assert(bb_anim_format_from_path("a.WEBM", &f) && f == BB_ANIM_WEBM);
	ck_assert(bb_anim_format_from_path("a.mp4", &f) && f == BB_ANIM_MP4);
	ck_assert(bb_anim_format_from_path("a.mov", &f) && f == BB_ANIM_MOV);
	ck_assert(bb_anim_format_parse("mov", &f) && f == BB_ANIM_MOV);
	ck_assert(bb_anim_format_is_video(BB_ANIM_WEBM));
	ck_assert(!bb_anim_format_is_video(BB_ANIM_APNG));
	ck_assert_str_eq(bb_anim_format_extension(BB_ANIM_MP4), "mp4");
}
END_TEST

/* Writes three 9x7 frames as a video of format f (odd sides: MP4 pads);
 * returns the writer's status at open (BB_OK: the file was finished). */
static bb_status write_video(const char *path, bb_anim_format f,
                             const bb_anim_options *extra, bb_error *err)
{
	bb_anim_options o = { 0 };
	bb_anim_writer *w;
	bb_status s;
	int k;

	if (extra)
		o = *extra;
	o.format = f;
	if (o.fps == 0)
		o.fps = 12;
	if ((s = bb_anim_open(path, 9, 7, &o, &w, err)) != BB_OK)
		return s;
	for (k = 0; k < 3; k++) {
		bb_image *img = frame(9, 7, k);

		ck_assert_int_eq(bb_anim_add(w, img, (k + 1) / 12.0, err), BB_OK);
		bb_image_free(img);
	}
	ck_assert_int_eq(bb_anim_finish(w, err), BB_OK);
	return BB_OK;
}

/* Videos through the library: the container's signature, the same bytes
 * twice, the option checks (nothing left behind); in a build without
 * video, a usage error naming --without-video.  tests/cli/video.sh reads
 * the files back with FFmpeg's tools. */
START_TEST(videos)
{
	static const bb_anim_format f[3] = { BB_ANIM_WEBM, BB_ANIM_MP4, BB_ANIM_MOV };
	bb_anim_options o = { 0 };
	bb_error err;
	char a[400], b[400], cmd[900];
	int i;

	for (i = 0; i < 3; i++) {
		unsigned char head[12] = { 0 };
		FILE *fp;

		snprintf(a, sizeof a, "%s/v%d.1", dir, i);
		snprintf(b, sizeof b, "%s/v%d.2", dir, i);
		if (!bb_anim_video_available()) {
			ck_assert_int_eq(write_video(a, f[i], NULL, &err), BB_ERR_USAGE);
			ck_assert(strstr(err.message, "--without-video") != NULL);
			continue;
		}
		ck_assert_int_eq(write_video(a, f[i], NULL, &err), BB_OK);
		ck_assert_int_eq(write_video(b, f[i], NULL, &err), BB_OK);
		snprintf(cmd, sizeof cmd, "cmp -s '%s' '%s'", a, b);
		ck_assert_int_eq(system(cmd), 0);
		fp = fopen(a, "rb");
		ck_assert(fp != NULL);
		ck_assert_int_eq(fread(head, 1, sizeof head, fp), sizeof head);
		fclose(fp);
		if (f[i] == BB_ANIM_WEBM)       /* EBML */
			ck_assert(memcmp(head, "\x1a\x45\xdf\xa3", 4) == 0);
		else                            /* an ISO/QuickTime box */
			ck_assert(memcmp(head + 4, "ftyp", 4) == 0 ||
			          memcmp(head + 4, "wide", 4) == 0);
	}
	ck_assert_int_eq(entries(), bb_anim_video_available() ? 6 : 0);
	snprintf(a, sizeof a, "%s/bad.webm", dir);
	o.fps = -1;
	ck_assert_int_eq(write_video(a, BB_ANIM_WEBM, &o, &err), BB_ERR_USAGE);
	o.fps = 30;
	o.has_crf = 1;
	o.crf = 64;
	ck_assert_int_eq(write_video(a, BB_ANIM_WEBM, &o, &err), BB_ERR_USAGE);
	o.crf = 0;
	ck_assert_int_eq(write_video(a, BB_ANIM_MOV, &o, &err), BB_ERR_USAGE);
	o.crf = 20;
	o.bitrate = 1000000;
	ck_assert_int_eq(write_video(a, BB_ANIM_MP4, &o, &err), BB_ERR_USAGE);
	o.has_crf = 0;
	ck_assert_int_eq(write_video(a, BB_ANIM_MOV, &o, &err), BB_ERR_USAGE);
	if (bb_anim_video_available()) {
		ck_assert(strstr(err.message, "ProRes") != NULL);
		ck_assert_int_eq(write_video(a, BB_ANIM_MP4, &o, &err), BB_OK);
		unlink(a);
	}
	ck_assert_int_eq(entries(), bb_anim_video_available() ? 6 : 0);
}
END_TEST

START_TEST(contact_sheet)
{
	bb_contact_options o = { 0 };
	bb_contact_sheet *s;
	bb_image *img, *out;
	bb_error err;
	int k;

	o.title = "test  12 fps";
	o.columns = 3;
	ck_assert_int_eq(bb_contact_new(7, 100, 60, &o, &s, &err), BB_OK);
	for (k = 0; k < 7; k++) {
		img = frame(100, 60, k);
		ck_assert_int_eq(bb_contact_add(s, k, k / 12.0, img, &err), BB_OK);
		bb_image_free(img);
	}
	img = frame(100, 60, 0);
	ck_assert_int_eq(bb_contact_add(s, 7, 0, img, &err), BB_ERR_USAGE);
	bb_image_free(img);
	ck_assert_int_eq(bb_contact_render(s, &out, &err), BB_OK);
	/* 3 columns of 100 px, gaps 6, margins 8; 3 rows of 60 + label 16,
	 * gaps 6, margins 8, title 26 */
	ck_assert_int_eq(out->width, 3 * 100 + 2 * 6 + 16);
	ck_assert_int_eq(out->height, 3 * (60 + 16 + 6) - 6 + 16 + 26);
	/* opaque; the first cell's checkerboard under transparency (8 px
	 * squares, grey where row and column have the same parity); frame 0's
	 * opaque square drawn at 1:1 */
	ck_assert_int_eq(bb_image_pixel(out, 0, 0)[3], 255);
	ck_assert_int_eq(bb_image_pixel(out, 8 + 50, 8 + 26 + 50)[0], 204);
	ck_assert_int_eq(bb_image_pixel(out, 8 + 58, 8 + 26 + 50)[0], 255);
	ck_assert_int_eq(bb_image_pixel(out, 8 + 4, 8 + 26 + 5)[0], 200);
	ck_assert_int_eq(bb_image_pixel(out, 8 + 4, 8 + 26 + 5)[2], 232);
	bb_image_free(out);
	bb_contact_free(s);
	/* cells scaled down to fit the side limit, and a limit nothing fits */
	o.columns = 0;
	o.max_side = 400;
	ck_assert_int_eq(bb_contact_new(12, 100, 100, &o, &s, &err), BB_OK);
	ck_assert_int_eq(bb_contact_render(s, &out, &err), BB_OK);
	ck_assert_int_le(out->width, 400);
	ck_assert_int_le(out->height, 400);
	bb_image_free(out);
	bb_contact_free(s);
	ck_assert_int_eq(bb_contact_new(100000, 100, 100, &o, &s, &err), BB_ERR_LIMIT);
	ck_assert_int_eq(bb_contact_new(0, 100, 100, &o, &s, &err), BB_ERR_USAGE);
}
END_TEST

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	ck_assert(f != NULL);
	fputs(text, f);
	fclose(f);
}

START_TEST(frames_json)
{
	char path[400];
	bb_frames_json *fi;
	bb_error err;

	snprintf(path, sizeof path, "%s/frames.json", dir);
	write_text(path, "{ \"animation\": \"walk\", \"armature\": \"hero\", \"fps\": 24,"
	           " \"loop\": false, \"duration\": 0.5, \"canvas\": { \"width\": 30,"
	           " \"height\": 40 }, \"origin\": { \"x\": 15, \"y\": 38.5 },"
	           " \"events\": [ { \"name\": \"step\", \"kind\": \"event\", \"time\":"
	           " 0.25, \"frame\": 6 } ], \"frames\": [ { \"file\": \"walk_0000.png\","
	           " \"time\": 0 }, { \"file\": \"walk_0001.png\", \"time\": 0.0417 } ] }");
	ck_assert_int_eq(bb_frames_json_read(path, 0, &fi, &err), BB_OK);
	ck_assert_str_eq(fi->animation, "walk");
	ck_assert_str_eq(fi->armature, "hero");
	ck_assert_double_eq(fi->fps, 24);
	ck_assert_int_eq(fi->loop, 0);
	ck_assert_int_eq(fi->width, 30);
	ck_assert_int_eq(fi->height, 40);
	ck_assert_double_eq(fi->origin_y, 38.5);
	ck_assert_int_eq(fi->n_frames, 2);
	ck_assert_str_eq(fi->frames[1].file, "walk_0001.png");
	ck_assert_int_eq(fi->n_events, 1);
	ck_assert_str_eq(fi->events[0].name, "step");
	ck_assert_int_eq(fi->events[0].frame, 6);
	bb_frames_json_free(fi);
	/* a path in a file name, a missing fps, bad JSON */
	write_text(path, "{ \"fps\": 24, \"canvas\": { \"width\": 30, \"height\": 40 },"
	           " \"frames\": [ { \"file\": \"a.png\" }, { \"file\": \"../b.png\" } ] }");
	ck_assert_int_eq(bb_frames_json_read(path, 0, &fi, &err), BB_ERR_INPUT);
	ck_assert_ptr_null(fi);
	ck_assert_str_eq(err.path, "frames[1].file");
	write_text(path, "{ \"canvas\": { \"width\": 30, \"height\": 40 },"
	           " \"frames\": [ { \"file\": \"a.png\" } ] }");
	ck_assert_int_eq(bb_frames_json_read(path, 0, &fi, &err), BB_ERR_INPUT);
	ck_assert_str_eq(err.path, "fps");
	/* the field named to the member, as the loaders name theirs */
	write_text(path, "{ \"fps\": 24, \"canvas\": { \"width\": 0, \"height\": 40 },"
	           " \"frames\": [ { \"file\": \"a.png\" } ] }");
	ck_assert_int_eq(bb_frames_json_read(path, 0, &fi, &err), BB_ERR_INPUT);
	ck_assert_str_eq(err.path, "canvas.width");
	ck_assert_str_eq(err.message, "expected an integer in 1..32768, found 0");
	write_text(path, "{ \"fps\": 24, \"canvas\": { \"width\": 30, \"height\": 40 },"
	           " \"frames\": [ { \"file\": \"a.png\" } ], \"events\": [ {},"
	           " { \"name\": \"e\", \"kind\": 3 } ] }");
	ck_assert_int_eq(bb_frames_json_read(path, 0, &fi, &err), BB_ERR_INPUT);
	ck_assert_str_eq(err.path, "events[1].kind");
	ck_assert_str_eq(err.message, "expected a string, found a number");
	write_text(path, "{ \"overlay\": { \"start\": 1 } }");
	ck_assert_int_eq(bb_frames_json_read(path, BB_FRAMES_JSON_PARTIAL, &fi, &err),
	                 BB_ERR_INPUT);
	ck_assert_str_eq(err.path, "overlay.animation");
	ck_assert_str_eq(err.message, "missing");
	write_text(path, "{ \"fps\": 24,\n \"canvas\": }");
	ck_assert_int_eq(bb_frames_json_read(path, 0, &fi, &err), BB_ERR_INPUT);
	ck_assert_int_eq(err.line, 2);
	snprintf(path, sizeof path, "%s/none.json", dir);
	ck_assert_int_eq(bb_frames_json_read(path, 0, &fi, &err), BB_ERR_IO);
	/* partial: what another tool wrote (no fps, canvas or frames) */
	snprintf(path, sizeof path, "%s/frames.json", dir);
	write_text(path, "{ \"animation\": \"jump\", \"origin\": { \"x\": 3, \"y\": 4 } }");
	ck_assert_int_eq(bb_frames_json_read(path, 0, &fi, &err), BB_ERR_INPUT);
	ck_assert_int_eq(bb_frames_json_read(path, BB_FRAMES_JSON_PARTIAL, &fi, &err),
	                 BB_OK);
	ck_assert_str_eq(fi->animation, "jump");
	ck_assert_int_eq(fi->has_origin, 1);
	ck_assert_double_eq(fi->origin_y, 4);
	ck_assert_double_eq(fi->fps, 0);
	ck_assert_int_eq(fi->n_frames, 0);
	bb_frames_json_free(fi);
}
END_TEST

START_TEST(frames_json_write_read)
{
	/* what the writer writes, the reader reads back field for field */
	bb_frames_json_entry fr[2] = { { "walk_0000.png", 0 }, { "walk_0001.png", 0.5 } };
	bb_frames_json_event ev[1] = { { "step", "sound", 0.25, 1, "thud \"1\"\n" } };
	bb_frames_json f, *g;
	char path[400];
	bb_error err;

	memset(&f, 0, sizeof f);
	f.animation = "walk";
	f.armature = "hero/a";
	f.fps = 2;
	f.loop = 0;
	f.duration = 0.5;
	f.scale = 1.5;
	f.width = 10;
	f.height = 20;
	f.origin_x = 5;
	f.origin_y = 19.25;
	f.overlay.animation = "attack";
	f.overlay.start = 0.2;
	f.preview = "walk.webp";
	f.frames = fr;
	f.n_frames = 2;
	f.events = ev;
	f.n_events = 1;
	snprintf(path, sizeof path, "%s/w.json", dir);
	ck_assert_int_eq(bb_frames_json_write(path, &f, &err), BB_OK);
	ck_assert_int_eq(bb_frames_json_read(path, 0, &g, &err), BB_OK);
	ck_assert_str_eq(g->animation, "walk");
	ck_assert_str_eq(g->armature, "hero/a");
	ck_assert_int_eq(g->loop, 0);
	ck_assert_double_eq(g->scale, 1.5);
	ck_assert_int_eq(g->height, 20);
	ck_assert_double_eq(g->origin_y, 19.25);
	ck_assert_str_eq(g->overlay.animation, "attack");
	ck_assert_double_eq(g->overlay.start, 0.2);
	ck_assert_ptr_null(g->face.animation);
	ck_assert_str_eq(g->preview, "walk.webp");
	ck_assert_int_eq(g->n_frames, 2);
	ck_assert_double_eq(g->frames[1].time, 0.5);
	ck_assert_int_eq(g->n_events, 1);
	ck_assert_str_eq(g->events[0].kind, "sound");
	ck_assert_str_eq(g->events[0].data, "thud \"1\"\n");
	ck_assert_int_eq(g->events[0].frame, 1);
	bb_frames_json_free(g);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("anim");
	TCase *tc = tcase_create("anim");
	SRunner *sr;
	int failed;

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, webp_lossless);
	tcase_add_test(tc, apng_lossless);
	tcase_add_test(tc, gif_palette_and_delays);
	tcase_add_test(tc, loop_counts);
	tcase_add_test(tc, repeated_frames);
	tcase_add_test(tc, same_bytes);
	tcase_add_test(tc, bad_arguments);
	tcase_add_test(tc, format_names);
	tcase_add_test(tc, videos);
	tcase_add_test(tc, contact_sheet);
	tcase_add_test(tc, frames_json);
	tcase_add_test(tc, frames_json_write_read);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
