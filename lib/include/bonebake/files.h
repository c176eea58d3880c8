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

/* mkdir -p: creates path and its missing parents (mode 0777 less the
 * umask).  *created
 * (may be NULL) is set to 1 when path itself was created.  Fails with
 * BB_ERR_IO when a component cannot be made or path is not a folder. */
bb_status bb_mkdirs(const char *path, int *created, bb_error *err);

#ifdef __cplusplus
}
#endif
#endif
