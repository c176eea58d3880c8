/* Solids: 3D cuboids moved by joints, projected orthographically into the
 * draw list.  Per frame: joint variables (sampled by bb__solid_sample) ->
 * one 3x4 matrix per joint -> per element the weighted average of its
 * joints' matrices (joints at identity left out) -> face corners through
 * the element's own rotation, then that matrix, then the view -> visible
 * faces sorted back to front -> textured (or flat) quads with directional
 * light.  Knows nothing of any file format. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "eval/eval.h"
#include "eval/solid.h"


/* A visible face waiting to be painted. */
struct solid_face {
	double depth;          /* view z of the centre: larger is nearer */
	int seq;               /* element * 6 + face: ties keep model order */
	bb_vec2 v[4];          /* projected corners */
	double light;          /* directional light multiplier */
};

struct bb__solid_work {
	double (*elem_m)[12];  /* per element: 3x4 transform, row-major */
	double *elem_w;
	double (*joint_m)[12];
	unsigned char *joint_id;  /* joint transform is the identity */
	struct solid_face *faces;
	size_t nfaces, cap;
};

/* ---- sampling ------------------------------------------------------------ */

/* Java's % on doubles keeps the dividend's sign (fmod does the same). */
static double wrap180(double d)
{
	return fmod(fmod(d, 360) + 540, 360) - 180;
}

double bb__solid_sample(const bb_anim *an, const bb_timeline *t, double time)
{
	const double *s = t->values;
	int n = t->nkeys, len = an->loop ? n : n - 1, s1, s2;
	double x, p;

	if (n <= 1 || len <= 0)
		return s[0];
	time = an->duration > 0 ? time / an->duration : 0;
	time -= floor(time);             /* always wrapped into [0, 1) */
	x = time * len;
	s1 = (int)floor(x);
	if (s1 < 0)
		s1 = 0;
	if (s1 > len - 1)
		s1 = len - 1;
	p = x - s1;
	s2 = s1 + 1;
	if (s2 == len && an->loop)
		s2 = 0;
	if (t->interp[s1].kind == BB_INTERP_NEAREST)
		return s[p < 0.5 ? s1 : s2];
	if (t->jvar == BB_JV_ANGLE)
		return s[s1] + wrap180(s[s2] - s[s1]) * p;
	return s[s1] * (1 - p) + s[s2] * p;
}

void bb__solid_set(bb_pose *p, int joint, int var, double v)
{
	double *jv = p->jvars + (size_t)joint * BB_JV_COUNT;

	if (var == BB_JV_SCALE)
		jv[BB_JV_SCALE_X] = jv[BB_JV_SCALE_Y] = jv[BB_JV_SCALE_Z] = v;
	else if (var >= 0 && var < BB_JV_COUNT)
		jv[var] = v;
}

void bb__solid_reset(bb_pose *p)
{
	const bb_solid *s = p->a->solid;
	int j, k;

	for (j = 0; s && j < s->njoints; j++) {
		double *jv = p->jvars + (size_t)j * BB_JV_COUNT;

		for (k = 0; k < BB_JV_COUNT; k++)
			jv[k] = 0;
		jv[BB_JV_SCALE] = jv[BB_JV_SCALE_X] = jv[BB_JV_SCALE_Y] =
			jv[BB_JV_SCALE_Z] = 1;
		for (k = 0; k < 3; k++)
			jv[BB_JV_ORIGIN_X + k] = s->joints[j].origin[k];
	}
}

/* ---- matrices (3x4, row-major: m[4r + c], column 3 = translation) ------- */

static void mat_identity(double *m)
{
	memset(m, 0, 12 * sizeof *m);
	m[0] = m[5] = m[10] = 1;
}

/* Exactly the identity (as the runtime compares: no tolerance). */
static int mat_is_identity(const double *m)
{
	int k;

	for (k = 0; k < 12; k++)
		if (m[k] != (k == 0 || k == 5 || k == 10 ? 1 : 0))
			return 0;
	return 1;
}

