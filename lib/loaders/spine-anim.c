/* Spine animations: every timeline of 4.x and 3.8 data into model
 * timelines.  Keys are stored as the runtime stores them (32-bit floats),
 * Bezier curves flattened as it flattens them (9 points, forward
 * differencing), and a timeline whose first key is after 0 gets a stepped
 * setup key at 0 (the runtime shows the setup pose before the first key).
 * The mapping:
 *
 *   rotate / translate(x|y) / scale(x|y) / shear(x|y)
 *                  -> BB_TL_BONE, one timeline per value (each keeps its
 *                     own curve); rotation and shear add, scale multiplies
 *   inherit        -> BB_TL_BONE_INHERIT
 *   attachment     -> BB_TL_SLOT_DISPLAY (the name's index in the slot)
 *   rgba rgb alpha rgba2 rgb2 (3.8: color, twoColor)
 *                  -> BB_TL_SLOT_TINT with the channels they set
 *   ik / transform / path / physics
 *                  -> BB_TL_CONSTRAINT (IK: mix and softness interpolated,
 *                     bend, compress and stretch stepped); physics reset ->
 *                     BB_TL_PHYSICS_RESET
 *   deform         -> BB_TL_DEFORM (offsets from the setup vertices)
 *   sequence       -> BB_TL_SEQUENCE
 *   drawOrder      -> BB_TL_DRAW_ORDER (offsets resolved to the full order)
 *   events         -> bb_event */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "loaders/spine-keys.h"


/* ---- walking { NAME: { KIND: [keys] } } -------------------------------- */

enum { UNKNOWN = -2 };     /* a find's answer: no such name */

/* The index a timeline group's name stands for (UNKNOWN: none). */
typedef int (*find_fn)(const bb__sp *sp, const char *name);
/* One timeline (kind NULL: the group holds one list per name) of idx. */
typedef bb_status (*timeline_fn)(struct bb__sp_anim *am, int idx,
                                 const char *kind, json_t *list);

/* Every NAME of map, found by find ("unknown <what> NAME" if not), and
 * with nested every KIND of its object, read by fn, errors at their
 * paths. */
static bb_status each_named(struct bb__sp_anim *am, json_t *map, const char *what,
                            find_fn find, int nested, timeline_fn fn)
{
	bb__sp *sp = am->sp;
	bb__jiter names, kinds;
	json_t *v, *list;
	bb_status s;

	if ((s = bb__jeach_member(sp->j, map, NULL, 0, &names)) != BB_OK)
		return s;
	while (bb__jnext(&names, &v)) {
		int idx = find(sp, names.key);

		if (idx == UNKNOWN)
			return bb__jfail(sp->j, NULL, "unknown %s \"%s\"", what, names.key);
		if (!nested) {
			if ((s = fn(am, idx, NULL, v)) != BB_OK)
				return s;
			continue;
		}
		if ((s = bb__jeach_member(sp->j, v, NULL, 0, &kinds)) != BB_OK)
			return s;
		while (bb__jnext(&kinds, &list))
			if ((s = fn(am, idx, kinds.key, list)) != BB_OK)
				return s;
	}
	return BB_OK;
}

/* ---- slot timelines ---------------------------------------------------- */

static bb_status attachment_timeline(struct bb__sp_anim *am, int slot, json_t *list)
{
	bb__sp *sp = am->sp;
	struct bb__sp_keys k;
	struct bb__sp_spec s;
	size_t i;
	bb_status st;

	if ((st = bb__sp_read_keys(am, list, 1, NULL, NULL, &k)) != BB_OK)
		goto done;
	for (i = 0; i < (size_t)k.n; i++) {
		const char *name;
		size_t mark = bb__jpath_index(&sp->j->path, i);

		if ((st = bb__jstr(sp->j, k.map[i], "name", 0, &name)) != BB_OK)
			goto done;
		k.val[i] = bb__sp_name_index(sp, slot, name);
		bb__jpath_pop(&sp->j->path, mark);
	}
	bb__sp_spec_init(&s, BB_TL_SLOT_DISPLAY, slot, 1);
	s.stepped = 1;
	s.setup[0] = sp->a->slots[slot].setup_display;
	st = bb__sp_emit(am, &k, &s);
done:
	bb__sp_free_keys(&k);
	return st;
}

