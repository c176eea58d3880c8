/* World transforms: the inherit modes (matrix product, DragonBones flags,
 * Cocos component-wise, Spine's four), DragonBones IK constraints, and the
 * update order (bones and constraints) an armature may give. */
#include "config.h"

#include <math.h>

#include "core/util.h"
#include "eval/pose.h"

/* DragonBones' Transform.fromMatrix; the previous scales in *g decide how a
 * negative scale folds into the angles. */
static void from_matrix(bb_affine m, bb_xform *g)
{
	const double q = M_PI / 4;
	double skx = atan(-m.c / m.d), sky = atan(m.b / m.a), sx, sy;

	if (skx != skx)
		skx = 0;
	if (sky != sky)
		sky = 0;
	sy = (skx > -q && skx < q) ? m.d / cos(skx) : -m.c / sin(skx);
	sx = (sky > -q && sky < q) ? m.a / cos(sky) : m.b / sin(sky);
	if (g->sx >= 0 && sx < 0) {
		sx = -sx;
		sky -= M_PI;
	}
	if (g->sy >= 0 && sy < 0) {
		sy = -sy;
		skx -= M_PI;
	}
	g->x = m.tx;
	g->y = m.ty;
	g->rotation = sky;
	g->skew = skx - sky;
	g->sx = sx;
	g->sy = sy;
}

/* A bone's decomposed world transform, derived on first use. */
static bb_xform *global_of(bb_pose *p, int i)
{
	if (p->wx_stale[i]) {
		from_matrix(p->world[i], &p->wx[i]);
		p->wx_stale[i] = 0;
	}
	return &p->wx[i];
}

/* Bone._updateGlobalTransformMatrix of the DragonBones 5.5+ runtime
 * (armature not flipped; flip is the figure matrix at the roots). */
static bb_affine flags_world(bb_pose *p, int i, const bb_xform *l)
{
	const bb_bone *b = &p->a->bones[i];
	bb_affine par = p->world[b->parent], m;
	bb_xform g = *l;
	unsigned f = b->flags;

	if (f & BB_INHERIT_SCALE) {
		if (!(f & BB_INHERIT_ROTATION))
			g.rotation -= global_of(p, b->parent)->rotation;
		m = bb_affine_mul(par, bb__xform_matrix(&g));
		if (!(f & BB_INHERIT_TRANSLATION)) {
			m.tx = g.x;
			m.ty = g.y;
		}
		p->wx[i] = g;
		p->wx_stale[i] = 1;
		return m;
	}
	if (f & BB_INHERIT_TRANSLATION) {
		bb_vec2 v = bb_affine_apply(par, g.x, g.y);

		g.x = v.x;
		g.y = v.y;
	}
	if (f & BB_INHERIT_ROTATION) {
		const bb_xform *pg = global_of(p, b->parent);
		double rot = g.rotation + pg->rotation + (pg->sx < 0 ? M_PI : 0);

		if (par.a * par.d - par.b * par.c < 0) {
			rot -= 2 * g.rotation;
			if (f & BB_INHERIT_REFLECTION)
				g.skew += M_PI;
		}
		g.rotation = rot;
	}
	p->wx[i] = g;
	p->wx_stale[i] = 0;
	return bb__xform_matrix(&g);
}

/* Cocos: position through the parent's matrix, scales multiplied, rotation
 * and skew added; the figure's linear part applies on top. */
static bb_affine componentwise(bb_pose *p, int i, const bb_xform *l)
{
	int parent = p->a->bones[i].parent;
	const bb_xform *pw = &p->wx[parent];
	bb_vec2 pos = bb_affine_apply(p->world[parent], l->x, l->y);
	bb_xform *wx = &p->wx[i], lin;
	bb_affine m;

	wx->x = pos.x;
	wx->y = pos.y;
	wx->rotation = pw->rotation + l->rotation;
	wx->skew = pw->skew + l->skew;
	wx->sx = pw->sx * l->sx;
	wx->sy = pw->sy * l->sy;
	lin = *wx;
	lin.x = lin.y = 0;
	m = bb_affine_mul(p->fig, bb__xform_matrix(&lin));
	m.tx = pos.x;
	m.ty = pos.y;
	p->wx_stale[i] = 0;
	return m;
}

/* Spine's inherit modes other than normal (Bone.updateWorldTransformWith):
 * the position through the parent's matrix, the linear part rebuilt from
 * the parent's as the mode says, then the figure's linear part (a diagonal
 * skeleton scale) on top.  Spine names the matrix rows (a b; c d): here
 * a = m.a, b = m.c, c = m.b, d = m.d. */
