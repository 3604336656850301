// hccl_test: the performance tool of CANN's HCCL Test (all_reduce_test, all_gather_test, ...), with its
// command line and output, on npurt. The operation comes from the program's name (the package installs
// one link per operation), or from --op_name. Ranks are the simulated devices of this process, one thread
// each (-p, default: every device); or, launched by mpirun as CANN's tool is (when built with Open MPI),
// one rank per process on device rank % npus (or HCCL_TEST_USE_DEVS), the root info sent with MPI_Bcast
// and the ranks joined by npurt's Gloo transport. Each rank times `iters` back-to-back operations between two events on its
// stream after `warmup_iters`, and rank 0 prints, for every size, the per-rank buffer size, the average
// time, the algorithm bandwidth (bytes per rank / time, as hccl_test prints it) and, beside it, the bus
// bandwidth as nccl-tests define it, then whether the result was right.
//
//   all_reduce_test -b 8 -e 64M -f 2 -d fp32 -o sum -p 8
#include <acl/acl.h>
#include <hccl/hccl.h>
#ifdef NPURT_HCCL_TEST_MPI
#include <mpi.h>
#endif

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace {

struct Options {
  std::string op = "all_reduce";
  uint64_t min_bytes = 64ull << 20, max_bytes = 64ull << 20, step_bytes = 0;
  double factor = 0;
  HcclReduceOp reduce = HCCL_REDUCE_SUM;
  HcclDataType dtype = HCCL_DATA_TYPE_FP32;
  uint32_t root = 0, ranks = 0, iters = 20, warmup = 5;
  bool check = true;
};

void Usage() {
  std::puts(
      "usage: <op>_test [-b minbytes] [-e maxbytes] [-i stepbytes | -f stepfactor] [-d datatype] [-o op] [-r root]\n"
      "                 [-p npus] [-n iters] [-w warmup_iters] [-c 0|1] [--op_name all_reduce|...]\n"
      "  ops: all_reduce all_gather broadcast reduce_scatter reduce alltoall alltoallv scatter allgatherv\n"
      "       reduce_scatterv\n"
      "  -d: int8 int16 int32 fp16 fp32 int64 uint64 uint8 uint16 uint32 fp64 bfp16   -o: sum prod max min\n"
      "  sizes take K, M and G; ranks are this process's simulated devices (-p, default all of them)");
}

bool ParseBytes(const char* s, uint64_t* out) {
  char* end = nullptr;
  const double v = std::strtod(s, &end);
  if (end == s || v < 0) return false;
  uint64_t mul = 1;
  switch (*end) {
    case 'K': case 'k': mul = 1ull << 10; ++end; break;
    case 'M': case 'm': mul = 1ull << 20; ++end; break;
    case 'G': case 'g': mul = 1ull << 30; ++end; break;
    default: break;
  }
  if (*end != '\0') return false;
  *out = static_cast<uint64_t>(v * static_cast<double>(mul));
  return true;
}

const char* kTypeNames[] = {"int8", "int16", "int32", "fp16", "fp32", "int64", "uint64", "uint8", "uint16", "uint32", "fp64", "bfp16"};
const size_t kTypeSizes[] = {1, 2, 4, 2, 4, 8, 8, 1, 2, 4, 8, 2};

bool Parse(int argc, char** argv, Options* o) {
  std::string prog = argv[0];
  prog = prog.substr(prog.rfind('/') == std::string::npos ? 0 : prog.rfind('/') + 1);
  if (prog.size() > 5 && prog.compare(prog.size() - 5, 5, "_test") == 0 && prog != "hccl_test") o->op = prog.substr(0, prog.size() - 5);
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
    const char* v = nullptr;
    if (a == "-h" || a == "--help") return false;
    if ((v = value()) == nullptr) return false;
    if (a == "-b" || a == "--minbytes") { if (!ParseBytes(v, &o->min_bytes)) return false; }
    else if (a == "-e" || a == "--maxbytes") { if (!ParseBytes(v, &o->max_bytes)) return false; }
    else if (a == "-i" || a == "--stepbytes") { if (!ParseBytes(v, &o->step_bytes)) return false; }
    else if (a == "-f" || a == "--stepfactor") { o->factor = std::atof(v); if (o->factor <= 1) return false; }
    else if (a == "-n" || a == "--iters") o->iters = static_cast<uint32_t>(std::atoi(v));
    else if (a == "-w" || a == "--warmup_iters") o->warmup = static_cast<uint32_t>(std::atoi(v));
    else if (a == "-p" || a == "--npus") o->ranks = static_cast<uint32_t>(std::atoi(v));
    else if (a == "-r" || a == "--root") o->root = static_cast<uint32_t>(std::atoi(v));
    else if (a == "-c" || a == "--check") o->check = std::atoi(v) != 0;
    else if (a == "-z" || a == "--zero_copy") { if (std::atoi(v) != 0) { std::fprintf(stderr, "-z 1 (zero-copy memory ranges) is not supported by npurt\n"); return false; } }
    else if (a == "--op_name") o->op = v;
    else if (a == "-o" || a == "--op") {
      const std::string s = v;
      if (s == "sum") o->reduce = HCCL_REDUCE_SUM; else if (s == "prod") o->reduce = HCCL_REDUCE_PROD;
      else if (s == "max") o->reduce = HCCL_REDUCE_MAX; else if (s == "min") o->reduce = HCCL_REDUCE_MIN; else return false;
    } else if (a == "-d" || a == "--datatype") {
      int found = -1;
      for (int t = 0; t < 12; ++t) if (std::strcmp(v, kTypeNames[t]) == 0) found = t;
      if (found < 0) return false;
      o->dtype = static_cast<HcclDataType>(found);
    } else {
      return false;
    }
  }
  if (o->iters == 0 || o->min_bytes > o->max_bytes) return false;
  if (o->step_bytes == 0 && o->factor == 0) o->step_bytes = (o->max_bytes - o->min_bytes) / 10;
  return true;
}

