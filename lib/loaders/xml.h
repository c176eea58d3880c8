/* A small read-only XML tree built with expat, for the XML-based formats
 * (Cocos/DragonBones 1.x-2.x armature XML, cocos2d plist atlases).  Errors
 * name the file, the line, and the element path with the attribute:
 * "robot.xml:12: skeleton.armatures.armature[0].b[3].parent: ...". */
#ifndef BB_LOADERS_XML_H
#define BB_LOADERS_XML_H

#include <stddef.h>

#include "core/util.h"

typedef struct bb__xnode {
	char *name;
	char **attrs;              /* name, value, name, value, ..., NULL */
	char *text;                /* character data directly inside, or NULL */
	size_t ntext;
	int line;
	int doctype;               /* the root: line of the document's DOCTYPE
	                              (0: none) */
	struct bb__xnode *parent, *first, *last, *next;
} bb__xnode;

/* bb__xml_parse flags */
enum {
	/* a DOCTYPE naming an external DTD is fine (plists carry Apple's);
	 * without this flag any DOCTYPE is refused, and an internal subset
	 * (entity declarations) always is */
	BB__XML_EXTERNAL_DOCTYPE = 1u << 0
};

/* Parses a document (a leading byte-order mark is fine) into a tree; at
 * most max_nodes elements, nesting at most 256 deep.  Syntax errors and a
 * refused DOCTYPE are BB_ERR_INPUT with their line and column.  Free with
 * bb__xml_free. */
bb_status bb__xml_parse(const char *data, size_t size, const char *file,
                        size_t max_nodes, unsigned flags, bb__xnode **root,
                        bb_error *err);
void bb__xml_free(bb__xnode *root);

/* Attribute value or NULL. */
const char *bb__xattr(const bb__xnode *n, const char *name);
/* First child element called `name` (NULL: any), or NULL. */
bb__xnode *bb__xchild(const bb__xnode *n, const char *name);
/* Next sibling element called `name` (NULL: any), or NULL. */
bb__xnode *bb__xnext(const bb__xnode *n, const char *name);
/* Position of n among its same-named siblings. */
int bb__xindex(const bb__xnode *n);
/* n's element path, "a.b[2].c" (an index where n has same-named
 * siblings), into p. */
void bb__xpath(const bb__xnode *n, bb__jpath *p);

/* Error at node n (and attribute attr when not NULL): BB_ERR_INPUT naming
 * w's file, n's line and element path. */
bb_status bb__xfail(const bb__where *w, const bb__xnode *n, const char *attr,
                    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* BB_ERR_LIMIT at node n. */
bb_status bb__xlimit(const bb__where *w, const bb__xnode *n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Optional numeric attribute, read as the runtimes read text numbers
 * (bb__text_number: absent, empty or "NaN" -> def); anything else is an
 * error naming the attribute. */
bb_status bb__xnum(const bb__where *w, const bb__xnode *n, const char *attr,
                   double def, double *out);
/* Optional boolean attribute (bb__text_bool; absent: def). */
int bb__xbool(const bb__xnode *n, const char *attr, int def);

#endif
