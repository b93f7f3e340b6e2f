// Output files: a temporary made with mkostemp(3) (O_CREAT | O_EXCL: never through a planted
// link), written, then rename(2)d over the target, which replaces it atomically on POSIX file
// systems; or the target itself when it is a device or a FIFO.
#include "carom/output_file.h"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <stdexcept>
#include <sys/stat.h>
#include <unistd.h>

namespace carom {
namespace {

// The temporaries open now, for the signal handler: fixed storage, written before a slot is
// marked used, so that the handler reads only finished names.
constexpr int kSlots = 16;
constexpr std::size_t kPathMax = 4096;
char temporaries[kSlots][kPathMax];
volatile std::sig_atomic_t used[kSlots];

int claimSlot(const std::string& temp) {
    if (temp.size() >= kPathMax) return -1;
    for (int i = 0; i < kSlots; ++i)
        if (!used[i]) {
            std::memcpy(temporaries[i], temp.c_str(), temp.size() + 1);
            used[i] = 1;
            return i;
        }
    return -1; // more open files than slots: that one is not cleaned up on a signal
}

void releaseSlot(int slot) {
    if (slot >= 0) used[slot] = 0;
}

extern "C" void onSignal(int sig) {
    for (int i = 0; i < kSlots; ++i)
        if (used[i]) ::unlink(temporaries[i]); // async-signal-safe
    std::signal(sig, SIG_DFL);
    std::raise(sig);
}

[[noreturn]] void fail(const std::string& path, int err) {
    throw std::runtime_error(path + ": cannot write: " + std::strerror(err));
}

// The permissions a file created with open(2)'s usual 0666 would have under the umask.
mode_t defaultMode() {
    const mode_t mask = ::umask(0);
    ::umask(mask);
    return 0666 & ~mask;
}

} // namespace

OutputFile::OutputFile(std::string path) : path_(std::move(path)) {
    struct stat st;
    if (::stat(path_.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
        if (S_ISDIR(st.st_mode)) throw std::runtime_error(path_ + ": cannot write: is a directory");
        const int fd = ::open(path_.c_str(), O_WRONLY | O_CLOEXEC);
        if (fd < 0 || !(file_ = ::fdopen(fd, "wb"))) {
            const int err = errno;
            if (fd >= 0) ::close(fd);
            fail(path_, err);
        }
        return;
    }
    std::string name = path_ + ".part-XXXXXX";
    const int fd = ::mkostemp(name.data(), O_CLOEXEC);
    if (fd < 0) fail(path_, errno);
    temp_ = name;
    slot_ = claimSlot(temp_);
    if (::fchmod(fd, defaultMode()) != 0 || !(file_ = ::fdopen(fd, "wb"))) {
        const int err = errno;
        ::close(fd);
        ::unlink(temp_.c_str());
        releaseSlot(slot_);
        fail(path_, err);
    }
}

OutputFile::~OutputFile() {
    if (!file_) return;
    std::fclose(file_);
    if (!temp_.empty()) ::unlink(temp_.c_str());
    releaseSlot(slot_);
}

void OutputFile::write(const std::string& bytes) {
    std::fwrite(bytes.data(), 1, bytes.size(), file_);
}

void OutputFile::commit() {
    const bool written = std::ferror(file_) == 0 && std::fflush(file_) == 0;
    int err = errno;
    const bool closed = std::fclose(file_) == 0;
    if (written && !closed) err = errno;
    file_ = nullptr;
    bool renamed = true;
    if (!temp_.empty() && written && closed) {
        renamed = std::rename(temp_.c_str(), path_.c_str()) == 0;
        if (!renamed) err = errno;
    }
    if (!temp_.empty() && !(written && closed && renamed)) ::unlink(temp_.c_str());
    releaseSlot(slot_);
    if (!(written && closed && renamed)) fail(path_, err);
}

void removeTemporariesOnSignals() {
    struct sigaction sa {};
    sa.sa_handler = onSignal;
    sigemptyset(&sa.sa_mask);
    for (int sig : {SIGINT, SIGTERM, SIGHUP})
        ::sigaction(sig, &sa, nullptr);
}

} // namespace carom
