/* The Spine binary reader (lib/loaders/spine-binary*.c): its primitives
 * (varints, zigzag, floats, counts against the bytes left, strings and
 * string references) with the errors they name, and the curves of a
 * timeline in the 3.8 and 4.x layouts, decoded into the JSON layout of
 * their version. */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "loaders/loader.h"
#include "loaders/spine-binary.h"

static bb__sb reader(const void *data, size_t size, bb_error *err)
{
	bb__sb r;

	memset(&r, 0, sizeof r);
	memset(err, 0, sizeof *err);
	r.p = data;
	r.size = size;
	r.file = "t.skel";
	r.err = err;
	bb__jpath_init(&r.path);
	return r;
}

static void free_reader(bb__sb *r)
{
	size_t i;

	for (i = 0; i < r->nowned; i++)
		free(r->owned[i]);
	free(r->owned);
}

START_TEST(varints)
{
	static const unsigned char one[] = { 0x05 }, two[] = { 0x96, 0x01 },
		five[] = { 0xff, 0xff, 0xff, 0xff, 0x0f }, wide[] = { 0xff, 0xff, 0xff, 0xff, 0x10 },
		cut[] = { 0x80 }, neg[] = { 0x03 }, pos[] = { 0x04 };
	bb_error err;
	uint32_t v;
	int32_t sv;
	bb__sb r;

	r = reader(one, sizeof one, &err);
	ck_assert_int_eq(bb__sb_varint(&r, "n", &v), BB_OK);
	ck_assert_uint_eq(v, 5);
	r = reader(two, sizeof two, &err);
	ck_assert_int_eq(bb__sb_varint(&r, "n", &v), BB_OK);
	ck_assert_uint_eq(v, 150);
	ck_assert_uint_eq(r.pos, 2);
	r = reader(five, sizeof five, &err);
	ck_assert_int_eq(bb__sb_varint(&r, "n", &v), BB_OK);
	ck_assert_uint_eq(v, 0xffffffffu);
	r = reader(wide, sizeof wide, &err);
	ck_assert_int_eq(bb__sb_varint(&r, "n", &v), BB_ERR_INPUT);
	ck_assert_str_eq(err.message, "n: varint larger than 32 bits at byte 0");
	r = reader(cut, sizeof cut, &err);
	ck_assert_int_eq(bb__sb_varint(&r, "n", &v), BB_ERR_INPUT);
	ck_assert_str_eq(err.message, "n: the file ends inside a varint at byte 1");
	r = reader(neg, sizeof neg, &err);
	ck_assert_int_eq(bb__sb_svarint(&r, "i", &sv), BB_OK);
	ck_assert_int_eq(sv, -2);
	r = reader(pos, sizeof pos, &err);
	ck_assert_int_eq(bb__sb_svarint(&r, "i", &sv), BB_OK);
	ck_assert_int_eq(sv, 2);
	/* a count larger than the bytes left can hold, with the section */
	r = reader(two, sizeof two, &err);
	bb__jpath_set(&r.path, "bones");
	bb__sb_what(&r, "bone %d", 3);
	ck_assert_int_eq(bb__sb_count(&r, "bone count", 34, &v), BB_ERR_INPUT);
	ck_assert_str_eq(err.path, "bones");
	ck_assert_str_eq(err.message, "bone 3: bone count 150: more than the 0 bytes "
	                 "left can hold at byte 0");
}
END_TEST

START_TEST(floats)
{
	static const unsigned char f1[] = { 0x3f, 0x80, 0x00, 0x00 },
		third[] = { 0x3e, 0xaa, 0xaa, 0xab }, inf[] = { 0x7f, 0x80, 0x00, 0x00 },
		cut[] = { 0x3f, 0x80 };
	bb_error err;
	double v;
	bb__sb r;

	r = reader(f1, sizeof f1, &err);
	ck_assert_int_eq(bb__sb_f32(&r, "x", &v), BB_OK);
	ck_assert(v == 1.0);
	r = reader(third, sizeof third, &err);
	ck_assert_int_eq(bb__sb_f32(&r, "x", &v), BB_OK);
	ck_assert(v == (double)(1.0f / 3.0f));      /* the float, exactly */
	r = reader(inf, sizeof inf, &err);
	ck_assert_int_eq(bb__sb_f32(&r, "x", &v), BB_ERR_INPUT);
	ck_assert_str_eq(err.message, "x: not a finite number at byte 0");
	r = reader(cut, sizeof cut, &err);
	ck_assert_int_eq(bb__sb_f32(&r, "x", &v), BB_ERR_INPUT);
	ck_assert_str_eq(err.message, "x: the file ends (2 of 4 bytes left) at byte 0");
}
END_TEST

