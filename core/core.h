/* core/core.h — what every eous module shares. */
#ifndef EOUS_CORE_H
#define EOUS_CORE_H

#include "core/arena.h"
#include "core/buf.h"
#include "core/defaults.h"
#include "core/err.h"
#include "core/json.h"
#include "core/log.h"
#include "core/status.h"
#include "core/text.h"
#include "core/util.h"

#define EOUS_VERSION "0.1.0"

#endif
