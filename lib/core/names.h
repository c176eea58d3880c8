/* Looking names up in a list that only grows (atlas regions): a sorted
 * index, built on first use and again when the list has grown, so a load
 * that looks up every attachment's region costs n log n, not n^2. */
#ifndef BB_CORE_NAMES_H
#define BB_CORE_NAMES_H

struct bb__name_ref {
	const char *name;
	int i;
};

typedef struct bb__names {
	struct bb__name_ref *sorted;   /* by name, then position */
	int n;                         /* how many names it indexes */
} bb__names;

/* The name of item i of the list at base. */
typedef const char *(*bb__name_of)(const void *base, int i);

/* The position of the first of the n items of base whose name is `name`,
 * or -1 (the answer of a linear search; out of memory, it is one). */
int bb__names_find(bb__names *ix, const void *base, int n, bb__name_of name_of,
                   const char *name);
void bb__names_free(bb__names *ix);

#endif
