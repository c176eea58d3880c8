/* Reads animated WebP, GIF and APNG files back for the tests, each with
 * the library that reads it: libwebp's demux API (WebPAnimDecoder),
 * giflib's reader, and for APNG a reader written here that walks the
 * chunks, checks their CRCs and sequence numbers and inflates each frame
 * with zlib.  Every frame is composed on the canvas as a viewer would. */
#include "config.h"

#include <gif_lib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <webp/demux.h>
#include <zlib.h>

#include "anim-read.h"

static void die(const char *file, const char *msg)
{
	fprintf(stderr, "anim-read: %s: %s\n", file, msg);
	exit(1);
}

static unsigned char *slurp(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL;
	size_t cap = 0, n = 0, got;

	if (!f)
		die(path, "cannot open");
	do {
		if (n == cap) {
			cap = cap ? 2 * cap : 65536;
			buf = realloc(buf, cap);
			if (!buf)
				die(path, "out of memory");
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
	} while (got > 0);
	fclose(f);
	*size = n;
	return buf;
}

static void emit(struct anim_result *r, const bb_image *canvas, long idx,
                 long delay)
{
	r->delays = realloc(r->delays, (size_t)(idx + 1) * sizeof *r->delays);
	r->images = realloc(r->images, (size_t)(idx + 1) * sizeof *r->images);
	if (!r->delays || !r->images)
		die("", "out of memory");
	r->delays[idx] = delay;
	r->images[idx] = bb_image_dup(canvas);
	if (!r->images[idx])
		die("", "out of memory");
	r->frames = idx + 1;
}

/* ---- WebP: libwebp's animation decoder ---------------------------------- */

static void read_webp(const char *path, const unsigned char *data, size_t size,
                      struct anim_result *r)
{
	WebPData wd = { data, size };
	WebPAnimDecoderOptions o;
	WebPAnimDecoder *dec;
	WebPAnimInfo info;
	bb_image *canvas;
	int prev = 0, y;
	long i = 0;

	if (!WebPAnimDecoderOptionsInit(&o))
		die(path, "libwebp version mismatch");
	o.color_mode = MODE_RGBA;
	o.use_threads = 0;
	dec = WebPAnimDecoderNew(&wd, &o);
	if (!dec || !WebPAnimDecoderGetInfo(dec, &info))
		die(path, "not an animated WebP");
	r->format = "webp";
	r->width = (int)info.canvas_width;
	r->height = (int)info.canvas_height;
	r->plays = (int)info.loop_count;
	r->unit = 1000;
	if (bb_image_new(r->width, r->height, &canvas, NULL) != BB_OK)
		die(path, "bad canvas");
	while (WebPAnimDecoderHasMoreFrames(dec)) {
		uint8_t *buf;
		int ts;

		if (!WebPAnimDecoderGetNext(dec, &buf, &ts))
			die(path, "cannot decode a frame");
		for (y = 0; y < r->height; y++)
			memcpy(bb_image_pixel(canvas, 0, y), buf + (size_t)y * 4 * r->width,
			       (size_t)r->width * 4);
		emit(r, canvas, i++, ts - prev);
		prev = ts;
	}
	if ((long)info.frame_count != i)
		die(path, "frame count disagrees with the header");
	bb_image_free(canvas);
	WebPAnimDecoderDelete(dec);
}

/* ---- GIF: giflib's reader ----------------------------------------------- */

static void read_gif(const char *path, struct anim_result *r)
{
	int code = 0, i, e, x, y;
	GifFileType *gif = DGifOpenFileName(path, &code);
	bb_image *canvas;

	if (!gif || DGifSlurp(gif) != GIF_OK)
		die(path, "not a GIF");
	r->format = "gif";
	r->width = gif->SWidth;
	r->height = gif->SHeight;
	r->plays = 1;      /* no NETSCAPE2.0 block: once */
	r->unit = 100;
	if (bb_image_new(r->width, r->height, &canvas, NULL) != BB_OK)
		die(path, "bad canvas");
	for (i = 0; i < gif->ImageCount; i++) {
		SavedImage *im = &gif->SavedImages[i];
		GifImageDesc *d = &im->ImageDesc;
		ColorMapObject *map = d->ColorMap ? d->ColorMap : gif->SColorMap;
		GraphicsControlBlock gcb = { DISPOSAL_UNSPECIFIED, false, 0,
		                             NO_TRANSPARENT_COLOR };

		for (e = 0; e + 1 < im->ExtensionBlockCount; e++) {
			ExtensionBlock *b = &im->ExtensionBlocks[e], *n = b + 1;

			if (b->Function == APPLICATION_EXT_FUNC_CODE && b->ByteCount == 11 &&
			    memcmp(b->Bytes, "NETSCAPE2.0", 11) == 0 &&
			    n->Function == CONTINUE_EXT_FUNC_CODE && n->ByteCount >= 3) {
				int reps = n->Bytes[1] | n->Bytes[2] << 8;

				r->plays = reps == 0 ? 0 : reps + 1;
			}
		}
		DGifSavedExtensionToGCB(gif, i, &gcb);
		if (!map || d->Left + d->Width > r->width || d->Top + d->Height > r->height)
			die(path, "bad frame");
		for (y = 0; y < d->Height; y++)
			for (x = 0; x < d->Width; x++) {
				int c = im->RasterBits[(size_t)y * d->Width + x];
				uint8_t *p = bb_image_pixel(canvas, d->Left + x, d->Top + y);

				if (c == gcb.TransparentColor)
					continue;
				if (c >= map->ColorCount)
					die(path, "colour index outside the palette");
				p[0] = map->Colors[c].Red;
				p[1] = map->Colors[c].Green;
				p[2] = map->Colors[c].Blue;
				p[3] = 255;
			}
		emit(r, canvas, i, gcb.DelayTime);
		if (gcb.DisposalMode == DISPOSE_BACKGROUND)
			for (y = 0; y < d->Height; y++)
				memset(bb_image_pixel(canvas, d->Left, d->Top + y), 0,
				       (size_t)d->Width * 4);
		else if (gcb.DisposalMode == DISPOSE_PREVIOUS)
			die(path, "DISPOSE_PREVIOUS is not expected");
	}
	bb_image_free(canvas);
	DGifCloseFile(gif, &code);
}

/* ---- APNG: chunks walked here, frames inflated with zlib --------------- */

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static int paeth(int a, int b, int c)
{
	int p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);

	return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/* Inflates zdata into w x h RGBA8 rows and undoes the PNG filters. */
static unsigned char *decode_frame(const char *path, const unsigned char *z,
                                   size_t zn, int w, int h)
{
	size_t row = (size_t)w * 4, need = (row + 1) * (size_t)h, x;
	unsigned char *raw = malloc(need), *out = malloc(row * (size_t)h);
	uLongf got = (uLongf)need;
	int y;

	if (!raw || !out)
		die(path, "out of memory");
	if (uncompress(raw, &got, z, (uLong)zn) != Z_OK || got != need)
		die(path, "frame data does not inflate to its size");
	for (y = 0; y < h; y++) {
		unsigned char *s = raw + (size_t)y * (row + 1) + 1, *d = out + (size_t)y * row;
		const unsigned char *up = y ? d - row : NULL;
		int f = s[-1];

		for (x = 0; x < row; x++) {
			int a = x >= 4 ? d[x - 4] : 0, b = up ? up[x] : 0,
			    c = up && x >= 4 ? up[x - 4] : 0, v = s[x];

			switch (f) {
			case 0: break;
			case 1: v += a; break;
			case 2: v += b; break;
			case 3: v += (a + b) / 2; break;
			case 4: v += paeth(a, b, c); break;
			default: die(path, "bad filter type");
			}
			d[x] = (unsigned char)v;
		}
	}
	free(raw);
	return out;
}

struct apng_frame {
	int w, h, x, y, dispose, blend;
	long delay_num, delay_den;
	unsigned char *z;
	size_t zn;
};

static void apng_compose(const char *path, struct anim_result *r, bb_image *canvas,
                         struct apng_frame *f, long idx)
{
	unsigned char *px = decode_frame(path, f->z, f->zn, f->w, f->h);
	bb_image *saved = f->dispose == 2 ? bb_image_dup(canvas) : NULL;
	int x, y;

	for (y = 0; y < f->h; y++)
		for (x = 0; x < f->w; x++) {
			const unsigned char *s = px + ((size_t)y * f->w + x) * 4;
			uint8_t *d = bb_image_pixel(canvas, f->x + x, f->y + y);

			if (f->blend == 0 || s[3] == 255) {
				memcpy(d, s, 4);
			} else if (s[3] > 0) {
				/* OVER in straight alpha */
				double sa = s[3] / 255.0, da = d[3] / 255.0,
				       oa = sa + da * (1 - sa);
				int k;

				for (k = 0; k < 3; k++)
					d[k] = (uint8_t)((s[k] * sa + d[k] * da * (1 - sa)) / oa + 0.5);
				d[3] = (uint8_t)(oa * 255 + 0.5);
			}
		}
	/* the delay in ms, from the fraction (den 0 means 100) */
	emit(r, canvas, idx, f->delay_den ? (f->delay_num * 1000 + f->delay_den / 2) /
	     f->delay_den : f->delay_num * 10);
	if (f->dispose == 1)
		for (y = 0; y < f->h; y++)
			memset(bb_image_pixel(canvas, f->x, f->y + y), 0, (size_t)f->w * 4);
	else if (saved) {
		for (y = 0; y < canvas->height; y++)
			memcpy(bb_image_pixel(canvas, 0, y), bb_image_pixel(saved, 0, y),
			       (size_t)canvas->width * 4);
		bb_image_free(saved);
	}
	free(px);
	free(f->z);
	f->z = NULL;
	f->zn = 0;
}

static void read_apng(const char *path, const unsigned char *data, size_t size,
                      struct anim_result *r)
{
	static const unsigned char sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
	struct apng_frame f = { 0 };
	bb_image *canvas = NULL;
	size_t pos = 8;
	long idx = 0, declared = -1;
	uint32_t seq = 0;
	int have = 0, ended = 0;

	if (size < 8 || memcmp(data, sig, 8) != 0)
		die(path, "not a PNG");
	r->format = "apng";
	r->unit = 1000;
	while (pos + 12 <= size && !ended) {
		uint32_t n = be32(data + pos);
		const unsigned char *type = data + pos + 4, *d = data + pos + 8;

		if (n > size - pos - 12)
			die(path, "chunk overruns the file");
		if (crc32(crc32(0, NULL, 0), type, n + 4) != be32(d + n))
			die(path, "bad chunk CRC");
		if (memcmp(type, "IHDR", 4) == 0) {
			r->width = (int)be32(d);
			r->height = (int)be32(d + 4);
			if (d[8] != 8 || d[9] != 6 || d[12] != 0)
				die(path, "expected 8-bit RGBA, not interlaced");
			if (bb_image_new(r->width, r->height, &canvas, NULL) != BB_OK)
				die(path, "bad canvas");
		} else if (memcmp(type, "acTL", 4) == 0) {
			declared = be32(d);
			r->plays = (int)be32(d + 4);
		} else if (memcmp(type, "fcTL", 4) == 0) {
			if (n != 26 || be32(d) != seq++)
				die(path, "bad fcTL");
			if (have)
				apng_compose(path, r, canvas, &f, idx++);
			f.w = (int)be32(d + 4);
			f.h = (int)be32(d + 8);
			f.x = (int)be32(d + 12);
			f.y = (int)be32(d + 16);
			f.delay_num = d[20] << 8 | d[21];
			f.delay_den = d[22] << 8 | d[23];
			f.dispose = d[24];
			f.blend = d[25];
			if (!canvas || f.w < 1 || f.h < 1 || f.x + f.w > r->width ||
			    f.y + f.h > r->height || f.dispose > 2 || f.blend > 1)
				die(path, "frame outside the canvas");
			have = 1;
		} else if (memcmp(type, "IDAT", 4) == 0 || memcmp(type, "fdAT", 4) == 0) {
			int fd = type[0] == 'f';

			if (!have)
				die(path, "image data before fcTL (a default image that is "
				    "not a frame is not expected)");
			if (fd && (n < 4 || be32(d) != seq++))
				die(path, "bad fdAT sequence number");
			f.z = realloc(f.z, f.zn + n);
			memcpy(f.z + f.zn, d + 4 * fd, n - 4 * fd);
			f.zn += n - 4 * fd;
		} else if (memcmp(type, "IEND", 4) == 0) {
			ended = 1;
		}
		pos += (size_t)n + 12;
	}
	if (!ended)
		die(path, "no IEND");
	if (have)
		apng_compose(path, r, canvas, &f, idx++);
	if (declared != idx)
		die(path, "acTL frame count disagrees with the frames");
	bb_image_free(canvas);
}

void anim_read(const char *path, struct anim_result *r)
{
	unsigned char *data;
	size_t size;

	memset(r, 0, sizeof *r);
	data = slurp(path, &size);
	if (size >= 12 && memcmp(data, "RIFF", 4) == 0 && memcmp(data + 8, "WEBP", 4) == 0)
		read_webp(path, data, size, r);
	else if (size >= 6 && memcmp(data, "GIF8", 4) == 0)
		read_gif(path, r);
	else
		read_apng(path, data, size, r);
	free(data);
}

void anim_result_free(struct anim_result *r)
{
	long i;

	for (i = 0; i < r->frames; i++)
		bb_image_free(r->images[i]);
	free(r->images);
	free(r->delays);
	memset(r, 0, sizeof *r);
}
