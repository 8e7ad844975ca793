#include "report.h"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <mutex>
#include <numeric>
#include <sstream>
#include <string_view>
#include <tuple>
#include <unordered_map>

#include "flags.h"

namespace ldcc {
namespace {

std::mutex report_mutex;

const char* kind_name(RaceKind kind) { return kind == RaceKind::WriteWrite ? "write-write" : "read-write"; }

auto identity(const Race& r) {
  return std::tie(r.kind, r.space, r.kernel, r.region, r.target, r.element_size, r.unit_kind, r.units_a, r.units_b,
                  r.block, r.element, r.units_text);
}

std::string json_escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) < 0x20) {
      char buffer[8];
      std::snprintf(buffer, sizeof buffer, "\\u%04x", c);
      out += buffer;
    } else {
      out += c;
    }
  }
  return out;
}

std::string json_units(const std::vector<uint32_t>& units) {
  std::string out = "[";
  for (size_t i = 0; i < units.size(); ++i) out += (i ? "," : "") + std::to_string(units[i]);
  return out + "]";
}

// The same race in other blocks of its launch, as the text and JSON reports say it.
std::string more_blocks(const Race& r) {
  return r.other_blocks ? " (and " + std::to_string(r.other_blocks) + " more)" : "";
}

std::string element_text(const Race& r) {
  if (!r.element.empty()) return r.element;
  const uint64_t first = r.byte_lo / r.element_size, last = (r.byte_hi - 1) / r.element_size;
  std::ostringstream out;
  out << r.target << "[" << first;
  if (last != first) out << ".." << last;
  out << "]";
  return out.str();
}

}  // namespace

namespace {
// Everything a race says but other_blocks.
auto identity_and_range(const Race& r) { return std::tuple_cat(identity(r), std::tie(r.byte_lo, r.byte_hi)); }
}  // namespace

bool RaceOrder::operator()(const Race& a, const Race& b) const { return identity_and_range(a) < identity_and_range(b); }

bool RaceSame::operator()(const Race& a, const Race& b) const { return identity_and_range(a) == identity_and_range(b); }

size_t RaceHash::operator()(const Race& r) const {
  // The fields that tell races of one kernel apart; equal races hash equal (RaceSame compares all).
  size_t h = std::hash<std::string>()(r.region) ^ (std::hash<std::string>()(r.target) << 1);
  for (uint64_t v : {uint64_t(r.kind), r.byte_lo, r.byte_hi, uint64_t(r.units_a.empty() ? ~0u : r.units_a[0]),
                     uint64_t(r.units_b.empty() ? ~0u : r.units_b[0])})
    h = (h ^ v) * 1099511628211ull;
  return h;
}

namespace {

// Races sorted through integer keys: a Race is a dozen strings, and comparing (or moving) them in the
// sort cost more than everything else. Each string field becomes its rank among the field's distinct
// values; a racy launch has thousands of races whose strings are mostly equal (the region's text).
struct CoalesceKey {
  // identity's fields in its order, units_a and units_b (between unit_kind and block) left to `race`.
  uint32_t kind;
  std::array<uint32_t, 4> before;  // space, kernel, region, target
  uint64_t element_size;
  uint32_t unit_kind;
  std::array<uint32_t, 3> after;   // block, element, units_text
  uint64_t lo, hi;
  const Race* race;

