/* Path constraints (Spine's PathConstraint): the constrained bones are
 * placed along the cubic Bezier path their target slot shows, spaced by
 * length, fixed, percent or proportional spacing, rotated along the
 * tangent or the chain between them (chain scale stretching them), mixed.
 * Positions are by arc length when the path has constantSpeed (its world
 * curves measured in 10 segments each), else by the setup lengths the
 * file gives.
 *
 * Everything is computed in the figure's world space: the runtime's
 * formulas are geometric (angles from atan2 of world vectors), so the
 * y flip of the figure matrix passes through them; the one reflection-
 * dependent term, the offset rotation, takes the sign of the slot bone's
 * determinant as the runtime does. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "eval/pose.h"

#define EPSILON 0.00001

enum { NONE = -1, BEFORE = -2, AFTER = -3 };

struct work {
	double *spaces, *lengths, *positions, *world, *curves;
	size_t cap_b, cap_w;
};

/* Scratch for this constraint (grown as needed; 0 without memory). */
static int work_size(struct work *w, size_t bones, size_t verts)
{
	if (bones + 2 > w->cap_b) {
		size_t n = bones + 2;
		double *s = bb__realloc_array(w->spaces, n, sizeof *s);

		if (s)
			w->spaces = s;
		if (!s || !(s = bb__realloc_array(w->lengths, n, sizeof *s)))
			return 0;
		w->lengths = s;
		if (!(s = bb__realloc_array(w->positions, 3 * n + 2, sizeof *s)))
			return 0;
		w->positions = s;
		w->cap_b = n;
	}
	if (verts + 8 > w->cap_w) {
		size_t n = verts + 8;
		double *s = bb__realloc_array(w->world, 2 * n, sizeof *s);

		if (!s)
			return 0;
		w->world = s;
		if (!(s = bb__realloc_array(w->curves, n, sizeof *s)))
			return 0;
		w->curves = s;
		w->cap_w = n;
	}
	return 1;
}

void bb__path_work_free(struct bb__path_work *pw)
{
	struct work *w = (struct work *)pw;

	if (!w)
		return;
	free(w->spaces);
	free(w->lengths);
	free(w->positions);
	free(w->world);
	free(w->curves);
	free(w);
}

/* World positions of count vertices from vertex `start` of a path display
 * (Spine's computeWorldVertices; deform offsets when the slot has them),
 * into out as x, y pairs. */
static void path_vertices(const bb_pose *p, int slot, const bb_display *d,
                          int start, int count, double *out)
{
	const double *def = bb__slot_deform(p, slot, d);
	bb_affine m = p->world[p->a->slots[slot].bone];
	int v, w = bb__first_influence(d, start);

	for (v = start; v < start + count; v++) {
		bb_vec2 q = bb__mesh_vertex(p, d, def, m, v, &w);

		*out++ = q.x;
		*out++ = q.y;
	}
}

static void add_before(double p, const double *t, double *out)
{
	double x1 = t[0], y1 = t[1], r = atan2(t[3] - y1, t[2] - x1);

	out[0] = x1 + p * cos(r);
	out[1] = y1 + p * sin(r);
	out[2] = r;
}

static void add_after(double p, const double *t, double *out)
{
	double x1 = t[2], y1 = t[3], r = atan2(y1 - t[1], x1 - t[0]);

	out[0] = x1 + p * cos(r);
	out[1] = y1 + p * sin(r);
	out[2] = r;
}

static void add_curve(double p, const double *c, double *out, int tangents)
{
	double x1 = c[0], y1 = c[1], cx1 = c[2], cy1 = c[3], cx2 = c[4], cy2 = c[5];
	double x2 = c[6], y2 = c[7], tt, ttt, u, uu, uuu, ut, ut3, uut3, utt3, x, y;

	if (p == 0 || isnan(p)) {
		out[0] = x1;
		out[1] = y1;
		out[2] = atan2(cy1 - y1, cx1 - x1);
		return;
	}
	tt = p * p;
	ttt = tt * p;
	u = 1 - p;
	uu = u * u;
	uuu = uu * u;
	ut = u * p;
	ut3 = ut * 3;
	uut3 = u * ut3;
	utt3 = ut3 * p;
	x = x1 * uuu + cx1 * uut3 + cx2 * utt3 + x2 * ttt;
	y = y1 * uuu + cy1 * uut3 + cy2 * utt3 + y2 * ttt;
	out[0] = x;
	out[1] = y;
	if (tangents) {
		if (p < 0.001)
			out[2] = atan2(cy1 - y1, cx1 - x1);
		else
			out[2] = atan2(y - (y1 * uu + cy1 * ut * 2 + cy2 * tt),
			               x - (x1 * uu + cx1 * ut * 2 + cx2 * tt));
	}
}

