// Screenshots as PNG files: 8-bit RGB, encoded by libpng.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace app {

// rgb: width*height*3 bytes, rows top to bottom. Writes to a temporary file and renames it, so no
// partial file is left; returns false (and leaves nothing behind) on failure.
bool writePng(const std::string& path, int width, int height, const std::vector<std::uint8_t>& rgb);

} // namespace app