static bb_affine spine_world(const bb_pose *p, int i, const bb_xform *l,
                             bb_inherit mode)
{
	const bb_affine *par = &p->world[p->a->bones[i].parent];
	double pa = par->a, pb = par->c, pc = par->b, pd = par->d;
	double ssx = p->fig.a, ssy = p->fig.d;
	double a, b, c, d, la, lb, lc, ld, s, prx, rx, ry;
	bb_vec2 w = bb_affine_apply(*par, l->x, l->y);
	bb_affine m;

	switch (mode) {
	case BB_INHERIT_NO_ROTATION_OR_REFLECTION:
		s = pa * pa + pc * pc;
		if (s > 0.0001) {
			s = fabs(pa * pd - pb * pc) / s;
			pa /= ssx;
			pc /= ssy;
			pb = pc * s;
			pd = pa * s;
			prx = atan2(pc, pa);
		} else {
			pa = 0;
			pc = 0;
			prx = M_PI / 2 - atan2(pd, pb);
		}
		rx = l->rotation + l->shear - prx;
		ry = l->rotation + l->skew - prx + M_PI / 2;
		la = cos(rx) * l->sx;
		lb = cos(ry) * l->sy;
		lc = sin(rx) * l->sx;
		ld = sin(ry) * l->sy;
		a = pa * la - pb * lc;
		b = pa * lb - pb * ld;
		c = pc * la + pd * lc;
		d = pc * lb + pd * ld;
		break;
	case BB_INHERIT_NO_SCALE:
	case BB_INHERIT_NO_SCALE_OR_REFLECTION: {
		double cs = cos(l->rotation), sn = sin(l->rotation);
		double za = (pa * cs + pb * sn) / ssx, zc = (pc * cs + pd * sn) / ssy;
		double zb, zd, r;

		s = sqrt(za * za + zc * zc);
		if (s > 0.00001)
			s = 1 / s;
		za *= s;
		zc *= s;
		s = sqrt(za * za + zc * zc);
		if (mode == BB_INHERIT_NO_SCALE &&
		    (pa * pd - pb * pc < 0) != ((ssx < 0) != (ssy < 0)))
			s = -s;
		r = M_PI / 2 + atan2(zc, za);
		zb = cos(r) * s;
		zd = sin(r) * s;
		la = cos(l->shear) * l->sx;
		lb = cos(M_PI / 2 + l->skew) * l->sy;
		lc = sin(l->shear) * l->sx;
		ld = sin(M_PI / 2 + l->skew) * l->sy;
		a = za * la + zb * lc;
		b = za * lb + zb * ld;
		c = zc * la + zd * lc;
		d = zc * lb + zd * ld;
		break;
	}
	default: {   /* BB_INHERIT_ONLY_TRANSLATION */
		bb_affine lm = bb__xform_matrix(l);

		a = lm.a;
		b = lm.c;
		c = lm.b;
		d = lm.d;
		break;
	}
	}
	m.a = a * ssx;
	m.c = b * ssx;
	m.b = c * ssy;
	m.d = d * ssy;
	m.tx = w.x;
	m.ty = w.y;
	return m;
}

static void bone_world_with(bb_pose *p, int i, const bb_xform *l)
{
	const bb_bone *b = &p->a->bones[i];

	if (b->parent < 0) {
		p->wx[i] = *l;
		p->wx_stale[i] = 0;
		p->world[i] = bb_affine_mul(p->fig, bb__xform_matrix(l));
		if (p->fig.a != 1 || p->fig.b != 0 || p->fig.c != 0 || p->fig.d != 1)
			p->wx_stale[i] = 1;
		return;
	}
	switch ((bb_inherit)p->inherit[i]) {
	case BB_INHERIT_COMPONENTWISE:
		p->world[i] = componentwise(p, i, l);
		return;
	case BB_INHERIT_FLAGS:
		p->world[i] = flags_world(p, i, l);
		return;
	case BB_INHERIT_ONLY_TRANSLATION:
	case BB_INHERIT_NO_ROTATION_OR_REFLECTION:
	case BB_INHERIT_NO_SCALE:
	case BB_INHERIT_NO_SCALE_OR_REFLECTION:
		p->world[i] = spine_world(p, i, l, (bb_inherit)p->inherit[i]);
		p->wx[i] = *l;
		p->wx_stale[i] = 1;
		return;
	case BB_INHERIT_MATRIX:
		break;
	}
	p->world[i] = bb_affine_mul(p->world[b->parent], bb__xform_matrix(l));
	p->wx[i] = *l;
	p->wx_stale[i] = 1;
}

