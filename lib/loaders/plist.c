/* cocos2d .plist sprite-frame atlases (CCSpriteFrameCache, spec cocos.md
 * 7.4): formats 0-3, rotated frames, trim offsets (y up), a leading
 * byte-order mark. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loaders/plist.h"
#include "loaders/xml.h"

struct pl {
	bb__where x;               /* the plist (file, error) */
	const char *frame;         /* frame being read (for error paths) */
	int format;
};

/* Value element following <key>name</key> in a <dict>, or NULL. */
static const bb__xnode *dict_get(const bb__xnode *dict, const char *name)
{
	const bb__xnode *k;

	for (k = bb__xchild(dict, "key"); k; k = bb__xnext(k, "key"))
		if (k->text && strcmp(k->text, name) == 0)
			return k->next;
	return NULL;
}

/* An error at `frames["<frame>"].field` (or metadata.field), at's line. */
static bb_status fail(struct pl *p, const bb__xnode *at, const char *field,
                      const char *msg)
{
	bb__jpath path;

	bb__jpath_init(&path);
	bb__jpath_key(&path, p->frame ? "frames" : "metadata");
	if (p->frame)
		bb__jpath_quoted(&path, p->frame);
	if (field)
		bb__jpath_key(&path, field);
	return bb__error_at(p->x.err, BB_ERR_INPUT, p->x.file, at ? at->line : 0,
	                    0, path.buf, "%s", msg);
}

/* Up to n numbers of a "{{x,y},{w,h}}" / "{x,y}" string; returns the count. */
static int parse_braces(const char *s, double *v, int n)
{
	int k = 0;
	char *end;

	while (s && *s && k <= n) {
		if (strchr("{}, \t\r\n", *s)) {
			s++;
			continue;
		}
		if (k == n)
			return -1;
		v[k] = strtod(s, &end);
		if (end == s || !isfinite(v[k]))
			return -1;
		k++;
		s = end;
	}
	return k;
}

/* A field holding a brace string of exactly n numbers (required or not). */
static bb_status braces(struct pl *p, const bb__xnode *fr, const char *key,
                        int required, double *v, int n)
{
	const bb__xnode *e = dict_get(fr, key);

	if (!e) {
		if (required)
			return fail(p, fr, key, "missing");
		return BB_OK;
	}
	if (strcmp(e->name, "string") != 0 || parse_braces(e->text, v, n) != n)
		return fail(p, e, key, n == 4 ? "expected \"{{x,y},{w,h}}\""
		                             : "expected \"{x,y}\"");
	return BB_OK;
}

static bb_status number(struct pl *p, const bb__xnode *fr, const char *key,
                        int required, double *out)
{
	const bb__xnode *e = dict_get(fr, key);
	char *end;

	if (!e)
		return required ? fail(p, fr, key, "missing") : BB_OK;
	if ((strcmp(e->name, "integer") != 0 && strcmp(e->name, "real") != 0) ||
	    !e->text)
		return fail(p, e, key, "expected a number");
	*out = strtod(e->text, &end);
	if (end == e->text || !isfinite(*out))
		return fail(p, e, key, "expected a number");
	return BB_OK;
}

static int flag(const bb__xnode *fr, const char *key)
{
	const bb__xnode *e = dict_get(fr, key);

	return e && strcmp(e->name, "true") == 0;
}

