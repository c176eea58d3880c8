/* The `diff` command per animation: folders that hold a frames.json on
 * both sides are render outputs, compared animation by animation.  Their
 * frames.json first (fps, loop, duration, frame count, events with their
 * frames, canvas and origin), then their frames; frames of two different
 * canvases are aligned on the origin pixel and compared on the union of
 * both, so a motion that grows the canvas still gives a pixel count and a
 * diff image instead of a size mismatch. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "diff-run.h"

static const char *const ANIM_STATUS_NAMES[AS_COUNT] = {
	"changed", "removed", "added", "error", "identical"
};

const char *diff_anim_status_name(enum anim_status s)
{
	return s < AS_COUNT ? ANIM_STATUS_NAMES[s] : "?";
}

/* The folder of a relative path ("." for a file at the top), new. */
static char *folder_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? strndup(path, (size_t)(slash - path)) : strdup(".");
}

static int cmp_anim(const void *a, const void *b)
{
	return strcmp(((const struct diff_anim *)a)->path,
	              ((const struct diff_anim *)b)->path);
}

static struct diff_anim *find_anim(const struct diff_run *run, const char *dir)
{
	struct diff_anim key;

	memset(&key, 0, sizeof key);
	key.path = (char *)dir;
	return run->nanims ? bsearch(&key, run->anims, run->nanims,
	                             sizeof *run->anims, cmp_anim) : NULL;
}

static int push_change(struct diff_anim *a, const char *field, char *va,
                       char *vb)
{
	struct diff_change *c;

	if (!va || !vb ||
	    !(c = realloc(a->changes, (a->nchanges + 1) * sizeof *c))) {
		free(va);
		free(vb);
		return -1;
	}
	a->changes = c;
	c = &a->changes[a->nchanges++];
	snprintf(c->field, sizeof c->field, "%s", field);
	c->baseline = va;
	c->current = vb;
	return 0;
}

/* A number change (values printed with %.17g, compared to 1e-9). */
static int num_change(struct diff_anim *a, const char *field, double x,
                      double y)
{
	char va[32], vb[32];

	if (fabs(x - y) <= 1e-9 * (fabs(x) > 1 ? fabs(x) : 1))
		return 0;
	snprintf(va, sizeof va, "%.10g", x);
	snprintf(vb, sizeof vb, "%.10g", y);
	return push_change(a, field, strdup(va), strdup(vb));
}

