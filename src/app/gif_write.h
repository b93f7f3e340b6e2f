// Animated GIF files (issue 44, Export: a span of the timeline), encoded by giflib (Debian's
// libgif-dev) and written as any output is (carom/output_file.h).
#pragma once

#include "carom/output_file.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

struct GifFileType;

namespace app {

// Frames of one size, added in order, each shown for its delay; the animation loops. The first
// frame is stored whole; each later one as the rectangle around the pixels that changed, the
// unchanged ones in it transparent, so that what stands still costs next to nothing and keeps its
// colour exactly. Each stored rectangle has its own palette of 255 colours: its changed pixels'
// colours exactly when they are that few; else the 64 commonest exactly (the background, the
// fills, the text: a pixel that returns to the background returns to its colour, no ghost) and
// giflib's median cut (GifQuantizeBuffer) for the rest, each of those colours then set to the mean
// of the pixels it stands for (the median cut keeps 5 bits a channel).
class GifWriter {
  public:
    // Throws std::runtime_error "PATH: cannot write: why" (OutputFile's rules).
    GifWriter(const std::string& path, int width, int height);
    ~GifWriter();
    GifWriter(const GifWriter&) = delete;
    GifWriter& operator=(const GifWriter&) = delete;

    // rgb: width*height*3 bytes, rows top to bottom; delay in hundredths of a second (GIF's unit).
    void add(const std::vector<std::uint8_t>& rgb, int delayCentiseconds);
    void commit(); // the file's trailer, then OutputFile::commit; throws std::runtime_error
    int frames() const { return frames_; }

  private:
    std::string path_;
    carom::OutputFile out_;
    GifFileType* gif_ = nullptr;
    int width_, height_, frames_ = 0;
    std::vector<std::uint8_t> last_; // the previous frame's pixels

    void fail(int error); // throws "PATH: cannot write the GIF: giflib's message"
};

} // namespace app
