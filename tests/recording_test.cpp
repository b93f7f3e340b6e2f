// Recordings and the history (issue 10): the determinism they rest on (every preset, every
// method: two runs, a copied world and a saved-and-rebuilt one go on with the same bits), the
// file's round trip, damaged files refused or cut short with what and where, and the history's
// seeks giving back the bits the world had.
#include "../src/app/history.h"
#include "carom/recording.h"
#include "guard_check.h"
#include "test_worlds.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <string>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;
const std::string kAssets = CAROM_ASSET_DIR "/scenes/";

// Every number of the state in a form that is the same text exactly when the bits are the same
// (the scene writer's shortest round-trip numbers), with the clock and the thrusters and spring.
std::string bits(const carom::World& w) {
    std::string s = carom::serializeScene(carom::captureScene(w, "x"));
    char clock[64];
    std::snprintf(clock, sizeof clock, "%a %llu", w.time(), (unsigned long long)w.stepCount());
    s += clock;
    for (const carom::Thruster& t : w.thrusters())
        s += t.firing ? "1" : "0";
    if (const auto& sp = w.mouseSpring()) {
        std::snprintf(clock, sizeof clock, " %a %a", sp->target.x, sp->target.y);
        s += clock;
    }
    return s;
}

void steps(carom::World& w, int n) {
    for (int i = 0; i < n; ++i)
        w.step();
}

} // namespace

// Every preset in one method: two runs, a copy made halfway and a state saved halfway all go on
// to the same bits. One test a method, so that each has its own time (under the sanitizers, all
// five methods in one test took 430 s of CI's 600).
class PresetBits : public ::testing::TestWithParam<carom::Method> {};

TEST_P(PresetBits, SlowEveryPresetGoesOnWithTheSameBits) {
    // Guards expected: bits, not guards (the presets' guards:
    // Guards.SlowOnThePresetsOnlyWhereDocumented).
    const carom_test::ExpectGuards expected;
    const carom::Method m = GetParam();
    for (const auto& entry : fs::directory_iterator(kAssets)) {
        if (entry.path().extension() != ".json") continue;
        carom::Scene scene = carom::loadScene(entry.path().string());
        if (m == carom::Method::Exact && !carom::exactTakes(scene)) continue; // refused
        scene.settings.method = m;
        // The big scenes take few steps: each still meets contacts and warm starting.
        const int n = scene.bodies.size() > 1000 ? 2 : 60;
        const std::string what =
            entry.path().filename().string() + " " + std::string(carom::toString(m));
        carom::World a = carom::buildWorld(scene), b = carom::buildWorld(scene);
        steps(a, n);
        steps(b, n / 2);
        carom::World copy = b;                                                 // a keyframe
        carom::World rebuilt = carom::buildState(carom::captureState(b, "x")); // a recording
        steps(b, n - n / 2);
        steps(copy, n - n / 2);
        steps(rebuilt, n - n / 2);
        const std::string expected = bits(a);
        EXPECT_EQ(bits(b), expected) << what << ": two runs differ";
        EXPECT_EQ(bits(copy), expected) << what << ": a copied world goes on differently";
        EXPECT_EQ(bits(rebuilt), expected) << what << ": a saved state goes on differently";
    }
}

INSTANTIATE_TEST_SUITE_P(Methods, PresetBits, ::testing::ValuesIn(carom::allMethods()),
                         [](const auto& info) { return carom::test::testName(info.param); });

