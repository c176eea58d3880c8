/* Cocos description -> model: bones (parent-first, component-wise
 * inheritance), one slot per bone, sprite displays placed as CCSkin places
 * them (spec 7.2), nested armatures, particles (not drawn), the default
 * armature; movements are built by cocos-anim.c. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loaders/cocos.h"

struct cb {
	struct cc_doc *d;
	const struct cc_arm *arm;
	bb_armature *a;
	int *model_of;             /* file bone -> model bone */
};

/* The builder's errors (and bone_fail's) at bone b of the file. */
static void at_bone(struct cb *c, const struct cc_bone *b)
{
	bb__jpath_set(&c->d->c->at.path, b->path);
	c->d->c->at.line = b->line;
}

static bb_status bone_fail(struct cb *c, const struct cc_bone *b,
                           const char *fmt, const char *name)
{
	at_bone(c, b);
	return bb__where_fail(c->d->b->at, BB_ERR_INPUT, "parent", fmt, name);
}

static int file_bone(const struct cc_arm *a, const char *name)
{
	int i;

	for (i = 0; i < a->nbones; i++)
		if (strcmp(a->bones[i].name, name) == 0)
			return i;
	return -1;
}

/* Setup transform: the bone data from 0.3 on (keys add to it); before, the
 * first key of the first movement that animates the bone (keys replace). */
static bb_xform setup_of(const struct cc_arm *a, const struct cc_bone *b)
{
	int i, j;

	if (a->version >= CC_VERSION_COMBINED - 1e-9)
		return bb__cc_xform(&b->t);
	for (i = 0; i < a->nmovs; i++)
		for (j = 0; j < a->movs[i].nbones; j++)
			if (strcmp(a->movs[i].bones[j].name, b->name) == 0 &&
			    a->movs[i].bones[j].nframes > 0)
				return bb__cc_xform(&a->movs[i].bones[j].frames[0].t);
	return bb__xform_identity();
}

static bb_status place_bones(struct cb *c, const int *parent)
{
	const struct cc_arm *arm = c->arm;
	int n = arm->nbones, done = 0, i, progress = 1;
	bb_status s;

	while (done < n && progress) {
		progress = 0;
		for (i = 0; i < n; i++) {
			bb_bone *b;

			if (c->model_of[i] >= 0 ||
			    (parent[i] >= 0 && c->model_of[parent[i]] < 0))
				continue;
			b = &c->a->bones[done];
			if ((s = bb__build_str(c->d->b, &b->name, arm->bones[i].name)) != BB_OK)
				return s;
			b->parent = parent[i] >= 0 ? c->model_of[parent[i]] : -1;
			b->setup = setup_of(arm, &arm->bones[i]);
			b->inherit = BB_INHERIT_COMPONENTWISE;
			c->model_of[i] = done++;
			progress = 1;
		}
	}
	for (i = 0; i < n; i++)
		if (c->model_of[i] < 0)
			return bone_fail(c, &arm->bones[i], "bone hierarchy has a cycle "
			                 "through \"%s\"", arm->bones[i].name);
	return BB_OK;
}

static bb_status build_bones(struct cb *c)
{
	const struct cc_arm *arm = c->arm;
	int n = arm->nbones, i, j, *parent;
	bb_status s;

	if (n > 0)
		at_bone(c, &arm->bones[0]);
	if ((s = bb__build_bones(c->d->b, c->a, (size_t)n)) != BB_OK)
		return s;
	c->model_of = bb__calloc((size_t)n, sizeof *c->model_of);
	parent = bb__calloc((size_t)n, sizeof *parent);
	if (!c->model_of || !parent)
		s = bb__build_nomem(c->d->b);
	for (i = 0; i < n && s == BB_OK; i++) {
		const struct cc_bone *b = &arm->bones[i];

		c->model_of[i] = -1;
		for (j = 0; j < i; j++)
			if (strcmp(arm->bones[j].name, b->name) == 0)
				s = bone_fail(c, b, "duplicate bone name \"%s\"", b->name);
		parent[i] = b->parent[0] ? file_bone(arm, b->parent) : -1;
		if (s == BB_OK && b->parent[0] && parent[i] < 0)
			s = bone_fail(c, b, "unknown bone \"%s\"", b->parent);
		if (s == BB_OK && parent[i] == i)
			s = bone_fail(c, b, "bone \"%s\" is its own parent", b->name);
	}
	if (s == BB_OK)
		s = place_bones(c, parent);
	free(parent);
	return s;
}

/* ---- displays --------------------------------------------------------- */

static const struct cc_tex *find_tex(const struct cc_doc *d, const char *name)
{
	int i;

	for (i = 0; i < d->ntex; i++)
		if (strcmp(d->tex[i].name, name) == 0)
			return &d->tex[i];
	return NULL;
}

/* A loose PNG beside the file, as a whole-image region (added once);
 * NULL when there is none (or it cannot be read: warned). */
