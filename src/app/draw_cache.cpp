#include "draw_cache.h"

#include <SDL.h>
#include <backends/imgui_impl_opengl3.h>
#include <cstring>
#include <type_traits>

namespace app {
namespace {

// The lists [from, to) of `all`, drawn as ImGui draws a frame.
void drawLists(ImDrawData* all, int from, int to) {
    if (from >= to) return;
    ImDrawData part = *all;
    part.CmdLists = all->CmdLists + from;
    part.CmdListsCount = to - from;
    part.TotalIdxCount = part.TotalVtxCount = 0;
    for (int i = from; i < to; ++i) {
        part.TotalIdxCount += all->CmdLists[i]->IdxBuffer.Size;
        part.TotalVtxCount += all->CmdLists[i]->VtxBuffer.Size;
    }
    ImGui_ImplOpenGL3_RenderDrawData(&part);
}

bool sameCommand(const ImDrawCmd& x, const ImDrawCmd& y) {
    return x.ClipRect.x == y.ClipRect.x && x.ClipRect.y == y.ClipRect.y &&
           x.ClipRect.z == y.ClipRect.z && x.ClipRect.w == y.ClipRect.w &&
           x.TextureId == y.TextureId && x.VtxOffset == y.VtxOffset && x.IdxOffset == y.IdxOffset &&
           x.ElemCount == y.ElemCount && x.UserCallback == y.UserCallback &&
           x.UserCallbackData == y.UserCallbackData;
}

// What Mesa's software rasterizer charges, measured at 1920×1080 with a test program
// (draw_cache.h): about 0.7 µs a triangle however small, and 3 ns a pixel copied by
// glBlitFramebuffer (a strip 430 pixels wide took 1.4 ms, the whole window 6 ms: the copy is drawn
// as a textured quad).
constexpr double kTriangleCost = 0.7e-6, kPixelCost = 3e-9; // s

// Whether copying a list's columns costs clearly less than drawing it (by half as much again):
// the controls' 3,800 triangles against their 460,000 pixels, yes; the graphs' 1,800 of a few
// lines, no. (Triangles of text: the large pyramid's 10,400 solid boxes drew in about the time a
// copy of their million pixels takes.)
bool worthCopying(const ImDrawList& list, const CachedList& c, int h) {
    const double draw = list.IdxBuffer.Size / 3 * kTriangleCost;
    const double copy = double(c.x1 - c.x0) * h * kPixelCost;
    return draw > 1.5 * copy;
}

template <class T> bool sameItems(const std::vector<T>& kept, const ImVector<T>& now) {
    return kept.size() == std::size_t(now.Size) &&
           (kept.empty() || std::memcmp(kept.data(), now.Data, kept.size() * sizeof(T)) == 0);
}

} // namespace

void clearColumns(const CachedList& c, int h) {
    if (c.x1 <= c.x0) return;
    glEnable(GL_SCISSOR_TEST);
    glScissor(c.x0, 0, c.x1 - c.x0, h);
    glClearColor(c.bg.x, c.bg.y, c.bg.z, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    glDisable(GL_SCISSOR_TEST);
}

bool DrawCache::Kept::same(const ImDrawList& list, const CachedList& c, int w_, int h_) const {
    if (!valid || c.x0 != x0 || c.x1 != x1 || w_ != w || h_ != h || c.bg.x != bg.x ||
        c.bg.y != bg.y || c.bg.z != bg.z || !sameItems(vertices, list.VtxBuffer) ||
        !sameItems(indices, list.IdxBuffer) || commands.size() != std::size_t(list.CmdBuffer.Size))
        return false;
    for (std::size_t i = 0; i < commands.size(); ++i)
        if (!sameCommand(commands[i], list.CmdBuffer[int(i)])) return false;
    return true;
}

void DrawCache::Kept::keep(const ImDrawList& list, const CachedList& c, int w_, int h_) {
    vertices.assign(list.VtxBuffer.begin(), list.VtxBuffer.end());
    indices.assign(list.IdxBuffer.begin(), list.IdxBuffer.end());
    commands.assign(list.CmdBuffer.begin(), list.CmdBuffer.end());
    x0 = c.x0;
    x1 = c.x1;
    w = w_;
    h = h_;
    bg = c.bg;
    valid = true;
}

bool DrawCache::loaded() {
    if (!triedLoading_) {
        triedLoading_ = true;
        auto load = [](auto& f, const char* name) {
            f = reinterpret_cast<std::remove_reference_t<decltype(f)>>(SDL_GL_GetProcAddress(name));
        };
        load(genFramebuffers_, "glGenFramebuffers");
        load(deleteFramebuffers_, "glDeleteFramebuffers");
        load(bindFramebuffer_, "glBindFramebuffer");
        load(framebufferTexture2D_, "glFramebufferTexture2D");
        load(blitFramebuffer_, "glBlitFramebuffer");
        load(checkFramebufferStatus_, "glCheckFramebufferStatus");
    }
    return genFramebuffers_ && deleteFramebuffers_ && bindFramebuffer_ && framebufferTexture2D_ &&
           blitFramebuffer_ && checkFramebufferStatus_ && complete_;
}

// A texture the size of the window's framebuffer; a new size leaves nothing in it. False if it
// cannot be drawn into.
bool DrawCache::fitTexture(int w, int h) {
    if (!framebuffer_) {
        genFramebuffers_(1, &framebuffer_);
        glGenTextures(1, &texture_);
    }
    if (textureW_ == w && textureH_ == h) return complete_;
    glBindTexture(GL_TEXTURE_2D, texture_);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
    bindFramebuffer_(GL_FRAMEBUFFER, framebuffer_);
    framebufferTexture2D_(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, texture_, 0);
    complete_ = checkFramebufferStatus_(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
    bindFramebuffer_(GL_FRAMEBUFFER, 0);
    textureW_ = w;
    textureH_ = h;
    for (Slot& s : slots_)
        s.inTexture.valid = false;
    return complete_;
}

// The list `at` of `data`, one of the cached: drawn on the screen if it changed since the last
// frame, or if it is cheaper to draw than to copy; else copied from the texture, drawn there first
// if the texture holds an older one.
void DrawCache::drawCached(ImDrawData* data, int at, const CachedList& c, Slot& slot, int w,
                           int h) {
    const ImDrawList& list = *data->CmdLists[at];
    if (!worthCopying(list, c, h)) {
        drawLists(data, at, at + 1);
        return;
    }
    if (!slot.lastFrame.same(list, c, w, h)) {
        drawLists(data, at, at + 1);
        slot.lastFrame.keep(list, c, w, h);
        return;
    }
    if (!fitTexture(w, h)) {
        drawLists(data, at, at + 1);
        return;
    }
    if (!slot.inTexture.same(list, c, w, h)) {
        bindFramebuffer_(GL_FRAMEBUFFER, framebuffer_);
        clearColumns(c, h);
        drawLists(data, at, at + 1);
        bindFramebuffer_(GL_FRAMEBUFFER, 0);
        slot.inTexture = slot.lastFrame;
    }
    bindFramebuffer_(GL_READ_FRAMEBUFFER, framebuffer_);
    blitFramebuffer_(c.x0, 0, c.x1, h, c.x0, 0, c.x1, h, GL_COLOR_BUFFER_BIT, GL_NEAREST);
    bindFramebuffer_(GL_FRAMEBUFFER, 0);
}

void DrawCache::render(ImDrawData* data, const std::vector<CachedList>& cached, int w, int h) {
    if (!loaded()) {
        ImGui_ImplOpenGL3_RenderDrawData(data);
        return;
    }
    slots_.resize(cached.size());
    int from = 0; // the first list not drawn yet
    for (int i = 0; i < data->CmdListsCount; ++i)
        for (std::size_t k = 0; k < cached.size(); ++k)
            if (cached[k].list == data->CmdLists[i] && cached[k].x1 > cached[k].x0) {
                drawLists(data, from, i);
                drawCached(data, i, cached[k], slots_[k], w, h);
                from = i + 1;
            }
    drawLists(data, from, data->CmdListsCount);
}

void DrawCache::release() {
    if (framebuffer_) {
        deleteFramebuffers_(1, &framebuffer_);
        glDeleteTextures(1, &texture_);
    }
    framebuffer_ = texture_ = 0;
    textureW_ = textureH_ = 0;
    slots_.clear();
}

} // namespace app