// How many bytes a rank moves per size unit, and nccl-tests' bus-bandwidth factor.
double BusFactor(const std::string& op, uint32_t n) {
  if (op == "all_reduce") return 2.0 * (n - 1) / n;
  if (op == "broadcast" || op == "reduce") return 1.0;
  return static_cast<double>(n - 1) / n;
}

struct Shared {
  Options o;
  uint32_t n = 0;
  std::vector<HcclComm> comms;
  std::atomic<int> failed{0};
  std::atomic<int> wrong{0};
};

double Value(uint32_t rank, uint64_t i) { return static_cast<double>((rank + i) % 3 + 1); }

void Fill(std::vector<uint8_t>& host, HcclDataType t, uint32_t rank, uint64_t count) {
  for (uint64_t i = 0; i < count; ++i) {
    const double v = Value(rank, i);
    uint8_t* p = host.data() + i * kTypeSizes[t];
    switch (t) {
      case HCCL_DATA_TYPE_INT8: case HCCL_DATA_TYPE_UINT8: *p = static_cast<uint8_t>(v); break;
      case HCCL_DATA_TYPE_INT16: case HCCL_DATA_TYPE_UINT16: { uint16_t x = static_cast<uint16_t>(v); std::memcpy(p, &x, 2); break; }
      case HCCL_DATA_TYPE_INT32: case HCCL_DATA_TYPE_UINT32: { uint32_t x = static_cast<uint32_t>(v); std::memcpy(p, &x, 4); break; }
      case HCCL_DATA_TYPE_INT64: case HCCL_DATA_TYPE_UINT64: { uint64_t x = static_cast<uint64_t>(v); std::memcpy(p, &x, 8); break; }
      case HCCL_DATA_TYPE_FP32: { float x = static_cast<float>(v); std::memcpy(p, &x, 4); break; }
      case HCCL_DATA_TYPE_FP64: std::memcpy(p, &v, 8); break;
      case HCCL_DATA_TYPE_FP16: {
        static const uint16_t kHalf[] = {0x3c00, 0x4000, 0x4200};  // 1.0, 2.0, 3.0: Value() is 1, 2 or 3
        std::memcpy(p, &kHalf[static_cast<int>(v) - 1], 2);
        break;
      }
      default: { float f = static_cast<float>(v); uint32_t b; std::memcpy(&b, &f, 4); uint16_t x = static_cast<uint16_t>(b >> 16); std::memcpy(p, &x, 2); break; }
    }
  }
}

