// Every tuned number of the engine in one place: iteration caps, tolerances, budgets and the
// solver's stiffness, each with its unit and the reason for its value, grouped by the file that
// uses it. Mathematical constants and lane widths are not here, nor the bounds that only keep an
// index in range. Internal to the engine.
#pragma once

#include <cstddef>
#include <cstdint>

namespace carom {

// ---- collision/shape.cpp --------------------------------------------------------------

// The length below which two vertices count as one: this fraction of the polygon's extent (of
// a tiny positive extent for a polygon all at the origin, refused later as having no area).
// Unit: relative (of the polygon's extent).
constexpr double kVertexTolerance = 1e-9;
// Unit: m; the extent assumed for a polygon all at the origin, only so that it is not zero.
constexpr double kTinyExtent = 1e-300;

// ---- collision/collide.cpp ------------------------------------------------------------

// Lengths this much smaller than the shapes' size are rounding, not geometry (relative).
// Unit: relative (of the shapes' size).
constexpr double kCollideRoundOff = 1e-12;
// How much deeper B's face must be than A's to be chosen, m: Box2D's 0.1 × linearSlop (0.005 m),
// fixed rather than the world's slop so that collision stays a pure function of the shapes.
// Unit: m.
constexpr double kFaceTolerance = 0.1 * 0.005;
// Unit: relative.
constexpr double kFaceToleranceOfSize = 0.01; // and at most this fraction of the smaller shape
// Rounded shapes (a capsule) whose cores are apart touch face to face, and are clipped to two
// points, when the line of their cores' closest points is within this of the reference face's
// normal (its cosine: about 2.6°); otherwise at the one point where they are closest.
// Unit: cosine.
constexpr double kRoundedFaceCosine = 0.999;

// ---- collision/broad_phase.cpp --------------------------------------------------------

// Cells along an axis: a box covering more (a ground, a wall) is compared with every box instead of
// entered in the grid (broad_phase.cpp).
constexpr std::int64_t kBroadPhaseMaxCells = 4;
// Of the bounding radius: the margin a fat box has beyond its swept box, so that the grid is
// searched again only when a box leaves its fat one.
constexpr double kFatFraction = 0.1;

// ---- collision/body_grid.cpp ----------------------------------------------------------

// A box listed in more cells than this is kept apart and reported by every query instead (a
// static ground 200 m long among boxes of 1 m, a body that may travel far within the step).
// Unit: cells.
constexpr double kBodyGridMaxCells = 1024;

// ---- collision/contacts.cpp -----------------------------------------------------------

// Of the smaller body's inner radius: the drift for which a small body's manifold is recycled,
// where the linear slop would be too much (half a 1 cm box's width; contacts.cpp).
constexpr double kRecycleReach = 0.1;
// A point's impulse is carried to the next step (warm starting) only along a normal within about
// 25° of the last step's: past that the pair touches along another axis (a deep overlap whose least
// overlapping axis changed, a body that turned fast), and the old impulse given along the new
// normal throws the bodies apart (stress seed 94, a pile placed in one another: 4-5 times its
// energy a step, 10⁵⁹ J in 3 s). Unit: the cosine of the angle between the two normals.
constexpr double kCarriedNormalCos = 0.9;

// ---- collision/continuous.cpp ---------------------------------------------------------

// A body moving less than this between two checked poses cannot pass through a static body
// unseen (continuous.cpp).
constexpr double kUncheckedTravel = 0.5; // fraction of the inner radius a body may move unchecked
// A body sent across the world in one step is not followed past this many.
constexpr double kStaticSweepMaxSamples = 1000; // poses checked per static body

// ---- collision/misses.cpp -------------------------------------------------------------

// Contacts no wider apart than this are the solvers' without asking whether they meet in the step
// (Box2D v3's b2_speculativeDistance: four linear slops). Unit: linear slops.
constexpr double kSpeculativeDistance = 4;
// A pair whose meeting the conservative advancement cannot decide in this many advances (two
// boundaries sliding past each other closely and fast) is left to the solvers, as found.
constexpr int kMissAdvances = 32;

// ---- step/energy_audit.cpp ------------------------------------------------------------

// Round-off: each body's terms are summed in double precision; a part in 10¹⁰ of the terms'
// sizes is far above what a million of them can lose, and far below any energy a method makes.
// And at least 10⁻¹⁵ J: bodies at rest whose velocities are round-off (10⁻¹⁶ m/s) have energies
// of 10⁻³¹ J, which a part of their own size would count as made.
constexpr double kAuditRoundOff = 1e-10;      // of the energy's terms' sizes
constexpr double kAuditRoundOffFloor = 1e-15; // J

// ---- solver/contact_math.h ------------------------------------------------------------

// K of two contact points of one manifold along their normal n, for solving both at once
// (Catto's block solver): a change x of their normal impulses changes their normal velocities by
// K x. Not invertible (nearly the same point twice) when k11² ≥ kMaxConditionNumber det.
// Box2D's bound on K's condition number (b2_maxConditionNumber): past it, solving for the two
// impulses amplifies round-off more than one point at a time would.
// Unit: dimensionless.
constexpr double kMaxConditionNumber = 1000;

// ---- solver/projection.cpp ------------------------------------------------------------

// A body that turned more than this since the manifold was found (a fast spin) would carry a
// vertex past the end of the face it touched, where the face's line, extended, says it overlaps:
// and lifting a body in free flight makes energy: such a manifold is found again at the poses now.
// Not in the projection method (refound): there the velocities follow the corrections, and an
// overlap found anew, deeper than the start's, would become a velocity of its own.
constexpr double kStaleTurn = 0.05; // rad
// An overlap the step starts with deeper than this many slops is parted by positions before the
// default method's solver (partOverlapsByPositions), to a gap of kPartedTo: the solver then sees
// the points apart and pushes nothing (an overlap it pushes out, at any depth, leaves the bodies
// with some of the push's speed); in at most kPartingPasses passes, fewer when done sooner. A
// resting stack's overlap stays within the slop and is never parted.
constexpr double kDeepOverlap = 2;  // slops
constexpr double kPartedTo = 1e-9;  // m
constexpr int kPartingPasses = 100; // passes of projectContacts

// ---- solver/substep_lanes.h -----------------------------------------------------------

constexpr double kMaxPushSpeed = 3; // the fastest push out of an overlap, m/s (Box2D v3's default)

// ---- solver/substep_solver.cpp --------------------------------------------------------

// The substeps, and the contacts' springs. A contact under a load F sinks until its spring
// holds it: by F / (m_eff ω²), and a stack sinks by the sum over its layers (Box2D v3's 4 substeps
// at 30 Hz leave the large pyramid's top box 0.73 m lower after 10 s). Stiffer is steadier only up
// to a quarter of the substep rate (one pass a substep no longer converges past it: the pyramid
// collapses): so twice Box2D's substeps, and contacts at that quarter, 120 Hz at 60 steps a second
// (twice it against a static body, as Box2D, so bodies are not pushed into the ground). Damping
// ratio: Box2D v3's default (b2DefaultWorldDef; so is the fastest push out of an overlap,
// substep_lanes.h).
// The relax pass in every second substep only: the stiffness is the substeps', and the stacks
// stand much as with a relax pass in each (measured: the large pyramid's top box 9.3 cm from
// where it was after 10 s, against 8.9, though the ends of its middle rows splay by up to 11 cm
// as it settles; the pyramid of base 20 and the box stack within 4.2 and 1.6 mm in 60 s), for 12
// passes over the contacts a step instead of 16. With one relax pass in four substeps, the
// pyramids fall.
// Unit: substeps a step; relax pass every kRelaxEvery substeps; the contacts' frequency a fraction
// of the substep rate; damping ratio (dimensionless).
constexpr int kSubsteps = 8, kRelaxEvery = 2;
constexpr double kQuarterOfTheSubstepRate = 0.25, kDampingRatio = 10;
// The joints' position feedback (joint_solver.cpp): Box2D v3's (joint.c, b2PrepareJoint), a spring
// of kJointHertz or a quarter of the pass's rate if that is lower ("to reduce jitter"), damping
// ratio kJointDampingRatio. Twice the contacts' frequency against a static body and ratio 10 made
// a grid of pinned circles (Box2D's joint_grid, 3 x 3) gain energy without bound.
// Unit: Hz; dimensionless.
constexpr double kJointHertz = 60, kJointDampingRatio = 2;
// A batch of whole islands (islands.h), about kBatchContacts contacts or more: its groups of
// constraints (where its lanes are laid out among all the batches') and its bodies' shares (a
// range of solveSubsteps's). The batches are taken one after another, each prepared into the same
// lanes, through all the substeps, its restitution and its impulses kept, so that a large scene
// of many islands is solved a cache-sized part at a time: passed over whole, the many pyramids'
// 58,000 constraints (13 MB) came from beyond the cache in every pass, and laid out whole, they
// went out to memory between their preparation and the substeps, and again before their impulses
// were kept. An island's bodies share no contact with another's, so each body sees the same
// operations, in the same order, either way: the same bits (but see `deep`, a batch's).
// Unit: contacts.
constexpr std::size_t kBatchContacts = 2048;
// The threads (parallel/crew.h) take the batches two ways (substep_solver.cpp): a batch that is a
// large part of the step's work (an island of thousands of contacts: a large pyramid, a crowd),
// at least kGroupsPerThread groups of lanes a thread, is shared among all of them, each colour's
// groups in blocks of kGroupsPerBlock (about a microsecond of a pass; a block is taken with one
// atomic operation), the bodies' shares in blocks of kSharesPerBlock and the contacts prepared in
// blocks of kContactsPerBlock; the others are taken whole, one thread each. A colour of a dozen
// groups or fewer runs on one thread. Units: groups of lanes; bodies; contacts.
constexpr std::size_t kGroupsPerThread = 256, kGroupsPerBlock = 16;
constexpr std::size_t kSharesPerBlock = 256, kContactsPerBlock = 256;

// ---- impacts/impacts.h ----------------------------------------------------------------

// m/s: slower approaches are round-off, not impacts (here and in the flights, flight_impacts.cpp).
constexpr double kApproaching = 1e-10;

// ---- impacts/impacts.cpp --------------------------------------------------------------

// Impacts converge to this fraction of the largest speed (round-off of doubles, with room).
// Unit: relative (of the largest speed).
constexpr double kImpactConvergence = 1e-13;
// Passes of the simultaneous solve before it gives up converging (a pile of hundreds of points
// converges in tens; past this the velocities are left as they are, none approaching by much).
// Unit: passes.
constexpr int kImpactMaxPasses = 10000;
// The work of one solve of the default method's bounce (solver/poisson.cpp), in point updates,
// and the passes it may always take: a pile of hundreds of points converges in tens of passes, a
// dense crowd of 200 bodies overlapping at 1,000 m/s (1,400 points) did not in 10,000 (0.4 s a
// step). Past it the solve stops; the bounce is fixed by energy (poisson.h), so stopping cuts its
// accuracy and never makes energy. 10⁵ updates: about a millisecond, a normal step's time.
// Unit: point updates; passes.
constexpr std::size_t kBounceWork = 100000;
constexpr std::size_t kBounceMinPasses = 100;
// The work of one solve of the exact method's holds over an interval (sequential_impulses.cpp:
// solveHolds), in point updates, and the passes it may always take. A warm-started stack's solve
// left at the velocity iterations pushes a little harder than the load (its impulses' work over the
// interval is positive: energy made, 0.39 J in 10 s on box-stack); converged, it does no work.
// Box-stack and the pyramid of base 20 converge within hundreds of passes; a pile that will not
// converge is cut here, counted, and its energy made seen by the audit.
// Unit: point updates; passes.
constexpr std::size_t kHoldWork = 100000;
constexpr std::size_t kHoldMinPasses = 100;
// And passes in a row without a change smaller than the least so far: the solve has stalled. With
// friction, projected Gauss-Seidel need not converge: two points of one edge of a light body with
// a large moment of inertia, under a heavy one, went round a cycle of 10 m/s changes for all
// 10,000 passes; and an ill-conditioned block (solveBlockLcp) ends in round-off a little above
// the tolerance. (The energy check after the solve keeps either from making energy.)
// Unit: passes.
constexpr int kStalledPasses = 50;
// Strikes of the serial solve per point (plus this many) before the chain counts as not settling
// and is stopped by one simultaneous solve: Newton's cradle strikes each point once, a ball
// between two walls a few times. (At 100, a pile of 25 touching points at mass ratios of 1e6
// spent 2,400 strikes per instant on a chain that never settled.)
// Unit: strikes.
constexpr int kStrikesPerPoint = 10;
// And strikes of an instant in all: each looks for the most approaching of all the points, so a
// crowd of 200 bodies at 1,000 m/s, with hundreds of points touching, spent most of a step of
// the exact method on chains of thousands of strikes.
// Unit: strikes.
constexpr int kMaxStrikesPerInstant = 200;
// m/s: how near to still resting contacts are brought (they sink at most this × the step, and
// the contact solver holds them during the advance that follows).
constexpr double kRestingTolerance = 1e-5;
// Passes of that stop at most: the contact solver holds the resting contacts through the advance
// that follows, so a stack need not be brought to 1e-5 m/s here (a pyramid of 210 boxes took
// thousands of passes a step, 16 times the default method's whole step). The settling pyramid of
// base 20 ran all 20 of the earlier bound every step, a third of its exact step; at 5 its exact
// method cost 2.4 times the default over 500 steps instead of 4.1, and the piles and random scenes
// the same or less (fewer, at 2 or 3, stalled more steps).
// Unit: passes.
constexpr int kRestingPasses = 5;

// ---- impacts/flight_impacts.cpp -------------------------------------------------------

// Conservative advances per prediction; a pair not settled by then is left to the solver. A fast
// spin makes them short (the bound |ω| R is far above the approach of the points that meet): a
// polygon 7 m across at 450 m/s and 229 rad/s needed more than 64 to reach a wall, and left to the
// solver its strike lost 29% of an elastic scene's energy.
// Unit: advances.
constexpr int kFlightMaxAdvances = 1000;
// Strikes of one pair in a step; past that the rest of the pair's step is left to the solver. A
// light body between a heavy one and a wall strikes them about π √(M/m) times in all before they
// part (Galperin's billiard: 314 at a mass ratio of 10⁴).
// Unit: strikes.
constexpr int kStrikesPerPair = 200;
// And strikes of one pair in a step that approach slower than the restitution threshold (the
// default method's line between an impact and a resting contact). A pair that keeps meeting that
// slowly is in sustained contact, pressed by turning rather than by a force, which inFreeFlight
// cannot see: in stress seed 33 (no gravity), a polygon spinning at 26 rad/s swept a small ball
// along with its corner, struck at 5 mm/s every 1.4e-4 s, 200 times a step, until kStrikesPerPair
// left it to the solver (in the exact method, once for the flights first and once for the step's
// end: 5 times the default method's cost, and the default method itself 3.7 times slower than with
// this bound).
// Unit: strikes.
constexpr int kSlowStrikesPerPair = 8;
// Samples of the rest of the step in comesBack.
// Unit: samples.
constexpr int kFlightMaxSamples = 64;
constexpr double kFlightSampleTravel = 0.5; // of the smaller inner radius, between two samples

// ---- exact/exact.cpp ------------------------------------------------------------------

// An advance of the exact method moves no body more than this, so that no overlap is jumped over.
constexpr double kExactMaxTravel = 0.5; // fraction of a body's inner radius per advance
// Advances per step (each a run of the contact solver over the touching contacts, and a check for
// overlap): past that, the rest of the step is taken as the default method steps
// (finishAsTheDefaultMethod), and the diagnostics count the step. An interval takes one advance,
// or a few cut to the travel limit, and a time of contact 20–30 of bisection; so this is four or
// five impacts in a step, or a chain of zero-time impacts that will not end, or a crowd that
// strikes that often (200 bodies at 1,000 m/s took minutes for 3 s, ten thousand advances a step;
// at 500, 120–160 ms a step).
// Unit: advances.
constexpr int kExactMaxAdvances = 100;
// Searches for a time of contact per step (each advances the whole world 5-30 times over): past
// that, the rest of the step is taken as after kExactMaxAdvances. A pile of 150 bodies landing in a
// box (tests/stress-scenes/pile-150.json) searched up to 8 times a step while it settled, each of
// those steps up to 30 times the default method's; with three a step, and slow arrivals in a pile
// not searched for (slowArrivalInAPile), the pile costs 3-4 times the default over 3 s (at four a
// step 3-6 times, with no limit 8-14). Unit: searches.
constexpr int kSearchesPerStep = 3;
// How far past the surface a slow arrival in a pile may sink without a search (slowArrivalInAPile),
// as a fraction of the linear slop: 0.25 mm at the default 5 mm (between bodies that do not bounce,
// the whole slop: unsearchedSink). A stack settles by up to as much at each such arrival (the
// overlap stays, as a resting contact's does): the top box of the pyramid of base 20 stood 1.8 cm
// lower after 10 s and after 60 s, against 4.8 mm when each was searched for (its boxes' sides
// creep together at 1-90 mm/s as it settles); 2.4 cm with the whole slop for its boxes, which do
// not bounce.
// Unit: of the linear slop.
constexpr double kArrivalSink = 0.05;
constexpr double kTimeEpsilon = 1e-9; // fraction of the step too small to advance
// Intervals in a row shorter than kTinyInterval of the step: the step is not getting on. In a
// crowd pressed into a small box, a pair sunk into each other and pushed on by its neighbours kept
// approaching at metres a second after each strike (the resting solve of a stopped chain, and the
// contact solver, did not converge at mass ratios of 1e6): found again 1e-5 of a step later, every
// time, until the step's advances ran out at 0.02% of it (every step of stress seeds 11–21). Then
// the rest of the step is taken as after kExactMaxAdvances, without spending them first.
// Unit: of the step.
constexpr double kTinyInterval = 1e-3;
// Unit: intervals in a row.
constexpr int kTinyIntervals = 3;
constexpr int kMaxHalvings = 64; // of a trial advance cut to the travel limit (2⁻⁶⁴ of a step)
// A held point is the same point as before if it is this fraction of the smaller body's inner
// radius from it: feature ids may change as a resting face slides, but not by this much.
// Unit: of the smaller inner radius.
constexpr double kHeldReach = 0.25;
// Two accelerations are the same (gravity alone) to this relative difference: round-off.
// Unit: relative.
constexpr double kSameAcceleration = 1e-12;

// ---- softbody/soft_step.cpp -----------------------------------------------------------

// A substep's hs ω and hs γ at most, ω the soft bodies' fastest vibration and γ their dampings'
// rate (bounds, soft_step.cpp). Leapfrog's energy swings by (hs ω)²/4 of a spring's, 0.016% here;
// what sets it is the strikes' error, of the order of hs: the elastic ring in its box at 1/60 s
// (tests/stress-scenes/soft-ring-box.json) gains 8% in 10 s at 0.4, 2.9% at 0.1, 1.3% at 0.05
// and at most 0.5% at 0.025 (docs/architecture.md, "Soft bodies").
// Unit: radians.
constexpr double kSoftRate = 0.025;
// The most substeps a step takes for its soft bodies; a body that would need more has its
// springs solved implicitly in these. Unit: substeps.
constexpr int kMaxSoftSubsteps = 1024;

// ---- softbody/soft_collide.cpp --------------------------------------------------------

// A node this close to an edge is in contact with it: held there (holdRestingContacts) unless it
// approaches fast, which the sweep strikes. Four linear slops: wide enough that a particle resting
// on a floor stays in contact from step to step, far narrower than the presets' particle spacing
// (0.1 m or more).
// Unit: m.
constexpr double kSoftMargin = 0.02;
// A moving node is stopped this far short of an edge's line, not on it, so that which side of the
// edge it is on stays known (a node exactly on the line has no side); a node already closer is
// stopped halfway to the line. Half the margin, so that a stopped node is in contact next step.
// Unit: m.
constexpr double kSoftThickness = 0.01;
// A node closer than the thickness is struck at once when it approaches faster than this: slower
// is round-off (what a resting strike leaves). Unit: m/s.
constexpr double kSoftCreep = 1e-9;
// The sweeps end when none finds a strike; these bound the work in a step of pathological
// squeezing, after which the soft particles stop at their next strike (stopAtFirstStrike).
// Unit: strikes.
constexpr int kMaxSequentialStrikes = 2000;
// Unit: sweeps.
constexpr int kMaxParallelSweeps = 100;

} // namespace carom
