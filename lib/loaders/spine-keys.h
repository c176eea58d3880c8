/* Spine animations, shared by spine-keys.c (keys, curves, building model
 * timelines), spine-anim.c (slot, bone and constraint timelines, the
 * animations) and spine-anim-attach.c (deform, sequence, draw order,
 * events). */
#ifndef BB_LOADERS_SPINE_KEYS_H
#define BB_LOADERS_SPINE_KEYS_H

#include "loaders/spine.h"

enum { MAXV = 8 };        /* values a bb__sp_spec maps */

/* A key's `curve` member. */
enum bb__sp_curve {
	BB_SP_LINEAR = 0,      /* absent */
	BB_SP_STEPPED,         /* "stepped" */
	BB_SP_BEZIER           /* handles: 4.x an array of 4 per value; 3.8 a
	                          number (cx1, with c2..c4) or 3.7's array */
};

/* One Spine timeline's keys, read before they are split into model
 * timelines. */
struct bb__sp_keys {
	int n, nv;
	double *time;          /* JSON times (the curves use them as read) */
	double *val;           /* n * nv JSON values */
	unsigned char *curve;  /* per key: enum bb__sp_curve */
	json_t **map;          /* per key: its object (the curve's handles are
	                          read from it when the curve is built) */
};

struct bb__sp_anim {
	bb__sp *sp;
	bb_anim *an;           /* the builder's last animation */
	double duration;
};

struct bb__sp_spec {
	bb_tl_target target;
	int index, display, param;
	bb_prop prop;
	bb_apply apply;
	unsigned channels;
	int nv;                /* values taken from the keys: */
	int vi[MAXV];          /* their indices in the keys' values */
	double scale[MAXV];    /* model value = key value * scale */
	int stepped;           /* every key stepped */
	int deform_curve;      /* one shared progress curve (deform) */
	int stale_value1;      /* value index whose curves start from key 0's
	                          value (the runtime's transform reader) */
	int prepend;           /* a setup key at 0 when the first key is later */
	double setup[MAXV];    /* its values (model units) */
};

struct bb__sp_names2 {
	const char *a, *b;     /* member names */
	double def_a, def_b;
	int b_defaults_to_a;
};

/* Colours: the members named in user ("color", or "light" and "dark"),
 * r g b [a] then dark r g b. */
struct bb__sp_color_spec {
	const char *light, *dark;
	int alpha;             /* light has alpha */
};

/* Value reader for one key: fills v[nv]. */
typedef bb_status (*bb__sp_read_fn)(bb__sp *sp, json_t *key, double *v, void *user);


/* Reads a list of keys (list: the array, at the current path): times
 * (non-decreasing), nv values each through fn (may be NULL), curve kinds;
 * checks that as many fit in the animation (bb__build_keys_fit: the
 * builder counts the timelines' keys) and extends its duration. */
bb_status bb__sp_read_keys(struct bb__sp_anim *am, json_t *list, int nv,
                           bb__sp_read_fn fn, void *user, struct bb__sp_keys *k);
void bb__sp_free_keys(struct bb__sp_keys *k);
/* CurveTimeline.setBezier's 9 points into out[18]; `deform`: the deform
 * timeline's variant (progress 0 to 1). */
void bb__sp_bezier9(double x1, double y1, double cx1, double cy1, double cx2,
                    double cy2, double x2, double y2, int deform, float *out);
/* The 4 handles of value vi of a 4.x key's curve array / of a 3.8 key
 * (key: the key's object, at the current path). */
bb_status bb__sp_curve_nums(bb__sp *sp, json_t *key, int vi, double *h);
bb_status bb__sp_curve38(bb__sp *sp, json_t *key, double *h);
/* The shared progress curve of key i (4.x deform, 3.8): fills ip.  Errors
 * name the key (the current path is its timeline's). */
bb_status bb__sp_percent_curve(struct bb__sp_anim *am, const struct bb__sp_keys *k,
                               int i, bb_interp *ip);
/* Builds the model timeline a spec describes from the keys. */
bb_status bb__sp_emit(struct bb__sp_anim *am, const struct bb__sp_keys *k,
                      const struct bb__sp_spec *spec);
void bb__sp_spec_init(struct bb__sp_spec *s, bb_tl_target target, int index, int nv);
/* Value readers: one or two numbers (bb__sp_names2), colours
 * (bb__sp_color_spec). */
bb_status bb__sp_read_pair(bb__sp *sp, json_t *key, double *v, void *user);
bb_status bb__sp_read_color(bb__sp *sp, json_t *key, double *v, void *user);

/* spine-anim-attach.c */
bb_status bb__sp_attachment_timelines(struct bb__sp_anim *am, json_t *map, int v3);
bb_status bb__sp_draw_order(struct bb__sp_anim *am, json_t *list);
bb_status bb__sp_events(struct bb__sp_anim *am, json_t *list);

#endif
