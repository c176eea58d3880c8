/* Frames -> sheet: order, trim, deduplicate, lay out (maxrects.c) and
 * compose pages (compose.c) into the bb_sheet every writer reads.
 *
 * Determinism: everything is keyed on names, never on the order frames
 * arrive in.  Animations are sorted by name, frames by (animation, index,
 * name) -- the playback order every writer uses -- and sprites are
 * numbered in that order before layout. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "bonebake/pack.h"
#include "core/util.h"
#include "pack/pack-int.h"

typedef struct sprite {
	size_t owner;              /* first sheet frame that uses it */
	int tx, ty, tw, th;        /* trimmed rectangle in the owner's image */
	int empty;
	uint64_t hash;
} sprite;

/* With lazy_pages: every sprite's source and place, to draw a page when it
 * is encoded. */
typedef struct src_sprite {
	const bb_image *image;     /* NULL: an empty sprite */
	int tx, ty, tw, th;
	int x, y;
	size_t page;
	int rotated;
} src_sprite;

struct bb__sheet_src {
	src_sprite *sprites;
	size_t n;
	int extrude, bleed, premultiply;
	bb_pack_rotation rotation;
};

typedef struct ctx {
	const bb_pack_input *in;
	const bb_pack_anim *anims;
	int *arank;                /* input anim index -> sorted rank */
	size_t n_anims;
	bb_pack_options o;
	bb_sheet *s;
	sprite *sprites;
	size_t n_sprites;
} ctx;

/* qsort has no context argument; sorting index arrays goes through these
 * small key records instead. */
typedef struct name_key {
	const char *name;
	size_t rank, index_in;
	int index;
} name_key;

static int cmp_name(const void *pa, const void *pb)
{
	const name_key *a = pa, *b = pb;
	int c = strcmp(a->name, b->name);

	if (c)
		return c;
	return (a->index_in > b->index_in) - (a->index_in < b->index_in);
}

static int cmp_playback(const void *pa, const void *pb)
{
	const name_key *a = pa, *b = pb;

	if (a->rank != b->rank)
		return a->rank < b->rank ? -1 : 1;
	if (a->index != b->index)
		return a->index < b->index ? -1 : 1;
	return cmp_name(pa, pb);
}

static int cmp_event(const void *pa, const void *pb)
{
	const bb_sheet_event *a = pa, *b = pb;

	if (a->time != b->time)
		return a->time < b->time ? -1 : 1;
	return strcmp(a->name, b->name);
}

static bb_status check_options(const bb_pack_options *o, size_t n,
                               bb_error *err)
{
	size_t max = o->max_frames ? o->max_frames : BB_PACK_DEFAULT_MAX_FRAMES;

	if (o->extrude < 0 || o->extrude > BB_PACK_MAX_SPACING)
		return bb_error_set(err, BB_ERR_USAGE, NULL, NULL,
		                    "extrude %d outside 0..%d", o->extrude,
		                    BB_PACK_MAX_SPACING);
	if (o->trim_alpha < 0 || o->trim_alpha > 254)
		return bb_error_set(err, BB_ERR_USAGE, NULL, NULL,
		                    "trim alpha %d outside 0..254", o->trim_alpha);
	if ((unsigned)o->rotation > BB_PACK_ROTATE_CCW)
		return bb_error_set(err, BB_ERR_USAGE, NULL, NULL,
		                    "unknown rotation %d", (int)o->rotation);
	if (n > max || n > (size_t)INT32_MAX)
		return bb_error_set(err, BB_ERR_LIMIT, NULL, NULL,
		                    "%zu frames, more than the limit of %zu", n, max);
	return BB_OK;
}

