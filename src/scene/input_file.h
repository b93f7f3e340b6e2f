// Reading an input file (a scene, a recording) whole, safely: what is checked is the descriptor
// read from, so nothing swapped in between a check and the open is read.
#pragma once

#include "carom/scene.h"

#include <new>
#include <string>

namespace carom {

// The file's bytes. Only a regular file of at most kMaxSceneBytes: a FIFO would block and
// /dev/zero would be read until memory ran out. Throws SceneError "PATH: cannot read: why",
// and "PATH: out of memory reading it" when its text does not fit in memory.
std::string readInputFile(const std::string& path);

// While it lives, 64 MB of address space (allocated, never touched: no memory is used) are kept
// for the way out of std::bad_alloc, and given back when an allocation first fails, which then
// throws: nlohmann::json allocates as it destroys a document, and with every byte taken the
// program would end in that destructor instead of saying what happened.
class MemoryReserve {
  public:
    MemoryReserve();
    ~MemoryReserve();
    MemoryReserve(const MemoryReserve&) = delete;
    MemoryReserve& operator=(const MemoryReserve&) = delete;
};

// Runs read (which reads or parses path) and names the file when memory runs out in it, instead
// of the bare std::bad_alloc. Throws SceneError.
template <class Read> auto namingOutOfMemory(const std::string& path, Read read) {
    try {
        const MemoryReserve reserve;
        return read();
    } catch (const std::bad_alloc&) {
        throw SceneError(path + ": out of memory reading it");
    }
}

} // namespace carom
