/* Minecraft Forge 1.12 armature JSON ("joints", "clips") with the block
 * model it animates: one armature whose solid holds the model's elements,
 * one animation per clip (1 s per cycle), joint variables as BB_TL_JOINT
 * timelines, events.  The block model itself is read by forge-model.c.
 * Semantics: ../shared/spec/forge.md. */
#include "config.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "loaders/forge.h"

static const char *const var_names[BB_JV_COUNT] = {
	"offset_x", "offset_y", "offset_z", "axis_x", "axis_y", "axis_z", "angle",
	"scale", "scale_x", "scale_y", "scale_z", "origin_x", "origin_y", "origin_z"
};

int bb__sniff_forge(const char *data, size_t size, const char *path)
{
	(void)size;
	(void)path;
	return strstr(data, "\"joints\"") != NULL && strstr(data, "\"clips\"") != NULL;
}

/* ---- where things are -------------------------------------------------- */

/* The "assets" folder a path lies in (the last one), into root; 0: none. */
static int find_assets(const char *path, char *root, size_t rsize)
{
	const char *at = NULL, *p;

	for (p = strstr(path, "assets/"); p; p = strstr(p + 1, "assets/"))
		if (p == path || p[-1] == '/')
			at = p;
	if (!at || !strchr(at + 7, '/'))
		return 0;
	snprintf(root, rsize, "%.*s", (int)(at - path + 6), path);
	return 1;
}

/* The model beside an armature in a mod's layout:
 * assets/<ns>/armatures/<path>.json -> assets/<ns>/models/<path>.json. */
static int layout_model(const char *path, char *buf, size_t size)
{
	const char *at = NULL, *p;
	int n;

	for (p = strstr(path, "armatures/"); p; p = strstr(p + 1, "armatures/"))
		if (p == path || p[-1] == '/')
			at = p;
	if (!at)
		return 0;
	n = snprintf(buf, size, "%.*smodels/%s", (int)(at - path), path, at + 10);
	return n > 0 && (size_t)n < size;
}

/* The block model and the resource root.  The assets folders the input
 * and the model lie in are roots files may be read from: the layout puts
 * the model, its parents and textures there. */
static bb_status locate(struct fg *f)
{
	bb__load_ctx *c = f->c;
	const bb_load_options *o = c->opts;
	char cand[4096], root[4096];
	int layout = layout_model(c->path, cand, sizeof cand), k;

	if (find_assets(c->path, root, sizeof root))
		bb__load_add_root(c, root, "the assets folder");
	snprintf(f->model_path, sizeof f->model_path, "%s",
	         o->model_path ? o->model_path : layout ? cand : "");
	if (find_assets(f->model_path, f->assets, sizeof f->assets))
		bb__load_add_root(c, f->assets, "the model's assets folder");
	else if (find_assets(c->path, root, sizeof root))
		snprintf(f->assets, sizeof f->assets, "%s", root);
	if (o->assets_dir) {
		struct stat st;

		/* the assets folder, or a folder holding one */
		snprintf(root, sizeof root, "%s/assets", o->assets_dir);
		snprintf(f->assets, sizeof f->assets, "%s", stat(root, &st) == 0 &&
		         S_ISDIR(st.st_mode) ? root : o->assets_dir);
	}
	if (o->model_path)
		return BB_OK;
	k = layout ? bb__load_exists(c, &(bb__ref){ .what = "block model",
	                                          .name = f->model_path, .dir = "" })
	           : 0;
	if (k < 0)
		return BB_ERR_INPUT;
	if (k == 0)
		return bb__where_fail(f->j, BB_ERR_INPUT, NULL, "no block model: --model "
		                      "FILE not given, and %s%s", layout ? f->model_path
		                      : "the file is not under assets/<mod>/armatures/",
		                      layout ? " does not exist" : "");
	return BB_OK;
}

/* ---- joints ------------------------------------------------------------ */

