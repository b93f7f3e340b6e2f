// Scene files (docs/scene-format.md) <-> worlds. A Scene is the file's content as data;
// buildWorld makes a running World of it and captureScene turns a World's state back into one.
#pragma once

#include "carom/world.h"
#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace carom {

// A refused scene. what() reads "FILE: /json/pointer: what is wrong", e.g.
// "scenes/broken.json: /bodies/2/shape/radius: must be > 0, got -1"; callers that print it to
// the console put "error: " in front.
class SceneError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

struct Scene {
    std::string name;
    std::string description; // what the scene shows and what to try (Carom's addition)
    WorldSettings settings;
    std::optional<Walls> walls;
    std::vector<BodyDef> bodies;         // rigid bodies, in file order
    std::vector<SoftBodyDef> softBodies; // "type": "soft", in file order
    // Where each soft body stands among the rigid ones in the file: after the first
    // softPlaces[k] of them (missing: after all of them).
    std::vector<std::size_t> softPlaces;
    // Joints, their bodies a and b indices into `bodies` (a unset: the world).
    std::vector<JointDef> joints;
    std::vector<Manifold> contacts; // a saved world's contacts: the solver's warm-start state
    std::vector<FoundAt> found;     // where they were found: the default method's recycling
    ExactBackoff exactBackoff;      // a saved world's exact-method back-off (world.h)
};

// Whether the exact method takes the scene: it refuses joints and compound bodies (World).
inline bool exactTakes(const Scene& s) {
    return s.joints.empty() && std::none_of(s.bodies.begin(), s.bodies.end(),
                                            [](const BodyDef& b) { return !b.shapes.empty(); });
}

// How many rigid bodies come before soft body k in the scene's order.
inline std::size_t softPlace(const Scene& s, std::size_t k) {
    return k < s.softPlaces.size() ? std::min(s.softPlaces[k], s.bodies.size()) : s.bodies.size();
}

Scene parseScene(const std::string& jsonText, const std::string& fileName); // throws SceneError
Scene loadScene(const std::string& path);                                   // throws SceneError
// Whether the file at `path` may be a scene, for a file browser to offer: false for a file that
// is JSON but not a scene's (not an object with a "format" field, which every scene has), such as
// a project's CMakePresets.json; true for a scene, and for a file that is not JSON at all or too
// large to look into here (over 4 MB), which may be a scene with a typo that loadScene explains.
// Never throws: a file that cannot be read is left to loadScene too.
bool mayBeSceneFile(const std::string& path);
// A scene file's top-level "name" and "description" (what a list of scenes shows), read without
// building the rest: the parse stops once both are seen (they come first in the files Carom
// writes). Empty where absent, not text, or the file is not JSON; never throws.
struct SceneCaption {
    std::string name, description;
};
SceneCaption readSceneCaption(const std::string& path);
// The largest scene file loadScene reads, bytes (a million bodies take about 110 MB).
constexpr std::size_t kMaxSceneBytes = std::size_t(1) << 30;
std::string serializeScene(const Scene& scene);
// The scene file's text, checked to load back (throws SceneError naming path if it would not).
std::string sceneFileText(const Scene& scene, const std::string& path);
// Writes it as an OutputFile (carom/output_file.h): no partial file is ever left behind.
void saveScene(const Scene& scene, const std::string& path); // throws SceneError

World buildWorld(const Scene& scene);
// The world's state as a scene named `name` (walls saved as "walls"), with the description.
Scene captureScene(const World& world, const std::string& name,
                   const std::string& description = "");

} // namespace carom
