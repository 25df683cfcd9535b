// Bodies [begin, end) of a state: the targets a kick computes (all N, or a rank's slice).
#pragma once

namespace coalesce {

struct BodyRange {
  int begin = 0;
  int end = 0;
  int count() const { return end - begin; }
};

}  // namespace coalesce
