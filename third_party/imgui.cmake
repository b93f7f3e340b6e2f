# Dear ImGui from Debian's libimgui-dev: a static libimgui.a that already holds the SDL2 and
# OpenGL3 back ends (headers under /usr/include/imgui). This turns it into the target carom_imgui.
find_package(PkgConfig REQUIRED)
pkg_check_modules(IMGUI REQUIRED IMPORTED_TARGET imgui)
find_package(SDL2 REQUIRED)
find_package(OpenGL REQUIRED)
add_library(carom_imgui INTERFACE)
target_link_libraries(carom_imgui INTERFACE PkgConfig::IMGUI SDL2::SDL2 OpenGL::GL ${CMAKE_DL_LIBS})
