// Barriers with a value: __syncthreads_count in a declaration and
// __syncthreads_and in an assignment take their predicate in ldcc_t.bar_pred
// before the site and their result from ::ldcc::rt::bar_count/bar_and;
// while (__syncthreads_or(p)) { ... } becomes for (;;) { <site> if (!(...)) break; ... }.

__global__ void countAndIterate(const int *in, int *out, int limit) {
  __shared__ int work[128];
  int mine = in[blockIdx.x * 128 + threadIdx.x];
  if (mine < 0) mine = -mine;
  work[threadIdx.x] = mine;
  int positives = __syncthreads_count(mine > 0);
  int allSmall;
  allSmall = __syncthreads_and(mine < limit);
  int steps = 0;
  while (__syncthreads_or(work[threadIdx.x] > 1)) {
    if (work[threadIdx.x] > 1) work[threadIdx.x] /= 2;
    ++steps;
  }
  out[blockIdx.x * 128 + threadIdx.x] = positives + allSmall + steps;
}

void run(const int *in, int *out, int blocks) {
  countAndIterate<<<blocks, 128>>>(in, out, 1000);
}

// CHECK: ldcc_sites[] = {{[{][{]}}"{{.*}}/syncthreads_count.cu", 11, 19, "__syncthreads_count()"}, {"{{.*}}/syncthreads_count.cu", 13, 14, "__syncthreads_and()"}, {"{{.*}}/syncthreads_count.cu", 15, 10, "__syncthreads_or()"}, {"{{.*}}/syncthreads_count.cu", 6, 17, "kernel entry"}, {"{{.*}}/syncthreads_count.cu", 20, 1, "kernel exit"}, };
// CHECK-NEXT: ldcc_locals[] = {"countAndIterate: mine", "countAndIterate: positives", "countAndIterate: allSmall", "countAndIterate: steps", nullptr};

// CHECK: #line 6 "{{.*}}/syncthreads_count.cu"
// CHECK-NEXT: __global__ void __launch_bounds__(128) countAndIterate__ldcc_checked(__grid_constant__ const ::ldcc::rt::LaunchCtx ldcc_ctx, const int *in, int *out, int limit) {
// CHECK-SAME: ::ldcc::rt::type_t<int> mine__ldcc1{{[{}]*}}; ::ldcc::rt::type_t<int> positives__ldcc2{{[{}]*}}; ::ldcc::rt::type_t<int> allSmall__ldcc3{{[{}]*}}; ::ldcc::rt::type_t<int> steps__ldcc4{{[{}]*}};
// CHECK-SAME: switch (ldcc_t.open) { case 0u: goto ldcc_resume_0; case 1u: goto ldcc_resume_1; case 2u: goto ldcc_resume_2; case 4u: goto ldcc_exit; default: goto ldcc_resume_3; } } ldcc_resume_3:; {
// CHECK-NEXT: {{^ $}}
// CHECK-NEXT: {{^ *}}mine__ldcc1 = (ldcc_loaded |= 1u, in)[blockIdx.x * 128 + threadIdx.x];
// CHECK-NEXT:   if (mine__ldcc1 < 0) mine__ldcc1 = -mine__ldcc1;
// CHECK-NEXT:   work[threadIdx.x] = mine__ldcc1;

// __syncthreads_count in a declaration: predicate, site, then the declaration (now an
// assignment) takes the block-wide result.
// CHECK-NEXT:   { ldcc_t.bar_pred = (mine__ldcc1 > 0); { if (ldcc_site(0u)) goto ldcc_dispatch; ldcc_resume_0:; } } positives__ldcc2 = ::ldcc::rt::bar_count(ldcc_t);
// CHECK-NEXT: {{^ $}}

// __syncthreads_and in an assignment.
// CHECK-NEXT:   { ldcc_t.bar_pred = (mine__ldcc1 < limit); { if (ldcc_site(1u)) goto ldcc_dispatch; ldcc_resume_1:; } } allSmall__ldcc3 = ::ldcc::rt::bar_and(ldcc_t);
// CHECK-NEXT: {{^ *}}steps__ldcc4 = 0;

// while (__syncthreads_or(p)): the site opens every iteration, the condition is its result.
// CHECK-NEXT:   for (;;) { { ldcc_t.bar_pred = (work[threadIdx.x] > 1); { if (ldcc_site(2u)) goto ldcc_dispatch; ldcc_resume_2:; } } if (!(::ldcc::rt::bar_or(ldcc_t))) break;
// CHECK-NEXT:     if (work[threadIdx.x] > 1) work[threadIdx.x] /= 2;
// CHECK-NEXT:     ++steps__ldcc4;
// CHECK-NEXT:   }
// CHECK-NEXT:   (*::ldcc::rt::store(ldcc_t, &(out[blockIdx.x * 128 + threadIdx.x]))) = positives__ldcc2 + allSmall__ldcc3 + steps__ldcc4;
// CHECK-NEXT: } ldcc_exit:
// CHECK-NEXT: #line 20 "{{.*}}/syncthreads_count.cu"

// CHECK-NOT: <<<
// CHECK: ::ldcc::rt::launch(::ldcc_desc_0, countAndIterate, countAndIterate__ldcc_checked, countAndIterate__ldcc_checked_in_shared, countAndIterate__ldcc_blocks, blocks, 128, 0, 0, in, out, 1000);