/* Validates the anims, copies them into the sheet sorted by name. */
static bb_status take_anims(ctx *c, bb_error *err)
{
	name_key *keys = bb__calloc(c->n_anims, sizeof *keys);
	size_t i, e;

	c->arank = bb__calloc(c->n_anims, sizeof *c->arank);
	c->s->anims = bb__calloc(c->n_anims, sizeof *c->s->anims);
	if (!keys || !c->arank || !c->s->anims) {
		free(keys);
		return bb_error_set(err, BB_ERR_NOMEM, NULL, NULL, "out of memory");
	}
	for (i = 0; i < c->n_anims; i++) {
		if (!c->anims[i].name || !c->anims[i].name[0] ||
		    (c->anims[i].n_events && !c->anims[i].events)) {
			free(keys);
			return bb_error_set(err, BB_ERR_USAGE, NULL, NULL,
			                    "animation %zu has no name or no events array", i);
		}
		keys[i] = (name_key){ c->anims[i].name, 0, i, 0 };
	}
	qsort(keys, c->n_anims, sizeof *keys, cmp_name);
	for (i = 0; i < c->n_anims; i++) {
		const bb_pack_anim *a = &c->anims[keys[i].index_in];
		bb_sheet_anim *d = &c->s->anims[i];

		if (i > 0 && strcmp(keys[i].name, keys[i - 1].name) == 0) {
			free(keys);
			return bb_error_set(err, BB_ERR_USAGE, NULL, NULL,
			                    "two animations named '%s'", a->name);
		}
		c->arank[keys[i].index_in] = (int)i;
		c->s->n_anims++;
		d->name = bb__strdup(a->name);
		d->fps = a->fps > 0 ? a->fps : 0;
		d->loop = a->loop != 0;
		d->events = bb__calloc(a->n_events, sizeof *d->events);
		if (!d->name || !d->events) {
			free(keys);
			return bb_error_set(err, BB_ERR_NOMEM, NULL, NULL, "out of memory");
		}
		for (e = 0; e < a->n_events; e++) {
			d->events[e].time = a->events[e].time;
			d->events[e].name = bb__strdup(a->events[e].name ?
			                               a->events[e].name : "");
			d->n_events++;
			if (!d->events[e].name) {
				free(keys);
				return bb_error_set(err, BB_ERR_NOMEM, NULL, NULL,
				                    "out of memory");
			}
		}
		qsort(d->events, d->n_events, sizeof *d->events, cmp_event);
	}
	free(keys);
	return BB_OK;
}

/* Validates the frames and fills sheet->frames in playback order. */
static bb_status take_frames(ctx *c, size_t n, bb_error *err)
{
	name_key *keys = bb__calloc(n, sizeof *keys);
	bb_sheet *s = c->s;
	size_t i;
	bb_status st = BB_OK;

	s->frames = bb__calloc(n, sizeof *s->frames);
	if (!keys || !s->frames) {
		free(keys);
		return bb_error_set(err, BB_ERR_NOMEM, NULL, NULL, "out of memory");
	}
	for (i = 0; i < n; i++) {
		const bb_pack_input *f = &c->in[i];

		if (!f->image || !f->name || !f->name[0] || f->image->width <= 0 ||
		    f->image->height <= 0) {
			free(keys);
			return bb_error_set(err, BB_ERR_USAGE, NULL, NULL,
			                    "frame %zu has no image or no name", i);
		}
		if (f->full_w > 0 && (f->crop_x < 0 || f->crop_y < 0 ||
		                      f->crop_x > f->full_w - f->image->width ||
		                      f->crop_y > f->full_h - f->image->height)) {
			free(keys);
			return bb_error_set(err, BB_ERR_USAGE, NULL, NULL, "frame %zu: "
			                    "its image is not inside its whole frame", i);
		}
		if (f->anim < -1 || (f->anim >= 0 && (size_t)f->anim >= c->n_anims)) {
			free(keys);
			return bb_error_set(err, BB_ERR_USAGE, NULL, NULL,
			                    "frame '%s': animation index %d out of range",
			                    f->name, f->anim);
		}
		keys[i] = (name_key){ f->name,
		                      f->anim >= 0 ? (size_t)c->arank[f->anim]
		                                   : c->n_anims,
		                      i, f->index };
	}
	qsort(keys, n, sizeof *keys, cmp_name);
	for (i = 1; i < n; i++)
		if (strcmp(keys[i].name, keys[i - 1].name) == 0) {
			const char *dup = keys[i].name;    /* the caller's string */

			free(keys);
			return bb_error_set(err, BB_ERR_USAGE, NULL, NULL,
			                    "two frames named '%s'", dup);
		}
	qsort(keys, n, sizeof *keys, cmp_playback);
	for (i = 0; i < n && st == BB_OK; i++) {
		const bb_pack_input *f = &c->in[keys[i].index_in];
		bb_sheet_frame *d = &s->frames[i];
		int a = f->anim >= 0 ? c->arank[f->anim] : -1;

		d->name = bb__strdup(f->name);
		s->n_frames++;
		if (!d->name)
			st = bb_error_set(err, BB_ERR_NOMEM, NULL, NULL, "out of memory");
		d->anim = a;
		d->index = f->index;
		d->input = keys[i].index_in;
		d->duration = f->duration > 0 ? f->duration : 0;
		if (d->duration == 0 && a >= 0 && s->anims[a].fps > 0)
			d->duration = 1.0 / s->anims[a].fps;
		d->src_w = f->full_w > 0 ? f->full_w : f->image->width;
		d->src_h = f->full_w > 0 ? f->full_h : f->image->height;
		d->pivot_x = f->has_pivot ? f->pivot_x : d->src_w / 2.0;
		d->pivot_y = f->has_pivot ? f->pivot_y : d->src_h / 2.0;
		if (a >= 0) {
			if (s->anims[a].count == 0)
				s->anims[a].first = i;
			s->anims[a].count++;
		}
	}
	free(keys);
	return st;
}

