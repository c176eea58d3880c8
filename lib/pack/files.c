/* Sheet files: the text buffer the writers share, the format table,
 * encoding a sheet into in-memory files, and writing them all-or-nothing. */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bonebake/pack.h"
#include "core/util.h"
#include "pack/pack-int.h"

/* ------------------------------------------------------------------ */
/* Text buffer */

static int sbuf_reserve(bb__sbuf *b, size_t extra)
{
	if (b->failed)
		return 0;
	if (extra > SIZE_MAX - b->len - 1 ||
	    !bb__grow((void **)&b->data, &b->cap, b->len + extra + 1, 1)) {
		b->failed = 1;
		return 0;
	}
	return 1;
}

void bb__sbuf_puts(bb__sbuf *b, const char *s)
{
	size_t n = strlen(s);

	if (!sbuf_reserve(b, n))
		return;
	memcpy(b->data + b->len, s, n + 1);
	b->len += n;
}

void bb__sbuf_printf(bb__sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0) {
		b->failed = 1;
		return;
	}
	if (!sbuf_reserve(b, (size_t)n))
		return;
	va_start(ap, fmt);
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

void bb__sbuf_num(bb__sbuf *b, double v)
{
	char tmp[64];
	size_t n;

	if (v != v || v > 1e15 || v < -1e15)   /* NaN or absurd: keep JSON valid */
		v = 0;
	snprintf(tmp, sizeof tmp, "%.6f", v);
	n = strlen(tmp);
	while (n > 0 && tmp[n - 1] == '0')
		tmp[--n] = '\0';
	if (n > 0 && tmp[n - 1] == '.')
		tmp[--n] = '\0';
	if (strcmp(tmp, "-0") == 0)
		strcpy(tmp, "0");
	bb__sbuf_puts(b, tmp);
}

static void sbuf_put(void *ctx, const char *s, unsigned long n)
{
	bb__sbuf_printf(ctx, "%.*s", (int)n, s);
}

void bb__sbuf_json_str(bb__sbuf *b, const char *s)
{
	bb_json_quote(s, sbuf_put, b);
}

void bb__sbuf_xml_text(bb__sbuf *b, const char *s)
{
	bb_markup_escape(s, sbuf_put, b);
}


void bb__sbuf_free(bb__sbuf *b)
{
	free(b->data);
	memset(b, 0, sizeof *b);
}

/* ------------------------------------------------------------------ */
/* File list */

bb_status bb__files_add(bb_sheet_files *f, const char *name, void *data,
                        size_t size, bb_error *err)
{
	bb_sheet_file *nf = bb__realloc_array(f->files, f->n + 1, sizeof *nf);
	char *nm = bb__strdup(name);

	if (!nf || !nm) {
		if (nf)
			f->files = nf;
		free(nm);
		free(data);
		return bb_error_set(err, BB_ERR_NOMEM, name, NULL, "out of memory");
	}
	f->files = nf;
	f->files[f->n].name = nm;
	f->files[f->n].data = data;
	f->files[f->n].size = size;
	f->n++;
	return BB_OK;
}

bb_status bb__files_add_text(bb_sheet_files *f, const char *name, bb__sbuf *b,
                             bb_error *err)
{
	void *data = b->data;
	size_t size = b->len;

	if (b->failed) {
		bb__sbuf_free(b);
		return bb_error_set(err, BB_ERR_NOMEM, name, NULL, "out of memory");
	}
	b->data = NULL;
	bb__sbuf_free(b);
	if (!data)
		data = bb__strdup("");
	return bb__files_add(f, name, data, size, err);
}

const bb_sheet_file *bb_sheet_files_find(const bb_sheet_files *f,
                                         const char *name)
{
	size_t i;

	for (i = 0; f && i < f->n; i++)
		if (strcmp(f->files[i].name, name) == 0)
			return &f->files[i];
	return NULL;
}

