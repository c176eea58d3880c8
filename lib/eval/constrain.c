/* Constraints of an armature's update order: IK (one and two bones, bend
 * direction, softness, compress, stretch, uniform, mix) and transform
 * constraints (absolute / relative, world / local), as Spine 4.2's runtime
 * computes them.  Path constraints are in path.c, physics in physics.c.
 *
 * The formulas are written with Spine's names: a bone matrix has rows
 * (a b; c d), so a = m.a, b = m.c, c = m.b, d = m.d of a bb_affine, and the
 * runtime's angles are degrees where it wraps them at 180.  The figure's
 * linear part is Spine's skeleton scale (diagonal: flip, y up). */
#include "config.h"

#include <math.h>

#include "core/util.h"
#include "eval/pose.h"

#define RAD_DEG (180 / M_PI)

/* A world matrix with Spine's names. */
typedef struct sm {
	double a, b, c, d, x, y;
} sm;

static sm get_sm(const bb_pose *p, int bone)
{
	const bb_affine *m = &p->world[bone];
	sm s = { m->a, m->c, m->b, m->d, m->tx, m->ty };

	return s;
}

static void set_sm(bb_pose *p, int bone, const sm *s)
{
	bb_affine *m = &p->world[bone];

	m->a = s->a;
	m->c = s->b;
	m->b = s->c;
	m->d = s->d;
	m->tx = s->x;
	m->ty = s->y;
	p->wx_stale[bone] = 1;
}

static double signum(double v)
{
	return v > 0 ? 1 : v < 0 ? -1 : 0;
}

/* Bone.updateWorldTransformWith with Spine's units (degrees). */
static void update_with(bb_pose *p, int bone, double x, double y, double rot,
                        double sx, double sy, double shx, double shy)
{
	bb_xform l;

	l.x = x;
	l.y = y;
	l.rotation = rot * BB__DEG;
	l.sx = sx;
	l.sy = sy;
	l.shear = shx * BB__DEG;
	l.skew = shy * BB__DEG;
	bb__bone_update(p, bone, &l);
}

/* ---- IK ---------------------------------------------------------------- */

static void ik_one(bb_pose *p, int bone, double tgx, double tgy, int compress,
                   int stretch, int uniform, double alpha)
{
	const bb_xform *ap = &p->applied[bone];
	sm par = get_sm(p, p->a->bones[bone].parent), w = get_sm(p, bone);
	double pa = par.a, pb = par.b, pc = par.c, pd = par.d;
	double ssx = p->fig.a, ssy = p->fig.d;
	double rot_ik = -ap->shear * RAD_DEG - ap->rotation * RAD_DEG, tx = 0, ty = 0;
	double sx = ap->sx, sy = ap->sy;
	int mode = p->inherit[bone];

	if (mode == BB_INHERIT_ONLY_TRANSLATION) {
		tx = (tgx - w.x) * signum(ssx);
		ty = (tgy - w.y) * signum(ssy);
	} else {
		double x, y, d;

		if (mode == BB_INHERIT_NO_ROTATION_OR_REFLECTION) {
			double s = fabs(pa * pd - pb * pc) / fmax(0.0001, pa * pa + pc * pc);
			double sa = pa / ssx, sc = pc / ssy;

			pb = -sc * s * ssx;
			pd = sa * s * ssy;
			rot_ik += atan2(sc, sa) * RAD_DEG;
		}
		x = tgx - par.x;
		y = tgy - par.y;
		d = pa * pd - pb * pc;
		if (fabs(d) <= 0.0001) {
			tx = 0;
			ty = 0;
		} else {
			tx = (x * pd - y * pb) / d - ap->x;
			ty = (y * pa - x * pc) / d - ap->y;
		}
	}
	rot_ik += atan2(ty, tx) * RAD_DEG;
	if (ap->sx < 0)
		rot_ik += 180;
	if (rot_ik > 180)
		rot_ik -= 360;
	else if (rot_ik < -180)
		rot_ik += 360;
	if (compress || stretch) {
		double b, dd;

		if (mode == BB_INHERIT_NO_SCALE || mode == BB_INHERIT_NO_SCALE_OR_REFLECTION) {
			tx = tgx - w.x;
			ty = tgy - w.y;
		}
		b = p->a->bones[bone].length * sx;
		if (b > 0.0001) {
			dd = tx * tx + ty * ty;
			if ((compress && dd < b * b) || (stretch && dd > b * b)) {
				double s = (sqrt(dd) / b - 1) * alpha + 1;

				sx *= s;
				if (uniform)
					sy *= s;
			}
		}
	}
	update_with(p, bone, ap->x, ap->y, ap->rotation * RAD_DEG + rot_ik * alpha,
	            sx, sy, ap->shear * RAD_DEG, ap->skew * RAD_DEG);
}

