/* The Cocos Studio / DragonBones 1.x-2.x "Flash" armature XML (tool
 * versions 1.4-2.2) into the description of cocos.h, as cocos2d-x's
 * DataReaderHelper reads it (spec cocos.md 1, 6, 10): y down and degrees
 * converted to y up radians, key transforms taken from armature space into
 * the parent's with the parent's key covering the key's start,
 * cocos2d_x/cocos2d_y/cocos2d_pX/cocos2d_pY from version 2.0 on, angles
 * unwrapped, the last key copied at the movement's end.  Atlases: a
 * <stem>.plist beside the file, else the <TextureAtlas> regions. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loaders/cocos.h"
#include "loaders/plist.h"
#include "loaders/xml.h"


struct cx {
	struct cc_doc *d;
	bb__where x;
	double tool;               /* the root's version attribute */
};

static bb_status num(struct cx *c, const bb__xnode *n, const char *a,
                     double def, double *out)
{
	return bb__xnum(&c->x, n, a, def, out);
}

/* *out = a copy of attribute a ("" when absent). */
static bb_status dup_attr(struct cx *c, const bb__xnode *n, const char *a,
                          char **out)
{
	return bb__build_str(c->d->b, out, bb__xattr(n, a));
}

/* Position attributes: cocos2d_x/_y from tool version 2.0 (x/y when a file
 * lacks them), else x/y. */
static bb_status read_pos(struct cx *c, const bb__xnode *n, double *x, double *y)
{
	const char *ax = "x", *ay = "y";
	bb_status s;

	if (c->tool >= 2.0 && bb__xattr(n, "cocos2d_x"))
		ax = "cocos2d_x";
	if (c->tool >= 2.0 && bb__xattr(n, "cocos2d_y"))
		ay = "cocos2d_y";
	if ((s = num(c, n, ax, 0, x)) != BB_OK || (s = num(c, n, ay, 0, y)) != BB_OK)
		return s;
	*y = -*y;
	return BB_OK;
}

/* twE: "NaN" -> Linear, 2 -> Sine_EaseInOut, others as they are (spec 6.3). */
static bb_status read_easing(struct cx *c, const bb__xnode *n, int *out)
{
	double v;
	bb_status s = num(c, n, "twE", 0, &v);

	*out = s == BB_OK && fabs(v) < 1e6 ? (int)v : 0;
	if (*out == 2)
		*out = 3;
	return s;
}

/* <colorTransform a r g b aM rM gM bM>: 2.55 * percent + offset; an absent
 * percentage counts as 100, an absent offset as 0 (the reader leaves them
 * uninitialised). */
static bb_status read_color(struct cx *c, const bb__xnode *f, struct cc_frame *fr)
{
	static const char *const off[4] = { "a", "r", "g", "b" };
	static const char *const mul[4] = { "aM", "rM", "gM", "bM" };
	const bb__xnode *ct = bb__xchild(f, "colorTransform");
	double o, m;
	int i;
	bb_status s;

	if (!ct)
		return BB_OK;
	for (i = 0; i < 4; i++) {
		if ((s = num(c, ct, off[i], 0, &o)) != BB_OK ||
		    (s = num(c, ct, mul[i], 100, &m)) != BB_OK)
			return s;
		fr->color[i] = fmin(fmax(2.55 * m + o, 0), 255);
	}
	fr->has_color = 1;
	return BB_OK;
}

static bb_status read_strings(struct cx *c, const bb__xnode *f, struct cc_frame *fr)
{
	bb_status s;

	if ((s = dup_attr(c, f, "evt", &fr->evt)) != BB_OK ||
	    (s = dup_attr(c, f, "sd", &fr->sound)) != BB_OK ||
	    (s = dup_attr(c, f, "mov", &fr->mov)) != BB_OK)
		return s;
	return BB_OK;
}

static int blend_of(double bd)
{
	return bd == 1 ? BB_BLEND_ADD : bd == 2 ? BB_BLEND_MULTIPLY
	       : bd == 3 ? BB_BLEND_SCREEN : -1;
}