void bb_sheet_files_free(bb_sheet_files *f)
{
	size_t i;

	if (!f)
		return;
	for (i = 0; i < f->n; i++) {
		free(f->files[i].name);
		free(f->files[i].data);
	}
	free(f->files);
	free(f);
}

void bb__sheet_page_name(const bb_sheet *s, const char *base, size_t p,
                         char *buf, size_t size)
{
	bb__sheet_page_meta_name(s, base, p, "png", buf, size);
}

void bb__sheet_page_meta_name(const bb_sheet *s, const char *base, size_t p,
                              const char *ext, char *buf, size_t size)
{
	if (s->n_pages > 1)
		snprintf(buf, size, "%s-%zu.%s", base, p, ext);
	else
		snprintf(buf, size, "%s.%s", base, ext);
}

/* ------------------------------------------------------------------ */
/* Formats */

static const struct format_row {
	const char *name, *alias1, *alias2;
	bb_pack_rotation rotation;
} formats[BB_SHEET_FORMAT_COUNT] = {
	[BB_SHEET_JSON_HASH] = { "json", "json-hash", "pixi", BB_PACK_ROTATE_CW },
	[BB_SHEET_JSON_ARRAY] = { "json-array", NULL, NULL, BB_PACK_ROTATE_CW },
	/* no Phaser 3 release reads "rotated" (phaserjs/phaser#5012) */
	[BB_SHEET_PHASER3] = { "phaser3", "phaser", "multiatlas", BB_PACK_ROTATE_NONE },
	[BB_SHEET_LIBGDX] = { "libgdx", "spine", "atlas", BB_PACK_ROTATE_CCW },
	[BB_SHEET_COCOS2D] = { "cocos2d", "cocos", "plist", BB_PACK_ROTATE_CW },
	[BB_SHEET_GODOT] = { "godot", "tres", NULL, BB_PACK_ROTATE_NONE },
};

const char *bb_sheet_format_name(bb_sheet_format f)
{
	return (unsigned)f < BB_SHEET_FORMAT_COUNT ? formats[f].name : "unknown";
}

int bb_sheet_format_parse(const char *s, bb_sheet_format *out)
{
	int i;

	for (i = 0; i < BB_SHEET_FORMAT_COUNT; i++)
		if (strcmp(s, formats[i].name) == 0 ||
		    (formats[i].alias1 && strcmp(s, formats[i].alias1) == 0) ||
		    (formats[i].alias2 && strcmp(s, formats[i].alias2) == 0)) {
			*out = (bb_sheet_format)i;
			return 1;
		}
	return 0;
}

bb_pack_rotation bb_sheet_format_rotation(bb_sheet_format f)
{
	return (unsigned)f < BB_SHEET_FORMAT_COUNT ? formats[f].rotation
	                                           : BB_PACK_ROTATE_NONE;
}

static bb_status check_name(const char *name, bb_error *err)
{
	const char *p;

	if (!name[0] || strlen(name) > 200 || strcmp(name, ".") == 0 ||
	    strcmp(name, "..") == 0)
		return bb_error_set(err, BB_ERR_USAGE, NULL, NULL,
		                    "bad sheet name '%s'", name);
	for (p = name; *p; p++)
		if (*p == '/' || (unsigned char)*p < 0x20)
			return bb_error_set(err, BB_ERR_USAGE, NULL, NULL,
			                    "sheet name '%s' must be a plain file name",
			                    name);
	return BB_OK;
}

static bb_status check_rotation(const bb_sheet *s, bb_sheet_format f,
                                bb_error *err)
{
	static const char *dir[] = { "not at all", "clockwise",
	                             "counter-clockwise" };
	size_t i;

	for (i = 0; i < s->n_frames; i++)
		if (s->frames[i].rotated)
			break;
	if (i == s->n_frames || bb_sheet_format_rotation(f) == s->rotation)
		return BB_OK;
	return bb_error_set(err, BB_ERR_USAGE, NULL, NULL,
	                    "%s metadata reads sprites turned %s, but this sheet "
	                    "turns them %s; pack without rotation or in another "
	                    "direction", bb_sheet_format_name(f),
	                    dir[bb_sheet_format_rotation(f)],
	                    dir[s->rotation <= BB_PACK_ROTATE_CCW ? s->rotation : 0]);
}

