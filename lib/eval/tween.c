/* The Cocos Studio tween table, exactly as cocos2d::tweenfunc computes it
 * (spec cocos.md 6.3): formulas, the Expo_EaseIn -0.001 quirk, the custom
 * easing's y-only Bezier, unknown indices as Sine_EaseInOut. */
#include "config.h"

#include <math.h>

#include "eval/tween.h"

static double bounce(double t)
{
	if (t < 1 / 2.75)
		return 7.5625 * t * t;
	if (t < 2 / 2.75) {
		t -= 1.5 / 2.75;
		return 7.5625 * t * t + 0.75;
	}
	if (t < 2.5 / 2.75) {
		t -= 2.25 / 2.75;
		return 7.5625 * t * t + 0.9375;
	}
	t -= 2.625 / 2.75;
	return 7.5625 * t * t + 0.984375;
}

static double custom(double t, const float *p, int n)
{
	double u = 1 - t;

	if (!p || n < 8)
		return t;
	return u * u * u * p[1] + 3 * t * u * u * p[3] + 3 * t * t * u * p[5] +
	       t * t * t * p[7];
}

static double elastic(int type, double t, const float *p, int n)
{
	double period = p && n > 0 ? p[0] : 0.3, s, t1;

	if (t == 0 || t == 1)
		return t;
	if (type == 22) {
		s = period / 4;
		t1 = t - 1;
		return -pow(2, 10 * t1) * sin((t1 - s) * 2 * M_PI / period);
	}
	if (type == 23) {
		s = period / 4;
		return pow(2, -10 * t) * sin((t - s) * 2 * M_PI / period) + 1;
	}
	if (period == 0)
		period = 0.3 * 1.5;
	s = period / 4;
	t1 = 2 * t - 1;
	if (t1 < 0)
		return -0.5 * pow(2, 10 * t1) * sin((t1 - s) * 2 * M_PI / period);
	return 0.5 * pow(2, -10 * t1) * sin((t1 - s) * 2 * M_PI / period) + 1;
}

/* The in-out halves of the power eases: t' = 2t. */
static double power_in_out(double t, int n)
{
	double u = 2 * t;

	if (u < 1)
		return 0.5 * pow(u, n);
	return n % 2 ? 0.5 * (pow(u - 2, n) + 2) : -0.5 * (pow(u - 2, n) - 2);
}

static double back(int type, double t)
{
	double o = 1.70158, u;

	switch (type) {
	case 25:
		return t * t * ((o + 1) * t - o);
	case 26:
		u = t - 1;
		return u * u * ((o + 1) * u + o) + 1;
	default:
		o *= 1.525;
		u = 2 * t;
		if (u < 1)
			return u * u * ((o + 1) * u - o) / 2;
		u -= 2;
		return u * u * ((o + 1) * u + o) / 2 + 1;
	}
}

static double expo(int type, double t)
{
	double u = 2 * t;

	switch (type) {
	case 16:
		return t == 0 ? 0 : pow(2, 10 * (t - 1)) - 0.001;
	case 17:
		return t == 1 ? 1 : 1 - pow(2, -10 * t);
	default:
		return u < 1 ? 0.5 * pow(2, 10 * (u - 1))
		             : 0.5 * (2 - pow(2, -10 * (u - 1)));
	}
}

static double circ(int type, double t)
{
	double u = 2 * t;

	switch (type) {
	case 19:
		return 1 - sqrt(1 - t * t);
	case 20:
		return sqrt(1 - (t - 1) * (t - 1));
	default:
		return u < 1 ? -0.5 * (sqrt(1 - u * u) - 1)
		             : 0.5 * (sqrt(1 - (u - 2) * (u - 2)) + 1);
	}
}

double bb__cocos_tween(int type, double t, const float *params, int nparams)
{
	switch (type) {
	case BB_TWEEN_CUSTOM: return custom(t, params, nparams);
	case BB_TWEEN_LINEAR: return t;
	case BB_TWEEN_NONE: return t;
	case 1: return 1 - cos(t * M_PI / 2);
	case 2: return sin(t * M_PI / 2);
	case 4: return t * t;
	case 5: return -t * (t - 2);
	case 6: return power_in_out(t, 2);
	case 7: return t * t * t;
	case 8: return pow(t - 1, 3) + 1;
	case 9: return power_in_out(t, 3);
	case 10: return pow(t, 4);
	case 11: return -(pow(t - 1, 4) - 1);
	case 12: return power_in_out(t, 4);
	case 13: return pow(t, 5);
	case 14: return pow(t - 1, 5) + 1;
	case 15: return power_in_out(t, 5);
	case 16: case 17: case 18: return expo(type, t);
	case 19: case 20: case 21: return circ(type, t);
	case 22: case 23: case 24: return elastic(type, t, params, nparams);
	case 25: case 26: case 27: return back(type, t);
	case 28: return 1 - bounce(1 - t);
	case 29: return bounce(t);
	case 30:
		return t < 0.5 ? (1 - bounce(1 - 2 * t)) / 2 : bounce(2 * t - 1) / 2 + 0.5;
	case BB_TWEEN_SINE_IN_OUT:
	default:
		return -0.5 * (cos(M_PI * t) - 1);
	}
}