/* Trim rectangle and hash of frame i (sheet order): independent for each
 * frame, so they run on the packer's threads. */
typedef struct trim_job {
	ctx *c;
	sprite *cand;              /* one per frame */
} trim_job;

static void trim_one(void *arg, size_t i, int worker)
{
	trim_job *t = arg;
	const ctx *c = t->c;
	const bb_image *img = c->in[c->s->frames[i].input].image;
	sprite *sp = &t->cand[i];

	(void)worker;
	sp->owner = i;
	sp->tx = sp->ty = 0;
	sp->tw = img->width;
	sp->th = img->height;
	sp->empty = 0;
	if (!c->o.no_trim) {
		bb_pack_trim(img, c->o.trim_alpha, &sp->tx, &sp->ty, &sp->tw, &sp->th);
		if (sp->tw == 0) {
			sp->empty = 1;
			sp->tw = sp->th = 1;
		}
	}
	sp->hash = sp->empty || c->o.no_dedupe ? 0 :
	           bb__pack_hash(img, sp->tx, sp->ty, sp->tw, sp->th);
}

/* Trims every frame and gives it a sprite, sharing identical ones.  The
 * sharing runs in sheet order, so the first frame of identical ones owns
 * the sprite whatever the threads did. */
static bb_status make_sprites(ctx *c, bb_error *err)
{
	bb_sheet *s = c->s;
	size_t n = s->n_frames, cap = 16, i, *table;
	trim_job tj;

	while (cap < 2 * n)
		cap *= 2;
	table = bb__calloc(cap, sizeof *table);     /* sprite index + 1 */
	c->sprites = bb__calloc(n, sizeof *c->sprites);
	tj.c = c;
	tj.cand = bb__calloc(n, sizeof *tj.cand);
	if (!table || !c->sprites || !tj.cand) {
		free(table);
		free(tj.cand);
		return bb_error_set(err, BB_ERR_NOMEM, NULL, NULL, "out of memory");
	}
	bb_parallel_for(n, c->o.threads > 1 ? c->o.threads : 1, trim_one, &tj);
	for (i = 0; i < n; i++) {
		bb_sheet_frame *f = &s->frames[i];
		const bb_pack_input *in = &c->in[f->input];
		const bb_image *img = in->image;
		sprite sp = tj.cand[i];
		size_t slot;

		/* the place in the whole frame (images may come trimmed) */
		f->src_x = sp.empty ? 0 : sp.tx + (in->full_w > 0 ? in->crop_x : 0);
		f->src_y = sp.empty ? 0 : sp.ty + (in->full_w > 0 ? in->crop_y : 0);
		f->w = sp.tw;
		f->h = sp.th;
		f->empty = sp.empty;
		f->trimmed = sp.tw != f->src_w || sp.th != f->src_h;
		f->sprite = c->n_sprites;
		for (slot = sp.hash & (cap - 1); !c->o.no_dedupe && table[slot];
		     slot = (slot + 1) & (cap - 1)) {
			const sprite *o = &c->sprites[table[slot] - 1];
			const bb_image *oimg = c->in[s->frames[o->owner].input].image;

			if (o->hash != sp.hash || o->empty != sp.empty ||
			    o->tw != sp.tw || o->th != sp.th)
				continue;
			if (sp.empty || bb__pack_same(img, sp.tx, sp.ty, oimg, o->tx,
			                              o->ty, sp.tw, sp.th)) {
				f->sprite = table[slot] - 1;
				break;
			}
		}
		if (f->sprite == c->n_sprites) {
			c->sprites[c->n_sprites++] = sp;
			if (!c->o.no_dedupe)
				table[slot] = c->n_sprites;
		}
	}
	free(table);
	free(tj.cand);
	s->n_sprites = c->n_sprites;
	return BB_OK;
}

