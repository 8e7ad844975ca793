// KNOWN TRANSLATOR BUG (registered WILL_FAIL): a local initialized by
// __syncthreads_count/_and/_or whose predicate is invariant (here threadIdx
// only) and that is never written afterwards is classified as "moved whole": the
// declaration, barrier call included, is copied to the top of the clone, while
// the barrier rewrite edits the same text in place. The output does not compile
// (and, if it did, the barrier would run at kernel entry, outside every site).
// A barrier's result is never invariant: `flagged` must be declared at function
// scope and assigned the barrier's value after the site, as for any other
// __syncthreads_count in a declaration (see syncthreads_count.cu).

__global__ void countFlags(int *out) {
  int flagged = __syncthreads_count(threadIdx.x % 3 == 0);
  __syncthreads();
  out[threadIdx.x] = flagged;
}

void run(int *out) {
  countFlags<<<1, 96>>>(out);
}

// CHECK: ldcc_sites[] = {{[{][{]}}"{{.*}}/bug_barrier_in_moved_declaration.cu", 12, 17, "__syncthreads_count()"}, {"{{.*}}/bug_barrier_in_moved_declaration.cu", 13, 3, "__syncthreads()"},
// CHECK: ldcc_locals[] = {"countFlags: flagged", nullptr};
// CHECK: #line 11 "{{.*}}/bug_barrier_in_moved_declaration.cu"
// CHECK-NEXT: __global__ void __launch_bounds__(96) countFlags__ldcc_checked(__grid_constant__ const ::ldcc::rt::LaunchCtx ldcc_ctx, int *out) {
// CHECK-SAME: ::ldcc::rt::type_t<int> flagged__ldcc1{{[{}]*}};
// CHECK-SAME: ldcc_resume_2:; {
// CHECK-NEXT:   { ldcc_t.bar_pred = (threadIdx.x % 3 == 0); { if (ldcc_site(0u)) goto ldcc_dispatch; ldcc_resume_0:; } } flagged__ldcc1 = ::ldcc::rt::bar_count(ldcc_t);
// CHECK-NEXT:   { if (ldcc_site(1u)) goto ldcc_dispatch; ldcc_resume_1:; }
// CHECK-NEXT:   (*::ldcc::rt::store(ldcc_t, &(out[threadIdx.x]))) = flagged__ldcc1;
// CHECK-NEXT: } ldcc_exit:
