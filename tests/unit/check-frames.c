/* frames: scenes to tracks, planning (frame count, canvas, limits, event
 * frames, cycle stretch) and the threaded frame loop, on a one-bone model
 * whose numbers are worked out by hand below. */
#include "config.h"

#include <check.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bonebake/bonebake.h"

/* One bone with a 20x10 rectangle centred on it.  "slide" (1 s, once)
 * moves it from x = 0 to x = 30; "spin" (1 s, looping) turns it.  Drawn
 * bounds over "slide": x in [-10, 40], y in [-5, 5]. */
static const char model_json[] =
	"{ \"format\": \"bonebake-skeleton\", \"version\": 1, \"fps\": 4,"
	"  \"bones\": [ { \"name\": \"b\", \"attachments\": { \"front\": {"
	"    \"width\": 20, \"height\": 10, \"radius\": 0,"
	"    \"color\": [200, 100, 50, 255] } } } ],"
	"  \"animations\": ["
	"    { \"name\": \"slide\", \"duration\": 1, \"loop\": false, \"bones\": {"
	"      \"b\": [ { \"time\": 0, \"x\": 0 }, { \"time\": 1, \"x\": 30 } ] } },"
	"    { \"name\": \"spin\", \"duration\": 1, \"bones\": {"
	"      \"b\": [ { \"time\": 0, \"rotation\": 0 }, { \"time\": 1, \"rotation\": 6.2831853 } ] } }"
	"  ] }";

static bb_model *load(void)
{
	bb_model *m = NULL;
	bb_error err;

	ck_assert_int_eq(bb_model_load_buffer(model_json, sizeof model_json - 1,
	                                      "dir/t.json", NULL, &m, &err), BB_OK);
	return m;
}

START_TEST(tracks_of_a_scene)
{
	bb_model *m = load();
	bb_scene sc = { 0 };
	bb_track tr[BB_MAX_TRACKS];
	bb_error err;
	int n;

	sc.anim = 1;
	sc.cycle = 2;
	sc.loop = BB_LOOP_ONCE;
	sc.has_face = 1;
	sc.face = 0;
	sc.face_start = 0.5;
	ck_assert_int_eq(bb_scene_tracks(m, &sc, tr, &n, &err), BB_OK);
	ck_assert_int_eq(n, 2);
	ck_assert_int_eq(tr[0].anim, 1);
	ck_assert_int_eq(tr[0].mask, -1);
	ck_assert_int_eq(tr[0].loop, 2);
	ck_assert_double_eq(tr[0].speed, 0.5);     /* 1 s over 2 s */
	ck_assert_int_eq(tr[0].transient, 0);
	ck_assert_int_eq(tr[1].anim, 0);
	ck_assert_double_eq(tr[1].start, 0.5);
	ck_assert_int_eq(tr[1].transient, 1);
	/* no upper-body bone set in this model */
	sc.has_overlay = 1;
	ck_assert_int_eq(bb_scene_tracks(m, &sc, tr, &n, &err), BB_ERR_USAGE);
	ck_assert_str_eq(err.file, "t.json");
	sc.has_overlay = 0;
	sc.anim = 2;
	ck_assert_int_eq(bb_scene_tracks(m, &sc, tr, &n, &err), BB_ERR_USAGE);
	bb_model_free(m);
}
END_TEST

START_TEST(plan_fits_every_frame)
{
	bb_model *m = load();
	bb_scene sc = { 0 };
	bb_canvas_options co = { 0 };
	bb_plan p;
	bb_error err;

	co.scale = 2;
	co.pad = 3;
	ck_assert_int_eq(bb_plan_scene(m, &sc, &co, &p, &err), BB_OK);
	/* once: floor(1 * 4) + 1 frames at the file's 4 fps */
	ck_assert_double_eq(p.fps, 4);
	ck_assert_int_eq(p.frames, 5);
	ck_assert_int_eq(p.info.loop, 0);
	ck_assert_double_eq(bb_plan_frame_time(&p, 3), 0.75);
	/* x: 2 * [-10, 40] = [-20, 80] -> 100 + 2 * 3; y: 2 * [-5, 5] -> 20 + 6 */
	ck_assert_int_eq(p.width, 106);
	ck_assert_int_eq(p.height, 26);
	ck_assert_double_eq(p.view.origin_x, 23);
	ck_assert_double_eq(p.view.origin_y, 13);
	ck_assert_double_eq(p.view.scale, 2);
	/* looping: round(1 * 4) frames, the end pose not repeated */
	sc.anim = 1;
	ck_assert_int_eq(bb_plan_scene(m, &sc, &co, &p, &err), BB_OK);
	ck_assert_int_eq(p.frames, 4);
	/* forced once, stretched over 2 s at 10 fps: 21 frames; animation
	 * time 0.5 plays at figure time 1 */
	sc.loop = BB_LOOP_ONCE;
	sc.cycle = 2;
	sc.fps = 10;
	ck_assert_int_eq(bb_plan_scene(m, &sc, &co, &p, &err), BB_OK);
	ck_assert_int_eq(p.frames, 21);
	ck_assert_double_eq(p.info.duration, 2);
	ck_assert_double_eq(bb_plan_figure_time(&p, 0.5), 1);
	bb_model_free(m);
}
END_TEST

