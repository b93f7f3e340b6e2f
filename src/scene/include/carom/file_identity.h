// Whether two paths name one file, for refusing an output that would overwrite an input or
// another output (both programs, docs/cli.md).
#pragma once

#include <string>

namespace carom {

// Two names of one file: an existing file by its identity (st_dev and st_ino, after links: "./s",
// a link, a hard link), one not there yet by its folder's canonical path and its name. An empty
// path names nothing.
bool sameFile(const std::string& a, const std::string& b);

} // namespace carom
