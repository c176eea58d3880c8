/* frames.json reader: every field read through core/json.h, so an error
 * names the file and the field's path as a loader's does. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bonebake/output.h"
#include "bonebake/image.h"
#include "core/json.h"
#include "core/util.h"

enum { MAX_ITEMS = 100000 };
#define MAX_FILE_BYTES ((size_t)64 << 20)

/* An optional number (absent: def, taken as it is) in [lo, hi], an integer
 * when whole; `what` names the values the message expects. */
static bb_status number(bb__jctx *c, json_t *o, const char *key, double def,
                        double lo, double hi, int whole, const char *what,
                        double *out)
{
	bb_status s = bb__jnum(c, o, key, def, out);

	if (s != BB_OK || !bb__jhas(o, key))
		return s;
	if (*out < lo || *out > hi || (whole && *out != floor(*out)))
		return bb__jfail(c, key, "expected %s, found %g", what, *out);
	return BB_OK;
}

/* An optional string, copied; absent: "" (or NULL when keep_absent). */
static bb_status string(bb__jctx *c, json_t *o, const char *key,
                        int keep_absent, char **out)
{
	const char *v;
	bb_status s = bb__jstr(c, o, key, 0, &v);

	*out = NULL;
	if (s != BB_OK || (!v && keep_absent))
		return s;
	return (*out = bb__strdup(v ? v : "")) ? BB_OK : bb__jnomem(c);
}

static int safe_file(const char *s)
{
	return s[0] && !strchr(s, '/') && !strchr(s, '\\') && strcmp(s, ".") != 0 &&
	       strcmp(s, "..") != 0;
}

/* A file name beside frames.json (no folder in it), copied. */
static bb_status file_name(bb__jctx *c, json_t *o, const char *key,
                           int required, char **out)
{
	const char *v;
	bb_status s = bb__jstr(c, o, key, required, &v);

	*out = NULL;
	if (s != BB_OK || !v)
		return s;
	if (!safe_file(v))
		return bb__jfail(c, key, "not a plain file name");
	return (*out = bb__strdup(v)) ? BB_OK : bb__jnomem(c);
}

/* The frames or events array: absent is no items (*out stays NULL)
 * unless required; more than MAX_ITEMS is a limit; *out gets room for
 * them. */
static bb_status items(bb__jctx *c, json_t *root, const char *key,
                       unsigned flags, size_t size, void **out, bb__jiter *it)
{
	bb_status s = bb__jeach(c, root, key, flags, it);

	if (s != BB_OK || !it->v)
		return s;
	if (it->n > MAX_ITEMS)
		return bb__jlimit(c, NULL, "%zu %s exceed the limit of %d", it->n, key,
		                  MAX_ITEMS);
	if (!(*out = bb__calloc(it->n + 1, size)))
		return bb__jnomem(c);
	return BB_OK;
}

static bb_status read_frames(bb__jctx *c, json_t *root, unsigned flags,
                             bb_frames_json *f)
{
	int partial = (flags & BB_FRAMES_JSON_PARTIAL) != 0;
	bb__jiter it;
	json_t *e;
	bb_status s;

	if ((s = items(c, root, "frames", partial ? 0 : BB_J_REQUIRED,
	               sizeof *f->frames, (void **)&f->frames, &it)) != BB_OK)
		return s;
	if (it.n == 0 && !partial)
		return bb__jfail(c, NULL, "expected a non-empty array");
	while (bb__jnext(&it, &e)) {
		bb_frames_json_entry *fr = &f->frames[it.index];

		f->n_frames = it.index + 1;
		if ((s = bb__jexpect_object(c, e)) != BB_OK ||
		    (s = file_name(c, e, "file", 1, &fr->file)) != BB_OK ||
		    (s = number(c, e, "time", -1, 0, 1e9, 0, "a time >= 0",
		                &fr->time)) != BB_OK)
			return s;
	}
	return BB_OK;
}

static bb_status read_events(bb__jctx *c, json_t *root, bb_frames_json *f)
{
	bb__jiter it;
	json_t *e;
	bb_status s;

	if ((s = items(c, root, "events", 0, sizeof *f->events,
	               (void **)&f->events, &it)) != BB_OK)
		return s;
	while (bb__jnext(&it, &e)) {
		bb_frames_json_event *ev = &f->events[it.index];
		double frame;

		f->n_events = it.index + 1;
		if ((s = bb__jexpect_object(c, e)) != BB_OK ||
		    (s = string(c, e, "name", 0, &ev->name)) != BB_OK ||
		    (s = string(c, e, "kind", 0, &ev->kind)) != BB_OK ||
		    (s = string(c, e, "data", 1, &ev->data)) != BB_OK ||
		    (s = number(c, e, "time", 0, -1e9, 1e9, 0, "a time in seconds",
		                &ev->time)) != BB_OK ||
		    (s = number(c, e, "frame", -1, -1, MAX_ITEMS, 1, "a frame index",
		                &frame)) != BB_OK)
			return s;
		ev->frame = (long)frame;
	}
	return BB_OK;
}