static bb_status add_weight(struct fg *f, size_t *cap, int joint, int elem,
                            double w)
{
	bb_solid *s = f->s;

	if (!bb__grow((void **)&s->weights, cap, (size_t)s->nweights + 1,
	              sizeof *s->weights))
		return bb__build_nomem(f->b);
	s->weights[s->nweights].joint = joint;
	s->weights[s->nweights].elem = elem;
	s->weights[s->nweights].weight = w;
	s->nweights++;
	return BB_OK;
}

/* The weight of a joint's element entry: [weight, ...]; 0 when it is not
 * such an array. */
static int first_weight(struct fg *f, json_t *wv, double *w)
{
	bb__jiter it;
	json_t *x;
	int ok;

	if (bb__jkind_of(wv, NULL) != BB_JK_ARRAY)
		return 0;
	bb__jeach(f->j, wv, NULL, 0, &it);
	ok = bb__jnext(&it, &x) && bb__jkind_of(x, NULL) == BB_JK_NUMBER &&
	     bb__jnum(f->j, x, NULL, 0, w) == BB_OK;
	bb__jdone(&it);
	return ok;
}

static bb_status read_joint(struct fg *f, int joint, json_t *jo, size_t *cap)
{
	bb__jiter it;
	json_t *wv;
	double w;
	bb_status s;

	if ((s = bb__jeach_member(f->j, jo, NULL, BB_J_QUOTED, &it)) != BB_OK)
		return s;
	while (bb__jnext(&it, &wv)) {
		const char *key = it.key;
		long idx = 0;
		size_t i;

		for (i = 0; key[i] && idx <= INT_MAX; i++)
			idx = key[i] >= '0' && key[i] <= '9' ? idx * 10 + (key[i] - '0')
			                                     : LONG_MAX;
		if (!key[0] || idx > INT_MAX)
			return bb__jfail(f->j, NULL, "element index \"%s\" is not a "
			                 "decimal number", key);
		if (!first_weight(f, wv, &w))
			return bb__jfail(f->j, NULL, "expected [weight]: an array "
			                 "starting with a number");
		/* Forge looks weights up by the model's element indices only: one
		 * beyond the model is never read (spec forge.md 5) */
		if (idx >= f->s->nelems)
			bb__model_warn(f->c->m, "%s: %s: element %ld out of range (%d "
			               "element%s); ignored, as Forge does", f->j->file,
			               f->j->path.buf, idx, f->s->nelems,
			               f->s->nelems == 1 ? "" : "s");
		else if ((s = add_weight(f, cap, joint, (int)idx, w)) != BB_OK)
			return s;
	}
	return BB_OK;
}

static bb_status read_joints(struct fg *f, json_t *root)
{
	bb__jiter it;
	json_t *jo;
	size_t cap = 0;
	bb_status s;

	if ((s = bb__jeach_member(f->j, root, "joints", 0, &it)) != BB_OK || !it.v)
		return s;
	if (it.n > (size_t)f->c->opts->max_bones)
		return bb__jlimit(f->j, NULL, "%zu joints exceed the limit of %d", it.n,
		                  f->c->opts->max_bones);
	if (!(f->s->joints = bb__calloc(it.n, sizeof *f->s->joints)))
		return bb__build_nomem(f->b);
	while (bb__jnext(&it, &jo)) {
		bb_solid_joint *j = &f->s->joints[it.index];

		f->s->njoints = (int)it.index + 1;
		if ((s = bb__build_str(f->b, &j->name, it.key)) != BB_OK)
			return s;
		j->origin[0] = j->origin[1] = j->origin[2] = FG_BLOCK / 2.0;
		if ((s = read_joint(f, (int)it.index, jo, &cap)) != BB_OK)
			return s;
	}
	return BB_OK;
}

/* ---- clips --------------------------------------------------------------- */

