// Fuzz target: kernel binaries, through aclrtBinaryLoadFromData, aclrtCreateBinary + aclrtBinaryLoad and
// aclrtBinaryLoadFromFile, then every query of the loaded binary and its functions.
//
// A kernel binary is a host shared object: the dynamic loader (glibc's ld.so) maps it and runs its
// code, and it trusts the ELF container (relocations, symbol and hash tables, initialisers) as it
// trusts every library a program loads. What npurt itself parses is the ELF header and program headers
// it checks before handing the image to the loader, and the kernel table (kernel_abi.h) it reads
// afterwards. The input therefore edits a valid template binary (seeds/kernel_template.so, built from
// seeds/kernel_seed.c) where npurt reads it, instead of replacing the container wholesale:
//
//   byte 0 % 4 == 0  header:   the bytes that follow overwrite the ELF header and the program headers
//   byte 0 % 4 == 1  truncate: the template cut to the length given by bytes 1-2 (a partial file)
//   otherwise        table:    the bytes that follow are patches (u16 position, u8 length, bytes) on the
//                              kernel table: .data.rel.ro, .rodata (names, strings) and the addends of
//                              the relocations that fill the table's pointers (so they may point anywhere)
//
// Bit 2 of byte 0 picks aclrtCreateBinary + aclrtBinaryLoad, bit 3 aclrtBinaryLoadFromFile, otherwise
// aclrtBinaryLoadFromData with load options from bit 4.
#include <elf.h>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "fuzz_util.h"

