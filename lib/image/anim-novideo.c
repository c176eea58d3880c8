/* The video formats in a build configured --without-video: every video
 * writer is refused before anything is created. */
#include "config.h"

#include "image/anim-int.h"

bb_status bb__video_check(const char *path, const bb_anim_options *o,
                          bb_error *err)
{
	return bb_error_set(err, BB_ERR_USAGE, path, NULL, "%s is not built in "
	                    "(configured --without-video)",
	                    bb_anim_format_name(o->format));
}

bb_status bb__video_open(bb_anim_writer *w, bb_error *err)
{
	return bb_error_set(err, BB_ERR_INTERNAL, w->path, NULL, "no video");
}

bb_status bb__video_add(bb_anim_writer *w, const bb_image *img, bb_error *err)
{
	(void)img;
	return bb_error_set(err, BB_ERR_INTERNAL, w->path, NULL, "no video");
}

bb_status bb__video_finish(bb_anim_writer *w, bb_error *err)
{
	return bb_error_set(err, BB_ERR_INTERNAL, w->path, NULL, "no video");
}

void bb__video_free(bb_anim_writer *w)
{
	(void)w;
}
