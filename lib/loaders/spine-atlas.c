/* The libGDX texture atlas Spine exports (`.atlas`): pages, each a PNG
 * name followed by `key: values` lines, then regions, each a name followed
 * by its `key: values`.  4.x writes `bounds: x, y, w, h` and `offsets: x,
 * y, origW, origH`; 3.x writes `xy`, `size`, `orig`, `offset` and a blank
 * line before every page.  `rotate` is true/false or degrees.  Region
 * sizes are before rotation, offsets count from the bottom-left of the
 * original image, as the runtime reads them. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "loaders/spine.h"

enum { MAX_VALUES = 4 };

struct reader {
	const char *p, *end;
	int line;
	const char *name;      /* atlas file name for errors */
	bb_error *err;
};

/* A line without its end, trimmed; 0 at the end of the data. */
static int read_line(struct reader *r, const char **s, size_t *n)
{
	const char *b = r->p, *e;

	if (r->p >= r->end)
		return 0;
	e = memchr(b, '\n', (size_t)(r->end - b));
	if (!e)
		e = r->end;
	r->p = e < r->end ? e + 1 : e;
	r->line++;
	while (b < e && isspace((unsigned char)*b))
		b++;
	while (e > b && isspace((unsigned char)e[-1]))
		e--;
	*s = b;
	*n = (size_t)(e - b);
	return 1;
}

/* One `key: v1, v2, ...` entry (at most MAX_VALUES values). */
struct entry {
	char key[64];
	char val[MAX_VALUES][64];
	int nval;
};

static int parse_entry(const char *s, size_t n, struct entry *en)
{
	const char *colon = memchr(s, ':', n), *p, *end = s + n;
	size_t k;

	if (!colon)
		return 0;
	k = (size_t)(colon - s);
	while (k > 0 && isspace((unsigned char)s[k - 1]))
		k--;
	if (k >= sizeof en->key)
		k = sizeof en->key - 1;
	memcpy(en->key, s, k);
	en->key[k] = '\0';
	en->nval = 0;
	p = colon + 1;
	while (en->nval < MAX_VALUES) {
		const char *c = memchr(p, ',', (size_t)(end - p)), *e = c ? c : end;
		const char *b = p;

		while (b < e && isspace((unsigned char)*b))
			b++;
		while (e > b && isspace((unsigned char)e[-1]))
			e--;
		k = (size_t)(e - b) < sizeof en->val[0] ? (size_t)(e - b)
		                                         : sizeof en->val[0] - 1;
		memcpy(en->val[en->nval], b, k);
		en->val[en->nval][k] = '\0';
		en->nval++;
		if (!c)
			break;
		p = c + 1;
	}
	return 1;
}

