// Where the preset scenes live, which ones there are, and the "number of objects" scene.
#pragma once

#include "carom/scene.h"
#include <string>
#include <vector>

namespace app {

// The first of these that holds scenes/: assets/ beside the executable's folder (the build tree:
// build/carom finds the repository's assets), assets/ in the executable's folder, the installed
// assets (CAROM_INSTALLED_ASSET_DIR, relative to the executable: ../share/carom/assets); else
// CAROM_ASSET_DIR, the source tree's.
std::string findAssetDir();

struct Preset {
    std::string name; // file name without .json
    std::string path;
    std::string title, description; // the scene's own (carom::readSceneCaption)
};
std::vector<Preset> listPresets(const std::string& assetDir); // sorted by name

constexpr const char* kDefaultPreset = "rigid-body-collisions";

// The rigid-body-collisions scene with n blocks (1..6), as myPhysicsLab's "number of objects":
// blocks of 1 × 3 m and 1 kg inside walls at ±6 m. Up to as many blocks as `base` has, its
// blocks as they are; more, and all of them go to six places apart, the base's keeping their
// motion. A default base is used when the preset file is missing.
carom::Scene blocksScene(const carom::Scene& base, int n);
carom::Scene defaultBlocksBase();
int countBlocks(const carom::Scene& scene); // bodies named block1, block2, ... in a row

} // namespace app
