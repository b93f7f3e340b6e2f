#include "panel_cache.h"

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
           x.TextureId == y.TextureId && x.VtxOffset == y.VtxOffset &&
           x.IdxOffset == y.IdxOffset && x.ElemCount == y.ElemCount &&
           x.UserCallback == y.UserCallback && x.UserCallbackData == y.UserCallbackData;
}

template <class T> bool sameItems(const std::vector<T>& kept, const ImVector<T>& now) {
    return kept.size() == std::size_t(now.Size) &&
           (kept.empty() || std::memcmp(kept.data(), now.Data, kept.size() * sizeof(T)) == 0);
}

} // namespace

bool PanelCache::loaded() {
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
    }
    return genFramebuffers_ && deleteFramebuffers_ && bindFramebuffer_ && framebufferTexture2D_ &&
           blitFramebuffer_;
}

bool PanelCache::same(const ImDrawList& panel, int width, int w, int h, ImVec4 bg) const {
    if (!valid_ || width != width_ || w != w_ || h != h_ || bg.x != bg_.x || bg.y != bg_.y ||
        bg.z != bg_.z || !sameItems(vertices_, panel.VtxBuffer) ||
        !sameItems(indices_, panel.IdxBuffer) || commands_.size() != std::size_t(panel.CmdBuffer.Size))
        return false;
    for (std::size_t i = 0; i < commands_.size(); ++i)
        if (!sameCommand(commands_[i], panel.CmdBuffer[int(i)])) return false;
    return true;
}

void PanelCache::keep(const ImDrawList& panel, int width, int w, int h, ImVec4 bg) {
    vertices_.assign(panel.VtxBuffer.begin(), panel.VtxBuffer.end());
    indices_.assign(panel.IdxBuffer.begin(), panel.IdxBuffer.end());
    commands_.assign(panel.CmdBuffer.begin(), panel.CmdBuffer.end());
    width_ = width;
    w_ = w;
    h_ = h;
    bg_ = bg;
    valid_ = true;
}

void PanelCache::render(ImDrawData* data, const ImDrawList* panel, int width, int w, int h,
                        ImVec4 bg) {
    int at = -1;
    for (int i = 0; i < data->CmdListsCount && panel; ++i)
        if (data->CmdLists[i] == panel) at = i;
    if (at < 0 || width <= 0 || !loaded()) {
        ImGui_ImplOpenGL3_RenderDrawData(data);
        return;
    }
    drawLists(data, 0, at);
    if (!framebuffer_) {
        genFramebuffers_(1, &framebuffer_);
        glGenTextures(1, &texture_);
    }
    if (textureW_ != w || textureH_ != h) { // a texture the size of the window's framebuffer
        glBindTexture(GL_TEXTURE_2D, texture_);
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
        bindFramebuffer_(GL_FRAMEBUFFER, framebuffer_);
        framebufferTexture2D_(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, texture_, 0);
        bindFramebuffer_(GL_FRAMEBUFFER, 0);
        textureW_ = w;
        textureH_ = h;
        valid_ = false;
    }
    if (!same(*panel, width, w, h, bg)) { // the panel drawn into the texture, as on the screen
        bindFramebuffer_(GL_FRAMEBUFFER, framebuffer_);
        glEnable(GL_SCISSOR_TEST);
        glScissor(0, 0, width, h);
        glClearColor(bg.x, bg.y, bg.z, 1);
        glClear(GL_COLOR_BUFFER_BIT);
        glDisable(GL_SCISSOR_TEST);
        drawLists(data, at, at + 1);
        bindFramebuffer_(GL_FRAMEBUFFER, 0);
        keep(*panel, width, w, h, bg);
    }
    bindFramebuffer_(GL_READ_FRAMEBUFFER, framebuffer_);
    blitFramebuffer_(0, 0, width, h, 0, 0, width, h, GL_COLOR_BUFFER_BIT, GL_NEAREST);
    bindFramebuffer_(GL_FRAMEBUFFER, 0);
    drawLists(data, at + 1, data->CmdListsCount);
}

void PanelCache::release() {
    if (framebuffer_) {
        deleteFramebuffers_(1, &framebuffer_);
        glDeleteTextures(1, &texture_);
    }
    framebuffer_ = texture_ = 0;
    textureW_ = textureH_ = 0;
    valid_ = false;
}

} // namespace app
