// The settings table: every WorldSettings field in it, saved and read back, and checked with the
// same words by the engine, the scene reader and the command line.
#include "carom/scene.h"
#include "guard_check.h"

#include <gtest/gtest.h>
#include <set>
#include <type_traits>
#include <variant>

using namespace carom;

namespace {

// A value of the setting other than its default that it accepts.
void changeFromDefault(const SettingInfo& s, WorldSettings& w) {
    std::visit(
        [&](auto member) {
            auto& x = w.*member;
            using T = std::decay_t<decltype(x)>;
            if constexpr (std::is_same_v<T, Vec2>) {
                x = {1.5, -2.5};
            } else if constexpr (std::is_same_v<T, bool>) {
                x = !x;
            } else if constexpr (std::is_enum_v<T>) {
                x = static_cast<T>((static_cast<std::size_t>(x) + 1) % s.choices.size());
            } else {
                for (double v : {0.5, 0.25, 2.0, 3.0})
                    if (v != x && !brokenRule(s, v)) {
                        x = static_cast<T>(v);
                        return;
                    }
                FAIL() << s.name << ": no other value tried is accepted";
            }
        },
        s.member);
}

bool same(const SettingInfo& s, const WorldSettings& a, const WorldSettings& b) {
    return std::visit(
        [&](auto member) {
            const auto &x = a.*member, &y = b.*member;
            if constexpr (std::is_same_v<std::decay_t<decltype(x)>, Vec2>)
                return x.x == y.x && x.y == y.y;
            else
                return x == y;
        },
        s.member);
}

std::string sceneRefusal(const std::string& json) {
    try {
        parseScene(json, "t.json");
    } catch (const SceneError& e) {
        return e.what();
    }
    return "";
}

} // namespace

TEST(Settings, NamesAreUniqueAndTheDefaultsValid) {
    std::set<std::string> names;
    for (const SettingInfo& s : worldSettingsTable()) {
        EXPECT_TRUE(names.insert(s.name).second) << s.name;
        EXPECT_EQ(&setting(s.name), &s);
        EXPECT_TRUE(*s.help) << s.name;
    }
    EXPECT_EQ(names.size(), 26u); // every field of WorldSettings
    EXPECT_NO_THROW(validate(WorldSettings{}));
    EXPECT_THROW(setting("no_such_setting"), std::out_of_range);
}

TEST(Settings, EverySettingSavesAndLoadsBack) {
    for (const SettingInfo& s : worldSettingsTable()) {
        Scene scene;
        changeFromDefault(s, scene.settings);
        ASSERT_FALSE(same(s, scene.settings, WorldSettings{})) << s.name;
        const Scene back = parseScene(serializeScene(scene), "t.json");
        for (const SettingInfo& t : worldSettingsTable())
            EXPECT_TRUE(same(t, back.settings, scene.settings)) << s.name << " changed " << t.name;
    }
}

