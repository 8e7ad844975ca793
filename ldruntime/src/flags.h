// Run-time flags (flags.def), read from the environment once, and their parsers.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "ldcc/ldcc.h"

namespace ldcc {

struct RawFlags {
#define LDCC_FLAG(field, env, fallback, help) std::string field = fallback;
#include "flags.def"
#undef LDCC_FLAG
};

RawFlags read_flags_from_environment();
const RawFlags& flags();  // read once per process

std::optional<Mode> parse_mode(const std::string& text);
const char* mode_name(Mode mode);  // as parse_mode reads it
// A memory limit is either absolute bytes ("512M") or a share of free memory ("25%").
struct MemLimit {
  bool percent = false;
  double value = 0;
  uint64_t resolve(uint64_t free_bytes) const;
};
std::optional<MemLimit> parse_mem_limit(const std::string& text);
// The value of a memory flag (read once per process): `text` parsed, or `fallback` with a warning
// naming `env` when it is neither bytes nor a percentage.
MemLimit mem_limit_flag(const char* env, const std::string& text, const char* fallback);
// The device memory checks may use now: LDCC_MEM_LIMIT resolved against free memory (by default
// half of it, so the program's own later allocations keep room), never more than is free.
// `reusable`: device memory ldcc itself keeps for reuse (DeviceBuffer), counted as free.
uint64_t mem_limit_bytes(uint64_t reusable = 0);
std::optional<uint64_t> parse_count(const std::string& text);
std::string flags_help();

}  // namespace ldcc
