/* The Cocos Studio tween table (cocos2d::tweenfunc, spec cocos.md 6.3). */
#ifndef BB_EVAL_TWEEN_H
#define BB_EVAL_TWEEN_H

/* twE values with a meaning beyond the table's 0..30 */
enum {
	BB_TWEEN_CUSTOM = -1,      /* y-only cubic Bezier of twEP[1,3,5,7] */
	BB_TWEEN_LINEAR = 0,
	BB_TWEEN_SINE_IN_OUT = 3,
	BB_TWEEN_LAST = 30,        /* Bounce_EaseInOut */
	BB_TWEEN_NONE = 10000      /* TWEEN_EASING_MAX: no easing */
};

/* Eased progress of tween type `type` at t in [0, 1], with the key's
 * easing parameters (may be NULL / 0).  Unknown types ease as
 * Sine_EaseInOut; 10000 returns t.  Pure; thread-safe. */
double bb__cocos_tween(int type, double t, const float *params, int nparams);

#endif