  auto head() const { return std::tie(kind, before, element_size, unit_kind); }
  auto tail() const { return std::tie(after); }
  // `merged`: this key's race, moved into the merged list.
  bool same_identity(const CoalesceKey& o, const Race& merged) const {
    return head() == o.head() && merged.units_a == o.race->units_a && merged.units_b == o.race->units_b && tail() == o.tail();
  }
  bool operator<(const CoalesceKey& o) const {
    if (head() != o.head()) return head() < o.head();
    if (race->units_a != o.race->units_a) return race->units_a < o.race->units_a;
    if (race->units_b != o.race->units_b) return race->units_b < o.race->units_b;
    return std::tie(after, lo, hi) < std::tie(o.after, o.lo, o.hi);
  }
};

// Each race's `field` as its rank among the field's distinct values.
std::vector<uint32_t> string_ranks(const std::vector<Race>& races, const std::string Race::*field) {
  std::unordered_map<std::string_view, uint32_t> index;
  std::vector<std::string_view> distinct;
  std::vector<uint32_t> of(races.size());
  for (size_t i = 0; i < races.size(); ++i) {
    const std::string& value = races[i].*field;
    if (i && value == races[i - 1].*field) {  // most often: no hashing
      of[i] = of[i - 1];
      continue;
    }
    auto [it, fresh] = index.try_emplace(value, uint32_t(distinct.size()));
    if (fresh) distinct.push_back(it->first);
    of[i] = it->second;
  }
  std::vector<uint32_t> order(distinct.size()), rank(distinct.size());
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return distinct[a] < distinct[b]; });
  for (uint32_t r = 0; r < order.size(); ++r) rank[order[r]] = r;
  for (uint32_t& v : of) v = rank[v];
  return of;
}

}  // namespace

std::vector<Race> coalesce(std::vector<Race> races) {
  std::vector<CoalesceKey> keys(races.size());
  for (size_t i = 0; i < races.size(); ++i) {
    const Race& r = races[i];
    keys[i].kind = uint32_t(r.kind);
    keys[i].element_size = r.element_size;
    keys[i].lo = r.byte_lo;
    keys[i].hi = r.byte_hi;
    keys[i].race = &r;
  }
  const auto rank_into = [&](const std::string Race::*field, auto slot) {
    const std::vector<uint32_t> ranks = string_ranks(races, field);
    for (size_t i = 0; i < races.size(); ++i) slot(keys[i]) = ranks[i];
  };
  rank_into(&Race::space, [](CoalesceKey& k) -> uint32_t& { return k.before[0]; });
  rank_into(&Race::kernel, [](CoalesceKey& k) -> uint32_t& { return k.before[1]; });
  rank_into(&Race::region, [](CoalesceKey& k) -> uint32_t& { return k.before[2]; });
  rank_into(&Race::target, [](CoalesceKey& k) -> uint32_t& { return k.before[3]; });
  rank_into(&Race::unit_kind, [](CoalesceKey& k) -> uint32_t& { return k.unit_kind; });
  rank_into(&Race::block, [](CoalesceKey& k) -> uint32_t& { return k.after[0]; });
  rank_into(&Race::element, [](CoalesceKey& k) -> uint32_t& { return k.after[1]; });
  rank_into(&Race::units_text, [](CoalesceKey& k) -> uint32_t& { return k.after[2]; });
  std::sort(keys.begin(), keys.end());
  std::vector<Race> merged;
  merged.reserve(races.size());
  const CoalesceKey* last = nullptr;
  for (const CoalesceKey& k : keys) {
    // Same race if it continues the previous range or falls in the element where that one ends.
    const auto element_end = [](const Race& r) { return (r.byte_hi + r.element_size - 1) / r.element_size * r.element_size; };
    if (last && last->same_identity(k, merged.back()) && k.lo <= element_end(merged.back())) {
      merged.back().byte_hi = std::max(merged.back().byte_hi, k.hi);
      merged.back().other_blocks = std::max(merged.back().other_blocks, k.race->other_blocks);
      continue;
    }
    last = &k;
    merged.push_back(std::move(races[k.race - races.data()]));
  }
  return merged;
}

std::string format_units(const std::string& unit_kind, const std::vector<uint32_t>& units) {
  if (units.empty()) return "another " + unit_kind;
  std::ostringstream out;
  out << unit_kind << (units.size() > 1 ? "s " : " ");
  size_t shown = 0;
  for (size_t i = 0; i < units.size() && shown < 8; ++shown) {
    size_t j = i;
    while (j + 1 < units.size() && units[j + 1] == units[j] + 1) ++j;
    out << (shown ? ", " : "") << units[i];
    if (j > i) out << "-" << units[j];
    i = j + 1;
    if (shown == 7 && i < units.size()) out << ", ...";
  }
  if (units.size() > 1) out << " (sharing one copy in a memory-limited round)";
  return out.str();
}

