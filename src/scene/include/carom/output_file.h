// Output files that appear whole or not at all, created safely (scene files, CSV, screenshots).
#pragma once

#include <cstdio>
#include <string>

namespace carom {

// A regular file (or a new one) is written to a temporary beside it, created with a unique name
// and O_EXCL (so a link planted in its place is never followed), and renamed over the target by
// commit(); the temporary is removed if the file is never committed, and on SIGINT, SIGTERM and
// SIGHUP once removeTemporariesOnSignals() was called. A target that exists and is not a regular
// file (/dev/null, a FIFO, a terminal) is written to directly. A directory is refused.
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
    std::string path_, temp_; // temp_ empty: writing to the target itself
    std::FILE* file_ = nullptr;
    int slot_ = -1; // in the list of temporaries removed on a signal
};

// Installs handlers for SIGINT, SIGTERM and SIGHUP that remove the temporaries of the output
// files still open, then end the process as the signal would have.
void removeTemporariesOnSignals();

} // namespace carom
