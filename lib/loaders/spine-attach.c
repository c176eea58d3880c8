/* Spine attachments' geometry: vertices (weighted or not), region quads
 * (RegionAttachment's offsets and uvs), mesh uvs on their region
 * (MeshAttachment.updateRegion, every rotation), clipping polygons and
 * paths; copying and clearing displays. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "loaders/spine.h"


enum { MAX_VERTS = 1000000 };

/* ---- vertices ---------------------------------------------------------- */

/* Spine's vertices: nverts (x, y) pairs, or per vertex a bone count and
 * that many (bone, x, y, weight).  Weighted when the array is not exactly
 * 2 * nverts long.  Every value is checked (a number under 1e9) before
 * the array is interpreted. */
bb_status bb__sp_read_vertices(bb__sp *sp, json_t *map, int nverts, bb_display *d)
{
	json_t *jv;
	double *val = NULL;
	size_t len, i, w = 0;
	int v, k, total = 0;
	bb_status s;

	if ((s = bb__jarray(sp->j, map, "vertices", 1, &jv)) != BB_OK)
		return s;
	len = bb__jsize(jv);
	if (!(val = bb__calloc(len, sizeof *val)))
		return bb__build_nomem(sp->b);
	for (i = 0; i < len; i++) {
		if ((s = bb__jnum_at(sp->j, map, "vertices", i, &val[i])) != BB_OK)
			goto done;
		if (!(fabs(val[i]) < 1e9)) {
			s = bb__sp_fail_at(sp, "vertices", i, "%g is too large", val[i]);
			goto done;
		}
	}
	d->u.mesh.nverts = nverts;
	if (len == (size_t)nverts * 2) {
		if ((s = bb__build_verts(sp->b, d, nverts)) != BB_OK)
			goto done;
		for (v = 0; v < nverts; v++) {
			d->u.mesh.verts[v].x = bb__sp_f32(val[2 * v]);
			d->u.mesh.verts[v].y = bb__sp_f32(val[2 * v + 1]);
		}
		goto done;
	}
	/* weighted: count the influences first */
	for (i = 0, v = 0; i < len; v++) {
		double n = val[i];

		if (v >= nverts || n < 1 || n > sp->a->nbones || n != floor(n) ||
		    i + 1 + 4 * (size_t)n > len) {
			s = bb__sp_fail_at(sp, "vertices", i, "%s",
			                   v >= nverts ? "more vertices than expected" :
			                   "bad bone count (the array holds neither 2 numbers per "
			                   "vertex nor weights)");
			goto done;
		}
		total += (int)n;
		i += 1 + 4 * (size_t)n;
	}
	if (v != nverts) {
		s = bb__jfail(sp->j, "vertices", "%d vertices, expected %d", v, nverts);
		goto done;
	}
	if ((s = bb__build_weights(sp->b, d, nverts, total)) != BB_OK)
		goto done;
	for (i = 0, v = 0; v < nverts; v++) {
		int n = (int)val[i++];

		d->u.mesh.wcount[v] = n;
		for (k = 0; k < n; k++, w++, i += 4) {
			double b = val[i];

			if (b < 0 || b >= sp->a->nbones || b != floor(b)) {
				s = bb__sp_fail_at(sp, "vertices", i, "bone index %g out of range "
				                   "(%d bones)", b, sp->a->nbones);
				goto done;
			}
			d->u.mesh.wbone[w] = (int)b;
			d->u.mesh.wpos[w].x = bb__sp_f32(val[i + 1]);
			d->u.mesh.wpos[w].y = bb__sp_f32(val[i + 2]);
			d->u.mesh.wweight[w] = bb__sp_f32(val[i + 3]);
		}
	}
done:
	free(val);
	return s;
}

bb_status bb__sp_vertex_count(bb__sp *sp, json_t *map, int *n)
{
	double v;
	bb_status s = bb__jnum_range(sp->j, map, "vertexCount", -1, 0, MAX_VERTS, &v);

	if (s != BB_OK)
		return s;
	if (v < 0 || v != floor(v))
		return bb__jfail(sp->j, "vertexCount", v < 0 ? "missing" : "not an integer");
	*n = (int)v;
	return BB_OK;
}

