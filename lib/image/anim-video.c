/* Videos through FFmpeg's libraries: WebM (libvpx-vp9, yuva420p), MP4
 * (libx264, yuv420p over a background) and MOV (prores_ks 4444,
 * yuva444p10le).  The only file that includes the FFmpeg headers.
 *
 * Each frame is converted (libswscale, BT.709 limited range) and handed to
 * the encoder at once, so memory is the encoder's look-ahead whatever the
 * frame count.  The same frames give the same bytes: one encoder thread,
 * bit-exact flags (no random segment UID, no creation time, no library
 * version in the container). */
#include "config.h"

#include <dlfcn.h>
#include <pthread.h>
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/imgutils.h>
#include <libavutil/mathematics.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>

#include "image/anim-int.h"

/* FFmpeg's functions, looked up when a video is written (dlopen), so a
 * render that writes no video does not load FFmpeg's libraries and the
 * hundred libraries they need: that took about 40 ms of CPU before the
 * first frame of every run (dynamic loader and page faults, perf). */
struct ff {
	void *lib[4];
	__typeof__(av_strerror) *av_strerror;
	__typeof__(av_dict_set) *av_dict_set;
	__typeof__(av_dict_free) *av_dict_free;
	__typeof__(av_malloc) *av_malloc;
	__typeof__(av_free) *av_free;
	__typeof__(av_freep) *av_freep;
	__typeof__(av_log_set_level) *av_log_set_level;
	__typeof__(av_d2q) *av_d2q;
	__typeof__(av_get_pix_fmt_name) *av_get_pix_fmt_name;
	__typeof__(av_frame_alloc) *av_frame_alloc;
	__typeof__(av_frame_free) *av_frame_free;
	__typeof__(av_frame_get_buffer) *av_frame_get_buffer;
	__typeof__(av_frame_make_writable) *av_frame_make_writable;
	__typeof__(avcodec_find_encoder_by_name) *avcodec_find_encoder_by_name;
	__typeof__(avcodec_alloc_context3) *avcodec_alloc_context3;
	__typeof__(avcodec_open2) *avcodec_open2;
	__typeof__(avcodec_free_context) *avcodec_free_context;
	__typeof__(avcodec_send_frame) *avcodec_send_frame;
	__typeof__(avcodec_receive_packet) *avcodec_receive_packet;
	__typeof__(avcodec_parameters_from_context) *avcodec_parameters_from_context;
	__typeof__(av_packet_alloc) *av_packet_alloc;
	__typeof__(av_packet_free) *av_packet_free;
	__typeof__(av_packet_rescale_ts) *av_packet_rescale_ts;
	__typeof__(avformat_alloc_output_context2) *avformat_alloc_output_context2;
	__typeof__(avformat_new_stream) *avformat_new_stream;
	__typeof__(avformat_write_header) *avformat_write_header;
	__typeof__(avformat_free_context) *avformat_free_context;
	__typeof__(av_write_trailer) *av_write_trailer;
	__typeof__(av_interleaved_write_frame) *av_interleaved_write_frame;
	__typeof__(avio_alloc_context) *avio_alloc_context;
	__typeof__(avio_context_free) *avio_context_free;
	__typeof__(avio_flush) *avio_flush;
	__typeof__(sws_getContext) *sws_getContext;
	__typeof__(sws_setColorspaceDetails) *sws_setColorspaceDetails;
	__typeof__(sws_getCoefficients) *sws_getCoefficients;
	__typeof__(sws_scale) *sws_scale;
	__typeof__(sws_freeContext) *sws_freeContext;
};

/* The libraries stay loaded once opened, for the life of the process, as
 * if linked: no load per video, and what their initialisation allocates
 * stays theirs (unloading them made it look leaked). */
static void ff_close(struct ff *f)
{
	memset(f, 0, sizeof *f);
}

/* FFmpeg's libraries (the versions bonebake was built with) and every
 * function, loaded once; on failure the reason, kept for every caller. */