/* rect x y w h (unrotated size), offset ox oy (y up), source W H. */
static bb_status read_frame(struct pl *p, const bb__xnode *fr, double *v,
                            int *rotated)
{
	bb_status s;

	v[4] = v[5] = 0;
	v[6] = v[7] = -1;
	*rotated = 0;
	switch (p->format) {
	case 0:
		if ((s = number(p, fr, "x", 1, &v[0])) != BB_OK ||
		    (s = number(p, fr, "y", 1, &v[1])) != BB_OK ||
		    (s = number(p, fr, "width", 1, &v[2])) != BB_OK ||
		    (s = number(p, fr, "height", 1, &v[3])) != BB_OK ||
		    (s = number(p, fr, "offsetX", 0, &v[4])) != BB_OK ||
		    (s = number(p, fr, "offsetY", 0, &v[5])) != BB_OK ||
		    (s = number(p, fr, "originalWidth", 0, &v[6])) != BB_OK ||
		    (s = number(p, fr, "originalHeight", 0, &v[7])) != BB_OK)
			return s;
		break;
	case 3:
		if ((s = braces(p, fr, "textureRect", 1, v, 4)) != BB_OK ||
		    (s = braces(p, fr, "spriteOffset", 0, v + 4, 2)) != BB_OK ||
		    (s = braces(p, fr, "spriteSourceSize", 0, v + 6, 2)) != BB_OK)
			return s;
		*rotated = flag(fr, "textureRotated");
		break;
	default:
		if ((s = braces(p, fr, "frame", 1, v, 4)) != BB_OK ||
		    (s = braces(p, fr, "offset", 0, v + 4, 2)) != BB_OK ||
		    (s = braces(p, fr, "sourceSize", 0, v + 6, 2)) != BB_OK)
			return s;
		*rotated = p->format == 2 && flag(fr, "rotated");
		break;
	}
	if (v[2] < 0 || v[3] < 0 || v[2] > 1e6 || v[3] > 1e6)
		return fail(p, fr, NULL, "frame size out of range");
	v[6] = v[6] < 0 ? v[2] : fabs(v[6]);
	v[7] = v[7] < 0 ? v[3] : fabs(v[7]);
	return BB_OK;
}

static bb_status add_frame(struct pl *p, const bb__xnode *fr, int tex,
                           const bb_image *page, bb__atlas *at)
{
	double v[8];
	int rotated;
	bb__region *r;
	bb_status s;

	if (strcmp(fr->name, "dict") != 0)
		return fail(p, fr, NULL, "expected a <dict>");
	if ((s = read_frame(p, fr, v, &rotated)) != BB_OK)
		return s;
	if (tex < 0)
		return BB_OK;
	if (v[0] < 0 || v[1] < 0 ||
	    v[0] + (rotated ? v[3] : v[2]) > page->width + 0.5 ||
	    v[1] + (rotated ? v[2] : v[3]) > page->height + 0.5)
		return fail(p, fr, NULL, "frame lies outside its page");
	if (!(r = bb__atlas_add(at, p->frame)))
		return bb_error_set(p->x.err, BB_ERR_NOMEM, p->x.file, NULL,
		                    "out of memory");
	r->texture = tex;
	r->x = v[0];
	r->y = v[1];
	r->w = rotated ? v[3] : v[2];
	r->h = rotated ? v[2] : v[3];
	r->rotated = rotated;
	r->has_frame = 1;
	r->fw = v[6];
	r->fh = v[7];
	/* Starling frame: minus the trimmed rect's top-left in the source */
	r->fx = -((v[6] - v[2]) / 2 + v[4]);
	r->fy = -((v[7] - v[3]) / 2 - v[5]);
	return BB_OK;
}

/* cocos2d-x draws the PNG it loads whatever the plist's metadata says
 * (SpriteFrameCache reads `size` only for polygon sprites, and the armature
 * reader hands it the PNG the application names): a `textureFileName`
 * that is not the page loaded (cyborg.plist's "Cyborg.png" for cyborg.png)
 * or a `size` that is not the PNG's is a warning, and the PNG rules. */
static void check_metadata(bb_model *m, const char *base, const bb__xnode *meta,
                           const char *file, const bb_image *img)
{
	const bb__xnode *tf = dict_get(meta, "textureFileName");
	const bb__xnode *sz = dict_get(meta, "size");
	double v[2];

	if (tf && tf->text && strcmp(bb__basename(tf->text), bb__basename(file)) != 0)
		bb__model_warn(m, "%s: metadata.textureFileName \"%s\" is not the page "
		               "loaded, \"%s\"; the page is used (as cocos2d-x does)",
		               base, tf->text, bb__basename(file));
	if (sz && strcmp(sz->name, "string") == 0 && parse_braces(sz->text, v, 2) == 2 &&
	    (v[0] != img->width || v[1] != img->height))
		bb__model_warn(m, "%s: metadata.size {%g,%g} is not the size of \"%s\" "
		               "(%dx%d); the PNG's size is used (as cocos2d-x does)",
		               base, v[0], v[1], bb__basename(file), img->width,
		               img->height);
}

/* The page of the plist at `path`: its texture index into *tex, or -1
 * (warned) when it cannot be read. */