static int find_joint(const bb_solid *s, const char *name)
{
	int i;

	for (i = 0; i < s->njoints; i++)
		if (strcmp(s->joints[i].name, name) == 0)
			return i;
	return -1;
}

/* One joint variable of a clip (path at it): a BB_TL_JOINT timeline of
 * its samples spread over one cycle. */
static bb_status read_variable(struct fg *f, bb_anim *an, int joint, json_t *jv,
                               unsigned *seen)
{
	const char *var, *type, *interp;
	double *x = NULL;
	size_t n = 0, i;
	bb_timeline *t;
	int v, len, block;
	bb_status s;

	if ((s = bb__jexpect_object(f->j, jv)) != BB_OK ||
	    (s = bb__jstr(f->j, jv, "variable", 1, &var)) != BB_OK ||
	    (s = bb__jstr(f->j, jv, "type", 0, &type)) != BB_OK ||
	    (s = bb__jstr(f->j, jv, "interpolation", 1, &interp)) != BB_OK)
		return s;
	for (v = 0; v < BB_JV_COUNT && strcmp(var, var_names[v]) != 0; v++)
		;
	if (v == BB_JV_COUNT)
		return bb__jfail(f->j, "variable", "unknown variable \"%s\"", var);
	if (*seen & (1u << v))
		return bb__jfail(f->j, "variable", "variable \"%s\" appears twice in "
		                 "this joint clip", var);
	*seen |= 1u << v;
	if (type && strcmp(type, "uniform") != 0)
		return bb__jfail(f->j, "type", "expected \"uniform\", not \"%s\"", type);
	if (strcmp(interp, "linear") != 0 && strcmp(interp, "nearest") != 0)
		return bb__jfail(f->j, "interpolation", "expected \"linear\" or "
		                 "\"nearest\", not \"%s\"", interp);
	if ((s = bb__jnums(f->j, jv, "samples", 1, (size_t)f->c->opts->max_keys, &x,
	                   &n)) != BB_OK)
		return s;
	if (n == 0) {
		free(x);
		return bb__jfail(f->j, "samples", "no samples");
	}
	if ((s = bb__build_timeline(f->b, an, BB_TL_JOINT, joint, BB_PROP_X,
	                            BB_APPLY_ADD, 1, (int)n, &t)) != BB_OK) {
		free(x);
		return s;
	}
	t->jvar = v;
	len = an->loop ? (int)n : (int)n - 1;
	/* offsets and origins are block units: 1 block = 16 model units */
	block = v <= BB_JV_OFFSET_Z || v >= BB_JV_ORIGIN_X;
	for (i = 0; i < n; i++) {
		t->values[i] = x[i] * (block ? FG_BLOCK : 1);
		t->times[i] = len > 0 ? (double)i / len : 0;
		t->interp[i].kind = interp[0] == 'l' ? BB_INTERP_LINEAR : BB_INTERP_NEAREST;
	}
	free(x);
	if (n == 1 && !an->loop)
		bb__model_warn(f->c->m, "%s: %s: one sample in a non-looping clip (the "
		               "runtime fails on it); held constant", f->j->file,
		               f->j->path.buf);
	return BB_OK;
}

static bb_status read_joint_clips(struct fg *f, bb_anim *an, json_t *clip)
{
	bb__jiter it, vt;
	json_t *list, *jv;
	int joint;
	bb_status s;

	if ((s = bb__jeach_member(f->j, clip, "joint_clips", 0, &it)) != BB_OK)
		return s;
	while (bb__jnext(&it, &list)) {
		unsigned seen = 0;

		if ((joint = find_joint(f->s, it.key)) < 0)
			return bb__jfail(f->j, NULL, "unknown joint \"%s\"", it.key);
		if (bb__jeach(f->j, list, NULL, 0, &vt) != BB_OK)
			return bb__jfail(f->j, NULL, "expected an array of variables");
		while (bb__jnext(&vt, &jv))
			if ((s = read_variable(f, an, joint, jv, &seen)) != BB_OK)
				return s;
	}
	return BB_OK;
}