/* The position in path units (a percentage scaled to the path's length)
 * into *position, and the factor of the spacing. */
static double along(const bb_constraint *c, double path_len, int nspaces,
                    double *position)
{
	if (c->u.path.position == BB_PATH_PERCENT)
		*position *= path_len;
	return c->u.path.spacing == BB_PATH_SP_PERCENT ? path_len :
	       c->u.path.spacing == BB_PATH_SP_PROPORTIONAL ? path_len / nspaces : 1;
}

/* Positions (x, y, angle) of the spaces along a path of fixed setup
 * lengths (constantSpeed off). */
static void positions_by_lengths(const bb_pose *p, const bb_constraint *c,
                                 const bb_display *d, int slot, double position,
                                 int nspaces, int tangents, struct work *w)
{
	int closed = d->u.mesh.closed, nv = d->u.mesh.nverts;
	int curves = nv / 3 - (closed ? 1 : 2), prev = NONE, i, o, curve = 0;
	const double *lengths = d->u.mesh.lengths;
	double path_len = curves >= 0 && curves < d->u.mesh.nlengths ? lengths[curves] : 0;
	double mult, *out = w->positions, *world = w->world;

	if (curves < 0 || path_len == 0)
		return;
	mult = along(c, path_len, nspaces, &position);
	for (i = 0, o = 0; i < nspaces; i++, o += 3) {
		double space = w->spaces[i] * mult, q;

		position += space;
		q = position;
		if (closed) {
			q = fmod(q, path_len);
			if (q < 0)
				q += path_len;
			curve = 0;
		} else if (q < 0) {
			if (prev != BEFORE) {
				prev = BEFORE;
				path_vertices(p, slot, d, 1, 2, world);
			}
			add_before(q, world, out + o);
			continue;
		} else if (q > path_len) {
			if (prev != AFTER) {
				prev = AFTER;
				path_vertices(p, slot, d, nv - 3, 2, world);
			}
			add_after(q - path_len, world, out + o);
			continue;
		}
		for (;; curve++) {
			double len = lengths[curve];

			if (q > len && curve < curves)
				continue;
			if (curve == 0)
				q /= len;
			else
				q = (q - lengths[curve - 1]) / (len - lengths[curve - 1]);
			break;
		}
		if (curve != prev) {
			prev = curve;
			if (closed && curve == curves) {
				path_vertices(p, slot, d, nv - 2, 2, world);
				path_vertices(p, slot, d, 0, 2, world + 4);
			} else {
				path_vertices(p, slot, d, curve * 3 + 1, 4, world);
			}
		}
		add_curve(q, world, out + o, tangents || (i > 0 && space == 0));
	}
}

/* Positions along a path measured in world space (constantSpeed). */
/* Cumulative lengths of the cubic Bezier at b (x1 y1 cx1 cy1 cx2 cy2 x2
 * y2) over n >= 3 equal steps, by forward differencing as the runtime
 * measures them; a, b3, c6 are its step constants 3h, 3h^2 and 6h^3 for
 * h = 1/n, as it writes them.  Into len[0..n-1]; returns the whole. */
static double bezier_lengths(const double *b, int n, double a, double b3, double c6,
                             double *len)
{
	double tmpx = (b[0] - b[2] * 2 + b[4]) * b3, tmpy = (b[1] - b[3] * 2 + b[5]) * b3;
	double dddfx = ((b[2] - b[4]) * 3 - b[0] + b[6]) * c6;
	double dddfy = ((b[3] - b[5]) * 3 - b[1] + b[7]) * c6;
	double ddfx = tmpx * 2 + dddfx, ddfy = tmpy * 2 + dddfy;
	double dfx = (b[2] - b[0]) * a + tmpx + dddfx * 0.16666667;
	double dfy = (b[3] - b[1]) * a + tmpy + dddfy * 0.16666667;
	double total = sqrt(dfx * dfx + dfy * dfy);
	int s;

	len[0] = total;
	for (s = 1; s < n - 2; s++) {
		dfx += ddfx;
		dfy += ddfy;
		ddfx += dddfx;
		ddfy += dddfy;
		total += sqrt(dfx * dfx + dfy * dfy);
		len[s] = total;
	}
	dfx += ddfx;
	dfy += ddfy;
	total += sqrt(dfx * dfx + dfy * dfy);
	len[n - 2] = total;
	dfx += ddfx + dddfx;
	dfy += ddfy + dddfy;
	total += sqrt(dfx * dfx + dfy * dfy);
	len[n - 1] = total;
	return total;
}

