// gadget::decode_here, run in the child process of decode_gadget_hdf5 (sim/gadget_hdf5_child.h): the Header
// read and every PartTypeK group's datasets checked against it before any particle data, then the data read
// in bounded chunks into double records.
#include <algorithm>
#include <cmath>
#include <new>
#include <optional>
#include <stdexcept>

#include "sim/gadget_hdf5.h"
#include "sim/gadget_hdf5_attributes.h"
#include "sim/gadget_hdf5_child.h"
#include "sim/hdf5_image.h"
#include "sim/limits.h"

namespace coalesce {

namespace {

using gadget::CheckedDataset;
using gadget::ObjectKind;
using gadget::Snapshot;
using gadget::ValueClass;

constexpr std::size_t kMaxTypes = 64;    // GADGET-4 builds with NTYPES 6 by default
constexpr std::size_t kMaxLinks = 4096;  // members of the root or of a PartTypeK group
constexpr std::size_t kChunkRows = 1 << 16;
constexpr std::size_t kShownIgnored = 6;
const std::string kExpected =
    "expected a GADGET-4/AREPO HDF5 snapshot (Header with NumPart_ThisFile, MassTable, Time; PartTypeK "
    "groups)";

struct Header {
  std::vector<std::uint64_t> counts;  // NumPart_ThisFile, one per type
  std::vector<double> mass_table;     // per type; 0: masses in PartTypeK/Masses
  double time = 0.0;
  std::uint64_t total = 0;
};

// One particle type's datasets, checked, before anything is read.
struct TypePlan {
  std::string group;  // "PartType1"
  std::uint64_t count = 0;
  CheckedDataset coordinates, velocities;
  std::optional<CheckedDataset> masses;  // nullopt: MassTable's value
  std::optional<CheckedDataset> ids;
  double table_mass = 0.0;
};

void check_totals(const Snapshot& s, hid_t header, const Header& h) {
  const auto total = gadget::read_counts(s, header, "NumPart_Total", "Header", kMaxTypes);
  if (!total) return;
  const auto high = gadget::read_counts(s, header, "NumPart_Total_HighWord", "Header", kMaxTypes);
  if (total->size() != h.counts.size() || (high && high->size() != h.counts.size()))
    s.fail("Header/NumPart_Total has " + std::to_string(total->size()) + " values and NumPart_ThisFile " +
           std::to_string(h.counts.size()) + "; expected one per particle type in both");
  for (std::size_t k = 0; k < h.counts.size(); ++k) {
    const std::uint64_t high_word = high ? (*high)[k] : 0;
    const bool equal = high_word < (std::uint64_t{1} << 32) && (*total)[k] + (high_word << 32) == h.counts[k];
    if (!equal)
      s.fail("Header/NumPart_Total[" + std::to_string(k) + "] is " + std::to_string((*total)[k]) +
             (high_word ? " (high word " + std::to_string(high_word) + ")" : "") + " but NumPart_ThisFile[" +
             std::to_string(k) + "] is " + std::to_string(h.counts[k]) +
             "; expected the same counts in a single-file snapshot (is this one part of a larger one?)");
  }
}

Header read_header(const Snapshot& s) {
  const ObjectKind kind = gadget::object_kind(s, s.file, "Header", "Header");
  if (kind != ObjectKind::Group)
    s.fail(kind == ObjectKind::Missing ? "has no Header group; " + kExpected
                                       : "Header is not a group; " + kExpected);
  const Hdf5Group header = gadget::open_group(s, s.file, "Header", "Header");
  Header h;
  auto counts = gadget::read_counts(s, header.get(), "NumPart_ThisFile", "Header", kMaxTypes);
  if (!counts) s.fail("Header has no NumPart_ThisFile; " + kExpected);
  h.counts = std::move(*counts);
  auto table = gadget::read_reals(s, header.get(), "MassTable", "Header", kMaxTypes);
  if (!table) s.fail("Header has no MassTable; " + kExpected);
  if (table->size() != h.counts.size())
    s.fail("Header/MassTable has " + std::to_string(table->size()) + " values and NumPart_ThisFile " +
           std::to_string(h.counts.size()) + "; expected one per particle type in both");
  h.mass_table = std::move(*table);
  const auto time = gadget::read_real(s, header.get(), "Time", "Header");
  if (!time) s.fail("Header has no Time; " + kExpected);
  if (!std::isfinite(*time)) s.fail("Header/Time is " + exact_text(*time) + "; expected a finite time");
  h.time = *time;
  const auto files = gadget::read_integer(s, header.get(), "NumFilesPerSnapshot", "Header");
  if (files && *files != 1)
    s.fail("Header/NumFilesPerSnapshot is " + std::to_string(*files) +
           (*files > 1 ? ": this file is one part of a snapshot split over several files" : "") +
           "; expected a single-file snapshot (NumFilesPerSnapshot 1): join the parts into one file first");
  check_totals(s, header.get(), h);
  for (std::size_t k = 0; k < h.counts.size(); ++k) {
    h.total += std::min<std::uint64_t>(h.counts[k], kMaxParticles + 1ull);
    if (h.total > static_cast<std::uint64_t>(kMaxParticles))
      s.fail("Header/NumPart_ThisFile claims more than " + std::to_string(kMaxParticles) +
             " particles; expected at most " + std::to_string(kMaxParticles));
  }
  if (h.total == 0) s.fail("Header/NumPart_ThisFile counts no particles; expected at least one");
  return h;
}

// The units the file states (GADGET-4: Parameters; AREPO: Header), each finite and positive, or nullopt.
std::optional<double> unit(const Snapshot& s, const char* name) {
  for (const char* group_name : {"Parameters", "Header"}) {
    if (gadget::object_kind(s, s.file, group_name, group_name) != ObjectKind::Group) continue;
    const Hdf5Group group = gadget::open_group(s, s.file, group_name, group_name);
    const auto value = gadget::read_real(s, group.get(), name, group_name);
    if (!value) continue;
    if (!(std::isfinite(*value) && *value > 0))
      s.fail(std::string(group_name) + "/" + name + " is " + exact_text(*value) +
             "; expected a unit, more than 0");
    return value;
  }
  return std::nullopt;
}

std::optional<std::uint64_t> type_number(const std::string& name) {
  const std::string prefix = "PartType";
  if (name.rfind(prefix, 0) != 0 || name.size() == prefix.size() || name.size() > prefix.size() + 3)
    return std::nullopt;
  std::uint64_t k = 0;
  for (std::size_t i = prefix.size(); i < name.size(); ++i) {
    if (name[i] < '0' || name[i] > '9') return std::nullopt;
    k = k * 10 + static_cast<std::uint64_t>(name[i] - '0');
  }
  return k;
}

CheckedDataset required(const Snapshot& s, hid_t group, const std::string& group_name, const char* name,
                        std::uint64_t rows, int columns, ValueClass kind) {
  const std::string path = group_name + "/" + name;
  const ObjectKind object = gadget::object_kind(s, group, name, path);
  if (object == ObjectKind::Missing)
    s.fail("has no " + path + "; expected it for the " + std::to_string(rows) +
           " particles NumPart_ThisFile counts");
  if (object != ObjectKind::Dataset) s.fail(path + " is not a dataset; expected " + path + " as a dataset");
  return gadget::check_dataset(s, group, name, path, rows, columns, kind);
}

TypePlan plan_type(const Snapshot& s, const Header& h, std::size_t k, std::vector<std::string>& ignored) {
  TypePlan plan;
  plan.group = "PartType" + std::to_string(k);
  plan.count = h.counts[k];
  plan.table_mass = h.mass_table[k];
  const ObjectKind kind = gadget::object_kind(s, s.file, plan.group, plan.group);
  if (kind != ObjectKind::Group)
    s.fail("Header/NumPart_ThisFile[" + std::to_string(k) + "] is " + std::to_string(plan.count) +
           " but the file has no " + plan.group +
           " group; expected one group per particle type with particles");
  const Hdf5Group group = gadget::open_group(s, s.file, plan.group, plan.group);
  const bool table = plan.table_mass != 0.0;
  if (table && !kMassRange.contains(plan.table_mass))
    s.fail("Header/MassTable[" + std::to_string(k) + "] is " + exact_text(plan.table_mass) + "; expected " +
           describe(kMassRange));
  for (const std::string& name : gadget::link_names(s, group.get(), plan.group, kMaxLinks)) {
    if (name == "Coordinates" || name == "Velocities" || (name == "Masses" && !table)) continue;
    if (name == "ParticleIDs") {
      plan.ids = required(s, group.get(), plan.group, "ParticleIDs", plan.count, 1, ValueClass::Id);
      continue;
    }
    ignored.push_back(plan.group + "/" + name + (name == "Masses" ? " (MassTable's mass used)" : ""));
  }
  plan.coordinates = required(s, group.get(), plan.group, "Coordinates", plan.count, 3, ValueClass::Real);
  plan.velocities = required(s, group.get(), plan.group, "Velocities", plan.count, 3, ValueClass::Real);
  if (!table) plan.masses = required(s, group.get(), plan.group, "Masses", plan.count, 1, ValueClass::Real);
  return plan;
}

std::string value_text(double v, const CheckedDataset& d) {
  return d.value_bytes == 4 ? exact_text(static_cast<float>(v)) : exact_text(v);
}

// `fields` values a row (3 or 1) from a Real dataset into the records from `offset`, each checked.
void read_values(const Snapshot& s, const CheckedDataset& d, std::uint64_t count, int columns,
                 std::vector<ParticleF64>& records, std::size_t offset, int field) {
  std::vector<double> buffer(std::min<std::uint64_t>(count, kChunkRows) * static_cast<std::size_t>(columns));
  for (std::uint64_t first = 0; first < count; first += kChunkRows) {
    const std::uint64_t rows = std::min<std::uint64_t>(kChunkRows, count - first);
    gadget::read_rows(s, d, first, rows, columns, buffer.data());
    for (std::size_t i = 0; i < rows; ++i)
      for (int c = 0; c < columns; ++c) {
        const double v = buffer[i * static_cast<std::size_t>(columns) + static_cast<std::size_t>(c)];
        const std::string where = d.path + " row " + std::to_string(first + i);
        if (!std::isfinite(v)) s.fail(where + " holds " + value_text(v, d) + "; expected finite values only");
        if (field == 6 && !kMassRange.contains(v))
          s.fail(where + " is a mass of " + value_text(v, d) + "; expected " + describe(kMassRange));
        (&records[offset + first + i].x)[field + c] = v;
      }
  }
}

void read_ids(const Snapshot& s, const CheckedDataset& d, std::uint64_t count,
              std::vector<std::uint64_t>& ids, std::size_t offset) {
  for (std::uint64_t first = 0; first < count; first += kChunkRows) {
    const std::uint64_t rows = std::min<std::uint64_t>(kChunkRows, count - first);
    std::uint64_t* out = ids.data() + offset + first;
    gadget::read_rows(s, d, first, rows, 1, out);
    if (!d.is_signed) continue;
    for (std::size_t i = 0; i < rows; ++i)
      if (static_cast<std::int64_t>(out[i]) < 0)
        s.fail(d.path + " row " + std::to_string(first + i) + " is " +
               std::to_string(static_cast<std::int64_t>(out[i])) + "; expected particle IDs of 0 or more");
  }
}

// "PartType0/Density, PartType0/InternalEnergy", at most kShownIgnored names.
std::string ignored_phrase(const std::vector<std::string>& names) {
  if (names.empty()) return {};
  std::string phrase;
  for (std::size_t i = 0; i < names.size() && i < kShownIgnored; ++i) phrase += (i ? ", " : "") + names[i];
  if (names.size() > kShownIgnored)
    phrase += " and " + std::to_string(names.size() - kShownIgnored) + " more";
  return phrase;
}

void read_units(const Snapshot& s, StateContents& contents) {
  const auto length = unit(s, "UnitLength_in_cm"), mass = unit(s, "UnitMass_in_g");
  const auto velocity = unit(s, "UnitVelocity_in_cm_per_s");
  if (!length || !mass) return;
  PhysicalUnits units;
  units.length_in_cm = *length;
  units.mass_in_g = *mass;
  units.length_text = exact_text(*length) + " cm";
  units.mass_text = exact_text(*mass) + " g";
  contents.units = units;
  // The run's G = 1 velocity unit follows from length and mass; a file in other units (GADGET's km/s) has
  // its velocities and time restated in it, or the run would integrate them with the wrong G.
  const double ours = units.velocity_in_cm_per_s();
  if (!velocity || *velocity == ours) return;
  const double factor = *velocity / ours;
  for (ParticleF64& p : contents.records) {
    p.vx *= factor, p.vy *= factor, p.vz *= factor;
    if (!(std::isfinite(p.vx) && std::isfinite(p.vy) && std::isfinite(p.vz)))
      s.fail("velocities overflow when restated in the G = 1 velocity unit (" + exact_text(ours) +
             " cm/s); expected UnitVelocity_in_cm_per_s near it");
  }
  contents.time /= factor;
  contents.converted = "velocities x " + exact_text(factor) + " and time x " + exact_text(1 / factor) +
                       ": the file's UnitVelocity_in_cm_per_s " + exact_text(*velocity) +
                       " restated in the G = 1 unit of its length and mass, " + exact_text(ours) + " cm/s";
}

StateContents read_snapshot(const Snapshot& s) {
  const Header h = read_header(s);
  std::vector<std::string> ignored;
  for (const std::string& name : gadget::link_names(s, s.file, "the file's root group", kMaxLinks)) {
    const auto k = type_number(name);
    if (k && *k >= h.counts.size())
      s.fail("has a " + name + " group but Header/NumPart_ThisFile counts " +
             std::to_string(h.counts.size()) + " types; expected a count for every PartTypeK group");
    if (!k && name != "Header" && name != "Parameters" && name != "Config" && name != "Units" &&
        name != "Constants")
      ignored.push_back(name);
  }
  std::vector<TypePlan> plans;
  for (std::size_t k = 0; k < h.counts.size(); ++k)
    if (h.counts[k] > 0) plans.push_back(plan_type(s, h, k, ignored));
  for (const TypePlan& plan : plans)
    if (plan.ids.has_value() != plans.front().ids.has_value())
      s.fail(plans.front().group + (plans.front().ids ? " has" : " has no") + " ParticleIDs but " +
             plan.group + (plan.ids ? " has" : " has none") +
             "; expected IDs for every particle type or for none");

  StateContents contents;
  contents.time = h.time;
  contents.ids_from_file = plans.front().ids.has_value();
  try {
    contents.records.resize(h.total);  // checked against every dataset's stored bytes above
    contents.ids.resize(h.total);
  } catch (const std::bad_alloc&) {
    throw RuntimeFailure(s.name + ": out of host memory reading its " + std::to_string(h.total) +
                         " particles; free memory, or load a snapshot with fewer particles");
  }
  std::size_t offset = 0;
  for (const TypePlan& plan : plans) {
    read_values(s, plan.coordinates, plan.count, 3, contents.records, offset, 0);
    read_values(s, plan.velocities, plan.count, 3, contents.records, offset, 3);
    if (plan.masses)
      read_values(s, *plan.masses, plan.count, 1, contents.records, offset, 6);
    else
      for (std::size_t i = 0; i < plan.count; ++i) contents.records[offset + i].mass = plan.table_mass;
    if (plan.ids)
      read_ids(s, *plan.ids, plan.count, contents.ids, offset);
    else
      for (std::size_t i = 0; i < plan.count; ++i) contents.ids[offset + i] = offset + i;
    for (const CheckedDataset* d : {&plan.coordinates, &plan.velocities})
      contents.held_doubles = contents.held_doubles || d->value_bytes == 8;
    if (plan.masses) contents.held_doubles = contents.held_doubles || plan.masses->value_bytes == 8;
    offset += plan.count;
  }
  read_units(s, contents);
  contents.ignored = ignored_phrase(ignored);
  return contents;
}

}  // namespace

namespace gadget {

StateContents decode_here(const std::string& name, std::string bytes) {
  quiet_hdf5();
  if (bytes.empty()) throw Hdf5Error(name + ": is empty; " + kExpected);
  StateContents contents;
  {
    const Hdf5MemoryFile image(std::move(bytes));
    if (!image.is_open()) {
      const std::string& reason = image.failure();
      throw Hdf5Error(name + ": not a readable HDF5 file" +
                      (reason.empty() ? "" : " (libhdf5: " + reason + ")") + "; " + kExpected);
    }
    contents = read_snapshot(Snapshot{name, image.file()});
    const ssize_t open_objects = H5Fget_obj_count(image.file(), H5F_OBJ_ALL);
    if (open_objects != 1)  // the file itself: every group, dataset and attribute handle is closed by now
      throw std::logic_error(name + ": " + std::to_string(open_objects - 1) + " HDF5 handles left open");
  }
  return contents;
}

}  // namespace gadget

}  // namespace coalesce
