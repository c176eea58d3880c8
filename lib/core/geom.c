/* Affine, bounds and colour-transform arithmetic. */
#include "config.h"

#include <math.h>

#include "bonebake/geom.h"
#include "core/util.h"

bb_affine bb_affine_identity(void)
{
	bb_affine m = { 1, 0, 0, 1, 0, 0 };
	return m;
}

bb_affine bb_affine_mul(bb_affine p, bb_affine q)
{
	bb_affine r;

	r.a = p.a * q.a + p.c * q.b;
	r.b = p.b * q.a + p.d * q.b;
	r.c = p.a * q.c + p.c * q.d;
	r.d = p.b * q.c + p.d * q.d;
	r.tx = p.a * q.tx + p.c * q.ty + p.tx;
	r.ty = p.b * q.tx + p.d * q.ty + p.ty;
	return r;
}

bb_vec2 bb_affine_apply(bb_affine m, double x, double y)
{
	bb_vec2 v = { m.a * x + m.c * y + m.tx, m.b * x + m.d * y + m.ty };
	return v;
}

int bb_affine_invert(bb_affine m, bb_affine *out)
{
	double det = m.a * m.d - m.b * m.c;
	bb_affine r;

	if (det == 0 || !isfinite(det)) {
		*out = bb_affine_identity();
		return 0;
	}
	r.a = m.d / det;
	r.b = -m.b / det;
	r.c = -m.c / det;
	r.d = m.a / det;
	r.tx = -(r.a * m.tx + r.c * m.ty);
	r.ty = -(r.b * m.tx + r.d * m.ty);
	*out = r;
	return 1;
}

bb_affine bb_affine_translate(double x, double y)
{
	bb_affine m = { 1, 0, 0, 1, x, y };
	return m;
}

bb_affine bb_affine_scale(double sx, double sy)
{
	bb_affine m = { sx, 0, 0, sy, 0, 0 };
	return m;
}

bb_bounds bb_bounds_empty(void)
{
	bb_bounds b = { INFINITY, INFINITY, -INFINITY, -INFINITY };
	return b;
}

void bb_bounds_add(bb_bounds *b, double x, double y)
{
	if (x < b->x0) b->x0 = x;
	if (y < b->y0) b->y0 = y;
	if (x > b->x1) b->x1 = x;
	if (y > b->y1) b->y1 = y;
}

void bb_bounds_union(bb_bounds *b, bb_bounds o)
{
	if (bb_bounds_is_empty(o))
		return;
	bb_bounds_add(b, o.x0, o.y0);
	bb_bounds_add(b, o.x1, o.y1);
}

int bb_bounds_is_empty(bb_bounds b)
{
	return !(b.x0 <= b.x1 && b.y0 <= b.y1);
}

bb_color_xform bb_color_xform_identity(void)
{
	bb_color_xform c = { { 1, 1, 1, 1 }, { 0, 0, 0, 0 }, { 0, 0, 0, 0 } };
	return c;
}

bb_color_xform bb_color_xform_concat(bb_color_xform o, bb_color_xform i)
{
	bb_color_xform r;

	r.mul.r = i.mul.r * o.mul.r;
	r.mul.g = i.mul.g * o.mul.g;
	r.mul.b = i.mul.b * o.mul.b;
	r.mul.a = i.mul.a * o.mul.a;
	r.add.r = i.add.r * o.mul.r + o.add.r;
	r.add.g = i.add.g * o.mul.g + o.add.g;
	r.add.b = i.add.b * o.mul.b + o.add.b;
	r.add.a = i.add.a * o.mul.a + o.add.a;
	/* two-colour tints (rare): c' = c*(m - d) + d + a is affine in c, so
	 * the inner's (m1-d1, d1+a1) through the outer's (m2-d2, d2+a2) is
	 * kept with the outer's dark */
	r.dark = o.dark;
	if (i.dark.r != 0 || i.dark.g != 0 || i.dark.b != 0 ||
	    o.dark.r != 0 || o.dark.g != 0 || o.dark.b != 0) {
		double im[3] = { i.mul.r - i.dark.r, i.mul.g - i.dark.g, i.mul.b - i.dark.b };
		double ik[3] = { i.dark.r + i.add.r, i.dark.g + i.add.g, i.dark.b + i.add.b };
		double om[3] = { o.mul.r - o.dark.r, o.mul.g - o.dark.g, o.mul.b - o.dark.b };
		double ok[3] = { o.dark.r + o.add.r, o.dark.g + o.add.g, o.dark.b + o.add.b };
		double d[3] = { o.dark.r, o.dark.g, o.dark.b }, m[3], k[3];
		int c;

		for (c = 0; c < 3; c++) {
			m[c] = im[c] * om[c] + d[c];
			k[c] = ik[c] * om[c] + ok[c] - d[c];
		}
		r.mul.r = m[0]; r.mul.g = m[1]; r.mul.b = m[2];
		r.add.r = k[0]; r.add.g = k[1]; r.add.b = k[2];
	}
	return r;
}

double bb__norm_angle(double a)
{
	double r = fmod(a + M_PI, 2 * M_PI);

	return r > 0 ? r - M_PI : r + M_PI;
}
