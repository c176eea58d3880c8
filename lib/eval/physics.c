/* Physics constraints (Spine 4.2's PhysicsConstraint): a bone's world
 * position, rotation, shear and scale pulled back towards where it was by
 * damped springs (inertia, strength, damping, mass, wind, gravity), mixed.
 *
 * The state is per pose and the figure clock is p->phys_time: the pose
 * evaluation steps physics from t = 0 at the armature's physics step
 * (pose.c simulate_physics), so every frame is a pure function of t.  The
 * world is y down (the figure matrix flips y), so gravity pulls towards
 * +y as Spine's runtime makes it for y-down engines (Skeleton.yDown). */
#include "config.h"

#include <math.h>
#include <string.h>

#include "eval/pose.h"

struct bb__phys {
	int reset;
	double ux, uy, cx, cy, tx, ty;
	double x_off, x_vel, y_off, y_vel, rot_off, rot_vel, scale_off, scale_vel;
	double remaining, last_time;
};

/* Whether `remaining` seconds hold another step of t: the steps' clock is
 * k * step (pose.c), whose differences may fall an ulp short of the step;
 * within 1e-9 s counts, so a step is never skipped nor doubled. */
static int due(double remaining, double t)
{
	return remaining >= t - 1e-9;
}

size_t bb__physics_state_size(void)
{
	return sizeof(struct bb__phys);
}

void bb__physics_reset(bb_pose *p, int k)
{
	struct bb__phys *s = &p->phys[k];

	memset(s, 0, sizeof *s);
	s->reset = 1;
	s->last_time = p->phys_time;
}

/* The spring steps of the x and y offsets; returns the damping used
 * (-1 when no step ran). */
static double step_xy(struct bb__phys *s, const bb_constraint *c, const double *cp,
                      double *a, double sx, double sy, int x, int y)
{
	double t = c->u.phys.step, f = c->u.phys.reference_scale, d = -1;

	if (due(*a, t)) {
		double m = t / cp[BB_CP_PH_MASS], e = cp[BB_CP_PH_STRENGTH];
		double w = cp[BB_CP_PH_WIND] * f * sx, g = cp[BB_CP_PH_GRAVITY] * f * sy;

		d = pow(cp[BB_CP_PH_DAMPING], 60 * t);
		do {
			if (x) {
				s->x_vel += (w - s->x_off * e) * m;
				s->x_off += s->x_vel * t;
				s->x_vel *= d;
			}
			if (y) {
				s->y_vel -= (g + s->y_off * e) * m;
				s->y_off += s->y_vel * t;
				s->y_vel *= d;
			}
			*a -= t;
		} while (due(*a, t));
	}
	return d;
}

/* Rotation (and shear) and scale offsets, Spine's update branch. */
static void step_rotate(bb_pose *p, struct bb__phys *s, const bb_constraint *c,
                        const double *cp, bb_affine *m, double qx, double qy,
                        double d, int rotate, int scale)
{
	double mix = cp[BB_CP_PH_MIX], i = cp[BB_CP_PH_INERTIA], t = c->u.phys.step;
	double l = p->a->bones[c->bones[0]].length, ca = atan2(m->b, m->a);
	double dx = s->cx - m->tx, dy = s->cy - m->ty, cs, sn, mr = 0, a, r;

	dx = dx > qx ? qx : dx < -qx ? -qx : dx;
	dy = dy > qy ? qy : dy < -qy ? -qy : dy;
	if (rotate) {
		mr = (c->u.phys.rotate + c->u.phys.shear_x) * mix;
		r = atan2(dy + s->ty, dx + s->tx) - ca - s->rot_off * mr;
		s->rot_off += (r - ceil(r / (2 * M_PI) - 0.5) * 2 * M_PI) * i;
		r = s->rot_off * mr + ca;
		cs = cos(r);
		sn = sin(r);
		if (scale) {
			r = l * sqrt(m->a * m->a + m->b * m->b);
			if (r > 0)
				s->scale_off += (dx * cs + dy * sn) * i / r;
		}
	} else {
		cs = cos(ca);
		sn = sin(ca);
		r = l * sqrt(m->a * m->a + m->b * m->b);
		if (r > 0)
			s->scale_off += (dx * cs + dy * sn) * i / r;
	}
	a = s->remaining;
	if (due(a, t)) {
		double mm = t / cp[BB_CP_PH_MASS], e = cp[BB_CP_PH_STRENGTH];
		double w = cp[BB_CP_PH_WIND];
		double g = p->fig.d < 0 ? -cp[BB_CP_PH_GRAVITY] : cp[BB_CP_PH_GRAVITY];
		double h = l / c->u.phys.reference_scale;

		if (d == -1)
			d = pow(cp[BB_CP_PH_DAMPING], 60 * t);
		for (;;) {
			a -= t;
			if (scale) {
				s->scale_vel += (w * cs - g * sn - s->scale_off * e) * mm;
				s->scale_off += s->scale_vel * t;
				s->scale_vel *= d;
			}
			if (rotate) {
				s->rot_vel -= ((w * sn + g * cs) * h + s->rot_off * e) * mm;
				s->rot_off += s->rot_vel * t;
				s->rot_vel *= d;
				if (!due(a, t))
					break;
				r = s->rot_off * mr + ca;
				cs = cos(r);
				sn = sin(r);
			} else if (!due(a, t)) {
				break;
			}
		}
	}
	s->remaining = a;
}