static bb_status loose_png(struct cc_doc *d, const char *name, const char *base,
                           const bb__region **out)
{
	char rel[1100], file[5300], why[BB_ERROR_MSG_MAX];
	bb__ref r = { .what = "image", .name = rel };
	bb__region *reg;
	bb_image *img;
	int tex, have;
	bb_status s;

	*out = NULL;
	snprintf(rel, sizeof rel, "%s.png", base);
	if ((have = bb__load_exists(d->c, &r)) <= 0)
		return have < 0 ? BB_ERR_INPUT : BB_OK;
	if (!bb__load_path(d->c, &r, file, sizeof file))
		return BB_OK;
	if ((s = bb__load_image(d->c, &r, BB__OPEN_OPTIONAL, &img, why,
	                        sizeof why)) != BB_OK)
		return s;
	if (!img) {
		bb__model_warn(d->m, "%s: image \"%s\": %s; not drawn", d->c->name,
		               rel, why);
		return BB_OK;
	}
	if ((s = bb__build_texture(d->b, file, img, &tex)) != BB_OK)
		return s;
	if (!(reg = bb__atlas_add(&d->atlas, name)))
		return bb__build_nomem(d->b);
	reg->texture = tex;
	reg->w = d->m->textures[tex]->width;
	reg->h = d->m->textures[tex]->height;
	*out = reg;
	return BB_OK;
}

/* The sprite frame of display `name`: "<base>.png" in the atlases (also
 * as given and bare), else <base>.png beside the file; NULL (warned) when
 * there is none. */
static bb_status find_region(struct cc_doc *d, const char *name,
                             const char *base, const bb__region **r)
{
	char png[1100];
	bb_status s;

	snprintf(png, sizeof png, "%s.png", base);
	if ((*r = bb__atlas_find(&d->atlas, png)) || (*r = bb__atlas_find(&d->atlas, name)) ||
	    (*r = bb__atlas_find(&d->atlas, base)))
		return BB_OK;
	if ((s = loose_png(d, name, base, r)) != BB_OK || *r)
		return s;
	bb__model_warn(d->m, "%s: no sprite frame or image for \"%s\"; drawn as "
	               "nothing", d->c->name, name);
	return BB_OK;
}

/* Corners of CCSkin's quad: S = T(x,y) L(kX,kY,cX,cY) T(-anchor * size)
 * applied to the trimmed rect in the untrimmed frame (y up), then y down. */
static void skin_quad(const bb__region *r, const cc_node *n, double px,
                      double py, bb_display *ds)
{
	double iw = r->rotated ? r->h : r->w, ih = r->rotated ? r->w : r->h;
	double fw = r->has_frame ? r->fw : iw, fh = r->has_frame ? r->fh : ih;
	double left = r->has_frame ? -r->fx : 0, top = r->has_frame ? -r->fy : 0;
	double a = n->sx * cos(n->ky), b = n->sx * sin(n->ky);
	double c = n->sy * sin(n->kx), dd = n->sy * cos(n->kx);
	static const double cu[4] = { 0, 1, 1, 0 }, cv[4] = { 0, 0, 1, 1 };
	int k;

	for (k = 0; k < 4; k++) {
		double vx = left + cu[k] * iw - px * fw;
		double vy = fh - top - cv[k] * ih - py * fh;

		ds->u.image.corners[k].x = a * vx + c * vy + n->x;
		ds->u.image.corners[k].y = -(b * vx + dd * vy + n->y);
		ds->u.image.uvs[k] = bb__region_uv(r, cu[k], cv[k]);
	}
}

static bb_status sprite_display(struct cb *c, const struct cc_bone *b,
                                const struct cc_display *cd, bb_display *ds)
{
	char base[1024];
	const char *dot = strrchr(cd->name, '.');
	const struct cc_tex *t;
	const bb__region *r;
	const cc_node *node;
	bb_status s;

	if (!cd->name[0])
		return BB_OK;
	snprintf(base, sizeof base, "%.*s",
	         (int)(dot ? (size_t)(dot - cd->name) : strlen(cd->name)), cd->name);
	if ((s = find_region(c->d, cd->name, base, &r)) != BB_OK || !r)
		return s;
	t = find_tex(c->d, base);
	node = c->arm->version >= CC_VERSION_COMBINED - 1e-9 ? &cd->skin : &b->t;
	ds->kind = BB_DISPLAY_IMAGE;
	ds->u.image.texture = r->texture;
	skin_quad(r, node, t ? t->px : 0.5, t ? t->py : 0.5, ds);
	return BB_OK;
}

static void armature_display(struct cb *c, const struct cc_display *cd,
                             bb_display *ds)
{
	struct cc_arm *child = bb__cc_find_arm(c->d, cd->name);

	if (!child || child == c->arm) {
		bb__model_warn(c->d->m, "%s: nested armature \"%s\" is not in the "
		               "file; drawn as nothing", c->d->c->name, cd->name);
		return;
	}
	ds->kind = BB_DISPLAY_ARMATURE;
	ds->u.armature.armature = (int)(child - c->d->arms);
	ds->u.armature.anim = -1;
}

