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

/* Appends ["key"] to the path (element indices are string keys). */
static size_t jpath_strkey(bb__jpath *p, const char *key)
{
	size_t old = p->len;
	int n = snprintf(p->buf + p->len, sizeof p->buf - p->len, "[\"%.40s\"]", key);

	if (n > 0)
		p->len = p->len + (size_t)n < sizeof p->buf ? p->len + (size_t)n
		                                             : sizeof p->buf - 1;
	return old;
}

/* ---- where things are -------------------------------------------------- */

static int is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The "assets" folder a path lies in, and the namespace below it. */
static int find_assets(const char *path, char *root, size_t rsize, char *ns,
                       size_t nsize)
{
	const char *at = NULL, *p = path, *end;

	for (p = strstr(p, "assets/"); p; p = strstr(p + 1, "assets/"))
		if (p == path || p[-1] == '/')
			at = p;
	if (!at)
		return 0;
	end = strchr(at + 7, '/');
	if (!end)
		return 0;
	snprintf(root, rsize, "%.*s", (int)(at - path + 6), path);
	snprintf(ns, nsize, "%.*s", (int)(end - at - 7), at + 7);
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

static bb_status locate(struct fg *f)
{
	const bb_load_options *o = f->ctx->opts;
	char cand[4096], ns[256];
	struct stat st;

	if (o->model_path) {
		snprintf(f->model_path, sizeof f->model_path, "%s", o->model_path);
	} else if (layout_model(f->ctx->path, cand, sizeof cand) &&
	           stat(cand, &st) == 0) {
		snprintf(f->model_path, sizeof f->model_path, "%s", cand);
	} else {
		return bb_error_set(f->j.err, BB_ERR_INPUT, f->ctx->name, NULL,
		                    "no block model: --model FILE not given, and %s%s",
		                    layout_model(f->ctx->path, cand, sizeof cand) ? cand
		                    : "the file is not under assets/<mod>/armatures/",
		                    layout_model(f->ctx->path, cand, sizeof cand)
		                    ? " does not exist" : "");
	}
	if (!find_assets(f->model_path, f->assets, sizeof f->assets, ns, sizeof ns))
		find_assets(f->ctx->path, f->assets, sizeof f->assets, ns, sizeof ns);
	if (o->assets_dir) {
		snprintf(cand, sizeof cand, "%s/assets", o->assets_dir);
		snprintf(f->assets, sizeof f->assets, "%s",
		         is_dir(cand) ? cand : o->assets_dir);
	}
	return BB_OK;
}

/* ---- joints ------------------------------------------------------------ */

static bb_status add_weight(struct fg *f, size_t *cap, int joint, int elem,
                            double w)
{
	bb_solid *s = f->s;

	if (!bb__grow((void **)&s->weights, cap, (size_t)s->nweights + 1,
	              sizeof *s->weights))
		return bb__fg_nomem(f);
	s->weights[s->nweights].joint = joint;
	s->weights[s->nweights].elem = elem;
	s->weights[s->nweights].weight = w;
	s->nweights++;
	return BB_OK;
}

static bb_status read_joint(struct fg *f, int joint, json_t *jo, size_t *cap)
{
	const char *key;
	json_t *wv;
	bb_status s;

	if ((s = bb__jexpect_object(&f->j, jo)) != BB_OK)
		return s;
	json_object_foreach(jo, key, wv) {
		size_t mark = jpath_strkey(&f->j.path, key), i;
		long idx = 0;
		json_t *w0 = json_is_array(wv) ? json_array_get(wv, 0) : NULL;

		for (i = 0; key[i] && idx <= INT_MAX; i++)
			idx = key[i] >= '0' && key[i] <= '9' ? idx * 10 + (key[i] - '0')
			                                     : LONG_MAX;
		if (!key[0] || idx > INT_MAX)
			return bb__jfail(&f->j, NULL, "element index \"%s\" is not a "
			                 "decimal number", key);
		if (!w0 || !json_is_number(w0) || !isfinite(json_number_value(w0)))
			return bb__jfail(&f->j, NULL, "expected [weight]: an array "
			                 "starting with a number");
		/* Forge looks weights up by the model's element indices only: one
		 * beyond the model is never read (spec forge.md 5) */
		if (idx >= f->s->nelems)
			bb__model_warn(f->m, "%s: %s: element %ld out of range (%d "
			               "element%s); ignored, as Forge does", f->j.file,
			               f->j.path.buf, idx, f->s->nelems,
			               f->s->nelems == 1 ? "" : "s");
		else if ((s = add_weight(f, cap, joint, (int)idx,
		                         json_number_value(w0))) != BB_OK)
			return s;
		bb__jpath_pop(&f->j.path, mark);
	}
	return BB_OK;
}

static bb_status read_joints(struct fg *f, json_t *root)
{
	json_t *jj, *jo;
	const char *name;
	size_t n, cap = 0, mark;
	int k = 0;
	bb_status s;

	if ((s = bb__jobject(&f->j, root, "joints", 0, &jj)) != BB_OK || !jj)
		return s;
	n = json_object_size(jj);
	if (n > (size_t)f->ctx->opts->max_bones)
		return bb_error_set(f->j.err, BB_ERR_LIMIT, f->j.file, "joints",
		                    "%zu joints exceed the limit of %d", n,
		                    f->ctx->opts->max_bones);
	if (!(f->s->joints = bb__calloc(n, sizeof *f->s->joints)))
		return bb__fg_nomem(f);
	mark = bb__jpath_key(&f->j.path, "joints");
	json_object_foreach(jj, name, jo) {
		bb_solid_joint *j = &f->s->joints[k];
		size_t m2 = bb__jpath_key(&f->j.path, name);

		if (!(j->name = bb__strdup(name)))
			return bb__fg_nomem(f);
		j->origin[0] = j->origin[1] = j->origin[2] = FG_BLOCK / 2.0;
		f->s->njoints = ++k;
		if ((s = read_joint(f, k - 1, jo, &cap)) != BB_OK)
			return s;
		bb__jpath_pop(&f->j.path, m2);
	}
	bb__jpath_pop(&f->j.path, mark);
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

static bb_status read_samples(struct fg *f, json_t *jv, int var, bb_timeline *t,
                              int loop)
{
	json_t *samples;
	size_t n, i, mark;
	int len;
	bb_status s;

	if ((s = bb__jarray(&f->j, jv, "samples", 1, &samples)) != BB_OK)
		return s;
	n = json_array_size(samples);
	if (n == 0)
		return bb__jfail(&f->j, "samples", "no samples");
	if (n > (size_t)f->ctx->opts->max_keys)
		return bb_error_set(f->j.err, BB_ERR_LIMIT, f->j.file, f->j.path.buf,
		                    "%zu samples exceed the limit of %d", n,
		                    f->ctx->opts->max_keys);
	t->times = bb__calloc(n, sizeof *t->times);
	t->values = bb__calloc(n, sizeof *t->values);
	t->interp = bb__calloc(n, sizeof *t->interp);
	if (!t->times || !t->values || !t->interp)
		return bb__fg_nomem(f);
	t->nkeys = (int)n;
	len = loop ? (int)n : (int)n - 1;
	mark = bb__jpath_key(&f->j.path, "samples");
	for (i = 0; i < n; i++) {
		json_t *x = json_array_get(samples, i);
		int block = var <= BB_JV_OFFSET_Z || var >= BB_JV_ORIGIN_X;

		if (!json_is_number(x) || !isfinite(json_number_value(x))) {
			bb__jpath_index(&f->j.path, i);
			return bb__jfail(&f->j, NULL, "expected a number");
		}
		/* offsets and origins are block units: 1 block = 16 model units */
		t->values[i] = json_number_value(x) * (block ? FG_BLOCK : 1);
		t->times[i] = len > 0 ? (double)i / len : 0;
	}
	bb__jpath_pop(&f->j.path, mark);
	return BB_OK;
}

static bb_status read_variable(struct fg *f, bb_anim *an, int joint, json_t *jv,
                               unsigned *seen)
{
	bb_timeline *t = &an->timelines[an->ntimelines];
	const char *var, *type, *interp;
	int v, k;
	bb_status s;

	if ((s = bb__jexpect_object(&f->j, jv)) != BB_OK ||
	    (s = bb__jstr(&f->j, jv, "variable", 1, &var)) != BB_OK ||
	    (s = bb__jstr(&f->j, jv, "type", 0, &type)) != BB_OK ||
	    (s = bb__jstr(&f->j, jv, "interpolation", 1, &interp)) != BB_OK)
		return s;
	for (v = 0; v < BB_JV_COUNT && strcmp(var, var_names[v]) != 0; v++)
		;
	if (v == BB_JV_COUNT)
		return bb__jfail(&f->j, "variable", "unknown variable \"%s\"", var);
	if (*seen & (1u << v))
		return bb__jfail(&f->j, "variable", "variable \"%s\" appears twice in "
		                 "this joint clip", var);
	*seen |= 1u << v;
	if (type && strcmp(type, "uniform") != 0)
		return bb__jfail(&f->j, "type", "expected \"uniform\", not \"%s\"", type);
	if (strcmp(interp, "linear") != 0 && strcmp(interp, "nearest") != 0)
		return bb__jfail(&f->j, "interpolation", "expected \"linear\" or "
		                 "\"nearest\", not \"%s\"", interp);
	an->ntimelines++;
	t->target = BB_TL_JOINT;
	t->index = joint;
	t->jvar = v;
	t->stride = 1;
	if ((s = read_samples(f, jv, v, t, an->loop)) != BB_OK)
		return s;
	for (k = 0; k < t->nkeys; k++)
		t->interp[k].kind = interp[0] == 'l' ? BB_INTERP_LINEAR : BB_INTERP_NEAREST;
	if (t->nkeys == 1 && !an->loop)
		bb__model_warn(f->m, "%s: %s: one sample in a non-looping clip (the "
		               "runtime fails on it); held constant", f->j.file,
		               f->j.path.buf);
	return BB_OK;
}

static bb_status read_joint_clip(struct fg *f, bb_anim *an, const char *jname,
                                 json_t *list, long *keys)
{
	int joint = find_joint(f->s, jname);
	unsigned seen = 0;
	size_t i;
	bb_status s;

	if (joint < 0)
		return bb__jfail(&f->j, NULL, "unknown joint \"%s\"", jname);
	if (!json_is_array(list))
		return bb__jfail(&f->j, NULL, "expected an array of variables");
	for (i = 0; i < json_array_size(list); i++) {
		size_t mark = bb__jpath_index(&f->j.path, i);

		if ((s = read_variable(f, an, joint, json_array_get(list, i), &seen)) != BB_OK)
			return s;
		*keys += an->timelines[an->ntimelines - 1].nkeys;
		if (*keys > f->ctx->opts->max_keys)
			return bb_error_set(f->j.err, BB_ERR_LIMIT, f->j.file, f->j.path.buf,
			                    "more than %d keys in the clip",
			                    f->ctx->opts->max_keys);
		bb__jpath_pop(&f->j.path, mark);
	}
	return BB_OK;
}

static bb_status read_joint_clips(struct fg *f, bb_anim *an, json_t *clip)
{
	json_t *jc, *list;
	const char *jname;
	size_t total = 0, mark;
	long keys = 0;
	bb_status s;

	if ((s = bb__jobject(&f->j, clip, "joint_clips", 0, &jc)) != BB_OK || !jc)
		return s;
	json_object_foreach(jc, jname, list)
		total += json_is_array(list) ? json_array_size(list) : 0;
	if (!(an->timelines = bb__calloc(total, sizeof *an->timelines)))
		return bb__fg_nomem(f);
	mark = bb__jpath_key(&f->j.path, "joint_clips");
	json_object_foreach(jc, jname, list) {
		size_t m2 = bb__jpath_key(&f->j.path, jname);

		if ((s = read_joint_clip(f, an, jname, list, &keys)) != BB_OK)
			return s;
		bb__jpath_pop(&f->j.path, m2);
	}
	bb__jpath_pop(&f->j.path, mark);
	return BB_OK;
}

/* Insertion sort by time: stable, so equal times keep the file's order. */
static void sort_events(bb_event *e, int n)
{
	int i, k;

	for (i = 1; i < n; i++) {
		bb_event x = e[i];

		for (k = i; k > 0 && e[k - 1].time > x.time; k--)
			e[k] = e[k - 1];
		e[k] = x;
	}
}

static bb_status read_events(struct fg *f, bb_anim *an, json_t *clip)
{
	json_t *je, *v;
	const char *key;
	bb_status s;
	size_t mark;

	if ((s = bb__jobject(&f->j, clip, "events", 0, &je)) != BB_OK || !je)
		return s;
	if (!(an->events = bb__calloc(json_object_size(je), sizeof *an->events)))
		return bb__fg_nomem(f);
	mark = bb__jpath_key(&f->j.path, "events");
	json_object_foreach(je, key, v) {
		char *end;
		double t = strtod(key, &end);
		bb_event *e = &an->events[an->nevents];

		if (end == key || *end || !isfinite(t))
			return bb__jfail(&f->j, key, "event time \"%s\" is not a number", key);
		if (!json_is_string(v))
			return bb__jfail(&f->j, key, "expected the event's text");
		if (t < 0 || t >= 1) {
			bb__model_warn(f->m, "%s: %s.%s: event time outside [0, 1) never "
			               "fires; left out", f->j.file, f->j.path.buf, key);
			continue;
		}
		e->time = t * an->duration;
		e->kind = BB_EVENT_EVENT;
		if (!(e->name = bb__strdup(json_string_value(v))))
			return bb__fg_nomem(f);
		an->nevents++;
	}
	sort_events(an->events, an->nevents);
	bb__jpath_pop(&f->j.path, mark);
	return BB_OK;
}

static bb_status read_clip(struct fg *f, bb_anim *an, const char *name,
                           json_t *clip)
{
	bb_status s;

	if (!(an->name = bb__strdup(name)))
		return bb__fg_nomem(f);
	an->duration = 1;          /* one clip cycle per second */
	an->layer = BB_LAYER_BODY;
	if ((s = bb__jexpect_object(&f->j, clip)) != BB_OK ||
	    (s = bb__jbool(&f->j, clip, "loop", 0, &an->loop)) != BB_OK ||
	    (s = read_joint_clips(f, an, clip)) != BB_OK)
		return s;
	return read_events(f, an, clip);
}

static bb_status read_clips(struct fg *f, json_t *root)
{
	bb_armature *a = f->a;
	json_t *jc, *clip;
	const char *name;
	size_t n, mark;
	bb_status s;
	int i;

	if ((s = bb__jobject(&f->j, root, "clips", 0, &jc)) != BB_OK)
		return s;
	n = jc ? json_object_size(jc) : 0;
	if (!(a->anims = bb__calloc(n ? n : 1, sizeof *a->anims)))
		return bb__fg_nomem(f);
	if (n == 0) {              /* no clips: the model at rest */
		a->nanims = 1;
		a->anims[0].duration = 1;
		return (a->anims[0].name = bb__strdup("default")) ? BB_OK
		                                                  : bb__fg_nomem(f);
	}
	mark = bb__jpath_key(&f->j.path, "clips");
	json_object_foreach(jc, name, clip) {
		size_t m2 = bb__jpath_key(&f->j.path, name);

		a->nanims++;
		if ((s = read_clip(f, &a->anims[a->nanims - 1], name, clip)) != BB_OK)
			return s;
		bb__jpath_pop(&f->j.path, m2);
	}
	bb__jpath_pop(&f->j.path, mark);
	for (i = 0; i < a->nanims; i++)
		if (strcmp(a->anims[i].name, "default") == 0)
			a->default_anim = i;
	return BB_OK;
}

/* ---- the whole file ------------------------------------------------------ */

static bb_status load_root(struct fg *f, json_t *root)
{
	const char *base = f->ctx->name;
	size_t n = strlen(base);
	bb_status s;

	if ((s = bb__jexpect_object(&f->j, root)) != BB_OK)
		return s;
	if (!(f->a = bb__model_add_armature(f->m)) ||
	    !(f->s = f->a->solid = calloc(1, sizeof *f->s)))
		return bb__fg_nomem(f);
	if (!(f->a->name = malloc(n + 1)))
		return bb__fg_nomem(f);
	snprintf(f->a->name, n + 1, "%.*s", (int)(n > 5 && strcmp(base + n - 5,
	         ".json") == 0 ? n - 5 : n), base);
	f->s->centre[0] = f->s->centre[1] = f->s->centre[2] = FG_BLOCK / 2.0;
	if ((s = locate(f)) != BB_OK || (s = bb__fg_load_model(f)) != BB_OK)
		return s;
	bb__jpath_init(&f->j.path);
	if ((s = read_joints(f, root)) != BB_OK)
		return s;
	return read_clips(f, root);
}

bb_status bb__load_forge(bb__load_ctx *ctx, json_t *root, bb_model *m)
{
	struct fg *f;
	bb_status s;

	f = calloc(1, sizeof *f);
	if (!f)
		return bb_error_set(ctx->err, BB_ERR_NOMEM, ctx->name, NULL, "out of memory");
	f->ctx = ctx;
	f->j.file = ctx->name;
	f->j.err = ctx->err;
	bb__jpath_init(&f->j.path);
	f->m = m;
	s = load_root(f, root);
	free(f);
	return s;
}