static void mat_apply(const double *m, const double *v, double *out)
{
	int r;

	for (r = 0; r < 3; r++)
		out[r] = m[4 * r] * v[0] + m[4 * r + 1] * v[1] + m[4 * r + 2] * v[2] +
		         m[4 * r + 3];
}

/* Rotation matrix (right-hand rule) about a unit axis. */
static void rotation(const double *u, double angle, double r[3][3])
{
	double c = cos(angle), s = sin(angle), k = 1 - c;

	r[0][0] = c + u[0] * u[0] * k;
	r[0][1] = u[0] * u[1] * k - u[2] * s;
	r[0][2] = u[0] * u[2] * k + u[1] * s;
	r[1][0] = u[1] * u[0] * k + u[2] * s;
	r[1][1] = c + u[1] * u[1] * k;
	r[1][2] = u[1] * u[2] * k - u[0] * s;
	r[2][0] = u[2] * u[0] * k - u[1] * s;
	r[2][1] = u[2] * u[1] * k + u[0] * s;
	r[2][2] = c + u[2] * u[2] * k;
}

void bb__solid_joint_matrix(const double *jv, double *m)
{
	double ax[3] = { jv[BB_JV_AXIS_X], jv[BB_JV_AXIS_Y], jv[BB_JV_AXIS_Z] };
	double len = sqrt(ax[0] * ax[0] + ax[1] * ax[1] + ax[2] * ax[2]);
	double r[3][3] = { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } };
	const double *o = jv + BB_JV_ORIGIN_X, *t = jv + BB_JV_OFFSET_X;
	const double *sc = jv + BB_JV_SCALE_X;
	int i, k;

	/* vecmath: an axis shorter than 1e-6 gives no rotation */
	if (len >= 1e-6 && jv[BB_JV_ANGLE] != 0) {
		for (k = 0; k < 3; k++)
			ax[k] /= len;
		rotation(ax, jv[BB_JV_ANGLE] * BB__DEG, r);
	}
	/* J(p) = O + t + R S (p - O) */
	for (i = 0; i < 3; i++) {
		double lo = 0;

		for (k = 0; k < 3; k++) {
			m[4 * i + k] = r[i][k] * sc[k];
			lo += m[4 * i + k] * o[k];
		}
		m[4 * i + 3] = t[i] + (o[i] - lo);
	}
}

/* ---- per-frame transforms ------------------------------------------------ */

static void work_free(struct bb__solid_work *w)
{
	if (!w)
		return;
	free(w->elem_m);
	free(w->elem_w);
	free(w->joint_m);
	free(w->joint_id);
	free(w->faces);
	free(w);
}

void bb__solid_work_free(struct bb__solid_work *w)
{
	work_free(w);
}

static struct bb__solid_work *work_get(bb_pose *p)
{
	const bb_solid *s = p->a->solid;
	struct bb__solid_work *w = p->solid_work;

	if (w)
		return w;
	w = calloc(1, sizeof *w);
	if (!w)
		return NULL;
	w->elem_m = bb__calloc((size_t)s->nelems, sizeof *w->elem_m);
	w->elem_w = bb__calloc((size_t)s->nelems, sizeof *w->elem_w);
	w->joint_m = bb__calloc((size_t)s->njoints, sizeof *w->joint_m);
	w->joint_id = bb__calloc((size_t)s->njoints, 1);
	if (!w->elem_m || !w->elem_w || !w->joint_m || !w->joint_id) {
		work_free(w);
		return NULL;
	}
	p->solid_work = w;
	return w;
}