TEST(Settings, RangesAreSaidAlike) {
    EXPECT_EQ(rangeText(setting("time_step")), "> 0 and <= 1 s");
    EXPECT_EQ(*brokenRule(setting("time_step"), 0), "> 0");
    EXPECT_EQ(*brokenRule(setting("time_step"), 2), "<= 1 s");
    EXPECT_EQ(*brokenRule(setting("restitution"), -1), "in [0, 1]");
    EXPECT_EQ(*brokenRule(setting("linear_slop"), 2), "in [0, 1] m");
    EXPECT_EQ(*brokenRule(setting("damping"), -1), ">= 0");
    EXPECT_EQ(*brokenRule(setting("velocity_iterations"), 2.5), "a whole number in 1..1000");
    EXPECT_FALSE(brokenRule(setting("time_step"), 1));
    EXPECT_FALSE(brokenRule(setting("max_projection"), 1e12));

    // The engine and the scene file refuse -1, below every number's range, in the same words.
    for (const SettingInfo& s : worldSettingsTable()) {
        const bool whole = std::holds_alternative<int WorldSettings::*>(s.member);
        if (!whole && !std::holds_alternative<double WorldSettings::*>(s.member)) continue;
        const double bad = -1;
        const std::string rule = "must be " + *brokenRule(s, bad) + ", got -1";
        WorldSettings w;
        if (whole)
            w.*std::get<int WorldSettings::*>(s.member) = int(bad);
        else
            w.*std::get<double WorldSettings::*>(s.member) = bad;
        try {
            validate(w);
            ADD_FAILURE() << s.name << " accepted " << bad;
        } catch (const std::invalid_argument& e) {
            EXPECT_EQ(e.what(), std::string(s.name) + ": " + rule);
        }
        const std::string field = "\"" + std::string(s.name) + "\": -1";
        const std::string json =
            *s.group ? "{\"format\": 1, \"" + std::string(s.group) + "\": {" + field + "}}"
                     : "{\"format\": 1, " + field + "}";
        const std::string where = *s.group ? "/" + std::string(s.group) + "/" : "/";
        EXPECT_EQ(sceneRefusal(json), "t.json: " + where + s.name + ": " + rule);
    }
}

// A setting shown greyed for a method (SettingInfo::methods) is one its step does not read: set
// to another value, it changes no bit of a run of that method. Checked on the presets of rigid
// bodies resting, stacking and colliding, for every row that names its methods.
TEST(Settings, WhatAMethodDoesNotReadChangesNothing) {
    // Guards expected: bits, not guards (the presets' guards:
    // Guards.SlowOnThePresetsOnlyWhereDocumented).
    const carom_test::ExpectGuards expected;
    auto changed = [](const SettingInfo& s, WorldSettings w) {
        std::visit(
            [&](auto member) {
                using T = std::decay_t<decltype(w.*member)>;
                if constexpr (std::is_same_v<T, double>)
                    w.*member = w.*member * 0.5 + 0.01;
                else if constexpr (std::is_same_v<T, int>)
                    w.*member = w.*member + 3;
                else if constexpr (std::is_same_v<T, bool>)
                    w.*member = !(w.*member);
                else if constexpr (std::is_enum_v<T>)
                    w.*member = T((int(w.*member) + 1) % int(s.choices.size()));
            },
            s.member);
        return w;
    };
    for (const char* preset : {"box-stack", "polygons", "newtons-cradle"}) {
        const Scene scene = loadScene(std::string(CAROM_ASSET_DIR "/scenes/") + preset + ".json");
        for (const SettingInfo& s : worldSettingsTable()) {
            if (s.methods == 0x1f) continue;
            for (Method m : allMethods()) {
                if (isRead(s, m, false)) continue;
                Scene a = scene, b = scene;
                a.settings.method = b.settings.method = m;
                b.settings = changed(s, b.settings);
                World wa = buildWorld(a), wb = buildWorld(b);
                for (int i = 0; i < 90; ++i)
                    wa.step(), wb.step();
                for (std::size_t i = 0; i < wa.bodies().size(); ++i) {
                    const Body &x = wa.bodies()[i], &y = wb.bodies()[i];
                    EXPECT_TRUE(x.xf().p == y.xf().p && x.v == y.v && x.w == y.w)
                        << s.name << " changed " << preset << " in " << toString(m);
                }
            }
        }
    }
}

TEST(Settings, SaysWhichMethodsReadASetting) {
    EXPECT_EQ(readByText(setting("velocity_iterations")),
              "read by the impulse+projection, impulse, penalty and exact methods, and for soft "
              "bodies in every method");
    EXPECT_EQ(readByText(setting("penalty_stiffness")), "read by the penalty method");
    EXPECT_FALSE(isRead(setting("velocity_iterations"), Method::Projection, false));
    EXPECT_TRUE(isRead(setting("velocity_iterations"), Method::Projection, true));
    EXPECT_TRUE(isRead(setting("time_step"), Method::Exact, false));
}