/* The law of cosines for two bones of unequal scale has no closed form:
 * Spine solves the quadratic for the child tip on an ellipse, else picks
 * the nearest or farthest reachable point.  Returns a1, a2 in *a1, *a2. */
static void ik_ellipse(double l1, double l2, double psx, double psy, double tx,
                       double ty, double dd, double bend, double *a1, double *a2)
{
	double a = psx * l2, b = psy * l2, aa = a * a, bb = b * b;
	double ta = atan2(ty, tx), c, c1, c2, d, x, y;
	double min_a = M_PI, min_x = l1 - a, min_d = min_x * min_x, min_y = 0;
	double max_a = 0, max_x = l1 + a, max_d = max_x * max_x, max_y = 0;

	c = bb * l1 * l1 + aa * dd - aa * bb;
	c1 = -2 * bb * l1;
	c2 = bb - aa;
	d = c1 * c1 - 4 * c2 * c;
	if (d >= 0) {
		double q = sqrt(d), r0, r1, r;

		if (c1 < 0)
			q = -q;
		q = -(c1 + q) * 0.5;
		r0 = q / c2;
		r1 = c / q;
		r = fabs(r0) < fabs(r1) ? r0 : r1;
		if (r * r <= dd) {
			y = sqrt(dd - r * r) * bend;
			*a1 = ta - atan2(y, r);
			*a2 = atan2(y / psy, (r - l1) / psx);
			return;
		}
	}
	c = -a * l1 / (aa - bb);
	if (c >= -1 && c <= 1) {
		c = acos(c);
		x = a * cos(c) + l1;
		y = b * sin(c);
		d = x * x + y * y;
		if (d < min_d) {
			min_a = c;
			min_d = d;
			min_x = x;
			min_y = y;
		}
		if (d > max_d) {
			max_a = c;
			max_d = d;
			max_x = x;
			max_y = y;
		}
	}
	if (dd <= (min_d + max_d) * 0.5) {
		*a1 = ta - atan2(min_y * bend, min_x);
		*a2 = min_a * bend;
	} else {
		*a1 = ta - atan2(max_y * bend, max_x);
		*a2 = max_a * bend;
	}
}