void bb__solid_element_matrices(const bb_solid *s, const double *jvars,
                                double (*joint_m)[12], unsigned char *joint_id,
                                double (*elem_m)[12], double *elem_w)
{
	int j, e, k;

	for (j = 0; j < s->njoints; j++) {
		bb__solid_joint_matrix(jvars + (size_t)j * BB_JV_COUNT, joint_m[j]);
		joint_id[j] = (unsigned char)mat_is_identity(joint_m[j]);
	}
	for (e = 0; e < s->nelems; e++) {
		memset(elem_m[e], 0, sizeof elem_m[e]);
		elem_w[e] = 0;
	}
	/* M = sum w J and W = sum w over the joints not at identity; the
	 * element moves by M / W when W > 1e-5 (a matrix average, no slerp) */
	for (k = 0; k < s->nweights; k++) {
		const bb_solid_weight *w = &s->weights[k];
		int c;

		if (joint_id[w->joint])
			continue;
		for (c = 0; c < 12; c++)
			elem_m[w->elem][c] += w->weight * joint_m[w->joint][c];
		elem_w[w->elem] += w->weight;
	}
	for (e = 0; e < s->nelems; e++) {
		int c;

		if (elem_w[e] > 1e-5)
			for (c = 0; c < 12; c++)
				elem_m[e][c] /= elem_w[e];
		else
			mat_identity(elem_m[e]);
	}
}

/* ---- geometry ------------------------------------------------------------ */

/* Corner selectors per face (0: from, 1: to) for x, y, z, vertex 0..3. */
static const unsigned char corner[BB_FACE_COUNT][4][3] = {
	{ { 0, 0, 1 }, { 0, 0, 0 }, { 1, 0, 0 }, { 1, 0, 1 } },   /* down */
	{ { 0, 1, 0 }, { 0, 1, 1 }, { 1, 1, 1 }, { 1, 1, 0 } },   /* up */
	{ { 1, 1, 0 }, { 1, 0, 0 }, { 0, 0, 0 }, { 0, 1, 0 } },   /* north */
	{ { 0, 1, 1 }, { 0, 0, 1 }, { 1, 0, 1 }, { 1, 1, 1 } },   /* south */
	{ { 0, 1, 0 }, { 0, 0, 0 }, { 0, 0, 1 }, { 0, 1, 1 } },   /* west */
	{ { 1, 1, 1 }, { 1, 0, 1 }, { 1, 0, 0 }, { 1, 1, 0 } },   /* east */
};

void bb__solid_face_corners(const bb_solid_elem *e, int face, double out[4][3])
{
	int i, k;

	for (i = 0; i < 4; i++)
		for (k = 0; k < 3; k++)
			out[i][k] = corner[face][i][k] ? e->to[k] : e->from[k];
}

/* The element's own rotation: origin + S (R (p - origin)). */
void bb__solid_elem_rotate(const bb_solid_elem *e, double *p)
{
	double d[3], c, s;
	int a = e->rot_axis, u = (a + 1) % 3, v = (a + 2) % 3, k;

	if (!e->rotated)
		return;
	for (k = 0; k < 3; k++)
		d[k] = p[k] - e->rot_origin[k];
	c = cos(e->rot_angle * BB__DEG);
	s = sin(e->rot_angle * BB__DEG);
	/* right-handed about axis a: (u, v) -> (u c - v s, u s + v c) */
	{
		double du = d[u] * c - d[v] * s, dv = d[u] * s + d[v] * c;

		d[u] = du;
		d[v] = dv;
	}
	for (k = 0; k < 3; k++)
		p[k] = e->rot_origin[k] + d[k] * e->rot_scale[k];
}

