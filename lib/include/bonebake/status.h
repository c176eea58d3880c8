/* bonebake — status codes and the caller-owned error record.
 *
 * Every fallible call returns a bb_status; details go into a bb_error the
 * caller owns (fixed buffers, no allocation).  The library never prints. */
#ifndef BONEBAKE_STATUS_H
#define BONEBAKE_STATUS_H

#include <stdarg.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A closed set.  The CLI maps them to exit codes (see docs/cli.md). */
typedef enum bb_status {
	BB_OK = 0,
	BB_ERR_USAGE,     /* bad argument from the caller (options, names) */
	BB_ERR_INPUT,     /* malformed or invalid input file */
	BB_ERR_IO,        /* cannot read or write a file */
	BB_ERR_NOMEM,     /* allocation failed */
	BB_ERR_LIMIT,     /* input exceeds a configured limit */
	BB_ERR_MISMATCH,  /* image sizes differ (diff) */
	BB_ERR_INTERNAL   /* a bug */
} bb_status;

enum { BB_ERROR_FILE_MAX = 256, BB_ERROR_PATH_MAX = 256, BB_ERROR_MSG_MAX = 512 };

typedef struct bb_error {
	bb_status status;
	char file[BB_ERROR_FILE_MAX];   /* file the error is about ("" if none) */
	char path[BB_ERROR_PATH_MAX];   /* field path, e.g. bones[3].parent ("" if none) */
	char message[BB_ERROR_MSG_MAX];
	int line, column;               /* 0 when unknown */
} bb_error;

/* Returns a static English name for a status ("ok", "bad input", ...). */
const char *bb_status_string(bb_status s);

/* Fills err (when non-NULL) and returns s.  The single funnel every failure
 * in the library goes through.  file/path may be NULL. */
bb_status bb_error_set(bb_error *err, bb_status s, const char *file,
                       const char *path, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* Formats "file: path: message" (parts omitted when empty) into buf,
 * each part through bb_text_escape. */
void bb_error_format(const bb_error *err, char *buf, unsigned long size);

/* Copies text `s` (a name or message taken from a file) into buf for a
 * terminal or a log: the characters that could act on one are written as
 * escapes (C0 controls, DEL and bytes that are not UTF-8 as \xHH, tab and
 * newline included, so a name cannot start a line of its own; C1 controls,
 * the bidirectional formatting characters U+061C, U+200E, U+200F,
 * U+202A..U+202E, U+2066..U+2069 and the separators U+2028, U+2029 as
 * \u{XXXX}); everything else, other UTF-8 included, as it is.  Truncates
 * at a character boundary to fit; buf always ends in a NUL when size > 0.
 * Returns buf.  Thread-safe. */
char *bb_text_escape(const char *s, char *buf, unsigned long size);

/* Where the two escapers below write: n bytes at s, to ctx. */
typedef void (*bb_put_fn)(void *ctx, const char *s, unsigned long n);
/* A bb_put_fn writing to the FILE * ctx. */
void bb_put_file(void *ctx, const char *s, unsigned long n);

/* s as one JSON string, quotes included, for every JSON bonebake writes
 * (frames.json, sheet metadata, reports, data inside an HTML page's
 * <script>): '"' and '\' escaped, \n \r \t, other C0 controls, DEL, C1
 * controls and the bidirectional and separator characters of
 * bb_text_escape as \uXXXX, and '<', '>', '&' as \u003c, \u003e,
 * \u0026 (so no name can close a <script>); other UTF-8 as it is.  Bytes
 * that are not UTF-8 are written as they are. */
void bb_json_quote(const char *s, bb_put_fn put, void *ctx);

/* s as HTML or XML text or attribute value: & < > " ' as &amp; &lt; &gt;
 * &quot; &#39;, and C0 controls other than tab, newline and carriage
 * return (which XML 1.0 cannot hold) as U+FFFD. */
void bb_markup_escape(const char *s, bb_put_fn put, void *ctx);

#ifdef __cplusplus
}
#endif
#endif