/* ---- regions and meshes ------------------------------------------------ */

bb_status bb__sp_tint(bb__sp *sp, json_t *map, bb_display *d)
{
	const char *c;
	bb_status s = bb__jstr(sp->j, map, "color", 0, &c);

	if (s != BB_OK || !c)
		return s;
	if (!bb__sp_color(c, &d->tint))
		return bb__jfail(sp->j, "color", "\"%s\" is not a colour rrggbbaa", c);
	d->has_tint = d->tint.r != 1 || d->tint.g != 1 || d->tint.b != 1 || d->tint.a != 1;
	return BB_OK;
}

/* Pixel of the region's normalised page coordinate (u, v). */
static bb_vec2 page_px(const bb__sp *sp, const bb__sp_region *r, double u, double v)
{
	const bb_image *img = sp->m->textures[r->texture];
	bb_vec2 p = { (double)(float)u * img->width, (double)(float)v * img->height };

	return p;
}

struct region_geom {
	double x, y, sx, sy, rotation, w, h;
};

/* RegionAttachment's corners (BL TL TR BR in Spine's order, stored as the
 * model's TL TR BR BL) and uvs for region r. */
static void region_quad(const bb__sp *sp, const struct region_geom *g,
                        const bb__sp_region *r, bb_display *d)
{
	double rsx = g->w / r->orig_w * g->sx, rsy = g->h / r->orig_h * g->sy;
	double lx = -g->w / 2 * g->sx + r->off_x * rsx;
	double ly = -g->h / 2 * g->sy + r->off_y * rsy;
	double lx2 = lx + r->w * rsx, ly2 = ly + r->h * rsy;
	double c = cos(g->rotation * BB__DEG), s = sin(g->rotation * BB__DEG);
	double pw = r->page_w, ph = r->page_h;
	double u = r->x / pw, v = r->y / ph, u2, v2;
	/* corners in Spine's order BL, TL, TR, BR */
	double cx[4] = { lx, lx, lx2, lx2 }, cy[4] = { ly, ly2, ly2, ly };
	bb_vec2 uv[4];
	int k;

	if (r->degrees == 90) {
		u2 = (r->x + r->h) / pw;
		v2 = (r->y + r->w) / ph;
		uv[0] = page_px(sp, r, u2, v2);
		uv[1] = page_px(sp, r, u, v2);
		uv[2] = page_px(sp, r, u, v);
		uv[3] = page_px(sp, r, u2, v);
	} else {
		u2 = (r->x + r->w) / pw;
		v2 = (r->y + r->h) / ph;
		uv[0] = page_px(sp, r, u, v2);
		uv[1] = page_px(sp, r, u, v);
		uv[2] = page_px(sp, r, u2, v);
		uv[3] = page_px(sp, r, u2, v2);
	}
	d->kind = BB_DISPLAY_IMAGE;
	d->local = bb_affine_identity();
	d->u.image.texture = r->texture;
	for (k = 0; k < 4; k++) {
		int o = (k + 1) % 4;   /* TL TR BR BL = Spine's 1 2 3 0 */

		d->u.image.corners[k].x = bb__sp_f32(cx[o] * c + g->x - cy[o] * s);
		d->u.image.corners[k].y = bb__sp_f32(cy[o] * c + g->y + cx[o] * s);
		d->u.image.uvs[k] = uv[o];
	}
}

/* MeshAttachment.updateRegion: region uvs (0..1 of the original image)
 * into page pixels, with the region's rotation and stripped whitespace. */