static bb_status tint_timeline(struct bb__sp_anim *am, int slot, json_t *list,
                               const char *kind)
{
	bb__sp *sp = am->sp;
	const bb_color_xform *c = &sp->a->slots[slot].color;
	double setup[7] = { c->mul.r, c->mul.g, c->mul.b, c->mul.a, c->dark.r,
	                    c->dark.g, c->dark.b };
	struct bb__sp_color_spec cs = { "color", NULL, 1 };
	struct bb__sp_names2 alpha = { "value", NULL, 0, 0, 0 };
	unsigned ch;
	struct bb__sp_keys k;
	struct bb__sp_spec s;
	int nv, i, j;
	bb_status st;

	if (strcmp(kind, "alpha") == 0) {
		ch = BB_CH_A;
		st = bb__sp_read_keys(am, list, 1, bb__sp_read_pair, &alpha, &k);
	} else {
		if (strcmp(kind, "rgb") == 0) {
			ch = BB_CH_R | BB_CH_G | BB_CH_B;
			cs.alpha = 0;
		} else if (strcmp(kind, "rgba") == 0 || strcmp(kind, "color") == 0) {
			ch = BB_CH_R | BB_CH_G | BB_CH_B | BB_CH_A | BB_CH_CLAMP;
		} else {           /* rgba2, twoColor, rgb2 */
			cs.light = "light";
			cs.dark = "dark";
			cs.alpha = strcmp(kind, "rgb2") != 0;
			ch = BB_CH_R | BB_CH_G | BB_CH_B | BB_CH_DARK_R | BB_CH_DARK_G |
			     BB_CH_DARK_B | (cs.alpha ? BB_CH_A | BB_CH_CLAMP : 0);
		}
		for (nv = 0, i = 0; i < 7; i++)
			nv += (ch >> i) & 1;
		st = bb__sp_read_keys(am, list, nv, bb__sp_read_color, &cs, &k);
	}
	if (st == BB_OK) {
		for (nv = 0, i = 0; i < 7; i++)
			nv += (ch >> i) & 1;
		bb__sp_spec_init(&s, BB_TL_SLOT_TINT, slot, nv);
		s.channels = ch;
		for (i = 0, j = 0; i < 7; i++)
			if (ch & (1u << i))
				s.setup[j++] = setup[i];
		st = bb__sp_emit(am, &k, &s);
	}
	bb__sp_free_keys(&k);
	return st;
}

static int find_slot(const bb__sp *sp, const char *name)
{
	int i = bb__sp_slot(sp, name);

	return i < 0 ? UNKNOWN : i;
}

static bb_status slot_timeline(struct bb__sp_anim *am, int slot, const char *kind,
                               json_t *list)
{
	bb__sp *sp = am->sp;

	if (strcmp(kind, "attachment") == 0)
		return attachment_timeline(am, slot, list);
	if ((!sp->v3 && (strcmp(kind, "rgba") == 0 || strcmp(kind, "rgb") == 0 ||
	                 strcmp(kind, "alpha") == 0 || strcmp(kind, "rgba2") == 0 ||
	                 strcmp(kind, "rgb2") == 0)) ||
	    (sp->v3 && (strcmp(kind, "color") == 0 || strcmp(kind, "twoColor") == 0)))
		return tint_timeline(am, slot, list, kind);
	return bb__jfail(sp->j, NULL, "unknown slot timeline");
}

/* ---- bone timelines ---------------------------------------------------- */

/* 3.8 interpolates rotations the shorter way: unwrap the key values so a
 * linear interpolation does the same. */