START_TEST(plan_fixed_native_and_limits)
{
	bb_model *m = load();
	bb_scene sc = { 0 };
	bb_canvas_options co = { 0 };
	bb_plan p;
	bb_error err;

	co.width = 64;
	co.height = 32;
	ck_assert_int_eq(bb_plan_scene(m, &sc, &co, &p, &err), BB_OK);
	ck_assert_int_eq(p.width, 64);
	ck_assert_double_eq(p.view.origin_x, 32);
	ck_assert_double_eq(p.view.origin_y, 16);
	co.has_origin = 1;
	co.origin_x = 5;
	co.origin_y = 6;
	ck_assert_int_eq(bb_plan_scene(m, &sc, &co, &p, &err), BB_OK);
	ck_assert_double_eq(p.view.origin_x, 5);
	ck_assert_double_eq(p.view.origin_y, 6);
	/* the native format defines no stage */
	memset(&co, 0, sizeof co);
	co.native = 1;
	ck_assert_int_eq(bb_plan_scene(m, &sc, &co, &p, &err), BB_ERR_USAGE);
	ck_assert(strstr(err.message, "defines no canvas") != NULL);
	/* limits, each naming the file */
	memset(&co, 0, sizeof co);
	co.limits.max_frames = 4;
	ck_assert_int_eq(bb_plan_scene(m, &sc, &co, &p, &err), BB_ERR_LIMIT);
	ck_assert_str_eq(err.file, "t.json");
	ck_assert(strstr(err.message, "5 frames exceed the limit of 4") != NULL);
	memset(&co, 0, sizeof co);
	co.limits.max_canvas = 50;     /* 50 + 4 px of pad wide */
	co.pad = 2;
	ck_assert_int_eq(bb_plan_scene(m, &sc, &co, &p, &err), BB_ERR_LIMIT);
	ck_assert_str_eq(err.file, "t.json");
	co.pad = 0;
	ck_assert_int_eq(bb_plan_scene(m, &sc, &co, &p, &err), BB_OK);
	ck_assert_int_eq(p.width, 50);
	ck_assert_int_eq(bb_limits_default().max_canvas, 16384);
	ck_assert_int_eq(bb_limits_default().max_frames, 100000);
	bb_model_free(m);
}
END_TEST

START_TEST(event_frames)
{
	bb_plan p;

	memset(&p, 0, sizeof p);
	p.fps = 4;
	p.frames = 5;
	ck_assert_int_eq(bb_plan_event_frame(&p, 0), 0);
	ck_assert_int_eq(bb_plan_event_frame(&p, 0.25), 1);   /* on a sample */
	ck_assert_int_eq(bb_plan_event_frame(&p, 0.3), 2);    /* the next one */
	ck_assert_int_eq(bb_plan_event_frame(&p, 5), 4);      /* clamped */
	p.info.loop = 1;
	p.frames = 4;
	ck_assert_int_eq(bb_plan_event_frame(&p, 1.1), 1);    /* 5 wraps to 1 */
}
END_TEST

/* ---- the frame loop ---------------------------------------------------- */

struct seen {
	pthread_mutex_t lock;
	int count[64];
	uint32_t sum[64];
	long stop_at;             /* fail on this frame (-1: never) */
};

static uint32_t checksum(const bb_image *img)
{
	uint32_t h = 2166136261u;
	int x, y;

	for (y = 0; y < img->height; y++)
		for (x = 0; x < img->width * 4; x++)
			h = (h ^ img->px[(size_t)y * img->stride + (size_t)x]) * 16777619u;
	return h;
}

