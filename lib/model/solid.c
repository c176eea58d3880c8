/* Solids (3D cuboids and their joints): freeing and validation. */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "model/model.h"

void bb__solid_free(bb_solid *s)
{
	int i;

	if (!s)
		return;
	for (i = 0; i < s->njoints; i++)
		free(s->joints[i].name);
	free(s->joints);
	free(s->elems);
	free(s->weights);
	free(s);
}

static int finite3(const double *v)
{
	return isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]);
}

static int face_ok(const bb_solid_face *f, const bb_model *m)
{
	int k;

	if (!f->present)
		return 1;
	if (f->texture < -1 || f->texture >= m->ntextures ||
	    f->rotation < 0 || f->rotation > 270 || f->rotation % 90 != 0)
		return 0;
	for (k = 0; k < 4; k++)
		if (!isfinite(f->uv[k]))
			return 0;
	return 1;
}

static int elem_ok(const bb_solid_elem *e, const bb_model *m)
{
	int k;

	if (!finite3(e->from) || !finite3(e->to) || !finite3(e->rot_origin) ||
	    !finite3(e->rot_scale) || !isfinite(e->rot_angle) ||
	    e->rot_axis < 0 || e->rot_axis > 2)
		return 0;
	for (k = 0; k < BB_FACE_COUNT; k++)
		if (!face_ok(&e->faces[k], m))
			return 0;
	return 1;
}

int bb__solid_valid(const bb_solid *s, const bb_model *m)
{
	int i;

	if (s->nelems < 0 || s->njoints < 0 || s->nweights < 0 || !finite3(s->centre))
		return 0;
	for (i = 0; i < s->nelems; i++)
		if (!elem_ok(&s->elems[i], m))
			return 0;
	for (i = 0; i < s->njoints; i++)
		if (!finite3(s->joints[i].origin))
			return 0;
	for (i = 0; i < s->nweights; i++) {
		const bb_solid_weight *w = &s->weights[i];

		if (w->joint < 0 || w->joint >= s->njoints || w->elem < 0 ||
		    w->elem >= s->nelems || !isfinite(w->weight))
			return 0;
	}
	return 1;
}
