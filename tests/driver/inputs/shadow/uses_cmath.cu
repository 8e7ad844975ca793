// <cmath> pulls in <math.h>: it must be the system's, while "local.h" is found here.
#include <cmath>

#include "local.h"

__global__ void root(float *p) { p[threadIdx.x] = sqrtf(p[threadIdx.x]) + LOCAL_OFFSET; }
