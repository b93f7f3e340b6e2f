// Preset discovery and the generated n-block scene.
#include "scenes.h"

#include <SDL.h>
#include <algorithm>
#include <cmath>
#include <filesystem>

namespace app {
namespace fs = std::filesystem;

std::string findAssetDir() {
    if (char* base = SDL_GetBasePath()) {
        fs::path exeDir(base);
        SDL_free(base);
        std::error_code ec;
        fs::path candidate = exeDir.parent_path().parent_path() / "assets";
        if (fs::is_directory(candidate / "scenes", ec)) return candidate.string();
        candidate = exeDir / "assets";
        if (fs::is_directory(candidate / "scenes", ec)) return candidate.string();
#ifdef CAROM_INSTALLED_ASSET_DIR
        candidate = (exeDir / CAROM_INSTALLED_ASSET_DIR).lexically_normal();
        if (fs::is_directory(candidate / "scenes", ec)) return candidate.string();
#endif
    }
#ifdef CAROM_ASSET_DIR
    return CAROM_ASSET_DIR;
#else
    return "assets";
#endif
}

std::vector<Preset> listPresets(const std::string& assetDir) {
    std::vector<Preset> out;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(fs::path(assetDir) / "scenes", ec)) {
        if (e.path().extension() != ".json") continue;
        const carom::SceneCaption c = carom::readSceneCaption(e.path().string());
        out.push_back({e.path().stem().string(), e.path().string(), c.name, c.description});
    }
    std::sort(out.begin(), out.end(),
              [](const Preset& a, const Preset& b) { return a.name < b.name; });
    return out;
}

namespace {

carom::BodyDef block(int k, carom::Vec2 p, double angle, carom::Vec2 v, double w) {
    carom::BodyDef d;
    d.name = "block" + std::to_string(k);
    d.shape = carom::Shape::box(1, 3);
    d.position = p;
    d.angle = angle;
    d.velocity = v;
    d.angularVelocity = w;
    d.mass = 1.0;
    return d;
}

} // namespace

carom::Scene defaultBlocksBase() {
    carom::Scene s;
    s.name = "Rigid Body Collisions";
    s.walls = carom::Walls{};
    // Three blocks, two of them moving, as myPhysicsLab's ImpulseApp opens.
    s.bodies = {block(1, {-3.8, 0}, 0, {0, 0}, 0), block(2, {0, 0.5}, 0.6, {1.5, 0.8}, 0.5),
                block(3, {3.8, -1}, -0.3, {-1, -0.5}, -0.3)};
    return s;
}

int countBlocks(const carom::Scene& scene) {
    int n = 0;
    for (;;) {
        std::string name = "block" + std::to_string(n + 1);
        bool found = std::any_of(scene.bodies.begin(), scene.bodies.end(),
                                 [&](const carom::BodyDef& d) { return d.name == name; });
        if (!found) return n;
        ++n;
    }
}

carom::Scene blocksScene(const carom::Scene& base, int n) {
    n = std::clamp(n, 1, 6);
    carom::Scene s = base;
    s.bodies.clear();
    // Keep every body that is not a numbered block, and the blocks up to n.
    for (const carom::BodyDef& d : base.bodies) {
        bool isBlock = d.name.rfind("block", 0) == 0 && d.name.size() > 5;
        int k = isBlock ? std::atoi(d.name.c_str() + 5) : 0;
        if (!isBlock || k == 0 || k <= n) s.bodies.push_back(d);
    }
    if (countBlocks(s) >= n) return s; // the base's own blocks, where it put them
    // More blocks than the base has: all of them on a 3 × 2 grid whose places are farther apart
    // than two blocks' bounding circles (2 × 1.58 m) and inside walls at ±6, the base's blocks
    // keeping their motion, the new ones tilted a little and moving slowly so that they meet.
    const carom::Vec2 places[6] = {{-3.8, 2.3},  {0, 2.3},  {3.8, 2.3},
                                   {-3.8, -2.3}, {0, -2.3}, {3.8, -2.3}};
    for (int k = 1; k <= n; ++k) {
        const std::string name = "block" + std::to_string(k);
        auto it = std::find_if(s.bodies.begin(), s.bodies.end(),
                               [&](const carom::BodyDef& d) { return d.name == name; });
        if (it != s.bodies.end())
            it->position = places[k - 1];
        else
            s.bodies.push_back(block(k, places[k - 1], 0.25 * std::sin(3.0 * k),
                                     {0.6 * std::cos(2.0 * k), 0.6 * std::sin(2.0 * k)},
                                     0.2 * std::cos(5.0 * k)));
    }
    return s;
}

} // namespace app
