// The side panels drawn once and copied to the screen while they stay the same.
//
// Mesa's software rasterizer (llvmpipe: the OpenGL of a machine without a GPU, and of Xvfb)
// spends about 0.7 µs on every triangle of text, however small: 3,400 quads of 4×4 pixels took
// 4.5 ms a frame to draw at 1920×1080 against 0.5 ms for 900,000 pixels in 100 large ones (a test
// program, clear and swap alone 1.7 ms). Text is two triangles a glyph, and the controls panel is
// 3,800 triangles, the graphs' panel 1,800 to 6,000: milliseconds of every frame for panels that
// change only when the user touches them (the controls), or while the simulation runs (the
// graphs). ImGui builds its lists anew each frame. Where one of these lists holds the same
// vertices, indices and commands as in the last frame, it is drawn into a texture of its own once
// and copied to the screen from there (glBlitFramebuffer) until it changes; a list that changed is
// drawn on the screen as ImGui draws it, and so is one that draws faster than it copies (the copy
// costs about 3 ns a pixel: graphs of a few lines are not worth it). The picture is the same: of
// 1.6 million pixels, a handful differ by one level in 255, at anti-aliased edges, where the
// texture's blending rounds differently.
#pragma once

#include <SDL_opengl.h>
#include <imgui.h>
#include <vector>

namespace app {

// A list that may be copied: its draw list (null if there is none), and the columns of pixels
// [x0, x1) that it alone draws in, over a background cleared there before it in the colour `bg`
// (nothing else drawn there before it).
struct CachedList {
    const ImDrawList* list = nullptr;
    int x0 = 0, x1 = 0;
    ImVec4 bg{0, 0, 0, 1};
};

// Clears the list's columns of the bound framebuffer, h pixels high, to its background.
void clearColumns(const CachedList& c, int h);

class DrawCache {
  public:
    // Draws the lists of `data` into the window's framebuffer, `w` × `h` pixels, in their order:
    // those of `cached` from the texture where they are the same as in the last frame.
    void render(ImDrawData* data, const std::vector<CachedList>& cached, int w, int h);
    // Frees the texture and its framebuffer: before the OpenGL context goes.
    void release();

  private:
    // A draw list as it was: its vertices, indices and commands, and what it was drawn for.
    struct Kept {
        std::vector<ImDrawVert> vertices;
        std::vector<ImDrawIdx> indices;
        std::vector<ImDrawCmd> commands;
        int x0 = 0, x1 = 0, w = 0, h = 0;
        ImVec4 bg{0, 0, 0, 0};
        bool valid = false;
        bool same(const ImDrawList& list, const CachedList& c, int w, int h) const;
        void keep(const ImDrawList& list, const CachedList& c, int w, int h);
    };
    // Per cached list (by its place in `cached`): as it was in the last frame, and in the texture.
    struct Slot {
        Kept lastFrame, inTexture;
    };

    bool loaded();
    bool fitTexture(int w, int h);
    void drawCached(ImDrawData* data, int at, const CachedList& c, Slot& slot, int w, int h);

    // The framebuffer objects of OpenGL 3.0, found at run time (SDL_GL_GetProcAddress); without
    // them every list is drawn each frame.
    void (*genFramebuffers_)(GLsizei, GLuint*) = nullptr;
    void (*deleteFramebuffers_)(GLsizei, const GLuint*) = nullptr;
    void (*bindFramebuffer_)(GLenum, GLuint) = nullptr;
    void (*framebufferTexture2D_)(GLenum, GLenum, GLenum, GLuint, GLint) = nullptr;
    void (*blitFramebuffer_)(GLint, GLint, GLint, GLint, GLint, GLint, GLint, GLint, GLbitfield,
                             GLenum) = nullptr;
    GLenum (*checkFramebufferStatus_)(GLenum) = nullptr;
    bool triedLoading_ = false;
    bool complete_ = true; // the texture could be drawn into (else every list is drawn each frame)

    GLuint framebuffer_ = 0, texture_ = 0;
    int textureW_ = 0, textureH_ = 0;
    std::vector<Slot> slots_;
};

} // namespace app