static void unwrap_degrees(struct bb__sp_keys *k)
{
	int i;

	for (i = 1; i < k->n; i++) {
		double d = bb__sp_f32(k->val[i]) - bb__sp_f32(k->val[i - 1]);

		d -= (16384 - (double)(long)(16384.499999999996 - d / 360)) * 360;
		k->val[i] = k->val[i - 1] + d;
	}
}

static bb_status bone_timeline(struct bb__sp_anim *am, int bone, const char *kind,
                               json_t *list)
{
	bb__sp *sp = am->sp;
	struct bb__sp_names2 nm = { "value", NULL, 0, 0, 0 };
	bb_prop p1 = BB_PROP_X, p2 = BB_PROP_Y;
	bb_apply how = BB_APPLY_ADD;
	double sc = 1;
	int two = 0, one_prop = -1;
	struct bb__sp_keys k;
	struct bb__sp_spec s;
	bb_status st;

	if (strcmp(kind, "rotate") == 0) {
		p1 = BB_PROP_ROTATION;
		sc = BB__DEG;
		if (sp->v3)
			nm.a = "angle";
	} else if (strcmp(kind, "translate") == 0 || strcmp(kind, "scale") == 0 ||
	           strcmp(kind, "shear") == 0) {
		two = 1;
		nm.a = "x";
		nm.b = "y";
		if (kind[1] == 'c') {
			p1 = BB_PROP_SCALE_X;
			p2 = BB_PROP_SCALE_Y;
			how = BB_APPLY_MUL;
			nm.def_a = nm.def_b = 1;
		} else if (kind[1] == 'h') {
			p1 = BB_PROP_SHEAR;
			p2 = BB_PROP_SKEW;
			sc = BB__DEG;
		}
	} else if (!sp->v3 && (strcmp(kind, "translatex") == 0 || strcmp(kind, "translatey") == 0)) {
		one_prop = kind[9] == 'x' ? BB_PROP_X : BB_PROP_Y;
	} else if (!sp->v3 && (strcmp(kind, "scalex") == 0 || strcmp(kind, "scaley") == 0)) {
		one_prop = kind[5] == 'x' ? BB_PROP_SCALE_X : BB_PROP_SCALE_Y;
		how = BB_APPLY_MUL;
		nm.def_a = 1;
	} else if (!sp->v3 && (strcmp(kind, "shearx") == 0 || strcmp(kind, "sheary") == 0)) {
		one_prop = kind[5] == 'x' ? BB_PROP_SHEAR : BB_PROP_SKEW;
		sc = BB__DEG;
	} else if (!sp->v3 && strcmp(kind, "inherit") == 0) {
		return bb__jfail(sp->j, NULL, "internal: inherit");
	} else {
		return bb__jfail(sp->j, NULL, "unknown bone timeline");
	}
	if (one_prop >= 0)
		p1 = (bb_prop)one_prop;
	if ((st = bb__sp_read_keys(am, list, two ? 2 : 1, bb__sp_read_pair, &nm, &k)) != BB_OK)
		goto done;
	if (sp->v3 && p1 == BB_PROP_ROTATION)
		unwrap_degrees(&k);
	bb__sp_spec_init(&s, BB_TL_BONE, bone, 1);
	s.prop = p1;
	s.apply = how;
	s.scale[0] = sc;
	s.setup[0] = how == BB_APPLY_MUL ? 1 : 0;
	if ((st = bb__sp_emit(am, &k, &s)) != BB_OK || !two)
		goto done;
	s.prop = p2;
	s.vi[0] = 1;
	st = bb__sp_emit(am, &k, &s);
done:
	bb__sp_free_keys(&k);
	return st;
}

static const char *const inherit_names[] = {
	"normal", "onlyTranslation", "noRotationOrReflection", "noScale",
	"noScaleOrReflection"
};

