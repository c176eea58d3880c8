/* cocos2d sprite-frame atlases (.plist, formats 0-3) as bb__atlas regions. */
#ifndef BB_LOADERS_PLIST_H
#define BB_LOADERS_PLIST_H

#include "loaders/atlas.h"
#include "loaders/loader.h"

/* Reads the plist r names (through the file funnel) and appends one region
 * per frame (named by its key, e.g. "arm.png") to `at`, on its page: the
 * plist's <stem>.png beside it when there is one, else its
 * metadata.textureFileName (relative to the plist), added to the model's
 * textures once.  Trimmed frames get Starling-style frame fields (fx, fy
 * <= 0, y down); rotated frames are stored 90 degrees clockwise.  A
 * malformed frame is BB_ERR_INPUT naming the plist and
 * `frames["name"].field`; an unreadable page is a model warning (its
 * frames draw nothing); a refused page an error. */
bb_status bb__plist_load(bb__load_ctx *c, const bb__ref *r, bb__atlas *at);

#endif
