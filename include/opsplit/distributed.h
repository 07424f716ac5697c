/* Everything for a communication layer in one include: the group (opsplit/group.h) and
 * the capabilities' calls over a group, which their own headers declare
 * (opsplit_field_attach_distributed in field.h, opsplit_ca_attach_distributed in ca.h,
 * opsplit_pcpd_create_distributed in pcpd.h). */
#ifndef OPSPLIT_DISTRIBUTED_H
#define OPSPLIT_DISTRIBUTED_H

#include "opsplit/ca.h"
#include "opsplit/field.h"
#include "opsplit/group.h"
#include "opsplit/pcpd.h"

#endif
