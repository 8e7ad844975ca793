// B+ tree queries, Rodinia b+tree style: the tree lives in one array of node structs (children
// and records referred to by index, no pointers in memory), root at index 0, one level after the
// other; every node has ORDER = 1024 key slots (unused ones hold INT_MAX) and a block of 1024
// threads looks at one node at a time, thread t at key slot t. 1,000,000 records with sorted,
// distinct keys, bulk-loaded into leaves of 600 to 1000 keys (inner nodes: 600 to 1000 children,
// keys[0] = INT_MIN), giving a root, one inner level and about 1250 leaves (about 15 MB with the
// records). 8 blocks; block b answers queries b, b + 8, b + 16, ... (Rodinia: one query per
// block). Per query, as Rodinia does, the node being visited is kept in global memory
// (currKnode[q]); each level, the one thread whose slot holds the key (keys[t] <= key <
// keys[t + 1]) writes the child into offset[q], and after a barrier thread 0 moves it into
// currKnode[q].
// findK: 8192 point queries; at the leaf the thread holding the key copies its record into ans[q]
// (else ans[q] stays -1).
// findRangeK: 4096 range queries [start, end] of at most 127 keys, both bounds descended together
// (currKnode / lastKnode); at the leaves one thread writes recstart[q] (index of the first record
// with key >= start), then one thread writes reclen[q], and the block copies the first
// min(reclen, RANGE_CAP = 64) record values into row q of range_vals (a spare row at the end).
// Every per-query slot is written by the block that owns the query, by one thread between two
// barriers; nodes and records are only read.
#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(call)                                                        \
  do {                                                                     \
    cudaError_t err_ = (call);                                             \
    if (err_ != cudaSuccess) {                                             \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,       \
              cudaGetErrorString(err_));                                   \
      exit(2);                                                             \
    }                                                                      \
  } while (0)

static uint32_t g_seed = 8101u;
static uint32_t lcg() { g_seed = g_seed * 1664525u + 1013904223u; return g_seed >> 8; }

static uint64_t fnv1a(const void* data, size_t bytes, uint64_t h = 0xcbf29ce484222325ull) {
  const unsigned char* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < bytes; ++i) { h ^= p[i]; h *= 0x100000001b3ull; }
  return h;
}

#define ORDER 1024  // key slots per node = threads per block
#define GRID 8
#define NRECORDS 1000000
#define FILL_MIN 600
#define FILL_MAX 1000  // < ORDER: a leaf always has a free slot after its last key
#define POINT_QUERIES 8192
#define RANGE_QUERIES 4096
#define RANGE_CAP 64

struct knode {
  int keys[ORDER + 1];  // sorted; slots from num_keys on hold INT_MAX; inner nodes: keys[0] = INT_MIN
  int indices[ORDER];   // inner node: child node index; leaf: record index
  int num_keys;
  int is_leaf;
};

struct record {
  int value;
};

__global__ void findK(int height, const knode* knodes, const record* records, int* currKnode,
                      int* offset, const int* keys, record* ans, int count) {
  int thid = threadIdx.x;
  for (int q = blockIdx.x; q < count; q += gridDim.x) {
    int key = keys[q];
    for (int i = 0; i < height; ++i) {
      const knode* node = &knodes[currKnode[q]];
      if (node->keys[thid] <= key && key < node->keys[thid + 1]) offset[q] = node->indices[thid];
      __syncthreads();
      if (thid == 0) currKnode[q] = offset[q];
      __syncthreads();
    }
    const knode* leaf = &knodes[currKnode[q]];
    if (leaf->keys[thid] == key) ans[q].value = records[leaf->indices[thid]].value;
  }
}

