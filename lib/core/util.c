/* Checked allocation, files and paths. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/util.h"

void *bb__calloc(size_t n, size_t size)
{
	if (n == 0 || size == 0)
		return calloc(1, 1);
	if (n > SIZE_MAX / size)
		return NULL;
	return calloc(n, size);
}

/* Huge pages: the kernel maps a 2 MiB-aligned, 2 MiB-long part of memory
 * marked MADV_HUGEPAGE with one fault (one clear of 2 MiB, no 512 faults
 * of 4 KiB each).  Linux's default "madvise" setting does it only where
 * asked, so buffers filled whole ask, for the whole huge pages inside them,
 * and for the part past the last one when that is `least` bytes or more
 * (the buffer is then rounded up): 128 or more 4 KiB faults cost more than
 * one 2 MiB one on real hardware, many times more in a virtual machine
 * (there one 4 KiB fault costs about 10 us, the clear of a huge page about
 * 130 us).  Pixel buffers round up a rest of half a huge page or more, so
 * a buffer holds at most twice its own memory (a 512x512 canvas: 2 MiB for
 * 1 MiB), and a smaller rest (a texture's 4 MiB and 1 KiB) stays in small
 * pages.  A file read whole lives only until it is parsed or decoded:
 * from 256 KiB (64 faults, about 640 us there) it takes a huge page. */
enum { BB__HUGE_PAGE = 2 << 20, BB__FILE_HUGE = 256 << 10 };

static void *alloc_huge(size_t n, size_t least)
{
#ifdef MADV_HUGEPAGE
	if (n >= least && n <= SIZE_MAX - BB__HUGE_PAGE) {
		size_t whole = n & ~(size_t)(BB__HUGE_PAGE - 1);
		void *p;

		if (n - whole >= least)
			n = whole += BB__HUGE_PAGE;
		if (posix_memalign(&p, BB__HUGE_PAGE, n) != 0)
			return NULL;
		(void)madvise(p, whole, MADV_HUGEPAGE);   /* advice: may be refused */
		return p;
	}
#else
	(void)least;
#endif
	return malloc(n ? n : 1);
}

void *bb__alloc_pixels(size_t n)
{
	return alloc_huge(n, BB__HUGE_PAGE / 2);
}

int bb__reserve_pixels(void **p, size_t *cap, size_t need)
{
	size_t ncap = *cap <= SIZE_MAX / 2 && 2 * *cap > need ? 2 * *cap : need;
	void *np;

	if (need <= *cap)
		return 1;
	if (!(np = bb__alloc_pixels(ncap)))
		return 0;
	free(*p);
	*p = np;
	*cap = ncap;
	return 1;
}

void *bb__realloc_array(void *p, size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size)
		return NULL;
	return realloc(p, (n * size) != 0 ? n * size : 1);
}

int bb__grow(void **p, size_t *cap, size_t need, size_t size)
{
	size_t ncap;
	void *np;

	if (need <= *cap)
		return 1;
	ncap = *cap ? *cap : 8;
	while (ncap < need) {
		if (ncap > SIZE_MAX / 2)
			return 0;
		ncap *= 2;
	}
	np = bb__realloc_array(*p, ncap, size);
	if (!np)
		return 0;
	*p = np;
	*cap = ncap;
	return 1;
}

char *bb__strdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = malloc(n);

	if (d)
		memcpy(d, s, n);
	return d;
}