/* View basis rows X (right), Y (up), Z (towards the viewer). */
void bb__solid_view_basis(bb_view3d_kind kind, double b[3][3])
{
	static const double fixed[5][3][3] = {
		{ { -1, 0, 0 }, { 0, 1, 0 }, { 0, 0, -1 } },   /* front: from north */
		{ { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } },     /* back: from south */
		{ { 0, 0, -1 }, { 0, 1, 0 }, { 1, 0, 0 } },    /* left: from east */
		{ { 0, 0, 1 }, { 0, 1, 0 }, { -1, 0, 0 } },    /* right: from west */
		{ { 1, 0, 0 }, { 0, 0, -1 }, { 0, 1, 0 } },    /* top: north up */
	};
	double h = sqrt(0.5), ce = cos(30 * BB__DEG), se = sin(30 * BB__DEG);
	int k;

	switch (kind) {
	case BB_VIEW3D_FRONT:
	case BB_VIEW3D_BACK:
	case BB_VIEW3D_LEFT:
	case BB_VIEW3D_RIGHT:
	case BB_VIEW3D_TOP:
		memcpy(b, fixed[kind - BB_VIEW3D_FRONT], sizeof fixed[0]);
		return;
	case BB_VIEW3D_ISO:
		break;
	}
	/* camera above the north-west edge, 30 degrees up */
	b[2][0] = -ce * h;
	b[2][1] = se;
	b[2][2] = -ce * h;
	b[0][0] = -h;
	b[0][1] = 0;
	b[0][2] = h;
	for (k = 0; k < 3; k++)   /* Y = Z x X */
		b[1][k] = b[2][(k + 1) % 3] * b[0][(k + 2) % 3] -
		          b[2][(k + 2) % 3] * b[0][(k + 1) % 3];
}

/* Vanilla's diffuse light for a unit normal (Forge LightUtil.diffuseLight):
 * down 0.5, up 1, north/south 0.8, west/east 0.6, blended for others. */
double bb__solid_light(const double *n)
{
	double l = n[0] * n[0] * 0.6 + n[1] * n[1] * ((3 + n[1]) / 4) +
	           n[2] * n[2] * 0.8;

	return l > 1 ? 1 : l;
}

/* ---- emitting ------------------------------------------------------------ */

struct view {
	double b[3][3], ppu, centre[3];
	bb_affine fig;
};

static bb_vec2 project(const struct view *vw, const double *p, double *z)
{
	double d[3] = { p[0] - vw->centre[0], p[1] - vw->centre[1],
	                p[2] - vw->centre[2] };
	double x = vw->b[0][0] * d[0] + vw->b[0][1] * d[1] + vw->b[0][2] * d[2];
	double y = vw->b[1][0] * d[0] + vw->b[1][1] * d[1] + vw->b[1][2] * d[2];

	*z = vw->b[2][0] * d[0] + vw->b[2][1] * d[1] + vw->b[2][2] * d[2];
	return bb_affine_apply(vw->fig, x * vw->ppu, -y * vw->ppu);
}

/* Transforms one face; fills f and returns 1 when it faces the viewer. */
static int face_visible(const bb_solid_elem *e, int face, const double *m,
                        const struct view *vw, struct solid_face *f)
{
	double c[4][3], n[3], d1[3], d2[3], len, z, zsum = 0;
	int i, k;

	bb__solid_face_corners(e, face, c);
	for (i = 0; i < 4; i++) {
		double q[3];

		bb__solid_elem_rotate(e, c[i]);
		mat_apply(m, c[i], q);
		memcpy(c[i], q, sizeof q);
	}
	for (k = 0; k < 3; k++) {
		d1[k] = c[2][k] - c[0][k];
		d2[k] = c[3][k] - c[1][k];
	}
	n[0] = d1[1] * d2[2] - d1[2] * d2[1];
	n[1] = d1[2] * d2[0] - d1[0] * d2[2];
	n[2] = d1[0] * d2[1] - d1[1] * d2[0];
	len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
	if (!(len > 1e-12) ||
	    vw->b[2][0] * n[0] + vw->b[2][1] * n[1] + vw->b[2][2] * n[2] <= 1e-9 * len)
		return 0;
	for (k = 0; k < 3; k++)
		n[k] /= len;
	for (i = 0; i < 4; i++) {
		f->v[i] = project(vw, c[i], &z);
		zsum += z;
	}
	f->depth = zsum / 4;
	f->light = e->shade ? bb__solid_light(n) : 1;
	return 1;
}