/* Drawing one page: its sprites, then bleed or premultiplication.  Pages
 * are independent, so they are drawn on the packer's threads. */
typedef struct page_job {
	const ctx *c;
	const bb_pack_rect *rects;
	char *nomem;               /* per page: bleeding ran out of memory */
} page_job;

/* Draws one page from the sprites' sources: their pixels, then bleed or
 * premultiplication.  0 when out of memory (bleeding). */
static int paint_page(const bb__sheet_src *src, size_t p, bb_image *page)
{
	size_t i;

	for (i = 0; i < src->n; i++) {
		const src_sprite *sp = &src->sprites[i];

		if (sp->page != p)
			continue;
		bb__pack_blit(page, sp->x, sp->y, sp->image, sp->tx, sp->ty, sp->tw,
		              sp->th, src->extrude,
		              sp->rotated ? src->rotation : BB_PACK_ROTATE_NONE);
	}
	if (src->bleed && !src->premultiply && !bb__pack_bleed(page))
		return 0;
	if (src->premultiply)
		bb_image_premultiply(page);
	return 1;
}

static void draw_page(void *arg, size_t p, int worker)
{
	page_job *pj = arg;

	(void)worker;
	if (!paint_page(pj->c->s->src, p, pj->c->s->pages[p]))
		pj->nomem[p] = 1;
}

bb_status bb__sheet_draw_page(const bb_sheet *s, size_t p, bb_image **out,
                              bb_error *err)
{
	bb_status st;

	*out = NULL;
	if (p >= s->n_pages)
		return bb_error_set(err, BB_ERR_USAGE, NULL, NULL, "no page %zu", p);
	if (!s->src) {
		*out = bb_image_dup(s->pages[p]);
		return *out ? BB_OK : bb_error_set(err, BB_ERR_NOMEM, NULL, NULL,
		                                  "out of memory");
	}
	st = bb_image_new(s->page_w[p], s->page_h[p], out, err);
	if (st == BB_OK && !paint_page(s->src, p, *out)) {
		bb_image_free(*out);
		*out = NULL;
		st = bb_error_set(err, BB_ERR_NOMEM, NULL, NULL, "out of memory");
	}
	return st;
}

