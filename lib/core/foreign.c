/* Files bonebake does not read but recognises, so that the error says
 * what the file is and what to do instead of "not a format". */
#include "config.h"
#include <string.h>
#include "core/foreign.h"

/* `needle` within the first `window` bytes of data. */
static int starts_within(const char *data, size_t size, size_t window,
                         const char *needle)
{
	size_t n = strlen(needle), i, end = size < window ? size : window;

	for (i = 0; i + n <= end; i++)
		if (memcmp(data + i, needle, n) == 0)
			return 1;
	return 0;
}

static size_t skip_blanks(const char *data, size_t size)
{
	size_t i = size >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;

	while (i < size && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r' ||
	                    data[i] == '\n'))
		i++;
	return i;
}

const char *bb__foreign_file(const void *bytes, size_t size)
{
	static const char lfs[] = "version https://git-lfs.github.com/spec/";
	const char *data = bytes;
	size_t i;

	if (!data)
		return NULL;
	if (size >= sizeof lfs - 1 && memcmp(data, lfs, sizeof lfs - 1) == 0)
		return "a Git LFS pointer, not the file itself: fetch the file "
		       "(`git lfs pull`, or check out with Git LFS installed)";
	if (size >= 4 && memcmp(data, "DBDT", 4) == 0)
		return "a DragonBones binary (.dbbin): bonebake reads DragonBones "
		       "JSON; export the armature with data type JSON";
	i = skip_blanks(data, size);
	if (i < size && data[i] == '<' &&
	    starts_within(data + i, size - i, 4096, "<spriter_data"))
		return "a Spriter project (.scml), which bonebake does not read: "
		       "export PNG frames from Spriter and pack them with "
		       "`bonebake pack`";
	if (i < size && data[i] == '{' &&
	    starts_within(data + i, size - i, 4096, "\"scon_version\""))
		return "a Spriter project (.scon), which bonebake does not read: "
		       "export PNG frames from Spriter and pack them with "
		       "`bonebake pack`";
	return NULL;
}