static void ik_two(bb_pose *p, int parent, int child, double tgx, double tgy,
                   double bend, int stretch, int uniform, double softness,
                   double alpha)
{
	const bb_xform pap = p->applied[parent], cap = p->applied[child];
	sm pw = get_sm(p, parent), ppw;
	double px = pap.x, py = pap.y, psx = pap.sx, psy = pap.sy, sx = psx, sy = psy;
	double csx = cap.sx, os1, os2, s2, cx = cap.x, cy, cwx, cwy;
	double a = pw.a, b = pw.b, c = pw.c, d = pw.d, id, x, y, dx, dy, l1, l2;
	double tx, ty, dd, a1, a2, os, rotation;
	int u;

	if (p->inherit[parent] != BB_INHERIT_MATRIX || p->inherit[child] != BB_INHERIT_MATRIX)
		return;
	if (psx < 0) {
		psx = -psx;
		os1 = 180;
		s2 = -1;
	} else {
		os1 = 0;
		s2 = 1;
	}
	if (psy < 0) {
		psy = -psy;
		s2 = -s2;
	}
	if (csx < 0) {
		csx = -csx;
		os2 = 180;
	} else {
		os2 = 0;
	}
	u = fabs(psx - psy) <= 0.0001;
	if (!u || stretch) {
		cy = 0;
		cwx = a * cx + pw.x;
		cwy = c * cx + pw.y;
	} else {
		cy = cap.y;
		cwx = a * cx + b * cy + pw.x;
		cwy = c * cx + d * cy + pw.y;
	}
	ppw = get_sm(p, p->a->bones[parent].parent);
	a = ppw.a;
	b = ppw.b;
	c = ppw.c;
	d = ppw.d;
	id = a * d - b * c;
	x = cwx - ppw.x;
	y = cwy - ppw.y;
	id = fabs(id) <= 0.0001 ? 0 : 1 / id;
	dx = (x * d - y * b) * id - px;
	dy = (y * a - x * c) * id - py;
	l1 = sqrt(dx * dx + dy * dy);
	l2 = p->a->bones[child].length * csx;
	if (l1 < 0.0001) {
		ik_one(p, parent, tgx, tgy, 0, stretch, 0, alpha);
		update_with(p, child, cx, cy, 0, cap.sx, cap.sy, cap.shear * RAD_DEG,
		            cap.skew * RAD_DEG);
		return;
	}
	x = tgx - ppw.x;
	y = tgy - ppw.y;
	tx = (x * d - y * b) * id - px;
	ty = (y * a - x * c) * id - py;
	dd = tx * tx + ty * ty;
	if (softness != 0) {
		double td, sd;

		softness *= psx * (csx + 1) * 0.5;
		td = sqrt(dd);
		sd = td - l1 - l2 * psx + softness;
		if (sd > 0) {
			double q = fmin(1, sd / (softness * 2)) - 1;

			q = (sd - softness * (1 - q * q)) / td;
			tx -= q * tx;
			ty -= q * ty;
			dd = tx * tx + ty * ty;
		}
	}
	if (u) {
		double cs;

		l2 *= psx;
		cs = (dd - l1 * l1 - l2 * l2) / (2 * l1 * l2);
		if (cs < -1) {
			cs = -1;
			a2 = M_PI * bend;
		} else if (cs > 1) {
			cs = 1;
			a2 = 0;
			if (stretch) {
				a = (sqrt(dd) / (l1 + l2) - 1) * alpha + 1;
				sx *= a;
				if (uniform)
					sy *= a;
			}
		} else {
			a2 = acos(cs) * bend;
		}
		a = l1 + l2 * cs;
		b = l2 * sin(a2);
		a1 = atan2(ty * a - tx * b, tx * a + ty * b);
	} else {
		ik_ellipse(l1, l2, psx, psy, tx, ty, dd, bend, &a1, &a2);
	}
	os = atan2(cy, cx) * s2;
	rotation = pap.rotation * RAD_DEG;
	a1 = (a1 - os) * RAD_DEG + os1 - rotation;
	if (a1 > 180)
		a1 -= 360;
	else if (a1 < -180)
		a1 += 360;
	update_with(p, parent, px, py, rotation + a1 * alpha, sx, sy, 0, 0);
	rotation = cap.rotation * RAD_DEG;
	a2 = ((a2 + os) * RAD_DEG - cap.shear * RAD_DEG) * s2 + os2 - rotation;
	if (a2 > 180)
		a2 -= 360;
	else if (a2 < -180)
		a2 += 360;
	update_with(p, child, cx, cy, rotation + a2 * alpha, cap.sx, cap.sy,
	            cap.shear * RAD_DEG, cap.skew * RAD_DEG);
}

