/* Solids (3D cuboids moved by joints): evaluation internals, shared by
 * pose.c, drawlist.c and the unit tests.  See bb_solid in model/model.h. */
#ifndef BB_EVAL_SOLID_H
#define BB_EVAL_SOLID_H

#include "eval/pose.h"

/* Value of joint timeline t at local animation time `time` (s): the cycle
 * fraction time / duration wrapped into [0, 1); keys spaced i/n when the
 * animation loops (the last interpolating to the first), i/(n-1) when not;
 * NEAREST keys switch at the midpoint, ANGLE takes the shorter arc. */
double bb__solid_sample(const bb_anim *an, const bb_timeline *t, double time);
/* Sets joint variable `var` (BB_JV_SCALE sets the three scales). */
void bb__solid_set(bb_pose *p, int joint, int var, double v);
/* Every joint variable of p back to its default. */
void bb__solid_reset(bb_pose *p);

/* Joint matrix (3x4 row-major, column 3 = translation) from its
 * BB_JV_COUNT variables: J(p) = O + offset + R(axis, angle) S (p - O). */
void bb__solid_joint_matrix(const double *jvars, double *m);
/* Per joint its matrix and whether it is exactly the identity; per element
 * the weighted average of its non-identity joints' matrices (identity when
 * their weights sum to 1e-5 or less); elem_w receives those sums. */
void bb__solid_element_matrices(const bb_solid *s, const double *jvars,
                                double (*joint_m)[12], unsigned char *joint_id,
                                double (*elem_m)[12], double *elem_w);
/* Corner i of a face (the vertex order every face uses), model units. */
void bb__solid_face_corners(const bb_solid_elem *e, int face, double out[4][3]);
/* The element's own rotation applied to p in place. */
void bb__solid_elem_rotate(const bb_solid_elem *e, double *p);
/* Texture coordinates of the four corners (rotation, 0.1% nudge). */
void bb__solid_face_uvs(const bb_solid_face *f, bb_vec2 *uv);
/* View basis rows: X right, Y up, Z towards the viewer. */
void bb__solid_view_basis(bb_view3d_kind kind, double b[3][3]);
/* Directional light multiplier for a unit normal. */
double bb__solid_light(const double *n);

/* Appends the visible faces of the armature's solid to p's draw list,
 * back to front.  Fails with BB_ERR_NOMEM. */
bb_status bb__solid_emit(bb_pose *p, const bb_eval_options *o, bb_error *err);
void bb__solid_work_free(struct bb__solid_work *w);

#endif
