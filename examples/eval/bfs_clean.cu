// Breadth-first search, Rodinia style: level-synchronous, two kernels per level, one thread per
// node (16 blocks of 256 threads over 4000 nodes). The graph is undirected, in CSR form (a Node
// per vertex: first edge and edge count; an edge array), generated with local edges (every node
// links to 3 nodes at most 40 ahead), so the search from node 0 takes about 120 levels.
// bfs_expand: every frontier node (g_graph_mask) leaves the frontier and offers cost + 1 and
// itself as parent to each unvisited neighbour; bfs_update: every node offered something joins
// the next frontier, is marked visited and raises the "not done" flag g_over. The host repeats
// both kernels until g_over stays 0. A node reached from several frontier nodes (often in
// different blocks) is written by all of them, so those writes are integer atomics here:
// atomicMax for g_cost (every offer is the same level) and g_parent (the largest frontier
// neighbour wins: a deterministic BFS tree), atomicOr for g_updating_mask and g_over. Every other
// byte has one writer, its own node's thread, and no block reads a byte another block writes in
// the same launch (visited flags are only written by bfs_update, the cost of a frontier node is
// never written again).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
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

static uint32_t g_seed = 1601u;
static uint32_t lcg() { g_seed = g_seed * 1664525u + 1013904223u; return g_seed >> 8; }

static uint64_t fnv1a(const void* data, size_t bytes, uint64_t h = 0xcbf29ce484222325ull) {
  const unsigned char* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < bytes; ++i) { h ^= p[i]; h *= 0x100000001b3ull; }
  return h;
}

#define BLOCK 256
#define GRID 16
#define NODES 4000
#define EDGES_PER_NODE 3
#define REACH 40

struct Node {
  int starting;     // index of the first edge in the edge array
  int no_of_edges;
};

__global__ void bfs_expand(const Node* g_graph_nodes, const int* g_graph_edges, bool* g_graph_mask,
                           int* g_updating_mask, const bool* g_graph_visited, int* g_cost,
                           int* g_parent, int no_of_nodes) {
  int tid = blockIdx.x * BLOCK + threadIdx.x;
  if (tid < no_of_nodes && g_graph_mask[tid]) {
    g_graph_mask[tid] = false;
    int next_cost = g_cost[tid] + 1;
    Node node = g_graph_nodes[tid];
    for (int i = node.starting; i < node.starting + node.no_of_edges; ++i) {
      int id = g_graph_edges[i];
      if (!g_graph_visited[id]) {
        atomicMax(&g_cost[id], next_cost);
        atomicMax(&g_parent[id], tid);
        atomicOr(&g_updating_mask[id], 1);
      }
    }
  }
}