std::string format_race(const Race& r) {
  std::ostringstream out;
  out << "ldcc: " << kind_name(r.kind) << " race on " << r.space << " memory\n"
      << "  kernel:   " << r.kernel << "\n"
      << "  region:   " << r.region << "\n"
      << "  variable: " << element_text(r);
  if (r.space == "register")
    out << " (" << r.target << ")\n";
  else
    out << " (bytes " << r.byte_lo << ".." << r.byte_hi - 1 << " of " << r.target << ")\n";
  if (!r.units_text.empty())
    out << "  units:    " << r.units_text << more_blocks(r) << "\n";
  else if (r.kind == RaceKind::WriteWrite)
    out << "  units:    " << format_units(r.unit_kind, r.units_a) << " and " << format_units(r.unit_kind, r.units_b)
        << " both wrote it" << more_blocks(r) << "\n";
  else
    out << "  units:    " << format_units(r.unit_kind, r.units_a)
        << " read a value another " << r.unit_kind << " wrote in the same region" << more_blocks(r) << "\n";
  return out.str();
}

namespace {
std::string group_key(const Race& r) {
  return std::to_string(int(r.kind)) + '\n' + r.space + '\n' + r.kernel + '\n' + r.region + '\n' + r.target;
}

// Splits races [begin, end) into groups (what group_key says), each in order of first appearance.
// Groups point into the races: a racy launch has thousands in one group.
std::vector<std::vector<const Race*>> groups_of(const Race* begin, const Race* end) {
  std::vector<std::vector<const Race*>> groups;
  using Key = std::tuple<RaceKind, std::string_view, std::string_view, std::string_view, std::string_view>;
  std::map<Key, size_t> index;
  for (const Race* r = begin; r != end; ++r) {
    auto [it, fresh] = index.try_emplace(Key{r->kind, r->space, r->kernel, r->region, r->target}, groups.size());
    if (fresh) groups.emplace_back();
    groups[it->second].push_back(r);
  }
  return groups;
}

std::string format_group(const std::vector<const Race*>& group) {
  if (group.size() == 1) return format_race(*group.front());
  const Race* lowest = *std::min_element(group.begin(), group.end(), [](const Race* a, const Race* b) { return a->byte_lo < b->byte_lo; });
  const Race* highest = *std::max_element(group.begin(), group.end(), [](const Race* a, const Race* b) { return a->byte_hi < b->byte_hi; });
  const std::string text = format_race(*lowest);
  std::ostringstream variable;
  variable << "  variable: " << element_text(*lowest);
  if (element_text(*highest) != element_text(*lowest)) variable << " .. " << element_text(*highest);
  if (lowest->space != "register")
    variable << " (" << group.size() << " element ranges in bytes " << lowest->byte_lo << ".." << highest->byte_hi - 1
             << " of " << lowest->target << "; each one in the JSON report, LDCC_REPORT)";
  else
    variable << " (" << group.size() << " reports; each one in the JSON report, LDCC_REPORT)";
  // The first race's text with its variable line replaced by the group's span.
  const size_t begin = text.find("  variable: "), end = text.find('\n', begin);
  return text.substr(0, begin) + variable.str() + text.substr(end);
}

}  // namespace

std::vector<Race> group_leaders(const std::vector<Race>& races) {
  std::vector<Race> leaders;
  for (const auto& g : groups_of(races.data(), races.data() + races.size())) leaders.push_back(*g.front());
  return leaders;
}

std::string format_race_group(const std::vector<Race>& group) {
  std::vector<const Race*> pointers;
  for (const Race& r : group) pointers.push_back(&r);
  return format_group(pointers);
}

