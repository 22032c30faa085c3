// Jet: NumPy-style arrays on NVIDIA GPUs, with lazy expressions fused into one kernel.
#pragma once

#include "jet/array.hpp"
#include "jet/cache.hpp"
#include "jet/device.hpp"
#include "jet/dtype.hpp"
#include "jet/error.hpp"
#include "jet/expr.hpp"
#include "jet/indexing.hpp"
#include "jet/kernel.hpp"
#include "jet/linalg.hpp"
#include "jet/manipulation.hpp"
#include "jet/memory.hpp"
#include "jet/ops.hpp"
#include "jet/random.hpp"
#include "jet/reduce.hpp"
#include "jet/shape.hpp"
#include "jet/stream.hpp"