static struct ff loaded;
static char load_failed[256];
static pthread_once_t load_once = PTHREAD_ONCE_INIT;

static void load_ffmpeg(void);

/* *f = the loaded table, or BB_ERR_USAGE naming what is missing. */
static bb_status ff_open(struct ff *f, const char *path, const char *format,
                         bb_error *err)
{
	pthread_once(&load_once, load_ffmpeg);
	if (load_failed[0]) {
		memset(f, 0, sizeof *f);
		return bb_error_set(err, BB_ERR_USAGE, path, NULL, "%s previews %s",
		                    format, load_failed);
	}
	*f = loaded;
	return BB_OK;
}

static void load_ffmpeg(void)
{
	static const char *const libs[4] = {
		"libavutil.so." AV_STRINGIFY(LIBAVUTIL_VERSION_MAJOR),
		"libswscale.so." AV_STRINGIFY(LIBSWSCALE_VERSION_MAJOR),
		"libavcodec.so." AV_STRINGIFY(LIBAVCODEC_VERSION_MAJOR),
		"libavformat.so." AV_STRINGIFY(LIBAVFORMAT_VERSION_MAJOR),
	};
	static const struct { const char *name; size_t at; } syms[] = {
		{ "av_strerror", offsetof(struct ff, av_strerror) },
		{ "av_dict_set", offsetof(struct ff, av_dict_set) },
		{ "av_dict_free", offsetof(struct ff, av_dict_free) },
		{ "av_malloc", offsetof(struct ff, av_malloc) },
		{ "av_free", offsetof(struct ff, av_free) },
		{ "av_freep", offsetof(struct ff, av_freep) },
		{ "av_log_set_level", offsetof(struct ff, av_log_set_level) },
		{ "av_d2q", offsetof(struct ff, av_d2q) },
		{ "av_get_pix_fmt_name", offsetof(struct ff, av_get_pix_fmt_name) },
		{ "av_frame_alloc", offsetof(struct ff, av_frame_alloc) },
		{ "av_frame_free", offsetof(struct ff, av_frame_free) },
		{ "av_frame_get_buffer", offsetof(struct ff, av_frame_get_buffer) },
		{ "av_frame_make_writable", offsetof(struct ff, av_frame_make_writable) },
		{ "avcodec_find_encoder_by_name", offsetof(struct ff, avcodec_find_encoder_by_name) },
		{ "avcodec_alloc_context3", offsetof(struct ff, avcodec_alloc_context3) },
		{ "avcodec_open2", offsetof(struct ff, avcodec_open2) },
		{ "avcodec_free_context", offsetof(struct ff, avcodec_free_context) },
		{ "avcodec_send_frame", offsetof(struct ff, avcodec_send_frame) },
		{ "avcodec_receive_packet", offsetof(struct ff, avcodec_receive_packet) },
		{ "avcodec_parameters_from_context", offsetof(struct ff, avcodec_parameters_from_context) },
		{ "av_packet_alloc", offsetof(struct ff, av_packet_alloc) },
		{ "av_packet_free", offsetof(struct ff, av_packet_free) },
		{ "av_packet_rescale_ts", offsetof(struct ff, av_packet_rescale_ts) },
		{ "avformat_alloc_output_context2", offsetof(struct ff, avformat_alloc_output_context2) },
		{ "avformat_new_stream", offsetof(struct ff, avformat_new_stream) },
		{ "avformat_write_header", offsetof(struct ff, avformat_write_header) },
		{ "avformat_free_context", offsetof(struct ff, avformat_free_context) },
		{ "av_write_trailer", offsetof(struct ff, av_write_trailer) },
		{ "av_interleaved_write_frame", offsetof(struct ff, av_interleaved_write_frame) },
		{ "avio_alloc_context", offsetof(struct ff, avio_alloc_context) },
		{ "avio_context_free", offsetof(struct ff, avio_context_free) },
		{ "avio_flush", offsetof(struct ff, avio_flush) },
		{ "sws_getContext", offsetof(struct ff, sws_getContext) },
		{ "sws_setColorspaceDetails", offsetof(struct ff, sws_setColorspaceDetails) },
		{ "sws_getCoefficients", offsetof(struct ff, sws_getCoefficients) },
		{ "sws_scale", offsetof(struct ff, sws_scale) },
		{ "sws_freeContext", offsetof(struct ff, sws_freeContext) }
	};
	struct ff *f = &loaded;
	size_t i;
	int k;

	for (k = 0; k < 4; k++)
		if (!(f->lib[k] = dlopen(libs[k], RTLD_NOW | RTLD_LOCAL))) {
			const char *why = dlerror();

			snprintf(load_failed, sizeof load_failed, "need FFmpeg's "
			         "libraries: %s", why ? why : libs[k]);
			return;
		}
	for (i = 0; i < sizeof syms / sizeof syms[0]; i++) {
		void *p = NULL;

		for (k = 0; k < 4 && !p; k++)
			p = dlsym(f->lib[k], syms[i].name);
		if (!p) {
			snprintf(load_failed, sizeof load_failed, "need FFmpeg's "
			         "libraries: they have no %s", syms[i].name);
			return;
		}
		/* a function pointer from dlsym's void * (POSIX) */
		memcpy((char *)f + syms[i].at, &p, sizeof p);
	}
}

