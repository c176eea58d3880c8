/* cocos2d sprite-frame atlases (.plist, formats 0-3) as bb__atlas regions. */
#ifndef BB_LOADERS_PLIST_H
#define BB_LOADERS_PLIST_H

#include "loaders/atlas.h"

/* Reads the plist at `path` and appends one region per frame (named by its
 * key, e.g. "arm.png") to `at`, on the page `png` (NULL: the plist's name
 * with .png, else metadata.textureFileName), added to m's textures once.
 * Trimmed frames get Starling-style frame fields (fx, fy <= 0, y down);
 * rotated frames are stored 90 degrees clockwise.  A malformed frame is
 * BB_ERR_INPUT naming the plist and `frames["name"].field`; an unreadable
 * page is a model warning (its frames draw nothing).  BB_ERR_IO when the
 * plist cannot be read. */
bb_status bb__plist_load(bb_model *m, const char *path, const char *png,
                         bb__atlas *at, bb_error *err);

#endif
