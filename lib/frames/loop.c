/* The threaded frame loop: workers take frame indices in turn, each with
 * its own pose, renderer and image, and hand finished frames to the sink. */
#include "config.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bonebake/frames.h"

enum { MAX_JOBS = 256 };

struct run {
	const bb_model *m;
	const bb_scene *sc;
	const bb_plan *p;
	bb_frame_sink sink;
	void *user;
	pthread_mutex_t lock;
	long next, end;
	bb_status status;      /* the first failure */
	bb_error err;
};

static long take(struct run *r)
{
	long i;

	pthread_mutex_lock(&r->lock);
	i = r->status != BB_OK ? -1 : r->next < r->end ? r->next++ : -1;
	pthread_mutex_unlock(&r->lock);
	return i;
}

static void failed(struct run *r, bb_status s, const bb_error *err)
{
	pthread_mutex_lock(&r->lock);
	if (r->status == BB_OK) {
		r->status = s;
		r->err = *err;
		r->err.status = s;
		/* what went wrong drawing this file's frames names the file */
		if (!r->err.file[0])
			snprintf(r->err.file, sizeof r->err.file, "%s", bb_model_source(r->m));
	}
	pthread_mutex_unlock(&r->lock);
}

static void *worker(void *arg)
{
	struct run *r = arg;
	bb_track tracks[BB_MAX_TRACKS];
	bb_pose *pose = NULL;
	bb_renderer *rend = NULL;
	bb_image *img = NULL;
	bb_error err;
	bb_status s;
	int n;
	long i;

	memset(&err, 0, sizeof err);
	if ((s = bb_scene_tracks(r->m, r->sc, tracks, &n, &err)) != BB_OK ||
	    (s = bb_pose_new(r->m, r->sc->armature, &pose, &err)) != BB_OK ||
	    (s = bb_renderer_new(&rend, &err)) != BB_OK ||
	    (s = bb_image_new(r->p->width, r->p->height, &img, &err)) != BB_OK) {
		failed(r, s, &err);
		goto done;
	}
	while ((i = take(r)) >= 0) {
		if ((s = bb_pose_eval(pose, tracks, n, bb_plan_frame_time(r->p, i),
		                      &r->sc->eval, &err)) != BB_OK ||
		    (s = bb_render(rend, bb_pose_drawlist(pose), &r->p->view, img,
		                   &err)) != BB_OK ||
		    (s = r->sink(r->user, i, img, &err)) != BB_OK) {
			failed(r, s, &err);
			break;
		}
	}
done:
	bb_image_free(img);
	bb_renderer_free(rend);
	bb_pose_free(pose);
	return NULL;
}

static int cpu_count(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (n > MAX_JOBS ? MAX_JOBS : (int)n) : 1;
}

bb_status bb_render_frames(const bb_model *m, const bb_scene *sc,
                           const bb_plan *p, long first, long count, int jobs,
                           bb_frame_sink sink, void *user, bb_error *err)
{
	pthread_t th[MAX_JOBS];
	struct run r;
	int i, started = 0;

	if (!sink || first < 0 || first > p->frames || p->fps <= 0 ||
	    p->width < 1 || p->height < 1 || sc->armature != p->armature)
		return bb_error_set(err, BB_ERR_USAGE, bb_model_source(m), NULL,
		                    "bb_render_frames: bad plan or frame range");
	memset(&r, 0, sizeof r);
	r.m = m;
	r.sc = sc;
	r.p = p;
	r.sink = sink;
	r.user = user;
	r.next = first;
	r.end = count < 0 || count > p->frames - first ? p->frames : first + count;
	if (jobs <= 0)
		jobs = cpu_count();
	if (jobs > MAX_JOBS)
		jobs = MAX_JOBS;
	if (jobs > r.end - r.next)
		jobs = (int)(r.end - r.next > 0 ? r.end - r.next : 1);
	pthread_mutex_init(&r.lock, NULL);
	for (i = 1; i < jobs; i++) {
		if (pthread_create(&th[i], NULL, worker, &r) != 0)
			break;
		started = i;
	}
	worker(&r);
	for (i = 1; i <= started; i++)
		pthread_join(th[i], NULL);
	pthread_mutex_destroy(&r.lock);
	if (r.status != BB_OK && err)
		*err = r.err;
	return r.status;
}