static void positions_by_arc(const bb_pose *p, const bb_constraint *c,
                             const bb_display *d, int slot, double position,
                             int nspaces, int tangents, struct work *w)
{
	int closed = d->u.mesh.closed, nv = d->u.mesh.nverts, curves = nv / 3, i, o;
	int prev = NONE, curve = 0, segment = 0, wlen;
	double *world = w->world, *out = w->positions, path_len = 0, mult;
	double seg[10], curve_len = 0;

	if (closed) {
		wlen = 2 * nv + 2;
		path_vertices(p, slot, d, 1, nv - 1, world);
		path_vertices(p, slot, d, 0, 1, world + wlen - 4);
		world[wlen - 2] = world[0];
		world[wlen - 1] = world[1];
	} else {
		curves--;
		wlen = 2 * nv - 4;
		path_vertices(p, slot, d, 1, nv - 2, world);
	}
	if (curves < 1)
		return;
	/* the path's length, curve by curve, in 4 steps each */
	for (i = 0; i < curves; i++) {
		path_len += bezier_lengths(world + 6 * i, 4, 0.75, 0.1875, 0.09375, seg);
		w->curves[i] = path_len;
	}
	mult = along(c, path_len, nspaces, &position);
	for (i = 0, o = 0; i < nspaces; i++, o += 3) {
		double space = w->spaces[i] * mult, q;

		position += space;
		q = position;
		if (closed) {
			q = fmod(q, path_len);
			if (q < 0)
				q += path_len;
			curve = 0;
		} else if (q < 0) {
			add_before(q, world, out + o);
			continue;
		} else if (q > path_len) {
			add_after(q - path_len, world + wlen - 4, out + o);
			continue;
		}
		for (;; curve++) {
			double len = w->curves[curve];

			if (q > len && curve < curves - 1)
				continue;
			if (curve == 0)
				q /= len;
			else
				q = (q - w->curves[curve - 1]) / (len - w->curves[curve - 1]);
			break;
		}
		if (curve != prev) {
			/* the curve's length in 10 steps */
			prev = curve;
			curve_len = bezier_lengths(world + 6 * curve, 10, 0.3, 0.03, 0.006, seg);
			segment = 0;
		}
		q *= curve_len;
		for (;; segment++) {
			double len = seg[segment];

			if (q > len && segment < 9)
				continue;
			if (segment == 0)
				q /= len;
			else
				q = segment + (q - seg[segment - 1]) / (len - seg[segment - 1]);
			break;
		}
		add_curve(q * 0.1, world + 6 * curve, out + o, tangents || (i > 0 && space == 0));
	}
}

/* Spacing between the bones from their setup lengths and the mode. */
static void spacing(const bb_pose *p, const bb_constraint *c, double sp,
                    int nspaces, int scale, struct work *w)
{
	double sum = 0;
	int i;

	w->spaces[0] = 0;
	for (i = 0; i < nspaces - 1; i++) {
		int bone = c->bones[i];
		double setup = p->a->bones[bone].length, x, y, len;

		x = setup * p->world[bone].a;
		y = setup * p->world[bone].b;
		len = sqrt(x * x + y * y);
		if (scale)     /* the runtime measures every bone in percent mode */
			w->lengths[i] = setup < EPSILON && c->u.path.spacing !=
			                BB_PATH_SP_PERCENT ? 0 : len;
		switch (c->u.path.spacing) {
		case BB_PATH_SP_PERCENT:
			w->spaces[i + 1] = sp;
			break;
		case BB_PATH_SP_PROPORTIONAL:
			if (setup < EPSILON) {
				w->spaces[i + 1] = sp;
			} else {
				w->spaces[i + 1] = len;
				sum += len;
			}
			break;
		case BB_PATH_SP_LENGTH:
		case BB_PATH_SP_FIXED:
			w->spaces[i + 1] = setup < EPSILON ? sp :
			                   (c->u.path.spacing == BB_PATH_SP_LENGTH ? setup + sp : sp) *
			                   len / setup;
			break;
		}
	}
	if (c->u.path.spacing == BB_PATH_SP_PROPORTIONAL && sum > 0) {
		sum = nspaces / sum * sp;
		for (i = 1; i < nspaces; i++)
			w->spaces[i] *= sum;
	}
}