static void mesh_uvs(const bb__sp *sp, const bb__sp_region *r, const float *ruv,
                     int n, bb_vec2 *out)
{
	double tw = r->page_w, th = r->page_h, u = r->x / tw, v = r->y / th, w, h;
	int i;

	switch (r->degrees) {
	case 90:
		u -= (r->orig_h - r->off_y - r->h) / tw;
		v -= (r->orig_w - r->off_x - r->w) / th;
		w = r->orig_h / tw;
		h = r->orig_w / th;
		for (i = 0; i < n; i++)
			out[i] = page_px(sp, r, u + ruv[2 * i + 1] * w, v + (1 - ruv[2 * i]) * h);
		return;
	case 180:
		u -= (r->orig_w - r->off_x - r->w) / tw;
		v -= r->off_y / th;
		w = r->orig_w / tw;
		h = r->orig_h / th;
		for (i = 0; i < n; i++)
			out[i] = page_px(sp, r, u + (1 - ruv[2 * i]) * w, v + (1 - ruv[2 * i + 1]) * h);
		return;
	case 270:
		u -= r->off_y / tw;
		v -= r->off_x / th;
		w = r->orig_h / tw;
		h = r->orig_w / th;
		for (i = 0; i < n; i++)
			out[i] = page_px(sp, r, u + (1 - ruv[2 * i + 1]) * w, v + ruv[2 * i] * h);
		return;
	default:
		u -= r->off_x / tw;
		v -= (r->orig_h - r->off_y - r->h) / th;
		w = r->orig_w / tw;
		h = r->orig_h / th;
		for (i = 0; i < n; i++)
			out[i] = page_px(sp, r, u + ruv[2 * i] * w, v + ruv[2 * i + 1] * h);
	}
}

/* The region an attachment's path names, counted when missing. */
const bb__sp_region * bb__sp_find_region(bb__sp *sp, const char *path)
{
	const bb__sp_region *r = sp->have_atlas ? bb__sp_atlas_find(&sp->atlas, path) : NULL;

	if (!r && sp->have_atlas) {
		sp->missing_regions++;
		if (sp->missing_regions == 1)
			bb__model_warn(sp->m, "%s: no atlas region \"%s\"", sp->j->file, path);
	}
	return r;
}

bb_status bb__sp_read_region(bb__sp *sp, json_t *map, const char *path,
                             bb_display *d)
{
	struct region_geom g;
	const bb__sp_region *r;
	bb_status s;

	if ((s = bb__sp_num(sp, map, "x", 0, &g.x)) != BB_OK ||
	    (s = bb__sp_num(sp, map, "y", 0, &g.y)) != BB_OK ||
	    (s = bb__sp_num(sp, map, "scaleX", 1, &g.sx)) != BB_OK ||
	    (s = bb__sp_num(sp, map, "scaleY", 1, &g.sy)) != BB_OK ||
	    (s = bb__sp_num(sp, map, "rotation", 0, &g.rotation)) != BB_OK ||
	    (s = bb__jnum_range(sp->j, map, "width", -1, 0, 1e7, &g.w)) != BB_OK ||
	    (s = bb__jnum_range(sp->j, map, "height", -1, 0, 1e7, &g.h)) != BB_OK ||
	    (s = bb__sp_tint(sp, map, d)) != BB_OK)
		return s;
	if (g.w < 0 || g.h < 0)
		return bb__jfail(sp->j, g.w < 0 ? "width" : "height", "missing");
	if ((r = bb__sp_find_region(sp, path)) != NULL)
		region_quad(sp, &g, r, d);
	return BB_OK;
}

/* Frees a display's vertex data and makes it an empty NONE (keeps name). */
void bb__sp_clear_geometry(bb_display *d)
{
	/* a display being read stays NONE until it is whole, its vertices
	 * (if any) already held */
	if (d->kind == BB_DISPLAY_NONE)
		d->kind = BB_DISPLAY_MESH;
	bb__display_clear(d);
}

/* A mesh's own geometry: vertices, triangles, and the region uvs (kept in
 * pd until the region is known). */