static bb_status read_frame(struct cx *c, const bb__xnode *f, struct cc_frame *fr,
                            double *dur)
{
	double kx, ky, v;
	bb_status s;

	if ((s = read_pos(c, f, &fr->t.x, &fr->t.y)) != BB_OK ||
	    (s = num(c, f, "kX", 0, &kx)) != BB_OK ||
	    (s = num(c, f, "kY", 0, &ky)) != BB_OK ||
	    (s = num(c, f, "cX", 1, &fr->t.sx)) != BB_OK ||
	    (s = num(c, f, "cY", 1, &fr->t.sy)) != BB_OK ||
	    (s = num(c, f, "dr", 1, dur)) != BB_OK)
		return s;
	fr->t.kx = kx * BB__DEG;
	fr->t.ky = -ky * BB__DEG;
	if (*dur < 0 || *dur > 1e7)
		return bb__xfail(&c->x, f, "dr", "%g frames is out of range", *dur);
	if ((s = num(c, f, "dI", 0, &v)) != BB_OK)
		return s;
	fr->di = fabs(v) < 1e6 ? (int)floor(v) : -1;
	if ((s = num(c, f, "z", 0, &v)) != BB_OK)
		return s;
	fr->z = fabs(v) < 1e6 ? (int)floor(v) : 0;
	if ((s = read_easing(c, f, &fr->twe)) != BB_OK ||
	    (s = num(c, f, "twR", 0, &fr->twr)) != BB_OK ||
	    (s = num(c, f, "bd", 0, &v)) != BB_OK)
		return s;
	if (fabs(fr->twr) > 1e6)
		fr->twr = 0;
	fr->blend = blend_of(v);
	fr->tween = bb__xbool(f, "tweenFrame", 1);
	if ((s = read_color(c, f, fr)) != BB_OK)
		return s;
	return read_strings(c, f, fr);
}

/* A node of the parent key's raw attributes (no scale), for
 * transformFromParent. */
static bb_status parent_node(struct cx *c, const bb__xnode *pf, cc_node *n)
{
	bb_status s;

	memset(n, 0, sizeof *n);
	n->sx = n->sy = 1;
	if ((s = read_pos(c, pf, &n->x, &n->y)) != BB_OK ||
	    (s = num(c, pf, "kX", 0, &n->kx)) != BB_OK ||
	    (s = num(c, pf, "kY", 0, &n->ky)) != BB_OK)
		return s;
	n->kx *= BB__DEG;
	n->ky *= -BB__DEG;
	return BB_OK;
}

/* nodeToMatrix (y up): a b c d tx ty. */
static void node_matrix(const cc_node *n, double m[6])
{
	m[0] = n->sx * cos(n->ky);
	m[1] = n->sx * sin(n->ky);
	m[2] = n->sy * sin(n->kx);
	m[3] = n->sy * cos(n->kx);
	m[4] = n->x;
	m[5] = n->y;
}

/* node = parent^-1 * node, decomposed with matrixToNode (spec 2). */
static void from_parent(cc_node *node, const cc_node *parent)
{
	double n[6], p[6], det, i[6], r[6];

	node_matrix(node, n);
	node_matrix(parent, p);
	det = p[0] * p[3] - p[1] * p[2];
	if (det == 0 || !isfinite(det))
		return;
	i[0] = p[3] / det;
	i[1] = -p[1] / det;
	i[2] = -p[2] / det;
	i[3] = p[0] / det;
	i[4] = -(i[0] * p[4] + i[2] * p[5]);
	i[5] = -(i[1] * p[4] + i[3] * p[5]);
	r[0] = i[0] * n[0] + i[2] * n[1];
	r[1] = i[1] * n[0] + i[3] * n[1];
	r[2] = i[0] * n[2] + i[2] * n[3];
	r[3] = i[1] * n[2] + i[3] * n[3];
	r[4] = i[0] * n[4] + i[2] * n[5] + i[4];
	r[5] = i[1] * n[4] + i[3] * n[5] + i[5];
	node->kx = M_PI / 2 - atan2(r[3], r[2]);
	node->ky = atan2(r[1], r[0]);
	node->sx = sqrt(r[0] * r[0] + r[1] * r[1]);
	node->sy = sqrt(r[2] * r[2] + r[3] * r[3]);
	node->x = r[4];
	node->y = r[5];
}

/* The parent's key covering frame time `at` (DataReaderHelper's walk). */
struct parent_walk {
	const bb__xnode *next, *cur;
	double start, dur;
};