static bb_status read_events(struct fg *f, bb_anim *an, json_t *clip)
{
	const char *text;
	bb__jiter it;
	json_t *v;
	bb_status s;

	if ((s = bb__jeach_member(f->j, clip, "events", 0, &it)) != BB_OK)
		return s;
	while (bb__jnext(&it, &v)) {
		double t;

		if (!bb__text_number(it.key, NAN, &t) || isnan(t))
			return bb__jfail(f->j, NULL, "event time \"%s\" is not a number",
			                 it.key);
		if (bb__jkind_of(v, NULL) != BB_JK_STRING ||
		    bb__jstr(f->j, v, NULL, 1, &text) != BB_OK)
			return bb__jfail(f->j, NULL, "expected the event's text");
		if (t < 0 || t >= 1) {
			bb__model_warn(f->c->m, "%s: %s: event time outside [0, 1) never "
			               "fires; left out", f->j->file, f->j->path.buf);
			continue;
		}
		if ((s = bb__build_event(f->b, an, t * an->duration, BB_EVENT_EVENT,
		                         text, NULL)) != BB_OK)
			return s;
	}
	return BB_OK;
}

static bb_status read_clips(struct fg *f, json_t *root)
{
	bb__jiter it;
	json_t *clip;
	bb_anim *an;
	int i;
	bb_status s;

	if ((s = bb__jeach_member(f->j, root, "clips", 0, &it)) != BB_OK)
		return s;
	if (it.n == 0) {           /* no clips: the model at rest */
		bb__jdone(&it);
		if ((s = bb__build_anim(f->b, f->a, "default", &an)) != BB_OK)
			return s;
		an->duration = 1;
		return BB_OK;
	}
	while (bb__jnext(&it, &clip)) {
		if ((s = bb__build_anim(f->b, f->a, it.key, &an)) != BB_OK)
			return s;
		an->duration = 1;          /* one clip cycle per second */
		if ((s = bb__jexpect_object(f->j, clip)) != BB_OK ||
		    (s = bb__jbool(f->j, clip, "loop", 0, &an->loop)) != BB_OK ||
		    (s = read_joint_clips(f, an, clip)) != BB_OK ||
		    (s = read_events(f, an, clip)) != BB_OK)
			return s;
	}
	for (i = 0; i < f->a->nanims; i++)
		if (strcmp(f->a->anims[i].name, "default") == 0)
			f->a->default_anim = i;
	return BB_OK;
}

/* ---- the whole file ------------------------------------------------------ */

bb_status bb__load_forge(bb__load_ctx *c, json_t *root, bb_model *m)
{
	struct fg *f = calloc(1, sizeof *f);
	size_t n = strlen(c->name);
	bb_status s;

	(void)m;
	if (!f)
		return bb__build_nomem(&c->b);
	f->c = c;
	f->j = &c->at;
	f->b = &c->b;
	if ((s = bb__jexpect_object(f->j, root)) != BB_OK ||
	    (s = bb__build_armatures(f->b, 1, &f->a)) != BB_OK ||
	    (s = bb__build_solid(f->b, f->a, &f->s)) != BB_OK)
		goto out;
	/* the armature is named after the file */
	if (n > 5 && strcmp(c->name + n - 5, ".json") == 0)
		n -= 5;
	if (!(f->a->name = bb__calloc(n + 1, 1))) {
		s = bb__build_nomem(f->b);
		goto out;
	}
	memcpy(f->a->name, c->name, n);
	f->s->centre[0] = f->s->centre[1] = f->s->centre[2] = FG_BLOCK / 2.0;
	if ((s = locate(f)) == BB_OK && (s = bb__fg_load_model(f)) == BB_OK &&
	    (s = read_joints(f, root)) == BB_OK)
		s = read_clips(f, root);
out:
	free(f);
	return s;
}