/* overlay / face: { "animation", "start" }, optional. */
static bb_status read_layer(bb__jctx *c, json_t *root, const char *key,
                            bb_frames_json_layer *l)
{
	json_t *o;
	size_t mark = c->path.len;
	bb_status s;

	if ((s = bb__jobject(c, root, key, 0, &o)) != BB_OK || !o)
		return s;
	bb__jpath_key(&c->path, key);
	if ((s = string(c, o, "animation", 1, &l->animation)) == BB_OK && !l->animation)
		s = bb__jfail(c, "animation", "missing");
	if (s == BB_OK)
		s = number(c, o, "start", 0, 0, 1e9, 0, "a time >= 0", &l->start);
	bb__jpath_pop(&c->path, mark);
	return s;
}

/* canvas: { "width", "height" } integers; required unless partial. */
static bb_status read_canvas(bb__jctx *c, json_t *root, int partial,
                             bb_frames_json *f)
{
	static const char what[] = "an integer in 1..32768";
	json_t *o;
	double w, h;
	size_t mark = c->path.len;
	bb_status s;

	if ((s = bb__jobject(c, root, "canvas", !partial, &o)) != BB_OK || !o)
		return s;
	bb__jpath_key(&c->path, "canvas");
	if ((s = bb__jnum_req(c, o, "width", &w)) == BB_OK &&
	    (s = bb__jnum_req(c, o, "height", &h)) == BB_OK &&
	    (s = number(c, o, "width", 0, 1, BB_IMAGE_MAX_SIDE, 1, what, &w)) == BB_OK &&
	    (s = number(c, o, "height", 0, 1, BB_IMAGE_MAX_SIDE, 1, what, &h)) == BB_OK) {
		f->width = (int)w;
		f->height = (int)h;
	}
	bb__jpath_pop(&c->path, mark);
	return s;
}

/* origin: { "x", "y" } numbers, optional. */
static bb_status read_origin(bb__jctx *c, json_t *root, bb_frames_json *f)
{
	static const char what[] = "a number in -1e9..1e9";
	json_t *o;
	size_t mark = c->path.len;
	bb_status s;

	if ((s = bb__jobject(c, root, "origin", 0, &o)) != BB_OK || !o)
		return s;
	f->has_origin = 1;
	bb__jpath_key(&c->path, "origin");
	if ((s = number(c, o, "x", 0, -1e9, 1e9, 0, what, &f->origin_x)) == BB_OK)
		s = number(c, o, "y", 0, -1e9, 1e9, 0, what, &f->origin_y);
	bb__jpath_pop(&c->path, mark);
	return s;
}

static bb_status read_root(bb__jctx *c, json_t *root, unsigned flags,
                           bb_frames_json *f)
{
	int partial = (flags & BB_FRAMES_JSON_PARTIAL) != 0;
	bb_status s;

	if ((s = bb__jexpect_object(c, root)) != BB_OK ||
	    (s = string(c, root, "animation", 0, &f->animation)) != BB_OK ||
	    (s = string(c, root, "armature", 0, &f->armature)) != BB_OK)
		return s;
	if (!partial && !bb__jhas(root, "fps"))
		return bb__jfail(c, "fps", "missing");
	if ((s = number(c, root, "fps", 0, 1e-9, 1000, 0, "a number in (0, 1000]",
	                &f->fps)) != BB_OK ||
	    (s = bb__jbool(c, root, "loop", 1, &f->loop)) != BB_OK ||
	    (s = number(c, root, "duration", 0, 0, 1e9, 0, "a number >= 0",
	                &f->duration)) != BB_OK ||
	    (s = number(c, root, "scale", 1, 1e-9, 1e6, 0, "a number > 0",
	                &f->scale)) != BB_OK ||
	    (s = read_canvas(c, root, partial, f)) != BB_OK ||
	    (s = read_origin(c, root, f)) != BB_OK ||
	    (s = file_name(c, root, "preview", 0, &f->preview)) != BB_OK ||
	    (s = read_layer(c, root, "overlay", &f->overlay)) != BB_OK ||
	    (s = read_layer(c, root, "face", &f->face)) != BB_OK ||
	    (s = read_frames(c, root, flags, f)) != BB_OK)
		return s;
	return read_events(c, root, f);
}

