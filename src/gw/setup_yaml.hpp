// The groundwater module's setup file (opsplit_gw_load_yaml; docs/API.md gives the keys).
#pragma once

#include <memory>
#include <string>

#include "core/context.hpp"
#include "gw/module.hpp"

namespace opsplit::gw {

// The module a setup file describes; PARSE naming the file, line and key for a file
// that is not one, IO for one that cannot be read, UNSUPPORTED for another version.
std::unique_ptr<GroundwaterModule> load_setup_yaml(Context& ctx, const std::string& path);

}  // namespace opsplit::gw