static void ik_apply(bb_pose *p, const bb_constraint *c, const double *cp)
{
	const bb_affine *t = &p->world[c->target];

	if (cp[BB_CP_IK_MIX] == 0)
		return;
	if (c->nbones == 1)
		ik_one(p, c->bones[0], t->tx, t->ty, cp[BB_CP_IK_COMPRESS] != 0,
		       cp[BB_CP_IK_STRETCH] != 0, c->u.ik.uniform, cp[BB_CP_IK_MIX]);
	else
		ik_two(p, c->bones[0], c->bones[1], t->tx, t->ty, cp[BB_CP_IK_BEND],
		       cp[BB_CP_IK_STRETCH] != 0, c->u.ik.uniform, cp[BB_CP_IK_SOFTNESS],
		       cp[BB_CP_IK_MIX]);
}

/* ---- transform constraints --------------------------------------------- */

static double wrap_pi(double r)
{
	if (r > M_PI)
		return r - 2 * M_PI;
	if (r < -M_PI)
		return r + 2 * M_PI;
	return r;
}

/* Spine's r - 360 * (16384 - (int)(16384.499999999996 - r / 360)): r
 * brought into [-180, 180), degrees. */
static double wrap_deg(double r)
{
	return r - (16384 - (double)(long)(16384.499999999996 - r / 360)) * 360;
}

static void tc_world(bb_pose *p, const bb_constraint *c, const double *cp,
                     int relative)
{
	double mr = cp[BB_CP_TC_ROTATE], mx = cp[BB_CP_TC_X], my = cp[BB_CP_TC_Y];
	double msx = cp[BB_CP_TC_SCALE_X], msy = cp[BB_CP_TC_SCALE_Y];
	double msh = cp[BB_CP_TC_SHEAR_Y];
	sm t = get_sm(p, c->target);
	double reflect = t.a * t.d - t.b * t.c > 0 ? 1 : -1;
	double off_rot = c->u.tc.rotation * reflect, off_shy = c->u.tc.shear_y * reflect;
	double ox = c->u.tc.x * t.a + c->u.tc.y * t.b + t.x;
	double oy = c->u.tc.x * t.c + c->u.tc.y * t.d + t.y;
	int k;

	for (k = 0; k < c->nbones; k++) {
		int bone = c->bones[k];
		sm w = get_sm(p, bone);

		if (mr != 0) {
			double a = w.a, b = w.b, cc = w.c, d = w.d, r, cs, sn;

			r = relative ? atan2(t.c, t.a) + off_rot
			             : atan2(t.c, t.a) - atan2(cc, a) + off_rot;
			r = wrap_pi(r) * mr;
			cs = cos(r);
			sn = sin(r);
			w.a = cs * a - sn * cc;
			w.b = cs * b - sn * d;
			w.c = sn * a + cs * cc;
			w.d = sn * b + cs * d;
		}
		if (mx != 0 || my != 0) {
			if (relative) {
				w.x += ox * mx;
				w.y += oy * my;
			} else {
				w.x += (ox - w.x) * mx;
				w.y += (oy - w.y) * my;
			}
		}
		if (msx != 0) {
			double s;

			if (relative) {
				s = (sqrt(t.a * t.a + t.c * t.c) - 1 + c->u.tc.scale_x) * msx + 1;
			} else {
				s = sqrt(w.a * w.a + w.c * w.c);
				if (s != 0)
					s = (s + (sqrt(t.a * t.a + t.c * t.c) - s + c->u.tc.scale_x) * msx) / s;
			}
			w.a *= s;
			w.c *= s;
		}
		if (msy != 0) {
			double s;

			if (relative) {
				s = (sqrt(t.b * t.b + t.d * t.d) - 1 + c->u.tc.scale_y) * msy + 1;
			} else {
				s = sqrt(w.b * w.b + w.d * w.d);
				if (s != 0)
					s = (s + (sqrt(t.b * t.b + t.d * t.d) - s + c->u.tc.scale_y) * msy) / s;
			}
			w.b *= s;
			w.d *= s;
		}
		if (msh > 0) {
			double b = w.b, d = w.d, s = sqrt(b * b + d * d), r;

			if (relative) {
				r = wrap_pi(atan2(t.d, t.b) - atan2(t.c, t.a));
				r = atan2(d, b) + (r - M_PI / 2 + off_shy) * msh;
			} else {
				double by = atan2(d, b);

				r = atan2(t.d, t.b) - atan2(t.c, t.a) - (by - atan2(w.c, w.a));
				r = by + (wrap_pi(r) + off_shy) * msh;
			}
			w.b = cos(r) * s;
			w.d = sin(r) * s;
		}
		set_sm(p, bone, &w);
		bb__bone_applied_from_world(p, bone);
	}
}

