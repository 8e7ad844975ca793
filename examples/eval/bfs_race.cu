// Breadth-first search, Rodinia style: level-synchronous, two kernels per level, one thread per
// node (16 blocks of 256 threads over 4000 nodes). The graph is undirected, in CSR form (a Node
// per vertex: first edge and edge count; an edge array), generated with local edges (every node
// links to 3 nodes at most 40 ahead), so the search from node 0 takes about 120 levels.
// bfs_expand: every frontier node (g_graph_mask) leaves the frontier and writes cost + 1, itself
// as parent and the updating flag into each unvisited neighbour; bfs_update: every flagged node
// joins the next frontier, is marked visited and sets the "not done" flag g_over. The host
// repeats both kernels until g_over stays 0.
// RACE (write-write and read-write, global, between blocks), as in Rodinia's bfs: a node reached
// from several frontier nodes is written by all of them with plain stores, often from different
// blocks (the frontier crosses a block boundary every few levels): g_cost (same value from every
// writer), g_parent (different values: which frontier node lands last decides the BFS tree, so
// the hash can change from run to run) and g_updating_mask in kernel bfs_expand; every block that
// flags a node stores 1 into *g_over in kernel bfs_update. The read-write race: a node counts as
// unvisited while its cost is still -1, so a frontier node reads g_cost[id] while another block
// may be writing it in the same launch. The levels (g_cost) stay correct.
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
      if (g_cost[id] < 0) {  // race (rw): another block may be writing g_cost[id] now
        g_cost[id] = next_cost;      // race: several frontier nodes write the same neighbour
        g_parent[id] = tid;
        g_updating_mask[id] = 1;
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
    *g_over = 1;  // race: every block with a new frontier node stores it
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
  return 0;
}
