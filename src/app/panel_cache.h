// The controls panel drawn once and copied to the screen while it stays the same.
//
// Mesa's software rasterizer (llvmpipe: the OpenGL of a machine without a GPU, and of Xvfb)
// spends about 0.7 µs on every triangle, however small: 3,400 quads of 4×4 pixels took 4.5 ms a
// frame to draw at 1920×1080 against 0.5 ms for 900,000 pixels in 100 large ones (a test program,
// clear and swap alone 1.7 ms). Text is two triangles a glyph, and the controls panel is 3,800
// triangles: about 3 ms of every frame, paused or not, for a panel that changes only when the user
// touches it. ImGui builds its lists anew each frame; where the panel's list holds the same
// vertices, indices and commands as the one drawn last (and the window is the same size), the
// panel drawn then, kept in a texture of its own, is copied to the screen instead
// (glBlitFramebuffer): the same pixels, as the list is drawn there just as it would be on the
// screen, over the same background.
#pragma once

#include <SDL_opengl.h>
#include <imgui.h>
#include <vector>

namespace app {

class PanelCache {
  public:
    // Draws the lists of `data` into the window's framebuffer, `w` × `h` pixels, in their order:
    // the list `panel` (the controls panel, null if not drawn as one window), which covers the
    // window's left `width` pixels over their background `bg` (cleared there before, as ImGui
    // draws none), from the texture where it has not changed since it was drawn there.
    void render(ImDrawData* data, const ImDrawList* panel, int width, int w, int h, ImVec4 bg);
    // Frees the texture and its framebuffer: before the OpenGL context goes.
    void release();

  private:
    bool loaded();
    bool same(const ImDrawList& panel, int width, int w, int h, ImVec4 bg) const;
    void keep(const ImDrawList& panel, int width, int w, int h, ImVec4 bg);

    // The framebuffer objects of OpenGL 3.0, found at run time (SDL_GL_GetProcAddress); without
    // them every list is drawn each frame.
    void (*genFramebuffers_)(GLsizei, GLuint*) = nullptr;
    void (*deleteFramebuffers_)(GLsizei, const GLuint*) = nullptr;
    void (*bindFramebuffer_)(GLenum, GLuint) = nullptr;
    void (*framebufferTexture2D_)(GLenum, GLenum, GLenum, GLuint, GLint) = nullptr;
    void (*blitFramebuffer_)(GLint, GLint, GLint, GLint, GLint, GLint, GLint, GLint, GLbitfield,
                             GLenum) = nullptr;
    bool triedLoading_ = false;

    GLuint framebuffer_ = 0, texture_ = 0;
    int textureW_ = 0, textureH_ = 0;
    // What the texture holds: the panel's list as drawn there, and what it was drawn for.
    bool valid_ = false;
    std::vector<ImDrawVert> vertices_;
    std::vector<ImDrawIdx> indices_;
    std::vector<ImDrawCmd> commands_;
    int width_ = 0, w_ = 0, h_ = 0;
    ImVec4 bg_{0, 0, 0, 0};
};

} // namespace app
