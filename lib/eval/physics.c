/* Physics constraints (placeholder until implemented). */
#include "config.h"

#include "eval/pose.h"

struct bb__phys {
	double x;
};

size_t bb__physics_state_size(void)
{
	return sizeof(struct bb__phys);
}

void bb__physics_reset(bb_pose *p, int k)
{
	(void)p;
	(void)k;
}

void bb__physics_apply(bb_pose *p, int k)
{
	(void)p;
	(void)k;
}
