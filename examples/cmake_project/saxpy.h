#pragma once

// y[i] = a * x[i] + y[i] on the GPU; returns 0 on success.
int run_saxpy(int n, float a, const float *x, float *y);
