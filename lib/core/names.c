/* See names.h. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "core/names.h"
#include "core/util.h"

static int by_name(const void *x, const void *y)
{
	const struct bb__name_ref *a = x, *b = y;
	int c = strcmp(a->name, b->name);

	return c ? c : (a->i > b->i) - (a->i < b->i);
}

int bb__names_find(bb__names *ix, const void *base, int n, bb__name_of name_of,
                   const char *name)
{
	int lo = 0, hi, i;

	if (ix->n != n || (n > 0 && !ix->sorted)) {
		free(ix->sorted);
		ix->n = 0;
		if (n > 0 && (ix->sorted = bb__calloc((size_t)n, sizeof *ix->sorted))) {
			for (i = 0; i < n; i++) {
				ix->sorted[i].name = name_of(base, i);
				ix->sorted[i].i = i;
			}
			qsort(ix->sorted, (size_t)n, sizeof *ix->sorted, by_name);
			ix->n = n;
		}
	}
	if (ix->n != n) {          /* out of memory: search the list itself */
		for (i = 0; i < n; i++)
			if (strcmp(name_of(base, i), name) == 0)
				return i;
		return -1;
	}
	/* the first entry not below name */
	hi = n;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (strcmp(ix->sorted[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && strcmp(ix->sorted[lo].name, name) == 0 ? ix->sorted[lo].i : -1;
}

void bb__names_free(bb__names *ix)
{
	free(ix->sorted);
	ix->sorted = NULL;
	ix->n = 0;
}
