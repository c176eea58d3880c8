/* frames.json reader (jansson).  Every field is checked; errors name the
 * field's path. */
#include "config.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bonebake/output.h"
#include "bonebake/image.h"
#include "core/util.h"

enum { MAX_ITEMS = 100000 };
#define MAX_FILE_BYTES ((size_t)64 << 20)

static bb_status field_error(bb_error *err, const char *path, const char *field,
                             const char *what)
{
	return bb_error_set(err, BB_ERR_INPUT, path, field, "%s", what);
}

/* An optional number (absent: def) in [lo, hi]. */
static int get_number(json_t *o, const char *key, double lo, double hi,
                      double def, double *out)
{
	json_t *v = json_object_get(o, key);

	if (!v) {
		*out = def;
		return 1;
	}
	if (!json_is_number(v))
		return 0;
	*out = json_number_value(v);
	return isfinite(*out) && *out >= lo && *out <= hi;
}

static char *get_string(json_t *o, const char *key, int *ok)
{
	json_t *v = json_object_get(o, key);
	char *s;

	if (v && !json_is_string(v)) {
		*ok = 0;
		return NULL;
	}
	s = bb__strdup(v ? json_string_value(v) : "");
	if (!s)
		*ok = -1;
	return s;
}

static int safe_file(const char *s)
{
	return s[0] && !strchr(s, '/') && !strchr(s, '\\') && strcmp(s, ".") != 0 &&
	       strcmp(s, "..") != 0;
}

static bb_status read_frames(json_t *root, const char *path, unsigned flags,
                             bb_frames_json *f, bb_error *err)
{
	json_t *a = json_object_get(root, "frames");
	char field[64];
	size_t i;

	if (!a && (flags & BB_FRAMES_JSON_PARTIAL))
		return BB_OK;
	if (!json_is_array(a) || (json_array_size(a) == 0 &&
	                          !(flags & BB_FRAMES_JSON_PARTIAL)))
		return field_error(err, path, "frames", "expected a non-empty array");
	if (json_array_size(a) > MAX_ITEMS)
		return bb_error_set(err, BB_ERR_LIMIT, path, "frames", "%zu frames "
		                    "exceed the limit of %d", json_array_size(a), MAX_ITEMS);
	f->frames = bb__calloc(json_array_size(a), sizeof *f->frames);
	if (!f->frames)
		return bb_error_set(err, BB_ERR_NOMEM, path, NULL, "out of memory");
	for (i = 0; i < json_array_size(a); i++) {
		json_t *e = json_array_get(a, i), *file = json_object_get(e, "file");

		f->n_frames = i + 1;
		snprintf(field, sizeof field, "frames[%zu].file", i);
		if (!json_is_object(e) || !json_is_string(file))
			return field_error(err, path, field, "expected a file name");
		if (!safe_file(json_string_value(file)))
			return field_error(err, path, field, "not a plain file name");
		if (!(f->frames[i].file = bb__strdup(json_string_value(file))))
			return bb_error_set(err, BB_ERR_NOMEM, path, NULL, "out of memory");
		snprintf(field, sizeof field, "frames[%zu].time", i);
		if (!get_number(e, "time", 0, 1e9, -1, &f->frames[i].time))
			return field_error(err, path, field, "expected a time >= 0");
	}
	return BB_OK;
}

static bb_status read_events(json_t *root, const char *path, bb_frames_json *f,
                             bb_error *err)
{
	json_t *a = json_object_get(root, "events");
	char field[64];
	size_t i;

	if (!a)
		return BB_OK;
	if (!json_is_array(a))
		return field_error(err, path, "events", "expected an array");
	if (json_array_size(a) > MAX_ITEMS)
		return bb_error_set(err, BB_ERR_LIMIT, path, "events", "%zu events "
		                    "exceed the limit of %d", json_array_size(a), MAX_ITEMS);
	f->events = bb__calloc(json_array_size(a) + 1, sizeof *f->events);
	if (!f->events)
		return bb_error_set(err, BB_ERR_NOMEM, path, NULL, "out of memory");
	for (i = 0; i < json_array_size(a); i++) {
		json_t *e = json_array_get(a, i);
		bb_frames_json_event *ev = &f->events[i];
		double frame;
		int ok = 1;

		f->n_events = i + 1;
		snprintf(field, sizeof field, "events[%zu]", i);
		if (!json_is_object(e))
			return field_error(err, path, field, "expected an object");
		ev->name = get_string(e, "name", &ok);
		ev->kind = ok > 0 ? get_string(e, "kind", &ok) : NULL;
		if (ok > 0 && json_object_get(e, "data"))
			ev->data = get_string(e, "data", &ok);
		if (ok < 0)
			return bb_error_set(err, BB_ERR_NOMEM, path, NULL, "out of memory");
		if (!ok)
			return field_error(err, path, field, "name, kind and data must be "
			                   "strings");
		snprintf(field, sizeof field, "events[%zu].time", i);
		if (!get_number(e, "time", -1e9, 1e9, 0, &ev->time))
			return field_error(err, path, field, "expected a number");
		snprintf(field, sizeof field, "events[%zu].frame", i);
		if (!get_number(e, "frame", -1, MAX_ITEMS, -1, &frame) ||
		    frame != floor(frame))
			return field_error(err, path, field, "expected a frame index");
		ev->frame = (long)frame;
	}
	return BB_OK;
}