static bb_status build_displays(struct cb *c, bb_skin *sk)
{
	const struct cc_arm *arm = c->arm;
	int i, j, first;
	bb_status s;

	for (i = 0; i < arm->nbones; i++) {
		const struct cc_bone *b = &arm->bones[i];

		if ((s = bb__build_displays(c->d->b, c->a, b->ndisplays, &first)) != BB_OK)
			return s;
		sk->first[i] = first;
		sk->count[i] = b->ndisplays;
		for (j = 0; j < b->ndisplays; j++) {
			bb_display *ds = &c->a->displays[first + j];

			if ((s = bb__build_str(c->d->b, &ds->name, b->displays[j].name)) != BB_OK)
				return s;
			if (b->displays[j].type == 1)
				armature_display(c, &b->displays[j], ds);
			else if (b->displays[j].type == 2)
				bb__model_warn(c->d->m, "%s: particle displays are not drawn",
				               c->d->c->name);
			else if ((s = sprite_display(c, b, &b->displays[j], ds)) != BB_OK)
				return s;
		}
	}
	return BB_OK;
}

/* Slots in the file's bone order; the setup draw order by bone z, ties in
 * file order. */
static bb_status build_slots(struct cb *c)
{
	const struct cc_arm *arm = c->arm;
	int n = arm->nbones, i, j;
	bb_skin *sk;
	bb_status s;

	if ((s = bb__build_slots(c->d->b, c->a, (size_t)n)) != BB_OK ||
	    (s = bb__build_skin(c->d->b, c->a, "default", 1, &sk)) != BB_OK)
		return s;
	for (i = 0; i < n; i++) {
		bb_slot *sl = &c->a->slots[i];

		if ((s = bb__build_str(c->d->b, &sl->name, arm->bones[i].name)) != BB_OK)
			return s;
		sl->bone = c->model_of[i];
		sl->setup_display = arm->bones[i].ndisplays ? 0 : -1;
		/* insertion sort by z: stable */
		for (j = i; j > 0 && arm->bones[sk->draw_order[j - 1]].z > arm->bones[i].z; j--)
			sk->draw_order[j] = sk->draw_order[j - 1];
		sk->draw_order[j] = i;
	}
	return build_displays(c, sk);
}

static bb_status build_armature(struct cc_doc *d, int i)
{
	struct cb c;
	bb_status s;
	int k;

	memset(&c, 0, sizeof c);
	c.d = d;
	c.arm = &d->arms[i];
	c.a = &d->m->armatures[i];
	if ((s = bb__build_str(d->b, &c.a->name, c.arm->name)) != BB_OK)
		return s;
	c.a->fps = 60;
	if (c.arm->nmovs > 0 && c.arm->movs[0].sc > 0)
		c.a->fps = fmin(fmax(60 * c.arm->movs[0].sc, 1), 60);
	if ((s = build_bones(&c)) == BB_OK && (s = build_slots(&c)) == BB_OK) {
		for (k = 0; k < c.arm->nmovs && s == BB_OK; k++)
			s = bb__cc_build_movement(d, c.arm, &c.arm->movs[k], c.a);
	}
	c.a->default_anim = c.a->nanims > 0 ? 0 : -1;
	free(c.model_of);
	return s;
}

/* A nested armature plays its first movement, unless a key of the bone
 * showing it names one with `mov` (the first such key in the file). */
static void nested_anims(struct cc_doc *d)
{
	int i, b, k, j, f;

	for (i = 0; i < d->narms; i++) {
		const struct cc_arm *arm = &d->arms[i];
		bb_armature *a = &d->m->armatures[i];

		for (b = 0; b < arm->nbones; b++)
			for (k = 0; k < a->skins[0].count[b]; k++) {
				bb_display *ds = &a->displays[a->skins[0].first[b] + k];
				const bb_armature *ca;

				if (ds->kind != BB_DISPLAY_ARMATURE)
					continue;
				ca = &d->m->armatures[ds->u.armature.armature];
				for (j = 0; j < arm->nmovs && ds->u.armature.anim < 0; j++)
					for (f = 0; f < arm->movs[j].nbones; f++) {
						const struct cc_movbone *mb = &arm->movs[j].bones[f];
						int x, an;

						if (strcmp(mb->name, arm->bones[b].name) != 0)
							continue;
						for (x = 0; x < mb->nframes && ds->u.armature.anim < 0; x++)
							for (an = 0; mb->frames[x].mov && mb->frames[x].mov[0] &&
							     an < ca->nanims; an++)
								if (strcmp(ca->anims[an].name, mb->frames[x].mov) == 0) {
									ds->u.armature.anim = an;
									break;
								}
					}
			}
	}
}

bb_status bb__cc_build(struct cc_doc *d)
{
	int i;
	bb_status s;

	if ((s = bb__build_armatures(d->b, d->narms, NULL)) != BB_OK)
		return s;
	for (i = 0; i < d->narms; i++)
		if ((s = build_armature(d, i)) != BB_OK)
			return s;
	nested_anims(d);
	bb__model_pick_default_armature(d->m);
	return BB_OK;
}