static bb_status parent_key(struct cx *c, struct parent_walk *w, double at)
{
	bb_status s;

	while (w->next && (!w->cur || at < w->start || at >= w->start + w->dur)) {
		w->cur = w->next;
		w->start += w->dur;
		if ((s = num(c, w->cur, "dr", 1, &w->dur)) != BB_OK)
			return s;
		w->next = bb__xnext(w->next, "f");
	}
	return BB_OK;
}

static const bb__xnode *find_movbone(const bb__xnode *mov, const char *name)
{
	const bb__xnode *b;

	for (b = bb__xchild(mov, "b"); b; b = bb__xnext(b, "b")) {
		const char *n = bb__xattr(b, "name");

		if (n && strcmp(n, name) == 0)
			return b;
	}
	return NULL;
}

static const struct cc_bone *arm_bone(const struct cc_arm *a, const char *name)
{
	int i;

	for (i = 0; i < a->nbones; i++)
		if (strcmp(a->bones[i].name, name) == 0)
			return &a->bones[i];
	return NULL;
}

static bb_status read_movbone(struct cx *c, const struct cc_arm *a,
                              const bb__xnode *mov, const bb__xnode *xb,
                              const struct cc_bone *bone, struct cc_movbone *mb)
{
	const bb__xnode *f, *pb = bone->parent[0] ? find_movbone(mov, bone->parent) : NULL;
	struct parent_walk w;
	double total = 0, dur;
	bb_status s;

	(void)a;
	memset(&w, 0, sizeof w);
	w.next = bb__xchild(pb, "f");
	if ((s = dup_attr(c, xb, "name", &mb->name)) != BB_OK ||
	    (s = num(c, xb, "sc", 1, &mb->scale)) != BB_OK ||
	    (s = num(c, xb, "dl", 0, &mb->dl)) != BB_OK)
		return s;
	if (mb->dl > 0)
		mb->dl -= 1;
	for (f = bb__xchild(xb, "f"); f; f = bb__xnext(f, "f")) {
		struct cc_frame *fr = bb__cc_add_frame(c->d, mb);
		cc_node pn;

		if (!fr)
			return bb__xlimit(&c->x, f, "more than %d keys",
			                  c->d->c->opts->max_keys);
		if ((s = read_frame(c, f, fr, &dur)) != BB_OK)
			return s;
		if (pb) {
			if ((s = parent_key(c, &w, total)) != BB_OK)
				return s;
			if (w.cur) {
				if ((s = parent_node(c, w.cur, &pn)) != BB_OK)
					return s;
				from_parent(&fr->t, &pn);
			}
		}
		fr->fi = total;
		total += floor(dur);
	}
	bb__cc_unwrap(mb);
	if (mb->nframes > 0) {
		struct cc_frame last = mb->frames[mb->nframes - 1], *fr;

		if (!(fr = bb__cc_add_frame(c->d, mb)))
			return bb__xlimit(&c->x, xb, "more than %d keys",
			                  c->d->c->opts->max_keys);
		*fr = last;
		fr->evt = fr->sound = fr->mov = NULL;
		fr->fi = total;
	}
	return BB_OK;
}

static bb_status read_mov(struct cx *c, struct cc_arm *a, const bb__xnode *xm)
{
	struct cc_mov *mv = bb__cc_add_mov(c->d, a);
	const bb__xnode *xb;
	double lp;
	bb_status s;

	bb__jpath path;

	if (!mv)
		return bb__build_nomem(c->d->b);
	bb__xpath(xm, &path);
	snprintf(mv->path, sizeof mv->path, "%s", path.buf);
	mv->line = xm->line;
	if ((s = dup_attr(c, xm, "name", &mv->name)) != BB_OK ||
	    (s = num(c, xm, "dr", 0, &mv->dr)) != BB_OK ||
	    (s = num(c, xm, "to", 0, &mv->to)) != BB_OK ||
	    (s = num(c, xm, "drTW", 0, &mv->drtw)) != BB_OK ||
	    (s = num(c, xm, "lp", 1, &lp)) != BB_OK ||
	    (s = read_easing(c, xm, &mv->twe)) != BB_OK)
		return s;
	if (mv->dr < 0 || mv->dr > 1e7)
		return bb__xfail(&c->x, xm, "dr", "%g frames is out of range", mv->dr);
	mv->dr = floor(mv->dr);
	mv->loop = lp != 0;
	mv->sc = 1;
	for (xb = bb__xchild(xm, "b"); xb; xb = bb__xnext(xb, "b")) {
		const char *name = bb__xattr(xb, "name");
		const struct cc_bone *bone = name ? arm_bone(a, name) : NULL;
		struct cc_movbone *mb;

		if (!bone) {
			bb__model_warn(c->d->m, "%s: movement \"%s\" animates \"%s\", which "
			               "is no bone of \"%s\"; ignored", c->d->c->name,
			               mv->name, name ? name : "", a->name);
			continue;
		}
		if (find_movbone(xm, name) != xb)
			continue;   /* the reader keeps the first */
		if (!(mb = bb__cc_add_movbone(c->d, mv)))
			return bb__build_nomem(c->d->b);
		if ((s = read_movbone(c, a, xm, xb, bone, mb)) != BB_OK)
			return s;
	}
	return BB_OK;
}

