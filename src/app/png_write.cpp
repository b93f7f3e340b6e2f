// The window as a PNG, encoded by libpng (its simplified API, png_image_write_to_memory: 8-bit
// RGB, rows top to bottom), then written as any output is (carom/output_file.h).
#include "png_write.h"

#include "carom/output_file.h"

#include <png.h>
#include <stdexcept>

namespace app {

bool writePng(const std::string& path, int width, int height,
              const std::vector<std::uint8_t>& rgb) {
    if (width <= 0 || height <= 0 || rgb.size() != std::size_t(width) * height * 3) return false;
    png_image image{};
    image.version = PNG_IMAGE_VERSION;
    image.width = png_uint_32(width);
    image.height = png_uint_32(height);
    image.format = PNG_FORMAT_RGB;
    // The encoded size first (a null buffer), then the image into a buffer of that size.
    png_alloc_size_t size = 0;
    if (!png_image_write_to_memory(&image, nullptr, &size, 0, rgb.data(), 0, nullptr)) {
        png_image_free(&image);
        return false;
    }
    std::string png(size, '\0');
    const bool encoded =
        png_image_write_to_memory(&image, png.data(), &size, 0, rgb.data(), 0, nullptr) != 0;
    png_image_free(&image);
    if (!encoded) return false;
    png.resize(size);
    try {
        carom::OutputFile out(path);
        out.write(png);
        out.commit();
        return true;
    } catch (const std::runtime_error&) {
        return false;
    }
}

} // namespace app
