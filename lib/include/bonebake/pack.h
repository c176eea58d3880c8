/* bonebake — sprite sheets: rectangle packing, sheet composition and
 * metadata writers.
 *
 * Three layers, each usable alone:
 *
 *   bb_pack_rects    MaxRects layout of caller-owned rectangles (the caller's
 *                    array is filled in place, stb_rect_pack style);
 *   bb_pack_frames   in-memory frames -> trimmed, deduplicated sprites laid
 *                    out on pages (bb_image) + a bb_sheet description;
 *   bb_sheet_encode  bb_sheet -> page PNGs and metadata files in memory,
 *   bb_sheet_files_write  written all-or-nothing into a folder.
 *
 * Coordinates are pixels, y down, origin at a page's top-left corner.
 * Every function here is thread-safe: no global state; separate calls may
 * run in parallel on separate data. */
#ifndef BONEBAKE_PACK_H
#define BONEBAKE_PACK_H

#include <stddef.h>
#include <stdint.h>
#include "image.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ */
/* Layout */

/* MaxRects placement rules (Jylänki, "A Thousand Ways to Pack the Bin"). */
typedef enum bb_pack_heuristic {
	BB_PACK_AUTO = 0,            /* try every rule below, keep the smallest */
	BB_PACK_BEST_SHORT_SIDE,
	BB_PACK_BEST_LONG_SIDE,
	BB_PACK_BEST_AREA,
	BB_PACK_BOTTOM_LEFT,
	BB_PACK_CONTACT_POINT
} bb_pack_heuristic;

enum {
	BB_PACK_DEFAULT_MAX_SIDE = 2048,
	BB_PACK_MAX_SPACING = 1024,  /* limit on padding, border, extrude */
	BB_PACK_DEFAULT_MAX_FRAMES = 100000
};

/* {0} = defaults: 2048x2048 pages at most, any size, no spacing, no
 * rotation, one page, every heuristic tried. */
typedef struct bb_pack_layout {
	int max_width, max_height;   /* page size limit, border included; 0 = 2048 */
	int pot;                     /* page sides are powers of two */
	int square;                  /* pages are square */
	int padding;                 /* pixels between two rectangles */
	int border;                  /* pixels between rectangles and page edges */
	int allow_rotate;            /* a rectangle may be placed turned 90° */
	int multipack;               /* several pages when one is not enough */
	bb_pack_heuristic heuristic;
} bb_pack_layout;

/* One rectangle; the caller owns the array. */
typedef struct bb_pack_rect {
	int w, h;       /* in: size (> 0), without padding */
	int group;      /* in: with multipack, a group is kept on one page
	                   where it fits (e.g. the frames of one animation) */
	int x, y;       /* out: top-left corner of the area it covers */
	int page;       /* out: page index */
	int rotated;    /* out: covers h x w (turned 90°) instead of w x h */
} bb_pack_rect;

typedef struct bb_pack_page {
	int width, height;
} bb_pack_page;

/* Places rects[0..n) on as few, as small pages as it finds: every heuristic
 * (or the one chosen) with several input orders and a search over page
 * sizes; the smallest total page area wins.  The result depends only on
 * the rectangles' sizes and groups, in array order (ties go to the lower
 * index).  Writes page sizes into pages[0..*n_pages); pages_cap >= n + 1
 * always suffices.  Fails with BB_ERR_USAGE (bad options, pages_cap too
 * small), BB_ERR_LIMIT (a rectangle larger than a page, or everything does
 * not fit on one page without multipack), BB_ERR_NOMEM.  Allocates only
 * scratch memory. */
bb_status bb_pack_rects(bb_pack_rect *rects, size_t n,
                        const bb_pack_layout *layout, bb_pack_page *pages,
                        size_t pages_cap, size_t *n_pages, bb_error *err);

/* ------------------------------------------------------------------ */
/* Frames -> sheet */

/* Which way a rotated sprite is turned on the page.  The metadata formats
 * disagree: TexturePacker JSON, Phaser and Cocos2d read clockwise, libGDX
 * and Spine counter-clockwise, Godot's AtlasTexture cannot rotate. */
typedef enum bb_pack_rotation {
	BB_PACK_ROTATE_NONE = 0,
	BB_PACK_ROTATE_CW,
	BB_PACK_ROTATE_CCW
} bb_pack_rotation;

typedef struct bb_pack_event {
	double time;          /* seconds from the animation's start */
	const char *name;     /* borrowed */
} bb_pack_event;

typedef struct bb_pack_anim {
	const char *name;     /* unique among the anims; borrowed */
	double fps;           /* 0 = unknown */
	int loop;             /* nonzero: the animation loops */
	const bb_pack_event *events;  /* borrowed; may be NULL when n_events 0 */
	size_t n_events;
} bb_pack_anim;

