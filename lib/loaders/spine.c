/* Spine JSON, 3.8 and 4.0-4.2 (recognised by `skeleton.spine`), with the
 * atlas beside it: the skeleton (bones, slots, IK / transform / path /
 * physics constraints and the runtime's update order) and the loader
 * entry.  Skins and attachments: spine-skin.c; animations: spine-anim.c;
 * the atlas: spine-atlas.c.  How Spine's fields map onto the model:
 *
 *   bone x, y, rotation, scaleX/Y  -> bb_bone.setup (degrees -> radians)
 *   bone shearX / shearY            -> setup.shear / setup.skew
 *   bone inherit (4.2) / transform  -> bb_bone.inherit (Spine's five modes)
 *   slot color / dark, blend        -> bb_slot.color.mul / .dark, .blend
 *   ik, transform, path, physics    -> bb_armature.cons (kind, params)
 *   Skeleton.updateCache            -> bb_armature.update
 *   y up                            -> bb_armature.y_up (see spine.h) */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/util.h"
#include "loaders/spine.h"


/* ---- helpers ----------------------------------------------------------- */

double bb__sp_f32(double v)
{
	return (double)(float)v;
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9') return c - '0';
	if (c >= 'a' && c <= 'f') return c - 'a' + 10;
	if (c >= 'A' && c <= 'F') return c - 'A' + 10;
	return -1;
}

