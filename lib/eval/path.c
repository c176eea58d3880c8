/* Path constraints (placeholder until implemented). */
#include "config.h"

#include "eval/pose.h"

void bb__path_apply(bb_pose *p, int k)
{
	(void)p;
	(void)k;
}
