// utc_now(): one definition for the bench and screenshot reports, so their dates read the same.
#include "app/services/utc_time.h"

#include <ctime>

namespace coalesce {

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);  // thread-safe, unlike gmtime
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buffer;
}

}  // namespace coalesce