static bb_status read_bone(struct cx *c, struct cc_arm *a, const bb__xnode *xb)
{
	struct cc_bone *b = bb__cc_add_bone(c->d, a);
	const bb__xnode *xd;
	bb__jpath path;
	double z;
	bb_status s;

	if (!b)
		return bb__build_nomem(c->d->b);
	b->t.sx = b->t.sy = 1;   /* XML bones carry no transform (spec 10) */
	b->line = xb->line;
	bb__jpath_init(&path);
	bb__jpath_key(&path, "armatures");
	bb__jpath_key(&path, "armature");
	bb__jpath_index(&path, (size_t)bb__xindex(xb->parent));
	bb__jpath_key(&path, "b");
	bb__jpath_index(&path, (size_t)bb__xindex(xb));
	snprintf(b->path, sizeof b->path, "%s", path.buf);
	if (!bb__xattr(xb, "name"))
		return bb__xfail(&c->x, xb, "name", "missing");
	if ((s = dup_attr(c, xb, "name", &b->name)) != BB_OK ||
	    (s = dup_attr(c, xb, "parent", &b->parent)) != BB_OK ||
	    (s = num(c, xb, "z", 0, &z)) != BB_OK)
		return s;
	b->z = fabs(z) < 1e6 ? (int)floor(z) : 0;
	for (xd = bb__xchild(xb, "d"); xd; xd = bb__xnext(xd, "d")) {
		struct cc_display *ds = bb__cc_add_display(c->d, b);
		double arm;

		if (!ds)
			return bb__build_nomem(c->d->b);
		if ((s = dup_attr(c, xd, "name", &ds->name)) != BB_OK ||
		    (s = num(c, xd, "isArmature", 0, &arm)) != BB_OK)
			return s;
		ds->type = arm != 0 ? 1 : 0;
		ds->skin.sx = ds->skin.sy = 1;
	}
	return BB_OK;
}

static bb_status read_armatures(struct cx *c, const bb__xnode *root)
{
	const bb__xnode *xa, *xb;
	bb_status s;

	for (xa = bb__xchild(bb__xchild(root, "armatures"), "armature"); xa;
	     xa = bb__xnext(xa, "armature")) {
		struct cc_arm *a = bb__cc_add_arm(c->d);
		size_t n = 0;

		if (!a)
			return bb__build_nomem(c->d->b);
		if ((s = dup_attr(c, xa, "name", &a->name)) != BB_OK)
			return s;
		a->version = 0.1;   /* never set by the XML reader */
		for (xb = bb__xchild(xa, "b"); xb; xb = bb__xnext(xb, "b"))
			if (++n > (size_t)c->d->c->opts->max_bones)
				return bb__xlimit(&c->x, xa, CC_BONES_LIMIT, n,
				                  c->d->c->opts->max_bones);
		for (xb = bb__xchild(xa, "b"); xb; xb = bb__xnext(xb, "b"))
			if ((s = read_bone(c, a, xb)) != BB_OK)
				return s;
	}
	if (c->d->narms == 0)
		return bb__xfail(&c->x, root, "armatures", "no <armature>");
	return BB_OK;
}