__global__ void bfs_update(bool* g_graph_mask, int* g_updating_mask, bool* g_graph_visited,
                           int* g_over, int no_of_nodes) {
  int tid = blockIdx.x * BLOCK + threadIdx.x;
  if (tid < no_of_nodes && g_updating_mask[tid]) {
    g_graph_mask[tid] = true;
    g_graph_visited[tid] = true;
    atomicOr(g_over, 1);
    g_updating_mask[tid] = 0;
  }
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    fprintf(stderr, "no CUDA device\n");
    return 77;
  }
  const int n = NODES;
  const int source = 0;
  static_assert(NODES <= GRID * BLOCK, "one thread per node");

  // undirected graph with local edges, as adjacency lists, then CSR
  std::vector<std::vector<int>> adj(n);
  for (int i = 0; i < n; ++i)
    for (int e = 0; e < EDGES_PER_NODE; ++e) {
      int j = i + 1 + int(lcg() % REACH);
      if (j < n) {
        adj[i].push_back(j);
        adj[j].push_back(i);
      }
    }
  std::vector<Node> h_nodes(n);
  std::vector<int> h_edges;
  for (int i = 0; i < n; ++i) {
    h_nodes[i].starting = int(h_edges.size());
    h_nodes[i].no_of_edges = int(adj[i].size());
    h_edges.insert(h_edges.end(), adj[i].begin(), adj[i].end());
  }
  const int m = int(h_edges.size());

  std::vector<char> h_mask(n, 0), h_visited(n, 0);
  std::vector<int> h_cost(n, -1), h_parent(n, -1), h_updating(n, 0);
  h_mask[source] = 1;
  h_visited[source] = 1;
  h_cost[source] = 0;
  h_parent[source] = source;

  Node* d_nodes = nullptr;
  int *d_edges = nullptr, *d_cost = nullptr, *d_parent = nullptr, *d_updating = nullptr,
      *d_over = nullptr;
  bool *d_mask = nullptr, *d_visited = nullptr;
  CHECK(cudaMalloc(&d_nodes, n * sizeof(Node)));
  CHECK(cudaMalloc(&d_edges, m * sizeof(int)));
  CHECK(cudaMalloc(&d_mask, n * sizeof(bool)));
  CHECK(cudaMalloc(&d_updating, n * sizeof(int)));
  CHECK(cudaMalloc(&d_visited, n * sizeof(bool)));
  CHECK(cudaMalloc(&d_cost, n * sizeof(int)));
  CHECK(cudaMalloc(&d_parent, n * sizeof(int)));
  CHECK(cudaMalloc(&d_over, sizeof(int)));
  CHECK(cudaMemcpy(d_nodes, h_nodes.data(), n * sizeof(Node), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_edges, h_edges.data(), m * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_mask, h_mask.data(), n * sizeof(bool), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_updating, h_updating.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_visited, h_visited.data(), n * sizeof(bool), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_cost, h_cost.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_parent, h_parent.data(), n * sizeof(int), cudaMemcpyHostToDevice));

  cudaEvent_t ev_start, ev_stop;
  CHECK(cudaEventCreate(&ev_start));
  CHECK(cudaEventCreate(&ev_stop));
  int iterations = 0;
  int over = 0;
  CHECK(cudaEventRecord(ev_start));
  do {
    over = 0;
    CHECK(cudaMemcpy(d_over, &over, sizeof(int), cudaMemcpyHostToDevice));
    bfs_expand<<<GRID, BLOCK>>>(d_nodes, d_edges, d_mask, d_updating, d_visited, d_cost, d_parent,
                                n);
    CHECK(cudaGetLastError());
    bfs_update<<<GRID, BLOCK>>>(d_mask, d_updating, d_visited, d_over, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(&over, d_over, sizeof(int), cudaMemcpyDeviceToHost));
    ++iterations;
  } while (over != 0 && iterations <= n);
  CHECK(cudaEventRecord(ev_stop));
  CHECK(cudaEventSynchronize(ev_stop));
  float gpu_ms = 0.0f;
  CHECK(cudaEventElapsedTime(&gpu_ms, ev_start, ev_stop));
  fprintf(stderr, "gpu_ms %.3f\n", gpu_ms);

  std::vector<int> res_cost(n), res_parent(n);
  CHECK(cudaMemcpy(res_cost.data(), d_cost, n * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(res_parent.data(), d_parent, n * sizeof(int), cudaMemcpyDeviceToHost));

  // CPU reference: queue BFS for the levels; the parent of v is its largest in-neighbour one
  // level closer to the source.
  std::vector<int> r_cost(n, -1), r_parent(n, -1);
  std::deque<int> queue;
  r_cost[source] = 0;
  queue.push_back(source);
  while (!queue.empty()) {
    int u = queue.front();
    queue.pop_front();
    for (int v : adj[u])
      if (r_cost[v] < 0) {
        r_cost[v] = r_cost[u] + 1;
        queue.push_back(v);
      }
  }
  r_parent[source] = source;
  for (int u = 0; u < n; ++u)
    for (int v : adj[u])
      if (r_cost[u] >= 0 && r_cost[v] == r_cost[u] + 1 && u > r_parent[v]) r_parent[v] = u;
  int max_cost = 0, reached = 0;
  for (int v = 0; v < n; ++v) {
    if (r_cost[v] > max_cost) max_cost = r_cost[v];
    if (r_cost[v] >= 0) ++reached;
  }
  bool ok = iterations == max_cost + 1;
  for (int v = 0; v < n; ++v)
    if (res_cost[v] != r_cost[v] || res_parent[v] != r_parent[v]) ok = false;

  int res_max = 0, res_reached = 0;
  for (int v = 0; v < n; ++v) {
    if (res_cost[v] > res_max) res_max = res_cost[v];
    if (res_cost[v] >= 0) ++res_reached;
  }
  printf("nodes %d  edges %d  levels %d  reached %d  max cost %d\n", n, m, iterations, res_reached,
         res_max);
  printf("cost[%d] %d  parent[%d] %d  cost[%d] %d  parent[%d] %d\n", n / 2, res_cost[n / 2], n / 2,
         res_parent[n / 2], n - 1, res_cost[n - 1], n - 1, res_parent[n - 1]);
  uint64_t h = fnv1a(res_cost.data(), n * sizeof(int));
  printf("hash %016llx\n", (unsigned long long)fnv1a(res_parent.data(), n * sizeof(int), h));
  CHECK(cudaEventDestroy(ev_start));
  CHECK(cudaEventDestroy(ev_stop));
  CHECK(cudaFree(d_nodes));
  CHECK(cudaFree(d_edges));
  CHECK(cudaFree(d_mask));
  CHECK(cudaFree(d_updating));
  CHECK(cudaFree(d_visited));
  CHECK(cudaFree(d_cost));
  CHECK(cudaFree(d_parent));
  CHECK(cudaFree(d_over));
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
