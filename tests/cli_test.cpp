// carom-cli against its contract (docs/cli.md), running the real program: CSV columns,
// rows and digits, errors as one "error:" line with no partial file, bench, --save, --help.
#include "carom/recording.h"
#include "carom/scene.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <gtest/gtest.h>
#include <pwd.h>
#include <sstream>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace {

const std::string kAssets = CAROM_ASSET_DIR "/scenes/";
const std::string kCollisions = kAssets + "rigid-body-collisions.json";

std::string readFile(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> out;
    std::string item;
    std::istringstream in(s);
    while (std::getline(in, item, sep))
        out.push_back(item);
    return out;
}

std::string quote(const std::string& s) {
    std::string out = "'";
    for (char c : s)
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

// A scratch directory per test, and the program run in it with its output captured.
class Cli : public ::testing::Test {
  protected:
    void SetUp() override {
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        dir = fs::temp_directory_path() /
              (std::string("carom-cli-") + info->name() + "-" + std::to_string(::getpid()));
        fs::remove_all(dir);
        fs::create_directories(dir);
    }
    void TearDown() override { fs::remove_all(dir); }

    int cli(const std::vector<std::string>& args) {
        std::string cmd = prefix + quote(CAROM_CLI);
        for (const std::string& a : args)
            cmd += " " + quote(a);
        cmd += " >" + quote((dir / "stdout").string()) + " 2>" + quote((dir / "stderr").string());
        const int status = std::system(cmd.c_str());
        out = readFile(dir / "stdout");
        err = readFile(dir / "stderr");
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }

    std::string path(const std::string& name) const { return (dir / name).string(); }

    // Every file in the scratch directory apart from the captured output.
    std::vector<std::string> files() const {
        std::vector<std::string> names;
        for (const auto& e : fs::directory_iterator(dir)) {
            const std::string n = e.path().filename().string();
            if (n != "stdout" && n != "stderr") names.push_back(n);
        }
        return names;
    }

    // A refusal: non-zero status, one stderr line that starts with "error:", no output file.
    void expectRefused(const std::vector<std::string>& args, const std::string& mentions) {
        SCOPED_TRACE(::testing::PrintToString(args));
        EXPECT_NE(cli(args), 0);
        EXPECT_EQ(err.rfind("error: ", 0), 0u) << err;
        EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
        EXPECT_NE(err.find(mentions), std::string::npos) << err;
        EXPECT_TRUE(files().empty()) << ::testing::PrintToString(files());
    }

    fs::path dir;
    std::string out, err;
    std::string prefix; // before the program in the command: "timeout 20 "
};

double lastValue(const std::string& text, const std::string& key) {
    const std::size_t at = text.rfind(key + ": ");
    return at == std::string::npos ? NAN : std::strtod(text.c_str() + at + key.size() + 2, nullptr);
}

} // namespace

TEST_F(Cli, CsvHasTheContractsColumnsAndARowEveryKSteps) {
    ASSERT_EQ(cli({"run", kCollisions, "--steps", "10", "--csv", path("a.csv")}), 0) << err;
    const std::vector<std::string> lines = split(readFile(path("a.csv")), '\n');
    std::string header = "t,ke_linear,ke_angular,pe,energy,px,py,angular_momentum";
    for (const char* b : {"block1", "block2", "block3"}) // the walls are static: no columns
        for (const char* c : {".x", ".y", ".angle", ".vx", ".vy", ".omega"})
            header += std::string(",") + b + c;
    ASSERT_EQ(lines.size(), 1u + 11u); // header, t = 0, then one per step
    EXPECT_EQ(lines[0], header);
    for (std::size_t i = 1; i < lines.size(); ++i)
        EXPECT_EQ(split(lines[i], ',').size(), 8u + 3u * 6u);

    ASSERT_EQ(cli({"run", kCollisions, "--steps", "10", "--every", "3", "--csv", path("b.csv")}),
              0);
    const std::vector<std::string> rows = split(readFile(path("b.csv")), '\n');
    ASSERT_EQ(rows.size(), 1u + 4u); // t = 0, 3, 6, 9 steps
    const double dt = 1.0 / 60;
    for (int k = 0; k < 4; ++k)
        EXPECT_EQ(std::strtod(split(rows[1 + k], ',')[0].c_str(), nullptr), 3 * k * dt);
}

