#include "app/ranks/rank_agreement.h"

#include <exception>
#include <new>

#include "sim/errors.h"

namespace coalesce {

LocalOutcome outcome_of_current_exception() {
  try {
    throw;
  } catch (const UsageError& e) {
    return {2, e.what()};
  } catch (const StoppedWithOtherRanks& e) {
    return {e.exit_code(), e.what()};
  } catch (const std::bad_alloc&) {
    return {1, "out of host memory (try a smaller --particles)"};
  } catch (const std::exception& e) {
    return {1, e.what()};
  } catch (...) {
    return {1, "an unknown error"};
  }
}

void stop_together(Ranks& ranks, int first_failed, const LocalOutcome& mine) {
  if (first_failed < 0) return;
  long long code = mine.exit_code;
  long long length = static_cast<long long>(mine.message.size());
  ranks.broadcast(&code, sizeof code, first_failed);
  ranks.broadcast(&length, sizeof length, first_failed);
  std::string message = mine.message;
  message.resize(static_cast<std::size_t>(length));
  ranks.broadcast(message.data(), message.size(), first_failed);
  if (!ranks.root()) throw StoppedWithOtherRanks(static_cast<int>(code));
  std::string line = message;
  if (line.rfind("coalesce: ", 0) == 0) line.erase(0, 10);
  if (first_failed != 0)
    line = "rank " + std::to_string(first_failed) + " of " + std::to_string(ranks.size()) + ": " + line;
  if (code == 2) throw UsageError(line);
  throw RuntimeFailure(line);
}

}  // namespace coalesce
