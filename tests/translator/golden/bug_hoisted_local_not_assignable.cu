// KNOWN TRANSLATOR BUG (registered WILL_FAIL): a local that lives across a
// barrier and must be declared at function scope (it is written after its
// declaration) is declared as `::ldcc::rt::type_t<T> name{};` and checkpointed
// with copy assignment, but the translator only checks that T has some default
// constructor. A struct with a const member has a deleted copy assignment (and
// makes the checkpoint frame's default constructor deleted): the output does not
// compile. Like the other locals it cannot move (references, const aggregates,
// types without a default constructor), the kernel must be refused: it runs
// unchecked with a warning naming the local, and the output compiles.

struct Tagged {
  const int tag;
  int sum;
};

__global__ void tally(const int *in, int *out) {
  Tagged t{3, 0};
  t.sum += in[threadIdx.x];
  __syncthreads();
  t.sum += in[(threadIdx.x + 1) % 64];
  __syncthreads();
  out[threadIdx.x] = t.sum + t.tag;
}

void run(const int *in, int *out) {
  tally<<<1, 64>>>(in, out);
}

// CHECK: ldcc_desc_0 = {"tally", "check", {{.*}}, "{{[^"]*}}'t'{{[^"]*}}", "{{.*}}/bug_hoisted_local_not_assignable.cu:17", ldcc_desc_0_globals, {{[0-9]+}}u, nullptr, false};
// CHECK-NOT: tally__ldcc_checked
// CHECK: ::ldcc::rt::launch_unchecked(::ldcc_desc_0, tally, 1, 64, 0, 0, in, out);
// WARN: bug_hoisted_local_not_assignable.cu:17: warning: ldcc: kernel 'tally' runs unchecked: {{.*}}'t'