static bb_status sink(void *user, long frame, const bb_image *img, bb_error *err)
{
	struct seen *s = user;

	if (frame == s->stop_at)
		return bb_error_set(err, BB_ERR_IO, "out.png", NULL, "disk full");
	pthread_mutex_lock(&s->lock);
	s->count[frame]++;
	s->sum[frame] = checksum(img);
	pthread_mutex_unlock(&s->lock);
	return BB_OK;
}

static void run(const bb_model *m, const bb_scene *sc, const bb_plan *p,
                long first, long count, int jobs, struct seen *s,
                bb_status want)
{
	bb_error err;

	memset(s->count, 0, sizeof s->count);
	memset(s->sum, 0, sizeof s->sum);
	ck_assert_int_eq(bb_render_frames(m, sc, p, first, count, jobs, sink, s,
	                                  &err), want);
	if (want != BB_OK) {
		ck_assert_str_eq(err.file, "out.png");
		ck_assert_str_eq(err.message, "disk full");
	}
}

START_TEST(frames_any_thread_count)
{
	bb_model *m = load();
	bb_scene sc = { 0 };
	bb_canvas_options co = { 0 };
	struct seen one, two;
	bb_plan p;
	bb_error err;
	long i;

	pthread_mutex_init(&one.lock, NULL);
	pthread_mutex_init(&two.lock, NULL);
	one.stop_at = two.stop_at = -1;
	co.scale = 2;
	co.pad = 3;
	ck_assert_int_eq(bb_plan_scene(m, &sc, &co, &p, &err), BB_OK);
	run(m, &sc, &p, 0, -1, 1, &one, BB_OK);
	run(m, &sc, &p, 0, -1, 3, &two, BB_OK);
	for (i = 0; i < p.frames; i++) {
		ck_assert_int_eq(one.count[i], 1);
		ck_assert_int_eq(two.count[i], 1);
		ck_assert_uint_eq(one.sum[i], two.sum[i]);
	}
	ck_assert_uint_ne(one.sum[0], one.sum[4]);    /* the bone moved */
	/* a range: frames 1..2 only */
	run(m, &sc, &p, 1, 2, 2, &two, BB_OK);
	ck_assert_int_eq(two.count[0], 0);
	ck_assert_int_eq(two.count[1], 1);
	ck_assert_int_eq(two.count[2], 1);
	ck_assert_int_eq(two.count[3], 0);
	ck_assert_uint_eq(two.sum[2], one.sum[2]);
	/* a failing sink stops the run with its status and message */
	two.stop_at = 2;
	run(m, &sc, &p, 0, -1, 2, &two, BB_ERR_IO);
	/* a bad range is the caller's error */
	ck_assert_int_eq(bb_render_frames(m, &sc, &p, 9, 1, 1, sink, &one, &err),
	                 BB_ERR_USAGE);
	bb_model_free(m);
}
END_TEST

/* Ordered delivery and per-worker state (bb_render_frames_opts). */
struct ordered_seen {
	pthread_mutex_t lock;
	long rendered;            /* frames the any-order sink saw */
	long delivered;           /* frames the ordered sink saw, in order */
	long window, worst_ahead; /* rendered - delivered at an ordered call */
	int inits, frees, bad_state;
	uint32_t sum[256];
	long fail_at;             /* the ordered sink fails here (-1: never) */
};

static bb_status any_order(void *user, void *state, long frame,
                           const bb_image *img, bb_error *err)
{
	struct ordered_seen *s = user;

	(void)err;
	pthread_mutex_lock(&s->lock);
	s->rendered++;
	/* each worker's state is its own */
	if (!state || *(long *)state < 0)
		s->bad_state = 1;
	s->sum[frame] = checksum(img);
	pthread_mutex_unlock(&s->lock);
	return BB_OK;
}

static bb_status in_order(void *user, long frame, const bb_image *img,
                          bb_error *err)
{
	struct ordered_seen *s = user;
	long ahead;

	if (frame == s->fail_at)
		return bb_error_set(err, BB_ERR_IO, "movie.webm", NULL, "disk full");
	pthread_mutex_lock(&s->lock);
	ck_assert_int_eq(frame, s->delivered);
	ck_assert_uint_eq(checksum(img), s->sum[frame]);
	ahead = s->rendered - s->delivered;
	if (ahead > s->worst_ahead)
		s->worst_ahead = ahead;
	s->delivered++;
	pthread_mutex_unlock(&s->lock);
	if (frame % 7 == 0)
		usleep(2000);   /* a slow consumer: the workers run ahead */
	return BB_OK;
}