typedef struct bb_pack_input {
	const bb_image *image;   /* the frame, or (full_w > 0) the rectangle of
	                            it at crop_x, crop_y: a frame already
	                            trimmed, e.g. as it was rendered; borrowed */
	const char *name;        /* unique frame name, e.g. "walk_0003"; borrowed */
	int anim;                /* index into the anims array, -1 = none */
	int index;               /* frame number in the animation (playback order) */
	double duration;         /* seconds; 0 = 1/fps of its animation */
	double pivot_x, pivot_y; /* origin pixel in the untrimmed frame */
	int has_pivot;           /* 0: the frame's centre */
	int crop_x, crop_y;      /* where image sits in the whole frame */
	int full_w, full_h;      /* the whole frame's size (0: image's) */
} bb_pack_input;

/* The smallest rectangle of img holding every pixel with alpha above
 * alpha_max (0..254); *w = *h = 0 when there is none.  What
 * bb_pack_frames trims with: a caller keeping many frames can trim each
 * as it arrives and pass the rectangle (crop_x, crop_y, full_w, full_h)
 * with the same result.  Thread-safe. */
void bb_pack_trim(const bb_image *img, int alpha_max, int *x, int *y, int *w,
                  int *h);

/* {0} = defaults: trim at alpha 0, dedupe, no rotation, straight alpha,
 * the layout defaults above. */
typedef struct bb_pack_options {
	bb_pack_layout layout;       /* allow_rotate is set from `rotation` */
	int extrude;                 /* repeat sprite edge pixels this far out */
	int no_trim;                 /* keep whole frames */
	int trim_alpha;              /* pixels with alpha <= this are trimmed (0..254) */
	int no_dedupe;               /* store identical sprites once each */
	bb_pack_rotation rotation;   /* NONE: never rotate */
	int premultiply;             /* pages hold premultiplied colour */
	int bleed;                   /* spread edge colours into transparent
	                                pixels (ignored with premultiply) */
	size_t max_frames;           /* 0 = BB_PACK_DEFAULT_MAX_FRAMES */
	int threads;                 /* threads trimming, hashing and composing
	                                may use; 0 or 1: the calling thread
	                                only.  The result does not depend on it. */
	int lazy_pages;              /* pages are drawn only when bb_sheet_encode
	                                encodes them, each freed once encoded, so
	                                a many-page sheet never holds every page
	                                at once; the frames' images are then
	                                borrowed until the sheet is freed, and
	                                pages[p] stays NULL (page_w/page_h hold
	                                the sizes).  The bytes are the same. */
} bb_pack_options;

typedef struct bb_sheet_event {
	double time;
	char *name;
} bb_sheet_event;

typedef struct bb_sheet_anim {
	char *name;
	double fps;                  /* 0 = unknown */
	int loop;
	bb_sheet_event *events;      /* sorted by time */
	size_t n_events;
	size_t first, count;         /* its frames: sheet->frames[first..first+count) */
} bb_sheet_anim;

/* One named frame.  Its pixels are page `page`, rectangle (x, y, w, h) --
 * (x, y, h, w) when rotated -- and belong at (src_x, src_y) in a src_w x
 * src_h transparent frame. */
typedef struct bb_sheet_frame {
	char *name;
	int anim;                    /* index into sheet->anims, -1 = none */
	int index;                   /* frame number in the animation */
	double duration;             /* seconds; 0 = unknown */
	size_t sprite;               /* frames with one sprite id share pixels */
	size_t input;                /* index of the bb_pack_input it came from */
	int page;
	int x, y, w, h;              /* trimmed pixels on the page; w, h unrotated */
	int rotated;                 /* turned 90° in sheet->rotation's direction */
	int trimmed;                 /* the rectangle is smaller than the frame */
	int empty;                   /* no visible pixel: a 1x1 transparent sprite */
	int src_x, src_y;            /* the rectangle's place in the whole frame */
	int src_w, src_h;            /* whole frame size */
	double pivot_x, pivot_y;     /* origin pixel in the whole frame */
} bb_sheet_frame;

/* The packed result.  Read-only for callers; free with bb_sheet_free. */
typedef struct bb__sheet_src bb__sheet_src;

typedef struct bb_sheet {
	size_t n_pages;
	bb_image **pages;            /* straight RGBA unless premultiplied
	                                (then each page's flag is set);
	                                NULL with lazy_pages */
	int *page_w, *page_h;        /* every page's size */
	bb__sheet_src *src;          /* lazy_pages: what draws the pages */
	size_t n_frames;
	bb_sheet_frame *frames;      /* playback order: animations by name, each
	                                by index; frames without one last, by name */
	size_t n_anims;
	bb_sheet_anim *anims;        /* by name */
	size_t n_sprites;            /* distinct sprites on the pages */
	bb_pack_rotation rotation;
	int premultiplied;
	uint64_t sprite_area;        /* sum of distinct trimmed areas */
	uint64_t page_area;          /* sum of page areas */
} bb_sheet;