/* A JSON string literal of s, new. */
static char *json_str(const char *s)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *m = open_memstream(&buf, &size);

	if (!m)
		return NULL;
	if (s)
		cli_json_string(m, s);
	else
		fputs("null", m);
	if (fclose(m) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

static int str_change(struct diff_anim *a, const char *field, const char *x,
                      const char *y)
{
	if ((!x && !y) || (x && y && strcmp(x, y) == 0))
		return 0;
	return push_change(a, field, json_str(x), json_str(y));
}

/* "[w, h]" or "[x, y]". */
static char *json_pair(double x, double y)
{
	char s[80];

	snprintf(s, sizeof s, "[%.10g, %.10g]", x, y);
	return strdup(s);
}

/* The events as "[{"name", "frame"}, ...]" JSON text, new. */
static char *json_events(const bb_frames_json *f)
{
	char *buf = NULL;
	size_t size = 0, i;
	FILE *m = open_memstream(&buf, &size);

	if (!m)
		return NULL;
	fputc('[', m);
	for (i = 0; i < f->n_events; i++) {
		fprintf(m, "%s{\"name\": ", i ? ", " : "");
		cli_json_string(m, f->events[i].name);
		fprintf(m, ", \"frame\": %ld}", f->events[i].frame);
	}
	fputc(']', m);
	if (fclose(m) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

static int compare_events(struct diff_anim *d)
{
	const bb_frames_json *a = d->a, *b = d->b;
	char field[64];
	size_t i;
	int rc = 0;

	if (a->n_events != b->n_events)
		return push_change(d, "events", json_events(a), json_events(b));
	for (i = 0; i < a->n_events && rc == 0; i++) {
		const bb_frames_json_event *x = &a->events[i], *y = &b->events[i];

		snprintf(field, sizeof field, "events[%zu].name", i);
		rc |= str_change(d, field, x->name, y->name);
		snprintf(field, sizeof field, "events[%zu].kind", i);
		rc |= str_change(d, field, x->kind, y->kind);
		snprintf(field, sizeof field, "events[%zu].frame", i);
		rc |= num_change(d, field, (double)x->frame, (double)y->frame);
		snprintf(field, sizeof field, "events[%zu].time", i);
		rc |= num_change(d, field, x->time, y->time);
		snprintf(field, sizeof field, "events[%zu].data", i);
		rc |= str_change(d, field, x->data, y->data);
	}
	return rc;
}

/* frames.json field by field. */
static int compare_meta(struct diff_anim *d)
{
	const bb_frames_json *a = d->a, *b = d->b;
	int rc = 0;

	rc |= num_change(d, "fps", a->fps, b->fps);
	if (a->loop != b->loop)
		rc |= push_change(d, "loop", strdup(a->loop ? "true" : "false"),
		                  strdup(b->loop ? "true" : "false"));
	rc |= num_change(d, "duration", a->duration, b->duration);
	rc |= num_change(d, "frames", (double)a->n_frames, (double)b->n_frames);
	rc |= num_change(d, "scale", a->scale, b->scale);
	if (a->width != b->width || a->height != b->height)
		rc |= push_change(d, "canvas", json_pair(a->width, a->height),
		                  json_pair(b->width, b->height));
	if (a->has_origin && b->has_origin &&
	    (a->origin_x != b->origin_x || a->origin_y != b->origin_y))
		rc |= push_change(d, "origin", json_pair(a->origin_x, a->origin_y),
		                  json_pair(b->origin_x, b->origin_y));
	rc |= str_change(d, "overlay", a->overlay.animation, b->overlay.animation);
	rc |= str_change(d, "face", a->face.animation, b->face.animation);
	if (rc == 0)
		rc = compare_events(d);
	return rc;
}

/* Both canvases on one, aligned on the origin pixel (rounded), when the
 * canvas or the origin differs. */
static void place(struct diff_anim *d)
{
	const bb_frames_json *a = d->a, *b = d->b;
	long oax, oay, obx, oby, left, top, right, bottom;

	if (!a->has_origin || !b->has_origin || a->width < 1 || b->width < 1)
		return;
	oax = lround(a->origin_x);
	oay = lround(a->origin_y);
	obx = lround(b->origin_x);
	oby = lround(b->origin_y);
	if (a->width == b->width && a->height == b->height && oax == obx &&
	    oay == oby)
		return;
	left = oax > obx ? oax : obx;
	top = oay > oby ? oay : oby;
	right = a->width - oax > b->width - obx ? a->width - oax : b->width - obx;
	bottom = a->height - oay > b->height - oby ? a->height - oay
	                                          : b->height - oby;
	if (left + right < 1 || top + bottom < 1 ||
	    left + right > BB_IMAGE_MAX_SIDE || top + bottom > BB_IMAGE_MAX_SIDE)
		return;
	d->placed = 1;
	d->width = (int)(left + right);
	d->height = (int)(top + bottom);
	d->ax = (int)(left - oax);
	d->ay = (int)(top - oay);
	d->bx = (int)(left - obx);
	d->by = (int)(top - oby);
}

static void set_error(struct diff_anim *d, const bb_error *err)
{
	char buf[1200];

	bb_error_format(err, buf, sizeof buf);
	free(d->message);
	d->message = strdup(buf);
	d->status = AS_ERROR;
}

/* Reads side `base`'s frames.json of d into *out; an error marks d. */
static void read_side(struct diff_anim *d, const char *base, const char *rel,
                      bb_frames_json **out)
{
	char *path = diff_join(base, rel);
	bb_error err;

	if (!path) {
		d->status = AS_ERROR;
		return;
	}
	if (bb_frames_json_read(path, 0, out, &err) != BB_OK) {
		*out = NULL;
		set_error(d, &err);
	}
	free(path);
}

static int has_frames_in(const struct diff_run *run, const char *dir, int side)
{
	size_t i;

	for (i = 0; i < run->n; i++) {
		const struct diff_pair *p = &run->pairs[i];
		char *f;
		int same;

		if (!(side ? p->b_path : p->a_path))
			continue;
		if (!(f = folder_of(p->path)))
			return 1;
		same = strcmp(f, dir) == 0;
		free(f);
		if (same)
			return 1;
	}
	return 0;
}

static int push_anim(struct diff_run *run, const char *meta, int in_a,
                     int in_b)
{
	struct diff_anim *v, *d;
	char *dir = folder_of(meta);

	if (!dir)
		return EXIT_INTERNAL;
	/* on one side only: an animation added or removed, unless the other
	 * side has frames there (then it is not a render folder pairing) */
	if (!(in_a && in_b) && has_frames_in(run, dir, in_a ? 1 : 0)) {
		free(dir);
		run->skipped++;
		return EXIT_OK;
	}
	if (!(v = realloc(run->anims, (run->nanims + 1) * sizeof *v))) {
		free(dir);
		return EXIT_INTERNAL;
	}
	run->anims = v;
	d = &v[run->nanims++];
	memset(d, 0, sizeof *d);
	d->path = dir;
	d->status = in_a && in_b ? AS_IDENTICAL : in_a ? AS_REMOVED : AS_ADDED;
	if (in_a)
		read_side(d, run->base, meta, &d->a);
	if (in_b)
		read_side(d, run->cur, meta, &d->b);
	if (!(in_a && in_b) && d->status == AS_ERROR)
		d->status = in_a ? AS_REMOVED : AS_ADDED;  /* nothing to compare */
	if (d->a && d->b) {
		if (compare_meta(d) != 0)
			return EXIT_INTERNAL;
		place(d);
	}
	return EXIT_OK;
}

int diff_anims_collect(struct diff_run *run, char **meta_a, size_t na,
                       char **meta_b, size_t nb)
{
	size_t i = 0, j = 0, k;
	int rc = EXIT_OK;

	while (rc == EXIT_OK && (i < na || j < nb)) {
		int c = i >= na ? 1 : j >= nb ? -1 : strcmp(meta_a[i], meta_b[j]);

		rc = push_anim(run, c <= 0 ? meta_a[i] : meta_b[j], c <= 0, c >= 0);
		i += c <= 0;
		j += c >= 0;
	}
	if (rc != EXIT_OK)
		return rc;
	qsort(run->anims, run->nanims, sizeof *run->anims, cmp_anim);
	for (k = 0; k < run->n; k++) {
		struct diff_pair *p = &run->pairs[k];
		char *dir = folder_of(p->path);
		struct diff_anim *d;

		if (!dir)
			return EXIT_INTERNAL;
		d = find_anim(run, dir);
		free(dir);
		p->anim = d ? (int)(d - run->anims) : -1;
		p->placed = d && d->placed && p->a_path && p->b_path;
	}
	return EXIT_OK;
}

int diff_pair_in_both(const struct diff_run *run, const struct diff_pair *p)
{
	return p->anim >= 0 && run->anims[p->anim].a && run->anims[p->anim].b;
}

static int pair_differs(enum diff_status s)
{
	return s == DS_FAIL || s == DS_MISMATCH || s == DS_MISSING ||
	       s == DS_ADDED;
}

void diff_anims_finish(struct diff_run *run)
{
	size_t i;

	for (i = 0; i < run->nanims; i++) {
		struct diff_anim *d = &run->anims[i];

		d->frames_a = d->frames_b = d->frames_changed = 0;
		d->frames_added = d->frames_removed = 0;
		d->diff_pixels = 0;
	}
	for (i = 0; i < run->n; i++) {
		const struct diff_pair *p = &run->pairs[i];
		struct diff_anim *d;

		if (p->anim < 0)
			continue;
		d = &run->anims[p->anim];
		d->frames_a += p->a_path != NULL;
		d->frames_b += p->b_path != NULL;
		d->frames_changed += pair_differs(p->status);
		d->frames_added += p->status == DS_ADDED;
		d->frames_removed += p->status == DS_MISSING;
		d->diff_pixels += p->res.diff_pixels;
		if (p->status == DS_ERROR && d->status != AS_ERROR) {
			d->status = AS_ERROR;
			if (!d->message && p->message)
				d->message = strdup(p->message);
		}
	}
	memset(run->anim_count, 0, sizeof run->anim_count);
	for (i = 0; i < run->nanims; i++) {
		struct diff_anim *d = &run->anims[i];

		if (d->status == AS_IDENTICAL &&
		    (d->nchanges > 0 || d->frames_changed > 0))
			d->status = AS_CHANGED;
		run->anim_count[d->status]++;
	}
}

void diff_anims_free(struct diff_run *run)
{
	size_t i, k;

	for (i = 0; i < run->nanims; i++) {
		struct diff_anim *d = &run->anims[i];

		free(d->path);
		free(d->message);
		bb_frames_json_free(d->a);
		bb_frames_json_free(d->b);
		for (k = 0; k < d->nchanges; k++) {
			free(d->changes[k].baseline);
			free(d->changes[k].current);
		}
		free(d->changes);
	}
	free(run->anims);
	run->anims = NULL;
	run->nanims = 0;
}

void diff_describe_anim(FILE *f, const struct diff_run *run,
                        const struct diff_anim *a)
{
	const char *sep = "";
	size_t k;

	(void)run;
	switch (a->status) {
	case AS_REMOVED:
		fprintf(f, "only in the baseline (%ld frames)", a->frames_a);
		return;
	case AS_ADDED:
		fprintf(f, "only in the current side (%ld frames)", a->frames_b);
		return;
	case AS_ERROR:
		fprintf(f, "%s", a->message ? a->message : "error");
		return;
	case AS_IDENTICAL:
		fprintf(f, "identical (%ld frames)", a->frames_b);
		return;
	case AS_CHANGED:
	case AS_COUNT:
		break;
	}
	for (k = 0; k < a->nchanges; k++) {
		fprintf(f, "%s%s %s -> %s", sep, a->changes[k].field,
		        a->changes[k].baseline, a->changes[k].current);
		sep = "; ";
	}
	if (a->frames_changed) {
		const char *in = "";

		fprintf(f, "%s%ld of %ld frames changed (", sep, a->frames_changed,
		        a->frames_b > a->frames_a ? a->frames_b : a->frames_a);
		if (a->frames_changed > a->frames_added + a->frames_removed) {
			fprintf(f, "%lld px", a->diff_pixels);
			in = ", ";
		}
		if (a->frames_added) {
			fprintf(f, "%s%ld added", in, a->frames_added);
			in = ", ";
		}
		if (a->frames_removed)
			fprintf(f, "%s%ld removed", in, a->frames_removed);
		fputc(')', f);
	} else
		fprintf(f, "%sframes identical", sep);
	if (a->placed)
		fprintf(f, " on a %dx%d canvas aligned on the origin", a->width,
		        a->height);
}