namespace {

carom::World twoBlocks() {
    carom::World w = carom::buildWorld(carom::loadScene(kAssets + "rigid-body-collisions.json"));
    w.addThruster(0, {0, -1}, {0, 1});
    return w;
}

// One input of each kind, at a few steps, as the app would send them.
std::vector<carom::RecordedInput> someInputs(const carom::World& start) {
    using namespace carom::input;
    carom::WorldSettings s = start.settings();
    s.restitution = 0.7;
    s.gravity = {0.5, -3};
    return {{3, SpringOn{0, {0.1, 0.2}, {1, 1}, 1.0, std::nullopt}},
            {4, SpringTarget{{1.5, 0.25}}},
            {9, SpringOff{}},
            {9, Thrust{0, true}},
            {15, Settings{s}},
            {15, Restitution{1, 0.3}},
            {16, Friction{2, std::nullopt}},
            {20, Thrust{0, false}},
            {21, Pose{1, {0.5, 0.5}, 0.25}},
            {21, Velocity{1, {1, -1}, 2}},
            {22, Mass{2, 3.5}}};
}

carom::World applyAll(carom::World w, const std::vector<carom::RecordedInput>& inputs, int end) {
    for (const carom::RecordedInput& in : inputs) {
        while (w.stepCount() < in.step)
            w.step();
        carom::applyInput(w, in.input);
    }
    while (w.stepCount() < std::uint64_t(end))
        w.step();
    return w;
}

struct TempFile {
    fs::path path =
        fs::temp_directory_path() / ("carom-recording-" + std::to_string(::getpid()) + ".rec");
    ~TempFile() { fs::remove(path); }
};

std::string readAll(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

} // namespace

// Written, read back and replayed: every input kind gives the world it gave when applied.
// A recording of `start` as a world at step `from`, then the inputs, ended at step `end`.
void writeRecording(const std::filesystem::path& path, const carom::World& start,
                    std::uint64_t from, const std::vector<carom::RecordedInput>& inputs,
                    std::uint64_t end) {
    carom::RecordingWriter out(path.string());
    out.write(from, carom::input::Replace{
                        std::make_shared<carom::WorldState>(carom::captureState(start, "start"))});
    for (const carom::RecordedInput& in : inputs)
        out.write(in.step, in.input);
    out.end(end);
}

TEST(Recording, WrittenAndReadBackReplaysToTheSameBits) {
    const carom::World start = twoBlocks();
    const auto inputs = someInputs(start);
    TempFile f;
    writeRecording(f.path, start, 0, inputs, 40);
    const carom::Recording rec = carom::loadRecording(f.path.string());
    EXPECT_EQ(rec.damage, "");
    ASSERT_TRUE(rec.end.has_value());
    EXPECT_EQ(*rec.end, 40u);
    ASSERT_EQ(rec.inputs.size(), inputs.size() + 1);
    const carom::World replayed =
        applyAll(carom::buildState(*std::get<carom::input::Replace>(rec.inputs[0].input).state),
                 {rec.inputs.begin() + 1, rec.inputs.end()}, 40);
    EXPECT_EQ(bits(replayed), bits(applyAll(start, inputs, 40)));
}

// A damaged recording: the header or the start broken is refused with the line; a line broken
// later ends the recording there, the inputs before it kept, and says where and what.
// A soft body's inputs travel too: the mouse spring on a particle (in an input and in a world
// state written while it pulls) and a particle moved while paused.
TEST(Recording, SoftBodyInputsReplayToTheSameBits) {
    const carom::World start =
        carom::buildWorld(carom::loadScene(CAROM_ASSET_DIR "/scenes/soft-jelly-drop.json"));
    ASSERT_FALSE(start.softBodies().empty());
    using namespace carom::input;
    const std::vector<carom::RecordedInput> inputs = {
        {5, SpringOn{0, {0, 0}, {1, 2}, 1.0, std::size_t{3}}},
        {30, SpringTarget{{2, 2.5}}},
        {60, SpringOff{}},
        {61, ParticlePosition{0, 0, {0.2, 1.5}}}};
    carom::World middle = applyAll(start, {inputs.begin(), inputs.begin() + 2}, 40);
    ASSERT_TRUE(middle.mouseSpring() && middle.mouseSpring()->particle);
    TempFile f;
    writeRecording(f.path, middle, 40, {inputs.begin() + 2, inputs.end()}, 90);
    const carom::Recording rec = carom::loadRecording(f.path.string());
    EXPECT_EQ(rec.damage, "");
    const carom::World replayed =
        applyAll(carom::buildState(*std::get<Replace>(rec.inputs[0].input).state),
                 {rec.inputs.begin() + 1, rec.inputs.end()}, 90);
    EXPECT_EQ(bits(replayed), bits(applyAll(start, inputs, 90)));
}

TEST(Recording, DamageIsRefusedOrCutShortWithTheLine) {
    const carom::World start = twoBlocks();
    TempFile f;
    writeRecording(f.path, start, 0, someInputs(start), 40);
    const std::string good = readAll(f.path);
    std::vector<std::string> lines;
    for (std::size_t at = 0; at < good.size();) {
        const std::size_t nl = good.find('\n', at);
        lines.push_back(good.substr(at, nl - at));
        at = nl + 1;
    }
    auto join = [](const std::vector<std::string>& ls) {
        std::string s;
        for (const std::string& l : ls)
            s += l + "\n";
        return s;
    };
    auto refused = [&](const std::string& text) -> std::string {
        try {
            carom::parseRecording(text, "R");
        } catch (const carom::RecordingError& e) {
            return e.what();
        }
        return "(not refused)";
    };
    EXPECT_EQ(refused("").rfind("R: line 1: empty", 0), 0u);
    EXPECT_EQ(refused("{\"format\": \"carom-recording\", \"version\": 9}\n")
                  .rfind("R: line 1: /version", 0),
              0u);
    EXPECT_EQ(refused("{\"format\": 1}\n").rfind("R: line 1: /format", 0), 0u);
    EXPECT_NE(refused(lines[0] + "\n").find("no world after the header"), std::string::npos);
    EXPECT_EQ(refused(lines[0] + "\n" + lines[2] + "\n")
                  .rfind("R: line 2: /do: the first input must be the world", 0),
              0u);

    // Cut in the middle of line 5: lines 2-4 (the world and two inputs) are kept.
    const std::string cut = join({lines.begin(), lines.begin() + 4}) + lines[4].substr(0, 10);
    carom::Recording r = carom::parseRecording(cut, "R");
    EXPECT_EQ(r.inputs.size(), 3u);
    EXPECT_FALSE(r.end.has_value());
    EXPECT_EQ(r.damage.rfind("R: line 5: cut short", 0), 0u) << r.damage;

    // An unknown input, a step going back, a bad number: the line and what.
    std::vector<std::string> bad = lines;
    bad[3] = R"({"at": 4, "do": "teleport"})";
    r = carom::parseRecording(join(bad), "R");
    EXPECT_EQ(r.inputs.size(), 2u);
    EXPECT_EQ(r.damage.rfind("R: line 4: /do: unknown input \"teleport\"", 0), 0u) << r.damage;
    bad = lines;
    bad[4] = R"({"at": 1, "do": "spring_off"})";
    r = carom::parseRecording(join(bad), "R");
    EXPECT_EQ(r.damage.rfind("R: line 5: /at: step 1 is before", 0), 0u) << r.damage;
    bad = lines;
    bad[3] = R"({"at": 4, "do": "spring_target", "target": [1, "x"]})";
    r = carom::parseRecording(join(bad), "R");
    EXPECT_EQ(r.damage.rfind("R: line 4: /target", 0), 0u) << r.damage;
    // Garbage after the end line.
    r = carom::parseRecording(good + "junk\n", "R");
    EXPECT_NE(r.damage.find("more after the end line"), std::string::npos) << r.damage;
}

// The history: a seek anywhere gives the bits the world had there, inputs included; going back
// n steps and forward n gives the same state; a truncated history takes another path.
TEST(History, SeeksGiveBackTheBitsTheWorldHad) {
    carom::World w = twoBlocks();
    app::History h;
    h.start(w);
    std::vector<std::string> seen{bits(w)};
    const auto inputs = someInputs(w);
    std::size_t next = 0;
    for (int i = 0; i < 150; ++i) {
        w.step();
        h.stepped(w);
        for (; next < inputs.size() && inputs[next].step == w.stepCount(); ++next) {
            carom::applyInput(w, inputs[next].input);
            h.log(w, inputs[next].input);
        }
        seen.push_back(bits(w));
    }
    EXPECT_GT(h.keyframes(), 2u);
    for (std::uint64_t n : {0, 3, 9, 15, 21, 22, 59, 60, 61, 149, 150, 7}) {
        h.seek(w, n);
        EXPECT_EQ(bits(w), seen[n]) << "step " << n;
    }
    // Back 10 one at a time, forward 10 along the history.
    h.seek(w, 150);
    for (int i = 0; i < 10; ++i)
        h.seek(w, w.stepCount() - 1);
    EXPECT_EQ(bits(w), seen[140]);
    for (int i = 0; i < 10; ++i)
        h.stepAlong(w);
    EXPECT_EQ(bits(w), seen[150]);
    EXPECT_TRUE(h.atEnd(w));
    // Another path from step 14: the later inputs go.
    h.seek(w, 14);
    h.truncate(w);
    EXPECT_EQ(h.last(), 14u);
    for (int i = 0; i < 10; ++i) {
        w.step();
        h.stepped(w);
    }
    carom::World again = twoBlocks();
    again = applyAll(again, {inputs.begin(), inputs.begin() + 4}, 24);
    EXPECT_EQ(bits(w), bits(again));
}

// Over its memory budget the history keeps every other keyframe: fewer of them, within the
// budget, and seeks still give the bits the world had (from farther back).
TEST(History, OverTheBudgetKeyframesThinAndSeeksStillHold) {
    carom::World w = twoBlocks();
    app::History h;
    h.budgetBytes = 4 * app::worldBytes(w) + 4096;
    h.start(w);
    std::vector<std::string> seen{bits(w)};
    for (int i = 0; i < 900; ++i) {
        w.step();
        h.stepped(w);
        seen.push_back(bits(w));
    }
    EXPECT_LE(h.bytes(), h.budgetBytes);
    EXPECT_GE(h.keyframes(), 2u);
    for (std::uint64_t n : {0, 1, 299, 450, 899, 900, 61}) {
        h.seek(w, n);
        EXPECT_EQ(bits(w), seen[n]) << "step " << n;
    }
}

// A loaded input the world refuses (a thruster it does not have) ends the history before it,
// and says which line: playing along never throws.
TEST(History, ARefusedInputEndsTheHistoryThere) {
    carom::World w = twoBlocks();
    app::History h;
    h.start(w);
    h.load(w,
           {{5, carom::input::Thrust{0, true}, 3},
            {8, carom::input::Thrust{99, true}, 4},
            {9, carom::input::Thrust{0, false}, 5}},
           20);
    while (!h.atEnd(w))
        h.stepAlong(w);
    EXPECT_EQ(w.stepCount(), 8u);
    EXPECT_EQ(h.last(), 8u);
    EXPECT_EQ(h.refused().rfind("line 4: ", 0), 0u) << h.refused();
    EXPECT_TRUE(w.thrusters()[0].firing);
}

// Never a crash: a recording cut anywhere, or with a byte changed anywhere, is refused with a
// RecordingError or read up to its damage; what is read replays (an input the world refuses
// throws std::invalid_argument or std::out_of_range, as the checked setters do).
TEST(Recording, CutOrChangedAnywhereIsRefusedOrReadUpToTheDamage) {
    // Guards expected: damaged recordings reach the documented limits.
    const carom_test::ExpectGuards expected;
    const carom::World start = twoBlocks();
    TempFile f;
    writeRecording(f.path, start, 0, someInputs(start), 30);
    const std::string good = readAll(f.path);
    auto check = [&](const std::string& text) {
        carom::Recording r;
        try {
            r = carom::parseRecording(text, "R");
        } catch (const carom::RecordingError& e) {
            EXPECT_EQ(std::string(e.what()).rfind("R: line ", 0), 0u) << e.what();
            return;
        }
        carom::World w =
            carom::buildState(*std::get<carom::input::Replace>(r.inputs.front().input).state);
        for (std::size_t k = 1; k < r.inputs.size(); ++k) {
            while (w.stepCount() < r.inputs[k].step)
                w.step();
            try {
                carom::applyInput(w, r.inputs[k].input);
            } catch (const std::invalid_argument&) {
                return;
            } catch (const std::out_of_range&) {
                return;
            }
        }
    };
    for (std::size_t n = 0; n < good.size(); n += 13)
        check(good.substr(0, n));
    std::uint32_t seed = 12345;
    for (int i = 0; i < 400; ++i) {
        seed = seed * 1664525u + 1013904223u;
        std::string bad = good;
        const char bytes[] = "0123456789-.e,:[]{}\"x \n\0";
        bad[seed % bad.size()] = bytes[(seed >> 16) % (sizeof bytes - 1)];
        check(bad);
    }
}

// A recording's inputs at its first step (a key already held when it began) are in the state
// at that step: applied when loaded, and again by a seek back to it.
TEST(History, LoadedInputsAtTheStartApplyAtOnce) {
    carom::World w = twoBlocks();
    app::History h;
    h.start(w);
    h.load(w, {{0, carom::input::Thrust{0, true}, 3}}, 10);
    EXPECT_TRUE(w.thrusters()[0].firing);
    h.stepAlong(w);
    h.seek(w, 0);
    EXPECT_TRUE(w.thrusters()[0].firing);
}

// Issue 46: a step count ("at", "end", a world's "steps") past kMaxRecordedSteps, up to 2^64 - 1,
// is damage at its line and field (so that no replay runs for ever, nor the app's timeline
// overflows); the world's refusals are std::invalid_argument saying what: a body it does not
// have, a mass the scene reader refuses, a wall moved (it would be saved where it was).
TEST(Recording, StepCountsAreBoundedAndRefusalsSayWhat) {
    const carom::World start = twoBlocks();
    TempFile f;
    writeRecording(f.path, start, 0, {}, 10);
    const std::string good = readAll(f.path);
    const std::string head = good.substr(0, good.find("\n{\"at\":10"));
    for (const char* at :
         {"1000000001", "1000000000000", "9223372036854775808", "18446744073709551615"}) {
        SCOPED_TRACE(at);
        carom::Recording r =
            carom::parseRecording(head + "\n{\"at\":" + at + ",\"do\":\"end\"}\n", "R");
        EXPECT_EQ(r.damage.rfind("R: line 3: /at: must be at most 1000000000 steps", 0), 0u)
            << r.damage;
        EXPECT_FALSE(r.end.has_value());
        r = carom::parseRecording(
            head + "\n{\"at\":" + at + ",\"do\":\"spring_off\"}\n{\"at\":5,\"do\":\"end\"}\n", "R");
        EXPECT_EQ(r.damage.rfind("R: line 3: /at: must be at most", 0), 0u) << r.damage;
        std::string world = head.substr(head.find('\n') + 1);
        world.replace(world.find("\"steps\":0"), 9, std::string("\"steps\":") + at);
        try {
            carom::parseRecording(head.substr(0, head.find('\n') + 1) + world + "\n", "R");
            ADD_FAILURE() << "a world at steps " << at << " was read";
        } catch (const carom::RecordingError& e) {
            EXPECT_EQ(std::string(e.what()).rfind("R: line 2: /steps: must be at most", 0), 0u)
                << e.what();
        }
    }
    EXPECT_EQ(carom::parseRecording(head + "\n{\"at\":1000000000,\"do\":\"end\"}\n", "R").end,
              1000000000u);

    carom::World w = start;
    auto refusal = [&](const carom::Input& in) -> std::string {
        try {
            carom::applyInput(w, in);
        } catch (const std::invalid_argument& e) {
            return e.what();
        }
        return "(not refused)";
    };
    using namespace carom::input;
    const std::size_t n = w.bodies().size();
    EXPECT_EQ(refusal(Velocity{n + 5, {1, 0}, 0}), "body " + std::to_string(n + 5) +
                                                       ": no such body (there are " +
                                                       std::to_string(n) + ")");
    EXPECT_EQ(refusal(Pose{n, {0, 0}, 0}).rfind("body ", 0), 0u);
    EXPECT_EQ(refusal(Thrust{7, true}), "thruster 7: no such thruster (there are 1)");
    EXPECT_EQ(refusal(SpringOn{0, {0, 0}, {1, 1}, std::nullopt, 3}).rfind("soft body 0:", 0), 0u);
    carom::BodyId block = 0, wall = 0;
    for (carom::BodyId id = 0; id < n; ++id)
        (w.origin(id).wall ? wall : block) = id;
    ASSERT_TRUE(w.origin(wall).wall);
    EXPECT_NE(refusal(Mass{block, 1e-308}).find("must be finite and > 0"), std::string::npos);
    EXPECT_NE(refusal(Pose{wall, {0, 3}, 0}).find("a wall of the box cannot be moved"),
              std::string::npos);
    EXPECT_EQ(bits(w), bits(start)); // nothing refused changed the world
}

// Issue 46 item 8: an input, one a line of a recording that may hold millions of lines, holds
// its large kinds (a body's definition, the world's settings) behind a pointer: every kind costs
// what the largest inline one does (the joint tuning's nine optional numbers). 2,000,001 spring
// moves (172 MB) took 2.6 GB in the app before, 0.5 GB after (docs/bench/history.md).
TEST(Recording, AnInputIsSmall) {
    EXPECT_LE(sizeof(carom::Input), sizeof(carom::input::JointTune) + 8);
    EXPECT_LE(sizeof(carom::input::AddBody), 16u);
    EXPECT_LE(sizeof(carom::input::Settings), 16u);
    const carom::input::Settings s{carom::WorldSettings{}};
    EXPECT_EQ(static_cast<const carom::WorldSettings&>(s.settings).restitution,
              carom::WorldSettings{}.restitution);
}
