// Animated GIF files, encoded by giflib: GIF89a's graphics control extension gives each frame its
// delay, transparent colour and disposal ("do not dispose": a frame is drawn over the last), and
// the NETSCAPE2.0 application extension makes the animation loop (as every browser reads it).
#include "gif_write.h"

#include <gif_lib.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <stdexcept>
#include <unordered_map>
#include <utility>

namespace app {

namespace {

constexpr int kTransparent = 255;        // the index of "unchanged" in every frame's palette
constexpr std::size_t kExactColors = 64; // the commonest colours of a frame, kept exactly

int writeToFile(GifFileType* gif, const GifByteType* bytes, int n) {
    return int(std::fwrite(bytes, 1, std::size_t(n), static_cast<std::FILE*>(gif->UserData)));
}

} // namespace

GifWriter::GifWriter(const std::string& path, int width, int height)
    : path_(path), out_(path), width_(width), height_(height) {
    if (width <= 0 || height <= 0 || width > 65535 || height > 65535)
        throw std::runtime_error(path + ": cannot write the GIF: a frame of " +
                                 std::to_string(width) + " x " + std::to_string(height));
    int error = 0;
    gif_ = EGifOpen(out_.get(), writeToFile, &error);
    if (!gif_) fail(error);
    EGifSetGifVersion(gif_, true); // GIF89a: the extensions below
    // The screen; no global palette (each frame has its own).
    if (EGifPutScreenDesc(gif_, width, height, 8, 0, nullptr) == GIF_ERROR) fail(gif_->Error);
    // Loop for ever: "NETSCAPE2.0", then the sub-block 1, loop count 0 (little-endian).
    const GifByteType app[] = {'N', 'E', 'T', 'S', 'C', 'A', 'P', 'E', '2', '.', '0'};
    const GifByteType loop[] = {1, 0, 0};
    if (EGifPutExtensionLeader(gif_, APPLICATION_EXT_FUNC_CODE) == GIF_ERROR ||
        EGifPutExtensionBlock(gif_, sizeof app, app) == GIF_ERROR ||
        EGifPutExtensionBlock(gif_, sizeof loop, loop) == GIF_ERROR ||
        EGifPutExtensionTrailer(gif_) == GIF_ERROR)
        fail(gif_->Error);
}

GifWriter::~GifWriter() {
    if (gif_) EGifCloseFile(gif_, nullptr); // not committed: OutputFile removes the temporary
}

void GifWriter::fail(int error) {
    throw std::runtime_error(path_ + ": cannot write the GIF: " + GifErrorString(error));
}

void GifWriter::add(const std::vector<std::uint8_t>& rgb, int delayCentiseconds) {
    if (rgb.size() != std::size_t(width_) * height_ * 3)
        throw std::runtime_error(path_ + ": cannot write the GIF: a frame of another size");
    // The rectangle around the pixels that changed (the whole frame for the first).
    int x0 = width_, y0 = height_, x1 = -1, y1 = -1;
    auto changed = [&](std::size_t p) {
        return last_.empty() || !std::equal(&rgb[3 * p], &rgb[3 * p] + 3, &last_[3 * p]);
    };
    for (int y = 0; y < height_; ++y)
        for (int x = 0; x < width_; ++x)
            if (changed(std::size_t(y) * width_ + x)) {
                x0 = std::min(x0, x), x1 = std::max(x1, x);
                y0 = std::min(y0, y), y1 = std::max(y1, y);
            }
    if (x1 < 0) x0 = y0 = x1 = y1 = 0; // nothing changed: one transparent pixel carries the delay
    const int w = x1 - x0 + 1, h = y1 - y0 + 1;

    // The changed pixels, and how often each colour comes among them.
    std::vector<std::size_t> where;
    std::unordered_map<std::uint32_t, std::uint32_t> count;
    auto colorAt = [&](std::size_t p) {
        return std::uint32_t(rgb[3 * p]) << 16 | std::uint32_t(rgb[3 * p + 1]) << 8 |
               rgb[3 * p + 2];
    };
    for (int y = y0; y <= y1; ++y)
        for (int x = x0; x <= x1; ++x)
            if (const std::size_t p = std::size_t(y) * width_ + x; changed(p)) {
                where.push_back(p);
                ++count[colorAt(p)];
            }
    // The palette: the commonest colours exactly (all of them when they are few: the background,
    // the bodies' fills, the text), then the median cut's for the rest (the edges' blends).
    std::vector<std::pair<std::uint32_t, std::uint32_t>> byCount(count.begin(), count.end());
    std::sort(byCount.begin(), byCount.end(), [](const auto& a, const auto& b) {
        return a.second != b.second ? a.second > b.second : a.first < b.first;
    });
    const std::size_t exact = byCount.size() <= kTransparent ? byCount.size() : kExactColors;
    std::array<GifColorType, 256> colors{};
    std::unordered_map<std::uint32_t, GifByteType> exactIndex;
    for (std::size_t i = 0; i < exact; ++i) {
        const std::uint32_t c = byCount[i].first;
        colors[i] = {GifByteType(c >> 16), GifByteType(c >> 8), GifByteType(c)};
        exactIndex[c] = GifByteType(i);
    }
    std::vector<GifByteType> index(where.size());
    std::vector<std::size_t> rest; // positions in `where` of the other colours
    for (std::size_t i = 0; i < where.size(); ++i)
        if (const auto e = exactIndex.find(colorAt(where[i])); e != exactIndex.end())
            index[i] = e->second;
        else
            rest.push_back(i);
    if (!rest.empty()) {
        std::array<std::vector<GifByteType>, 3> planes;
        for (std::size_t i : rest)
            for (int c = 0; c < 3; ++c)
                planes[c].push_back(rgb[3 * where[i] + c]);
        std::vector<GifByteType> cut(rest.size());
        int size = kTransparent - int(exact);
        if (GifQuantizeBuffer(unsigned(rest.size()), 1, &size, planes[0].data(), planes[1].data(),
                              planes[2].data(), cut.data(), &colors[exact]) == GIF_ERROR)
            throw std::runtime_error(path_ + ": cannot write the GIF: no palette for a frame");
        // Each of the median cut's colours the mean of the pixels it stands for.
        std::array<std::array<double, 4>, 256> sum{};
        for (std::size_t k = 0; k < rest.size(); ++k) {
            for (int c = 0; c < 3; ++c)
                sum[cut[k]][c] += planes[c][k];
            sum[cut[k]][3] += 1;
            index[rest[k]] = GifByteType(exact + cut[k]);
        }
        for (std::size_t i = 0; i + exact < 256; ++i)
            if (const double n = sum[i][3]; n > 0)
                colors[exact + i] = {GifByteType(sum[i][0] / n + 0.5),
                                     GifByteType(sum[i][1] / n + 0.5),
                                     GifByteType(sum[i][2] / n + 0.5)};
    }

    // The rectangle's pixels: the palette's index where they changed, transparent elsewhere.
    std::vector<GifPixelType> pixels(std::size_t(w) * h, GifPixelType(kTransparent));
    for (std::size_t i = 0; i < where.size(); ++i) {
        const int x = int(where[i] % width_), y = int(where[i] / width_);
        pixels[std::size_t(y - y0) * w + (x - x0)] = index[i];
    }
    GraphicsControlBlock gcb{};
    gcb.DisposalMode = DISPOSE_DO_NOT;
    gcb.UserInputFlag = false;
    gcb.DelayTime = std::clamp(delayCentiseconds, 0, 65535);
    gcb.TransparentColor = last_.empty() ? NO_TRANSPARENT_COLOR : kTransparent;
    GifByteType extension[4];
    const std::size_t length = EGifGCBToExtension(&gcb, extension);
    ColorMapObject* map = GifMakeMapObject(256, colors.data());
    if (!map) throw std::runtime_error(path_ + ": cannot write the GIF: out of memory");
    const bool written =
        EGifPutExtension(gif_, GRAPHICS_EXT_FUNC_CODE, int(length), extension) != GIF_ERROR &&
        EGifPutImageDesc(gif_, x0, y0, w, h, false, map) != GIF_ERROR && [&] {
            for (int y = 0; y < h; ++y)
                if (EGifPutLine(gif_, &pixels[std::size_t(y) * w], w) == GIF_ERROR) return false;
            return true;
        }();
    GifFreeMapObject(map);
    if (!written) fail(gif_->Error);
    last_ = rgb;
    ++frames_;
}

void GifWriter::commit() {
    int error = 0;
    GifFileType* gif = gif_;
    gif_ = nullptr;
    if (EGifCloseFile(gif, &error) == GIF_ERROR) fail(error);
    out_.commit();
}

} // namespace app