bb_inherit bb__sp_inherit(int i);

static bb_status read_inherit(bb__sp *sp, json_t *key, double *v, void *user)
{
	const char *name;
	bb_status s = bb__jstr(sp->j, key, "inherit", 0, &name);
	int i;

	(void)user;
	v[0] = BB_INHERIT_MATRIX;
	if (s != BB_OK || !name)
		return s;
	for (i = 0; i < 5; i++)
		if (strcasecmp(name, inherit_names[i]) == 0) {
			v[0] = bb__sp_inherit(i);
			return BB_OK;
		}
	return bb__jfail(sp->j, "inherit", "unknown value \"%s\"", name);
}

static int find_bone(const bb__sp *sp, const char *name)
{
	int i = bb__sp_bone(sp, name);

	return i < 0 ? UNKNOWN : i;
}

static bb_status bone_or_inherit(struct bb__sp_anim *am, int bone, const char *kind,
                                 json_t *list)
{
	bb__sp *sp = am->sp;
	struct bb__sp_keys k;
	struct bb__sp_spec sc;
	bb_status s;

	if (sp->v3 || strcmp(kind, "inherit") != 0)
		return bone_timeline(am, bone, kind, list);
	s = bb__sp_read_keys(am, list, 1, read_inherit, NULL, &k);
	if (s == BB_OK) {
		bb__sp_spec_init(&sc, BB_TL_BONE_INHERIT, bone, 1);
		sc.stepped = 1;
		sc.setup[0] = sp->a->bones[bone].inherit;
		s = bb__sp_emit(am, &k, &sc);
	}
	bb__sp_free_keys(&k);
	return s;
}

/* ---- constraint timelines ---------------------------------------------- */

/* Index of the model constraint of a kind by name, -1. */
static int find_con(const bb__sp *sp, bb_con_kind kind, const char *name)
{
	int i;

	for (i = 0; i < sp->a->ncons; i++)
		if (sp->a->cons[i].kind == kind && strcmp(sp->a->cons[i].name, name) == 0)
			return i;
	return -1;
}

static bb_status read_ik_key(bb__sp *sp, json_t *key, double *v, void *user)
{
	int b, c, st;
	bb_status s;

	(void)user;
	if ((s = bb__sp_num(sp, key, "mix", 1, &v[0])) != BB_OK ||
	    (s = bb__sp_num(sp, key, "softness", 0, &v[1])) != BB_OK ||
	    (s = bb__jbool(sp->j, key, "bendPositive", 1, &b)) != BB_OK ||
	    (s = bb__jbool(sp->j, key, "compress", 0, &c)) != BB_OK ||
	    (s = bb__jbool(sp->j, key, "stretch", 0, &st)) != BB_OK)
		return s;
	v[2] = b ? 1 : -1;
	v[3] = c;
	v[4] = st;
	return BB_OK;
}

static bb_status read_tc_key(bb__sp *sp, json_t *key, double *v, void *user)
{
	bb_status s;

	(void)user;
	if (sp->v3) {
		if ((s = bb__sp_num(sp, key, "rotateMix", 1, &v[0])) != BB_OK ||
		    (s = bb__sp_num(sp, key, "translateMix", 1, &v[1])) != BB_OK ||
		    (s = bb__sp_num(sp, key, "scaleMix", 1, &v[3])) != BB_OK ||
		    (s = bb__sp_num(sp, key, "shearMix", 1, &v[5])) != BB_OK)
			return s;
		v[2] = v[1];
		v[4] = v[3];
		return BB_OK;
	}
	if ((s = bb__sp_num(sp, key, "mixRotate", 1, &v[0])) != BB_OK ||
	    (s = bb__sp_num(sp, key, "mixX", 1, &v[1])) != BB_OK ||
	    (s = bb__sp_num(sp, key, "mixY", v[1], &v[2])) != BB_OK ||
	    (s = bb__sp_num(sp, key, "mixScaleX", 1, &v[3])) != BB_OK ||
	    (s = bb__sp_num(sp, key, "mixScaleY", v[3], &v[4])) != BB_OK ||
	    (s = bb__sp_num(sp, key, "mixShearY", 1, &v[5])) != BB_OK)
		return s;
	return BB_OK;
}