/* What each video format is made of. */
typedef struct video_kind {
	const char *muxer, *encoder;
	enum AVPixelFormat pix;
	int crf_max, crf_default;
} video_kind;

static const video_kind *kind_of(bb_anim_format f)
{
	/* VP9 crf 32 (speed 4), x264 crf 23 (preset medium), ProRes
	 * quantiser 4: README "Video previews" has the measurements behind
	 * the defaults */
	static const video_kind webm = { "webm", "libvpx-vp9", AV_PIX_FMT_YUVA420P,
	                                  63, 32 };
	static const video_kind mp4 = { "mp4", "libx264", AV_PIX_FMT_YUV420P,
	                                51, 23 };
	static const video_kind mov = { "mov", "prores_ks", AV_PIX_FMT_YUVA444P10LE,
	                                31, 4 };

	return f == BB_ANIM_WEBM ? &webm : f == BB_ANIM_MP4 ? &mp4 : &mov;
}

struct bb__video {
	struct ff ff;
	const video_kind *k;
	AVFormatContext *fmt;
	AVIOContext *io;
	AVCodecContext *enc;
	AVStream *st;
	AVFrame *pic;                /* the encoder's input picture */
	AVPacket *pkt;
	struct SwsContext *sws;
	uint8_t *flat;               /* MP4: the frame over the background, RGB */
	int cw, ch;                  /* coded size (MP4: even) */
	int64_t next_pts;
};

static bb_status av_fail(bb_anim_writer *w, bb_error *err, bb_status s,
                         const char *what, int code)
{
	char msg[AV_ERROR_MAX_STRING_SIZE] = "";

	w->video->ff.av_strerror(code, msg, sizeof msg);
	return bb_error_set(err, code == AVERROR(ENOMEM) ? BB_ERR_NOMEM : s, w->path,
	                    NULL, "%s: %s", what, msg);
}

/* The AVIOContext writes through the writer's FILE (the temporary file
 * anim.c renames into place); MP4, MOV and WebM seek back to fill in
 * sizes and the index. */
#if LIBAVFORMAT_VERSION_MAJOR >= 61
static int io_write(void *user, const uint8_t *buf, int size)
#else
static int io_write(void *user, uint8_t *buf, int size)
#endif
{
	bb_anim_writer *w = user;

	errno = 0;
	if (size > 0 && fwrite(buf, 1, (size_t)size, w->f) != (size_t)size)
		return AVERROR(errno ? errno : EIO);   /* ENOSPC: "No space left" */
	return size;
}

