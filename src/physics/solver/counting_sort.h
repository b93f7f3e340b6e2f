// Stable counting sort (Cormen et al., "Introduction to Algorithms", §8.2): items ordered by a
// small integer key in [0, keys), in O(items + keys) time; items with equal keys keep their order.
#pragma once

#include <cstddef>
#include <numeric>
#include <vector>

namespace carom {

template <class T, class KeyOf>
std::vector<T> countingSort(const std::vector<T>& items, std::size_t keys, KeyOf keyOf) {
    std::vector<std::size_t> start(keys + 1, 0); // where each key's items begin
    for (const T& x : items)
        ++start[keyOf(x) + 1];
    std::partial_sum(start.begin(), start.end(), start.begin());
    std::vector<T> sorted(items.size());
    for (const T& x : items)
        sorted[start[keyOf(x)]++] = x;
    return sorted;
}

} // namespace carom
