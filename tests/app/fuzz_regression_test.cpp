// The app's fuzz targets' seed corpora, replayed on every ctest run without the fuzzer and held to the same
// promises the fuzzers check: the command line (tests/fuzz/corpus/cli: arguments separated by '\0';
// tests/fuzz/cli_input.h), where "ok-*" seeds parse and "bad-*" seeds are refused with a UsageError; and the
// JSON readers (tests/fuzz/corpus/json; tests/fuzz/json_input.h), where "ok-camera-*" seeds are read by
// --camera-from, "ok-bench-*" seeds by --compare and --from, and "bad-*" seeds by neither.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "tests/fuzz/cli_input.h"
#include "tests/fuzz/corpus.h"
#include "tests/fuzz/json_input.h"

namespace coalesce {
namespace {

namespace fs = std::filesystem;

TEST(FuzzRegression, CliCorpusParsesOrIsAUsageError) {
  const auto files = fuzz::corpus_files(fuzz::corpus_folder("cli"));
  ASSERT_GE(files.size(), 20u) << fuzz::corpus_folder("cli");
  for (const fs::path& file : files) {
    SCOPED_TRACE(file.string());
    const fuzz::CliOutcome outcome = fuzz::check_parse_arguments(fuzz::read_bytes(file));
    EXPECT_EQ(outcome.broken, "");
    EXPECT_EQ(outcome.parsed, fuzz::expected_to_parse(file)) << outcome.error;
  }
}

TEST(FuzzRegression, JsonCorpusIsReadByItsReaderAndRefusedCleanlyByTheOther) {
  const auto files = fuzz::corpus_files(fuzz::corpus_folder("json"));
  ASSERT_GE(files.size(), 10u) << fuzz::corpus_folder("json");
  for (const fs::path& file : files) {
    SCOPED_TRACE(file.string());
    const std::string name = file.filename().string();
    const fuzz::JsonOutcome outcome = fuzz::check_json_readers(fuzz::read_bytes(file));
    EXPECT_EQ(outcome.broken, "");
    EXPECT_EQ(outcome.camera_from_read, name.rfind("ok-camera-", 0) == 0);
    EXPECT_EQ(outcome.bench_read, name.rfind("ok-bench-", 0) == 0);
    if (fuzz::expected_to_parse(file)) {
      EXPECT_NE(outcome.schema, std::nullopt);
    }
  }
}

TEST(FuzzRegression, ArgumentsSplitAtEveryNul) {
  using Args = std::vector<std::string>;
  EXPECT_EQ(fuzz::split_arguments(""), Args{});
  EXPECT_EQ(fuzz::split_arguments("--help"), Args{"--help"});
  EXPECT_EQ(fuzz::split_arguments(std::string("a\0b", 3)), (Args{"a", "b"}));
  EXPECT_EQ(fuzz::split_arguments(std::string("a\0", 2)), (Args{"a", ""}));
  EXPECT_EQ(fuzz::split_arguments(std::string("\0", 1)), (Args{"", ""}));
}

}  // namespace
}  // namespace coalesce
