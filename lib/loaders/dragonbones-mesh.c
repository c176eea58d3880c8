/* DragonBones mesh displays: vertices, uvs, triangles, and the weighted
 * layout (weights, slotPose, bonePose) shared by 4.5, 5.0 and 5.5 exports
 * (spec 9.4). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "loaders/dragonbones.h"

enum { MESH_MAX_VERTS = 1 << 20 };

/* Numbers of array `key` into a new double array; *n = count. */
static bb_status numbers(struct db *d, json_t *jd, const char *key, int required,
                         double **out, size_t *n)
{
	return bb__jnums(d->j, jd, key, required, 8 * (size_t)MESH_MAX_VERTS, out, n);
}

static bb_affine affine_of(const double *v)
{
	bb_affine m = { v[0], v[1], v[2], v[3], v[4], v[5] };
	return m;
}

/* Binds weights: per vertex n, (file bone, weight) x n. */
static bb_status bind_weights(struct db *d, bb_display *ds, const double *w,
                              size_t nw, const double *verts, int display,
                              json_t *jd)
{
	double *sp = NULL, *bp = NULL;
	size_t nsp, nbp, i, k, at = 0;
	int v, total = 0;
	bb_affine slot_pose = bb_affine_identity(), *bind = NULL;
	unsigned char *have = NULL;
	struct db_mesh *dm;
	bb_status s;

	if ((s = numbers(d, jd, "slotPose", 0, &sp, &nsp)) != BB_OK ||
	    (s = numbers(d, jd, "bonePose", 0, &bp, &nbp)) != BB_OK)
		goto out;
	if (sp && nsp >= 6)
		slot_pose = affine_of(sp);
	bind = bb__calloc((size_t)d->nfile_bones, sizeof *bind);
	have = bb__calloc((size_t)d->nfile_bones, 1);
	if (!bind || !have) {
		s = bb__build_nomem(d->b);
		goto out;
	}
	if (nbp % 7 != 0) {
		s = bb__jfail(d->j, "bonePose", "length %zu is not a multiple of 7", nbp);
		goto out;
	}
	for (i = 0; i < nbp; i += 7) {
		double b = bp[i];

		if (b < 0 || b >= d->nfile_bones || b != floor(b)) {
			s = bb__jfail(d->j, "bonePose", "bone index %g out of range (%d "
			              "bones)", b, d->nfile_bones);
			goto out;
		}
		bind[(int)b] = affine_of(bp + i + 1);
		have[(int)b] = 1;
	}
	/* count influences first */
	for (v = 0; v < ds->u.mesh.nverts; v++) {
		if (at >= nw || w[at] < 0 || w[at] != floor(w[at]) ||
		    w[at] > (double)(nw - at - 1) / 2) {
			s = bb__jfail(d->j, "weights", "truncated or malformed at vertex %d",
			              v);
			goto out;
		}
		total += (int)w[at];
		at += 1 + 2 * (size_t)w[at];
	}
	ds->u.mesh.wcount = bb__calloc((size_t)ds->u.mesh.nverts, sizeof(int));
	ds->u.mesh.wbone = bb__calloc((size_t)total, sizeof(int));
	ds->u.mesh.wweight = bb__calloc((size_t)total, sizeof(double));
	ds->u.mesh.wpos = bb__calloc((size_t)total, sizeof(bb_vec2));
	if (!bb__grow((void **)&d->meshes, &d->meshes_cap, (size_t)d->nmeshes + 1,
	              sizeof *d->meshes) ||
	    !ds->u.mesh.wcount || !ds->u.mesh.wbone || !ds->u.mesh.wweight ||
	    !ds->u.mesh.wpos) {
		s = bb__build_nomem(d->b);
		goto out;
	}
	dm = &d->meshes[d->nmeshes];
	memset(dm, 0, sizeof *dm);
	dm->display = display;
	dm->slot_pose = slot_pose;
	dm->inv_bone_pose = bb__calloc((size_t)total, sizeof *dm->inv_bone_pose);
	if (!dm->inv_bone_pose) {
		s = bb__build_nomem(d->b);
		goto out;
	}
	d->nmeshes++;
	ds->u.mesh.ninfluences = total;
	at = 0;
	total = 0;
	for (v = 0; v < ds->u.mesh.nverts; v++) {
		int n = (int)w[at++];
		bb_vec2 pa = bb_affine_apply(slot_pose, verts[2 * v], verts[2 * v + 1]);

		ds->u.mesh.wcount[v] = n;
		for (k = 0; k < (size_t)n; k++, total++) {
			double b = w[at++], wt = w[at++];
			bb_affine inv;

			if (b < 0 || b >= d->nfile_bones || b != floor(b) || !have[(int)b]) {
				s = bb__jfail(d->j, "weights", "vertex %d names bone %g, which "
				              "%s", v, b, b >= 0 && b < d->nfile_bones &&
				              b == floor(b) ? "has no bonePose" : "does not exist");
				goto out;
			}
			bb_affine_invert(bind[(int)b], &inv);
			ds->u.mesh.wbone[total] = d->bone_of_file[(int)b];
			ds->u.mesh.wweight[total] = wt;
			ds->u.mesh.wpos[total] = bb_affine_apply(inv, pa.x, pa.y);
			dm->inv_bone_pose[total] = inv;
		}
	}
	s = BB_OK;
out:
	free(sp);
	free(bp);
	free(bind);
	free(have);
	return s;
}