static int64_t io_seek(void *user, int64_t offset, int whence)
{
	bb_anim_writer *w = user;
	long end;

	if (whence & AVSEEK_SIZE) {
		long at = ftell(w->f);

		if (at < 0 || fseek(w->f, 0, SEEK_END) != 0)
			return AVERROR(EIO);
		end = ftell(w->f);
		if (end < 0 || fseek(w->f, at, SEEK_SET) != 0)
			return AVERROR(EIO);
		return end;
	}
	whence &= ~AVSEEK_FORCE;
	if (offset > LONG_MAX || offset < LONG_MIN ||
	    fseek(w->f, (long)offset, whence) != 0)
		return AVERROR(EIO);
	return ftell(w->f);
}

bb_status bb__video_check(const char *path, const bb_anim_options *o,
                          bb_error *err)
{
	const video_kind *k = kind_of(o->format);
	struct ff ff;
	bb_status s;
	int found;

	if (!(o->fps > 0) || o->fps > 1000)
		return bb_error_set(err, BB_ERR_USAGE, path, NULL, "%s: frame rate %g "
		                    "outside (0, 1000]", k->muxer, o->fps);
	if (o->has_crf && (o->crf < (o->format == BB_ANIM_MOV) ||
	                   o->crf > k->crf_max))
		return bb_error_set(err, BB_ERR_USAGE, path, NULL, "%s: %s %d outside "
		                    "%d..%d", k->muxer, o->format == BB_ANIM_MOV ?
		                    "ProRes quantiser" : "CRF", o->crf,
		                    o->format == BB_ANIM_MOV, k->crf_max);
	if (o->bitrate < 0 || o->bitrate > 1000000000LL)
		return bb_error_set(err, BB_ERR_USAGE, path, NULL, "%s: bit rate %lld "
		                    "outside 1..1000000000", k->muxer, o->bitrate);
	if (o->bitrate && o->format == BB_ANIM_MOV)
		return bb_error_set(err, BB_ERR_USAGE, path, NULL, "mov: ProRes has no "
		                    "bit rate setting (its profile sets the rate; use a "
		                    "quantiser)");
	if (o->bitrate && o->has_crf)
		return bb_error_set(err, BB_ERR_USAGE, path, NULL, "%s: a CRF and a bit "
		                    "rate exclude each other", k->muxer);
	if ((s = ff_open(&ff, path, k->muxer, err)) != BB_OK)
		return s;
	found = ff.avcodec_find_encoder_by_name(k->encoder) != NULL;
	ff_close(&ff);
	if (!found)
		return bb_error_set(err, BB_ERR_USAGE, path, NULL, "%s: this FFmpeg has "
		                    "no %s encoder", k->muxer, k->encoder);
	return BB_OK;
}

/* The encoder's settings: size, rate, colours, and the fixed choices that
 * keep the bytes the same from run to run. */
