// Mechanism file readers. Both return a finished GasMechanism (GasMechanism::finish
// passed) or throw an opsplit::Error: IO when a file cannot be read, PARSE naming the
// file, the line and the entry, UNSUPPORTED for a feature opsplit does not implement.
#pragma once

#include <string>

#include "chem/gas.hpp"

struct opsplit_mechanism_s;

namespace opsplit::chem {

// Cantera YAML: the ideal-gas phase `phase` (empty: the first phase of the file).
GasMechanism load_yaml(const std::string& path, const std::string& phase);

// CHEMKIN-II: the mechanism file (ELEMENTS, SPECIES, optional THERMO, REACTIONS; a
// TRANSPORT section is skipped) and a thermo file (empty: none) for the species the
// mechanism file's THERMO section does not give.
GasMechanism load_chemkin(const std::string& mech_path, const std::string& thermo_path);

// KPP (KPP 3.5's .def, .kpp, .spc and .eqn, with their #INCLUDEs): the species, fixed
// species, equations and rates added to `mech`, an empty built mechanism.
void load_kpp(opsplit_mechanism_s& mech, const std::string& path);

// MICM (MechanismConfiguration v1 YAML/JSON, or a v0 CAMP config.json or its
// directory): the gas-phase species, reactions and rates added to `mech`, an empty
// built mechanism (opsplit_mechanism_load_micm says how).
void load_micm(opsplit_mechanism_s& mech, const std::string& path);

}  // namespace opsplit::chem
