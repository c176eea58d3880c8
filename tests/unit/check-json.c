/* lib/core/json.h, the readers every JSON document is read through: the
 * field path each error names, the iterator keeping it, absent and null
 * alike, the lenient-number rule, and element-by-element numbers. */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/json.h"

struct fx {
	bb__jctx c;
	bb_error err;
	json_t *root;
};

static void parse(struct fx *f, const char *text, unsigned flags)
{
	memset(f, 0, sizeof *f);
	bb__jctx_init(&f->c, "t.json", &f->err, flags);
	ck_assert_int_eq(bb__json_parse(text, strlen(text), "t.json", &f->root, &f->err),
	                 BB_OK);
}

START_TEST(getters_name_the_field)
{
	struct fx f;
	double v = -1;
	const char *s;

	parse(&f, "{\"a\": 2.5, \"b\": \"x\", \"n\": null, \"o\": {\"k\": true}}", 0);
	ck_assert_int_eq(bb__jnum(&f.c, f.root, "a", 0, &v), BB_OK);
	ck_assert(v == 2.5);
	/* absent and null: the default */
	ck_assert_int_eq(bb__jnum(&f.c, f.root, "zz", 7, &v), BB_OK);
	ck_assert(v == 7);
	ck_assert_int_eq(bb__jnum(&f.c, f.root, "n", 8, &v), BB_OK);
	ck_assert(v == 8);
	ck_assert_int_eq(bb__jnum_req(&f.c, f.root, "n", &v), BB_ERR_INPUT);
	ck_assert_str_eq(f.err.path, "n");
	ck_assert_str_eq(f.err.message, "missing");
	/* a string is not a number (strict mode) */
	ck_assert_int_eq(bb__jnum(&f.c, f.root, "b", 0, &v), BB_ERR_INPUT);
	ck_assert_str_eq(f.err.file, "t.json");
	ck_assert_str_eq(f.err.path, "b");
	ck_assert_str_eq(f.err.message, "expected a number, found a string");
	ck_assert_int_eq(bb__jnum_range(&f.c, f.root, "a", 0, 0, 1, &v), BB_ERR_INPUT);
	ck_assert_str_eq(f.err.path, "a");
	ck_assert_int_eq(bb__jstr(&f.c, f.root, "b", 1, &s), BB_OK);
	ck_assert_str_eq(s, "x");
	ck_assert_int_eq(bb__jstr(&f.c, f.root, "n", 0, &s), BB_OK);
	ck_assert_ptr_null(s);
	ck_assert_ptr_null(bb__jget(f.root, "n"));
	ck_assert_ptr_nonnull(bb__jget(f.root, "o"));
	ck_assert_ptr_null(bb__jget(f.root, "zz"));
	ck_assert(!bb__jhas(f.root, "n"));
	ck_assert(bb__jhas_member(f.root, "n"));
	ck_assert_int_eq(bb__jkind_of(f.root, "o"), BB_JK_OBJECT);
	ck_assert_int_eq(bb__jkind_of(f.root, "n"), BB_JK_ABSENT);
	bb__json_free(f.root);
}
END_TEST

/* The runtimes' rule: numeric strings are numbers, "NaN" and "" the
 * default; anything else still an error. */
START_TEST(lenient_numbers)
{
	struct fx f;
	double v = 0;

	parse(&f, "{\"a\": \"12.5\", \"b\": \"NaN\", \"c\": \"\", \"d\": \"x1\"}",
	      BB_J_LENIENT_NUMBERS);
	ck_assert_int_eq(bb__jnum(&f.c, f.root, "a", 0, &v), BB_OK);
	ck_assert(v == 12.5);
	ck_assert_int_eq(bb__jnum(&f.c, f.root, "b", 3, &v), BB_OK);
	ck_assert(v == 3);
	ck_assert_int_eq(bb__jnum(&f.c, f.root, "c", 4, &v), BB_OK);
	ck_assert(v == 4);
	ck_assert_int_eq(bb__jnum(&f.c, f.root, "d", 0, &v), BB_ERR_INPUT);
	ck_assert_str_eq(f.err.path, "d");
	bb__json_free(f.root);
}
END_TEST

/* The iterator keeps the path: an error inside names its element, and the
 * path is back as it was after the walk. */
