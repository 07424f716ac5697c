// A mechanism of more species than GRI-Mech 3.0 for the reactor kernels above 64
// equations: gri30.yaml with n inert species X1..Xn (argon's composition, each its own
// constant cp = (2.5 + 0.05 i) R) added to the phase and the species list. Shared by
// test_ode_parity and bench_reactor.
#pragma once

#include <fstream>
#include <sstream>
#include <string>

namespace opsplit_test {

// Writes the mechanism to `path`; false (and nothing written) when gri30_path cannot
// be read or is not laid out as Cantera's gri30.yaml.
inline bool write_gri30_with_inert_species(const std::string& gri30_path, int n, const std::string& path) {
  std::ifstream in(gri30_path);
  std::stringstream text;
  text << in.rdbuf();
  std::string yaml = text.str();
  const std::string last_species = "CH3CHO]", species_section = "\nspecies:\n";
  const size_t list_end = yaml.find(last_species);
  const size_t species = yaml.find(species_section);
  if (!in || list_end == std::string::npos || species == std::string::npos || species < list_end) return false;
  std::string names, entries;
  for (int i = 1; i <= n; ++i) {
    const std::string a1 = std::to_string(2.5 + 0.05 * i);
    const std::string data = "[" + a1 + ", 0.0, 0.0, 0.0, 0.0, -745.375, 4.366]\n";
    names += ", X" + std::to_string(i);
    entries += "- name: X" + std::to_string(i) +
               "\n  composition: {Ar: 1}\n  thermo:\n    model: NASA7\n"
               "    temperature-ranges: [300.0, 1000.0, 5000.0]\n    data:\n    - " +
               data + "    - " + data;
  }
  yaml.insert(species + species_section.size(), entries);  // the later position first
  yaml.insert(list_end + last_species.size() - 1, names);
  std::ofstream out(path);
  out << yaml;
  return static_cast<bool>(out);
}

}  // namespace opsplit_test