__global__ void findRangeK(int height, const knode* knodes, const record* records,
                           int* currKnode, int* offset, int* lastKnode, int* offset_2,
                           const int* start, const int* end, int* recstart, int* reclen,
                           int* range_vals, int count) {
  int thid = threadIdx.x;
  for (int q = blockIdx.x; q < count; q += gridDim.x) {
    int lo = start[q];
    int hi = end[q];
    for (int i = 0; i < height; ++i) {
      const knode* a = &knodes[currKnode[q]];
      if (a->keys[thid] <= lo && lo < a->keys[thid + 1]) offset[q] = a->indices[thid];
      const knode* b = &knodes[lastKnode[q]];
      if (b->keys[thid] <= hi && hi < b->keys[thid + 1]) offset_2[q] = b->indices[thid];
      __syncthreads();
      if (thid == 0) {
        currKnode[q] = offset[q];
        lastKnode[q] = offset_2[q];
      }
      __syncthreads();
    }
    // first record with key >= lo: the slot after the last key < lo (possibly the free slot after
    // the leaf's last key: then the next leaf's first record)
    const knode* a = &knodes[currKnode[q]];
    int before = thid == 0 ? INT_MIN : a->keys[thid - 1];
    if (before < lo && lo <= a->keys[thid])
      recstart[q] = thid < a->num_keys ? a->indices[thid] : a->indices[thid - 1] + 1;
    __syncthreads();
    // last record with key <= hi (the one before the leaf's first record if hi is below it)
    const knode* b = &knodes[lastKnode[q]];
    if (b->keys[thid] <= hi && hi < b->keys[thid + 1])
      reclen[q] = b->indices[thid] - recstart[q] + 1;
    if (thid == 0 && hi < b->keys[0]) reclen[q] = b->indices[0] - recstart[q];
    __syncthreads();
    int first = recstart[q];
    int len = reclen[q];
    int n = len < RANGE_CAP ? len : RANGE_CAP;
    for (int k = thid; k < n; k += blockDim.x)
      range_vals[q * RANGE_CAP + k] = records[first + k].value;
  }
}

