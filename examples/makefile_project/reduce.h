#pragma once

// Block size of the reduction kernel (a power of two).
#define BLOCK_SUM_THREADS 256

// Sums n integers on the GPU, one partial sum per block; returns 0 on success.
int block_sum(const int *values, int n, long long *total);