static bb_status load_page(bb__load_ctx *c, struct pl *p, const char *path,
                           const bb__xnode *meta, int *tex)
{
	const bb__xnode *tf = dict_get(meta, "textureFileName");
	const char *base = bb__basename(path), *dot = strrchr(base, '.'), *png;
	char dir[4096], stem[4096], file[4200], why[BB_ERROR_MSG_MAX];
	bb__where at = p->x;
	bb__ref r;
	bb_image *img;
	int have;
	bb_status s;

	*tex = -1;
	bb__dirname(path, dir, sizeof dir);
	snprintf(stem, sizeof stem, "%.*s.png",
	         (int)(dot ? (size_t)(dot - base) : strlen(base)), base);
	r = (bb__ref){ .at = &p->x, .what = "page", .name = stem, .dir = dir };
	if ((have = bb__load_exists(c, &r)) < 0)
		return BB_ERR_INPUT;
	png = stem;
	if (!have && tf && tf->text) {
		/* the name the plist gives, where it is written */
		png = tf->text;
		at.line = tf->line;
		bb__jpath_set(&at.path, "metadata.textureFileName");
		r = (bb__ref){ .at = &at, .what = "page", .name = png, .dir = dir };
	}
	if (!bb__load_path(c, &r, file, sizeof file))
		return BB_OK;
	if ((*tex = bb__model_find_texture(c->m, file)) < 0) {
		if ((s = bb__load_image(c, &r, BB__OPEN_OPTIONAL, &img, why,
		                        sizeof why)) != BB_OK)
			return s;
		if (!img) {
			bb__model_warn(c->m, "%s: page \"%s\": %s; its frames are not drawn",
			               base, png, why);
			return BB_OK;
		}
		if ((s = bb__build_texture(&c->b, file, img, tex)) != BB_OK)
			return s;
	}
	check_metadata(c->m, base, meta, file, c->m->textures[*tex]);
	return BB_OK;
}

bb_status bb__plist_load(bb__load_ctx *c, const bb__ref *r, bb__atlas *at)
{
	struct pl p;
	bb__xnode *root = NULL;
	const bb__xnode *dict, *frames, *meta, *k;
	char path[4096], *data = NULL;
	size_t size;
	double fmt = 0;
	int tex;
	bb_status s;

	memset(&p, 0, sizeof p);
	if (!bb__load_path(c, r, path, sizeof path))
		return bb__error_at(c->err, BB_ERR_INPUT, c->name, 0, 0, NULL,
		                    "atlas \"%s\": path too long", r->name);
	p.x.file = bb__basename(path);
	p.x.err = c->err;
	if ((s = bb__load_open(c, r, 0, &data, &size, NULL, 0)) != BB_OK)
		return s;
	s = bb__xml_parse(data, size, p.x.file, 1000000, BB__XML_EXTERNAL_DOCTYPE,
	                  &root, c->err);
	free(data);
	if (s != BB_OK)
		return s;
	dict = bb__xchild(root, "dict");
	frames = dict_get(dict, "frames");
	meta = dict_get(dict, "metadata");
	if (!dict || !frames || strcmp(frames->name, "dict") != 0) {
		s = bb__xfail(&p.x, dict ? dict : root, NULL, "no \"frames\" dictionary");
		goto done;
	}
	if (meta && (s = number(&p, meta, "format", 0, &fmt)) != BB_OK)
		goto done;
	if (fmt < 0 || fmt > 3 || fmt != floor(fmt)) {
		s = bb__xfail(&p.x, meta, NULL, "unsupported format %g (0-3 are)", fmt);
		goto done;
	}
	p.format = (int)fmt;
	if ((s = load_page(c, &p, path, meta, &tex)) != BB_OK)
		goto done;
	for (k = bb__xchild(frames, "key"); k; k = bb__xnext(k, "key")) {
		p.frame = k->text ? k->text : "";
		if (!k->next) {
			s = fail(&p, k, NULL, "missing");
			goto done;
		}
		if ((s = add_frame(&p, k->next, tex,
		                   tex >= 0 ? c->m->textures[tex] : NULL, at)) != BB_OK)
			goto done;
	}
	s = BB_OK;
done:
	bb__xml_free(root);
	return s;
}