bb_status bb__sp_read_mesh(bb__sp *sp, json_t *map, float **ruv, int *nruv, bb_display *d)
{
	json_t *juv, *jtri;
	size_t n, nt, i;
	double x;
	bb_status s;

	if ((s = bb__jarray(sp->j, map, "uvs", 1, &juv)) != BB_OK ||
	    (s = bb__jarray(sp->j, map, "triangles", 1, &jtri)) != BB_OK)
		return s;
	n = bb__jsize(juv);
	nt = bb__jsize(jtri);
	if (n % 2 || n / 2 > MAX_VERTS)
		return bb__jfail(sp->j, "uvs", "%zu values is not 2 per vertex", n);
	if (nt % 3 || nt > 3 * (size_t)MAX_VERTS)
		return bb__jfail(sp->j, "triangles", "%zu indices is not 3 per triangle", nt);
	d->kind = BB_DISPLAY_MESH;
	d->local = bb_affine_identity();
	if ((s = bb__sp_read_vertices(sp, map, (int)(n / 2), d)) != BB_OK)
		return s;
	if ((s = bb__build_triangles(sp->b, d, (int)(n / 2), (int)nt)) != BB_OK)
		return s;
	if (!(*ruv = bb__calloc(n, sizeof **ruv)))
		return bb__build_nomem(sp->b);
	*nruv = (int)n;
	for (i = 0; i < n; i++) {
		if ((s = bb__jnum_at(sp->j, map, "uvs", i, &x)) != BB_OK)
			return s;
		(*ruv)[i] = (float)x;
	}
	for (i = 0; i < nt; i++) {
		if ((s = bb__jnum_at(sp->j, map, "triangles", i, &x)) != BB_OK)
			return s;
		if (x < 0 || x >= (double)(n / 2) || x != floor(x))
			return bb__sp_fail_at(sp, "triangles", i, "vertex index %g out of range "
			                      "(%zu vertices)", x, n / 2);
		d->u.mesh.indices[i] = (int)x;
	}
	return BB_OK;
}

/* The mesh's uvs on region `path`; without the region it is not drawn. */
void bb__sp_place_mesh(bb__sp *sp, const float *ruv, int nruv, const char *path,
                       bb_display *d)
{
	const bb__sp_region *r = bb__sp_find_region(sp, path);

	if (!r || d->kind != BB_DISPLAY_MESH) {
		bb__sp_clear_geometry(d);
		return;
	}
	d->u.mesh.texture = r->texture;
	mesh_uvs(sp, r, ruv, nruv / 2, d->u.mesh.uvs);
}

bb_status bb__sp_read_clip_or_path(bb__sp *sp, json_t *map, int path, bb_display *d)
{
	json_t *jl;
	size_t i;
	double len;
	int n;
	bb_status s;

	if ((s = bb__sp_vertex_count(sp, map, &n)) != BB_OK ||
	    (s = bb__sp_read_vertices(sp, map, n, d)) != BB_OK)
		return s;
	d->local = bb_affine_identity();
	d->u.mesh.texture = -1;
	if (!path) {
		const char *end;

		d->kind = BB_DISPLAY_CLIP;
		d->u.mesh.clip_end = -1;
		if ((s = bb__jstr(sp->j, map, "end", 0, &end)) != BB_OK)
			return s;
		if (end && (d->u.mesh.clip_end = bb__sp_slot(sp, end)) < 0)
			return bb__jfail(sp->j, "end", "unknown slot \"%s\"", end);
		return BB_OK;
	}
	d->kind = BB_DISPLAY_PATH;
	if (n % 3)
		return bb__jfail(sp->j, "vertexCount", "%d is not 3 per curve", n);
	if ((s = bb__jbool(sp->j, map, "closed", 0, &d->u.mesh.closed)) != BB_OK ||
	    (s = bb__jbool(sp->j, map, "constantSpeed", 1, &d->u.mesh.constant_speed)) != BB_OK ||
	    (s = bb__jarray(sp->j, map, "lengths", 1, &jl)) != BB_OK)
		return s;
	if ((s = bb__build_lengths(sp->b, d, n / 3)) != BB_OK)
		return s;
	/* the runtime reads vertexCount / 3 of them */
	for (i = 0; i < bb__jsize(jl) && i < (size_t)n / 3; i++) {
		if ((s = bb__jnum_at(sp->j, map, "lengths", i, &len)) != BB_OK)
			return s;
		d->u.mesh.lengths[i] = len;
	}
	return BB_OK;
}

