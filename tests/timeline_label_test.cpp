// The timeline strip's text (src/app/timeline_label.h), issue 44 item 5: a recording that branched
// (an input made in the past) replayed in the app shows, past the branch, the world's own time,
// as the clock does, its timeline going back to the start (the time before the branch kept);
// played on past the recording's end, it says so.
#include "timeline_label.h"

#include "carom/recording.h"
#include "carom/scene.h"
#include <cstdio>
#include <gtest/gtest.h>
#include <memory>
#include <string>
#include <unistd.h>

TEST(TimelineLabel, ABranchedRecordingShowsTheClocksTimeAndItsEnd) {
    const std::string rec =
        testing::TempDir() + "carom-timeline-" + std::to_string(getpid()) + ".rec";
    {
        app::Session s;
        s.recorder = std::make_shared<carom::RecordingWriter>(rec);
        app::replaceScene(
            s,
            carom::loadScene(std::string(CAROM_ASSET_DIR) + "/scenes/rigid-body-collisions.json"),
            "");
        for (int i = 0; i < 120; ++i)
            app::stepSession(s);
        app::seek(s, 60); // back to 1 s, and the elasticity changed there: a branch
        carom::WorldSettings w = s.world.settings();
        w.restitution = 0.5;
        app::apply(s, carom::input::Settings{w});
        for (int i = 0; i < 60; ++i)
            app::stepSession(s);
        app::finishRecording(s);
    }
    app::Session p;
    app::openRecording(p, carom::loadRecording(rec), rec);
    bool branched = false;
    for (int i = 0; i < 200 && !branched; ++i) {
        app::stepSession(p);
        branched = app::followRecording(p);
    }
    ASSERT_TRUE(branched) << "the recording's second world never began";
    for (int i = 0; i < 30; ++i)
        app::stepSession(p);
    EXPECT_EQ(p.history.first(), 0u); // the time before the branch kept (item 5)
    char expected[64];
    std::snprintf(expected, sizeof expected, "%.2f s  (step %llu of", p.world.time(),
                  static_cast<unsigned long long>(p.world.stepCount()));
    EXPECT_EQ(app::timelineLabel(p).rfind(expected, 0), 0u) << app::timelineLabel(p);
    EXPECT_NEAR(p.world.time(), 1.5, 0.02); // 60 steps, then 30 past the branch, at 1/60 s
    EXPECT_FALSE(app::pastRecordingEnd(p));
    // The recording ends at step 120: on past it, the strip says so.
    while (p.world.stepCount() <= 120)
        app::stepSession(p);
    EXPECT_TRUE(app::pastRecordingEnd(p));
    std::remove(rec.c_str());
}