static bb_status fail(struct reader *r, const char *where, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static bb_status fail(struct reader *r, const char *where, const char *fmt, ...)
{
	char msg[BB_ERROR_MSG_MAX];
	va_list ap;
	bb_status s;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	s = bb_error_set(r->err, BB_ERR_INPUT, r->name, where, "%s", msg);
	if (r->err)
		r->err->line = r->line;
	return s;
}

/* The entry's first n values as integers (the runtime's parseInt, but
 * strict: trailing garbage is an error). */
static bb_status ints(struct reader *r, const char *where, const struct entry *en,
                      int n, int *out)
{
	int i;

	if (en->nval < n)
		return fail(r, where, "%s: expected %d integers, found %d", en->key, n,
		            en->nval);
	for (i = 0; i < n; i++) {
		char *e;
		long v;

		errno = 0;
		v = strtol(en->val[i], &e, 10);
		if (e == en->val[i] || *e || errno || v < -1000000 || v > 1000000)
			return fail(r, where, "%s: \"%s\" is not an integer in "
			            "-1000000..1000000", en->key, en->val[i]);
		out[i] = (int)v;
	}
	return BB_OK;
}

static bb_status nomem(struct reader *r)
{
	return bb_error_set(r->err, BB_ERR_NOMEM, r->name, NULL, "out of memory");
}

struct page {
	char name[512];
	int w, h, pma, texture;
	int line;              /* of its name: errors about the file name it */
};

static bb_status load_page(bb__load_ctx *c, struct reader *r, const char *dir,
                           struct page *pg)
{
	char png[4700];
	bb_image *img = NULL;
	bb__where at = { .file = r->name, .line = pg->line, .err = r->err };
	bb_status s;

	if (!bb__path_join(png, sizeof png, dir, pg->name))
		return fail(r, pg->name, "page path too long");
	bb_model *m = c->m;

	pg->texture = bb__model_find_texture(m, png);
	if (pg->texture < 0) {
		/* through the funnel: confined, recorded, within the limits */
		bb__jpath_init(&at.path);
		s = bb__load_image(c, &(bb__ref){ .at = &at, .what = "page",
		                                  .name = pg->name, .dir = dir },
		                   pg->pma ? BB__IMAGE_PMA : 0, &img, NULL, 0);
		if (s != BB_OK)
			return s;
		if ((s = bb__build_texture(&c->b, png, img, &pg->texture)) != BB_OK)
			return s;
	}
	img = m->textures[pg->texture];
	if (pg->w <= 0 || pg->h <= 0) {
		pg->w = img->width;
		pg->h = img->height;
	}
	return BB_OK;
}

static bb_status page_entry(struct reader *r, struct page *pg, const struct entry *en)
{
	int v[2];
	bb_status s;

	if (strcmp(en->key, "size") == 0) {
		if ((s = ints(r, pg->name, en, 2, v)) != BB_OK)
			return s;
		if (v[0] <= 0 || v[1] <= 0)
			return fail(r, pg->name, "size: %dx%d is not a page size", v[0], v[1]);
		pg->w = v[0];
		pg->h = v[1];
	} else if (strcmp(en->key, "pma") == 0) {
		pg->pma = strcmp(en->val[0], "true") == 0;
	} else if (strcmp(en->key, "scale") == 0) {
		char *e;
		double sc = strtod(en->val[0], &e);

		if (e == en->val[0] || *e || !(sc > 0))
			return fail(r, pg->name, "scale: \"%s\" is not a positive number",
			            en->val[0]);
		/* the runtime ignores it too: attachment sizes are in skeleton
		 * units, region sizes in page pixels */
	}
	return BB_OK;
}

struct region_in {
	bb__sp_region rg;
	int has_xy, has_size, has_orig;
};

static bb_status region_entry(struct reader *r, struct region_in *ri,
                              const struct entry *en)
{
	bb__sp_region *rg = &ri->rg;
	char where[320];
	int v[4];
	bb_status s = BB_OK;

	snprintf(where, sizeof where, "%.200s", rg->name);
	if (strcmp(en->key, "bounds") == 0) {
		if ((s = ints(r, where, en, 4, v)) == BB_OK) {
			rg->x = v[0]; rg->y = v[1]; rg->w = v[2]; rg->h = v[3];
			ri->has_xy = ri->has_size = 1;
		}
	} else if (strcmp(en->key, "xy") == 0) {
		if ((s = ints(r, where, en, 2, v)) == BB_OK) {
			rg->x = v[0]; rg->y = v[1];
			ri->has_xy = 1;
		}
	} else if (strcmp(en->key, "size") == 0) {
		if ((s = ints(r, where, en, 2, v)) == BB_OK) {
			rg->w = v[0]; rg->h = v[1];
			ri->has_size = 1;
		}
	} else if (strcmp(en->key, "offsets") == 0) {
		if ((s = ints(r, where, en, 4, v)) == BB_OK) {
			rg->off_x = v[0]; rg->off_y = v[1]; rg->orig_w = v[2]; rg->orig_h = v[3];
			ri->has_orig = 1;
		}
	} else if (strcmp(en->key, "offset") == 0) {
		if ((s = ints(r, where, en, 2, v)) == BB_OK) {
			rg->off_x = v[0]; rg->off_y = v[1];
		}
	} else if (strcmp(en->key, "orig") == 0) {
		if ((s = ints(r, where, en, 2, v)) == BB_OK) {
			rg->orig_w = v[0]; rg->orig_h = v[1];
			ri->has_orig = 1;
		}
	} else if (strcmp(en->key, "rotate") == 0) {
		if (strcmp(en->val[0], "true") == 0)
			rg->degrees = 90;
		else if (strcmp(en->val[0], "false") == 0)
			rg->degrees = 0;
		else if ((s = ints(r, where, en, 1, v)) == BB_OK) {
			if (v[0] != 0 && v[0] != 90 && v[0] != 180 && v[0] != 270)
				return fail(r, where, "rotate: %d is not 0, 90, 180 or 270", v[0]);
			rg->degrees = v[0];
		}
	} else if (strcmp(en->key, "index") == 0) {
		if ((s = ints(r, where, en, 1, v)) == BB_OK)
			rg->index = v[0];
	}
	return s;
}

static bb_status finish_region(struct reader *r, const struct page *pg,
                               struct region_in *ri, bb__sp_atlas *at)
{
	bb__sp_region *rg = &ri->rg;
	int pw = rg->degrees == 90 || rg->degrees == 270 ? rg->h : rg->w;
	int ph = rg->degrees == 90 || rg->degrees == 270 ? rg->w : rg->h;

	if (!ri->has_xy || !ri->has_size)
		return fail(r, rg->name, "no %s (truncated atlas?)",
		            ri->has_xy ? "size" : "bounds or xy");
	if (rg->w < 0 || rg->h < 0 || rg->x < 0 || rg->y < 0 ||
	    rg->x + pw > pg->w || rg->y + ph > pg->h)
		return fail(r, rg->name, "region %d,%d %dx%d lies outside its %dx%d "
		            "page \"%s\"", rg->x, rg->y, pw, ph, pg->w, pg->h, pg->name);
	if (!ri->has_orig || (rg->orig_w == 0 && rg->orig_h == 0)) {
		rg->orig_w = rg->w;
		rg->orig_h = rg->h;
	}
	if (rg->orig_w <= 0 || rg->orig_h <= 0)
		return fail(r, rg->name, "original size %dx%d is not positive",
		            rg->orig_w, rg->orig_h);
	rg->texture = pg->texture;
	rg->page_w = pg->w;
	rg->page_h = pg->h;
	if (!bb__grow((void **)&at->regions, &at->cap, (size_t)at->n + 1,
	              sizeof *at->regions))
		return nomem(r);
	at->regions[at->n++] = *rg;
	rg->name = NULL;       /* owned by the atlas now */
	return BB_OK;
}

bb_status bb__sp_atlas_parse(bb__load_ctx *c, const char *name, const char *dir,
                             const char *data, size_t size, bb__sp_atlas *at)
{
	struct reader r = { data, data + size, 0, name, c->err };
	struct page pg;
	struct region_in ri;
	struct entry en;
	const char *s;
	size_t n;
	int have = read_line(&r, &s, &n), in_page = 0;
	bb_status st = BB_OK;

	memset(&ri, 0, sizeof ri);
	memset(&pg, 0, sizeof pg);
	while (have && n == 0)          /* blank lines before the first entry */
		have = read_line(&r, &s, &n);
	while (have && n > 0 && parse_entry(s, n, &en))  /* header: ignored */
		have = read_line(&r, &s, &n);
	while (have) {
		if (n == 0) {
			in_page = 0;
			have = read_line(&r, &s, &n);
			continue;
		}
		if (!in_page) {
			memset(&pg, 0, sizeof pg);
			snprintf(pg.name, sizeof pg.name, "%.*s", (int)n, s);
			pg.line = r.line;
			while ((have = read_line(&r, &s, &n)) && n > 0 && parse_entry(s, n, &en))
				if ((st = page_entry(&r, &pg, &en)) != BB_OK)
					return st;
			if ((st = load_page(c, &r, dir, &pg)) != BB_OK)
				return st;
			in_page = 1;
			continue;
		}
		memset(&ri, 0, sizeof ri);
		if (!(ri.rg.name = malloc(n + 1)))
			return nomem(&r);
		memcpy(ri.rg.name, s, n);
		ri.rg.name[n] = '\0';
		ri.rg.index = -1;
		while ((have = read_line(&r, &s, &n)) && n > 0 && parse_entry(s, n, &en))
			if ((st = region_entry(&r, &ri, &en)) != BB_OK)
				break;
		if (st == BB_OK)
			st = finish_region(&r, &pg, &ri, at);
		free(ri.rg.name);
		if (st != BB_OK)
			return st;
	}
	return BB_OK;
}

bb_status bb__sp_atlas_load(bb__load_ctx *c, const bb__ref *ref, bb__sp_atlas *at)
{
	char path[BB__PATH_MAX], dir[BB__PATH_MAX], *data;
	size_t size;
	bb_status s;

	if (!bb__load_path(c, ref, path, sizeof path))
		return bb__error_at(c->err, BB_ERR_INPUT, c->name, 0, 0, NULL,
		                    "atlas \"%s\": path too long", ref->name);
	if ((s = bb__load_open(c, ref, 0, &data, &size, NULL, 0)) != BB_OK)
		return s;
	bb__dirname(path, dir, sizeof dir);
	s = bb__sp_atlas_parse(c, bb__basename(path), dir, data, size, at);
	free(data);
	return s;
}

static const char *region_name(const void *base, int i)
{
	return ((const bb__sp_region *)base)[i].name;
}

const bb__sp_region *bb__sp_atlas_find(bb__sp_atlas *at, const char *name)
{
	int i = bb__names_find(&at->index, at->regions, at->n, region_name, name);

	return i >= 0 ? &at->regions[i] : NULL;
}

void bb__sp_atlas_free(bb__sp_atlas *at)
{
	int i;

	for (i = 0; i < at->n; i++)
		free(at->regions[i].name);
	free(at->regions);
	bb__names_free(&at->index);
	memset(at, 0, sizeof *at);
}
