/* Library-internal helpers: checked allocation, strings, whole-file reads,
 * atomic writes.  Not installed. */
#ifndef BB_CORE_UTIL_H
#define BB_CORE_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "bonebake/status.h"

/* Degrees to radians: every file's angles go through it. */
#define BB__DEG (M_PI / 180)

/* An angle (radians) into [-pi, pi), as the runtimes' normalizeRadian:
 * JS's ((a + PI) % 2PI) - PI, where % keeps the dividend's sign. */
double bb__norm_angle(double a);

/* calloc(n, size) with overflow check; NULL on overflow or failure. */
void *bb__calloc(size_t n, size_t size);
/* malloc(n) for pixels (freed with free()): at 1 MiB or more, 2 MiB-aligned,
 * and the kernel asked to map its whole 2 MiB pages as huge pages (first
 * touch then costs one fault per 2 MiB, not per 4 KiB); a rest of 1 MiB or
 * more past them is rounded up to one more.  NULL when out of memory. */
void *bb__alloc_pixels(size_t n);
/* Makes *p (capacity *cap bytes) hold at least `need` bytes, from
 * bb__alloc_pixels, its content not kept; 0 when out of memory (*p kept). */
int bb__reserve_pixels(void **p, size_t *cap, size_t need);
/* realloc to n*size bytes with overflow check; NULL (old kept) on failure. */
void *bb__realloc_array(void *p, size_t n, size_t size);
/* Grows *p (capacity *cap elements of `size`) so it holds at least `need`;
 * returns 0 on failure. */
int bb__grow(void **p, size_t *cap, size_t need, size_t size);
char *bb__strdup(const char *s);

/* Reads a whole file (at most max_bytes) into a NUL-terminated buffer.
 * BB_ERR_IO ("cannot open: ...", "is a folder", "read error"),
 * BB_ERR_LIMIT, BB_ERR_NOMEM; errors name `path`. */
bb_status bb__read_file(const char *path, size_t max_bytes, char **data,
                        size_t *size, bb_error *err);

/* Atomic writes and mkdir -p: bonebake/files.h. */
#include "bonebake/files.h"

/* Folder part of path ("." when none), into buf. */
void bb__dirname(const char *path, char *buf, size_t size);
/* Last path component. */
const char *bb__basename(const char *path);
/* Joins dir and rel (rel returned as is when absolute). 0 if too long. */
int bb__path_join(char *buf, size_t size, const char *dir, const char *rel);
/* `path` (relative: to the working folder) as an absolute path without
 * ".", ".." or symbolic links, links followed as realpath(3) follows them;
 * from the first component that does not exist on, the rest is taken as
 * written ("x/../y" is "y").  So a path is judged by where it leads
 * whether or not its file exists.  0 when the result does not fit or a
 * chain of links is too long. */
int bb__path_resolve(const char *path, char *out, size_t size);
/* 1 when resolved path `path` is `root` or lies below it (both resolved). */
int bb__path_within(const char *path, const char *root);

/* A text number as the runtimes read one: blanks around it ignored, empty
 * or "NaN" -> def.  Returns 0 (and *out = def) when the text is something
 * else or not finite. */
int bb__text_number(const char *s, double def, double *out);
/* A text boolean as the runtimes read one: "", "0", "NaN", "false",
 * "null", "undefined" are false, anything else true. */
int bb__text_bool(const char *s);

/* A path into a document, built while walking it: "bones[3].parent". */
typedef struct bb__jpath {
	char buf[256];
	size_t len;
} bb__jpath;

void bb__jpath_init(bb__jpath *p);
/* Appends ".key" (or "key" at the start); returns the previous length. */
size_t bb__jpath_key(bb__jpath *p, const char *key);
/* Appends "[i]"; returns the previous length. */
size_t bb__jpath_index(bb__jpath *p, size_t i);
/* Appends ["key"] (a member whose name is data: an element index, a frame
 * name); returns the previous length. */
size_t bb__jpath_quoted(bb__jpath *p, const char *key);
/* Replaces the path with `s` (a path kept from an earlier walk). */
void bb__jpath_set(bb__jpath *p, const char *s);
void bb__jpath_pop(bb__jpath *p, size_t len);

/* Where a reader is in a file: the file's name (as errors show it), the
 * line (0: unknown), the field path; and the error every failure there
 * fills.  The readers of every format (JSON, XML) and the model builder
 * report through it; `flags` are the reader's own (json.h). */
typedef struct bb__where {
	const char *file;
	int line;
	bb__jpath path;
	bb_error *err;
	unsigned flags;
} bb__where;

/* Fills w->err with status s at w's file, line and path (+ "." key when
 * key is not NULL); returns s.  (bb__where_vfail: with a va_list.) */
bb_status bb__where_fail(const bb__where *w, bb_status s, const char *key,
                         const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
bb_status bb__where_vfail(const bb__where *w, bb_status s, const char *key,
                          const char *fmt, va_list ap)
	__attribute__((format(printf, 4, 0)));

/* bb_error_set with a line and column (0: unknown), for errors that have
 * them (syntax errors, XML elements). */
bb_status bb__error_at(bb_error *err, bb_status s, const char *file, int line,
                       int column, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));

#endif