bb_status bb__read_file(const char *path, size_t max_bytes, char **data,
                        size_t *size, bb_error *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	char *buf = NULL;
	size_t len = 0, cap = 0;
	struct stat st;
	ssize_t n;

	*data = NULL;
	*size = 0;
	if (fd < 0)
		return bb_error_set(err, BB_ERR_IO, path, NULL, "cannot open: %s",
		                    strerror(errno));
	if (fstat(fd, &st) != 0)
		st.st_mode = 0;
	if (S_ISDIR(st.st_mode)) {
		close(fd);
		return bb_error_set(err, BB_ERR_IO, path, NULL, "is a folder");
	}
	/* a regular file is read into a buffer of its size (one more byte
	 * shows it grew): no copies, no memory touched twice */
	if (S_ISREG(st.st_mode) && st.st_size > 0 &&
	    (uintmax_t)st.st_size <= max_bytes)
		cap = (size_t)st.st_size + 2;
	for (;;) {
		if (len + 1 >= cap &&
		    !bb__grow((void **)&buf, &cap, len + 65536 + 1, 1)) {
			close(fd);
			free(buf);
			return bb_error_set(err, BB_ERR_NOMEM, path, NULL, "out of memory");
		}
		if (!buf && !(buf = alloc_huge(cap, BB__FILE_HUGE))) {
			close(fd);
			return bb_error_set(err, BB_ERR_NOMEM, path, NULL, "out of memory");
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;

			close(fd);
			free(buf);
			return bb_error_set(err, BB_ERR_IO, path, NULL, "read error: %s",
			                    strerror(e));
		}
		len += (size_t)n;
		if (len > max_bytes) {
			close(fd);
			free(buf);
			return bb_error_set(err, BB_ERR_LIMIT, path, NULL,
			                    "file larger than the limit of %zu bytes",
			                    max_bytes);
		}
		if (n == 0)
			break;
	}
	close(fd);
	buf[len] = '\0';
	*data = buf;
	*size = len;
	return BB_OK;
}

/* Writes size bytes to fd (retried when interrupted or short) and closes
 * it: 0, or the errno of the first failure. */
static int write_close(int fd, const char *p, size_t size)
{
	int e = 0;

	while (size > 0) {
		ssize_t w = write(fd, p, size);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			e = w < 0 ? errno : ENOSPC;
			break;
		}
		p += w;
		size -= (size_t)w;
	}
	if (close(fd) != 0 && !e)
		e = errno;
	return e;
}

/* path is a device, a pipe or a socket: written in place (a rename would
 * replace the device node itself), every write and the close checked. */
static bb_status write_special(const char *path, const void *data, size_t size,
                               bb_error *err)
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC), e;

	if (fd < 0)
		return bb_error_set(err, BB_ERR_IO, path, NULL, "cannot open: %s",
		                    strerror(errno));
	if ((e = write_close(fd, data, size)) != 0)
		return bb_error_set(err, BB_ERR_IO, path, NULL, "write failed: %s",
		                    strerror(e));
	return BB_OK;
}

static mode_t process_umask;
static pthread_once_t umask_once = PTHREAD_ONCE_INIT;

static void read_umask(void)
{
	process_umask = umask(022);
	umask(process_umask);
}

unsigned bb_new_file_mode(unsigned base)
{
	pthread_once(&umask_once, read_umask);
	return base & ~(unsigned)process_umask & 07777;
}

bb_status bb_file_write_atomic(const char *path, const void *data, size_t size,
                               bb_error *err)
{
	char tmp[4096];
	struct stat st;
	int fd;
	FILE *f;

	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
		return write_special(path, data, size, err);
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return bb_error_set(err, BB_ERR_IO, path, NULL, "is a folder");

	if (snprintf(tmp, sizeof tmp, "%s.tmp-XXXXXX", path) >= (int)sizeof tmp)
		return bb_error_set(err, BB_ERR_IO, path, NULL, "path too long");
	fd = mkstemp(tmp);
	if (fd < 0)
		return bb_error_set(err, BB_ERR_IO, path, NULL, "cannot create: %s",
		                    strerror(errno));
	fchmod(fd, bb_new_file_mode(0666));
	f = fdopen(fd, "wb");
	if (!f) {
		close(fd);
		unlink(tmp);
		return bb_error_set(err, BB_ERR_IO, path, NULL, "cannot open: %s",
		                    strerror(errno));
	}
	if ((size && fwrite(data, 1, size, f) != size) || fflush(f) != 0) {
		fclose(f);
		unlink(tmp);
		return bb_error_set(err, BB_ERR_IO, path, NULL, "write failed: %s",
		                    strerror(errno));
	}
	if (fclose(f) != 0 || rename(tmp, path) != 0) {
		unlink(tmp);
		return bb_error_set(err, BB_ERR_IO, path, NULL, "cannot write: %s",
		                    strerror(errno));
	}
	return BB_OK;
}

bb_status bb_file_write_new(const char *path, const void *data, size_t size,
                            bb_error *err)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666), e;

	if (fd < 0)
		return bb_error_set(err, BB_ERR_IO, path, NULL, "cannot create: %s",
		                    strerror(errno));
	if ((e = write_close(fd, data, size)) != 0) {
		unlink(path);
		return bb_error_set(err, BB_ERR_IO, path, NULL, "write failed: %s",
		                    strerror(e));
	}
	return BB_OK;
}