static int by_depth(const void *a, const void *b)
{
	const struct solid_face *x = a, *y = b;

	if (x->depth != y->depth)
		return x->depth < y->depth ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* Texture coordinates per corner: the face's UV rotation, then each nudged
 * 0.1% towards the opposite corner so edges never sample a neighbour. */
void bb__solid_face_uvs(const bb_solid_face *fc, bb_vec2 *uv)
{
	double u[4], v[4];
	int i;

	for (i = 0; i < 4; i++) {
		int r = (i + fc->rotation / 90) % 4;

		u[i] = (r == 0 || r == 1) ? fc->uv[0] : fc->uv[2];
		v[i] = (r == 0 || r == 3) ? fc->uv[1] : fc->uv[3];
	}
	for (i = 0; i < 4; i++) {
		uv[i].x = 0.999 * u[i] + 0.001 * u[(i + 2) % 4];
		uv[i].y = 0.999 * v[i] + 0.001 * v[(i + 2) % 4];
	}
}

static bb_status emit_face(bb_pose *p, const struct solid_face *f, bb_error *err)
{
	const bb_solid *s = p->a->solid;
	const bb_solid_face *fc = &s->elems[f->seq / BB_FACE_COUNT].faces[f->seq %
	                                                                 BB_FACE_COUNT];
	bb_vec2 *v, *uv;
	bb_draw_item *it = bb__drawlist_push(p, 4, &v, &uv);
	int i;

	if (!it)
		return bb_error_set(err, BB_ERR_NOMEM, NULL, NULL, "out of memory");
	it->kind = BB_DRAW_QUAD;
	it->slot = -1;
	for (i = 0; i < 4; i++)
		v[i] = f->v[i];
	bb__solid_face_uvs(fc, uv);
	if (fc->texture >= 0)
		it->texture = p->m->textures[fc->texture];
	else
		it->fill = fc->color;
	it->color.mul = (bb_rgba){ f->light, f->light, f->light, 1 };
	return BB_OK;
}

static bb_status collect(bb_pose *p, struct bb__solid_work *w,
                         const struct view *vw, bb_error *err)
{
	const bb_solid *s = p->a->solid;
	int e, k;

	w->nfaces = 0;
	for (e = 0; e < s->nelems; e++)
		for (k = 0; k < BB_FACE_COUNT; k++) {
			struct solid_face f;

			if (!s->elems[e].faces[k].present ||
			    !face_visible(&s->elems[e], k, w->elem_m[e], vw, &f))
				continue;
			f.seq = e * BB_FACE_COUNT + k;
			if (!bb__grow((void **)&w->faces, &w->cap, w->nfaces + 1,
			              sizeof *w->faces))
				return bb_error_set(err, BB_ERR_NOMEM, NULL, NULL,
				                    "out of memory");
			w->faces[w->nfaces++] = f;
		}
	return BB_OK;
}

bb_status bb__solid_emit(bb_pose *p, const bb_eval_options *o, bb_error *err)
{
	const bb_solid *s = p->a->solid;
	struct bb__solid_work *w;
	struct view vw;
	bb_status st;
	size_t i;

	if (!s)
		return BB_OK;
	if (!(w = work_get(p)))
		return bb_error_set(err, BB_ERR_NOMEM, NULL, NULL, "out of memory");
	bb__solid_element_matrices(s, p->jvars, w->joint_m, w->joint_id, w->elem_m,
	                           w->elem_w);
	bb__solid_view_basis(o->view3d.kind, vw.b);
	vw.ppu = o->view3d.pixels_per_unit > 0 ? o->view3d.pixels_per_unit : 8;
	memcpy(vw.centre, s->centre, sizeof vw.centre);
	vw.fig = p->fig;
	if ((st = collect(p, w, &vw, err)) != BB_OK)
		return st;
	if (w->nfaces > 1)      /* no faces: no array (qsort wants one) */
		qsort(w->faces, w->nfaces, sizeof *w->faces, by_depth);
	for (i = 0; i < w->nfaces; i++)
		if ((st = emit_face(p, &w->faces[i], err)) != BB_OK)
			return st;
	return BB_OK;
}