/* Lays the sprites out and draws the pages. */
static bb_status compose(ctx *c, bb_error *err)
{
	bb_sheet *s = c->s;
	size_t n = c->n_sprites, i, n_pages = 0;
	int e = c->o.extrude;
	bb_pack_rect *rects = bb__calloc(n, sizeof *rects);
	bb_pack_page *pages = bb__calloc(n + 1, sizeof *pages);
	bb_pack_layout lo = c->o.layout;
	bb_status st;

	if (!rects || !pages) {
		st = bb_error_set(err, BB_ERR_NOMEM, NULL, NULL, "out of memory");
		goto done;
	}
	for (i = 0; i < n; i++) {
		const bb_sheet_frame *owner = &s->frames[c->sprites[i].owner];

		rects[i].w = c->sprites[i].tw + 2 * e;
		rects[i].h = c->sprites[i].th + 2 * e;
		rects[i].group = owner->anim >= 0 ? owner->anim : INT32_MAX;
	}
	lo.allow_rotate = c->o.rotation != BB_PACK_ROTATE_NONE;
	st = bb_pack_rects(rects, n, &lo, pages, n + 1, &n_pages, err);
	if (st != BB_OK)
		goto done;
	s->pages = bb__calloc(n_pages, sizeof *s->pages);
	s->page_w = bb__calloc(n_pages, sizeof *s->page_w);
	s->page_h = bb__calloc(n_pages, sizeof *s->page_h);
	s->src = bb__calloc(1, sizeof *s->src);
	if (!s->pages || !s->page_w || !s->page_h || !s->src ||
	    !(s->src->sprites = bb__calloc(n ? n : 1, sizeof *s->src->sprites))) {
		st = bb_error_set(err, BB_ERR_NOMEM, NULL, NULL, "out of memory");
		goto done;
	}
	for (i = 0; i < n_pages; i++) {
		s->page_w[i] = pages[i].width;
		s->page_h[i] = pages[i].height;
		if (!c->o.lazy_pages) {
			st = bb_image_new(pages[i].width, pages[i].height, &s->pages[i], err);
			if (st != BB_OK)
				goto done;
		}
		s->n_pages++;
		s->page_area += (uint64_t)pages[i].width * (uint64_t)pages[i].height;
	}
	s->src->n = n;
	s->src->extrude = c->o.extrude;
	s->src->bleed = c->o.bleed;
	s->src->premultiply = c->o.premultiply;
	s->src->rotation = c->o.rotation;
	for (i = 0; i < n; i++) {
		const sprite *sp = &c->sprites[i];
		src_sprite *d = &s->src->sprites[i];

		d->image = sp->empty ? NULL : c->in[s->frames[sp->owner].input].image;
		d->tx = sp->tx;
		d->ty = sp->ty;
		d->tw = sp->tw;
		d->th = sp->th;
		d->x = rects[i].x;
		d->y = rects[i].y;
		d->page = (size_t)rects[i].page;
		d->rotated = rects[i].rotated;
	}
	s->rotation = c->o.rotation;
	for (i = 0; i < n; i++)
		s->sprite_area += (uint64_t)c->sprites[i].tw * (uint64_t)c->sprites[i].th;
	for (i = 0; i < s->n_frames; i++) {
		bb_sheet_frame *f = &s->frames[i];
		const bb_pack_rect *r = &rects[f->sprite];

		f->page = r->page;
		f->x = r->x + e;
		f->y = r->y + e;
		f->rotated = r->rotated;
	}
	if (!c->o.lazy_pages) {
		page_job pj = { c, rects, NULL };

		pj.nomem = bb__calloc(s->n_pages, sizeof *pj.nomem);
		if (!pj.nomem) {
			st = bb_error_set(err, BB_ERR_NOMEM, NULL, NULL, "out of memory");
			goto done;
		}
		bb_parallel_for(s->n_pages, c->o.threads > 1 ? c->o.threads : 1, draw_page,
		                &pj);
		for (i = 0; i < s->n_pages; i++)
			if (pj.nomem[i])
				st = bb_error_set(err, BB_ERR_NOMEM, NULL, NULL,
				                  "out of memory");
		free(pj.nomem);
		if (st != BB_OK)
			goto done;
		/* drawn: the sheet no longer points into the frames */
		free(s->src->sprites);
		free(s->src);
		s->src = NULL;
	}
	s->premultiplied = c->o.premultiply != 0;
done:
	free(rects);
	free(pages);
	return st;
}

bb_status bb_pack_frames(const bb_pack_input *frames, size_t n,
                         const bb_pack_anim *anims, size_t n_anims,
                         const bb_pack_options *opt, bb_sheet **out,
                         bb_error *err)
{
	ctx c;
	bb_status st;

	*out = NULL;
	memset(&c, 0, sizeof c);
	if (opt)
		c.o = *opt;
	st = check_options(&c.o, n, err);
	if (st != BB_OK)
		return st;
	if ((n && !frames) || (n_anims && !anims))
		return bb_error_set(err, BB_ERR_USAGE, NULL, NULL,
		                    "NULL frames or animations array");
	c.in = frames;
	c.anims = anims;
	c.n_anims = n_anims;
	c.s = calloc(1, sizeof *c.s);
	if (!c.s)
		return bb_error_set(err, BB_ERR_NOMEM, NULL, NULL, "out of memory");
	st = take_anims(&c, err);
	if (st == BB_OK)
		st = take_frames(&c, n, err);
	if (st == BB_OK)
		st = make_sprites(&c, err);
	if (st == BB_OK)
		st = compose(&c, err);
	free(c.arank);
	free(c.sprites);
	if (st != BB_OK) {
		bb_sheet_free(c.s);
		return st;
	}
	*out = c.s;
	return BB_OK;
}

void bb_sheet_free(bb_sheet *s)
{
	size_t i, e;

	if (!s)
		return;
	for (i = 0; s->pages && i < s->n_pages; i++)
		bb_image_free(s->pages[i]);
	free(s->pages);
	free(s->page_w);
	free(s->page_h);
	if (s->src)
		free(s->src->sprites);
	free(s->src);
	for (i = 0; i < s->n_frames; i++)
		free(s->frames[i].name);
	free(s->frames);
	for (i = 0; i < s->n_anims; i++) {
		for (e = 0; e < s->anims[i].n_events; e++)
			free(s->anims[i].events[e].name);
		free(s->anims[i].events);
		free(s->anims[i].name);
	}
	free(s->anims);
	free(s);
}

double bb_sheet_occupancy(const bb_sheet *s)
{
	return s && s->page_area ? (double)s->sprite_area / (double)s->page_area : 0;
}
