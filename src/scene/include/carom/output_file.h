// Output files that appear whole or not at all, created safely (scene files, CSV, screenshots,
// recordings), and that never follow or reuse anything planted at their path.
#pragma once

#include <cstdio>
#include <string>

namespace carom {

// A new file is written to a temporary beside the target, created with a unique name and
// O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK (so nothing planted at that name is followed or
// blocks), checked to be a regular file of ours, and renamed over the target by commit(): a
// regular file already there, whoever owns it, is replaced, never written into. The target itself
// (lstat(2), never followed) must be absent, a regular file, or a character device named directly
// (/dev/null: only root can make one, so it was not planted), which is then opened with
// O_NOFOLLOW | O_NONBLOCK and written to. A symbolic link, a FIFO, a socket, a block device or a
// directory is refused. The temporary is removed if the file is never committed, and on SIGINT,
// SIGTERM and SIGHUP once removeTemporariesOnSignals() was called.
class OutputFile {
  public:
    explicit OutputFile(std::string path); // throws std::runtime_error "PATH: cannot write: why"
    ~OutputFile();
    OutputFile(const OutputFile&) = delete;
    OutputFile& operator=(const OutputFile&) = delete;

    std::FILE* get() { return file_; }
    void write(const std::string& bytes);
    void commit(); // flushes, closes and renames into place; throws std::runtime_error

  private:
    std::string path_, temp_; // temp_ empty: writing to the device itself
    std::FILE* file_ = nullptr;
    int slot_ = -1; // in the list of temporaries removed on a signal
};

// Throws what OutputFile(path) would for what is at path now (a link, a FIFO, a directory...):
// for refusing at start an output that is written only at the end.
void checkOutputTarget(const std::string& path);

// A file written in place as it goes (a recording: a crash must leave what was written), made as
// OutputFile makes its temporary and renamed over the target at once, so that the file written is
// always a new one of ours. The target must be absent or a regular file (nothing else, not even a
// device). Throws std::runtime_error "PATH: cannot write: why".
std::FILE* createInPlace(const std::string& path);

// Installs handlers for SIGINT, SIGTERM and SIGHUP that remove the temporaries of the output
// files still open, then end the process as the signal would have.
void removeTemporariesOnSignals();

} // namespace carom