/* overlay / face: { "animation", "start" }, optional. */
static bb_status read_layer(json_t *root, const char *key, const char *path,
                            bb_frames_json_layer *l, bb_error *err)
{
	json_t *o = json_object_get(root, key), *a;

	if (!o)
		return BB_OK;
	a = json_object_get(o, "animation");
	if (!json_is_object(o) || !json_is_string(a) ||
	    !get_number(o, "start", 0, 1e9, 0, &l->start))
		return field_error(err, path, key, "expected { \"animation\": name, "
		                   "\"start\": seconds }");
	if (!(l->animation = bb__strdup(json_string_value(a))))
		return bb_error_set(err, BB_ERR_NOMEM, path, NULL, "out of memory");
	return BB_OK;
}

static bb_status read_root(json_t *root, const char *path, unsigned flags,
                           bb_frames_json *f, bb_error *err)
{
	int partial = (flags & BB_FRAMES_JSON_PARTIAL) != 0;
	json_t *canvas = json_object_get(root, "canvas"), *origin, *loop;
	double w, h;
	int ok = 1;
	bb_status s;

	if (!json_is_object(root))
		return field_error(err, path, NULL, "expected an object");
	f->animation = get_string(root, "animation", &ok);
	if (ok > 0)
		f->armature = get_string(root, "armature", &ok);
	if (ok < 0)
		return bb_error_set(err, BB_ERR_NOMEM, path, NULL, "out of memory");
	if (!ok)
		return field_error(err, path, f->animation ? "armature" : "animation",
		                   "expected a string");
	if ((!partial && !json_object_get(root, "fps")) ||
	    !get_number(root, "fps", 1e-9, 1000, 0, &f->fps))
		return field_error(err, path, "fps", "expected a number in (0, 1000]");
	loop = json_object_get(root, "loop");
	if (loop && !json_is_boolean(loop))
		return field_error(err, path, "loop", "expected true or false");
	f->loop = loop ? json_is_true(loop) : 1;
	if (!get_number(root, "duration", 0, 1e9, 0, &f->duration))
		return field_error(err, path, "duration", "expected a number >= 0");
	if (!get_number(root, "scale", 1e-9, 1e6, 1, &f->scale))
		return field_error(err, path, "scale", "expected a number > 0");
	if (partial && !canvas)
		w = h = 0;
	else if (!json_is_object(canvas) ||
	    !json_object_get(canvas, "width") || !json_object_get(canvas, "height") ||
	    !get_number(canvas, "width", 1, BB_IMAGE_MAX_SIDE, 0, &w) ||
	    !get_number(canvas, "height", 1, BB_IMAGE_MAX_SIDE, 0, &h) ||
	    w != floor(w) || h != floor(h))
		return field_error(err, path, "canvas", "expected { \"width\", \"height\" } "
		                   "integers in 1..32768");
	f->width = (int)w;
	f->height = (int)h;
	origin = json_object_get(root, "origin");
	if (origin && (!json_is_object(origin) ||
	               !get_number(origin, "x", -1e9, 1e9, 0, &f->origin_x) ||
	               !get_number(origin, "y", -1e9, 1e9, 0, &f->origin_y)))
		return field_error(err, path, "origin", "expected { \"x\", \"y\" } numbers");
	f->has_origin = origin != NULL;
	if (json_object_get(root, "preview")) {
		f->preview = get_string(root, "preview", &ok);
		if (ok < 0)
			return bb_error_set(err, BB_ERR_NOMEM, path, NULL, "out of memory");
		if (!ok || !safe_file(f->preview))
			return field_error(err, path, "preview", "expected a plain file name");
	}
	if ((s = read_layer(root, "overlay", path, &f->overlay, err)) != BB_OK ||
	    (s = read_layer(root, "face", path, &f->face, err)) != BB_OK ||
	    (s = read_frames(root, path, flags, f, err)) != BB_OK)
		return s;
	return read_events(root, path, f, err);
}

bb_status bb_frames_json_read(const char *path, unsigned flags,
                              bb_frames_json **out, bb_error *err)
{
	json_error_t je;
	json_t *root;
	char *data;
	size_t size;
	bb_status s;

	*out = NULL;
	s = bb__read_file(path, MAX_FILE_BYTES, &data, &size, err);
	if (s != BB_OK)
		return s;
	root = json_loadb(data, size, JSON_REJECT_DUPLICATES, &je);
	free(data);
	if (!root) {
		s = bb_error_set(err, BB_ERR_INPUT, path, NULL, "invalid JSON: %s",
		                 je.text);
		if (err)
			err->line = je.line;
		return s;
	}
	*out = calloc(1, sizeof **out);
	if (!*out) {
		json_decref(root);
		return bb_error_set(err, BB_ERR_NOMEM, path, NULL, "out of memory");
	}
	s = read_root(root, path, flags, *out, err);
	json_decref(root);
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