static bb_status read_path_mix(bb__sp *sp, json_t *key, double *v, void *user)
{
	bb_status s;

	(void)user;
	if (sp->v3) {
		if ((s = bb__sp_num(sp, key, "rotateMix", 1, &v[0])) != BB_OK ||
		    (s = bb__sp_num(sp, key, "translateMix", 1, &v[1])) != BB_OK)
			return s;
		v[2] = v[1];
		return BB_OK;
	}
	if ((s = bb__sp_num(sp, key, "mixRotate", 1, &v[0])) != BB_OK ||
	    (s = bb__sp_num(sp, key, "mixX", 1, &v[1])) != BB_OK ||
	    (s = bb__sp_num(sp, key, "mixY", v[1], &v[2])) != BB_OK)
		return s;
	return BB_OK;
}

/* A constraint timeline over params first .. first + nv - 1 from key
 * values vi0 ..; setup values from the constraint. */
static bb_status con_emit(struct bb__sp_anim *am, const struct bb__sp_keys *k, int con, int first,
                          int vi0, int nv, int stepped, int stale)
{
	struct bb__sp_spec s;
	int v;

	bb__sp_spec_init(&s, BB_TL_CONSTRAINT, con, nv);
	s.param = first;
	s.stepped = stepped;
	s.stale_value1 = stale;
	for (v = 0; v < nv; v++) {
		s.vi[v] = vi0 + v;
		s.setup[v] = am->sp->a->cons[con].params[first + v];
	}
	return bb__sp_emit(am, k, &s);
}

static int find_ik(const bb__sp *sp, const char *name)
{
	int c = find_con(sp, BB_CON_IK, name);

	return c < 0 ? UNKNOWN : c;
}

static int find_tc(const bb__sp *sp, const char *name)
{
	int c = find_con(sp, BB_CON_TRANSFORM, name);

	return c < 0 ? UNKNOWN : c;
}

static int find_path(const bb__sp *sp, const char *name)
{
	int c = find_con(sp, BB_CON_PATH, name);

	return c < 0 ? UNKNOWN : c;
}

/* "" is the global timeline (-1: every constraint that takes it). */
static int find_physics(const bb__sp *sp, const char *name)
{
	int c = name[0] ? find_con(sp, BB_CON_PHYSICS, name) : -1;

	return name[0] && c < 0 ? UNKNOWN : c;
}

static bb_status ik_timeline(struct bb__sp_anim *am, int c, const char *kind,
                             json_t *list)
{
	struct bb__sp_keys k;
	bb_status s;

	(void)kind;
	s = bb__sp_read_keys(am, list, 5, read_ik_key, NULL, &k);
	if (s == BB_OK)
		s = con_emit(am, &k, c, BB_CP_IK_MIX, 0, 2, 0, -1);
	if (s == BB_OK)
		s = con_emit(am, &k, c, BB_CP_IK_BEND, 2, 3, 1, -1);
	bb__sp_free_keys(&k);
	return s;
}

static bb_status tc_timeline(struct bb__sp_anim *am, int c, const char *kind,
                             json_t *list)
{
	struct bb__sp_keys k;
	bb_status s;

	(void)kind;
	s = bb__sp_read_keys(am, list, 6, read_tc_key, NULL, &k);
	/* the runtime's reader never advances mixShearY's start value */
	if (s == BB_OK)
		s = con_emit(am, &k, c, BB_CP_TC_ROTATE, 0, 6, 0, 5);
	bb__sp_free_keys(&k);
	return s;
}

