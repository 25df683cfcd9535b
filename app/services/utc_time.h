// The current time as an ISO 8601 UTC string, for the dates the JSON reports record.
#pragma once

#include <string>

namespace coalesce {

std::string utc_now();  // "2026-11-22T00:13:05Z"

}  // namespace coalesce