static bb_status open_encoder(bb_anim_writer *w, struct bb__video *v,
                              bb_error *err)
{
	const bb_anim_options *o = &w->o;
	const AVCodec *codec = v->ff.avcodec_find_encoder_by_name(v->k->encoder);
	AVDictionary *opt = NULL;
	AVRational rate = v->ff.av_d2q(o->fps, 1001000);
	char num[32];
	int rc, crf = o->has_crf ? o->crf : v->k->crf_default;

	if (!codec)
		return bb_error_set(err, BB_ERR_USAGE, w->path, NULL, "no %s encoder",
		                    v->k->encoder);
	v->enc = v->ff.avcodec_alloc_context3(codec);
	if (!v->enc)
		return bb_error_set(err, BB_ERR_NOMEM, w->path, NULL, "out of memory");
	v->enc->width = v->cw;
	v->enc->height = v->ch;
	v->enc->pix_fmt = v->k->pix;
	v->enc->framerate = rate;
	v->enc->time_base = av_inv_q(rate);
	v->enc->sample_aspect_ratio = (AVRational){ 1, 1 };
	v->enc->color_range = AVCOL_RANGE_MPEG;
	v->enc->colorspace = AVCOL_SPC_BT709;
	v->enc->color_primaries = AVCOL_PRI_BT709;
	v->enc->color_trc = AVCOL_TRC_BT709;
	v->enc->thread_count = 1;
	v->enc->flags |= AV_CODEC_FLAG_BITEXACT;
	if (v->fmt->oformat->flags & AVFMT_GLOBALHEADER)
		v->enc->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
	switch (o->format) {
	case BB_ANIM_WEBM:
		/* good quality at speed 4, no multi-threaded rows: the bytes do
		 * not depend on the machine's cores */
		v->ff.av_dict_set(&opt, "deadline", "good", 0);
		v->ff.av_dict_set(&opt, "cpu-used", "4", 0);
		v->ff.av_dict_set(&opt, "row-mt", "0", 0);
		if (o->bitrate) {
			v->enc->bit_rate = o->bitrate;
		} else {
			v->enc->bit_rate = 0;        /* constant quality */
			snprintf(num, sizeof num, "%d", crf);
			v->ff.av_dict_set(&opt, "crf", num, 0);
		}
		break;
	case BB_ANIM_MP4:
		v->ff.av_dict_set(&opt, "preset", "medium", 0);
		/* x264's SIMD macroblock-tree code reads memory it never wrote:
		 * without this the bytes change with what the heap held before
		 * (seen as --jobs 2 differing from --jobs 1 under load, and with
		 * MALLOC_PERTURB_), and with the CPU's instruction sets; with it
		 * they depend on neither (0.5 % more bytes) */
		v->ff.av_dict_set(&opt, "x264-params", "cpu-independent=1", 0);
		v->enc->profile = FF_PROFILE_H264_HIGH;
		if (o->bitrate) {
			v->enc->bit_rate = o->bitrate;
		} else {
			snprintf(num, sizeof num, "%d", crf);
			v->ff.av_dict_set(&opt, "crf", num, 0);
		}
		break;
	default:
		v->ff.av_dict_set(&opt, "profile", "4444", 0);
		v->ff.av_dict_set(&opt, "vendor", "apl0", 0);
		/* a fixed quantiser: prores_ks's own rate search (no quantiser)
		 * took 6x the time for 1.6x the bytes on the Dragon walk */
		v->enc->flags |= AV_CODEC_FLAG_QSCALE;
		v->enc->global_quality = crf * FF_QP2LAMBDA;
		break;
	}
	rc = v->ff.avcodec_open2(v->enc, codec, &opt);
	v->ff.av_dict_free(&opt);
	if (rc < 0)
		return av_fail(w, err, BB_ERR_USAGE, v->k->encoder, rc);
	return BB_OK;
}