namespace {

using npurt_fuzz::Check;

std::vector<uint8_t> g_template;
std::vector<size_t> g_table_bytes;  // positions of the template the table mode may change
size_t g_headers_end = 0;           // end of the ELF header and the program headers

std::vector<uint8_t> ReadFile(const char* path) {
  std::vector<uint8_t> bytes;
  FILE* f = std::fopen(path, "rb");
  if (f == nullptr) {
    std::fprintf(stderr, "npurt fuzz: cannot open the kernel template %s\n", path);
    std::abort();
  }
  uint8_t buf[4096];
  for (size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) bytes.insert(bytes.end(), buf, buf + n);
  std::fclose(f);
  return bytes;
}

// The template is ours (built by seeds/make_kernel_seeds.sh): its section headers are trusted here.
void MapTemplate() {
  Elf64_Ehdr eh;
  if (g_template.size() < sizeof eh) std::abort();
  std::memcpy(&eh, g_template.data(), sizeof eh);
  g_headers_end = eh.e_phoff + size_t{eh.e_phnum} * eh.e_phentsize;
  if (eh.e_shoff + size_t{eh.e_shnum} * sizeof(Elf64_Shdr) > g_template.size()) std::abort();
  std::vector<Elf64_Shdr> sh(eh.e_shnum);
  std::memcpy(sh.data(), g_template.data() + eh.e_shoff, sh.size() * sizeof(Elf64_Shdr));
  const char* names = reinterpret_cast<const char*>(g_template.data() + sh[eh.e_shstrndx].sh_offset);
  for (const Elf64_Shdr& s : sh) {
    const std::string name = names + s.sh_name;
    if (name == ".data.rel.ro" || name == ".rodata") {
      for (size_t i = 0; i < s.sh_size; ++i) g_table_bytes.push_back(s.sh_offset + i);
    } else if (name == ".rela.dyn") {
      for (size_t r = 0; r + sizeof(Elf64_Rela) <= s.sh_size; r += sizeof(Elf64_Rela)) {
        for (size_t i = offsetof(Elf64_Rela, r_addend); i < sizeof(Elf64_Rela); ++i) {
          g_table_bytes.push_back(s.sh_offset + r + i);
        }
      }
    }
  }
  if (g_table_bytes.empty()) std::abort();
}

std::vector<uint8_t> BuildImage(const uint8_t* data, size_t size) {
  std::vector<uint8_t> img = g_template;
  const uint8_t mode = data[0] % 4;
  data += 1;
  size -= 1;
  if (mode == 0) {
    std::memcpy(img.data(), data, std::min(size, g_headers_end));
  } else if (mode == 1) {
    const size_t len = size >= 2 ? (size_t{data[0]} | size_t{data[1]} << 8) % (img.size() + 1) : 0;
    img.resize(len);
  } else {
    for (size_t at = 0; at + 3 <= size;) {
      size_t pos = (size_t{data[at]} | size_t{data[at + 1]} << 8) % g_table_bytes.size();
      const size_t len = data[at + 2] % 16 + 1;
      at += 3;
      for (size_t i = 0; i < len && at < size; ++i, ++at, pos = (pos + 1) % g_table_bytes.size()) {
        img[g_table_bytes[pos]] = data[at];
      }
    }
  }
  return img;
}

void Inspect(aclrtBinHandle bin) {
  void* addr = nullptr;
  size_t bytes = 0;
  Check(aclrtBinaryGetDevAddress(bin, &addr, &bytes), "aclrtBinaryGetDevAddress");
  Check(aclrtBinaryGetGlobal(bin, "npurt_kernel_table", &addr, &bytes), "aclrtBinaryGetGlobal");
  Check(aclrtBinaryGetGlobal(bin, "no_such_global", &addr, &bytes), "aclrtBinaryGetGlobal");
  aclrtFuncHandle f = nullptr;
  Check(aclrtBinaryGetFunction(bin, "no_such_kernel", &f), "aclrtBinaryGetFunction");
  for (uint64_t i = 0; i < 64; ++i) {
    if (aclrtBinaryGetFunctionByEntry(bin, i, &f) != ACL_SUCCESS) {
      Check(ACL_ERROR_INVALID_PARAM, "aclrtBinaryGetFunctionByEntry");
      break;
    }
    char name[256];
    if (Check(aclrtGetFunctionName(f, sizeof name, name), "aclrtGetFunctionName") == ACL_SUCCESS) {
      aclrtFuncHandle same = nullptr;
      if (Check(aclrtBinaryGetFunction(bin, name, &same), "aclrtBinaryGetFunction") != ACL_SUCCESS) std::abort();
    }
    size_t params = 0, offset = 0, size = 0, aic = 0, aiv = 0;
    Check(aclrtFunctionGetParamCount(f, &params), "aclrtFunctionGetParamCount");
    for (size_t p = 0; p <= params && p < 16; ++p) {
      Check(aclrtFunctionGetParamInfo(f, p, &offset, &size), "aclrtFunctionGetParamInfo");
    }
    Check(aclrtGetFunctionSize(f, &aic, &aiv), "aclrtGetFunctionSize");
    void* aic_addr = nullptr;
    void* aiv_addr = nullptr;
    Check(aclrtGetFunctionAddr(f, &aic_addr, &aiv_addr), "aclrtGetFunctionAddr");
    aclrtFuncHandle by_symbol = nullptr;
    Check(aclrtGetFuncBySymbol(aic_addr, &by_symbol), "aclrtGetFuncBySymbol");
    int64_t attr = 0;
    Check(aclrtGetFunctionAttribute(f, ACL_FUNC_ATTR_KERNEL_TYPE, &attr), "aclrtGetFunctionAttribute");
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  (void)npurt_fuzz::ScratchDir();
  g_template = ReadFile(NPURT_FUZZ_KERNEL_TEMPLATE);
  MapTemplate();
  if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) std::abort();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::vector<uint8_t> img = BuildImage(data, size);
  const uint8_t how = data[0];
  aclrtBinHandle bin = nullptr;
  aclError rc;
  if (how & 4) {
    aclrtBinary b = aclrtCreateBinary(img.data(), img.size());
    if (b == nullptr) {
      Check(ACL_ERROR_INVALID_PARAM, "aclrtCreateBinary (returned null)");
      return 0;
    }
    rc = Check(aclrtBinaryLoad(b, &bin), "aclrtBinaryLoad");
    Check(aclrtDestroyBinary(b), "aclrtDestroyBinary");
  } else if (how & 8) {
    const std::string path = npurt_fuzz::WriteScratchFile("kernel.so", img.data(), img.size());
    rc = Check(aclrtBinaryLoadFromFile(path.c_str(), nullptr, &bin), "aclrtBinaryLoadFromFile");
  } else {
    aclrtBinaryLoadOption opt{};
    opt.type = ACL_RT_BINARY_LOAD_OPT_MAGIC;
    opt.value.magic = ACL_RT_BINARY_MAGIC_ELF_VECTOR_CORE;
    aclrtBinaryLoadOptions opts{&opt, 1};
    rc = Check(aclrtBinaryLoadFromData(img.empty() ? nullptr : img.data(), img.size(), (how & 16) ? &opts : nullptr,
                                       &bin),
               "aclrtBinaryLoadFromData");
  }
  if (rc != ACL_SUCCESS) return 0;
  Inspect(bin);
  if (Check(aclrtBinaryUnLoad(bin), "aclrtBinaryUnLoad") != ACL_SUCCESS) std::abort();
  return 0;
}
