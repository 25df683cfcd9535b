// The command-line fuzz target's seed corpus (tests/fuzz/corpus/cli: arguments separated by '\0'), replayed
// on every ctest run without the fuzzer and held to the same promise the fuzzer checks
// (tests/fuzz/cli_input.h): "ok-*" seeds parse, "bad-*" seeds are refused with a UsageError.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "tests/fuzz/cli_input.h"
#include "tests/fuzz/corpus.h"

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
