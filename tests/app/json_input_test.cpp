// app/services/json_input.h: the bounded JSON reader's filter, depth and value limits and its one-line
// messages, schema versions, and json_schema_of, which output checks use to tell a sidecar coalesce wrote.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <string>

#include "app/services/json_input.h"
#include "sim/errors.h"
#include "sim/input_file.h"
#include "sim/printable.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_random.h"

namespace coalesce::testing {
namespace {

using nlohmann::json;

std::string random_word(TestRng& rng) {
  std::string word;
  for (int i = rng.uniform_int(1, 12); i > 0; --i) word += static_cast<char>('a' + rng.uniform_int(0, 25));
  return word;
}

void write(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

// The message of the UsageError `parse` throws, or "" when it throws none.
template <typename Parse>
std::string refusal(Parse parse) {
  try {
    parse();
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

const JsonSource kSource{"--flag", "in.json", "give another file"};
const JsonFilter kKeepAll{[](const JsonPath&) { return true; }, nullptr};

TEST(JsonSchemaOf, FindsTheTopLevelSchemaWhereverItStands) {
  TestRng rng;
  TempDir dir;
  for (int trial = 0; trial < 20; ++trial) {
    const std::string schema = "coalesce-" + random_word(rng) + "/" + std::to_string(rng.uniform_int(0, 99));
    // Sorted keys put "schema" after these, as coalesce's writers do; a nested "schema" is not the file's.
    json doc = {{"schema", schema},
                {"camera", {{"schema", "nested"}}},
                {"frames", json::array()},
                {"settings", {{"x", 1}}}};
    for (int i = rng.uniform_int(0, 2000); i > 0; --i) doc["frames"].push_back({{"step", i}, {"schema", "no"}});
    const std::string path = dir.file("doc.json");
    write(path, doc.dump(rng.uniform_int(0, 1) ? 2 : -1));
    EXPECT_EQ(json_schema_of(path), schema);
    // It stops at the key: what follows it does not matter.
    write(path, doc.dump().substr(0, doc.dump().find(schema) + schema.size() + 1) + ", broken");
    EXPECT_EQ(json_schema_of(path), schema);
  }
}

TEST(JsonSchemaOf, IsNoneForEverythingElseAndNeverThrowsOrBlocks) {
  TestRng rng;
  TempDir dir;
  const std::string word = random_word(rng);
  const std::pair<const char*, std::string> cases[] = {
      {"empty", ""},
      {"not JSON", "schema: " + word},
      {"no schema", R"({"settings": {"schema": ")" + word + R"("}})"},
      {"schema not a string", R"({"schema": 3})"},
      {"schema an object", R"({"schema": {"schema": ")" + word + R"("}})"},
      {"an array", R"([{"schema": ")" + word + R"("}])"},
      {"a string", "\"" + word + "\""},
      {"broken before the schema", R"({"a": [1, 2}, "schema": ")" + word + R"("})"},
      {"deeper than the limit first", "{\"a\": " + std::string(kMaxJsonDepth + 1, '[')},
  };
  for (const auto& [what, text] : cases) {
    const std::string path = dir.file("case.json");
    write(path, text);
    EXPECT_EQ(json_schema_of(path), std::nullopt) << what;
  }
  const std::string fifo = dir.file("fifo.json");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
  EXPECT_EQ(json_schema_of(fifo), std::nullopt) << "a FIFO (this would block if it were opened to read)";
  EXPECT_EQ(json_schema_of(dir.path().string()), std::nullopt) << "a directory";
  EXPECT_EQ(json_schema_of(dir.file("absent.json")), std::nullopt);
  // Larger than any file coalesce writes: not read at all (a sparse file costs no disk).
  const std::string huge = dir.file("huge.json");
  write(huge, R"({"schema": "coalesce-clip/1"})");
  ASSERT_EQ(::truncate(huge.c_str(), static_cast<off_t>(kMaxReportJsonBytes) + rng.uniform_int(1, 999)), 0);
  EXPECT_EQ(json_schema_of(huge), std::nullopt);
}

TEST(JsonInput, BuildsOnlyWhatTheFilterKeepsAndHandsTakenValuesOver) {
  TestRng rng;
  const int rows = rng.uniform_int(1, 500);
  json doc = {{"kept", {{"a", 1}, {"b", {1, 2, 3}}}}, {"dropped", {{"c", 2}}}, {"rows", json::array()}};
  for (int i = 0; i < rows; ++i) doc["rows"].push_back({{"i", i}, {"deep", {{"x", i}}}});
  std::vector<int> taken;
  const JsonFilter filter{
      [](const JsonPath& path) { return path[0] != "dropped" && !(path.size() == 2 && path[1] == "b"); },
      [&](const JsonPath& path, json& value) {
        if (path.size() != 2 || path[0] != "rows") return false;
        EXPECT_EQ(path[1], std::to_string(taken.size()));
        taken.push_back(value.at("i").get<int>());
        return true;
      }};
  const json built = parse_json_input(kSource, doc.dump(), filter);
  EXPECT_EQ(built, json({{"kept", {{"a", 1}}}, {"rows", json::array()}}));
  ASSERT_EQ(taken.size(), static_cast<std::size_t>(rows));
  for (int i = 0; i < rows; ++i) EXPECT_EQ(taken[static_cast<std::size_t>(i)], i);
}

TEST(JsonInput, RefusesDepthAndKeptValuesPastTheirLimitsInOneLine) {
  TestRng rng;
  const int depth = kMaxJsonDepth + rng.uniform_int(1, 100000);
  const std::string deep = std::string(static_cast<std::size_t>(depth), '[') + std::string(static_cast<std::size_t>(depth), ']');
  EXPECT_EQ(refusal([&] { parse_json_input(kSource, deep, kKeepAll); }),
            "--flag 'in.json': is nested deeper than 64 levels (give another file)");
  // The limit counts dropped values too: depth costs nothing kept, but it is no coalesce file.
  EXPECT_NE(refusal([&] { parse_json_input(kSource, deep, {[](const JsonPath&) { return false; }, nullptr}); }), "");
  const std::string exact = std::string(kMaxJsonDepth, '[') + std::string(kMaxJsonDepth, ']');
  EXPECT_EQ(refusal([&] { parse_json_input(kSource, exact, kKeepAll); }), "") << "64 levels are allowed";

  std::string many = "[";
  for (std::size_t i = 0; i < kMaxKeptJsonValues + static_cast<std::size_t>(rng.uniform_int(1, 1000)); ++i)
    many += "0,";
  many.back() = ']';
  EXPECT_EQ(refusal([&] { parse_json_input(kSource, many, kKeepAll); }),
            "--flag 'in.json': holds more than 100000 values where coalesce reads it (give another file)");
  EXPECT_EQ(refusal([&] { parse_json_input(kSource, many, {[](const JsonPath&) { return false; }, nullptr}); }),
            "")
      << "dropped values are not kept";
}

TEST(JsonInput, NotJsonSaysWhereWithoutEchoingTheFile) {
  TestRng rng;
  const std::string secret = random_word(rng) + std::string(1000, 'x');
  const std::string message = refusal([&] { parse_json_input(kSource, "{\"a\":\n " + secret + "}", kKeepAll); });
  EXPECT_EQ(message.rfind("--flag 'in.json': is not JSON (line 2, column ", 0), 0u) << message;
  EXPECT_EQ(message.find(secret.substr(0, 5)), std::string::npos) << message;
  EXPECT_NE(refusal([&] { parse_json_input(kSource, "{} {}", kKeepAll); }), "") << "trailing content";
  EXPECT_NE(refusal([&] { parse_json_input(kSource, "", kKeepAll); }), "");
}

TEST(JsonInput, SchemaVersionsAndNewerMajorsAreRefused) {
  TestRng rng;
  EXPECT_EQ(parse_schema("coalesce-clip/1")->family, "coalesce-clip/");
  EXPECT_EQ(parse_schema("coalesce-clip/1")->major, 1);
  for (const char* text : {"coalesce-clip", "coalesce-clip/", "/3", "coalesce-clip/1.2", "coalesce-clip/-1",
                           "coalesce-clip/99999999999"})
    EXPECT_EQ(parse_schema(text), std::nullopt) << text;
  const int major = rng.uniform_int(3, 1000);
  const std::string newer = "coalesce-bench/" + std::to_string(major);
  EXPECT_EQ(refusal([&] { refuse_newer_schema(kSource, newer, "coalesce-bench/2"); }),
            "--flag 'in.json': written by a newer coalesce: schema " + newer +
                ", and this one reads up to coalesce-bench/2 (read it with the coalesce that wrote it, or a newer one)");
  for (const char* fine : {"coalesce-bench/2", "coalesce-bench/1", "coalesce-lab/9", "bench/3", "garbage"})
    EXPECT_EQ(refusal([&] { refuse_newer_schema(kSource, fine, "coalesce-bench/2"); }), "") << fine;
}

TEST(JsonInput, ExcerptsKeepMessagesShort) {
  TestRng rng;
  const std::string longer(static_cast<std::size_t>(rng.uniform_int(65, 100000)), 'y');
  EXPECT_EQ(excerpt(longer), std::string(64, 'y') + "... (" + std::to_string(longer.size()) + " bytes)");
  EXPECT_EQ(excerpt("short"), "short");
}

// The JSON readers read through read_text_file's sibling: a file that reports size 0 but has content is
// read to the bound, and refused past it.
TEST(InputFileSizeZero, ProcFilesAreReadUpToTheBound) {
  const std::string status = read_text_file("--flag", "/proc/self/status", 1 << 20);
  EXPECT_EQ(status.rfind("Name:", 0), 0u) << status.substr(0, 40);
  EXPECT_EQ(refusal([] { read_text_file("--flag", "/proc/self/status", 16); }),
            "--flag /proc/self/status is over 16 bytes; expected at most 16 (is it the right file?)");
  const InputFile file("--flag", "/proc/self/status");
  EXPECT_TRUE(file.size_unknown());
  EXPECT_NE(refusal([&] { file.require_known_size(); }).find("reports size 0 but has content"), std::string::npos);
}

}  // namespace
}  // namespace coalesce::testing
