// PNG (RFC 2083 / W3C PNG spec): a signature, then chunks (length, type, data, CRC-32 of type and
// data); the image is one IDAT chunk holding the zlib stream (RFC 1950) of the filtered scanlines.
#include "png_write.h"

#include "carom/output_file.h"

#include <stdexcept>
#include <zlib.h>

namespace app {
namespace {

void put32(std::vector<std::uint8_t>& out, std::uint32_t v) { // big-endian
    for (int s = 24; s >= 0; s -= 8)
        out.push_back(std::uint8_t(v >> s));
}

void chunk(std::vector<std::uint8_t>& out, const char* type,
           const std::vector<std::uint8_t>& data) {
    put32(out, std::uint32_t(data.size()));
    const std::size_t start = out.size();
    out.insert(out.end(), type, type + 4);
    out.insert(out.end(), data.begin(), data.end());
    put32(out, std::uint32_t(crc32(0, out.data() + start, uInt(out.size() - start))));
}

} // namespace

bool writePng(const std::string& path, int width, int height,
              const std::vector<std::uint8_t>& rgb) {
    if (width <= 0 || height <= 0 || rgb.size() != std::size_t(width) * height * 3) return false;
    // Scanlines, each behind filter byte 0 (none).
    std::vector<std::uint8_t> raw;
    raw.reserve(std::size_t(height) * (width * 3 + 1));
    for (int y = 0; y < height; ++y) {
        raw.push_back(0);
        raw.insert(raw.end(), rgb.begin() + std::size_t(y) * width * 3,
                   rgb.begin() + std::size_t(y + 1) * width * 3);
    }
    // Filter 0 everywhere, then deflate; the panels' flat colours compress about 20 to 1.
    uLongf size = compressBound(uLong(raw.size()));
    std::vector<std::uint8_t> z(size);
    if (compress2(z.data(), &size, raw.data(), uLong(raw.size()), Z_BEST_SPEED) != Z_OK)
        return false;
    z.resize(size);

    std::vector<std::uint8_t> png{0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    std::vector<std::uint8_t> ihdr;
    put32(ihdr, std::uint32_t(width));
    put32(ihdr, std::uint32_t(height));
    ihdr.insert(ihdr.end(), {8, 2, 0, 0, 0}); // 8 bits, RGB, deflate, adaptive filter, no interlace
    chunk(png, "IHDR", ihdr);
    chunk(png, "IDAT", z);
    chunk(png, "IEND", {});

    try {
        carom::OutputFile out(path);
        out.write(std::string(png.begin(), png.end()));
        out.commit();
        return true;
    } catch (const std::runtime_error&) {
        return false;
    }
}

} // namespace app