TEST_F(Cli, CsvNumbersHave17SignificantDigitsAndTheSpecsDefinitions) {
    ASSERT_EQ(cli({"run", kCollisions, "--steps", "1", "--csv", path("a.csv")}), 0) << err;
    const std::vector<std::string> lines = split(readFile(path("a.csv")), '\n');
    ASSERT_EQ(lines.size(), 3u);
    // Every field prints a double exactly as %.17g does, so it reads back bit for bit.
    for (std::size_t i = 1; i < lines.size(); ++i)
        for (const std::string& f : split(lines[i], ',')) {
            char buf[64];
            std::snprintf(buf, sizeof buf, "%.17g", std::strtod(f.c_str(), nullptr));
            EXPECT_EQ(f, buf);
        }
    EXPECT_EQ(split(lines[2], ',')[0], "0.016666666666666666"); // 1/60 to 17 digits
    // t = 0, from the scene: blocks of mass 1, I = (1 + 9)/12, v = (3,1), (-1,0.5), (0.5,-2),
    // ω = 0.5, -0.3, 0, centres (-2,0), (2,0), (0,3.5).
    const std::vector<std::string> f = split(lines[1], ',');
    const double inertia = 10.0 / 12;
    auto value = [&](int i) { return std::strtod(f[i].c_str(), nullptr); };
    EXPECT_EQ(value(0), 0);
    EXPECT_DOUBLE_EQ(value(1), 0.5 * (10 + 1.25 + 4.25));                // Σ ½ m |v|²
    EXPECT_DOUBLE_EQ(value(2), 0.5 * inertia * (0.25 + 0.09));           // Σ ½ I ω²
    EXPECT_EQ(value(3), 0);                                              // no gravity
    EXPECT_DOUBLE_EQ(value(4), value(1) + value(2));                     // energy
    EXPECT_DOUBLE_EQ(value(5), 3 - 1 + 0.5);                             // Σ m vx
    EXPECT_DOUBLE_EQ(value(6), 1 + 0.5 - 2);                             // Σ m vy
    EXPECT_DOUBLE_EQ(value(7), (-2 + 1 - 1.75) + inertia * (0.5 - 0.3)); // Σ m p×v + I ω
    EXPECT_EQ(value(8), -2);                                             // block1.x
    EXPECT_EQ(value(11), 3);                                             // block1.vx
    EXPECT_EQ(value(13), 0.5);                                           // block1.omega
}

TEST_F(Cli, GravityGivesPotentialEnergyAndTimeGivesSteps) {
    ASSERT_EQ(cli({"run", kAssets + "bouncing-ball.json", "--time", "0.5", "--csv", path("a.csv"),
                   "--every", "30"}),
              0)
        << err;
    EXPECT_NE(out.find("steps: 30\n"), std::string::npos) << out; // 0.5 s at 1/60 s
    const std::vector<std::string> lines = split(readFile(path("a.csv")), '\n');
    ASSERT_EQ(lines.size(), 3u);
    // pe = −m g·p with the ball (m = π 0.5² × density 1) at height 5.5 and g = (0, −9.81).
    const double m = M_PI * 0.25;
    EXPECT_DOUBLE_EQ(std::strtod(split(lines[1], ',')[3].c_str(), nullptr), m * 9.81 * 5.5);
    ASSERT_EQ(cli({"run", kAssets + "bouncing-ball.json"}), 0);
    EXPECT_NE(out.find("steps: 600\n"), std::string::npos) << out; // the default 10 s
}

TEST_F(Cli, BadInputIsOneErrorLineANonZeroStatusAndNoFile) {
    const std::string csv = path("out.csv"), save = path("out.json");
    expectRefused({"run", kCollisions, "--method", "magic", "--csv", csv}, "--method");
    expectRefused({"run", kCollisions, "--integrator", "leapfrog", "--csv", csv}, "--integrator");
    expectRefused({"run", kCollisions, "--steps", "10x", "--csv", csv}, "--steps");
    expectRefused({"run", kCollisions, "--steps", "-3", "--csv", csv}, "--steps");
    expectRefused({"run", kCollisions, "--dt", "-1", "--csv", csv}, "--dt");
    expectRefused({"run", kCollisions, "--dt", "0", "--csv", csv}, "--dt");
    expectRefused({"run", kCollisions, "--dt", "nan", "--csv", csv}, "--dt");
    expectRefused({"run", kCollisions, "--every", "0", "--csv", csv}, "--every");
    expectRefused({"run", kCollisions, "--time", "1s", "--csv", csv}, "--time");
    expectRefused({"run", kCollisions, "--time", "1", "--steps", "2", "--csv", csv}, "--steps");
    expectRefused({"run", kCollisions, "--csv"}, "--csv");
    expectRefused({"run", kCollisions, "--frobnicate", "1", "--csv", csv}, "--frobnicate");
    expectRefused({"run", "--csv", csv}, "scene");
    expectRefused({"fly", kCollisions}, "fly");
    expectRefused({}, "command");
    expectRefused({"run", path("missing.json"), "--csv", csv, "--save", save}, "missing.json");
    expectRefused({"bench", kCollisions, "--steps", "0"}, "--steps");
    // A bad scene: its exact refusal, after "error: ".
    const std::string broken = CAROM_TEST_DIR "/scenes/negative-radius.json";
    expectRefused({"run", broken, "--csv", csv, "--save", save}, "");
    EXPECT_EQ(err, "error: " + broken + ": /bodies/2/shape/radius: must be > 0, got -1\n");
    // --save into a directory that does not exist: the CSV is not left behind either.
    expectRefused(
        {"run", kCollisions, "--steps", "5", "--csv", csv, "--save", path("no-such-dir/out.json")},
        "no-such-dir");
}