void bb__path_apply(bb_pose *p, int k)
{
	const bb_constraint *c = &p->a->cons[k];
	const double *cp = p->cparams + (size_t)k * BB_CP_MAX;
	const bb_display *d = bb__slot_display(p, c->target);
	double mr = cp[BB_CP_PATH_ROTATE], mx = cp[BB_CP_PATH_X], my = cp[BB_CP_PATH_Y];
	int tangents = c->u.path.rotate == BB_PATH_TANGENT;
	int scale = c->u.path.rotate == BB_PATH_CHAIN_SCALE, tip, i, q;
	int nb = c->nbones, nspaces = tangents ? nb : nb + 1;
	double bx, by, off_rot = c->u.path.rotation;
	struct work *w;

	if (!d || d->kind != BB_DISPLAY_PATH || d->u.mesh.nverts < 6 ||
	    (mr == 0 && mx == 0 && my == 0))
		return;
	if (!p->path_work && !(p->path_work = calloc(1, sizeof(struct work))))
		return;
	w = (struct work *)p->path_work;
	if (!work_size(w, (size_t)nb, (size_t)d->u.mesh.nverts))
		return;
	spacing(p, c, cp[BB_CP_PATH_SPACING], nspaces, scale, w);
	for (i = 0; i < 3 * nspaces + 2; i++)
		w->positions[i] = 0;
	if (d->u.mesh.constant_speed)
		positions_by_arc(p, c, d, c->target, cp[BB_CP_PATH_POSITION], nspaces,
		                 tangents, w);
	else
		positions_by_lengths(p, c, d, c->target, cp[BB_CP_PATH_POSITION], nspaces,
		                     tangents, w);
	bx = w->positions[0];
	by = w->positions[1];
	if (off_rot == 0) {
		tip = c->u.path.rotate == BB_PATH_CHAIN;
	} else {
		const bb_affine *sb = &p->world[p->a->slots[c->target].bone];

		tip = 0;
		off_rot *= sb->a * sb->d - sb->c * sb->b > 0 ? 1 : -1;
	}
	for (i = 0, q = 3; i < nb; i++, q += 3) {
		int bone = c->bones[i];
		bb_affine *m = &p->world[bone];
		double x = w->positions[q], y = w->positions[q + 1], dx, dy;

		m->tx += (bx - m->tx) * mx;
		m->ty += (by - m->ty) * my;
		dx = x - bx;
		dy = y - by;
		if (scale && w->lengths[i] != 0) {
			double s = (sqrt(dx * dx + dy * dy) / w->lengths[i] - 1) * mr + 1;

			m->a *= s;
			m->b *= s;
		}
		bx = x;
		by = y;
		if (mr > 0) {
			/* Spine's names: a = m.a, b = m.c, c = m.b, d = m.d */
			double a = m->a, b = m->c, cc = m->b, dd = m->d, r, cs, sn;

			if (tangents)
				r = w->positions[q - 1];
			else if (w->spaces[i + 1] == 0)
				r = w->positions[q + 2];
			else
				r = atan2(dy, dx);
			r -= atan2(cc, a);
			if (tip) {
				double len = p->a->bones[bone].length;

				cs = cos(r);
				sn = sin(r);
				bx += (len * (cs * a - sn * cc) - dx) * mr;
				by += (len * (sn * a + cs * cc) - dy) * mr;
			} else {
				r += off_rot;
			}
			if (r > M_PI)
				r -= 2 * M_PI;
			else if (r < -M_PI)
				r += 2 * M_PI;
			r *= mr;
			cs = cos(r);
			sn = sin(r);
			m->a = cs * a - sn * cc;
			m->c = cs * b - sn * dd;
			m->b = sn * a + cs * cc;
			m->d = sn * b + cs * dd;
		}
		p->wx_stale[bone] = 1;
		bb__bone_applied_from_world(p, bone);
	}
}