static void tc_local(bb_pose *p, const bb_constraint *c, const double *cp,
                     int relative)
{
	double mr = cp[BB_CP_TC_ROTATE], mx = cp[BB_CP_TC_X], my = cp[BB_CP_TC_Y];
	double msx = cp[BB_CP_TC_SCALE_X], msy = cp[BB_CP_TC_SCALE_Y];
	double msh = cp[BB_CP_TC_SHEAR_Y];
	const bb_xform *t = &p->applied[c->target];
	double t_rot = t->rotation * RAD_DEG, t_shy = t->skew * RAD_DEG;
	double off_rot = c->u.tc.rotation * RAD_DEG, off_shy = c->u.tc.shear_y * RAD_DEG;
	int k;

	for (k = 0; k < c->nbones; k++) {
		int bone = c->bones[k];
		bb_xform b = p->applied[bone];
		double rot = b.rotation * RAD_DEG, shy = b.skew * RAD_DEG;
		double x = b.x, y = b.y, sx = b.sx, sy = b.sy;

		if (relative) {
			rot += (t_rot + off_rot) * mr;
			x += (t->x + c->u.tc.x) * mx;
			y += (t->y + c->u.tc.y) * my;
			sx *= ((t->sx - 1 + c->u.tc.scale_x) * msx) + 1;
			sy *= ((t->sy - 1 + c->u.tc.scale_y) * msy) + 1;
			shy += (t_shy + off_shy) * msh;
		} else {
			if (mr != 0)
				rot += wrap_deg(t_rot - rot + off_rot) * mr;
			x += (t->x - x + c->u.tc.x) * mx;
			y += (t->y - y + c->u.tc.y) * my;
			/* the runtime's formula, a ratio rather than a scale */
			if (msx != 0 && sx != 0)
				sx = (sx + (t->sx - sx + c->u.tc.scale_x) * msx) / sx;
			if (msy != 0 && sy != 0)
				sy = (sy + (t->sy - sy + c->u.tc.scale_y) * msy) / sy;
			if (msh != 0)
				shy += wrap_deg(t_shy - shy + off_shy) * msh;
		}
		update_with(p, bone, x, y, rot, sx, sy, b.shear * RAD_DEG, shy);
	}
}

static void tc_apply(bb_pose *p, const bb_constraint *c, const double *cp)
{
	if (cp[BB_CP_TC_ROTATE] == 0 && cp[BB_CP_TC_X] == 0 && cp[BB_CP_TC_Y] == 0 &&
	    cp[BB_CP_TC_SCALE_X] == 0 && cp[BB_CP_TC_SCALE_Y] == 0 &&
	    cp[BB_CP_TC_SHEAR_Y] == 0)
		return;
	if (c->u.tc.local)
		tc_local(p, c, cp, c->u.tc.relative);
	else
		tc_world(p, c, cp, c->u.tc.relative);
}

void bb__constraint_apply(bb_pose *p, int k)
{
	const bb_constraint *c = &p->a->cons[k];
	const double *cp = p->cparams + (size_t)k * BB_CP_MAX;

	switch (c->kind) {
	case BB_CON_IK:
		ik_apply(p, c, cp);
		return;
	case BB_CON_TRANSFORM:
		tc_apply(p, c, cp);
		return;
	case BB_CON_PATH:
		bb__path_apply(p, k);
		return;
	case BB_CON_PHYSICS:
		bb__physics_apply(p, k);
		return;
	}
}