TEST_F(Cli, AnyNumberOfThreadsSavesTheSameFile) {
    const std::string scene = kAssets + "pyramid-20.json";
    for (const char* n : {"1", "2", "3"})
        ASSERT_EQ(cli({"run", scene, "--steps", "60", "--threads", n, "--save",
                       path(std::string("t") + n + ".json")}),
                  0)
            << err;
    EXPECT_EQ(readFile(path("t2.json")), readFile(path("t1.json")));
    EXPECT_EQ(readFile(path("t3.json")), readFile(path("t1.json")));
    ASSERT_EQ(cli({"bench", scene, "--steps", "5", "--threads", "2"}), 0) << err;
    EXPECT_NE(out.find("threads: 2\n"), std::string::npos) << out;
    for (const char* n : {"1", "2", "3"})
        fs::remove(path(std::string("t") + n + ".json"));
    expectRefused({"run", scene, "--threads", "0", "--save", path("x.json")}, "--threads");
    expectRefused({"bench", scene, "--threads", "257"}, "--threads: at most 256");
}

TEST_F(Cli, BenchPrintsMsPerStepLast) {
    ASSERT_EQ(cli({"bench", kCollisions, "--steps", "20", "--method", "impulse"}), 0) << err;
    const std::vector<std::string> lines = split(out, '\n');
    ASSERT_FALSE(lines.empty());
    EXPECT_EQ(lines.back().rfind("ms_per_step: ", 0), 0u) << out;
    const double ms = lastValue(out, "ms_per_step");
    EXPECT_TRUE(std::isfinite(ms) && ms >= 0) << out;
    EXPECT_EQ(lastValue(out, "steps"), 20);
    EXPECT_EQ(lastValue(out, "bodies"), 7); // three blocks, four walls
    // The slowest timed step: no faster than the mean, no slower than all of them together (both
    // printed to six digits).
    const double slowest = lastValue(out, "slowest_step_ms");
    EXPECT_GE(slowest, ms * (1 - 1e-5)) << out;
    EXPECT_LE(slowest, 20 * ms * (1 + 1e-5)) << out;
}

// --profile N: each stage of the step timed over N more steps, a line each before ms_per_step; and
// timing the stages changes no bit of the run.
TEST_F(Cli, BenchProfilePrintsEachStage) {
    carom::World plain = carom::buildWorld(carom::loadScene(kAssets + "pyramid-20.json"));
    carom::World timed = plain;
    timed.setProfiling(true);
    for (int i = 0; i < 30; ++i) {
        plain.step();
        timed.step();
    }
    EXPECT_GT(timed.diagnostics().profile.total(), 0);
    EXPECT_EQ(plain.diagnostics().profile.total(), 0);
    EXPECT_EQ(carom::serializeScene(carom::captureScene(timed, "p")),
              carom::serializeScene(carom::captureScene(plain, "p")));
    ASSERT_EQ(cli({"bench", kAssets + "pyramid-20.json", "--steps", "5", "--profile", "5"}), 0)
        << err;
    const std::vector<std::string> lines = split(out, '\n');
    ASSERT_FALSE(lines.empty());
    EXPECT_EQ(lines.back().rfind("ms_per_step: ", 0), 0u) << out;
    double sum = 0;
    for (const char* stage : {"forces", "contacts", "flights", "misses", "solver", "positions",
                              "static_checks", "soft_bodies", "finish"}) {
        const double ms = lastValue(out, std::string("profile_") + stage + "_ms");
        EXPECT_TRUE(std::isfinite(ms) && ms >= 0) << stage << "\n" << out;
        sum += ms;
    }
    EXPECT_GT(sum, 0) << out;
    expectRefused({"bench", kCollisions, "--profile", "0"}, "--profile");
}

TEST_F(Cli, SavedStateLoadsAndContinuesTheRun) {
    // 60 steps, saved; 60 more from the file = 120 steps straight (no resting contacts here, so
    // nothing is lost with the solver's warm-start impulses).
    ASSERT_EQ(cli({"run", kCollisions, "--steps", "60", "--save", path("half.json")}), 0) << err;
    const carom::Scene saved = carom::loadScene(path("half.json"));
    EXPECT_EQ(saved.name, "Rigid Body Collisions");
    EXPECT_TRUE(saved.walls);
    EXPECT_EQ(saved.bodies.size(), 3u);
    ASSERT_EQ(cli({"run", path("half.json"), "--steps", "60", "--csv", path("b.csv")}), 0) << err;
    ASSERT_EQ(cli({"run", kCollisions, "--steps", "120", "--csv", path("a.csv")}), 0) << err;
    const std::vector<std::string> a = split(readFile(path("a.csv")), '\n');
    const std::vector<std::string> b = split(readFile(path("b.csv")), '\n');
    ASSERT_EQ(a.size(), 122u);
    ASSERT_EQ(b.size(), 62u);
    for (int k = 0; k <= 60; ++k) { // the same state; t restarts at 0 in the continued run
        std::vector<std::string> x = split(a[61 + k], ','), y = split(b[1 + k], ',');
        x.erase(x.begin());
        y.erase(y.begin());
        EXPECT_EQ(x, y) << "row " << k;
    }
    // The command line's settings travel with the saved file.
    ASSERT_EQ(cli({"run", kCollisions, "--steps", "1", "--dt", "0.01", "--method", "penalty",
                   "--integrator", "rk4", "--save", path("c.json")}),
              0);
    const carom::Scene c = carom::loadScene(path("c.json"));
    EXPECT_EQ(c.settings.timeStep, 0.01);
    EXPECT_EQ(c.settings.method, carom::Method::Penalty);
    EXPECT_EQ(c.settings.integrator, carom::Integrator::RK4);
}