static bb_status write_format(const bb_sheet *s, bb_sheet_format f,
                              const char *base, double scale,
                              bb_sheet_files *out, bb_error *err)
{
	switch (f) {
	case BB_SHEET_JSON_HASH:
		return bb__write_tp_json(s, base, scale, 0, out, err);
	case BB_SHEET_JSON_ARRAY:
		return bb__write_tp_json(s, base, scale, 1, out, err);
	case BB_SHEET_PHASER3:
		return bb__write_phaser3(s, base, scale, out, err);
	case BB_SHEET_LIBGDX:
		return bb__write_libgdx(s, base, out, err);
	case BB_SHEET_COCOS2D:
		return bb__write_cocos2d(s, base, out, err);
	case BB_SHEET_GODOT:
		return bb__write_godot(s, base, out, err);
	case BB_SHEET_FORMAT_COUNT:
		break;
	}
	return bb_error_set(err, BB_ERR_USAGE, NULL, NULL, "unknown format %d",
	                    (int)f);
}

/* Pages are encoded on the writer's threads, each into its own slot;
 * each thread keeps one encoder, so its buffers serve every page it
 * takes. */
typedef struct page_png {
	void *data;
	size_t size;
	bb_status st;
	bb_error err;
} page_png;

typedef struct pages_job {
	const bb_sheet *s;
	bb_png_options png;
	page_png *pages;
	bb_png_encoder *enc[BB_MAX_THREADS];
} pages_job;

static void encode_page(void *arg, size_t p, int worker)
{
	pages_job *pj = arg;
	page_png *r = &pj->pages[p];
	const void *data;

	if (!pj->enc[worker]) {
		r->st = bb_png_encoder_new(&pj->png, &pj->enc[worker], &r->err);
		if (r->st != BB_OK)
			return;
	}
	if (pj->s->pages[p]) {
		r->st = bb_png_encoder_encode(pj->enc[worker], pj->s->pages[p], &data,
		                              &r->size, &r->err);
	} else {      /* lazy_pages: drawn now, freed once encoded */
		bb_image *page;

		r->st = bb__sheet_draw_page(pj->s, p, &page, &r->err);
		if (r->st == BB_OK)
			r->st = bb_png_encoder_encode(pj->enc[worker], page, &data,
			                              &r->size, &r->err);
		if (r->st == BB_OK) {
			r->data = malloc(r->size ? r->size : 1);
			if (r->data)
				memcpy(r->data, data, r->size);
		}
		bb_image_free(page);
		if (r->st == BB_OK && !r->data)
			r->st = bb_error_set(&r->err, BB_ERR_NOMEM, NULL, NULL,
			                     "out of memory");
		return;
	}
	if (r->st != BB_OK)
		return;
	r->data = malloc(r->size ? r->size : 1);
	if (!r->data) {
		r->st = bb_error_set(&r->err, BB_ERR_NOMEM, NULL, NULL, "out of memory");
		return;
	}
	memcpy(r->data, data, r->size);
}

