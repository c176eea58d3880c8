/* Status names and the single error funnel. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "core/util.h"

const char *bb_status_string(bb_status s)
{
	switch (s) {
	case BB_OK: return "ok";
	case BB_ERR_USAGE: return "usage error";
	case BB_ERR_INPUT: return "bad input";
	case BB_ERR_IO: return "I/O error";
	case BB_ERR_NOMEM: return "out of memory";
	case BB_ERR_LIMIT: return "limit exceeded";
	case BB_ERR_MISMATCH: return "size mismatch";
	case BB_ERR_INTERNAL: return "internal error";
	}
	return "unknown status";
}

static void copy_str(char *dst, size_t size, const char *src)
{
	if (!src) {
		dst[0] = '\0';
		return;
	}
	snprintf(dst, size, "%s", src);
}

/* The one place a bb_error is filled: every failure in the library passes
 * here (bb_error_set and bb__error_at), so one breakpoint sees them all. */
static bb_status fill(bb_error *err, bb_status s, const char *file, int line,
                      int column, const char *path, const char *fmt, va_list ap)
{
	if (!err)
		return s;
	err->status = s;
	copy_str(err->file, sizeof err->file, file);
	copy_str(err->path, sizeof err->path, path);
	vsnprintf(err->message, sizeof err->message, fmt, ap);
	err->line = line > 0 ? line : 0;
	err->column = line > 0 && column > 0 ? column : 0;
	return s;
}

bb_status bb_error_set(bb_error *err, bb_status s, const char *file,
                       const char *path, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	s = fill(err, s, file, 0, 0, path, fmt, ap);
	va_end(ap);
	return s;
}

bb_status bb__error_at(bb_error *err, bb_status s, const char *file, int line,
                       int column, const char *path, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	s = fill(err, s, file, line, column, path, fmt, ap);
	va_end(ap);
	return s;
}

bb_status bb__where_vfail(const bb__where *w, bb_status s, const char *key,
                          const char *fmt, va_list ap)
{
	bb__jpath p = w->path;

	if (key)
		bb__jpath_key(&p, key);
	return fill(w->err, s, w->file, w->line, 0, p.len ? p.buf : NULL, fmt, ap);
}

bb_status bb__where_fail(const bb__where *w, bb_status s, const char *key,
                         const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	s = bb__where_vfail(w, s, key, fmt, ap);
	va_end(ap);
	return s;
}

void bb_error_format(const bb_error *err, char *buf, unsigned long size)
{
	char where[BB_ERROR_FILE_MAX + 32] = "";

	if (size == 0)
		return;
	if (err->file[0] && err->line > 0)
		snprintf(where, sizeof where, "%s:%d: ", err->file, err->line);
	else if (err->file[0])
		snprintf(where, sizeof where, "%s: ", err->file);
	snprintf(buf, size, "%s%s%s%s", where, err->path,
	         err->path[0] ? ": " : "",
	         err->message[0] ? err->message : bb_status_string(err->status));
}