// Bulk-loads the sorted keys into a B+ tree; returns the number of inner levels.
static int build_tree(const std::vector<int>& keys, std::vector<knode>& out) {
  std::vector<std::vector<knode>> levels(1);  // levels[0]: leaves; child indices level-local
  std::vector<std::vector<int>> min_key(1);
  auto empty_node = [](int is_leaf) {
    knode nd;
    for (int k = 0; k <= ORDER; ++k) nd.keys[k] = INT_MAX;
    for (int k = 0; k < ORDER; ++k) nd.indices[k] = -1;
    nd.num_keys = 0;
    nd.is_leaf = is_leaf;
    return nd;
  };
  const int nrec = int(keys.size());
  for (int r = 0; r < nrec;) {
    int fill = std::min(FILL_MIN + int(lcg() % (FILL_MAX - FILL_MIN + 1)), nrec - r);
    knode nd = empty_node(1);
    for (int k = 0; k < fill; ++k) {
      nd.keys[k] = keys[r + k];
      nd.indices[k] = r + k;
    }
    nd.num_keys = fill;
    levels[0].push_back(nd);
    min_key[0].push_back(keys[r]);
    r += fill;
  }
  while (levels.back().size() > 1) {
    const size_t below = levels.size() - 1;
    const int nchild = int(levels[below].size());
    std::vector<knode> level;
    std::vector<int> mins;
    for (int c = 0; c < nchild;) {
      int fill = std::min(FILL_MIN + int(lcg() % (FILL_MAX - FILL_MIN + 1)), nchild - c);
      knode nd = empty_node(0);
      for (int k = 0; k < fill; ++k) {
        nd.keys[k] = k == 0 ? INT_MIN : min_key[below][c + k];
        nd.indices[k] = c + k;
      }
      nd.num_keys = fill;
      level.push_back(nd);
      mins.push_back(min_key[below][c]);
      c += fill;
    }
    levels.push_back(level);
    min_key.push_back(mins);
  }
  // lay the levels out root first and turn level-local child indices into array indices
  const int nlev = int(levels.size());
  std::vector<int> first(nlev);
  int total = 0;
  for (int l = nlev - 1; l >= 0; --l) {
    first[l] = total;
    total += int(levels[l].size());
  }
  out.clear();
  for (int l = nlev - 1; l >= 0; --l)
    for (knode nd : levels[l]) {
      if (l > 0)
        for (int k = 0; k < nd.num_keys; ++k) nd.indices[k] += first[l - 1];
      out.push_back(nd);
    }
  return nlev - 1;
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    fprintf(stderr, "no CUDA device\n");
    return 77;
  }
  std::vector<int> h_keys(NRECORDS);
  std::vector<record> h_records(NRECORDS);
  int key = 0;
  for (int r = 0; r < NRECORDS; ++r) {
    key += 1 + int(lcg() % 2);
    h_keys[r] = key;
    h_records[r].value = int(lcg() % 1000000);
  }
  const int max_key = key;
  std::vector<knode> h_nodes;
  const int height = build_tree(h_keys, h_nodes);
  const int nnodes = int(h_nodes.size());

  std::vector<int> h_qkeys(POINT_QUERIES), h_start(RANGE_QUERIES), h_end(RANGE_QUERIES);
  for (int q = 0; q < POINT_QUERIES; ++q)
    h_qkeys[q] = (q % 2) ? h_keys[lcg() % NRECORDS] : int(lcg() % (max_key + 20)) - 10;
  for (int q = 0; q < RANGE_QUERIES; ++q) {
    h_start[q] = int(lcg() % (max_key + 20)) - 10;
    h_end[q] = h_start[q] + int(lcg() % (2 * RANGE_CAP - 1));  // at most 2 * RANGE_CAP - 1 keys
  }

  knode* d_nodes = nullptr;
  record *d_records = nullptr, *d_ans = nullptr;
  int *d_qkeys = nullptr, *d_curr = nullptr, *d_offset = nullptr;
  int *d_start = nullptr, *d_end = nullptr, *d_rcurr = nullptr, *d_rlast = nullptr,
      *d_roffset = nullptr, *d_roffset_2 = nullptr, *d_recstart = nullptr, *d_reclen = nullptr,
      *d_range_vals = nullptr;
  const size_t vals_count = (size_t)(RANGE_QUERIES + 1) * RANGE_CAP;
  CHECK(cudaMalloc(&d_nodes, nnodes * sizeof(knode)));
  CHECK(cudaMalloc(&d_records, NRECORDS * sizeof(record)));
  CHECK(cudaMalloc(&d_qkeys, POINT_QUERIES * sizeof(int)));
  CHECK(cudaMalloc(&d_ans, POINT_QUERIES * sizeof(record)));
  CHECK(cudaMalloc(&d_curr, POINT_QUERIES * sizeof(int)));
  CHECK(cudaMalloc(&d_offset, POINT_QUERIES * sizeof(int)));
  CHECK(cudaMalloc(&d_start, RANGE_QUERIES * sizeof(int)));
  CHECK(cudaMalloc(&d_end, RANGE_QUERIES * sizeof(int)));
  CHECK(cudaMalloc(&d_rcurr, RANGE_QUERIES * sizeof(int)));
  CHECK(cudaMalloc(&d_rlast, RANGE_QUERIES * sizeof(int)));
  CHECK(cudaMalloc(&d_roffset, RANGE_QUERIES * sizeof(int)));
  CHECK(cudaMalloc(&d_roffset_2, RANGE_QUERIES * sizeof(int)));
  CHECK(cudaMalloc(&d_recstart, RANGE_QUERIES * sizeof(int)));
  CHECK(cudaMalloc(&d_reclen, RANGE_QUERIES * sizeof(int)));
  CHECK(cudaMalloc(&d_range_vals, vals_count * sizeof(int)));
  CHECK(cudaMemcpy(d_nodes, h_nodes.data(), nnodes * sizeof(knode), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_records, h_records.data(), NRECORDS * sizeof(record), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_qkeys, h_qkeys.data(), POINT_QUERIES * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_start, h_start.data(), RANGE_QUERIES * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_end, h_end.data(), RANGE_QUERIES * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_ans, 0xff, POINT_QUERIES * sizeof(record)));  // -1: not found
  CHECK(cudaMemset(d_curr, 0, POINT_QUERIES * sizeof(int)));       // every query starts at the root
  CHECK(cudaMemset(d_offset, 0, POINT_QUERIES * sizeof(int)));
  CHECK(cudaMemset(d_rcurr, 0, RANGE_QUERIES * sizeof(int)));
  CHECK(cudaMemset(d_rlast, 0, RANGE_QUERIES * sizeof(int)));
  CHECK(cudaMemset(d_roffset, 0, RANGE_QUERIES * sizeof(int)));
  CHECK(cudaMemset(d_roffset_2, 0, RANGE_QUERIES * sizeof(int)));
  CHECK(cudaMemset(d_recstart, 0, RANGE_QUERIES * sizeof(int)));
  CHECK(cudaMemset(d_reclen, 0, RANGE_QUERIES * sizeof(int)));
  CHECK(cudaMemset(d_range_vals, 0, vals_count * sizeof(int)));

  cudaEvent_t ev_start, ev_stop;
  CHECK(cudaEventCreate(&ev_start));
  CHECK(cudaEventCreate(&ev_stop));
  CHECK(cudaEventRecord(ev_start));
  findK<<<GRID, ORDER>>>(height, d_nodes, d_records, d_curr, d_offset, d_qkeys, d_ans,
                         POINT_QUERIES);
  CHECK(cudaGetLastError());
  findRangeK<<<GRID, ORDER>>>(height, d_nodes, d_records, d_rcurr, d_roffset, d_rlast, d_roffset_2,
                              d_start, d_end, d_recstart, d_reclen, d_range_vals, RANGE_QUERIES);
  CHECK(cudaGetLastError());
  CHECK(cudaEventRecord(ev_stop));
  CHECK(cudaEventSynchronize(ev_stop));
  float gpu_ms = 0.0f;
  CHECK(cudaEventElapsedTime(&gpu_ms, ev_start, ev_stop));
  fprintf(stderr, "gpu_ms %.3f\n", gpu_ms);

  std::vector<record> res_ans(POINT_QUERIES);
  std::vector<int> res_recstart(RANGE_QUERIES), res_reclen(RANGE_QUERIES), res_vals(vals_count);
  CHECK(cudaMemcpy(res_ans.data(), d_ans, POINT_QUERIES * sizeof(record), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(res_recstart.data(), d_recstart, RANGE_QUERIES * sizeof(int),
                   cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(res_reclen.data(), d_reclen, RANGE_QUERIES * sizeof(int),
                   cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(res_vals.data(), d_range_vals, vals_count * sizeof(int),
                   cudaMemcpyDeviceToHost));

  // CPU reference: binary search in the sorted key array (the tree is not used)
  bool ok = true;
  int found = 0;
  for (int q = 0; q < POINT_QUERIES; ++q) {
    auto it = std::lower_bound(h_keys.begin(), h_keys.end(), h_qkeys[q]);
    int expect = (it != h_keys.end() && *it == h_qkeys[q]) ? h_records[it - h_keys.begin()].value : -1;
    if (expect >= 0) ++found;
    if (res_ans[q].value != expect) ok = false;
  }
  long long total_len = 0;
  int capped = 0;
  for (int q = 0; q < RANGE_QUERIES; ++q) {
    int first = int(std::lower_bound(h_keys.begin(), h_keys.end(), h_start[q]) - h_keys.begin());
    int last = int(std::upper_bound(h_keys.begin(), h_keys.end(), h_end[q]) - h_keys.begin()) - 1;
    int len = last - first + 1;
    total_len += len;
    if (len > RANGE_CAP) ++capped;
    if (res_recstart[q] != first || res_reclen[q] != len) ok = false;
    for (int k = 0; k < RANGE_CAP; ++k) {
      int expect = k < len ? h_records[first + k].value : 0;
      if (res_vals[(size_t)q * RANGE_CAP + k] != expect) ok = false;
    }
  }
  for (int k = 0; k < RANGE_CAP; ++k)
    if (res_vals[(size_t)RANGE_QUERIES * RANGE_CAP + k] != 0) ok = false;

  printf("records %d  nodes %d  height %d  point queries %d (found %d)  range queries %d\n",
         NRECORDS, nnodes, height, POINT_QUERIES, found, RANGE_QUERIES);
  printf("ans[0] %d  ans[1] %d  recstart[0] %d  reclen[0] %d  total range length %lld (capped %d)\n",
         res_ans[0].value, res_ans[1].value, res_recstart[0], res_reclen[0], total_len, capped);
  uint64_t h = fnv1a(res_ans.data(), POINT_QUERIES * sizeof(record));
  h = fnv1a(res_recstart.data(), RANGE_QUERIES * sizeof(int), h);
  h = fnv1a(res_reclen.data(), RANGE_QUERIES * sizeof(int), h);
  printf("hash %016llx\n", (unsigned long long)fnv1a(res_vals.data(), vals_count * sizeof(int), h));
  CHECK(cudaEventDestroy(ev_start));
  CHECK(cudaEventDestroy(ev_stop));
  CHECK(cudaFree(d_nodes));
  CHECK(cudaFree(d_records));
  CHECK(cudaFree(d_qkeys));
  CHECK(cudaFree(d_ans));
  CHECK(cudaFree(d_curr));
  CHECK(cudaFree(d_offset));
  CHECK(cudaFree(d_start));
  CHECK(cudaFree(d_end));
  CHECK(cudaFree(d_rcurr));
  CHECK(cudaFree(d_rlast));
  CHECK(cudaFree(d_roffset));
  CHECK(cudaFree(d_roffset_2));
  CHECK(cudaFree(d_recstart));
  CHECK(cudaFree(d_reclen));
  CHECK(cudaFree(d_range_vals));
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