bb_status bb__video_open(bb_anim_writer *w, bb_error *err)
{
	struct bb__video *v = calloc(1, sizeof *v);
	unsigned char *buf;
	bb_status s;
	int rc;

	if (!v)
		return bb_error_set(err, BB_ERR_NOMEM, w->path, NULL, "out of memory");
	if ((s = ff_open(&v->ff, w->path, kind_of(w->o.format)->muxer, err)) != BB_OK) {
		free(v);
		return s;
	}
	w->video = v;
	/* FFmpeg logs to stderr by default; the library never prints (its
	 * failures come back in err) */
	v->ff.av_log_set_level(AV_LOG_QUIET);
	v->k = kind_of(w->o.format);
	v->cw = w->width;
	v->ch = w->height;
	if (w->o.format == BB_ANIM_MP4) {   /* 4:2:0 H.264: even sides */
		v->cw += v->cw & 1;
		v->ch += v->ch & 1;
		v->flat = v->ff.av_malloc((size_t)v->cw * (size_t)v->ch * 3);
		if (!v->flat)
			return bb_error_set(err, BB_ERR_NOMEM, w->path, NULL,
			                    "out of memory");
	}
	rc = v->ff.avformat_alloc_output_context2(&v->fmt, NULL, v->k->muxer, NULL);
	if (rc < 0 || !v->fmt)
		return av_fail(w, err, BB_ERR_USAGE, v->k->muxer, rc < 0 ? rc :
		               AVERROR_MUXER_NOT_FOUND);
	v->fmt->flags |= AVFMT_FLAG_BITEXACT | AVFMT_FLAG_CUSTOM_IO;
	buf = v->ff.av_malloc(1 << 16);
	if (!buf)
		return bb_error_set(err, BB_ERR_NOMEM, w->path, NULL, "out of memory");
	v->io = v->ff.avio_alloc_context(buf, 1 << 16, 1, w, NULL, io_write, io_seek);
	if (!v->io) {
		v->ff.av_free(buf);
		return bb_error_set(err, BB_ERR_NOMEM, w->path, NULL, "out of memory");
	}
	v->fmt->pb = v->io;
	if ((s = open_encoder(w, v, err)) != BB_OK)
		return s;
	v->st = v->ff.avformat_new_stream(v->fmt, NULL);
	v->pic = v->ff.av_frame_alloc();
	v->pkt = v->ff.av_packet_alloc();
	if (!v->st || !v->pic || !v->pkt)
		return bb_error_set(err, BB_ERR_NOMEM, w->path, NULL, "out of memory");
	if ((rc = v->ff.avcodec_parameters_from_context(v->st->codecpar, v->enc)) < 0)
		return av_fail(w, err, BB_ERR_INTERNAL, "stream parameters", rc);
	v->st->time_base = v->enc->time_base;
	v->st->avg_frame_rate = v->enc->framerate;
	v->st->r_frame_rate = v->enc->framerate;
	if ((rc = v->ff.avformat_write_header(v->fmt, NULL)) < 0)
		return av_fail(w, err, BB_ERR_IO, "container header", rc);
	v->pic->format = v->k->pix;
	v->pic->width = v->cw;
	v->pic->height = v->ch;
	/* ProRes writes the colour tags of each frame's header from the frame */
	v->pic->color_range = v->enc->color_range;
	v->pic->colorspace = v->enc->colorspace;
	v->pic->color_primaries = v->enc->color_primaries;
	v->pic->color_trc = v->enc->color_trc;
	if ((rc = v->ff.av_frame_get_buffer(v->pic, 0)) < 0)
		return av_fail(w, err, BB_ERR_NOMEM, "picture", rc);
	v->sws = v->ff.sws_getContext(v->cw, v->ch, v->flat ? AV_PIX_FMT_RGB24 :
	                        AV_PIX_FMT_RGBA, v->cw, v->ch, v->k->pix,
	                        SWS_BILINEAR | SWS_ACCURATE_RND | SWS_BITEXACT |
	                        SWS_FULL_CHR_H_INP, NULL, NULL, NULL);
	if (!v->sws)
		return bb_error_set(err, BB_ERR_NOMEM, w->path, NULL,
		                    "cannot convert RGBA to %s",
		                    v->ff.av_get_pix_fmt_name(v->k->pix));
	/* sRGB in (full range) to BT.709 limited range out, as tagged */
	v->ff.sws_setColorspaceDetails(v->sws, v->ff.sws_getCoefficients(SWS_CS_ITU709), 1,
	                         v->ff.sws_getCoefficients(SWS_CS_ITU709), 0, 0,
	                         1 << 16, 1 << 16);
	return BB_OK;
}

/* Hands what the encoder has ready to the muxer (frame NULL: the end). */
static bb_status drain(bb_anim_writer *w, struct bb__video *v, bb_error *err)
{
	int rc;

	for (;;) {
		rc = v->ff.avcodec_receive_packet(v->enc, v->pkt);
		if (rc == AVERROR(EAGAIN) || rc == AVERROR_EOF)
			return BB_OK;
		if (rc < 0)
			return av_fail(w, err, BB_ERR_INTERNAL, v->k->encoder, rc);
		v->ff.av_packet_rescale_ts(v->pkt, v->enc->time_base, v->st->time_base);
		v->pkt->stream_index = v->st->index;
		rc = v->ff.av_interleaved_write_frame(v->fmt, v->pkt);
		if (rc < 0)
			return av_fail(w, err, BB_ERR_IO, "write", rc);
	}
}

