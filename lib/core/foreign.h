/* Recognising files bonebake does not read (library-internal). */
#ifndef BB_CORE_FOREIGN_H
#define BB_CORE_FOREIGN_H

#include <stddef.h>

/* What the file is and what to do, for a Git LFS pointer, a DragonBones
 * binary and a Spriter project (.scml, .scon); NULL for anything else.
 * Looks only at the content, never at a name. */
const char *bb__foreign_file(const void *data, size_t size);

#endif
