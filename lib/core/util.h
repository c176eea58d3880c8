/* Library-internal helpers: checked allocation, strings, whole-file reads,
 * atomic writes.  Not installed. */
#ifndef BB_CORE_UTIL_H
#define BB_CORE_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "bonebake/status.h"

/* calloc(n, size) with overflow check; NULL on overflow or failure. */
void *bb__calloc(size_t n, size_t size);
/* realloc to n*size bytes with overflow check; NULL (old kept) on failure. */
void *bb__realloc_array(void *p, size_t n, size_t size);
/* Grows *p (capacity *cap elements of `size`) so it holds at least `need`;
 * returns 0 on failure. */
int bb__grow(void **p, size_t *cap, size_t need, size_t size);
char *bb__strdup(const char *s);

/* Reads a whole file (at most max_bytes) into a NUL-terminated buffer. */
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
void bb__jpath_pop(bb__jpath *p, size_t len);

#endif