/* The MP4 picture: img over the background, odd sides padded with it. */
static void flatten(struct bb__video *v, const bb_image *img,
                    const bb_rgba *bg)
{
	int c[3], x, y, k;

	c[0] = (int)(bg->r * 255 + 0.5);
	c[1] = (int)(bg->g * 255 + 0.5);
	c[2] = (int)(bg->b * 255 + 0.5);
	for (k = 0; k < 3; k++)
		c[k] = c[k] < 0 ? 0 : c[k] > 255 ? 255 : c[k];
	for (y = 0; y < v->ch; y++) {
		uint8_t *d = v->flat + (size_t)y * (size_t)v->cw * 3;

		for (x = 0; x < v->cw; x++, d += 3) {
			const uint8_t *s = x < img->width && y < img->height ?
			                   bb_image_pixel(img, x, y) : NULL;
			int a = s ? s[3] : 0;

			for (k = 0; k < 3; k++)
				d[k] = (uint8_t)(((s ? s[k] : 0) * a + c[k] * (255 - a) +
				                  127) / 255);
		}
	}
}

bb_status bb__video_add(bb_anim_writer *w, const bb_image *img, bb_error *err)
{
	struct bb__video *v = w->video;
	const uint8_t *src[4] = { NULL };
	int stride[4] = { 0 }, rc;

	if (img->stride > INT_MAX)
		return bb_error_set(err, BB_ERR_LIMIT, w->path, NULL, "frame too wide");
	if ((rc = v->ff.av_frame_make_writable(v->pic)) < 0)
		return av_fail(w, err, BB_ERR_NOMEM, "picture", rc);
	if (v->flat) {
		flatten(v, img, &w->o.background);
		src[0] = v->flat;
		stride[0] = v->cw * 3;
	} else {
		src[0] = img->px;
		stride[0] = (int)img->stride;
	}
	v->ff.sws_scale(v->sws, src, stride, 0, v->ch, v->pic->data, v->pic->linesize);
	v->pic->pts = v->next_pts++;
	if ((rc = v->ff.avcodec_send_frame(v->enc, v->pic)) < 0)
		return av_fail(w, err, BB_ERR_INTERNAL, v->k->encoder, rc);
	return drain(w, v, err);
}

bb_status bb__video_finish(bb_anim_writer *w, bb_error *err)
{
	struct bb__video *v = w->video;
	bb_status s;
	int rc;

	if ((rc = v->ff.avcodec_send_frame(v->enc, NULL)) < 0)
		return av_fail(w, err, BB_ERR_INTERNAL, v->k->encoder, rc);
	if ((s = drain(w, v, err)) != BB_OK)
		return s;
	rc = v->ff.av_write_trailer(v->fmt);
	if (rc < 0)
		return av_fail(w, err, BB_ERR_IO, "container index", rc);
	v->ff.avio_flush(v->io);
	if (v->io->error < 0)
		return av_fail(w, err, BB_ERR_IO, "write", v->io->error);
	return BB_OK;
}

void bb__video_free(bb_anim_writer *w)
{
	struct bb__video *v = w->video;

	if (!v)
		return;
	v->ff.sws_freeContext(v->sws);
	v->ff.av_packet_free(&v->pkt);
	v->ff.av_frame_free(&v->pic);
	v->ff.avcodec_free_context(&v->enc);
	if (v->fmt)
		v->ff.avformat_free_context(v->fmt);
	if (v->io) {
		v->ff.av_freep(&v->io->buffer);
		v->ff.avio_context_free(&v->io);
	}
	v->ff.av_free(v->flat);
	ff_close(&v->ff);
	free(v);
	w->video = NULL;
}
