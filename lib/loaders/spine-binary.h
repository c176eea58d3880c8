/* Spine's binary export (.skel), 3.8 and 4.0-4.2: what spine-binary.c
 * (the reader, the header, bones, slots, constraints, skins, events) and
 * spine-binary-anim.c (animations) share.
 *
 * The binary is decoded into the JSON document the same Spine version
 * exports (the same members, names for indices, hex colours, the
 * version's curve and timeline layout), and that document is read by the
 * JSON loader (spine.c): one loader owns Spine's semantics.  Numbers are
 * kept as read (32-bit floats, exact in a double).
 *
 * The reader never reads past the buffer: every count is checked against
 * the bytes left (each item takes at least one byte), every index against
 * the table it indexes, varints are at most 5 bytes, strings are bounded
 * and valid UTF-8.  A failure is one error naming the file, the section
 * being read (the path: "animations.walk") and, in the message, what was
 * being read and the byte offset:
 *   hero.skel: animations.walk: bone timeline 3: unknown bone index 97 at byte 1234 */
#ifndef BB_LOADERS_SPINE_BINARY_H
#define BB_LOADERS_SPINE_BINARY_H

#include <stdint.h>

#include "core/json.h"

/* A table of names an index in the file refers to. */
typedef struct bb__sb_names {
	const char **v;        /* borrowed from the strings read */
	uint32_t n;
} bb__sb_names;

typedef struct bb__sb {
	const unsigned char *p;
	size_t size, pos;
	const char *file;          /* errors name it */
	bb_error *err;
	bb__jpath path;            /* the section being read */
	char what[160];            /* what in it ("bone timeline 3"), or "" */
	bb__jw w;                  /* the document being written */
	int major, minor;          /* the version */
	int nonessential;
	char **owned;              /* every string read (freed at the end) */
	size_t nowned, capowned;
	bb__sb_names strings, bones, slots, ik, tc, paths, phys, skins, events;
	unsigned char *event_audio;   /* per event: has an audio path */
	struct bb__sb_linked {     /* 4.2 linked meshes: their skin index */
		json_t *att;
		uint32_t skin;
		size_t at;
	} *linked;
	size_t nlinked, caplinked;
} bb__sb;

/* The error at the current section and position (or at byte `at`):
 * "<what>: <message> at byte N"; BB_ERR_INPUT. */
bb_status bb__sb_fail(bb__sb *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
bb_status bb__sb_fail_at(bb__sb *r, size_t at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Sets what is being read (printf-style); "" clears it. */
void bb__sb_what(bb__sb *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Primitives: each names the field in its error. */
bb_status bb__sb_u8(bb__sb *r, const char *field, unsigned *out);
bb_status bb__sb_bool(bb__sb *r, const char *field, int *out);
bb_status bb__sb_i16(bb__sb *r, const char *field, int32_t *out);  /* big-endian */
bb_status bb__sb_i32(bb__sb *r, const char *field, int32_t *out);
/* A big-endian 32-bit float; not finite is an error. */
bb_status bb__sb_f32(bb__sb *r, const char *field, double *out);
/* Kryo's varint: 7 bits a byte, low first, at most 5 bytes (the fifth
 * gives the top 4 bits); the raw 32 bits. */
bb_status bb__sb_varint(bb__sb *r, const char *field, uint32_t *out);
/* The zigzag-coded signed form (readInt(false)). */
bb_status bb__sb_svarint(bb__sb *r, const char *field, int32_t *out);
/* A count of items each taking at least `each` bytes: more than the
 * bytes left can hold (or than 2^31 - 1) is an error. */
bb_status bb__sb_count(bb__sb *r, const char *field, size_t each, uint32_t *out);
/* An index into t ("unknown <field> index N"). */
bb_status bb__sb_index(bb__sb *r, const char *field, const bb__sb_names *t,
                       uint32_t *out);
/* A string: varint byte count + 1 (0: none, *out NULL), then UTF-8; kept
 * until the reader is freed. */
bb_status bb__sb_string(bb__sb *r, const char *field, const char **out);
/* A reference into the string table (0: none, *out NULL). */
bb_status bb__sb_string_ref(bb__sb *r, const char *field, const char **out);
/* A required name: a string (or with ref, a string reference) that is
 * not missing. */
bb_status bb__sb_name(bb__sb *r, const char *field, int ref, const char **out);

/* Writing the document. */
json_t *bb__sb_obj(bb__sb *r, json_t *parent, const char *key);  /* get or add */
json_t *bb__sb_arr(bb__sb *r, json_t *parent, const char *key);  /* get or add */
void bb__sb_num(bb__sb *r, json_t *obj, const char *key, double v);
void bb__sb_str(bb__sb *r, json_t *obj, const char *key, const char *s);
void bb__sb_bool_member(bb__sb *r, json_t *obj, const char *key, int v);
/* An rgba8888 colour as "rrggbbaa" (rgb: "rrggbb" from rgb888). */
void bb__sb_color(bb__sb *r, json_t *obj, const char *key, uint32_t c, int rgb);
/* A byte colour array (r, g, b[, a] as 0..255) as "rrggbb[aa]". */
void bb__sb_color_bytes(bb__sb *r, json_t *obj, const char *key,
                        const unsigned *c, int n);
/* BB_OK, or the writer's failure (out of memory). */
bb_status bb__sb_written(bb__sb *r);

/* A table for n names (n already checked against the bytes left). */
bb_status bb__sb_names_alloc(bb__sb *r, bb__sb_names *t, uint32_t n);
/* n floats named keys[] into obj. */
bb_status bb__sb_floats(bb__sb *r, json_t *obj, const char *const *keys, int n);

/* spine-binary-skin.c: the skins and their attachments into root.skins. */
bb_status bb__sb_read_skins(bb__sb *r, json_t *root);
/* spine-binary-anim.c: every animation into root.animations. */
bb_status bb__sb_read_animations(bb__sb *r, json_t *root);

#endif
