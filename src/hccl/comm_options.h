// A communicator's settings: HcclCommConfig fields over the HCCL_* environment over the defaults, as HCCL
// orders them. The config struct is compiled into the program, so only the fields its `size` covers are
// read (older headers have fewer), and a struct that HcclCommConfigInit did not fill is refused.
#pragma once

#include <cstdint>
#include <string>

#include "base/status.h"
#include "hccl/hccl_types.h"

namespace npurt::hccl {

struct CommOptions {
  uint64_t exec_timeout_ns = 0;     // how long a collective waits for its peers; 0 = no limit
  uint64_t connect_timeout_ns = 0;  // how long creation waits for every rank
  uint32_t buffer_mb = 200;
  std::string name;                 // empty = generated
};

// The defaults and the environment (HCCL_EXEC_TIMEOUT, HCCL_CONNECT_TIMEOUT, HCCL_BUFFSIZE); a value that
// does not parse is ignored with a warning in the log.
CommOptions OptionsFromEnvironment();

// OptionsFromEnvironment with `config`'s set fields on top (config may be null). HCCL_E_PARA for a config
// that was not initialised by HcclCommConfigInit or has an out-of-range field.
StatusOr<CommOptions> ResolveOptions(const HcclCommConfig* config);

}  // namespace npurt::hccl
