// Output files: a temporary made with mkostemp(3) (O_CREAT | O_EXCL, and O_NOFOLLOW |
// O_NONBLOCK: never through a planted link, never blocking), written, then rename(2)d over the
// target, which replaces it atomically on POSIX file systems and never follows what is there; or
// a character device named directly. The target is looked at with lstat(2) and refused when it
// is anything planted (a link, a FIFO, a socket, a block device) or a directory.
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

[[noreturn]] void fail(const std::string& path, const std::string& why) {
    throw std::runtime_error(path + ": cannot write: " + why);
}

[[noreturn]] void fail(const std::string& path, int err) {
    fail(path, std::strerror(err));
}

// The permissions a file created with open(2)'s usual 0666 would have under the umask.
mode_t defaultMode() {
    const mode_t mask = ::umask(0);
    ::umask(mask);
    return 0666 & ~mask;
}

// What is at the target now, not following a link; anything else is refused, saying what it is.
enum class Target { absent, regular, device };

Target lookAtTarget(const std::string& path, struct stat& st) {
    if (::lstat(path.c_str(), &st) != 0) {
        if (errno == ENOENT) return Target::absent;
        fail(path, errno);
    }
    if (S_ISREG(st.st_mode)) return Target::regular;
    if (S_ISCHR(st.st_mode)) return Target::device;
    if (S_ISLNK(st.st_mode)) fail(path, "is a symbolic link (not followed: name the file itself)");
    if (S_ISDIR(st.st_mode)) fail(path, "is a directory");
    if (S_ISFIFO(st.st_mode)) fail(path, "is a FIFO (not written into: remove it first)");
    if (S_ISBLK(st.st_mode)) fail(path, "is a block device (not written into)");
    fail(path, "is a socket or another special file (not written into)");
}

// A new regular file of ours beside the target, named PATH.part-XXXXXX, with the usual
// permissions; its name is returned in temp.
int createTemporary(const std::string& path, std::string& temp) {
    temp = path + ".part-XXXXXX";
    const int fd = ::mkostemp(temp.data(), O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0) fail(path, errno);
    struct stat st;
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != ::geteuid()) {
        ::close(fd);
        ::unlink(temp.c_str());
        fail(path, "the temporary " + temp + " is not a new regular file of ours");
    }
    if (::fchmod(fd, defaultMode()) != 0) {
        const int err = errno;
        ::close(fd);
        ::unlink(temp.c_str());
        fail(path, err);
    }
    return fd;
}

} // namespace

OutputFile::OutputFile(std::string path) : path_(std::move(path)) {
    struct stat st;
    if (lookAtTarget(path_, st) == Target::device) {
        // O_NOFOLLOW and the identity check: the device looked at is the one opened, even if the
        // name was swapped in between; O_NONBLOCK: a device that would block fails instead.
        const int fd = ::open(path_.c_str(), O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
        if (fd < 0) fail(path_, errno);
        struct stat opened;
        if (::fstat(fd, &opened) != 0 || !S_ISCHR(opened.st_mode) || opened.st_rdev != st.st_rdev ||
            opened.st_ino != st.st_ino) {
            ::close(fd);
            fail(path_, "changed while it was opened");
        }
        // Opened, it is the device the user named (only root makes one): writes may wait on it
        // as on any terminal, rather than fail half-way with EAGAIN.
        if (::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0 ||
            !(file_ = ::fdopen(fd, "wb"))) {
            const int err = errno;
            ::close(fd);
            fail(path_, err);
        }
        return;
    }
    const int fd = createTemporary(path_, temp_);
    slot_ = claimSlot(temp_);
    if (!(file_ = ::fdopen(fd, "wb"))) {
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

void checkOutputTarget(const std::string& path) {
    struct stat st;
    lookAtTarget(path, st);
}

std::FILE* createInPlace(const std::string& path) {
    struct stat st;
    if (lookAtTarget(path, st) == Target::device)
        fail(path, "is a device (a recording must be a regular file)");
    std::string temp;
    const int fd = createTemporary(path, temp);
    if (std::rename(temp.c_str(), path.c_str()) != 0) {
        const int err = errno;
        ::close(fd);
        ::unlink(temp.c_str());
        fail(path, err);
    }
    std::FILE* file = ::fdopen(fd, "w");
    if (!file) {
        const int err = errno;
        ::close(fd);
        ::unlink(path.c_str());
        fail(path, err);
    }
    return file;
}

void removeTemporariesOnSignals() {
    struct sigaction sa {};
    sa.sa_handler = onSignal;
    sigemptyset(&sa.sa_mask);
    for (int sig : {SIGINT, SIGTERM, SIGHUP})
        ::sigaction(sig, &sa, nullptr);
}

} // namespace carom