bb_status bb_mkdirs(const char *path, int *created, bb_error *err)
{
	char buf[4096];
	size_t i, n = strlen(path);
	struct stat st;

	if (created)
		*created = 0;
	if (n == 0 || n >= sizeof buf)
		return bb_error_set(err, BB_ERR_IO, path, NULL, "bad folder name");
	memcpy(buf, path, n + 1);
	for (i = 1; i <= n; i++) {
		if (buf[i] != '/' && buf[i] != '\0')
			continue;
		buf[i] = '\0';
		if (mkdir(buf, 0777) == 0) {
			if (created)
				++*created;
		} else if (errno != EEXIST) {
			return bb_error_set(err, BB_ERR_IO, path, NULL, "cannot create "
			                    "folder %s: %s", buf, strerror(errno));
		}
		buf[i] = i == n ? '\0' : '/';
	}
	if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
		return bb_error_set(err, BB_ERR_IO, path, NULL, "not a folder");
	return BB_OK;
}

void bb__dirname(const char *path, char *buf, size_t size)
{
	const char *slash = strrchr(path, '/');

	if (!slash) {
		snprintf(buf, size, ".");
		return;
	}
	if (slash == path) {
		snprintf(buf, size, "/");
		return;
	}
	snprintf(buf, size, "%.*s", (int)(slash - path), path);
}