static void bone_world(bb_pose *p, int i)
{
	bone_world_with(p, i, &p->local[i]);
}

void bb__bone_update(bb_pose *p, int i, const bb_xform *l)
{
	p->applied[i] = *l;
	bone_world_with(p, i, l);
}

/* Bone.updateAppliedTransform of Spine 4.2, angles in radians. */
void bb__bone_applied_from_world(bb_pose *p, int i)
{
	const bb_bone *bn = &p->a->bones[i];
	const bb_affine *w = &p->world[i];
	double a = w->a, b = w->c, c = w->b, d = w->d;
	double ssx = p->fig.a, ssy = p->fig.d;
	double pa, pb, pc, pd, pid, ia, ib, ic, id, dx, dy, ra, rb, rc, rd;
	bb_xform *ap = &p->applied[i];
	const bb_affine *par;

	if (bn->parent < 0) {
		ap->x = w->tx;
		ap->y = w->ty;
		ap->rotation = atan2(c, a);
		ap->sx = sqrt(a * a + c * c);
		ap->sy = sqrt(b * b + d * d);
		ap->shear = 0;
		ap->skew = atan2(a * b + c * d, a * d - b * c);
		return;
	}
	par = &p->world[bn->parent];
	pa = par->a;
	pb = par->c;
	pc = par->b;
	pd = par->d;
	pid = 1 / (pa * pd - pb * pc);
	ia = pd * pid;
	ib = pb * pid;
	ic = pc * pid;
	id = pa * pid;
	dx = w->tx - par->tx;
	dy = w->ty - par->ty;
	ap->x = dx * ia - dy * ib;
	ap->y = dy * id - dx * ic;
	if (p->inherit[i] == BB_INHERIT_ONLY_TRANSLATION) {
		ra = a;
		rb = b;
		rc = c;
		rd = d;
	} else {
		if (p->inherit[i] == BB_INHERIT_NO_ROTATION_OR_REFLECTION) {
			double s = fabs(pa * pd - pb * pc) / (pa * pa + pc * pc);
			double sa = pa / ssx, sc = pc / ssy;

			pb = -sc * s * ssx;
			pd = sa * s * ssy;
			pid = 1 / (pa * pd - pb * pc);
			ia = pd * pid;
			ib = pb * pid;
		} else if (p->inherit[i] == BB_INHERIT_NO_SCALE ||
		           p->inherit[i] == BB_INHERIT_NO_SCALE_OR_REFLECTION) {
			double cs = cos(p->local[i].rotation), sn = sin(p->local[i].rotation);
			double s, r;

			pa = (pa * cs + pb * sn) / ssx;
			pc = (pc * cs + pd * sn) / ssy;
			s = sqrt(pa * pa + pc * pc);
			if (s > 0.00001)
				s = 1 / s;
			pa *= s;
			pc *= s;
			s = sqrt(pa * pa + pc * pc);
			if (p->inherit[i] == BB_INHERIT_NO_SCALE &&
			    (pid < 0) != ((ssx < 0) != (ssy < 0)))
				s = -s;
			r = M_PI / 2 + atan2(pc, pa);
			pb = cos(r) * s;
			pd = sin(r) * s;
			pid = 1 / (pa * pd - pb * pc);
			ia = pd * pid;
			ib = pb * pid;
			ic = pc * pid;
			id = pa * pid;
		}
		ra = ia * a - ib * c;
		rb = ia * b - ib * d;
		rc = id * c - ic * a;
		rd = id * d - ic * b;
	}
	ap->shear = 0;
	ap->sx = sqrt(ra * ra + rc * rc);
	if (ap->sx > 0.0001) {
		double det = ra * rd - rb * rc;

		ap->sy = det / ap->sx;
		ap->skew = -atan2(ra * rb + rc * rd, det);
		ap->rotation = atan2(rc, ra);
	} else {
		ap->sx = 0;
		ap->sy = sqrt(rb * rb + rd * rd);
		ap->skew = 0;
		ap->rotation = M_PI / 2 - atan2(rd, rb);
	}
}

/* ---- IK (DragonBones IKConstraint._computeA/_computeB) ---------------- */

static void set_global(bb_pose *p, int i, const bb_xform *g)
{
	p->wx[i] = *g;
	p->wx_stale[i] = 0;
	p->world[i] = bb__xform_matrix(g);
	p->moved[i] = 1;
}