bb_status bb_sheet_encode(const bb_sheet *s, const bb_sheet_write_options *o,
                          bb_sheet_files **out, bb_error *err)
{
	pages_job pj;
	const char *base = o && o->name ? o->name : "sheet";
	unsigned fm = o && o->formats ? o->formats : 1u << BB_SHEET_JSON_HASH;
	double scale = o && o->scale > 0 ? o->scale : 1;
	bb_sheet_files *files;
	bb_status st;
	size_t p;
	int f, k, workers;

	*out = NULL;
	memset(&pj, 0, sizeof pj);
	st = check_name(base, err);
	if (st != BB_OK)
		return st;
	if (fm >> BB_SHEET_FORMAT_COUNT)
		return bb_error_set(err, BB_ERR_USAGE, NULL, NULL,
		                    "unknown format bits 0x%x", fm);
	if ((fm & 1u << BB_SHEET_JSON_HASH) && (fm & 1u << BB_SHEET_JSON_ARRAY))
		return bb_error_set(err, BB_ERR_USAGE, NULL, NULL,
		                    "json and json-array both write %s.json; "
		                    "choose one", base);
	for (f = 0; f < BB_SHEET_FORMAT_COUNT; f++)
		if ((fm & 1u << f) &&
		    (st = check_rotation(s, (bb_sheet_format)f, err)) != BB_OK)
			return st;
	pj.png = o ? o->png : (bb_png_options){ 0 };
	if (!pj.png.level_set) {
		pj.png.level = BB_PNG_LEVEL_SHEETS;
		pj.png.level_set = 1;
	}
	if ((pj.png.level < 0 && pj.png.level != BB_PNG_LEVEL_FAST) ||
	    pj.png.level > BB_PNG_LEVEL_MAX ||
	    (unsigned)pj.png.filter > BB_PNG_FILTER_ADAPTIVE)
		return bb_error_set(err, BB_ERR_USAGE, NULL, NULL,
		                    "PNG level %d or filter %d out of range",
		                    pj.png.level, (int)pj.png.filter);
	pj.s = s;
	pj.pages = bb__calloc(s->n_pages, sizeof *pj.pages);
	files = calloc(1, sizeof *files);
	if (!files || !pj.pages) {
		free(files);
		free(pj.pages);
		return bb_error_set(err, BB_ERR_NOMEM, NULL, NULL, "out of memory");
	}
	workers = bb_parallel_for(s->n_pages, o && o->threads > 1 ? o->threads : 1,
	                          encode_page, &pj);
	for (k = 0; k < workers; k++)
		bb_png_encoder_free(pj.enc[k]);
	for (p = 0; p < s->n_pages; p++) {
		char name[256];

		bb__sheet_page_name(s, base, p, name, sizeof name);
		st = pj.pages[p].st;
		if (st != BB_OK && err)
			*err = pj.pages[p].err;
		else if (st == BB_OK)
			st = bb__files_add(files, name, pj.pages[p].data,
			                   pj.pages[p].size, err);
		pj.pages[p].data = NULL;
		if (st != BB_OK) {
			for (; p < s->n_pages; p++)
				free(pj.pages[p].data);
			free(pj.pages);
			bb_sheet_files_free(files);
			return st;
		}
	}
	free(pj.pages);
	for (f = 0; f < BB_SHEET_FORMAT_COUNT; f++) {
		if (!(fm & 1u << f))
			continue;
		st = write_format(s, (bb_sheet_format)f, base, scale, files, err);
		if (st != BB_OK) {
			bb_sheet_files_free(files);
			return st;
		}
	}
	*out = files;
	return BB_OK;
}

/* ------------------------------------------------------------------ */
/* Writing */

bb_status bb_sheet_files_write(const bb_sheet_files *f, const char *dir,
                               bb_error *err)
{
	char path[4096];
	size_t i, k;
	bb_status st = BB_OK;

	for (i = 0; i < f->n && st == BB_OK; i++) {
		if (!bb__path_join(path, sizeof path, dir, f->files[i].name))
			st = bb_error_set(err, BB_ERR_IO, f->files[i].name, NULL,
			                  "path too long");
		else
			st = bb_file_write_atomic(path, f->files[i].data, f->files[i].size,
			                          err);
	}
	if (st != BB_OK)     /* none of the new files stays behind */
		for (k = 0; k + 1 < i; k++)
			if (bb__path_join(path, sizeof path, dir, f->files[k].name))
				unlink(path);
	return st;
}