START_TEST(strings)
{
	static const unsigned char abc[] = { 0x04, 'a', 'b', 'c' }, none[] = { 0x00 },
		empty[] = { 0x01 }, longer[] = { 0x05, 'a', 'b' },
		utf8[] = { 0x03, 0xc3, 0xa9 }, bad[] = { 0x03, 0xc3, 0x28 },
		nul[] = { 0x02, 0x00 }, refs[] = { 0x02, 0x00, 0x03 };
	const char *table[] = { "x", "y" };
	const char *s;
	bb_error err;
	bb__sb r;

	r = reader(abc, sizeof abc, &err);
	ck_assert_int_eq(bb__sb_string(&r, "name", &s), BB_OK);
	ck_assert_str_eq(s, "abc");
	free_reader(&r);
	r = reader(none, sizeof none, &err);
	ck_assert_int_eq(bb__sb_string(&r, "name", &s), BB_OK);
	ck_assert_ptr_null(s);
	ck_assert_int_eq(bb__sb_name(&(bb__sb){ .p = none, .size = 1, .file = "t.skel",
	                                        .err = &err }, "name", 0, &s), BB_ERR_INPUT);
	ck_assert_str_eq(err.message, "name: missing at byte 0");
	r = reader(empty, sizeof empty, &err);
	ck_assert_int_eq(bb__sb_string(&r, "name", &s), BB_OK);
	ck_assert_str_eq(s, "");
	free_reader(&r);
	r = reader(longer, sizeof longer, &err);
	ck_assert_int_eq(bb__sb_string(&r, "name", &s), BB_ERR_INPUT);
	ck_assert_str_eq(err.message, "name: a string of 4 bytes, 2 left at byte 0");
	r = reader(utf8, sizeof utf8, &err);
	ck_assert_int_eq(bb__sb_string(&r, "name", &s), BB_OK);
	ck_assert_str_eq(s, "\xc3\xa9");
	free_reader(&r);
	r = reader(bad, sizeof bad, &err);
	ck_assert_int_eq(bb__sb_string(&r, "name", &s), BB_ERR_INPUT);
	ck_assert_str_eq(err.message, "name: not a valid UTF-8 string at byte 1");
	r = reader(nul, sizeof nul, &err);
	ck_assert_int_eq(bb__sb_string(&r, "name", &s), BB_ERR_INPUT);
	/* references: 1-based into the table, 0 none */
	r = reader(refs, sizeof refs, &err);
	r.strings.v = table;
	r.strings.n = 2;
	ck_assert_int_eq(bb__sb_string_ref(&r, "attachment", &s), BB_OK);
	ck_assert_str_eq(s, "y");
	ck_assert_int_eq(bb__sb_string_ref(&r, "attachment", &s), BB_OK);
	ck_assert_ptr_null(s);
	ck_assert_int_eq(bb__sb_string_ref(&r, "attachment", &s), BB_ERR_INPUT);
	ck_assert_str_eq(err.message, "attachment: unknown string reference 3 (2 strings) "
	                 "at byte 2");
}
END_TEST

/* ---- whole documents: the curves of a rotate timeline -------------------- */

struct buf {
	unsigned char b[512];
	size_t n;
};

static void put(struct buf *o, unsigned v)
{
	o->b[o->n++] = (unsigned char)v;
}

static void varint(struct buf *o, unsigned v)
{
	do {
		put(o, (v & 0x7f) | (v > 0x7f ? 0x80 : 0));
		v >>= 7;
	} while (v);
}

static void f32(struct buf *o, float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	put(o, u >> 24);
	put(o, u >> 16 & 0xff);
	put(o, u >> 8 & 0xff);
	put(o, u & 0xff);
}

static void str(struct buf *o, const char *s)
{
	varint(o, (unsigned)strlen(s) + 1);
	memcpy(o->b + o->n, s, strlen(s));
	o->n += strlen(s);
}

/* One bone, no slots, one animation "a" rotating it: keys at 0 (0 deg)
 * and 1 (90 deg), a Bezier between them. */
