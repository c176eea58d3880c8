/* JSON for every document bonebake reads or writes: the loaders' formats,
 * batch manifests and stamps (lib/batch), frames.json (lib/output).  The
 * only file that calls jansson.
 *
 * Reading: every getter either succeeds or fills the error with "file:
 * path.to.field: message" and returns non-OK.  A getter reading member
 * `key` of `obj` checks that obj is an object (absent, NULL: every member
 * absent); with key NULL it reads obj itself, at the current path (a null
 * there is a value of the wrong type, as in an array).  The
 * iterator walks an array or object keeping the path ("bone[3]",
 * "joints.lid", `joints.lid["14"]`), so a reader never pushes or pops it.
 * Absent and null members are the same thing everywhere.  A context whose
 * error is NULL reads quietly (records read as "current or not").
 *
 * Writing (bb__jw_*): the DragonBones 2.3 translator builds a document the
 * 4.5 reader then reads; the batch writes its stamps. */
#ifndef BB_CORE_JSON_H
#define BB_CORE_JSON_H

#include <jansson.h>

#include "core/util.h"

/* A reader's position in one JSON file (bb__where: file, path, error;
 * flags: BB_J_LENIENT_*). */
typedef bb__where bb__jctx;

enum {
	/* the runtimes' number rule (DragonBones): a numeric string is a
	 * number, "NaN" and "" mean the default (bb__text_number) */
	BB_J_LENIENT_NUMBERS = 1u << 0,
	/* booleans also written as numbers (0 is false) or strings
	 * (bb__text_bool) */
	BB_J_LENIENT_BOOLS = 1u << 1
};

void bb__jctx_init(bb__jctx *c, const char *file, bb_error *err, unsigned flags);

/* Parses a document (duplicate members refused); a syntax error is
 * BB_ERR_INPUT "invalid JSON: ..." with its line and column.  Free the
 * result with bb__json_free. */
bb_status bb__json_parse(const char *data, size_t size, const char *file,
                         json_t **out, bb_error *err);
void bb__json_free(json_t *v);

/* BB_ERR_INPUT / BB_ERR_LIMIT at the current path (+ "." key when key is
 * not NULL); BB_ERR_NOMEM naming the file. */
