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

/* The code point of the UTF-8 sequence at p (at most `left` bytes) and its
 * length in *len; -1 (and *len 1) when it is not well-formed UTF-8. */
static long utf8_at(const unsigned char *p, size_t left, size_t *len)
{
	long c;
	size_t n, i;

	*len = 1;
	if (p[0] < 0x80)
		return p[0];
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2, c = p[0] & 0x1f;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3, c = p[0] & 0x0f;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4, c = p[0] & 0x07;
	else
		return -1;
	if (n > left)
		return -1;
	for (i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return -1;
		c = c << 6 | (p[i] & 0x3f);
	}
	if ((n == 3 && c < 0x800) || (n == 4 && (c < 0x10000 || c > 0x10ffff)) ||
	    (c >= 0xd800 && c <= 0xdfff))
		return -1;
	*len = n;
	return c;
}

/* Characters that move the cursor, change the terminal's state or reorder
 * what is shown around them. */
static int unsafe_char(long c)
{
	return c < 0x20 || c == 0x7f || (c >= 0x80 && c <= 0x9f) || c == 0x61c ||
	       c == 0x200e || c == 0x200f || (c >= 0x2028 && c <= 0x202e) ||
	       (c >= 0x2066 && c <= 0x2069);
}

char *bb_text_escape(const char *s, char *buf, unsigned long size)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t left = strlen((const char *)p), o = 0;

	if (size == 0)
		return buf;
	while (left > 0) {
		char esc[16];
		size_t len, n;
		long c = utf8_at(p, left, &len);

		if (c < 0)
			n = (size_t)snprintf(esc, sizeof esc, "\\x%02x", p[0]);
		else if (unsafe_char(c) && c < 0x80)
			n = (size_t)snprintf(esc, sizeof esc, "\\x%02lx", c);
		else if (unsafe_char(c))
			n = (size_t)snprintf(esc, sizeof esc, "\\u{%04lx}", c);
		else
			n = 0;
		if (o + (n ? n : len) >= size)
			break;
		memcpy(buf + o, n ? esc : (const char *)p, n ? n : len);
		o += n ? n : len;
		p += len;
		left -= len;
	}
	buf[o] = '\0';
	return buf;
}

void bb_put_file(void *ctx, const char *s, unsigned long n)
{
	fwrite(s, 1, n, (FILE *)ctx);
}

void bb_json_quote(const char *s, bb_put_fn put, void *ctx)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t left = strlen((const char *)p);

	put(ctx, "\"", 1);
	while (left > 0) {
		char esc[8];
		size_t len, run = 0;
		long c;

		/* a run of characters written as they are */
		while (run < left) {
			c = utf8_at(p + run, left - run, &len);
			if (c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' ||
			    (c >= 0 && unsafe_char(c)))
				break;
			run += len;
		}
		if (run)
			put(ctx, (const char *)p, run);
		p += run;
		left -= run;
		if (left == 0)
			break;
		c = utf8_at(p, left, &len);
		if (c == '"' || c == '\\')
			snprintf(esc, sizeof esc, "\\%c", (int)c);
		else if (c == '\n' || c == '\r' || c == '\t')
			snprintf(esc, sizeof esc, "\\%c", c == '\n' ? 'n' : c == '\r' ? 'r' : 't');
		else
			snprintf(esc, sizeof esc, "\\u%04lx", c);
		put(ctx, esc, strlen(esc));
		p += len;
		left -= len;
	}
	put(ctx, "\"", 1);
}

void bb_markup_escape(const char *s, bb_put_fn put, void *ctx)
{
	const char *p = s ? s : "", *run = p;

	for (; *p; p++) {
		const char *e;

		switch (*p) {
		case '&': e = "&amp;"; break;
		case '<': e = "&lt;"; break;
		case '>': e = "&gt;"; break;
		case '"': e = "&quot;"; break;
		case '\'': e = "&#39;"; break;
		default:
			e = (unsigned char)*p < 0x20 && *p != '\t' && *p != '\n' &&
			    *p != '\r' ? "\xEF\xBF\xBD" : NULL;
		}
		if (!e)
			continue;
		if (p > run)
			put(ctx, run, (unsigned long)(p - run));
		put(ctx, e, strlen(e));
		run = p + 1;
	}
	if (p > run)
		put(ctx, run, (unsigned long)(p - run));
}

void bb_error_format(const bb_error *err, char *buf, unsigned long size)
{
	char file[BB_ERROR_FILE_MAX * 2], path[BB_ERROR_PATH_MAX * 2];
	char msg[BB_ERROR_MSG_MAX * 2], where[sizeof file + 32] = "";

	if (size == 0)
		return;
	bb_text_escape(err->file, file, sizeof file);
	bb_text_escape(err->path, path, sizeof path);
	bb_text_escape(err->message[0] ? err->message : bb_status_string(err->status),
	               msg, sizeof msg);
	if (file[0] && err->line > 0)
		snprintf(where, sizeof where, "%s:%d: ", file, err->line);
	else if (file[0])
		snprintf(where, sizeof where, "%s: ", file);
	snprintf(buf, size, "%s%s%s%s", where, path, path[0] ? ": " : "", msg);
}