TEST_F(Cli, HelpListsEveryMethodAndIntegrator) {
    ASSERT_EQ(cli({"--help"}), 0);
    for (const char* name :
         {"impulse+projection", "impulse", "projection", "penalty", "exact", "euler", "rk4"})
        EXPECT_NE(out.find("  " + std::string(name)), std::string::npos) << name;
    EXPECT_NE(out.find("ms_per_step"), std::string::npos);
}

TEST_F(Cli, EveryMethodAndIntegratorRuns) {
    for (carom::Method m : carom::allMethods())
        for (carom::Integrator i : carom::allIntegrators()) {
            SCOPED_TRACE(std::string(carom::toString(m)) + " " + std::string(carom::toString(i)));
            EXPECT_EQ(cli({"run", kCollisions, "--steps", "30", "--method",
                           std::string(carom::toString(m)), "--integrator",
                           std::string(carom::toString(i))}),
                      0)
                << err;
        }
}

// Pathological files are refused with one error line that says where, never a crash: nesting far
// deeper than any scene (printing or freeing it recursively would overflow the stack), and
// syntax errors inside tokens of tens of thousands of characters (quoted shortly).
TEST_F(Cli, PathologicalFilesAreRefusedShortly) {
    auto write = [&](const std::string& name, const std::string& text) {
        std::ofstream(path(name), std::ios::binary) << text;
        return path(name);
    };
    const std::string longText(27000, 'a');
    const std::string deep =
        write("deep.json", R"({"format": 1, "bodies": )" + std::string(75000, '[') +
                               std::string(75000, ']') + "}");
    const std::string badString =
        write("string.json", R"({"format": 1, "name": ")" + longText + "\x01\"}");
    const std::string unterminated =
        write("unterminated.json", R"({"format": 1, "name": ")" + longText);
    const std::string longNumber =
        write("number.json", R"({"format": 1, "gravity": [1)" + longText + "x, 0]}");
    const std::string hugeNumber =
        write("huge.json", R"({"format": 1, "gravity": [1)" + std::string(400, '0') + ", 0]}");
    const std::string longKey = write("key.json", R"({"format": 1, ")" + longText + R"(": 1})");
    const std::string csv = path("out.csv");
    for (const auto& [file, mentions] :
         std::vector<std::pair<std::string, std::string>>{{deep, "/bodies/0/0/0"},
                                                          {badString, "line 1, column 270"},
                                                          {unterminated, "missing closing quote"},
                                                          {longNumber, "line 1, column"},
                                                          {hugeNumber, "too large for a double"},
                                                          {longKey, "unknown field"}}) {
        const int status = cli({"run", file, "--csv", csv});
        EXPECT_EQ(status, 1) << file; // a crash would not exit normally (-1)
        EXPECT_EQ(err.rfind("error: " + file + ": ", 0), 0u) << err.substr(0, 300);
        EXPECT_NE(err.find(mentions), std::string::npos) << err.substr(0, 300);
        EXPECT_LT(err.size(), 300u) << "the refused value is quoted shortly";
        EXPECT_FALSE(fs::exists(csv));
    }
}

// Inputs that are not regular files (a FIFO would block, /dev/zero would be read until memory
// ran out) are refused with their name.
TEST_F(Cli, NonRegularInputsAreRefused) {
    ASSERT_EQ(::mkfifo(path("fifo").c_str(), 0600), 0);
    EXPECT_NE(cli({"run", path("fifo")}), 0);
    EXPECT_NE(err.find("fifo: cannot read: not a regular file"), std::string::npos) << err;
    fs::remove(path("fifo"));
    EXPECT_NE(cli({"run", "/dev/zero"}), 0);
    EXPECT_EQ(err,
              "error: /dev/zero: cannot read: not a regular file (a device, FIFO or socket)\n");
}

// Outputs: never the input scene; a device is written to, not replaced by a regular file; on
// any failure no output at all; a temporary never follows a link planted beside the target.
TEST_F(Cli, OutputsAreSafe) {
    const std::string scene = path("scene.json");
    fs::copy_file(kCollisions, scene);
    const std::string original = readFile(scene);
    EXPECT_EQ(cli({"run", scene, "--steps", "2", "--csv", scene}), 2);
    EXPECT_NE(err.find("is the input scene"), std::string::npos) << err;
    EXPECT_EQ(cli({"run", scene, "--steps", "2", "--save", path("./scene.json")}), 2);
    EXPECT_EQ(readFile(scene), original);

    EXPECT_EQ(cli({"run", scene, "--steps", "2", "--csv", "/dev/null"}), 0) << err;
    EXPECT_TRUE(fs::is_character_file("/dev/null"));

    fs::create_directory(path("dir"));
    EXPECT_EQ(cli({"run", scene, "--steps", "2", "--csv", path("dir"), "--save", path("o.json")}),
              1);
    EXPECT_NE(err.find("is a directory"), std::string::npos) << err;
    EXPECT_FALSE(fs::exists(path("o.json")));

    // The old predictable names, planted as links to a file the run must not touch.
    const std::string victim = path("victim");
    std::ofstream(victim) << "keep";
    for (const char* name : {"out.csv.part-1", "out.csv.tmp", "out.csv.part"})
        fs::create_symlink(victim, path(name));
    EXPECT_EQ(cli({"run", scene, "--steps", "2", "--csv", path("out.csv")}), 0) << err;
    EXPECT_EQ(readFile(victim), "keep");
    EXPECT_NE(readFile(path("out.csv")).find("t,ke_linear"), std::string::npos);
}