static bb_status path_timeline(struct bb__sp_anim *am, int c, const char *kind,
                               json_t *list)
{
	bb__sp *sp = am->sp;
	struct bb__sp_names2 nm = { "value", NULL, 0, 0, 0 };
	struct bb__sp_keys k;
	bb_status s;

	if (strcmp(kind, "position") == 0 || strcmp(kind, "spacing") == 0) {
		if (sp->v3)
			nm.a = kind;
		s = bb__sp_read_keys(am, list, 1, bb__sp_read_pair, &nm, &k);
		if (s == BB_OK)
			s = con_emit(am, &k, c, kind[0] == 'p' ? BB_CP_PATH_POSITION
			                                       : BB_CP_PATH_SPACING,
			             0, 1, 0, -1);
	} else if (strcmp(kind, "mix") == 0) {
		s = bb__sp_read_keys(am, list, 3, read_path_mix, NULL, &k);
		if (s == BB_OK)
			s = con_emit(am, &k, c, BB_CP_PATH_ROTATE, 0, 3, 0, -1);
	} else {
		return bb__jfail(sp->j, NULL, "unknown path constraint timeline");
	}
	bb__sp_free_keys(&k);
	return s;
}

/* A physics timeline of constraint c (-1: of every one taking the global
 * timeline, or for reset one timeline for all). */
static bb_status physics_timeline(struct bb__sp_anim *am, int c, const char *kind,
                                  json_t *list)
{
	bb__sp *sp = am->sp;
	struct bb__sp_names2 nm = { "value", NULL, 0, 0, 0 };
	struct bb__sp_keys k;
	bb_status s;
	int i, p;

	for (p = 0; p < BB_SP_NPHYS && strcmp(bb__sp_physics_props[p], kind) != 0; p++)
		;
	if (p == BB_SP_NPHYS && strcmp(kind, "reset") != 0)
		return BB_OK;      /* the runtime skips unknown ones */
	s = bb__sp_read_keys(am, list, 1, p == BB_SP_NPHYS ? NULL : bb__sp_read_pair, &nm, &k);
	for (i = 0; s == BB_OK && i < sp->a->ncons; i++) {
		struct bb__sp_spec sc;

		if (sp->a->cons[i].kind != BB_CON_PHYSICS || (c >= 0 && i != c) ||
		    (c < 0 && p < BB_SP_NPHYS && !(sp->cons[i].phys_global & (1u << p))))
			continue;
		if (p == BB_SP_NPHYS) {
			bb__sp_spec_init(&sc, BB_TL_PHYSICS_RESET, c, 1);
			sc.stepped = 1;
			sc.prepend = 0;
			s = bb__sp_emit(am, &k, &sc);
			break;     /* one timeline (c, or -1: all) */
		}
		s = con_emit(am, &k, i, p, 0, 1, 0, -1);
	}
	bb__sp_free_keys(&k);
	return s;
}

/* ---- animations -------------------------------------------------------- */

/* An animation's parts, in the runtime's order (slots, bones, constraints,
 * attachments, draw order, events): 4.x, where 4.0 keeps deform keys in a
 * top-level `deform` part (4.1 moved them into `attachments`), and 3.8. */
enum part {
	P_SLOTS, P_BONES, P_IK, P_TRANSFORM, P_PATH, P_PHYSICS, P_ATTACHMENTS,
	P_DEFORM, P_DRAW_ORDER, P_EVENTS
};

static const struct part_name { const char *name; enum part part; } parts4[] = {
	{ "slots", P_SLOTS }, { "bones", P_BONES }, { "ik", P_IK },
	{ "transform", P_TRANSFORM }, { "path", P_PATH }, { "physics", P_PHYSICS },
	{ "attachments", P_ATTACHMENTS }, { "deform", P_DEFORM },
	{ "drawOrder", P_DRAW_ORDER }, { "events", P_EVENTS }
}, parts3[] = {
	{ "slots", P_SLOTS }, { "bones", P_BONES }, { "ik", P_IK },
	{ "transform", P_TRANSFORM }, { "path", P_PATH }, { "deform", P_DEFORM },
	{ "drawOrder", P_DRAW_ORDER }, { "draworder", P_DRAW_ORDER },
	{ "events", P_EVENTS }
};