std::string proven_line(uint64_t proven, uint64_t launches) {
  return "ldcc: proven race-free at launch from their affine accesses (the original kernel ran): " +
         std::to_string(proven) + " of " + std::to_string(launches) + " checked launch" + (launches == 1 ? "" : "es");
}

std::string summary_line(const std::vector<Race>& races, uint64_t launches, uint64_t unchecked, uint64_t dropped) {
  const auto ww = std::count_if(races.begin(), races.end(), [](const Race& r) { return r.kind == RaceKind::WriteWrite; });
  std::ostringstream out;
  out << "ldcc: ";
  if (races.empty()) out << "no races";
  else out << races.size() << (races.size() == 1 ? " race" : " races") << " (" << ww << " write-write, " << races.size() - ww << " read-write)";
  out << " in " << launches << " checked launch" << (launches == 1 ? "" : "es");
  if (unchecked) out << ", " << unchecked << " launch" << (unchecked == 1 ? "" : "es") << " unchecked";
  if (dropped) out << "; " << dropped << " race records dropped (raise LDCC_LOG_CAPACITY)";
  return out.str();
}

std::string deterministic_summary_line(uint64_t ordered, uint64_t native, uint64_t proven) {
  std::ostringstream out;
  out << "ldcc: deterministic: " << ordered << " launch" << (ordered == 1 ? "" : "es") << " in unit order";
  if (proven) out << ", " << proven << " launch" << (proven == 1 ? "" : "es") << " proven race-free (the original kernel ran)";
  if (native) out << ", " << native << " launch" << (native == 1 ? "" : "es") << " native (determinism not guaranteed)";
  return out.str();
}

std::string gap_line(const std::string& kernel, const std::string& gap) {
  return "ldcc: kernel '" + kernel + "': not checked: " + gap;
}

std::string gaps_to_json(const std::map<std::string, std::string>& gaps) {
  std::string out = "[";
  for (const auto& [kernel, gap] : gaps)
    out += std::string(out.size() > 1 ? "," : "") + "{\"kernel\":\"" + json_escape(kernel) + "\",\"not_checked\":\"" +
           json_escape(gap) + "\"}";
  return out + "]";
}

std::string races_to_json(const std::vector<Race>& races, uint64_t launches, uint64_t unchecked, uint64_t dropped,
                          const std::string& extra_fields) {
  std::ostringstream out;
  out << "{" << extra_fields << (extra_fields.empty() ? "" : ",") << "\"checked_launches\":" << launches << ",\"unchecked_launches\":" << unchecked
      << ",\"dropped_records\":" << dropped << ",\"races\":[";
  for (size_t i = 0; i < races.size(); ++i) {
    const Race& r = races[i];
    out << (i ? "," : "") << "{\"kind\":\"" << kind_name(r.kind) << "\",\"space\":\"" << r.space << "\",\"kernel\":\""
        << json_escape(r.kernel) << "\",\"region\":\"" << json_escape(r.region) << "\",\"variable\":\""
        << json_escape(r.target) << "\",\"element_size\":" << r.element_size
        << ",\"first_element\":" << r.byte_lo / r.element_size << ",\"last_element\":" << (r.byte_hi - 1) / r.element_size
        << ",\"byte_lo\":" << r.byte_lo << ",\"byte_hi\":" << r.byte_hi << ",\"unit_kind\":\"" << r.unit_kind
        << "\",\"units_a\":" << json_units(r.units_a) << ",\"units_b\":" << json_units(r.units_b)
        << ",\"block\":\"" << json_escape(r.block + more_blocks(r)) << "\",\"other_blocks\":" << r.other_blocks
        << ",\"element\":\"" << json_escape(element_text(r)) << "\",\"units\":\""
        << json_escape(r.units_text.empty() ? "" : r.units_text + more_blocks(r)) << "\"}";
  }
  out << "]}\n";
  return out.str();
}

ProcessReport& ProcessReport::instance() {
  static ProcessReport* report = new ProcessReport();  // never destroyed: used from atexit
  return *report;
}

