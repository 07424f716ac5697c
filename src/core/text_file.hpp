// Reading a whole text file, for every reader of the library (mechanisms, CA rules,
// lava inputs): one place for the errors a file can give.
#pragma once

#include <string>

namespace opsplit {

// The whole file as text; throws IO naming the file and the reason (missing, a
// directory, unreadable).
std::string read_text_file(const std::string& path);

}  // namespace opsplit
