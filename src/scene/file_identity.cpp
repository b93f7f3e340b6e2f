// File identity: stat(2)'s device and inode where the file exists, since a string compare misses
// "./s.json" and links; where it does not, the canonical folder and the name.
#include "carom/file_identity.h"

#include <filesystem>
#include <sys/stat.h>

namespace carom {
namespace {

struct Identity {
    bool exists = false;
    dev_t device = 0;
    ino_t inode = 0;
    std::filesystem::path place; // when it does not exist: canonical folder / name
};

Identity identify(const std::string& path) {
    Identity id;
    struct stat st;
    if (::stat(path.c_str(), &st) == 0) {
        id.exists = true;
        id.device = st.st_dev;
        id.inode = st.st_ino;
        return id;
    }
    const std::filesystem::path p(path);
    std::error_code ec;
    const std::filesystem::path folder =
        std::filesystem::weakly_canonical(p.has_parent_path() ? p.parent_path() : ".", ec);
    id.place = (ec ? p.parent_path() : folder) / p.filename();
    return id;
}

} // namespace

bool sameFile(const std::string& a, const std::string& b) {
    if (a.empty() || b.empty()) return false;
    if (a == b) return true;
    const Identity x = identify(a), y = identify(b);
    if (x.exists != y.exists) return false;
    return x.exists ? x.device == y.device && x.inode == y.inode : x.place == y.place;
}

} // namespace carom