// Issue 46: at every output path of carom-cli, what another user could plant there (a link to a
// FIFO, to /dev/null or to a device node, a FIFO) is refused with one line saying what it is and
// left as it was, and nothing blocks (every run under timeout: 124 would be a hang); a regular
// file of another user's is replaced by a new one of ours, its own inode never written into.
TEST_F(Cli, PlantedOutputsAreRefusedOrReplaced) {
    prefix = "timeout 20 ";
    const std::string scene = path("scene.json");
    fs::copy_file(kCollisions, scene);
    const carom::World start = carom::buildWorld(carom::loadScene(kCollisions));
    {
        carom::RecordingWriter rec(path("run.rec"));
        rec.write(0, carom::input::Replace{std::make_shared<carom::WorldState>(
                         carom::captureState(start, "Rigid Body Collisions"))});
        rec.end(5);
    }
    fs::create_directory(path("planted"));
    const std::string fifo = path("planted/fifo"), device = path("planted/null");
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0666), 0);
    const bool root = ::geteuid() == 0;
    if (root) { // a node like /dev/null's
        ASSERT_EQ(::mknod(device.c_str(), S_IFCHR | 0666, makedev(1, 3)), 0);
    }
    const std::string target = path("out");
    const std::vector<std::vector<std::string>> commands = {
        {"run", scene, "--steps", "2", "--csv", target},
        {"run", scene, "--steps", "2", "--save", target},
        {"replay", path("run.rec"), "--csv", target},
        {"replay", path("run.rec"), "--save", target},
        {"stress", "--seed", "1", "--save-scene", target}};
    struct Plant {
        const char* what;
        std::function<void()> make;
        const char* refusal;
    };
    const std::vector<Plant> plants = {
        {"a link to a FIFO", [&] { fs::create_symlink(fifo, target); }, "is a symbolic link"},
        {"a link to /dev/null", [&] { fs::create_symlink("/dev/null", target); },
         "is a symbolic link"},
        {"a link to a device node", [&] { fs::create_symlink(device, target); },
         "is a symbolic link"},
        {"a FIFO", [&] { ::mkfifo(target.c_str(), 0666); }, "is a FIFO"}};
    for (const auto& args : commands)
        for (const Plant& plant : plants) {
            if (!root && std::string(plant.what) == "a link to a device node") continue;
            SCOPED_TRACE(std::string(plant.what) + ": " + ::testing::PrintToString(args));
            plant.make();
            const fs::file_status before = fs::symlink_status(target);
            EXPECT_EQ(cli(args), 1) << err;
            EXPECT_EQ(err.rfind("error: " + target + ": cannot write: " + plant.refusal, 0), 0u)
                << err;
            EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
            EXPECT_EQ(fs::symlink_status(target).type(), before.type());
            EXPECT_TRUE(fs::is_fifo(fifo));
            fs::remove(target);
            std::vector<std::string> left = files();
            std::sort(left.begin(), left.end());
            EXPECT_EQ(left, (std::vector<std::string>{"planted", "run.rec", "scene.json"}))
                << "a temporary left behind";
        }
    if (!root) GTEST_SKIP() << "not root: a file of another user's cannot be planted";
    const passwd* nobody = ::getpwnam("nobody");
    ASSERT_NE(nobody, nullptr);
    for (const auto& args : commands) {
        SCOPED_TRACE(::testing::PrintToString(args));
        std::ofstream(target) << "planted";
        ASSERT_EQ(::chown(target.c_str(), nobody->pw_uid, nobody->pw_gid), 0);
        ASSERT_EQ(::chmod(target.c_str(), 0666), 0);
        fs::create_hard_link(target, path("planted/kept")); // the planter's hold on the inode
        struct stat planted, written;
        ASSERT_EQ(::lstat(target.c_str(), &planted), 0);
        ASSERT_EQ(cli(args), 0) << err;
        ASSERT_EQ(::lstat(target.c_str(), &written), 0);
        EXPECT_TRUE(S_ISREG(written.st_mode));
        EXPECT_NE(written.st_ino, planted.st_ino);
        EXPECT_EQ(written.st_uid, ::geteuid());
        EXPECT_EQ(written.st_mode & 0022, 0u); // not writable by others (umask 022 at least)
        EXPECT_EQ(readFile(path("planted/kept")), "planted");
        EXPECT_NE(readFile(target), "planted");
        fs::remove(target);
        fs::remove(path("planted/kept"));
    }
}