static bb_status w_init(void *user, int worker, void **state, bb_error *err)
{
	struct ordered_seen *s = user;
	long *w = malloc(sizeof *w);

	(void)err;
	if (!w)
		return BB_ERR_NOMEM;
	*w = worker;
	*state = w;
	pthread_mutex_lock(&s->lock);
	s->inits++;
	pthread_mutex_unlock(&s->lock);
	return BB_OK;
}

static void w_free(void *user, int worker, void *state)
{
	struct ordered_seen *s = user;

	ck_assert_int_eq(*(long *)state, worker);
	free(state);
	pthread_mutex_lock(&s->lock);
	s->frees++;
	pthread_mutex_unlock(&s->lock);
}

START_TEST(frames_ordered_window)
{
	static const int jobs[] = { 1, 2, 5 };
	static const long windows[] = { 1, 3, 0 };
	bb_model *m = load();
	bb_scene sc = { 0 };
	bb_canvas_options co = { 0 };
	struct ordered_seen s;
	bb_frames_options fo;
	bb_plan p;
	bb_error err;
	uint32_t first[256];
	size_t ji, wi;

	sc.anim = 1;          /* spin, looping */
	sc.fps = 60;          /* 60 frames */
	co.scale = 2;
	ck_assert_int_eq(bb_plan_scene(m, &sc, &co, &p, &err), BB_OK);
	ck_assert_int_eq(p.frames, 60);
	for (ji = 0; ji < sizeof jobs / sizeof *jobs; ji++)
		for (wi = 0; wi < sizeof windows / sizeof *windows; wi++) {
			memset(&s, 0, sizeof s);
			pthread_mutex_init(&s.lock, NULL);
			s.fail_at = -1;
			memset(&fo, 0, sizeof fo);
			fo.jobs = jobs[ji];
			fo.window = windows[wi];
			fo.sink = any_order;
			fo.user = &s;
			fo.ordered = in_order;
			fo.ordered_user = &s;
			fo.worker_init = w_init;
			fo.worker_free = w_free;
			ck_assert_int_eq(bb_render_frames_opts(m, &sc, &p, &fo, &err), BB_OK);
			ck_assert_int_eq(s.delivered, 60);
			ck_assert_int_eq(s.rendered, 60);
			ck_assert_int_eq(s.inits, jobs[ji]);
			ck_assert_int_eq(s.frees, jobs[ji]);
			ck_assert_int_eq(s.bad_state, 0);
			/* no worker starts a frame `window` past the next to deliver */
			ck_assert_int_le(s.worst_ahead, windows[wi] ? windows[wi]
			                 : 8L * jobs[ji]);
			if (ji == 0 && wi == 0)
				memcpy(first, s.sum, sizeof first);
			ck_assert_int_eq(memcmp(first, s.sum, sizeof first), 0);
			pthread_mutex_destroy(&s.lock);
		}
	/* the ordered sink failing stops the run with its error, no hang */
	memset(&s, 0, sizeof s);
	pthread_mutex_init(&s.lock, NULL);
	s.fail_at = 25;
	fo.jobs = 4;
	fo.window = 2;
	ck_assert_int_eq(bb_render_frames_opts(m, &sc, &p, &fo, &err), BB_ERR_IO);
	ck_assert_str_eq(err.message, "disk full");
	ck_assert_int_eq(s.delivered, 25);
	ck_assert_int_eq(s.inits, s.frees);
	pthread_mutex_destroy(&s.lock);
	bb_model_free(m);
}
END_TEST

static bb_status count_frame(void *user, void *state, long frame,
                             const bb_image *img, bb_error *err)
{
	(void)user; (void)state; (void)frame; (void)img; (void)err;
	return BB_OK;
}

/* The frame loop measures what a fixed canvas cuts on the poses it draws:
 * the same as bb_plan_check_fit's own pass, whatever the thread count. */