static bb_status read_part(struct bb__sp_anim *am, enum part part, json_t *v)
{
	switch (part) {
	case P_SLOTS: return each_named(am, v, "slot", find_slot, 1, slot_timeline);
	case P_BONES: return each_named(am, v, "bone", find_bone, 1, bone_or_inherit);
	case P_IK: return each_named(am, v, "IK constraint", find_ik, 0, ik_timeline);
	case P_TRANSFORM:
		return each_named(am, v, "transform constraint", find_tc, 0, tc_timeline);
	case P_PATH: return each_named(am, v, "path constraint", find_path, 1, path_timeline);
	case P_PHYSICS:
		return each_named(am, v, "physics constraint", find_physics, 1,
		                  physics_timeline);
	case P_ATTACHMENTS: return bb__sp_attachment_timelines(am, v, 0);
	case P_DEFORM: return bb__sp_attachment_timelines(am, v, 1);
	case P_DRAW_ORDER: return bb__sp_draw_order(am, v);
	case P_EVENTS: return bb__sp_events(am, v);
	}
	return BB_OK;
}

static bb_status read_animation(struct bb__sp_anim *am, json_t *map)
{
	bb__sp *sp = am->sp;
	const struct part_name *parts = sp->v3 ? parts3 : parts4;
	size_t nparts = sp->v3 ? sizeof parts3 / sizeof parts3[0]
	                       : sizeof parts4 / sizeof parts4[0], i;
	bb__jiter it;
	json_t *v;
	bb_status s;

	if ((s = bb__jexpect_object(sp->j, map)) != BB_OK)
		return s;
	for (i = 0; i < nparts; i++) {
		enum part part = parts[i].part;
		size_t mark;

		if (!(v = bb__jget(map, parts[i].name)))
			continue;
		mark = bb__jpath_key(&sp->j->path, parts[i].name);
		if (part >= P_IK && part <= P_DEFORM && bb__jkind_of(v, NULL) != BB_JK_OBJECT)
			return bb__jfail(sp->j, NULL, "expected an object, found %s",
			                 bb__json_type_name(v));
		if ((s = read_part(am, part, v)) != BB_OK)
			return s;
		bb__jpath_pop(&sp->j->path, mark);
	}
	if ((s = bb__jeach_member(sp->j, map, NULL, 0, &it)) != BB_OK)
		return s;
	while (bb__jnext(&it, &v)) {
		for (i = 0; i < nparts && strcmp(it.key, parts[i].name) != 0; i++)
			;
		if (i == nparts)
			return bb__jfail(sp->j, NULL, "unknown animation part");
	}
	return BB_OK;
}

bb_status bb__sp_read_animations(bb__sp *sp)
{
	bb__jiter it;
	json_t *map;
	bb_armature *a = sp->a;
	size_t n;
	bb_status s;

	if ((s = bb__jeach_member(sp->j, sp->root, "animations", 0, &it)) != BB_OK)
		return s;
	n = it.n;
	if (n > 10000)
		return bb__jlimit(sp->j, NULL, "%zu animations exceed the limit of 10000", n);
	a->default_anim = n ? 0 : -1;
	while (bb__jnext(&it, &map)) {
		struct bb__sp_anim am;
		bb_anim *an;

		if ((s = bb__build_anim(sp->b, a, it.key, &an)) != BB_OK)
			return s;
		memset(&am, 0, sizeof am);
		am.sp = sp;
		am.an = an;
		an->loop = 1;
		an->exact_keys = 1;
		if ((s = read_animation(&am, map)) != BB_OK)
			return s;
		an->duration = am.duration;
	}
	return BB_OK;
}