// Issue 46: a recording that ends at 1e12 steps, or at 2^64 - 1, or has an input at 2^63, is
// replayed up to that line with a warning naming it and the field, at once (replay once stepped
// towards it for ever); a world at 2^63 steps is refused.
TEST_F(Cli, ReplayOfAHugeStepCountEndsAtOnce) {
    prefix = "timeout 20 ";
    const carom::World start = carom::buildWorld(carom::loadScene(kCollisions));
    {
        carom::RecordingWriter rec(path("run.rec"));
        rec.write(0, carom::input::Replace{std::make_shared<carom::WorldState>(
                         carom::captureState(start, "Rigid Body Collisions"))});
    }
    const std::string head = readFile(path("run.rec"));
    for (const char* last :
         {R"({"at":1000000000000,"do":"end"})", R"({"at":18446744073709551615,"do":"end"})",
          R"({"at":9223372036854775808,"do":"spring_off"})"}) {
        SCOPED_TRACE(last);
        std::ofstream(path("huge.rec")) << head << last << "\n";
        const auto t0 = std::chrono::steady_clock::now();
        EXPECT_EQ(cli({"replay", path("huge.rec"), "--save", path("out.json")}), 0) << err;
        EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(),
                  1.0);
        EXPECT_EQ(err.rfind("warning: " + path("huge.rec") +
                                ": line 3: /at: must be at most 1000000000 steps",
                            0),
                  0u)
            << err;
        EXPECT_NE(out.find("steps: 0"), std::string::npos) << out;
    }
    fs::remove(path("out.json"));
    std::string world = head.substr(head.find('\n') + 1);
    world.replace(world.find("\"steps\":0"), 9, "\"steps\":9223372036854775808");
    std::ofstream(path("huge.rec")) << head.substr(0, head.find('\n') + 1) << world;
    EXPECT_EQ(cli({"replay", path("huge.rec"), "--save", path("out.json")}), 1);
    EXPECT_EQ(err, "error: " + path("huge.rec") +
                       ": line 2: /steps: must be at most 1000000000 steps (more than a session "
                       "can have run), got 9223372036854775808\n");
    EXPECT_FALSE(fs::exists(path("out.json")));
}

// Issue 46: a scene whose reading runs out of memory (here under a 200 MB limit on the address
// space) says so with the file's name, not "error: std::bad_alloc".
TEST_F(Cli, OutOfMemoryNamesTheFile) {
#if defined(__has_feature) // clang's way of saying it
#if __has_feature(address_sanitizer)
#define CAROM_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(CAROM_ASAN)
    GTEST_SKIP() << "AddressSanitizer reserves more address space than the limit";
#endif
    {
        std::ofstream big(path("big.json"));
        big << R"({"format": 1, "bodies": [)";
        for (int i = 0; i < 400000; ++i)
            big << (i ? "," : "") << R"({"name": "b)" << i
                << R"(", "shape": {"type": "circle", "radius": 0.1}, "position": [)" << i
                << ", 0]}";
        big << "]}";
    }
    prefix = "ulimit -v 200000; ";
    EXPECT_EQ(cli({"run", path("big.json"), "--steps", "0"}), 1);
    EXPECT_EQ(err, "error: " + path("big.json") + ": out of memory reading it\n");
}

// SIGINT, SIGTERM and SIGHUP in the middle of a run leave no temporary behind.
TEST_F(Cli, SlowSignalsLeaveNoTemporaries) {
    for (const char* signal : {"INT", "TERM", "HUP"}) {
        const std::string cmd = quote(CAROM_CLI) + " run " + quote(kAssets + "pyramid-20.json") +
                                " --time 100000 --csv " + quote(path("out.csv")) + " --save " +
                                quote(path("out.json")) +
                                " >/dev/null 2>&1 & pid=$!; sleep 1; kill -" + signal +
                                " $pid; wait $pid";
        std::system(cmd.c_str());
        EXPECT_TRUE(files().empty()) << signal << ": " << ::testing::PrintToString(files());
    }
}

// carom-cli stress: a table of every method and integrator with its counts. Random closed scenes
// never turn a number non-finite in any method (escapes and energy are counted, not yet zero:
// issue 13).
TEST_F(Cli, StressCountsEveryMethodAndIntegrator) {
    ASSERT_EQ(cli({"stress", "--seed", "3", "--scenes", "2", "--time", "0.5"}), 0) << err;
    int rows = 0;
    for (const std::string& line : split(out, '\n')) {
        std::istringstream in(line);
        std::string method, integrator;
        int runs = -1, nonFinite = -1;
        if (!(in >> method >> integrator >> runs >> nonFinite)) continue;
        ++rows;
        EXPECT_EQ(runs, 2) << line;
        EXPECT_EQ(nonFinite, 0) << line;
    }
    EXPECT_EQ(rows, 10) << out;
    EXPECT_NE(out.find("failures: "), std::string::npos);
    expectRefused({"stress", "--scenes", "0"}, "--scenes");
    expectRefused({"stress", "scene.json"}, "takes no scene");
}

// A slice of the stress in CI (issue 45): 20 random closed scenes (overlapping starts, millimetre
// polygons spinning at hundreds of rad/s, steps to 1/30 s, gravity in any direction), 3 s each in
// every method and integrator: none goes non-finite, lets a body out or makes energy beyond
// round-off (the time each took is not checked: the machines are shared).
TEST_F(Cli, SlowStressSliceMakesNoEnergy) {
    ASSERT_EQ(cli({"stress", "--seed", "1", "--scenes", "20"}), 0) << err;
    int rows = 0;
    for (const std::string& line : split(out, '\n')) {
        std::istringstream in(line);
        std::string method, integrator;
        int runs = -1, nonFinite = -1, escaped = -1, energyMade = -1;
        if (!(in >> method >> integrator >> runs >> nonFinite >> escaped >> energyMade)) continue;
        ++rows;
        EXPECT_EQ(runs, 20) << line;
        EXPECT_EQ(nonFinite, 0) << line;
        EXPECT_EQ(escaped, 0) << line;
        EXPECT_EQ(energyMade, 0) << line;
    }
    EXPECT_EQ(rows, 10) << out;
}

