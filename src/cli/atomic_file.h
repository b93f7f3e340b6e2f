// An output file written to a temporary beside it and renamed into place on commit(), so that a
// failed run never leaves a partial file behind (the temporary is removed on destruction).
#pragma once

#include <cstdio>
#include <string>

namespace cli {

class AtomicFile {
  public:
    explicit AtomicFile(std::string path); // throws std::runtime_error "PATH: cannot write: ..."
    ~AtomicFile();
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;

    std::FILE* get() { return file_; }
    void commit(); // flushes, closes and renames; throws std::runtime_error on failure

  private:
    std::string path_, temp_;
    std::FILE* file_ = nullptr;
};

} // namespace cli
