// Removing a body while the world runs: the body and everything that names it (its contacts, the
// records of where they were found, its joints, its thrusters, the mouse spring on it) go with it,
// and every later body's id moves down by one in what stays.
#include "carom/world.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace carom {
namespace {

// Drops the entries of `list` that name `gone` (by `names`), and renumbers the ids past it in
// the rest (by `renumber`).
template <class List, class Names, class Renumber>
void dropAndRenumber(List& list, Names names, Renumber renumber) {
    list.erase(std::remove_if(list.begin(), list.end(), names), list.end());
    for (auto& entry : list)
        renumber(entry);
}

} // namespace

void World::removeBody(BodyId id) {
    if (id >= bodies_.size())
        throw std::invalid_argument("body " + std::to_string(id) + ": no such body (there are " +
                                    std::to_string(bodies_.size()) + ")");
    auto moved = [id](BodyId& b) {
        if (b > id) --b;
    };
    auto pairNames = [id](const auto& e) { return e.a == id || e.b == id; };
    auto renumberPair = [&](auto& e) { moved(e.a), moved(e.b); };
    dropAndRenumber(contacts_, pairNames, renumberPair);
    dropAndRenumber(previousContacts_, pairNames, renumberPair);
    dropAndRenumber(found_, pairNames, renumberPair);
    dropAndRenumber(
        joints_, [id](const Joint& j) { return j.b == id || j.a == id; },
        [&](Joint& j) {
            moved(j.b);
            if (j.a) moved(*j.a);
        });
    jointNames_.clear();
    apart_.clear();
    for (JointId k = 0; k < joints_.size(); ++k) {
        jointNames_.emplace(joints_[k].name, k);
        if (!joints_[k].collide && joints_[k].a)
            apart_.push_back(std::minmax(*joints_[k].a, joints_[k].b));
    }
    apartSorted_ = false;
    dropAndRenumber(
        thrusters_, [id](const Thruster& t) { return t.body == id; },
        [&](Thruster& t) { moved(t.body); });
    if (spring_ && !spring_->particle) {
        if (spring_->body == id)
            spring_.reset();
        else
            moved(spring_->body);
    }
    // A wall taken out opens the box: the three left are static bodies like any other, saved as
    // bodies.
    if (origins_[id].wall) {
        walls_.reset();
        for (BodyOrigin& o : origins_)
            o.wall = false;
    }
    for (std::size_t& place : softPlaces_)
        if (place > id) --place;
    names_.erase(bodies_[id].name);
    for (auto& [name, body] : names_)
        moved(body);
    bodies_.erase(bodies_.begin() + static_cast<std::ptrdiff_t>(id));
    origins_.erase(origins_.begin() + static_cast<std::ptrdiff_t>(id));
    exactContactsAt_.clear();
}

} // namespace carom
