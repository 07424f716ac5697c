// A long call's progress reports and its cancellation, one way for every capability
// (fields' steps, CA generations and lava time, PCPD sweeps, ODE systems): run() splits
// the call's work into chunks and reports after each (fv3's run until a time, counted
// by time, calls report() in its own loop); the callback runs on the calling thread,
// between chunks, never inside a parallel region or a kernel.
//
// Over a group of processes (opsplit/group.h) every process reports at the same chunks
// when any of them has a callback, and all cancel together when any callback asks to:
// the flags go through the group's allmax, so every process must construct a Progress
// and call report() at the same points of the call (the collectives' order).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>

#include "core/context.hpp"
#include "core/error.hpp"
#include "core/group.hpp"

namespace opsplit {

class Progress {
 public:
  // group: the processes the object is spread over (nullptr: this one alone).
  Progress(const opsplit_context_s& ctx, const Group* group, const char* call);

  // Whether this call reports (some process has a callback).
  bool active() const { return active_; }

  // The loop of every call that reports: `total` units of work (steps, generations,
  // moves, systems) in chunks of total / parts units rounded up (at least 1), all of it
  // in one when the call does not report. work(begin, end) does units [begin, end), or up to a point the call
  // reports at, and returns where it stopped (the next chunk starts there); after each
  // chunk of a call that reports, finish(done) waits for the work so far and makes the
  // object's state current, and the fraction done is reported (report, where(done) its
  // `where`).
  template <class Work, class Finish, class Where>
  void run(int64_t total, int64_t parts, Work&& work, Finish&& finish, Where&& where) const {
    const int64_t every = chunk(total, parts);
    for (int64_t done = 0; done < total;) {
      done = work(done, done + std::min(every, total - done));
      if (!active_) continue;
      finish(done);
      report(static_cast<double>(done) / static_cast<double>(total), done < total, [&] { return where(done); });
    }
  }

  // After a chunk (its work waited for by the caller): reports `fraction` (clamped to
  // [0, 1]) to this process's callback. If the callback of any process asked to cancel
  // and `work_left`, every process throws CANCELLED: "cancelled by the progress
  // callback " + where() (what was done and the state the object is left in; made
  // only then). A cancel at the last report, with nothing left, keeps the finished work.
  template <class Where>
  void report(double fraction, bool work_left, Where&& where) const {
    if (asks_to_cancel(fraction, work_left)) cancel(where());
  }

 private:
  // The chunk of `total` units that `parts` reports a call take; all of it when the
  // call does not report.
  int64_t chunk(int64_t total, int64_t parts) const;
  bool asks_to_cancel(double fraction, bool work_left) const;
  [[noreturn]] static void cancel(const std::string& where);
  const opsplit_context_s& ctx_;
  const Group* group_;
  const char* call_;
  bool active_ = false;
};

}  // namespace opsplit