bb_status bb__jfail(bb__jctx *c, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
bb_status bb__jlimit(bb__jctx *c, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
bb_status bb__jnomem(bb__jctx *c);

/* What a member (key NULL: the value itself) is; never fails. */
typedef enum bb__jkind {
	BB_JK_ABSENT = 0,      /* absent or null */
	BB_JK_BOOL,
	BB_JK_NUMBER,
	BB_JK_STRING,
	BB_JK_ARRAY,
	BB_JK_OBJECT
} bb__jkind;
bb__jkind bb__jkind_of(json_t *obj, const char *key);
/* "an array", "a number", ... for a kind. */
const char *bb__jkind_name(bb__jkind k);
/* Whether obj has member key (not null). */
int bb__jhas(json_t *obj, const char *key);
/* Whether obj has member key, null or not (JavaScript's `key in obj`, for
 * the runtimes that tell a null member from an absent one). */
int bb__jhas_member(json_t *obj, const char *key);
/* Member key of obj (key NULL: obj itself), looked up without errors:
 * NULL when absent or null, or when obj is not an object.  For a member
 * whose type the caller then checks with bb__jkind_of or reads with the
 * getters below. */
json_t *bb__jget(json_t *obj, const char *key);
/* Elements of an array or members of an object; 0 for anything else. */
size_t bb__jsize(json_t *v);
/* "an object", "a number", ... for messages. */
const char *bb__json_type_name(json_t *v);
/* A number as its document wrote it: an integer in full, another number
 * with 17 digits ("%.17g"); "" for anything else.  Returns buf. */
const char *bb__jnum_text(json_t *v, char *buf, size_t size);

/* Number: absent -> def; with BB_J_LENIENT_NUMBERS numeric strings count.
 * Anything else, or a number that is not finite, is an error. */
bb_status bb__jnum(bb__jctx *c, json_t *obj, const char *key, double def,
                   double *out);
/* Required number: absent is "missing". */
bb_status bb__jnum_req(bb__jctx *c, json_t *obj, const char *key, double *out);
/* bb__jnum with a range check [lo, hi] ("%g is outside lo..hi"). */
bb_status bb__jnum_range(bb__jctx *c, json_t *obj, const char *key, double def,
                         double lo, double hi, double *out);
/* Boolean: true/false (BB_J_LENIENT_BOOLS: numbers and strings too). */
bb_status bb__jbool(bb__jctx *c, json_t *obj, const char *key, int def, int *out);
/* String: required ("missing" when absent) or optional (*out = NULL). */
bb_status bb__jstr(bb__jctx *c, json_t *obj, const char *key, int required,
                   const char **out);
/* Array / object: required or optional (*out = NULL). */
bb_status bb__jarray(bb__jctx *c, json_t *obj, const char *key, int required,
                     json_t **out);
bb_status bb__jobject(bb__jctx *c, json_t *obj, const char *key, int required,
                      json_t **out);
/* An array of numbers into a new array (free it; NULL and *n = 0 when
 * absent and not required); more than `max` is BB_ERR_LIMIT.  An element
 * that is not a number is an error at key[i]. */
bb_status bb__jnums(bb__jctx *c, json_t *obj, const char *key, int required,
                    size_t max, double **out, size_t *n);
/* Exactly n numbers into out ("expected an array of n numbers"); absent:
 * out untouched, unless required. */
bb_status bb__jnumn(bb__jctx *c, json_t *obj, const char *key, int required,
                    size_t n, double *out);
/* Element i of array obj[key] (key NULL: obj is the array) as a number,
 * as bb__jnum reads one; an element that is past the end ("found
 * nothing"), null or not a number is an error at key[i], and obj[key]
 * absent or not an array an error at key.  For arrays read element by
 * element (Bezier handles, vertices checked as they are read). */
bb_status bb__jnum_at(bb__jctx *c, json_t *obj, const char *key, size_t i,
                      double *out);
/* Checks that v (at the current path) is an object. */
bb_status bb__jexpect_object(bb__jctx *c, json_t *v);

/* ---- walking arrays and objects -------------------------------------- */

enum {
	BB_J_REQUIRED = 1u << 0,   /* an absent container is "missing" */
	BB_J_QUOTED = 1u << 1      /* members appear as ["name"] in paths (their
	                              names are data), not .name */
};

typedef struct bb__jiter {
	bb__jctx *c;
	json_t *v;                 /* the array or object, NULL: nothing */
	void *it;                  /* object: the next member */
	size_t i, n;               /* next position, count */
	size_t mark, base;         /* path lengths: before, of the container */
	unsigned flags;
	const char *key;           /* object: the current member's name */
	size_t index;              /* the current item's position */
} bb__jiter;

/* Starts walking array obj[key] (key NULL: obj itself): absent is no
 * items (or "missing" with BB_J_REQUIRED), another type an error. */
bb_status bb__jeach(bb__jctx *c, json_t *obj, const char *key, unsigned flags,
                    bb__jiter *it);
/* The same for the members of object obj[key]. */
bb_status bb__jeach_member(bb__jctx *c, json_t *obj, const char *key,
                           unsigned flags, bb__jiter *it);
/* The next item, with the path at it ("key[i]", "key.name"); 0 after the
 * last, with the path back as it was before bb__jeach. */
int bb__jnext(bb__jiter *it, json_t **item);
/* Ends a walk early: the path back as it was before bb__jeach. */
void bb__jdone(bb__jiter *it);

/* ---- writing ------------------------------------------------------------ */

/* A document being written: failures are sticky flags, checked once. */
typedef struct bb__jw {
	int oom;                   /* an allocation failed */
	int inf;                   /* a number was not finite (not written) */
} bb__jw;

json_t *bb__jw_object(bb__jw *w);
json_t *bb__jw_array(bb__jw *w);
/* obj[key] = v (v stolen); returns v, or NULL (flagged). */
json_t *bb__jw_set(bb__jw *w, json_t *obj, const char *key, json_t *v);
void bb__jw_num(bb__jw *w, json_t *obj, const char *key, double v);
void bb__jw_str(bb__jw *w, json_t *obj, const char *key, const char *s);
void bb__jw_int(bb__jw *w, json_t *obj, const char *key, long long v);
/* A new boolean / string value (NULL: flagged). */
json_t *bb__jw_bool(bb__jw *w, int v);
json_t *bb__jw_string(bb__jw *w, const char *s);
/* dst[key] = src[key] (shared) when src has it. */
void bb__jw_copy(bb__jw *w, json_t *dst, json_t *src, const char *key);
/* Appends v (stolen) to arr. */
void bb__jw_append(bb__jw *w, json_t *arr, json_t *v);
void bb__jw_append_num(bb__jw *w, json_t *arr, double v);
/* A deep copy of v, to be changed (NULL: flagged). */
json_t *bb__jw_deep_copy(bb__jw *w, json_t *v);
/* v as text, members in the order they were set, `indent` spaces a level
 * (free it; NULL: flagged). */
char *bb__jw_dump(bb__jw *w, json_t *v, int indent);

#endif