static void ik_one(bb_pose *p, int root, bb_vec2 t, double w)
{
	bb_xform g = *global_of(p, root);
	double rad = atan2(t.y - g.y, t.x - g.x);

	if (g.sx < 0)
		rad += M_PI;
	g.rotation += bb__norm_angle(rad - g.rotation) * w;
	set_global(p, root, &g);
}

static void ik_two(bb_pose *p, int bone, bb_vec2 t, double w, int bend_positive)
{
	int parent = p->a->bones[bone].parent, pp = p->a->bones[parent].parent;
	bb_xform pg = *global_of(p, parent), g = *global_of(p, bone);
	bb_affine cm = p->world[bone];
	double len = p->a->bones[bone].length;
	double x = cm.a * len, y = cm.b * len;
	double lLL = x * x + y * y, lL = sqrt(lLL);
	double dx = g.x - pg.x, dy = g.y - pg.y;
	double lPP = dx * dx + dy * dy, lP = sqrt(lPP);
	double raw = g.rotation, raw_parent = pg.rotation, raw_a = atan2(dy, dx);
	double lTT, lT, rad_a, dr, cur_a, rad_b;

	dx = t.x - pg.x;
	dy = t.y - pg.y;
	lTT = dx * dx + dy * dy;
	lT = sqrt(lTT);
	if (lL + lP <= lT || lT + lL <= lP || lT + lP <= lL) {
		rad_a = atan2(t.y - pg.y, t.x - pg.x);
		if (!(lL + lP <= lT) && lP < lL)
			rad_a += M_PI;
	} else {
		double h = (lPP - lLL + lTT) / (2 * lTT);
		double r = sqrt(lPP - h * h * lTT) / lT;
		double hx = pg.x + dx * h, hy = pg.y + dy * h;
		double rx = -dy * r, ry = dx * r;
		int neg = 0;

		if (pp >= 0) {
			bb_affine m = p->world[pp];
			neg = m.a * m.d - m.b * m.c < 0;
		}
		if (neg != bend_positive) {
			g.x = hx - rx;
			g.y = hy - ry;
		} else {
			g.x = hx + rx;
			g.y = hy + ry;
		}
		rad_a = atan2(g.y - pg.y, g.x - pg.x);
	}
	dr = bb__norm_angle(rad_a - raw_a);
	pg.rotation = raw_parent + dr * w;
	set_global(p, parent, &pg);
	cur_a = raw_a + dr * w;
	g.x = pg.x + cos(cur_a) * lP;
	g.y = pg.y + sin(cur_a) * lP;
	rad_b = atan2(t.y - g.y, t.x - g.x);
	if (g.sx < 0)
		rad_b += M_PI;
	g.rotation = pg.rotation + raw - raw_parent +
	             bb__norm_angle(rad_b - dr - raw) * w;
	set_global(p, bone, &g);
}

static void apply_iks(bb_pose *p)
{
	const bb_armature *a = p->a;
	int k, i;

	for (k = 0; k < a->niks; k++) {
		const bb_ik *ik = &a->iks[k];
		bb_vec2 t = { p->world[ik->target].tx, p->world[ik->target].ty };

		if (p->ik_weight[k] == 0)
			continue;
		for (i = 0; i < a->nbones; i++)
			p->moved[i] = 0;
		if (ik->chain)
			ik_two(p, ik->bone, t, p->ik_weight[k], p->ik_bend[k]);
		else
			ik_one(p, ik->bone, t, p->ik_weight[k]);
		/* descendants follow the bones the constraint moved */
		for (i = 0; i < a->nbones; i++) {
			int par = a->bones[i].parent;

			if (par >= 0 && p->moved[par] && !p->moved[i]) {
				bone_world(p, i);
				p->moved[i] = 1;
			}
		}
	}
}

/* Bones and constraints in the armature's update order (Spine's update
 * cache): every bone's applied transform starts as its local one. */
static void update_in_order(bb_pose *p)
{
	const bb_armature *a = p->a;
	int i;

	for (i = 0; i < a->nbones; i++)
		p->applied[i] = p->local[i];
	for (i = 0; i < a->nupdate; i++) {
		const bb_update *u = &a->update[i];

		if (u->constraint) {
			if (p->con_active[u->index])
				bb__constraint_apply(p, u->index);
		} else {
			bone_world_with(p, u->index, &p->applied[u->index]);
		}
	}
}

void bb__world_transforms(bb_pose *p, const bb_eval_options *o)
{
	int i;

	(void)o;
	if (p->a->nupdate) {
		update_in_order(p);
		return;
	}
	for (i = 0; i < p->a->nbones; i++)
		bone_world(p, i);
	if (p->a->niks)
		apply_iks(p);
}