bb_status bb__db_mesh_geometry(struct db *d, json_t *jd, bb_display *ds,
                               const bb__region *r, int display)
{
	double *verts = NULL, *uvs = NULL, *tris = NULL, *w = NULL;
	size_t nv, nuv, nt, nw, i;
	bb_status s;

	if ((s = numbers(d, jd, "vertices", 1, &verts, &nv)) != BB_OK ||
	    (s = numbers(d, jd, "uvs", 1, &uvs, &nuv)) != BB_OK ||
	    (s = numbers(d, jd, "triangles", 1, &tris, &nt)) != BB_OK ||
	    (s = numbers(d, jd, "weights", 0, &w, &nw)) != BB_OK)
		goto out;
	if (nv % 2 || nv / 2 > MESH_MAX_VERTS) {
		s = bb__jfail(d->j, "vertices", "%zu numbers: not x,y pairs", nv);
		goto out;
	}
	if (nuv != nv) {
		s = bb__jfail(d->j, "uvs", "%zu numbers for %zu vertices", nuv, nv / 2);
		goto out;
	}
	if (nt % 3) {
		s = bb__jfail(d->j, "triangles", "%zu indices: not a multiple of 3", nt);
		goto out;
	}
	for (i = 0; i < nt; i++)
		if (tris[i] < 0 || tris[i] >= nv / 2 || tris[i] != floor(tris[i])) {
			bb__jpath_key(&d->j->path, "triangles");
			bb__jpath_index(&d->j->path, i);
			s = bb__jfail(d->j, NULL, "vertex index %g out of range (%zu "
			              "vertices)", tris[i], nv / 2);
			goto out;
		}
	ds->kind = BB_DISPLAY_MESH;
	ds->u.mesh.texture = r->texture;
	ds->u.mesh.nverts = (int)(nv / 2);
	ds->u.mesh.nindices = (int)nt;
	ds->u.mesh.verts = bb__calloc(nv / 2, sizeof(bb_vec2));
	ds->u.mesh.uvs = bb__calloc(nv / 2, sizeof(bb_vec2));
	ds->u.mesh.indices = bb__calloc(nt, sizeof(int));
	if (!ds->u.mesh.verts || !ds->u.mesh.uvs || !ds->u.mesh.indices) {
		s = bb__build_nomem(d->b);
		goto out;
	}
	for (i = 0; i < nv / 2; i++) {
		ds->u.mesh.verts[i].x = verts[2 * i];
		ds->u.mesh.verts[i].y = verts[2 * i + 1];
		ds->u.mesh.uvs[i] = bb__region_uv(r, uvs[2 * i], uvs[2 * i + 1]);
	}
	for (i = 0; i < nt; i++)
		ds->u.mesh.indices[i] = (int)tris[i];
	s = w && nw ? bind_weights(d, ds, w, nw, verts, display, jd) : BB_OK;
out:
	free(verts);
	free(uvs);
	free(tris);
	free(w);
	return s;
}