int bb__sp_color(const char *hex, bb_rgba *c)
{
	double v[4] = { 1, 1, 1, 1 };
	size_t n;
	int i;

	if (hex[0] == '#')
		hex++;
	n = strlen(hex);
	if (n != 6 && n != 8)
		return 0;
	for (i = 0; i < (int)n / 2; i++) {
		int hi = hexval(hex[2 * i]), lo = hexval(hex[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return 0;
		v[i] = (hi * 16 + lo) / 255.0;
	}
	c->r = v[0];
	c->g = v[1];
	c->b = v[2];
	c->a = v[3];
	return 1;
}

bb_status bb__sp_num(bb__sp *sp, json_t *obj, const char *key, double def,
                     double *out)
{
	bb_status s = bb__jnum(sp->j, obj, key, def, out);

	if (s == BB_OK && fabs(*out) > 1e9)
		return bb__jfail(sp->j, key, "%g is too large", *out);
	return s;
}

int bb__sp_bone(const bb__sp *sp, const char *name)
{
	return name ? bb__build_find_bone(sp->a, name) : -1;
}

int bb__sp_slot(const bb__sp *sp, const char *name)
{
	return name ? bb__build_find_slot(sp->a, name) : -1;
}

int bb__sp_name_index(const bb__sp *sp, int slot, const char *name)
{
	int i;

	for (i = 0; name && i < sp->names[slot].n; i++)
		if (strcmp(sp->names[slot].names[i], name) == 0)
			return i;
	return -1;
}

bb_status bb__sp_fail_at(bb__sp *sp, const char *key, size_t i, const char *fmt, ...)
{
	char msg[BB_ERROR_MSG_MAX];
	size_t mark = sp->j->path.len;
	va_list ap;
	bb_status s;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (key)
		bb__jpath_key(&sp->j->path, key);
	bb__jpath_index(&sp->j->path, i);
	s = bb__jfail(sp->j, NULL, "%s", msg);
	bb__jpath_pop(&sp->j->path, mark);
	return s;
}

/* An enum value from a string, case-insensitively (3.x compares lower
 * case, 4.x capitalises the first letter). */
static bb_status enum_value(bb__sp *sp, json_t *obj, const char *key,
                            const char *const *names, int n, int def, int *out)
{
	const char *v;
	bb_status s = bb__jstr(sp->j, obj, key, 0, &v);
	int i;

	*out = def;
	if (s != BB_OK || !v)
		return s;
	for (i = 0; i < n; i++)
		if (strcasecmp(v, names[i]) == 0) {
			*out = i;
			return BB_OK;
		}
	return bb__jfail(sp->j, key, "unknown value \"%s\"", v);
}

/* A required bone name member resolved to its index. */
static bb_status bone_ref(bb__sp *sp, json_t *obj, const char *key, int *out)
{
	const char *name;
	bb_status s = bb__jstr(sp->j, obj, key, 1, &name);

	if (s != BB_OK)
		return s;
	if ((*out = bb__sp_bone(sp, name)) < 0)
		return bb__jfail(sp->j, key, "unknown bone \"%s\"", name);
	return BB_OK;
}

/* ---- bones and slots --------------------------------------------------- */

static const char *const inherit_names[] = {
	"normal", "onlyTranslation", "noRotationOrReflection", "noScale",
	"noScaleOrReflection"
};

bb_inherit bb__sp_inherit(int i);

bb_inherit bb__sp_inherit(int i)
{
	static const bb_inherit map[] = {
		BB_INHERIT_MATRIX, BB_INHERIT_ONLY_TRANSLATION,
		BB_INHERIT_NO_ROTATION_OR_REFLECTION, BB_INHERIT_NO_SCALE,
		BB_INHERIT_NO_SCALE_OR_REFLECTION
	};

	return map[i >= 0 && i < 5 ? i : 0];
}

static bb_status read_bone(bb__sp *sp, json_t *jb, bb_bone *b, int index)
{
	const char *name, *parent;
	double v[8];
	int mode;
	bb_status s;

	if ((s = bb__jexpect_object(sp->j, jb)) != BB_OK ||
	    (s = bb__jstr(sp->j, jb, "name", 1, &name)) != BB_OK ||
	    (s = bb__jstr(sp->j, jb, "parent", 0, &parent)) != BB_OK)
		return s;
	if (bb__sp_bone(sp, name) >= 0)
		return bb__jfail(sp->j, "name", "bone \"%s\" is defined twice", name);
	/* the parent is looked up before this bone has its name: a bone
	 * naming itself is an unknown parent, and parents stay before their
	 * children (the update order's walks rely on it) */
	b->parent = -1;
	if (parent && (b->parent = bb__sp_bone(sp, parent)) < 0)
		return bb__jfail(sp->j, "parent", "unknown bone \"%s\" (a parent comes "
		                 "before its children)", parent);
	if ((s = bb__build_str(sp->b, &b->name, name)) != BB_OK)
		return s;
	if (!parent && index > 0)
		return bb__jfail(sp->j, "parent", "missing (only the first bone is "
		                 "the root)");
	if ((s = bb__sp_num(sp, jb, "length", 0, &v[0])) != BB_OK ||
	    (s = bb__sp_num(sp, jb, "x", 0, &v[1])) != BB_OK ||
	    (s = bb__sp_num(sp, jb, "y", 0, &v[2])) != BB_OK ||
	    (s = bb__sp_num(sp, jb, "rotation", 0, &v[3])) != BB_OK ||
	    (s = bb__sp_num(sp, jb, "scaleX", 1, &v[4])) != BB_OK ||
	    (s = bb__sp_num(sp, jb, "scaleY", 1, &v[5])) != BB_OK ||
	    (s = bb__sp_num(sp, jb, "shearX", 0, &v[6])) != BB_OK ||
	    (s = bb__sp_num(sp, jb, "shearY", 0, &v[7])) != BB_OK ||
	    (s = enum_value(sp, jb, sp->v3 || !bb__jhas_member(jb, "inherit")
	                            ? "transform" : "inherit",
	                    inherit_names, 5, 0, &mode)) != BB_OK)
		return s;
	b->length = v[0];
	b->setup.x = v[1];
	b->setup.y = v[2];
	b->setup.rotation = v[3] * BB__DEG;
	b->setup.sx = v[4];
	b->setup.sy = v[5];
	b->setup.shear = v[6] * BB__DEG;
	b->setup.skew = v[7] * BB__DEG;
	b->inherit = bb__sp_inherit(mode);
	return bb__jbool(sp->j, jb, "skin", 0, &b->skin_required);
}

static bb_status read_bones(bb__sp *sp)
{
	bb__jiter it;
	json_t *jb;
	bb_status s;

	if ((s = bb__jeach(sp->j, sp->root, "bones", BB_J_REQUIRED, &it)) != BB_OK)
		return s;
	if (it.n == 0)
		return bb__jfail(sp->j, NULL, "a skeleton needs a bone");
	/* unnamed until read: a name is found only among the bones before */
	if ((s = bb__build_bones(sp->b, sp->a, it.n)) != BB_OK)
		return s;
	while (bb__jnext(&it, &jb))
		if ((s = read_bone(sp, jb, &sp->a->bones[it.index], (int)it.index)) != BB_OK)
			return s;
	return BB_OK;
}

static const char *const blend_names[] = { "normal", "additive", "multiply", "screen" };

static bb_status read_slot(bb__sp *sp, json_t *js, bb_slot *sl)
{
	const char *name, *color, *dark;
	int blend;
	bb_rgba c;
	bb_status s;

	if ((s = bb__jexpect_object(sp->j, js)) != BB_OK ||
	    (s = bb__jstr(sp->j, js, "name", 1, &name)) != BB_OK)
		return s;
	if (bb__sp_slot(sp, name) >= 0)
		return bb__jfail(sp->j, "name", "slot \"%s\" is defined twice", name);
	if ((s = bb__build_str(sp->b, &sl->name, name)) != BB_OK ||
	    (s = bone_ref(sp, js, "bone", &sl->bone)) != BB_OK ||
	    (s = bb__jstr(sp->j, js, "color", 0, &color)) != BB_OK ||
	    (s = bb__jstr(sp->j, js, "dark", 0, &dark)) != BB_OK ||
	    (s = enum_value(sp, js, "blend", blend_names, 4, 0, &blend)) != BB_OK)
		return s;
	if (color) {
		if (!bb__sp_color(color, &c))
			return bb__jfail(sp->j, "color", "\"%s\" is not a colour rrggbbaa", color);
		sl->color.mul = c;
	}
	if (dark) {
		if (!bb__sp_color(dark, &c))
			return bb__jfail(sp->j, "dark", "\"%s\" is not a colour rrggbb", dark);
		sl->color.dark = (bb_rgba){ c.r, c.g, c.b, 0 };
	}
	sl->blend = blend == 1 ? BB_BLEND_ADD : blend == 2 ? BB_BLEND_MULTIPLY :
	            blend == 3 ? BB_BLEND_SCREEN : BB_BLEND_NORMAL;
	return BB_OK;      /* setup_display: resolved with the skins */
}

static bb_status read_slots(bb__sp *sp)
{
	bb__jiter it;
	json_t *js;
	bb_status s;

	if ((s = bb__jeach(sp->j, sp->root, "slots", 0, &it)) != BB_OK ||
	    (s = bb__build_slots(sp->b, sp->a, it.n)) != BB_OK)
		return s;
	if (!(sp->names = bb__calloc(it.n, sizeof *sp->names)))
		return bb__build_nomem(sp->b);
	while (bb__jnext(&it, &js))
		if ((s = read_slot(sp, js, &sp->a->slots[it.index])) != BB_OK)
			return s;
	return BB_OK;
}

/* ---- constraints ------------------------------------------------------- */

/* The fields every constraint has: name, order, bones. */
static bb_status con_common(bb__sp *sp, json_t *jc, bb_constraint *c,
                            const char *bones_key, double *order)
{
	const char *name;
	bb__jiter it;
	json_t *jb;
	bb_status s;

	if ((s = bb__jexpect_object(sp->j, jc)) != BB_OK ||
	    (s = bb__jstr(sp->j, jc, "name", 1, &name)) != BB_OK ||
	    (s = bb__sp_num(sp, jc, "order", 0, order)) != BB_OK ||
	    (s = bb__jbool(sp->j, jc, "skin", 0, &c->skin_required)) != BB_OK)
		return s;
	if ((s = bb__build_str(sp->b, &c->name, name)) != BB_OK)
		return s;
	if (strcmp(bones_key, "bone") == 0) {
		if ((s = bb__build_con_bones(sp->b, c, 1)) != BB_OK)
			return s;
		return bone_ref(sp, jc, "bone", &c->bones[0]);
	}
	if ((s = bb__jeach(sp->j, jc, bones_key, BB_J_REQUIRED, &it)) != BB_OK)
		return s;
	if (it.n < 1 || it.n > (size_t)sp->a->nbones)
		return bb__jfail(sp->j, NULL, "expected 1 to %d bones, found %zu",
		                 sp->a->nbones, it.n);
	if ((s = bb__build_con_bones(sp->b, c, (int)it.n)) != BB_OK)
		return s;
	while (bb__jnext(&it, &jb)) {
		if (bb__jkind_of(jb, NULL) != BB_JK_STRING)
			return bb__jfail(sp->j, NULL, "expected a bone name, found %s",
			                 bb__json_type_name(jb));
		if ((s = bb__jstr(sp->j, jb, NULL, 1, &name)) != BB_OK)
			return s;
		if ((c->bones[it.index] = bb__sp_bone(sp, name)) < 0)
			return bb__jfail(sp->j, NULL, "unknown bone \"%s\"", name);
	}
	return BB_OK;
}

static bb_status read_ik(bb__sp *sp, json_t *jc, bb_constraint *c)
{
	int bend, compress, stretch, uniform;
	bb_status s;

	c->kind = BB_CON_IK;
	if ((s = bone_ref(sp, jc, "target", &c->target)) != BB_OK)
		return s;
	if (c->nbones > 2)
		return bb__jfail(sp->j, "bones", "IK constrains 1 or 2 bones, not %d",
		                 c->nbones);
	if (sp->a->bones[c->bones[0]].parent < 0)
		return bb__jfail(sp->j, "bones", "the root bone cannot be constrained by IK");
	if (c->nbones == 2 && sp->a->bones[c->bones[1]].parent != c->bones[0])
		return bb__jfail(sp->j, "bones", "\"%s\" is not a child of \"%s\"",
		                 sp->a->bones[c->bones[1]].name,
		                 sp->a->bones[c->bones[0]].name);
	if ((s = bb__sp_num(sp, jc, "mix", 1, &c->params[BB_CP_IK_MIX])) != BB_OK ||
	    (s = bb__sp_num(sp, jc, "softness", 0, &c->params[BB_CP_IK_SOFTNESS])) != BB_OK ||
	    (s = bb__jbool(sp->j, jc, "bendPositive", 1, &bend)) != BB_OK ||
	    (s = bb__jbool(sp->j, jc, "compress", 0, &compress)) != BB_OK ||
	    (s = bb__jbool(sp->j, jc, "stretch", 0, &stretch)) != BB_OK ||
	    (s = bb__jbool(sp->j, jc, "uniform", 0, &uniform)) != BB_OK)
		return s;
	c->params[BB_CP_IK_BEND] = bend ? 1 : -1;
	c->params[BB_CP_IK_COMPRESS] = compress;
	c->params[BB_CP_IK_STRETCH] = stretch;
	c->u.ik.uniform = uniform;
	return BB_OK;
}

static bb_status read_transform(bb__sp *sp, json_t *jc, bb_constraint *c)
{
	double v[6], *mp = c->params;
	bb_status s;

	c->kind = BB_CON_TRANSFORM;
	if ((s = bone_ref(sp, jc, "target", &c->target)) != BB_OK ||
	    (s = bb__jbool(sp->j, jc, "local", 0, &c->u.tc.local)) != BB_OK ||
	    (s = bb__jbool(sp->j, jc, "relative", 0, &c->u.tc.relative)) != BB_OK ||
	    (s = bb__sp_num(sp, jc, "rotation", 0, &v[0])) != BB_OK ||
	    (s = bb__sp_num(sp, jc, "x", 0, &c->u.tc.x)) != BB_OK ||
	    (s = bb__sp_num(sp, jc, "y", 0, &c->u.tc.y)) != BB_OK ||
	    (s = bb__sp_num(sp, jc, "scaleX", 0, &c->u.tc.scale_x)) != BB_OK ||
	    (s = bb__sp_num(sp, jc, "scaleY", 0, &c->u.tc.scale_y)) != BB_OK ||
	    (s = bb__sp_num(sp, jc, "shearY", 0, &v[1])) != BB_OK)
		return s;
	c->u.tc.rotation = v[0] * BB__DEG;
	c->u.tc.shear_y = v[1] * BB__DEG;
	if (c->u.tc.local && sp->a->bones[c->bones[0]].parent < 0)
		return bb__jfail(sp->j, "bones", "a local transform constraint cannot "
		                 "move the root bone");
	if (sp->v3) {
		if ((s = bb__sp_num(sp, jc, "rotateMix", 1, &v[0])) != BB_OK ||
		    (s = bb__sp_num(sp, jc, "translateMix", 1, &v[1])) != BB_OK ||
		    (s = bb__sp_num(sp, jc, "scaleMix", 1, &v[2])) != BB_OK ||
		    (s = bb__sp_num(sp, jc, "shearMix", 1, &v[3])) != BB_OK)
			return s;
		mp[BB_CP_TC_ROTATE] = v[0];
		mp[BB_CP_TC_X] = mp[BB_CP_TC_Y] = v[1];
		mp[BB_CP_TC_SCALE_X] = mp[BB_CP_TC_SCALE_Y] = v[2];
		mp[BB_CP_TC_SHEAR_Y] = v[3];
		return BB_OK;
	}
	if ((s = bb__sp_num(sp, jc, "mixRotate", 1, &mp[BB_CP_TC_ROTATE])) != BB_OK ||
	    (s = bb__sp_num(sp, jc, "mixX", 1, &mp[BB_CP_TC_X])) != BB_OK ||
	    (s = bb__sp_num(sp, jc, "mixY", mp[BB_CP_TC_X], &mp[BB_CP_TC_Y])) != BB_OK ||
	    (s = bb__sp_num(sp, jc, "mixScaleX", 1, &mp[BB_CP_TC_SCALE_X])) != BB_OK ||
	    (s = bb__sp_num(sp, jc, "mixScaleY", mp[BB_CP_TC_SCALE_X],
	                    &mp[BB_CP_TC_SCALE_Y])) != BB_OK ||
	    (s = bb__sp_num(sp, jc, "mixShearY", 1, &mp[BB_CP_TC_SHEAR_Y])) != BB_OK)
		return s;
	return BB_OK;
}

static const char *const position_names[] = { "fixed", "percent" };
static const char *const spacing_names[] = { "length", "fixed", "percent", "proportional" };
static const char *const rotate_names[] = { "tangent", "chain", "chainScale" };

static bb_status read_path(bb__sp *sp, json_t *jc, bb_constraint *c)
{
	const char *slot;
	double *mp = c->params, rot;
	int pm, sm, rm;
	bb_status s;

	c->kind = BB_CON_PATH;
	if ((s = bb__jstr(sp->j, jc, "target", 1, &slot)) != BB_OK)
		return s;
	if ((c->target = bb__sp_slot(sp, slot)) < 0)
		return bb__jfail(sp->j, "target", "unknown slot \"%s\"", slot);
	if ((s = enum_value(sp, jc, "positionMode", position_names, 2, 1, &pm)) != BB_OK ||
	    (s = enum_value(sp, jc, "spacingMode", spacing_names, 4, 0, &sm)) != BB_OK ||
	    (s = enum_value(sp, jc, "rotateMode", rotate_names, 3, 0, &rm)) != BB_OK ||
	    (s = bb__sp_num(sp, jc, "rotation", 0, &rot)) != BB_OK ||
	    (s = bb__sp_num(sp, jc, "position", 0, &mp[BB_CP_PATH_POSITION])) != BB_OK ||
	    (s = bb__sp_num(sp, jc, "spacing", 0, &mp[BB_CP_PATH_SPACING])) != BB_OK)
		return s;
	c->u.path.position = (bb_path_position)pm;
	c->u.path.spacing = (bb_path_spacing)sm;
	c->u.path.rotate = (bb_path_rotate)rm;
	c->u.path.rotation = rot * BB__DEG;
	if (sp->v3) {
		double t;

		if ((s = bb__sp_num(sp, jc, "rotateMix", 1, &mp[BB_CP_PATH_ROTATE])) != BB_OK ||
		    (s = bb__sp_num(sp, jc, "translateMix", 1, &t)) != BB_OK)
			return s;
		mp[BB_CP_PATH_X] = mp[BB_CP_PATH_Y] = t;
		return BB_OK;
	}
	if ((s = bb__sp_num(sp, jc, "mixRotate", 1, &mp[BB_CP_PATH_ROTATE])) != BB_OK ||
	    (s = bb__sp_num(sp, jc, "mixX", 1, &mp[BB_CP_PATH_X])) != BB_OK ||
	    (s = bb__sp_num(sp, jc, "mixY", mp[BB_CP_PATH_X], &mp[BB_CP_PATH_Y])) != BB_OK)
		return s;
	return BB_OK;
}

const char *const bb__sp_physics_props[BB_SP_NPHYS] = {
	"inertia", "strength", "damping", "mass", "wind", "gravity", "mix"
};

static bb_status read_physics(bb__sp *sp, json_t *jc, bb_constraint *c)
{
	double *mp = c->params, fps, mass;
	char key[32];
	int p, global;
	bb_status s;

	c->kind = BB_CON_PHYSICS;
	c->target = -1;
	if ((s = bb__sp_num(sp, jc, "x", 0, &c->u.phys.x)) != BB_OK ||
	    (s = bb__sp_num(sp, jc, "y", 0, &c->u.phys.y)) != BB_OK ||
	    (s = bb__sp_num(sp, jc, "rotate", 0, &c->u.phys.rotate)) != BB_OK ||
	    (s = bb__sp_num(sp, jc, "scaleX", 0, &c->u.phys.scale_x)) != BB_OK ||
	    (s = bb__sp_num(sp, jc, "shearX", 0, &c->u.phys.shear_x)) != BB_OK ||
	    (s = bb__sp_num(sp, jc, "limit", 5000, &c->u.phys.limit)) != BB_OK ||
	    (s = bb__jnum_range(sp->j, jc, "fps", 60, 1, 1000, &fps)) != BB_OK ||
	    (s = bb__sp_num(sp, jc, "inertia", 1, &mp[BB_CP_PH_INERTIA])) != BB_OK ||
	    (s = bb__sp_num(sp, jc, "strength", 100, &mp[BB_CP_PH_STRENGTH])) != BB_OK ||
	    (s = bb__sp_num(sp, jc, "damping", 1, &mp[BB_CP_PH_DAMPING])) != BB_OK ||
	    (s = bb__sp_num(sp, jc, "mass", 1, &mass)) != BB_OK ||
	    (s = bb__sp_num(sp, jc, "wind", 0, &mp[BB_CP_PH_WIND])) != BB_OK ||
	    (s = bb__sp_num(sp, jc, "gravity", 0, &mp[BB_CP_PH_GRAVITY])) != BB_OK ||
	    (s = bb__sp_num(sp, jc, "mix", 1, &mp[BB_CP_PH_MIX])) != BB_OK)
		return s;
	if (mass == 0)
		return bb__jfail(sp->j, "mass", "must not be 0");
	mp[BB_CP_PH_MASS] = mass;
	c->u.phys.step = 1 / fps;
	c->u.phys.reference_scale = sp->reference_scale;
	for (p = 0; p < BB_SP_NPHYS; p++) {
		snprintf(key, sizeof key, "%sGlobal", bb__sp_physics_props[p]);
		if ((s = bb__jbool(sp->j, jc, key, 0, &global)) != BB_OK)
			return s;
		if (global)
			sp->cons[c - sp->a->cons].phys_global |= (unsigned char)(1u << p);
	}
	return BB_OK;
}

/* Reads one constraint list into the model's constraints from *next on,
 * recording each one's order. */
static bb_status read_constraints(bb__sp *sp, const char *key, int *next)
{
	bb__jiter it;
	json_t *jc;
	bb_status s;

	if ((s = bb__jeach(sp->j, sp->root, key, 0, &it)) != BB_OK)
		return s;
	while (bb__jnext(&it, &jc)) {
		int k = (*next)++, phys = strcmp(key, "physics") == 0;
		bb_constraint *c = &sp->a->cons[k];

		if ((s = con_common(sp, jc, c, phys ? "bone" : "bones",
		                    &sp->cons[k].order)) != BB_OK)
			return s;
		s = strcmp(key, "ik") == 0 ? read_ik(sp, jc, c) :
		    strcmp(key, "transform") == 0 ? read_transform(sp, jc, c) :
		    phys ? read_physics(sp, jc, c) : read_path(sp, jc, c);
		if (s != BB_OK)
			return s;
	}
	return BB_OK;
}

/* ---- the update order (Skeleton.updateCache of the 4.2 runtime) -------- */

struct cache {
	bb__sp *sp;
	unsigned char *sorted;
	int *first_child, *next_sibling;
	int *stack;            /* nbones: the walks below are iterative (a
	                          chain of 10000 bones is no recursion) */
	int *at;               /* ncons: the constraint of each order value */
	bb_update *out;        /* the armature's update order */
	int *n, cap;
};

static int push(struct cache *c, int constraint, int index)
{
	if (*c->n >= c->cap)
		return 0;
	c->out[*c->n].constraint = constraint;
	c->out[*c->n].index = index;
	(*c->n)++;
	return 1;
}

/* Bone b after its unsorted ancestors, root first (parents come before
 * their children in a Spine file, so the chain ends). */
static int sort_bone(struct cache *c, int b)
{
	int n = 0;

	for (; b >= 0 && !c->sorted[b]; b = c->sp->a->bones[b].parent)
		c->stack[n++] = b;
	while (n > 0) {
		b = c->stack[--n];
		c->sorted[b] = 1;
		if (!push(c, 0, b))
			return 0;
	}
	return 1;
}

/* Unsorts the children of `parent`, and the descendants of each child
 * that was sorted. */
static void sort_reset(struct cache *c, int parent)
{
	int n = 0, k;

	c->stack[n++] = parent;
	while (n > 0) {
		parent = c->stack[--n];
		for (k = c->first_child[parent]; k >= 0; k = c->next_sibling[k]) {
			if (c->sorted[k])
				c->stack[n++] = k;    /* each bone at most once */
			c->sorted[k] = 0;
		}
	}
}

/* The bones a path attachment's vertices follow (or its slot's bone). */
static int sort_path_display(struct cache *c, const bb_display *d, int slot_bone)
{
	int k;

	if (d->kind != BB_DISPLAY_PATH)
		return 1;
	if (!d->u.mesh.wcount)
		return sort_bone(c, slot_bone);
	for (k = 0; k < d->u.mesh.ninfluences; k++)
		if (!sort_bone(c, d->u.mesh.wbone[k]))
			return 0;
	return 1;
}

static int sort_constraint(struct cache *c, int k)
{
	const bb_armature *a = c->sp->a;
	const bb_constraint *con = &a->cons[k];
	int i, j, ok = 1;

	switch (con->kind) {
	case BB_CON_IK:
		ok = sort_bone(c, con->target) && sort_bone(c, con->bones[0]);
		if (ok && con->nbones > 1)
			ok = sort_bone(c, con->bones[con->nbones - 1]);
		ok = ok && push(c, 1, k);
		sort_reset(c, con->bones[0]);
		if (con->nbones > 1)
			c->sorted[con->bones[con->nbones - 1]] = 1;
		return ok;
	case BB_CON_TRANSFORM:
		ok = sort_bone(c, con->target);
		for (i = 0; ok && i < con->nbones; i++) {
			if (con->u.tc.local)
				ok = sort_bone(c, a->bones[con->bones[i]].parent);
			ok = ok && sort_bone(c, con->bones[i]);
		}
		break;
	case BB_CON_PATH: {
		int slot = con->target, sb = a->slots[slot].bone;

		for (i = 0; ok && i < a->nskins; i++)
			for (j = 0; ok && j < a->skins[i].count[slot]; j++) {
				const bb_display *d = &a->displays[a->skins[i].first[slot] + j];

				if (!d->inherited)
					ok = sort_path_display(c, d, sb);
			}
		for (i = 0; ok && i < con->nbones; i++)
			ok = sort_bone(c, con->bones[i]);
		break;
	}
	case BB_CON_PHYSICS:
		ok = sort_bone(c, con->bones[0]);
		break;
	}
	ok = ok && push(c, 1, k);
	for (i = 0; i < con->nbones; i++)
		sort_reset(c, con->bones[i]);
	for (i = 0; i < con->nbones; i++)
		c->sorted[con->bones[i]] = 1;
	return ok;
}


/* Constraints by order: for each i, the first IK, else transform, else
 * path, else physics constraint whose order is i (one per order value, as
 * the runtime does; the others are never applied). */
static bb_status update_order(bb__sp *sp)
{
	bb_armature *a = sp->a;
	struct cache c;
	int i, k, *mem;
	size_t cap, nb = (size_t)a->nbones, nc = (size_t)a->ncons;
	bb_status s;

	memset(&c, 0, sizeof c);
	c.sp = sp;
	/* each bone is pushed at most once per constraint that resets it,
	 * plus once at the end */
	cap = nb * (nc + 1) + nc;
	if ((s = bb__build_update(sp->b, a, cap)) != BB_OK)
		return s;
	c.out = a->update;
	c.n = &a->nupdate;
	c.cap = (int)cap;
	/* the walks' scratch: first_child, next_sibling, stack (nb + 1), at
	 * (nc + 1), then nb ints' room for the nb sorted flags */
	if (!(mem = bb__calloc(4 * nb + nc + 2, sizeof *mem)))
		return bb__build_nomem(sp->b);
	c.first_child = mem;
	c.next_sibling = mem + nb;
	c.stack = mem + 2 * nb;
	c.at = mem + 3 * nb + 1;
	c.sorted = (unsigned char *)(c.at + nc + 1);
	for (i = 0; i < a->nbones; i++)
		c.first_child[i] = c.next_sibling[i] = -1;
	for (i = a->nbones - 1; i > 0; i--) {   /* children in bone order */
		int par = a->bones[i].parent;

		c.next_sibling[i] = c.first_child[par];
		c.first_child[par] = i;
	}
	/* at[i]: the constraint of order i (lowest kind, then first) */
	for (i = 0; i < a->ncons; i++)
		c.at[i] = -1;
	for (k = 0; k < a->ncons; k++) {
		double o = sp->cons[k].order;

		if (!(o >= 0 && o < a->ncons) || o != floor(o))
			continue;
		i = (int)o;
		if (c.at[i] < 0 || a->cons[k].kind < a->cons[c.at[i]].kind)
			c.at[i] = k;
	}
	for (i = 0; i < a->ncons; i++)
		if (c.at[i] >= 0 && !sort_constraint(&c, c.at[i]))
			goto overflow;
	for (i = 0; i < a->nbones; i++)
		if (!sort_bone(&c, i))
			goto overflow;
	free(mem);
	for (i = 0; i < a->ncons; i++)
		if (a->cons[i].kind == BB_CON_PHYSICS &&
		    (a->physics_step == 0 || a->cons[i].u.phys.step < a->physics_step))
			a->physics_step = a->cons[i].u.phys.step;
	return BB_OK;
overflow:
	free(mem);
	return bb_error_set(sp->j->err, BB_ERR_INTERNAL, sp->j->file, NULL,
	                    "update order overflow");
}

/* ---- the whole file ---------------------------------------------------- */

int bb__sniff_spine(const char *data, size_t size, const char *path)
{
	const char *p = strstr(data, "\"skeleton\"");

	(void)size;
	(void)path;
	if (!p)
		return 0;
	p += 10;
	while (isspace((unsigned char)*p))
		p++;
	if (*p++ != ':')
		return 0;
	while (isspace((unsigned char)*p))
		p++;
	if (*p != '{')
		return 0;
	/* a "spine" key with a string value in the skeleton object */
	for (; *p && *p != '}'; p++)
		if (strncmp(p, "\"spine\"", 7) == 0) {
			const char *q = p + 7;

			while (isspace((unsigned char)*q))
				q++;
			if (*q++ != ':')
				continue;
			while (isspace((unsigned char)*q))
				q++;
			return *q == '"';
		}
	return 0;
}

/* The atlas: --atlas, else <stem>.atlas, <stem without -pro/-ess>.atlas,
 * or the only .atlas in the folder, into r (its name in buf): 1; 0 when
 * none; -1 when the one found leads outside the roots (the error set). */
static int find_atlas(bb__load_ctx *ctx, char *buf, size_t size, bb__ref *r)
{
	char stem[512];
	const char *dot, *suffixes[] = { "", "-pro", "-ess" };
	DIR *dir;
	struct dirent *e;
	int i, found = 0, have;

	*r = (bb__ref){ .what = "atlas", .name = buf };
	if (ctx->opts->atlas_path) {
		snprintf(buf, size, "%s", ctx->opts->atlas_path);
		r->dir = "";
		return 1;
	}
	dot = strrchr(ctx->name, '.');
	snprintf(stem, sizeof stem, "%.*s", dot ? (int)(dot - ctx->name) : (int)strlen(ctx->name),
	         ctx->name);
	for (i = 0; i < 3; i++) {
		size_t n = strlen(stem), k = strlen(suffixes[i]);

		if (k && (n <= k || strcmp(stem + n - k, suffixes[i]) != 0))
			continue;
		snprintf(buf, size, "%.*s.atlas", (int)(n - k), stem);
		if ((have = bb__load_exists(ctx, r)) != 0)
			return have;
	}
	if (!(dir = opendir(ctx->dir)))
		return 0;
	while ((e = readdir(dir)) != NULL) {
		size_t n = strlen(e->d_name);

		if (n > 6 && strcmp(e->d_name + n - 6, ".atlas") == 0 && found++ == 0)
			snprintf(buf, size, "%s", e->d_name);
	}
	closedir(dir);
	return found == 1 ? bb__load_exists(ctx, r) : 0;
}

/* 3.7 and 3.8 (read as 3.8), 4.0 to 4.2. */
static bb_status read_skeleton(bb__sp *sp, json_t *sk, const char *version)
{
	char *e;
	long major = strtol(version, &e, 10), minor = *e == '.' ? strtol(e + 1, NULL, 10) : -1;
	double fps;
	bb_status s;

	if (!((major == 3 && minor >= 7) || (major == 4 && minor >= 0 && minor <= 2)))
		return bb_error_set(sp->j->err, BB_ERR_INPUT, sp->j->file, "skeleton.spine",
		                    "version \"%s\" is not supported (3.8 and 4.0-4.2 are)",
		                    version);
	sp->v3 = major == 3;
	sp->v40 = major == 4 && minor == 0;
	if (sp->v3 && minor != 8)
		bb__model_warn(sp->m, "%s: Spine %s data is read as 3.8", sp->j->file, version);
	bb__jpath_key(&sp->j->path, "skeleton");
	s = bb__jnum_range(sp->j, sk, "fps", 30, 0.001, 1000, &fps);
	if (s == BB_OK)
		s = bb__jnum_range(sp->j, sk, "referenceScale", 100, 1e-6, 1e9,
		                   &sp->reference_scale);
	bb__jpath_pop(&sp->j->path, 0);
	sp->a->fps = fps;
	return s;
}

static bb_status load(bb__sp *sp)
{
	json_t *sk, *list;
	const char *version, *keys[] = { "ik", "transform", "path", "physics" };
	char atlas[4096];
	bb__ref ref;
	size_t ncons = 0;
	int i, have = 0, next = 0;
	bb_status s;

	if ((s = bb__jexpect_object(sp->j, sp->root)) != BB_OK ||
	    (s = bb__jobject(sp->j, sp->root, "skeleton", 1, &sk)) != BB_OK)
		return s;
	bb__jpath_key(&sp->j->path, "skeleton");
	s = bb__jstr(sp->j, sk, "spine", 1, &version);
	bb__jpath_pop(&sp->j->path, 0);
	if (s != BB_OK)
		return s;
	if ((s = bb__build_armatures(sp->b, 1, &sp->a)) != BB_OK)
		return s;
	sp->a->y_up = 1;
	sp->a->default_anim = -1;
	if ((s = read_skeleton(sp, sk, version)) != BB_OK)
		return s;
	if ((s = bb__build_str(sp->b, &sp->a->name, sp->ctx->name)) != BB_OK)
		return s;
	{
		char *dot = strrchr(sp->a->name, '.');

		if (dot && dot != sp->a->name)
			*dot = '\0';
	}
	if ((s = read_bones(sp)) != BB_OK || (s = read_slots(sp)) != BB_OK)
		return s;
	for (i = 0; i < 4; i++) {
		if ((s = bb__jarray(sp->j, sp->root, keys[i], 0, &list)) != BB_OK)
			return s;
		ncons += bb__jsize(list);
	}
	if ((s = bb__build_cons(sp->b, sp->a, ncons)) != BB_OK)
		return s;
	if (!(sp->cons = bb__calloc(ncons, sizeof *sp->cons)))
		return bb__build_nomem(sp->b);
	for (i = 0; i < 4 && s == BB_OK; i++)
		s = read_constraints(sp, keys[i], &next);
	if (s == BB_OK && (have = find_atlas(sp->ctx, atlas, sizeof atlas, &ref)) > 0) {
		if ((s = bb__sp_atlas_load(sp->ctx, &ref, &sp->atlas)) == BB_OK)
			sp->have_atlas = 1;
	} else if (s == BB_OK && have < 0) {
		s = BB_ERR_INPUT;
	} else if (s == BB_OK) {
		bb__model_warn(sp->m, "%s: no atlas found beside it (give one with "
		               "--atlas); attachments are not drawn", sp->j->file);
	}
	if (s == BB_OK)
		s = bb__sp_read_skins(sp);
	if (s == BB_OK)
		s = update_order(sp);
	if (s == BB_OK)
		s = bb__sp_read_animations(sp);
	if (s == BB_OK && sp->missing_regions)
		bb__model_warn(sp->m, "%s: %d attachments have no region in the atlas "
		               "and are not drawn", sp->j->file, sp->missing_regions);
	return s;
}

bb_status bb__load_spine(bb__load_ctx *c, json_t *root, bb_model *m)
{
	bb__sp sp;
	bb_status s;
	int i, k, ns;

	memset(&sp, 0, sizeof sp);
	sp.ctx = c;
	sp.j = &c->at;
	sp.b = &c->b;
	sp.m = m;
	sp.root = root;
	s = load(&sp);
	ns = sp.a ? sp.a->nslots : 0;
	if (s == BB_OK)
		m->default_armature = 0;
	for (i = 0; sp.names && i < ns; i++) {
		for (k = 0; k < sp.names[i].n; k++)
			free(sp.names[i].names[k]);
		free(sp.names[i].names);
	}
	free(sp.names);
	free(sp.cons);
	bb__sp_atlas_free(&sp.atlas);
	return s;
}
