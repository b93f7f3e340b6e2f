// Output files that appear whole or not at all: write a temporary, then rename(2) it, which
// replaces the target atomically on POSIX file systems.
#include "atomic_file.h"

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <unistd.h>

namespace cli {

AtomicFile::AtomicFile(std::string path)
    : path_(std::move(path)), temp_(path_ + ".part-" + std::to_string(::getpid())) {
    file_ = std::fopen(temp_.c_str(), "wb");
    if (!file_) throw std::runtime_error(path_ + ": cannot write: " + std::strerror(errno));
}

AtomicFile::~AtomicFile() {
    if (file_) {
        std::fclose(file_);
        std::remove(temp_.c_str());
    }
}

void AtomicFile::commit() {
    const bool written = std::ferror(file_) == 0 && std::fflush(file_) == 0;
    const int err = errno;
    const bool closed = std::fclose(file_) == 0;
    file_ = nullptr;
    if (!written || !closed || std::rename(temp_.c_str(), path_.c_str()) != 0) {
        const int why = written && closed ? errno : err;
        std::remove(temp_.c_str());
        throw std::runtime_error(path_ + ": cannot write: " + std::strerror(why));
    }
}

} // namespace cli