static size_t rotate_doc(struct buf *o, int v38)
{
	int i;

	o->n = 0;
	if (v38) {
		str(o, "hash");
		str(o, "3.8.99");
	} else {
		for (i = 0; i < 8; i++)
			put(o, 0);
		str(o, "4.1.24");
	}
	for (i = 0; i < 4; i++)
		f32(o, 0);
	put(o, 0);                     /* no nonessential data */
	varint(o, 0);                  /* strings */
	varint(o, 1);                  /* one bone */
	str(o, "root");
	for (i = 0; i < 8; i++)
		f32(o, i == 3 || i == 4 ? 1 : 0);
	varint(o, 0);                  /* transform mode */
	put(o, 0);                     /* skin required */
	for (i = 0; i < 7; i++)
		varint(o, 0);          /* slots, ik, transform, path, default skin,
		                          skins, events */
	varint(o, 1);
	str(o, "a");
	if (!v38)
		varint(o, 1);          /* timeline count */
	varint(o, 0);                  /* slot timelines */
	varint(o, 1);                  /* bone timelines: bone 0, one timeline */
	varint(o, 0);
	varint(o, 1);
	put(o, 0);                     /* rotate */
	varint(o, 2);                  /* two keys */
	if (v38) {
		f32(o, 0);
		f32(o, 0);
		put(o, 2);             /* Bezier 0..1 */
		f32(o, 0.25f);
		f32(o, 0.1f);
		f32(o, 0.75f);
		f32(o, 0.9f);
		f32(o, 1);
		f32(o, 90);
	} else {
		varint(o, 1);          /* Bezier count */
		f32(o, 0);
		f32(o, 0);
		f32(o, 1);
		f32(o, 90);
		put(o, 2);             /* the first key's curve, in time and degrees */
		f32(o, 0.25f);
		f32(o, 9);
		f32(o, 0.75f);
		f32(o, 81);
	}
	for (i = 0; i < 6; i++)
		varint(o, 0);          /* ik, transform, path, deform, draw order,
		                          events */
	return o->n;
}

START_TEST(curves)
{
	struct buf o;
	bb_error err;
	json_t *doc, *key;
	double v;
	bb__jctx c;

	/* 4.x: the curve array on the first key, in the timeline's units */
	rotate_doc(&o, 0);
	ck_assert_int_eq(bb__decode_spine_binary((const char *)o.b, o.n, "t.skel", &doc, &err),
	                 BB_OK);
	bb__jctx_init(&c, "t.skel", &err, 0);
	key = bb__jget(bb__jget(bb__jget(bb__jget(doc, "animations"), "a"), "bones"), "root");
	key = bb__jget(key, "rotate");
	ck_assert_uint_eq(bb__jsize(key), 2);
	{
		json_t *k0 = NULL, *k1 = NULL;
		bb__jiter it;
		json_t *item;
		int n = 0;

		ck_assert_int_eq(bb__jeach(&c, key, NULL, 0, &it), BB_OK);
		while (bb__jnext(&it, &item))
			*(n++ ? &k1 : &k0) = item;
		ck_assert_int_eq(bb__jnum_at(&c, k0, "curve", 1, &v), BB_OK);
		ck_assert(v == 9);
		ck_assert_int_eq(bb__jnum_at(&c, k0, "curve", 3, &v), BB_OK);
		ck_assert(v == 81);
		ck_assert_int_eq(bb__jnum(&c, k1, "value", 0, &v), BB_OK);
		ck_assert(v == 90);
		ck_assert(!bb__jhas(k1, "curve"));
	}
	bb__json_free(doc);
	/* 3.8: curve, c2, c3, c4 on the first key, 0..1 */
	rotate_doc(&o, 1);
	ck_assert_int_eq(bb__decode_spine_binary((const char *)o.b, o.n, "t.skel", &doc, &err),
	                 BB_OK);
	key = bb__jget(bb__jget(bb__jget(bb__jget(doc, "animations"), "a"), "bones"), "root");
	{
		bb__jiter it;
		json_t *item;

		ck_assert_int_eq(bb__jeach(&c, key, "rotate", 0, &it), BB_OK);
		ck_assert(bb__jnext(&it, &item));
		ck_assert_int_eq(bb__jnum(&c, item, "curve", 0, &v), BB_OK);
		ck_assert(v == 0.25);
		ck_assert_int_eq(bb__jnum(&c, item, "c2", 0, &v), BB_OK);
		ck_assert(v == (double)0.1f);
		ck_assert_int_eq(bb__jnum(&c, item, "c4", 0, &v), BB_OK);
		ck_assert(v == (double)0.9f);
		ck_assert(bb__jnext(&it, &item));
		ck_assert_int_eq(bb__jnum(&c, item, "angle", 0, &v), BB_OK);
		ck_assert(v == 90);
		bb__jdone(&it);
	}
	bb__json_free(doc);
	/* an unknown curve type names the timeline and the byte */
	rotate_doc(&o, 0);
	o.b[o.n - 6 - 17] = 7;
	ck_assert_int_eq(bb__decode_spine_binary((const char *)o.b, o.n, "t.skel", &doc, &err),
	                 BB_ERR_INPUT);
	ck_assert_str_eq(err.path, "animations.a");
	ck_assert_str_eq(err.message, "bone \"root\" timeline 0: unknown curve type 7 at byte 107");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("spine-binary");
	TCase *tc = tcase_create("reader");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, varints);
	tcase_add_test(tc, floats);
	tcase_add_test(tc, strings);
	tcase_add_test(tc, curves);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