static bb_status read_animations(struct cx *c, const bb__xnode *root)
{
	const bb__xnode *xa, *xm;
	bb_status s;

	for (xa = bb__xchild(bb__xchild(root, "animations"), "animation"); xa;
	     xa = bb__xnext(xa, "animation")) {
		const char *name = bb__xattr(xa, "name");
		struct cc_arm *a = name ? bb__cc_find_arm(c->d, name) : NULL;

		if (!a) {
			bb__model_warn(c->d->m, "%s: animation \"%s\" names no armature; "
			               "ignored", c->d->c->name, name ? name : "");
			continue;
		}
		for (xm = bb__xchild(xa, "mov"); xm; xm = bb__xnext(xm, "mov"))
			if ((s = read_mov(c, a, xm)) != BB_OK)
				return s;
	}
	return BB_OK;
}

/* SubTexture pivot: pixels from the top-left (cocos2d_pX/pY from 2.0). */
static bb_status read_subtexture(struct cx *c, const bb__xnode *st, double *v)
{
	const int v2 = c->tool >= 2.0 && bb__xattr(st, "cocos2d_pX");
	struct cc_tex *t = bb__cc_add_tex(c->d);
	double px, py;
	bb_status s;

	if (!t)
		return bb__build_nomem(c->d->b);
	if ((s = dup_attr(c, st, "name", &t->name)) != BB_OK ||
	    (s = num(c, st, v2 ? "cocos2d_pX" : "pX", 0, &px)) != BB_OK ||
	    (s = num(c, st, v2 ? "cocos2d_pY" : "pY", 0, &py)) != BB_OK ||
	    (s = num(c, st, "x", -1, &v[0])) != BB_OK ||
	    (s = num(c, st, "y", -1, &v[1])) != BB_OK ||
	    (s = num(c, st, "width", 0, &v[2])) != BB_OK ||
	    (s = num(c, st, "height", 0, &v[3])) != BB_OK)
		return s;
	t->px = v[2] > 0 ? px / v[2] : 0.5;
	t->py = v[3] > 0 ? (v[3] - py) / v[3] : 0.5;
	return BB_OK;
}

/* The <TextureAtlas> page: its imagePath, else <name>.png, else the file's
 * <stem>.png; its texture index into *tex, or -1 (warned) when it cannot
 * be read. */
static bb_status atlas_page(struct cx *c, const bb__xnode *ta, int *tex)
{
	const char *img = bb__xattr(ta, "imagePath"), *nm = bb__xattr(ta, "name");
	const char *base = c->d->c->name, *dot = strrchr(base, '.');
	char rel[1024], file[5200], why[BB_ERROR_MSG_MAX];
	bb__where at = c->x;
	bb__ref r = { .at = &at, .what = "TextureAtlas page", .name = rel };
	bb_image *page;
	double w, h;
	int have;
	bb_status s;

	*tex = -1;
	at.line = ta->line;
	bb__xpath(ta, &at.path);
	if (img)
		bb__jpath_key(&at.path, "imagePath");
	snprintf(rel, sizeof rel, img ? "%s" : "%s.png", img ? img : nm ? nm : "");
	if (!img && (have = bb__load_exists(c->d->c, &r)) <= 0) {
		if (have < 0)
			return BB_ERR_INPUT;
		snprintf(rel, sizeof rel, "%.*s.png",
		         (int)(dot ? (size_t)(dot - base) : strlen(base)), base);
	}
	if (!bb__load_path(c->d->c, &r, file, sizeof file))
		return BB_OK;
	if ((*tex = bb__model_find_texture(c->d->m, file)) >= 0)
		return BB_OK;
	if ((s = bb__load_image(c->d->c, &r, BB__OPEN_OPTIONAL, &page, why,
	                        sizeof why)) != BB_OK)
		return s;
	if (!page) {
		bb__model_warn(c->d->m, "%s: TextureAtlas page \"%s\": %s; its images "
		               "are not drawn", base, rel, why);
		return BB_OK;
	}
	/* the reader never reads width/height: the PNG's size rules */
	if ((s = num(c, ta, "width", page->width, &w)) != BB_OK ||
	    (s = num(c, ta, "height", page->height, &h)) != BB_OK) {
		bb_image_free(page);
		return s;
	}
	if (w != page->width || h != page->height)
		bb__model_warn(c->d->m, "%s: TextureAtlas declares %gx%g for \"%s\" "
		               "(%dx%d); the PNG's size is used (as cocos2d-x does)",
		               base, w, h, rel, page->width, page->height);
	return bb__build_texture(c->d->b, file, page, tex);
}

