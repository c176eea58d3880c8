/* bonebake — writing output files safely.
 *
 * Every output bonebake writes goes through these: a reader never sees a
 * half-written file, and a failed write leaves nothing behind. */
#ifndef BONEBAKE_FILES_H
#define BONEBAKE_FILES_H

#include <stddef.h>
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The mode a new file (0666) or folder (0777) gets under the process's
 * umask, as open(2) and mkdir(2) give it: `base & ~umask`.  The umask is
 * read once, on the first call (make it before starting threads that
 * change the umask; bonebake never changes it). */
unsigned bb_new_file_mode(unsigned base);

/* Writes data to path through a temporary file in the same folder
 * (path.tmp-XXXXXX, created 0600 and then given bb_new_file_mode(0666)), flushed and closed before a rename, so
 * readers see the old file or the whole new one.  Fails with BB_ERR_IO
 * (err names path and the system's reason; the temporary is removed).
 * Thread-safe. */
bb_status bb_file_write_atomic(const char *path, const void *data, size_t size,
                               bb_error *err);

/* Creates path, which must not exist yet, with bb_new_file_mode(0666),
 * and writes data to it: for a file in a folder no reader sees until it
 * is complete (an output staging folder), where bb_file_write_atomic's
 * temporary and rename are one file-system step too many.  A failure
 * (BB_ERR_IO, err naming path and the reason; EEXIST when it exists)
 * removes what was written.  Thread-safe. */
bb_status bb_file_write_new(const char *path, const void *data, size_t size,
                            bb_error *err);

/* mkdir -p: creates path and its missing parents (mode 0777 less the
 * umask).  *created (may be NULL) is set to how many folders were made:
 * path's last *created components (0: path was there).  Fails with
 * BB_ERR_IO when a component cannot be made or path is not a folder. */
bb_status bb_mkdirs(const char *path, int *created, bb_error *err);

/* Opens `path` for reading only when, every symbolic link followed, it is
 * a regular file (not a folder, device, FIFO or socket: the open never
 * blocks) inside one of the `nroots` folders `roots` (anywhere when nroots
 * is 0) and of at most max_bytes (0: any size).  The path is resolved
 * first and opened with O_NOFOLLOW, and the type and size are those of
 * the open file, so a file swapped in between is refused too.  Returns a
 * descriptor (the caller closes it), or -1 with err naming path:
 * BB_ERR_INPUT ("refused: it leads outside ...", "refused: not a regular
 * file"), BB_ERR_LIMIT (larger than max_bytes), BB_ERR_IO.  A file may
 * still grow after the check: readers stop at max_bytes themselves.
 * Thread-safe. */
int bb_file_open_regular(const char *path, const char *const *roots, int nroots,
                         unsigned long long max_bytes, bb_error *err);

#ifdef __cplusplus
}
#endif
#endif