double Load(const uint8_t* p, HcclDataType t) {
  switch (t) {
    case HCCL_DATA_TYPE_INT8: return static_cast<int8_t>(*p);
    case HCCL_DATA_TYPE_UINT8: return *p;
    case HCCL_DATA_TYPE_INT16: { int16_t x; std::memcpy(&x, p, 2); return x; }
    case HCCL_DATA_TYPE_UINT16: { uint16_t x; std::memcpy(&x, p, 2); return x; }
    case HCCL_DATA_TYPE_INT32: { int32_t x; std::memcpy(&x, p, 4); return x; }
    case HCCL_DATA_TYPE_UINT32: { uint32_t x; std::memcpy(&x, p, 4); return x; }
    case HCCL_DATA_TYPE_INT64: { int64_t x; std::memcpy(&x, p, 8); return static_cast<double>(x); }
    case HCCL_DATA_TYPE_UINT64: { uint64_t x; std::memcpy(&x, p, 8); return static_cast<double>(x); }
    case HCCL_DATA_TYPE_FP32: { float x; std::memcpy(&x, p, 4); return x; }
    case HCCL_DATA_TYPE_FP64: { double x; std::memcpy(&x, p, 8); return x; }
    case HCCL_DATA_TYPE_FP16: {
      uint16_t h; std::memcpy(&h, p, 2);
      const int e = (h >> 10) & 0x1f, m = h & 0x3ff;
      const double v = e == 0 ? std::ldexp(m, -24) : std::ldexp(m | 0x400, e - 25);
      return (h & 0x8000) ? -v : v;
    }
    default: { uint16_t b; std::memcpy(&b, p, 2); uint32_t w = static_cast<uint32_t>(b) << 16; float f; std::memcpy(&f, &w, 4); return f; }
  }
}

// The expected element i of rank r's output, or NAN when there is no single answer to check.
double Expected(const Options& o, uint32_t n, uint32_t rank, uint64_t i, uint64_t count) {
  auto reduce = [&](uint64_t idx) {
    double acc = Value(0, idx);
    for (uint32_t r = 1; r < n; ++r) {
      const double v = Value(r, idx);
      acc = o.reduce == HCCL_REDUCE_SUM ? acc + v : o.reduce == HCCL_REDUCE_PROD ? acc * v
          : o.reduce == HCCL_REDUCE_MAX ? std::max(acc, v) : std::min(acc, v);
    }
    return acc;
  };
  if (o.op == "all_reduce") return reduce(i);
  if (o.op == "reduce") return rank == o.root ? reduce(i) : NAN;
  if (o.op == "broadcast") return Value(o.root, i);
  if (o.op == "all_gather" || o.op == "allgatherv") return Value(static_cast<uint32_t>(i / count), i % count);
  if (o.op == "reduce_scatter" || o.op == "reduce_scatterv") return reduce(rank * count + i);
  if (o.op == "scatter") return Value(o.root, rank * count + i);
  if (o.op == "alltoall" || o.op == "alltoallv") return Value(static_cast<uint32_t>(i / count), rank * count + i % count);
  return NAN;
}

HcclResult Issue(const Options& o, uint32_t n, uint32_t rank, void* send, void* recv, uint64_t count, HcclComm comm,
                 aclrtStream stream, const std::vector<uint64_t>& counts, const std::vector<uint64_t>& displs) {
  const HcclDataType t = o.dtype;
  if (o.op == "all_reduce") return HcclAllReduce(send, recv, count, t, o.reduce, comm, stream);
  if (o.op == "all_gather") return HcclAllGather(send, recv, count, t, comm, stream);
  if (o.op == "broadcast") return HcclBroadcast(recv, count, t, o.root, comm, stream);
  if (o.op == "reduce_scatter") return HcclReduceScatter(send, recv, count, t, o.reduce, comm, stream);
  if (o.op == "reduce") return HcclReduce(send, recv, count, t, o.reduce, o.root, comm, stream);
  if (o.op == "scatter") return HcclScatter(send, recv, count, t, o.root, comm, stream);
  if (o.op == "alltoall") return HcclAlltoAll(send, count, t, recv, count, t, comm, stream);
  if (o.op == "alltoallv") return HcclAlltoAllV(send, counts.data(), displs.data(), t, recv, counts.data(), displs.data(), t, comm, stream);
  if (o.op == "allgatherv") return HcclAllGatherV(send, count, recv, counts.data(), displs.data(), t, comm, stream);
  if (o.op == "reduce_scatterv") return HcclReduceScatterV(send, counts.data(), displs.data(), recv, count, t, o.reduce, comm, stream);
  (void)n;
  (void)rank;
  return HCCL_E_NOT_SUPPORT;
}