const char *bb__basename(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

int bb__path_join(char *buf, size_t size, const char *dir, const char *rel)
{
	int n;

	if (rel[0] == '/' || !dir || !dir[0] || strcmp(dir, ".") == 0)
		n = snprintf(buf, size, "%s", rel);
	else
		n = snprintf(buf, size, "%s/%s", dir, rel);
	return n >= 0 && (size_t)n < size;
}

/* Appends "/name" (n bytes) to the absolute path in buf (len bytes). */
static int path_push(char *buf, size_t *len, size_t size, const char *name,
                     size_t n)
{
	size_t at = *len == 1 ? 0 : *len;   /* "/" + "x" is "/x" */

	if (at + 1 + n >= size)
		return 0;
	buf[at] = '/';
	memcpy(buf + at + 1, name, n);
	*len = at + 1 + n;
	buf[*len] = '\0';
	return 1;
}

static void path_drop(char *buf, size_t *len)
{
	while (*len > 1 && buf[*len - 1] != '/')
		(*len)--;
	if (*len > 1)
		(*len)--;
	buf[*len] = '\0';
}

int bb__path_resolve(const char *path, char *out, size_t size)
{
	char todo[8192], link[4096];
	size_t len, tlen = 0, pos = 0;
	int links = 0, missing = 0;

	if (size < 2 || strlen(path) >= sizeof todo)
		return 0;
	if (path[0] == '/') {
		snprintf(out, size, "/");
	} else if (!getcwd(out, size)) {
		return 0;
	}
	len = strlen(out);
	tlen = strlen(path);
	memcpy(todo, path, tlen + 1);
	/* todo[pos..tlen): the components still to walk */
	while (pos < tlen) {
		const char *c;
		size_t n;
		struct stat st;
		ssize_t ln;

		while (pos < tlen && todo[pos] == '/')
			pos++;
		if (pos >= tlen)
			break;
		c = todo + pos;
		for (n = 0; pos + n < tlen && c[n] != '/'; n++)
			;
		pos += n;
		if (n == 1 && c[0] == '.')
			continue;
		if (n == 2 && c[0] == '.' && c[1] == '.') {
			path_drop(out, &len);
			continue;
		}
		if (!path_push(out, &len, size, c, n))
			return 0;
		if (missing)
			continue;
		if (lstat(out, &st) != 0) {
			missing = 1;        /* the rest is taken as written */
			continue;
		}
		if (!S_ISLNK(st.st_mode))
			continue;
		if (++links > 40 || (ln = readlink(out, link, sizeof link - 1)) < 0)
			return 0;
		link[ln] = '\0';
		path_drop(out, &len);
		/* the link's target, then what was left after it */
		if ((size_t)ln + 1 + (tlen - pos) >= sizeof todo)
			return 0;
		memmove(todo + ln + 1, todo + pos, tlen - pos + 1);
		memcpy(todo, link, (size_t)ln);
		todo[ln] = '/';
		tlen = (size_t)ln + 1 + (tlen - pos);
		pos = 0;
		if (link[0] == '/') {
			out[0] = '/';
			out[1] = '\0';
			len = 1;
		}
	}
	return 1;
}

int bb__path_within(const char *path, const char *root)
{
	size_t n = strlen(root);

	if (n == 1 && root[0] == '/')
		return path[0] == '/';
	return strncmp(path, root, n) == 0 && (path[n] == '/' || path[n] == '\0');
}

int bb__text_number(const char *s, double def, double *out)
{
	char *end;
	double v;

	*out = def;
	while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
		s++;
	if (!*s || strcmp(s, "NaN") == 0)
		return 1;
	v = strtod(s, &end);
	while (*end == ' ' || *end == '\t' || *end == '\r' || *end == '\n')
		end++;
	if (end == s || *end || !isfinite(v))
		return 0;
	*out = v;
	return 1;
}

int bb__text_bool(const char *s)
{
	static const char *const falsy[] = { "", "0", "NaN", "false", "null",
	                                     "undefined", NULL };
	int i;

	for (i = 0; falsy[i]; i++)
		if (strcmp(s, falsy[i]) == 0)
			return 0;
	return 1;
}

void bb__jpath_init(bb__jpath *p)
{
	p->buf[0] = '\0';
	p->len = 0;
}

static size_t jpath_append(bb__jpath *p, const char *s)
{
	size_t old = p->len, n = strlen(s);

	if (p->len + n >= sizeof p->buf)
		n = sizeof p->buf - 1 - p->len;
	memcpy(p->buf + p->len, s, n);
	p->len += n;
	p->buf[p->len] = '\0';
	return old;
}

size_t bb__jpath_key(bb__jpath *p, const char *key)
{
	size_t old = p->len;

	if (p->len)
		jpath_append(p, ".");
	jpath_append(p, key);
	return old;
}

size_t bb__jpath_index(bb__jpath *p, size_t i)
{
	char tmp[32];

	snprintf(tmp, sizeof tmp, "[%zu]", i);
	return jpath_append(p, tmp);
}

size_t bb__jpath_quoted(bb__jpath *p, const char *key)
{
	char tmp[132];

	snprintf(tmp, sizeof tmp, "[\"%.120s\"]", key);
	return jpath_append(p, tmp);
}

void bb__jpath_set(bb__jpath *p, const char *s)
{
	bb__jpath_init(p);
	jpath_append(p, s);
}

void bb__jpath_pop(bb__jpath *p, size_t len)
{
	if (len <= p->len) {
		p->len = len;
		p->buf[len] = '\0';
	}
}

int bb_file_open_regular(const char *path, const char *const *roots, int nroots,
                         unsigned long long max_bytes, bb_error *err)
{
	char real[8192], root[8192];
	struct stat st;
	int fd, i, inside = nroots <= 0;

	if (!bb__path_resolve(path, real, sizeof real)) {
		bb_error_set(err, BB_ERR_IO, path, NULL, "path too long, or a loop of "
		             "links");
		return -1;
	}
	for (i = 0; i < nroots && !inside; i++)
		inside = bb__path_resolve(roots[i], root, sizeof root) &&
		         bb__path_within(real, root);
	if (!inside) {
		bb_error_set(err, BB_ERR_INPUT, path, NULL, "refused: it leads outside "
		             "%s", nroots == 1 ? roots[0] : "the folders it may be read from");
		return -1;
	}
	/* resolved: a link now at the last component was swapped in since */
	fd = open(real, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		bb_error_set(err, errno == ELOOP ? BB_ERR_INPUT : BB_ERR_IO, path, NULL,
		             "cannot open: %s", strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		bb_error_set(err, BB_ERR_INPUT, path, NULL, "refused: not a regular file "
		             "(a folder, a device, a FIFO or a socket)");
		return -1;
	}
	if (max_bytes && (unsigned long long)st.st_size > max_bytes) {
		close(fd);
		bb_error_set(err, BB_ERR_LIMIT, path, NULL, "%lld bytes exceed the limit "
		             "of %llu", (long long)st.st_size, max_bytes);
		return -1;
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return fd;
}
