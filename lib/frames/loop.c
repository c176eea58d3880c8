/* The threaded frame loop: workers take frame indices in turn, each with
 * its own pose, renderer, image and state, hand finished frames to the
 * sink in any order and, through a bounded window of copies, to the
 * ordered sink in frame order. */
#include "config.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bonebake/frames.h"
#include "core/parallel.h"
#include "frames/fit.h"

struct run {
	const bb_model *m;
	const bb_scene *sc;
	const bb_plan *p;
	const bb_frames_options *o;
	bb_texcache *textures; /* shared by the workers' renderers */
	pthread_mutex_t lock;
	pthread_cond_t moved;  /* `deliver` advanced or the run failed */
	long next, end;        /* the next frame to take, the end */
	long deliver;          /* the next frame to hand to o->ordered */
	long window;
	bb_image **held;       /* frames done early, at held[i % window] */
	bb_plan_fit fit;       /* the workers' fits merged */
	bb_status status;      /* the first failure */
	bb_error err;
};

/* The next frame to render, or -1: none left or the run failed.  With an
 * ordered sink, waits until the frame lies within the window. */
static long take(struct run *r)
{
	long i = -1;

	pthread_mutex_lock(&r->lock);
	while (r->status == BB_OK && r->next < r->end && r->held &&
	       r->next >= r->deliver + r->window)
		pthread_cond_wait(&r->moved, &r->lock);
	if (r->status == BB_OK && r->next < r->end)
		i = r->next++;
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
	pthread_cond_broadcast(&r->moved);
	pthread_mutex_unlock(&r->lock);
}

/* Frame i is done: the worker that completes the next frame to deliver
 * hands it on, then every held frame after it; a frame done early is
 * copied into the window.  Only the holder of `deliver` calls the sink,
 * so the calls never overlap. */
static bb_status deliver(struct run *r, long i, const bb_image *img,
                         bb_error *err)
{
	const bb_image *cur = img;
	bb_image *own = NULL;
	bb_status s = BB_OK;

	pthread_mutex_lock(&r->lock);
	if (i != r->deliver) {
		/* the copy is made outside the lock; the slot is read by the
		 * deliverer as soon as the lock is released, so look at the
		 * copy, not at the slot */
		bb_image *copy;

		pthread_mutex_unlock(&r->lock);
		copy = bb_image_dup(img);
		pthread_mutex_lock(&r->lock);
		if (copy && i == r->deliver) {
			/* delivered up to i while copying: it is ours to hand on */
			own = copy;
			cur = own;
		} else {
			r->held[i % r->window] = copy;
			pthread_mutex_unlock(&r->lock);
			return copy ? BB_OK : bb_error_set(err, BB_ERR_NOMEM, NULL, NULL,
			                                   "out of memory");
		}
	}
	for (;;) {
		pthread_mutex_unlock(&r->lock);
		s = r->o->ordered(r->o->ordered_user, i, cur, err);
		bb_image_free(own);
		pthread_mutex_lock(&r->lock);
		own = NULL;
		if (s != BB_OK)
			break;      /* `deliver` stays: nobody hands on another frame */
		r->deliver = ++i;
		pthread_cond_broadcast(&r->moved);
		if (i >= r->end || !r->held[i % r->window])
			break;
		own = r->held[i % r->window];
		r->held[i % r->window] = NULL;
		cur = own;
	}
	pthread_mutex_unlock(&r->lock);
	return s;
}

static void worker(void *arg, int index)
{
	struct run *r = arg;
	const bb_frames_options *o = r->o;
	bb_track tracks[BB_MAX_TRACKS];
	bb_pose *pose = NULL;
	bb_renderer *rend = NULL;
	bb_image *img = NULL, canvas;
	int argb32 = o->argb32 && !o->ordered;
	bb_plan_fit fit;
	void *state = NULL;
	int have_state = 0;
	bb_error err;
	bb_status s;
	int n;
	long i;

	memset(&err, 0, sizeof err);
	bb__plan_fit_init(&fit);
	if ((s = bb_scene_tracks(r->m, r->sc, tracks, &n, &err)) != BB_OK ||
	    (s = bb_pose_new(r->m, r->sc->armature, &pose, &err)) != BB_OK ||
	    (s = bb_renderer_new(&rend, &err)) != BB_OK ||
	    (!argb32 &&
	     (s = bb_image_new(r->p->width, r->p->height, &img, &err)) != BB_OK) ||
	    (o->worker_init &&
	     (s = o->worker_init(o->user, index, &state, &err)) != BB_OK)) {
		failed(r, s, &err);
		goto done;
	}
	have_state = 1;
	bb_renderer_share(rend, r->textures);
	while ((i = take(r)) >= 0) {
		if ((s = bb_pose_eval(pose, tracks, n, bb_plan_frame_time(r->p, i),
		                      &r->sc->eval, &err)) != BB_OK ||
		    (s = argb32 ? bb_render_argb32(rend, bb_pose_drawlist(pose),
		                                   &r->p->view, r->p->width,
		                                   r->p->height, &canvas, &err)
		                : bb_render(rend, bb_pose_drawlist(pose), &r->p->view,
		                            img, &err)) != BB_OK ||
		    (o->sink && (s = o->sink(o->user, state, i, argb32 ? &canvas : img,
		                             &err)) != BB_OK) ||
		    (o->ordered && (s = deliver(r, i, img, &err)) != BB_OK)) {
			failed(r, s, &err);
			break;
		}
		if (o->fit)
			bb__plan_fit_frame(&fit, r->p,
			                   bb_drawlist_bounds(bb_pose_drawlist(pose)), i);
	}
	pthread_mutex_lock(&r->lock);
	bb__plan_fit_merge(&r->fit, &fit);
	pthread_mutex_unlock(&r->lock);
done:
	if (have_state && o->worker_free)
		o->worker_free(o->user, index, state);
	bb_image_free(img);
	bb_renderer_free(rend);
	bb_pose_free(pose);
}