/* A region of the <TextureAtlas> page (used when no plist was found). */
static bb_status add_region(struct cx *c, const bb__xnode *st, int tex,
                            const double *v)
{
	const bb_image *page = c->d->m->textures[tex];
	bb__region *r;

	if (v[0] < 0 || v[1] < 0 || v[0] + v[2] > page->width + 0.5 ||
	    v[1] + v[3] > page->height + 0.5)
		return bb__xfail(&c->x, st, NULL, "region %g,%g %gx%g lies outside its "
		                 "%dx%d page", v[0], v[1], v[2], v[3], page->width,
		                 page->height);
	if (!(r = bb__atlas_add(&c->d->atlas, bb__xattr(st, "name") ?
	                        bb__xattr(st, "name") : "")))
		return bb__build_nomem(c->d->b);
	r->texture = tex;
	r->x = v[0];
	r->y = v[1];
	r->w = v[2];
	r->h = v[3];
	return BB_OK;
}

static bb_status read_atlas(struct cx *c, const bb__xnode *root)
{
	const bb__xnode *ta = bb__xchild(root, "TextureAtlas"), *st;
	int tex = -2;
	bb_status s;

	for (st = bb__xchild(ta, "SubTexture"); st; st = bb__xnext(st, "SubTexture")) {
		double v[4];

		if ((s = read_subtexture(c, st, v)) != BB_OK)
			return s;
		if (c->d->have_atlas || v[0] < 0 || v[1] < 0 || v[2] <= 0 || v[3] <= 0)
			continue;
		if (tex == -2 && (s = atlas_page(c, ta, &tex)) != BB_OK)
			return s;
		if (tex >= 0 && (s = add_region(c, st, tex, v)) != BB_OK)
			return s;
	}
	return BB_OK;
}

/* <stem>.plist (or <stem>0.plist, 1, ...) beside the file, or --atlas. */
static bb_status find_plists(struct cx *c)
{
	const char *base = c->d->c->name, *dot = strrchr(base, '.');
	int stem = (int)(dot ? (size_t)(dot - base) : strlen(base)), k, have;
	char rel[1100];
	bb__ref r = { .what = "atlas", .name = rel };
	bb_status s;

	if (c->d->c->opts->atlas_path)
		return bb__cc_plist(c->d, &(bb__ref){ .what = "atlas",
		                                     .name = c->d->c->opts->atlas_path,
		                                     .dir = "" });
	snprintf(rel, sizeof rel, "%.*s.plist", stem, base);
	if ((have = bb__load_exists(c->d->c, &r)) != 0)
		return have < 0 ? BB_ERR_INPUT : bb__cc_plist(c->d, &r);
	for (k = 0; k < 64; k++) {
		snprintf(rel, sizeof rel, "%.*s%d.plist", stem, base, k);
		if ((have = bb__load_exists(c->d->c, &r)) <= 0)
			return have < 0 ? BB_ERR_INPUT : BB_OK;
		if ((s = bb__cc_plist(c->d, &r)) != BB_OK)
			return s;
	}
	return BB_OK;
}

bb_status bb__cc_read_xml(struct cc_doc *d, const bb__xnode *root)
{
	struct cx c;
	bb_status s;

	memset(&c, 0, sizeof c);
	c.d = d;
	c.x = d->c->at;
	if (root->doctype)
		return bb__error_at(d->c->err, BB_ERR_INPUT, d->c->name, root->doctype,
		                    0, NULL, "refused: the file declares a DOCTYPE "
		                    "(armature XML has none)");
	if (strcmp(root->name, "skeleton") != 0)
		return bb__xfail(&c.x, root, NULL, "expected a <skeleton> root");
	if ((s = num(&c, root, "version", 1.0, &c.tool)) != BB_OK ||
	    (s = read_armatures(&c, root)) != BB_OK ||
	    (s = read_animations(&c, root)) != BB_OK ||
	    (s = find_plists(&c)) != BB_OK)
		return s;
	return read_atlas(&c, root);
}
