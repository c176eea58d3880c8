/* lib/pack internals shared by the packer and the metadata writers.
 * Not installed. */
#ifndef BB_PACK_INT_H
#define BB_PACK_INT_H

#include <stddef.h>
#include <stdint.h>

#include "bonebake/pack.h"
#include "bonebake/parallel.h"

/* A growing text buffer.  Calls after an allocation failure do nothing and
 * leave `failed` set; check it once at the end. */
typedef struct bb__sbuf {
	char *data;
	size_t len, cap;
	int failed;
} bb__sbuf;

void bb__sbuf_puts(bb__sbuf *b, const char *s);
void bb__sbuf_printf(bb__sbuf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* A number in the shortest of %.6f with trailing zeros dropped ("0.5",
 * "12", "-0.25"); locale-independent only in the "C" locale, which the
 * library never changes. */
void bb__sbuf_num(bb__sbuf *b, double v);
/* A JSON string literal (bb_json_quote); also Godot's, whose parser reads
 * the same escapes (\uXXXX included). */
void bb__sbuf_json_str(bb__sbuf *b, const char *s);
/* HTML/XML text (bb_markup_escape). */
void bb__sbuf_xml_text(bb__sbuf *b, const char *s);
void bb__sbuf_free(bb__sbuf *b);

/* Appends a file to f, taking over b's text (b is emptied).  Fails with
 * BB_ERR_NOMEM (also when b->failed). */
bb_status bb__files_add_text(bb_sheet_files *f, const char *name, bb__sbuf *b,
                             bb_error *err);
/* Appends a file, taking over data (malloc'd); frees it on failure. */
bb_status bb__files_add(bb_sheet_files *f, const char *name, void *data,
                        size_t size, bb_error *err);

/* Name of page p's image: "NAME.png" or "NAME-p.png" for several pages. */
void bb__sheet_page_name(const bb_sheet *s, const char *base, size_t p,
                         char *buf, size_t size);
/* Name of per-page metadata: "NAME.ext" or "NAME-p.ext". */
void bb__sheet_page_meta_name(const bb_sheet *s, const char *base, size_t p,
                              const char *ext, char *buf, size_t size);

/* Metadata writers, one per file of lib/pack/write-*.c.  Each appends its
 * files to `out`.  `base` is the validated base name, `scale` > 0. */
bb_status bb__write_tp_json(const bb_sheet *s, const char *base, double scale,
                            int array, bb_sheet_files *out, bb_error *err);
bb_status bb__write_phaser3(const bb_sheet *s, const char *base, double scale,
                            bb_sheet_files *out, bb_error *err);
bb_status bb__write_libgdx(const bb_sheet *s, const char *base,
                           bb_sheet_files *out, bb_error *err);
bb_status bb__write_cocos2d(const bb_sheet *s, const char *base,
                            bb_sheet_files *out, bb_error *err);
bb_status bb__write_godot(const bb_sheet *s, const char *base,
                          bb_sheet_files *out, bb_error *err);

/* Pixel work (lib/pack/compose.c). */

/* A hash of a rectangle's size and bytes (for deduplication only: equal
 * hashes are compared byte for byte). */
uint64_t bb__pack_hash(const bb_image *img, int x, int y, int w, int h);
/* 1 when two w x h rectangles hold the same bytes. */
int bb__pack_same(const bb_image *a, int ax, int ay, const bb_image *b,
                  int bx, int by, int w, int h);
/* Copies src's w x h rectangle at (sx, sy) onto the page, turned as `rot`
 * says, with `extrude` copies of its edge pixels around it; the covered
 * area's top-left corner is (px, py).  src NULL copies nothing (an empty
 * sprite stays transparent). */
void bb__pack_blit(bb_image *page, int px, int py, const bb_image *src,
                   int sx, int sy, int w, int h, int extrude,
                   bb_pack_rotation rot);
/* Gives fully transparent pixels the mean colour of their nearest visible
 * neighbours (alpha stays 0), so filtering does not pull in black.
 * Returns 0 when out of memory. */
int bb__pack_bleed(bb_image *page);

/* Draws page p of s into a new image (freed by the caller): from the
 * sprites' sources with lazy_pages, a copy of the page otherwise. */
bb_status bb__sheet_draw_page(const bb_sheet *s, size_t p, bb_image **out,
                              bb_error *err);

#endif