bb_status bb_render_frames_opts(const bb_model *m, const bb_scene *sc,
                                const bb_plan *p, const bb_frames_options *o,
                                bb_error *err)
{
	struct run r;
	int jobs;
	long k;

	if ((!o->sink && !o->ordered) || o->first < 0 || o->first > p->frames ||
	    p->fps <= 0 || p->width < 1 || p->height < 1 ||
	    sc->armature != p->armature || o->window < 0)
		return bb_error_set(err, BB_ERR_USAGE, bb_model_source(m), NULL,
		                    "bb_render_frames: bad plan, options or frame range");
	memset(&r, 0, sizeof r);
	r.m = m;
	r.sc = sc;
	r.p = p;
	r.o = o;
	r.next = r.deliver = o->first;
	bb__plan_fit_init(&r.fit);
	r.end = o->count <= 0 || o->count > p->frames - o->first ? p->frames
	        : o->first + o->count;
	jobs = bb_threads(o->jobs, r.end - r.next);
	if (o->ordered) {
		r.window = o->window > 0 ? o->window : 8L * jobs;
		if (!(r.held = calloc((size_t)r.window, sizeof *r.held)))
			return bb_error_set(err, BB_ERR_NOMEM, bb_model_source(m), NULL,
			                    "out of memory");
	}
	/* texture regions converted once for all threads: at most 4/3 of the
	 * decoded textures (a region and its halved copies), which the load
	 * options' texture limit bounds */
	if (bb_texcache_new(bb_model_texture_bytes(m) / 3 * 4 + ((size_t)16 << 20),
	                    &r.textures, err) != BB_OK) {
		free(r.held);
		return BB_ERR_NOMEM;
	}
	pthread_mutex_init(&r.lock, NULL);
	pthread_cond_init(&r.moved, NULL);
	bb__parallel_run(jobs, worker, &r);
	pthread_cond_destroy(&r.moved);
	pthread_mutex_destroy(&r.lock);
	bb_texcache_free(r.textures);
	for (k = 0; k < r.window; k++)
		bb_image_free(r.held[k]);
	free(r.held);
	if (r.status == BB_OK && o->ordered && r.deliver != r.end)
		return bb_error_set(err, BB_ERR_INTERNAL, bb_model_source(m), NULL,
		                    "frame %ld not handed on", r.deliver);
	if (r.status != BB_OK && err)
		*err = r.err;
	if (r.status == BB_OK && o->fit)
		*o->fit = r.fit;
	return r.status;
}

/* The plain loop: a sink in any order, no state. */
struct plain {
	bb_frame_sink sink;
	void *user;
};

static bb_status plain_sink(void *user, void *state, long frame,
                            const bb_image *img, bb_error *err)
{
	const struct plain *pl = user;

	(void)state;
	return pl->sink(pl->user, frame, img, err);
}

bb_status bb_render_frames(const bb_model *m, const bb_scene *sc,
                           const bb_plan *p, long first, long count, int jobs,
                           bb_frame_sink sink, void *user, bb_error *err)
{
	struct plain pl = { sink, user };
	bb_frames_options o;

	if (!sink)
		return bb_error_set(err, BB_ERR_USAGE, bb_model_source(m), NULL,
		                    "bb_render_frames: no sink");
	if (count == 0 && first >= 0 && first <= p->frames)
		return BB_OK;
	memset(&o, 0, sizeof o);
	o.first = first;
	o.count = count < 0 ? 0 : count;
	o.jobs = jobs;
	o.sink = plain_sink;
	o.user = &pl;
	return bb_render_frames_opts(m, sc, p, &o, err);
}
