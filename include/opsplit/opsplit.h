/* opsplit: the umbrella header. */
#ifndef OPSPLIT_H
#define OPSPLIT_H

#include "opsplit/ca.h"
#include "opsplit/core.h"
#include "opsplit/field.h"
#include "opsplit/group.h"
#include "opsplit/groundwater.h"
#include "opsplit/mechanism.h"
#include "opsplit/ode.h"
#include "opsplit/pcpd.h"

#endif
