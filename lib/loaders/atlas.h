/* Texture atlases shared by the loaders: named regions on model textures,
 * with trim frames and 90-degree rotation. */
#ifndef BB_LOADERS_ATLAS_H
#define BB_LOADERS_ATLAS_H

#include "core/names.h"
#include "loaders/loader.h"

typedef struct bb__region {
	char *name;
	int texture;           /* model texture index */
	double x, y, w, h;     /* in the page; w, h as stored (rotated extents) */
	int rotated;           /* stored 90 degrees clockwise */
	int has_frame;
	double fx, fy, fw, fh; /* untrimmed frame (fx, fy <= 0) */
	double scale;          /* texture scale: 1 / atlas scale */
} bb__region;

typedef struct bb__atlas {
	bb__region *regions;
	int n;
	size_t cap;
	bb__names index;           /* bb__atlas_find's, by region name */
} bb__atlas;

/* Reads the DragonBones/Starling JSON atlas r names (imagePath, width,
 * height, scale, SubTexture[]) and its page PNG (relative to the atlas)
 * through the file funnel, appending its regions.  Errors name the atlas
 * file and field; a region outside its page is an error. */
bb_status bb__atlas_load_json(bb__load_ctx *c, const bb__ref *r, bb__atlas *at);
const bb__region *bb__atlas_find(bb__atlas *at, const char *name);
/* Appends a region named `name` (zeroed: scale 1); NULL when out of
 * memory. */
bb__region *bb__atlas_add(bb__atlas *at, const char *name);
void bb__atlas_free(bb__atlas *at);

/* Corners TL TR BR BL (display space) and texture coordinates of a region
 * drawn with its untrimmed frame's pivot (fractions) at the origin. */
void bb__region_quad(const bb__region *r, double pivot_x, double pivot_y,
                     bb_vec2 corners[4], bb_vec2 uvs[4]);
/* Texture pixel of the region's normalised coordinate (u, v). */
bb_vec2 bb__region_uv(const bb__region *r, double u, double v);

#endif