START_TEST(frames_measure_fit)
{
	static const int jobs[] = { 1, 2, 5 };
	bb_model *m = load();
	bb_scene sc = { 0 };
	bb_canvas_options co = { 0 };
	bb_frames_options fo;
	bb_plan_fit want, got;
	bb_plan p;
	bb_error err;
	size_t k;

	sc.anim = 0;          /* slide: x 0 -> 30 over 1 s */
	sc.fps = 20;          /* 21 frames */
	co.width = 60;
	co.height = 30;
	co.scale = 2;         /* the 40 px wide part leaves the canvas */
	ck_assert_int_eq(bb_plan_scene(m, &sc, &co, &p, &err), BB_OK);
	ck_assert_int_eq(p.frames, 21);
	ck_assert_int_eq(bb_plan_check_fit(m, &sc, &p, &want, &err), BB_OK);
	ck_assert_int_gt(want.cut_frames, 5);
	ck_assert_int_lt(want.cut_frames, 21);
	ck_assert_int_eq(want.last, 20);
	/* x0 = 2 (x - 10) + 30 >= 60 from x = 25 (frame 16.7): frames 17..20
	 * lose the whole 40x20 box, and the earliest of equals is named */
	ck_assert_int_eq(want.worst_frame, 17);
	ck_assert_double_eq(want.worst_lost, 800);
	for (k = 0; k < sizeof jobs / sizeof *jobs; k++) {
		memset(&fo, 0, sizeof fo);
		memset(&got, 0xff, sizeof got);
		fo.jobs = jobs[k];
		fo.sink = count_frame;
		fo.fit = &got;
		ck_assert_int_eq(bb_render_frames_opts(m, &sc, &p, &fo, &err), BB_OK);
		ck_assert_int_eq(got.cut_frames, want.cut_frames);
		ck_assert_int_eq(got.first, want.first);
		ck_assert_int_eq(got.last, want.last);
		ck_assert_int_eq(got.worst_frame, want.worst_frame);
		ck_assert_double_eq(got.worst_lost, want.worst_lost);
		ck_assert_double_eq(got.lost, want.lost);
	}
	/* the frames rendered only: [0, 3) fits (x <= 3) */
	fo.first = 0;
	fo.count = 3;
	ck_assert_int_eq(bb_render_frames_opts(m, &sc, &p, &fo, &err), BB_OK);
	ck_assert_int_eq(got.cut_frames, 0);
	ck_assert_int_eq(got.worst_frame, -1);
	bb_model_free(m);
}
END_TEST

START_TEST(frames_pixels)
{
	/* slide at scale 2, pad 3: origin pixel (23, 13); frame 0 covers x in
	 * 23 + 2 * [-10, 10], frame 4 covers 23 + 2 * [20, 40] */
	bb_model *m = load();
	bb_scene sc = { 0 };
	bb_canvas_options co = { 0 };
	bb_plan p;
	bb_error err;
	bb_track tr[BB_MAX_TRACKS];
	bb_pose *pose;
	bb_renderer *r;
	bb_image *img;
	int n;

	co.scale = 2;
	co.pad = 3;
	ck_assert_int_eq(bb_plan_scene(m, &sc, &co, &p, &err), BB_OK);
	ck_assert_int_eq(bb_scene_tracks(m, &sc, tr, &n, &err), BB_OK);
	ck_assert_int_eq(bb_pose_new(m, 0, &pose, &err), BB_OK);
	ck_assert_int_eq(bb_renderer_new(&r, &err), BB_OK);
	ck_assert_int_eq(bb_image_new(p.width, p.height, &img, &err), BB_OK);
	ck_assert_int_eq(bb_pose_eval(pose, tr, n, bb_plan_frame_time(&p, 4),
	                              &sc.eval, &err), BB_OK);
	ck_assert_int_eq(bb_render(r, bb_pose_drawlist(pose), &p.view, img, &err), BB_OK);
	ck_assert_int_eq(bb_image_pixel(img, 93, 13)[3], 255);   /* inside */
	ck_assert_int_eq(bb_image_pixel(img, 93, 13)[0], 200);
	ck_assert_int_eq(bb_image_pixel(img, 23, 13)[3], 0);     /* left behind */
	bb_image_free(img);
	bb_renderer_free(r);
	bb_pose_free(pose);
	bb_model_free(m);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("frames");
	TCase *tc = tcase_create("frames");

	tcase_set_timeout(tc, 60);
	SRunner *sr;
	int failed;

	tcase_add_test(tc, tracks_of_a_scene);
	tcase_add_test(tc, plan_fits_every_frame);
	tcase_add_test(tc, frames_measure_fit);
	tcase_add_test(tc, plan_fixed_native_and_limits);
	tcase_add_test(tc, event_frames);
	tcase_add_test(tc, frames_any_thread_count);
	tcase_add_test(tc, frames_pixels);
	tcase_add_test(tc, frames_ordered_window);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
