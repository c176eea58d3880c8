/* The gallery page's HTML, CSS and script (gallery-page.c), written around
 * the page title and the inline JSON data by cmd-gallery.c:
 * head TITLE body TITLE data_open DATA data_close script. */
#ifndef BB_GALLERY_PAGE_H
#define BB_GALLERY_PAGE_H

#include "cli.h"

extern const char gallery_head[], gallery_body[], gallery_data_open[],
	gallery_data_close[], gallery_script[];

#endif