void RankThread(Shared* sh, uint32_t rank, int32_t device) {
  const Options& o = sh->o;
  const uint32_t n = sh->n;
  const size_t es = kTypeSizes[o.dtype];
  aclrtSetDevice(device);
  aclrtStream stream = nullptr;
  aclrtEvent start = nullptr, end = nullptr;
  aclrtCreateStream(&stream);
  aclrtCreateEvent(&start);
  aclrtCreateEvent(&end);
  const uint64_t max_count = std::max<uint64_t>(o.max_bytes / es, 1);
  // Every op's buffers fit in max_count * n elements on both sides.
  void* send = nullptr;
  void* recv = nullptr;
  const size_t bytes = max_count * n * es;
  if (aclrtMalloc(&send, bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS ||
      aclrtMalloc(&recv, bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
    std::fprintf(stderr, "rank %u: aclrtMalloc of %zu bytes failed: %s\n", rank, bytes, aclGetRecentErrMsg());
    sh->failed = 1;
    return;
  }
  std::vector<uint8_t> host(bytes);
  Fill(host, o.dtype, rank, max_count * n);
  aclrtMemcpy(send, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
  if (rank == 0) {
    std::printf("the minbytes is %llu, maxbytes is %llu, iters is %u, warmup_iters is %u\n",
                static_cast<unsigned long long>(o.min_bytes), static_cast<unsigned long long>(o.max_bytes), o.iters, o.warmup);
    std::printf("%-17s %-16s %-22s %-22s %s\n", "data_size(Bytes):", "| aveg_time(us):", "| alg_bandwidth(GB/s):",
                "| bus_bandwidth(GB/s):", "| check_result:");
  }
  for (uint64_t size = o.min_bytes;;) {
    const uint64_t count = std::max<uint64_t>(size / es, 1);
    std::vector<uint64_t> counts(n, count), displs(n);
    for (uint32_t j = 0; j < n; ++j) displs[j] = j * count;
    if (o.op == "broadcast") aclrtMemcpy(recv, count * es, host.data(), count * es, ACL_MEMCPY_HOST_TO_DEVICE);
    HcclResult rc = HCCL_SUCCESS;
    for (uint32_t i = 0; i < o.warmup && rc == HCCL_SUCCESS; ++i) rc = Issue(o, n, rank, send, recv, count, sh->comms[rank], stream, counts, displs);
    aclrtRecordEvent(start, stream);
    for (uint32_t i = 0; i < o.iters && rc == HCCL_SUCCESS; ++i) rc = Issue(o, n, rank, send, recv, count, sh->comms[rank], stream, counts, displs);
    aclrtRecordEvent(end, stream);
    if (rc != HCCL_SUCCESS || aclrtSynchronizeStream(stream) != ACL_SUCCESS) {
      std::fprintf(stderr, "rank %u: %s_test failed at %llu bytes: %s\n", rank, o.op.c_str(), static_cast<unsigned long long>(size),
                   aclGetRecentErrMsg());
      sh->failed = 1;
      break;
    }
    float ms = 0;
    aclrtEventElapsedTime(&ms, start, end);
    const char* verdict = "NULL";
    if (o.check) {
      const uint64_t out_count = (o.op == "all_gather" || o.op == "allgatherv" || o.op == "alltoall" || o.op == "alltoallv") ? count * n : count;
      std::vector<uint8_t> out(out_count * es);
      aclrtMemcpy(out.data(), out.size(), recv, out.size(), ACL_MEMCPY_DEVICE_TO_HOST);
      bool ok = true;
      for (uint64_t i = 0; i < out_count && ok; ++i) {
        const double want = Expected(o, n, rank, i, count);
        if (!std::isnan(want) && Load(out.data() + i * es, o.dtype) != want) ok = false;
      }
      if (!ok) sh->wrong = 1;
      verdict = ok ? "success" : "failed";
    }
    if (rank == 0) {
      const double us = ms * 1000.0 / o.iters;
      const double alg = static_cast<double>(count * es) / (us * 1e3);
      std::printf("%-17llu | %-14.2f | %-20.5f | %-20.5f | %s\n", static_cast<unsigned long long>(count * es), us, alg,
                  alg * BusFactor(o.op, n), sh->wrong ? "failed" : verdict);
      std::fflush(stdout);
    }
    uint64_t next = o.factor > 0 ? static_cast<uint64_t>(static_cast<double>(size) * o.factor) : size + o.step_bytes;
    if (next <= size || next > o.max_bytes) break;
    size = next;
  }
  aclrtFree(send);
  aclrtFree(recv);
  aclrtDestroyEvent(start);
  aclrtDestroyEvent(end);
  aclrtDestroyStream(stream);
}

// Under mpirun: this process is MPI rank r of the job and HCCL rank r; rank 0 makes the root info.
bool UnderMpi() {
  const char* size = std::getenv("OMPI_COMM_WORLD_SIZE");
  return size != nullptr && *size != '\0';
}

#ifdef NPURT_HCCL_TEST_MPI
int MpiMain(Shared* sh) {
  int provided = 0, rank = 0, size = 0;
  MPI_Init_thread(nullptr, nullptr, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int rc = 1;
  uint32_t devices = 0;
  if (aclInit(nullptr) == ACL_SUCCESS && aclrtGetDeviceCount(&devices) == ACL_SUCCESS && devices > 0) {
    // HCCL_TEST_USE_DEVS="4,5,6,7" picks the devices by local rank, as CANN's tool does; else rank % npus.
    std::vector<int32_t> use;
    if (const char* list = std::getenv("HCCL_TEST_USE_DEVS")) {
      for (const char* p = list; *p != '\0';) {
        use.push_back(std::atoi(p));
        while (*p != '\0' && *p != ',') ++p;
        if (*p == ',') ++p;
      }
    }
    const uint32_t npus = sh->o.ranks == 0 ? devices : std::min(sh->o.ranks, devices);
    const int32_t device = use.empty() ? static_cast<int32_t>(static_cast<uint32_t>(rank) % npus)
                                       : use[static_cast<size_t>(rank) % use.size()];
    HcclRootInfo root{};
    bool ok = aclrtSetDevice(device) == ACL_SUCCESS;
    if (rank == 0 && (!ok || HcclGetRootInfo(&root) != HCCL_SUCCESS)) {
      std::fprintf(stderr, "rank 0: HcclGetRootInfo failed: %s\n", aclGetRecentErrMsg());
      std::memset(&root, 0, sizeof(root));  // the others then fail to join, with the reason
    }
    MPI_Bcast(&root, sizeof(root), MPI_CHAR, 0, MPI_COMM_WORLD);
    HcclComm comm = nullptr;
    if (ok && HcclCommInitRootInfo(static_cast<uint32_t>(size), &root, static_cast<uint32_t>(rank), &comm) == HCCL_SUCCESS) {
      sh->n = static_cast<uint32_t>(size);
      sh->comms.assign(sh->n, nullptr);
      sh->comms[static_cast<size_t>(rank)] = comm;
      if (sh->o.root >= sh->n) {
        std::fprintf(stderr, "-r %u is not a rank of %u\n", sh->o.root, sh->n);
      } else {
        RankThread(sh, static_cast<uint32_t>(rank), device);
        rc = sh->failed || sh->wrong ? 1 : 0;
      }
      HcclCommDestroy(comm);
    } else {
      std::fprintf(stderr, "rank %d: HcclCommInitRootInfo failed: %s\n", rank, aclGetRecentErrMsg());
    }
    aclrtResetDevice(device);
    aclFinalize();
  }
  int worst = 0;
  MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return worst;
}
#endif

}  // namespace

int main(int argc, char** argv) {
  Shared sh;
  if (!Parse(argc, argv, &sh.o)) {
    Usage();
    return 1;
  }
  if (UnderMpi()) {
#ifdef NPURT_HCCL_TEST_MPI
    return MpiMain(&sh);
#else
    std::fprintf(stderr, "this hccl_test was built without Open MPI: run it without mpirun (-p ranks as threads)\n");
    return 1;
#endif
  }
  if (aclInit(nullptr) != ACL_SUCCESS) {
    std::fprintf(stderr, "aclInit failed: %s\n", aclGetRecentErrMsg());
    return 1;
  }
  uint32_t devices = 0;
  aclrtGetDeviceCount(&devices);
  sh.n = sh.o.ranks == 0 ? devices : sh.o.ranks;
  if (sh.n == 0 || sh.n > devices || sh.o.root >= sh.n) {
    std::fprintf(stderr, "-p %u ranks (root %u) need as many simulated devices; this process has %u (NPURT_SIM_DEVICE_COUNT)\n",
                 sh.n, sh.o.root, devices);
    return 1;
  }
  std::vector<int32_t> ids(sh.n);
  for (uint32_t i = 0; i < sh.n; ++i) {
    ids[i] = static_cast<int32_t>(i);
    aclrtSetDevice(ids[i]);
  }
  sh.comms.resize(sh.n);
  if (HcclCommInitAll(sh.n, ids.data(), sh.comms.data()) != HCCL_SUCCESS) {
    std::fprintf(stderr, "HcclCommInitAll failed: %s\n", aclGetRecentErrMsg());
    return 1;
  }
  std::vector<std::thread> threads;
  for (uint32_t r = 0; r < sh.n; ++r) threads.emplace_back(RankThread, &sh, r, ids[r]);
  for (auto& t : threads) t.join();
  for (HcclComm c : sh.comms) HcclCommDestroy(c);
  for (int32_t id : ids) aclrtResetDevice(id);
  aclFinalize();
  return sh.failed || sh.wrong ? 1 : 0;
}
