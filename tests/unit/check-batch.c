/* batch: SHA-256 against the FIPS 180-4 examples, manifests to command
 * words, shards that do not move when jobs are added. */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bonebake/bonebake.h"
#include "core/sha256.h"

static void hex_of(const char *msg, size_t n, int repeat, char out[65])
{
	bb__sha256 c;
	uint8_t d[32];
	int i;

	bb__sha256_init(&c);
	for (i = 0; i < repeat; i++)
		bb__sha256_update(&c, msg, n);
	bb__sha256_final(&c, d);
	bb__sha256_hex(d, out);
}

START_TEST(sha256_vectors)
{
	char h[65];

	/* FIPS 180-4 / NIST examples */
	hex_of("abc", 3, 1, h);
	ck_assert_str_eq(h, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	hex_of("", 0, 1, h);
	ck_assert_str_eq(h, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	hex_of("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56, 1, h);
	ck_assert_str_eq(h, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	/* one million 'a', fed in pieces that straddle blocks */
	hex_of("aaaaaaaaaaaaaaaaaaaaaaaaa", 25, 40000, h);
	ck_assert_str_eq(h, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}
END_TEST

static bb_batch *load(const char *text)
{
	char path[] = "/tmp/check-batch-XXXXXX";
	int fd = mkstemp(path);
	bb_batch *b = NULL;
	bb_error err;

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, strlen(text)), (int)strlen(text));
	close(fd);
	ck_assert_msg(bb_batch_load(path, &b, &err) == BB_OK, "%s", err.message);
	unlink(path);
	return b;
}

START_TEST(manifest_words)
{
	bb_batch *b = load(
		"{\"jobs\": [{\"command\": \"render\", \"input\": \"a/h.json\","
		" \"output\": \"out\", \"animations\": [\"walk\", \"run\"],"
		" \"options\": {\"scale\": 0.5, \"fps\": 24, \"flip\": true,"
		" \"bones\": false, \"set\": [\"a=b\", \"c=d\"], \"bg\": \"white\"}}]}");
	const bb_batch_job *j = bb_batch_job_at(b, 0);
	/* animations first, then the options in name order; a value glued
	 * to its option, so no value can pass for an option of its own */
	static const char *const want[] = { "--anim=walk", "--anim=run",
		"--bg=white", "--flip", "--fps=24", "--scale=0.5",
		"--set=a=b", "--set=c=d" };
	int i;

	ck_assert_int_eq(bb_batch_job_count(b), 1);
	ck_assert_str_eq(j->command, "render");
	ck_assert_str_eq(j->input, "/tmp/a/h.json");     /* beside the manifest */
	ck_assert_str_eq(j->output, "/tmp/out");
	ck_assert_str_eq(j->name, "/tmp/out");           /* the output's path */
	ck_assert_int_eq(j->nargs, (int)(sizeof want / sizeof want[0]));
	for (i = 0; i < j->nargs; i++)
		ck_assert_str_eq(j->args[i], want[i]);
	ck_assert_ptr_null(j->args[j->nargs]);
	bb_batch_free(b);
}
END_TEST

START_TEST(shards_are_stable)
{
	char text[16384];
	int before[100], i, n, k, count[7] = { 0 };
	bb_batch *b;
	size_t len;

	/* 100 jobs, then 101: the first 100 keep their shard for every N */
	for (n = 100; n <= 101; n++) {
		len = (size_t)snprintf(text, sizeof text, "{\"jobs\": [");
		for (i = 0; i < n; i++)
			len += (size_t)snprintf(text + len, sizeof text - len,
			                        "%s{\"name\": \"job-%d\", \"command\": \"render\","
			                        " \"input\": \"x\", \"output\": \"o%d\"}",
			                        i ? "," : "", i, i);
		snprintf(text + len, sizeof text - len, "]}");
		b = load(text);
		for (k = 2; k <= 7; k++)
			for (i = 0; i < 100; i++) {
				int s = bb_batch_shard(bb_batch_job_at(b, i), k);

				ck_assert_int_ge(s, 0);
				ck_assert_int_lt(s, k);
				if (n == 100 && k == 7)
					before[i] = s, count[s]++;
				if (n == 101 && k == 7)
					ck_assert_int_eq(s, before[i]);
			}
		bb_batch_free(b);
	}
	/* and they spread: no shard of 7 holds fewer than 5 of 100 jobs */
	for (k = 0; k < 7; k++)
		ck_assert_int_ge(count[k], 5);
}
END_TEST

/* A one-job manifest whose member `head` holds n strings "a0", "a1" ...,
 * closed by `tail` (new; free it). */
static char *long_job(const char *head, size_t n, const char *tail)
{
	char *text = malloc(n * 12 + 200);
	size_t len, i;

	ck_assert_ptr_nonnull(text);
	len = (size_t)sprintf(text, "{\"jobs\": [{\"command\": \"render\", \"input\":"
	                      " \"x\", \"output\": \"o\", %s", head);
	for (i = 0; i < n; i++)
		len += (size_t)sprintf(text + len, "%s\"a%zu\"", i ? "," : "", i);
	strcpy(text + len, tail);
	return text;
}

/* Manifests that contradict themselves (issue 22): one output folder
 * however spelt, an abbreviation of an option the batch sets, too many
 * animations for one job; parsed from memory as the fuzz target does. */
START_TEST(manifest_refusals)
{
	static const struct { const char *text, *path, *msg; bb_status s; } bad[] = {
		{ "{\"jobs\": [{\"name\": \"a\", \"command\": \"render\", \"input\": \"x\","
		  " \"output\": \"o/./p\"}, {\"name\": \"b\", \"command\": \"render\","
		  " \"input\": \"y\", \"output\": \"o/p/\"}]}", "jobs[1].output",
		  "jobs \"a\" and \"b\" both write", BB_ERR_USAGE },
		{ "{\"jobs\": [{\"command\": \"render\", \"input\": \"x\", \"output\": \"o\","
		  " \"options\": {\"outp\": \"elsewhere\"}}]}", "jobs[0].options.outp",
		  "the batch sets --output itself (an abbreviation", BB_ERR_USAGE },
		{ "{\"jobs\": [{\"command\": \"render\", \"input\": \"x\", \"output\": \"o\","
		  " \"options\": {\"jobs\": 2}}]}", "jobs[0].options.jobs",
		  "the batch sets --jobs itself", BB_ERR_USAGE },
	};
	char *many;
	size_t i;
	bb_batch *b;
	bb_error err;

	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		b = NULL;
		ck_assert_int_eq(bb_batch_parse(bad[i].text, strlen(bad[i].text),
		                                "d/m.json", &b, &err), bad[i].s);
		ck_assert_ptr_null(b);
		ck_assert_str_eq(err.file, "m.json");
		ck_assert_str_eq(err.path, bad[i].path);
		ck_assert_msg(strstr(err.message, bad[i].msg) != NULL, "%s", err.message);
	}
	/* 2,000 animations: a limit naming the field, not "out of memory" */
	many = long_job("\"animations\": [", 2000, "]}]}");
	ck_assert_int_eq(bb_batch_parse(many, strlen(many), "m.json", &b, &err),
	                 BB_ERR_LIMIT);
	ck_assert_str_eq(err.path, "jobs[0].animations");
	ck_assert_msg(strstr(err.message, "2000 animations exceed the limit of 256") != NULL,
	              "%s", err.message);
	free(many);
	/* 20,000 option words: the same */
	many = long_job("\"options\": {\"set\": [", 20000, "]}}]}");
	ck_assert_int_eq(bb_batch_parse(many, strlen(many), "m.json", &b, &err),
	                 BB_ERR_LIMIT);
	ck_assert_str_eq(err.path, "jobs[0].options.set[16384]");
	ck_assert_msg(strstr(err.message, "more than 16384") != NULL, "%s", err.message);
	free(many);
	/* 256 animations are fine */
	many = long_job("\"animations\": [", 256, "]}]}");
	ck_assert_int_eq(bb_batch_parse(many, strlen(many), "m.json", &b, &err), BB_OK);
	ck_assert_int_eq(bb_batch_job_at(b, 0)->nargs, 256);
	bb_batch_free(b);
	free(many);
}
END_TEST

START_TEST(manifest_errors)
{
	static const struct { const char *text, *path, *msg; } bad[] = {
		{ "[]", "", "expected an object" },
		{ "{\"jobs\": [{\"command\": \"render\", \"input\": \"a\"}]}",
		  "jobs[0].output", "missing" },
		{ "{\"jobs\": [{\"command\": \"render\", \"input\": \"a\", \"output\": \"b\","
		  " \"animations\": [\"\"]}]}", "jobs[0].animations[0]", "empty string" },
		{ "{\"jobs\": [{\"command\": \"render\", \"input\": \"a\", \"output\": \"b\","
		  " \"options\": {\"Scale\": 1}}]}", "jobs[0].options.Scale", "not an option" },
		{ "{\"jobs\": [{\"command\": \"render\", \"input\": \"a\", \"output\": \"b\","
		  " \"options\": {\"set\": [[1]]}}]}", "jobs[0].options.set[0]", "found an array" },
	};
	size_t i;

	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char path[] = "/tmp/check-batch-XXXXXX";
		int fd = mkstemp(path);
		bb_batch *b = NULL;
		bb_error err;

		ck_assert_int_eq(write(fd, bad[i].text, strlen(bad[i].text)),
		                 (int)strlen(bad[i].text));
		close(fd);
		ck_assert_int_eq(bb_batch_load(path, &b, &err), BB_ERR_INPUT);
		ck_assert_ptr_null(b);
		ck_assert_str_eq(err.path, bad[i].path);
		ck_assert_msg(strstr(err.message, bad[i].msg) != NULL, "%s", err.message);
		unlink(path);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("batch");
	TCase *tc = tcase_create("batch");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, sha256_vectors);
	tcase_add_test(tc, manifest_words);
	tcase_add_test(tc, shards_are_stable);
	tcase_add_test(tc, manifest_errors);
	tcase_add_test(tc, manifest_refusals);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