START_TEST(iterator_paths)
{
	struct fx f;
	bb__jiter it, inner;
	json_t *v, *w;
	double x, sum = 0;
	size_t n = 0;

	parse(&f, "{\"bone\": [{\"x\": 1}, {\"x\": 2}, {\"x\": \"no\"}],"
	          " \"joints\": {\"lid\": {\"14\": [1]}}}", 0);
	bb__jpath_key(&f.c.path, "armature");
	ck_assert_int_eq(bb__jeach(&f.c, f.root, "bone", 0, &it), BB_OK);
	while (bb__jnext(&it, &v)) {
		if (bb__jnum(&f.c, v, "x", 0, &x) != BB_OK)
			break;
		sum += x;
		n++;
	}
	ck_assert_uint_eq(n, 2);
	ck_assert(sum == 3);
	ck_assert_str_eq(f.err.path, "armature.bone[2].x");
	bb__jdone(&it);
	ck_assert_str_eq(f.c.path.buf, "armature");
	/* a full walk restores the path by itself */
	ck_assert_int_eq(bb__jeach_member(&f.c, f.root, "joints", 0, &it), BB_OK);
	while (bb__jnext(&it, &v)) {
		ck_assert_str_eq(it.key, "lid");
		ck_assert_int_eq(bb__jeach_member(&f.c, v, NULL, BB_J_QUOTED, &inner), BB_OK);
		while (bb__jnext(&inner, &w))
			ck_assert_str_eq(f.c.path.buf, "armature.joints.lid[\"14\"]");
	}
	ck_assert_str_eq(f.c.path.buf, "armature");
	/* absent: no items; required: missing; wrong type: an error */
	ck_assert_int_eq(bb__jeach(&f.c, f.root, "slot", 0, &it), BB_OK);
	ck_assert(!bb__jnext(&it, &v));
	ck_assert_int_eq(bb__jeach(&f.c, f.root, "slot", BB_J_REQUIRED, &it), BB_ERR_INPUT);
	ck_assert_str_eq(f.err.message, "missing");
	ck_assert_int_eq(bb__jeach(&f.c, f.root, "joints", 0, &it), BB_ERR_INPUT);
	ck_assert_str_eq(f.err.path, "armature.joints");
	ck_assert_str_eq(f.err.message, "expected an array, found an object");
	bb__json_free(f.root);
}
END_TEST

START_TEST(numbers_element_by_element)
{
	struct fx f;
	double v = 0, *all = NULL, three[3];
	size_t n = 0;

	parse(&f, "{\"c\": [0.25, 1, null, \"x\"], \"v\": [1, 2, 3]}", 0);
	ck_assert_int_eq(bb__jnum_at(&f.c, f.root, "c", 1, &v), BB_OK);
	ck_assert(v == 1);
	ck_assert_int_eq(bb__jnum_at(&f.c, f.root, "c", 2, &v), BB_ERR_INPUT);
	ck_assert_str_eq(f.err.path, "c[2]");
	ck_assert_int_eq(bb__jnum_at(&f.c, f.root, "c", 3, &v), BB_ERR_INPUT);
	ck_assert_str_eq(f.err.path, "c[3]");
	ck_assert_int_eq(bb__jnum_at(&f.c, f.root, "c", 9, &v), BB_ERR_INPUT);
	ck_assert_str_eq(f.err.path, "c[9]");
	ck_assert_ptr_nonnull(strstr(f.err.message, "found nothing"));
	ck_assert_int_eq(bb__jnum_at(&f.c, f.root, "zz", 0, &v), BB_ERR_INPUT);
	ck_assert_str_eq(f.err.path, "zz");
	ck_assert_int_eq(bb__jnums(&f.c, f.root, "v", 1, 8, &all, &n), BB_OK);
	ck_assert_uint_eq(n, 3);
	ck_assert(all[2] == 3);
	free(all);
	ck_assert_int_eq(bb__jnums(&f.c, f.root, "v", 1, 2, &all, &n), BB_ERR_LIMIT);
	ck_assert_int_eq(bb__jnumn(&f.c, f.root, "v", 1, 3, three), BB_OK);
	ck_assert(three[0] == 1 && three[1] == 2 && three[2] == 3);
	ck_assert_int_eq(bb__jnumn(&f.c, f.root, "v", 1, 2, three), BB_ERR_INPUT);
	ck_assert_int_eq(bb__jnums(&f.c, f.root, "c", 1, 8, &all, &n), BB_ERR_INPUT);
	ck_assert_str_eq(f.err.path, "c[2]");
	bb__json_free(f.root);
}
END_TEST

START_TEST(parse_errors)
{
	json_t *root = NULL;
	bb_error err;

	ck_assert_int_eq(bb__json_parse("{\"a\": 1,\n \"a\": 2}", 17, "d.json", &root, &err),
	                 BB_ERR_INPUT);
	ck_assert_str_eq(err.file, "d.json");
	ck_assert_int_eq(err.line, 2);
	ck_assert_int_eq(bb__json_parse("{\"a\": [1, }", 11, "s.json", &root, &err),
	                 BB_ERR_INPUT);
	ck_assert_ptr_nonnull(strstr(err.message, "invalid JSON"));
	ck_assert_int_eq(err.line, 1);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("json");
	TCase *tc = tcase_create("readers");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, getters_name_the_field);
	tcase_add_test(tc, lenient_numbers);
	tcase_add_test(tc, iterator_paths);
	tcase_add_test(tc, numbers_element_by_element);
	tcase_add_test(tc, parse_errors);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
