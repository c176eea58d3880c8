/* Texture atlases: JSON (DragonBones, Starling-style) pages and regions. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "loaders/atlas.h"

static const char *region_name(const void *base, int i)
{
	return ((const bb__region *)base)[i].name;
}

const bb__region *bb__atlas_find(bb__atlas *at, const char *name)
{
	int i = bb__names_find(&at->index, at->regions, at->n, region_name, name);

	return i >= 0 ? &at->regions[i] : NULL;
}

void bb__atlas_free(bb__atlas *at)
{
	int i;

	for (i = 0; i < at->n; i++)
		free(at->regions[i].name);
	free(at->regions);
	bb__names_free(&at->index);
	memset(at, 0, sizeof *at);
}

bb_vec2 bb__region_uv(const bb__region *r, double u, double v)
{
	bb_vec2 p;

	if (r->rotated) {
		p.x = r->x + (1 - v) * r->w;
		p.y = r->y + u * r->h;
	} else {
		p.x = r->x + u * r->w;
		p.y = r->y + v * r->h;
	}
	return p;
}

void bb__region_quad(const bb__region *r, double pivot_x, double pivot_y,
                     bb_vec2 corners[4], bb_vec2 uvs[4])
{
	double iw = r->rotated ? r->h : r->w, ih = r->rotated ? r->w : r->h;
	double fw = r->has_frame ? r->fw : iw, fh = r->has_frame ? r->fh : ih;
	double ts = r->scale;
	double px = pivot_x * fw * ts + (r->has_frame ? r->fx * ts : 0);
	double py = pivot_y * fh * ts + (r->has_frame ? r->fy * ts : 0);
	static const double cu[4] = { 0, 1, 1, 0 }, cv[4] = { 0, 0, 1, 1 };
	int k;

	for (k = 0; k < 4; k++) {
		corners[k].x = cu[k] * iw * ts - px;
		corners[k].y = cv[k] * ih * ts - py;
		uvs[k] = bb__region_uv(r, cu[k], cv[k]);
	}
}

bb__region *bb__atlas_add(bb__atlas *at, const char *name)
{
	bb__region *r;

	if (!bb__grow((void **)&at->regions, &at->cap, (size_t)at->n + 1,
	              sizeof *at->regions))
		return NULL;
	r = &at->regions[at->n];
	memset(r, 0, sizeof *r);
	r->scale = 1;
	if (!(r->name = bb__strdup(name)))
		return NULL;
	at->n++;
	return r;
}

static bb_status read_region(bb__jctx *c, json_t *st, int texture, double scale,
                             const bb_image *page, bb__atlas *at)
{
	bb__region *r;
	const char *name;
	double v[8];
	int rotated;
	bb_status s;

	if ((s = bb__jstr(c, st, "name", 1, &name)) != BB_OK ||
	    (s = bb__jnum(c, st, "x", 0, &v[0])) != BB_OK ||
	    (s = bb__jnum(c, st, "y", 0, &v[1])) != BB_OK ||
	    (s = bb__jnum_range(c, st, "width", 0, 0, 1e6, &v[2])) != BB_OK ||
	    (s = bb__jnum_range(c, st, "height", 0, 0, 1e6, &v[3])) != BB_OK ||
	    (s = bb__jnum(c, st, "frameX", 0, &v[4])) != BB_OK ||
	    (s = bb__jnum(c, st, "frameY", 0, &v[5])) != BB_OK ||
	    (s = bb__jnum_range(c, st, "frameWidth", 0, 0, 1e6, &v[6])) != BB_OK ||
	    (s = bb__jnum_range(c, st, "frameHeight", 0, 0, 1e6, &v[7])) != BB_OK ||
	    (s = bb__jbool(c, st, "rotated", 0, &rotated)) != BB_OK)
		return s;
	if (v[0] < 0 || v[1] < 0 || v[0] + v[2] > page->width + 0.5 ||
	    v[1] + v[3] > page->height + 0.5)
		return bb__jfail(c, NULL, "region %g,%g %gx%g of \"%s\" lies outside "
		                 "its %dx%d page", v[0], v[1], v[2], v[3], name,
		                 page->width, page->height);
	if (!(r = bb__atlas_add(at, name)))
		return bb__jnomem(c);
	r->texture = texture;
	r->x = v[0];
	r->y = v[1];
	r->w = v[2];
	r->h = v[3];
	r->rotated = rotated;
	r->has_frame = v[6] > 0 && v[7] > 0;
	r->fx = v[4];
	r->fy = v[5];
	r->fw = v[6];
	r->fh = v[7];
	r->scale = scale;
	return BB_OK;
}

bb_status bb__atlas_load_json(bb__load_ctx *c, const bb__ref *r, bb__atlas *at)
{
	char path[4096], dir[4096], png[4200], *data = NULL;
	const char *image;
	bb__jctx j;
	bb__jiter it;
	json_t *root = NULL, *st;
	size_t size;
	double scale;
	bb_image *page;
	int tex;
	bb_status s;

	if (!bb__load_path(c, r, path, sizeof path))
		return bb__error_at(c->err, BB_ERR_INPUT, c->name, 0, 0, NULL,
		                    "atlas \"%s\": path too long", r->name);
	bb__jctx_init(&j, bb__basename(path), c->err, 0);
	if ((s = bb__load_open(c, r, 0, &data, &size, NULL, 0)) != BB_OK)
		return s;
	s = bb__json_parse(data, size, j.file, &root, c->err);
	free(data);
	if (s != BB_OK)
		return s;
	if ((s = bb__jexpect_object(&j, root)) != BB_OK ||
	    (s = bb__jstr(&j, root, "imagePath", 1, &image)) != BB_OK ||
	    (s = bb__jnum_range(&j, root, "scale", 1, 1e-6, 1e6, &scale)) != BB_OK ||
	    (s = bb__jarray(&j, root, "SubTexture", 1, &st)) != BB_OK)
		goto done;
	/* the page, relative to the atlas (errors at its imagePath) */
	bb__dirname(path, dir, sizeof dir);
	bb__jpath_key(&j.path, "imagePath");
	if (!bb__path_join(png, sizeof png, dir, image)) {
		s = bb__jfail(&j, NULL, "path too long");
		goto done;
	}
	if ((tex = bb__model_find_texture(c->m, png)) < 0 &&
	    ((s = bb__load_image(c, &(bb__ref){ .at = &j, .what = "page",
	                                       .name = image, .dir = dir }, 0,
	                         &page, NULL, 0)) != BB_OK ||
	     (s = bb__build_texture(&c->b, png, page, &tex)) != BB_OK))
		goto done;
	bb__jpath_init(&j.path);
	page = c->m->textures[tex];
	if ((s = bb__jeach(&j, root, "SubTexture", 0, &it)) != BB_OK)
		goto done;
	while (bb__jnext(&it, &st))
		if ((s = read_region(&j, st, tex, 1 / scale, page, at)) != BB_OK)
			goto done;
	s = BB_OK;
done:
	bb__json_free(root);
	return s;
}