ProcessReport::ProcessReport() {
  std::atexit([] { ProcessReport::instance().finish(); });
}

void ProcessReport::add(LaunchResult result) {
  std::lock_guard<std::mutex> lock(report_mutex);
  if (result.proven) (result.deterministic ? ordered_proven_ : proven_)++;
  else if (result.deterministic) (result.checked ? ordered_ : native_)++;
  (result.checked ? launches_ : unchecked_)++;
  if (result.checked && !result.deterministic && !result.kernel.empty()) checked_kernels_.insert(result.kernel);
  if (result.checked && !result.deterministic && !result.gap.empty()) gaps_.emplace(result.kernel, result.gap);
  regions_ += result.regions;
  dropped_ += result.dropped_records;
  peak_extra_bytes_ = std::max(peak_extra_bytes_, result.extra_device_bytes);
  const size_t first_fresh = races_.size();
  if (races_.size() + result.races.size() > races_.capacity())  // grown once, not race by race
    races_.reserve(std::max(2 * races_.capacity(), races_.size() + result.races.size()));
  for (Race& race : result.races) {
    // Seen before in this process (a kernel launched in a loop), however many blocks saw it there.
    const size_t hash = RaceHash()(race);
    const auto [same_begin, same_end] = reported_.equal_range(hash);
    if (std::any_of(same_begin, same_end, [&](const auto& entry) { return RaceSame()(races_[entry.second], race); })) continue;
    races_.push_back(std::move(race));
    reported_.emplace(hash, races_.size() - 1);
  }
  // One text per group; a group printed after an earlier launch is not printed again.
  for (const auto& group : groups_of(races_.data() + first_fresh, races_.data() + races_.size()))
    if (printed_groups_.insert(group_key(*group.front())).second) std::fputs(format_group(group).c_str(), stderr);
}

uint64_t ProcessReport::peak_extra_bytes() const {
  std::lock_guard<std::mutex> lock(report_mutex);
  return peak_extra_bytes_;
}

std::vector<Race> ProcessReport::races() const {
  std::lock_guard<std::mutex> lock(report_mutex);
  return races_;
}

void ProcessReport::finish() {
  std::lock_guard<std::mutex> lock(report_mutex);
  if (finished_ || (launches_ == 0 && unchecked_ == 0)) return;
  finished_ = true;
  if (launches_ || unchecked_) std::fprintf(stderr, "%s\n", summary_line(group_leaders(races_), launches_, unchecked_, dropped_).c_str());
  if (proven_) std::fprintf(stderr, "%s\n", proven_line(proven_, launches_).c_str());
  for (const auto& [kernel, gap] : gaps_) std::fprintf(stderr, "%s\n", gap_line(kernel, gap).c_str());
  if (ordered_ || native_ || ordered_proven_)
    std::fprintf(stderr, "%s\n", deterministic_summary_line(ordered_, native_, ordered_proven_).c_str());
  if (!flags().report_path.empty()) {
    std::ofstream json(flags().report_path);
    std::string kernels;
    for (const std::string& k : checked_kernels_) kernels += (kernels.empty() ? "\"" : ",\"") + json_escape(k) + "\"";
    json << races_to_json(races_, launches_, unchecked_, dropped_,
                          "\"checked_kernels\":[" + kernels + "],\"partly_checked\":" + gaps_to_json(gaps_) +
                              ",\"regions_checked\":" + std::to_string(regions_) +
                              ",\"proven_launches\":" + std::to_string(proven_ + ordered_proven_));
    if (!json) std::fprintf(stderr, "ldcc: could not write the report to %s\n", flags().report_path.c_str());
  }
  if (!races_.empty()) {
    if (auto code = parse_count(flags().error_exitcode)) {
      std::fflush(stdout);
      std::fflush(stderr);
      _exit(int(*code));
    }
  }
}

std::vector<Race> races_so_far() { return ProcessReport::instance().races(); }
void print_summary() { ProcessReport::instance().finish(); }

}  // namespace ldcc