void bb__physics_apply(bb_pose *p, int k)
{
	const bb_constraint *c = &p->a->cons[k];
	const double *cp = p->cparams + (size_t)k * BB_CP_MAX;
	struct bb__phys *s = &p->phys[k];
	int bone = c->bones[0];
	bb_affine *m = &p->world[bone];
	double mix = cp[BB_CP_PH_MIX], l = p->a->bones[bone].length;
	int x = c->u.phys.x > 0, y = c->u.phys.y > 0;
	int rotate = c->u.phys.rotate > 0 || c->u.phys.shear_x > 0;
	int scale = c->u.phys.scale_x > 0;

	if (mix == 0)
		return;
	if (p->phys_step) {
		double delta = fmax(p->phys_time - s->last_time, 0);
		double bx = m->tx, by = m->ty;

		s->remaining += delta;
		s->last_time = p->phys_time;
		if (s->reset) {
			s->reset = 0;
			s->ux = bx;
			s->uy = by;
		} else {
			double a = s->remaining, i = cp[BB_CP_PH_INERTIA], d = -1;
			double qx = c->u.phys.limit * delta, qy = qx * fabs(p->fig.d);

			qx *= fabs(p->fig.a);
			if (x || y) {
				if (x) {
					double u = (s->ux - bx) * i;

					s->x_off += u > qx ? qx : u < -qx ? -qx : u;
					s->ux = bx;
				}
				if (y) {
					double u = (s->uy - by) * i;

					s->y_off += u > qy ? qy : u < -qy ? -qy : u;
					s->uy = by;
				}
				d = step_xy(s, c, cp, &a, p->fig.a, p->fig.d, x, y);
				if (x)
					m->tx += s->x_off * mix * c->u.phys.x;
				if (y)
					m->ty += s->y_off * mix * c->u.phys.y;
			}
			if (rotate || scale)
				step_rotate(p, s, c, cp, m, qx, qy, d, rotate, scale);
			else
				s->remaining = a;
		}
		s->cx = m->tx;
		s->cy = m->ty;
	} else {
		if (x)
			m->tx += s->x_off * mix * c->u.phys.x;
		if (y)
			m->ty += s->y_off * mix * c->u.phys.y;
	}
	if (rotate) {
		double o = s->rot_off * mix, sn, cs, a;

		if (c->u.phys.shear_x > 0) {
			double r = 0;

			if (c->u.phys.rotate > 0) {
				r = o * c->u.phys.rotate;
				sn = sin(r);
				cs = cos(r);
				a = m->c;                  /* Spine's b */
				m->c = cs * a - sn * m->d;
				m->d = sn * a + cs * m->d;
			}
			r += o * c->u.phys.shear_x;
			sn = sin(r);
			cs = cos(r);
			a = m->a;
			m->a = cs * a - sn * m->b;         /* Spine's c is m->b */
			m->b = sn * a + cs * m->b;
		} else {
			o *= c->u.phys.rotate;
			sn = sin(o);
			cs = cos(o);
			a = m->a;
			m->a = cs * a - sn * m->b;
			m->b = sn * a + cs * m->b;
			a = m->c;
			m->c = cs * a - sn * m->d;
			m->d = sn * a + cs * m->d;
		}
	}
	if (scale) {
		double sc = 1 + s->scale_off * mix * c->u.phys.scale_x;

		m->a *= sc;
		m->b *= sc;
	}
	if (p->phys_step) {
		s->tx = l * m->a;
		s->ty = l * m->b;
	}
	p->wx_stale[bone] = 1;
	bb__bone_applied_from_world(p, bone);
}
