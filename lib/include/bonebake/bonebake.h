/* bonebake — umbrella header for libbonebake. */
#ifndef BONEBAKE_H
#define BONEBAKE_H

#include "status.h"
#include "files.h"
#include "parallel.h"
#include "geom.h"
#include "image.h"
#include "anim.h"
#include "output.h"
#include "diff.h"
#include "model.h"
#include "eval.h"
#include "render.h"
#include "contact.h"
#include "frames.h"
#include "pack.h"
#include "batch.h"

#endif