bb_status bb_frames_json_read(const char *path, unsigned flags,
                              bb_frames_json **out, bb_error *err)
{
	bb__jctx c;
	json_t *root;
	char *data;
	size_t size;
	bb_status s;

	*out = NULL;
	s = bb__read_file(path, MAX_FILE_BYTES, &data, &size, err);
	if (s != BB_OK)
		return s;
	s = bb__json_parse(data, size, path, &root, err);
	free(data);
	if (s != BB_OK)
		return s;
	bb__jctx_init(&c, path, err, 0);
	if (!(*out = calloc(1, sizeof **out))) {
		bb__json_free(root);
		return bb__jnomem(&c);
	}
	s = read_root(&c, root, flags, *out);
	bb__json_free(root);
	if (s != BB_OK) {
		bb_frames_json_free(*out);
		*out = NULL;
	}
	return s;
}

void bb_frames_json_free(bb_frames_json *f)
{
	size_t i;

	if (!f)
		return;
	for (i = 0; i < f->n_frames; i++)
		free(f->frames[i].file);
	for (i = 0; i < f->n_events; i++) {
		free(f->events[i].name);
		free(f->events[i].kind);
		free(f->events[i].data);
	}
	free(f->overlay.animation);
	free(f->face.animation);
	free(f->preview);
	free(f->frames);
	free(f->events);
	free(f->animation);
	free(f->armature);
	free(f);
}

/* ---- writing ----------------------------------------------------------- */

static void str(FILE *o, const char *s)
{
	bb_json_quote(s, bb_put_file, o);
}

static void layer(FILE *o, const char *key, const bb_frames_json_layer *l)
{
	if (!l->animation)
		return;
	fprintf(o, "  \"%s\": { \"animation\": ", key);
	str(o, l->animation);
	fprintf(o, ", \"start\": %.17g },\n", l->start);
}

static void emit(FILE *o, const bb_frames_json *f)
{
	size_t i;

	fprintf(o, "{\n  \"animation\": ");
	str(o, f->animation ? f->animation : "");
	fprintf(o, ",\n  \"armature\": ");
	str(o, f->armature ? f->armature : "");
	fprintf(o, ",\n  \"fps\": %.17g,\n  \"loop\": %s,\n  \"duration\": %.17g,\n",
	        f->fps, f->loop ? "true" : "false", f->duration);
	fprintf(o, "  \"scale\": %.17g,\n", f->scale);
	fprintf(o, "  \"canvas\": { \"width\": %d, \"height\": %d },\n", f->width,
	        f->height);
	fprintf(o, "  \"origin\": { \"x\": %.17g, \"y\": %.17g },\n", f->origin_x,
	        f->origin_y);
	layer(o, "overlay", &f->overlay);
	layer(o, "face", &f->face);
	if (f->preview) {
		fprintf(o, "  \"preview\": ");
		str(o, f->preview);
		fprintf(o, ",\n");
	}
	fprintf(o, "  \"events\": [");
	for (i = 0; i < f->n_events; i++) {
		const bb_frames_json_event *e = &f->events[i];

		fprintf(o, "%s\n    { \"name\": ", i ? "," : "");
		str(o, e->name ? e->name : "");
		fprintf(o, ", \"kind\": ");
		str(o, e->kind ? e->kind : "");
		fprintf(o, ", \"time\": %.17g, \"frame\": %ld", e->time, e->frame);
		if (e->data) {
			fprintf(o, ", \"data\": ");
			str(o, e->data);
		}
		fprintf(o, " }");
	}
	fprintf(o, "%s],\n", f->n_events ? "\n  " : "");
	fprintf(o, "  \"frames\": [\n");
	for (i = 0; i < f->n_frames; i++) {
		fprintf(o, "    { \"file\": ");
		str(o, f->frames[i].file ? f->frames[i].file : "");
		fprintf(o, ", \"time\": %.17g }%s\n", f->frames[i].time,
		        i + 1 < f->n_frames ? "," : "");
	}
	fprintf(o, "  ]\n}\n");
}

bb_status bb_frames_json_write(const char *path, const bb_frames_json *f,
                               bb_error *err)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *o = open_memstream(&buf, &size);
	bb_status s;

	if (!o)
		return bb_error_set(err, BB_ERR_NOMEM, path, NULL, "out of memory");
	emit(o, f);
	if (fclose(o) != 0) {
		free(buf);
		return bb_error_set(err, BB_ERR_NOMEM, path, NULL, "out of memory");
	}
	s = bb_file_write_atomic(path, buf, size, err);
	free(buf);
	return s;
}