/* Trims, deduplicates, lays out and composes frames[0..n) into pages.
 * Borrows frames and anims (names are copied); the result does not point
 * into them.  The output is the same whatever order frames and anims are
 * given in.  Fails with BB_ERR_USAGE (bad options, NULL image or name,
 * duplicate names, anim index out of range), BB_ERR_LIMIT (too many
 * frames, a sprite larger than a page, no room without multipack),
 * BB_ERR_NOMEM.  *out is NULL on failure. */
bb_status bb_pack_frames(const bb_pack_input *frames, size_t n,
                         const bb_pack_anim *anims, size_t n_anims,
                         const bb_pack_options *opt, bb_sheet **out,
                         bb_error *err);

/* NULL-safe. */
void bb_sheet_free(bb_sheet *s);

/* sprite_area / page_area (0 for an empty sheet). */
double bb_sheet_occupancy(const bb_sheet *s);

/* ------------------------------------------------------------------ */
/* Files */

typedef enum bb_sheet_format {
	BB_SHEET_JSON_HASH = 0,  /* TexturePacker JSON hash (PixiJS, Phaser 3): NAME.json */
	BB_SHEET_JSON_ARRAY,     /* TexturePacker JSON array: NAME.json */
	BB_SHEET_PHASER3,        /* Phaser 3 multiatlas: NAME.multiatlas.json */
	BB_SHEET_LIBGDX,         /* libGDX / Spine .atlas: NAME.atlas */
	BB_SHEET_COCOS2D,        /* Cocos2d plist, format 3: NAME.plist */
	BB_SHEET_GODOT,          /* Godot 4 SpriteFrames: NAME.tres */
	BB_SHEET_FORMAT_COUNT
} bb_sheet_format;

/* Static lower-case name ("json", "json-array", "phaser3", "libgdx",
 * "cocos2d", "godot"). */
const char *bb_sheet_format_name(bb_sheet_format f);
/* Parses a name above or an alias (json-hash, phaser, spine, atlas, cocos,
 * plist, tres).  Returns 0 when unknown. */
int bb_sheet_format_parse(const char *s, bb_sheet_format *out);
/* The rotation direction a format reads; NONE when it cannot rotate. */
bb_pack_rotation bb_sheet_format_rotation(bb_sheet_format f);

/* {0} = "sheet", JSON hash, scale 1, pages at BB_PNG_LEVEL_SHEETS. */
typedef struct bb_sheet_write_options {
	const char *name;        /* base file name; NULL = "sheet" */
	unsigned formats;        /* bit (1u << bb_sheet_format) per format; 0 = JSON hash */
	double scale;            /* written as meta.scale; 0 = 1 */
	bb_png_options png;      /* page encoding; level_set 0: the level is
	                            BB_PNG_LEVEL_SHEETS (final sheets favour
	                            size), not the frame default */
	int threads;             /* pages encoded in parallel; 0 or 1: the
	                            calling thread only.  The bytes do not
	                            depend on it. */
} bb_sheet_write_options;

typedef struct bb_sheet_file {
	char *name;              /* relative file name, e.g. "sheet-1.png" */
	void *data;
	size_t size;
} bb_sheet_file;

typedef struct bb_sheet_files {
	size_t n;
	bb_sheet_file *files;    /* pages first, then metadata in format order */
} bb_sheet_files;

/* Encodes every page as PNG ("NAME.png", or "NAME-0.png", "NAME-1.png"...
 * for several pages) and the chosen metadata formats, in memory.
 * Returns new files; free with bb_sheet_files_free.  Fails with
 * BB_ERR_USAGE (a bad name, two formats writing one file, rotated sprites
 * in a format that cannot show them or reads the other direction, a bad
 * PNG level), BB_ERR_NOMEM. */
bb_status bb_sheet_encode(const bb_sheet *s, const bb_sheet_write_options *o,
                          bb_sheet_files **out, bb_error *err);

/* Writes every file into folder `dir` (which must exist), each with
 * bb_file_write_atomic; a failure removes the ones already written, so it
 * leaves none of the new files behind.  (The CLI writes into a staging
 * folder and moves the sheet into place as one set.)  Fails with
 * BB_ERR_IO. */
bb_status bb_sheet_files_write(const bb_sheet_files *f, const char *dir,
                               bb_error *err);

/* Returns the file called `name`, or NULL. */
const bb_sheet_file *bb_sheet_files_find(const bb_sheet_files *f,
                                         const char *name);

/* NULL-safe. */
void bb_sheet_files_free(bb_sheet_files *f);

#ifdef __cplusplus
}
#endif
#endif