// carom-cli stress --family stacks: heavy boxes on light ones measured by their overlap; in the
// default method 10² kg holds on one box and on nine, 10³ kg and more sink (issue 46, the limit as
// it stands), and the stacks that sink are the failures.
TEST_F(Cli, StressStacksMeasureTheOverlap) {
    ASSERT_EQ(cli({"stress", "--family", "stacks", "--method", "impulse+projection"}), 0) << err;
    int rows = 0, held = 0;
    for (const std::string& line : split(out, '\n')) {
        std::istringstream in(line);
        std::string method, integrator, verdict;
        double mass = 0, deepest = -1, atEnd = -1, y = 0;
        int boxes = 0;
        if (!(in >> method >> integrator >> mass >> boxes >> deepest >> atEnd >> y >> verdict))
            continue;
        ++rows;
        EXPECT_EQ(verdict, mass < 500 ? "holds" : "sinks") << line;
        held += verdict == "holds";
    }
    EXPECT_EQ(rows, 20) << out;
    EXPECT_EQ(held, 4) << out;
    EXPECT_NE(out.find("failures: 16"), std::string::npos) << out;
    expectRefused({"stress", "--family", "piles"}, "--family");
}

// A failing seed's scene can be written and run again: a box of walls and its random bodies.
TEST_F(Cli, StressSavesTheSceneOfASeed) {
    const std::string scene = path("seed39.json");
    ASSERT_EQ(cli({"stress", "--seed", "39", "--save-scene", scene}), 0) << err;
    const carom::Scene s = carom::loadScene(scene);
    EXPECT_TRUE(s.walls.has_value());
    EXPECT_GE(s.bodies.size(), 1u);
    EXPECT_EQ(s.name, "stress 39");
    EXPECT_EQ(cli({"run", scene, "--steps", "2"}), 0) << err;
}

// A soft body's columns (docs/cli.md): its centre of mass, then each particle; its kinetic
// energy in ke_linear, its springs' energy in pe, its momentum in the sums. The rope preset: 30
// particles of 0.05 kg; a box and a rigid block (static: no columns).
TEST_F(Cli, CsvSoftBodyColumnsAndSums) {
    const std::string scene = kAssets + "soft-rope-drape.json";
    ASSERT_EQ(cli({"run", scene, "--steps", "40", "--every", "40", "--csv", path("s.csv")}), 0)
        << err;
    const std::vector<std::string> lines = split(readFile(path("s.csv")), '\n');
    ASSERT_EQ(lines.size(), 3u);
    std::string header = "t,ke_linear,ke_angular,pe,energy,px,py,angular_momentum";
    for (const char* c : {".x", ".y", ".vx", ".vy"})
        header += std::string(",rope") + c;
    for (int k = 0; k < 30; ++k)
        for (const char* c : {".x", ".y", ".vx", ".vy"})
            header += ",rope." + std::to_string(k) + c;
    EXPECT_EQ(lines[0], header);
    const std::vector<std::string> f = split(lines[2], ',');
    ASSERT_EQ(f.size(), 8u + 4u + 30u * 4u);
    auto value = [&](std::size_t i) { return std::strtod(f[i].c_str(), nullptr); };
    const double m = 0.05, g = -9.81;
    double ke = 0, pe = 0, px = 0, py = 0, L = 0, cx = 0, cy = 0;
    auto position = [&](std::size_t k) {
        return carom::Vec2{value(12 + 4 * k), value(13 + 4 * k)};
    };
    // The springs as the file gives them: rest lengths from the particles' places at the start.
    const carom::World start = carom::buildWorld(carom::loadScene(scene));
    for (const carom::Spring& s : start.softBodies()[0].springs) {
        const double stretch = glm::length(position(s.j) - position(s.i)) - s.restLength;
        pe += 0.5 * s.stiffness * stretch * stretch; // ½ k (l − L)²
    }
    for (int k = 0; k < 30; ++k) {
        const double x = value(12 + 4 * k), y = value(13 + 4 * k);
        const double vx = value(14 + 4 * k), vy = value(15 + 4 * k);
        ke += 0.5 * m * (vx * vx + vy * vy);
        pe -= m * g * y;
        px += m * vx;
        py += m * vy;
        L += m * (x * vy - y * vx);
        cx += x / 30;
        cy += y / 30;
    }
    EXPECT_NEAR(value(1), ke, 1e-12 * (1 + ke));
    EXPECT_EQ(value(2), 0); // no rigid body moves
    EXPECT_NEAR(value(3), pe, 1e-12 * (1 + std::abs(pe)));
    EXPECT_NEAR(value(4), value(1) + value(2) + value(3), 1e-12 * (1 + std::abs(value(4))));
    EXPECT_NEAR(value(5), px, 1e-12);
    EXPECT_NEAR(value(6), py, 1e-12);
    EXPECT_NEAR(value(7), L, 1e-12);
    EXPECT_NEAR(value(8), cx, 1e-12); // the centre of mass: equal masses, the mean
    EXPECT_NEAR(value(9), cy, 1e-12);
    EXPECT_NEAR(value(10), px / (30 * m), 1e-12);
    EXPECT_NEAR(value(11), py / (30 * m), 1e-12);
}

