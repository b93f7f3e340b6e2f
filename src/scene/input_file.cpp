// Input files opened first and checked by their descriptor (fstat(2)), O_NONBLOCK so that opening
// a FIFO swapped in at the last moment does not wait for a writer.
#include "input_file.h"

#include "carom/scene.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace carom {
namespace {

// Closes the descriptor however the reading ends.
struct Descriptor {
    int fd;
    ~Descriptor() {
        if (fd >= 0) ::close(fd);
    }
};

// MemoryReserve's block, the new_handler it replaced, and how many reserves are alive (nested
// ones share the outermost's block).
void* reserved = nullptr;
std::new_handler previous = nullptr;
int reserves = 0;

// The new_handler: the reserve given back for the unwinding, then the failure reported.
void releaseReserve() {
    std::free(reserved);
    reserved = nullptr;
    std::set_new_handler(previous);
    throw std::bad_alloc();
}

[[noreturn]] void fail(const std::string& path, const std::string& why) {
    throw SceneError(path + ": cannot read: " + why);
}

} // namespace

MemoryReserve::MemoryReserve() {
    if (reserves++ > 0) return;
    reserved = std::malloc(std::size_t(64) << 20);
    if (reserved) previous = std::set_new_handler(releaseReserve);
}

MemoryReserve::~MemoryReserve() {
    if (--reserves > 0) return;
    if (reserved) {
        std::free(reserved);
        reserved = nullptr;
        std::set_new_handler(previous);
    }
}

std::string readInputFile(const std::string& path) {
    const Descriptor file{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC)};
    if (file.fd < 0) fail(path, std::strerror(errno));
    struct stat st;
    if (::fstat(file.fd, &st) != 0) fail(path, std::strerror(errno));
    if (S_ISDIR(st.st_mode)) fail(path, "is a directory");
    if (!S_ISREG(st.st_mode)) fail(path, "not a regular file (a device, FIFO or socket)");
    if (std::uintmax_t(st.st_size) > kMaxSceneBytes)
        fail(path, std::to_string(st.st_size) + " bytes, more than a scene file may have (" +
                       std::to_string(kMaxSceneBytes) + ")");
    return namingOutOfMemory(path, [&] {
        std::string text(std::size_t(st.st_size), '\0');
        std::size_t got = 0;
        while (got < text.size()) {
            const ssize_t n = ::read(file.fd, text.data() + got, text.size() - got);
            if (n < 0 && errno == EINTR) continue;
            if (n < 0) fail(path, std::strerror(errno));
            if (n == 0) break;
            got += std::size_t(n);
        }
        char more;
        if (got != text.size() || ::read(file.fd, &more, 1) != 0)
            fail(path, "the file changed while it was read");
        return text;
    });
}

} // namespace carom
