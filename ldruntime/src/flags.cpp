#include "flags.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>

#include <cstdlib>
#include <sstream>

namespace ldcc {

RawFlags read_flags_from_environment() {
  RawFlags f;
#define LDCC_FLAG(field, env, fallback, help) \
  if (const char* v = std::getenv(env)) f.field = v;
#include "flags.def"
#undef LDCC_FLAG
  return f;
}

const RawFlags& flags() {
  static const RawFlags f = read_flags_from_environment();
  return f;
}

std::optional<Mode> parse_mode(const std::string& text) {
  if (text == "check") return Mode::Check;
  if (text == "deterministic") return Mode::Deterministic;
  if (text == "off") return Mode::Off;
  return std::nullopt;
}

const char* mode_name(Mode mode) {
  return mode == Mode::Check ? "check" : mode == Mode::Deterministic ? "deterministic" : "off";
}

uint64_t MemLimit::resolve(uint64_t free_bytes) const {
  return percent ? uint64_t(double(free_bytes) * value / 100.0) : uint64_t(value);
}

std::optional<MemLimit> parse_mem_limit(const std::string& text) {
  if (text.empty()) return std::nullopt;
  char* end = nullptr;
  const double number = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || number < 0) return std::nullopt;
  const std::string suffix(end);
  if (suffix == "%") {
    if (number > 100) return std::nullopt;
    return MemLimit{true, number};
  }
  double scale = 1;
  if (suffix == "K" || suffix == "k") scale = 1024.0;
  else if (suffix == "M" || suffix == "m") scale = 1024.0 * 1024;
  else if (suffix == "G" || suffix == "g") scale = 1024.0 * 1024 * 1024;
  else if (!suffix.empty()) return std::nullopt;
  return MemLimit{false, number * scale};
}

MemLimit mem_limit_flag(const char* env, const std::string& text, const char* fallback) {
  if (const std::optional<MemLimit> limit = parse_mem_limit(text)) return *limit;
  std::fprintf(stderr, "ldcc: %s='%s' is not bytes or a percentage; using %s\n", env, text.c_str(), fallback);
  return *parse_mem_limit(fallback);
}

uint64_t mem_limit_bytes(uint64_t reusable) {
  size_t free_bytes = 0, total = 0;
  cudaMemGetInfo(&free_bytes, &total);
  free_bytes += reusable;
  static const MemLimit limit = mem_limit_flag("LDCC_MEM_LIMIT", flags().mem_limit, "50%");
  return std::min<uint64_t>(limit.resolve(free_bytes), free_bytes);
}

std::optional<uint64_t> parse_count(const std::string& text) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
  return std::stoull(text);
}

std::string flags_help() {
  std::ostringstream out;
#define LDCC_FLAG(field, env, fallback, help) out << "  " << env << " (default '" << fallback << "'): " << help << "\n";
#include "flags.def"
#undef LDCC_FLAG
  return out.str();
}

}  // namespace ldcc