// Soft bodies' columns stand in the scene's order among the rigid bodies'.
TEST_F(Cli, CsvSoftBodiesInSceneOrder) {
    std::ofstream(path("o.json")) << R"({"format": 1, "bodies": [
        {"name": "s1", "type": "soft", "particles": [{"position": [0, 0], "mass": 1}], "boundary": [0]},
        {"name": "r1", "shape": {"type": "circle", "radius": 0.2}, "position": [1, 1]},
        {"name": "s2", "type": "soft", "particles": [{"position": [0, 1], "mass": 1}], "boundary": [0]}]})";
    ASSERT_EQ(cli({"run", path("o.json"), "--steps", "1", "--csv", path("o.csv")}), 0) << err;
    std::string header = "t,ke_linear,ke_angular,pe,energy,px,py,angular_momentum";
    for (const char* c : {".x", ".y", ".vx", ".vy", ".0.x", ".0.y", ".0.vx", ".0.vy"})
        header += std::string(",s1") + c;
    for (const char* c : {".x", ".y", ".angle", ".vx", ".vy", ".omega"})
        header += std::string(",r1") + c;
    for (const char* c : {".x", ".y", ".vx", ".vy", ".0.x", ".0.y", ".0.vx", ".0.vy"})
        header += std::string(",s2") + c;
    EXPECT_EQ(split(readFile(path("o.csv")), '\n')[0], header);
}

// --soft-resolution overrides the scene's setting (it travels to --save) and is checked.
TEST_F(Cli, SoftResolutionOptionIsTakenAndChecked) {
    const std::string scene = kAssets + "soft-jelly-drop.json";
    ASSERT_EQ(cli({"run", scene, "--steps", "2", "--soft-resolution", "parallel", "--save",
                   path("p.json")}),
              0)
        << err;
    EXPECT_EQ(carom::loadScene(path("p.json")).settings.softResolution,
              carom::SoftResolution::Parallel);
    fs::remove(path("p.json"));
    expectRefused({"run", scene, "--soft-resolution", "fast"},
                  "--soft-resolution: unknown resolution 'fast' (known: sequential, parallel)");
}

// carom-cli replay (issue 10). A recording with no inputs is the scene run for its steps: its
// CSV is run's, byte for byte; --until stops at a simulated time; a recording cut short is
// replayed up to the damage with a warning; a broken header is refused with the line.
TEST_F(Cli, ReplayOfARecordingWithoutInputsIsRun) {
    const carom::Scene scene = carom::loadScene(kCollisions);
    const carom::World start = carom::buildWorld(scene);
    {
        carom::RecordingWriter out(path("run.rec"));
        out.write(0, carom::input::Replace{std::make_shared<carom::WorldState>(
                         carom::captureState(start, scene.name, scene.description))});
        out.end(125);
    }
    ASSERT_EQ(cli({"replay", path("run.rec"), "--csv", path("r.csv"), "--every", "3", "--save",
                   path("r.json")}),
              0)
        << err;
    EXPECT_EQ(err, "");
    ASSERT_EQ(cli({"run", kCollisions, "--steps", "125", "--every", "3", "--csv", path("c.csv"),
                   "--save", path("c.json")}),
              0)
        << err;
    EXPECT_EQ(readFile(path("r.csv")), readFile(path("c.csv")));
    EXPECT_EQ(readFile(path("r.json")), readFile(path("c.json")));

    // --until 1: the first step at or past 1 s, 60 steps of 1/60 s.
    ASSERT_EQ(cli({"replay", path("run.rec"), "--until", "1", "--save", path("u.json")}), 0);
    ASSERT_EQ(cli({"run", kCollisions, "--steps", "60", "--save", path("s60.json")}), 0);
    EXPECT_EQ(readFile(path("u.json")), readFile(path("s60.json")));

    // The end line lost: replayed to the last input, with a warning.
    const std::string text = readFile(path("run.rec"));
    std::ofstream(path("cut.rec")) << text.substr(0, text.rfind("{\"at\""));
    ASSERT_EQ(cli({"replay", path("cut.rec")}), 0);
    EXPECT_EQ(err.rfind("warning: ", 0), 0u) << err;
    EXPECT_NE(err.find("no end line"), std::string::npos) << err;
    // A line cut in the middle of the start, and not a recording at all: refused, with the line
    // (and no output left: the scratch directory emptied first, the inputs kept beside it).
    const fs::path half = dir.string() + "-half.rec", run = dir.string() + "-run.rec";
    std::ofstream(half) << text.substr(0, 200);
    fs::rename(path("run.rec"), run);
    for (const std::string& f : files())
        fs::remove(dir / f);
    expectRefused({"replay", half.string(), "--save", path("h.json")}, "line 2: cut short");
    expectRefused({"replay", kCollisions, "--save", path("h.json")}, "line 1:");
    expectRefused({"replay", run.string(), "--csv", run.string()}, "is the recording");
    fs::remove(half);
    fs::remove(run);
}
