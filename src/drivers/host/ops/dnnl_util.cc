#include "drivers/host/ops/dnnl_util.h"

#include <functional>
#include <mutex>
#include <string_view>
#include <vector>


#include "acl/acl_base_rt.h"
#include "acl/error_codes/rt_error_codes.h"
#include "drivers/host/ops/host_op.h"

namespace npurt::drivers::host::dnnl_util {

dnnl::engine& Engine() {
  static dnnl::engine* e = new dnnl::engine(dnnl::engine::kind::cpu, 0);
  return *e;
}

dnnl::stream& ThreadStream() {
  thread_local dnnl::stream s(Engine());
  return s;
}

namespace {

struct PackedEntry {
  const void* src;
  dnnl::memory::desc from, to;
  size_t hash;
  std::weak_ptr<dnnl::memory> packed;
};

struct PackedCache {
  std::mutex mu;
  std::vector<PackedEntry> entries;
};

PackedCache& Packed() {
  static auto* c = new PackedCache();  // never destroyed: kernels may outlive static destruction
  return *c;
}

}  // namespace

std::shared_ptr<dnnl::memory> PackConstant(const void* src, const dnnl::memory::desc& from,
                                           const dnnl::memory::desc& to) {
  const size_t hash = std::hash<std::string_view>{}(std::string_view(static_cast<const char*>(src), from.get_size()));
  PackedCache& c = Packed();
  std::lock_guard<std::mutex> lock(c.mu);
  for (const PackedEntry& e : c.entries) {
    if (e.src != src || e.hash != hash || e.from != from || e.to != to) continue;
    if (auto live = e.packed.lock()) return live;
  }
  auto packed = std::make_shared<dnnl::memory>(to, Engine());
  dnnl::memory user(from, Engine(), const_cast<void*>(src));
  dnnl::reorder(user, *packed).execute(ThreadStream(), user, *packed);
  ThreadStream().wait();
  std::erase_if(c.entries, [](const PackedEntry& e) { return e.packed.expired(); });
  c.entries.push_back(PackedEntry{src, from, to, hash, packed});
  return packed;
}

size_t PackedConstantCount() {
  PackedCache& c = Packed();
  std::lock_guard<std::mutex> lock(c.mu);
  size_t n = 0;
  for (const PackedEntry& e : c.entries) n += e.packed.expired() ? 0 : 1;
  return n;
}

namespace {
bool Has(dnnl::cpu_isa isa) {
  const auto mask = static_cast<unsigned>(isa);
  return (static_cast<unsigned>(dnnl::get_effective_cpu_isa()) & mask) == mask;  // ISAs are nested bit sets
}
}  // namespace

bool NativeBf16() {
  static const bool native = Has(dnnl::cpu_isa::avx512_core);
  return native;
}

bool Bf16Instructions() {
  static const bool has = Has(dnnl::cpu_isa::avx512_core_bf16);
  return has;
}

int NativeC0() {
  static const int c0 = Has(dnnl::cpu_isa::avx512_core) ? 16 : 8;
  return c0;
}

dnnl::memory::desc BlockedDesc(int64_t n, int64_t c, int64_t h, int64_t w, int64_t c0, dnnl::memory::data_type dt) {
  return dnnl::memory::desc({n, c, h, w}, dt, c0 == 16 ? dnnl::memory::format_tag::nChw16c
                                                       : dnnl::memory::format_tag::nChw8c);
}

bool NativeInt8() {
  static const bool native = Has(dnnl::cpu_isa::avx512_core_vnni) || Has(dnnl::cpu_isa::avx2_vnni);
  return native;
}

dnnl::memory::data_type ToDnnl(int32_t dtype) {
  using dt = dnnl::memory::data_type;
  switch (dtype) {
    case ACL_FLOAT: return dt::f32;
    case ACL_FLOAT16: return dt::f16;
    case ACL_BF16: return dt::bf16;
    case ACL_INT32: return dt::s32;
    case ACL_INT8: return dt::s8;
    case ACL_UINT8: return dt::u8;
    default: return dt::undef;
  }
}

Status Execute(const dnnl::primitive& prim, const dnnl::memory::desc& scratchpad,
               std::unordered_map<int, dnnl::memory>& args, const char* what) {
  return Guard(ACL_ERROR_RT_AICORE_EXCEPTION, what, [&] {
    const size_t sp = scratchpad.get_size();
    if (sp != 0) {
      void* mem = Scratch(sp, 0);
      if (mem == nullptr) throw dnnl::error(dnnl_out_of_memory, "scratchpad allocation failed");
      args.insert_or_assign(DNNL_ARG_SCRATCHPAD, dnnl::memory(scratchpad, Engine(), mem));
    }
    prim.execute(ThreadStream(), args);
    ThreadStream().wait();
  });
}

}  // namespace npurt::drivers::host::dnnl_util
