// The panel's Lab tab: pick an experiment, run it on demand (blocking the frame for the run), and show
// GB/s per variant as bars, with the articles' quoted figures beside them, so one screenshot compares them.
#include "app/lab/lab_tab.h"

#include <algorithm>
#include <cstdio>
#include <exception>
#include <optional>
#include <string>
#include <vector>

#include <imgui.h>

#include "app/services/backend_factory.h"
#include "app/services/cuda_services.h"
#include "app/lab/lab_service.h"

namespace coalesce {

struct LabTab::State {
  bool have_device = false;
  std::string unavailable;  // why the lab cannot run here
  int experiment = 0;
  int size_choice = 1;  // index into kSides
  std::string error;
  std::string pending;  // experiment to run on the next draw (--lab-tab), "" when none
  std::optional<lab::LabRun> run;
  std::string ran_name;
};

namespace {

constexpr int kSides[] = {1024, 4096, 8192};
constexpr const char* kSideLabels[] = {"quick (side 1024, 16 MiB arrays)", "medium (side 4096, 256 MiB)",
                                       "full (side 8192, 1 GiB, as the CLI)"};
constexpr int kTabRepeats = 10;

}  // namespace

LabTab::LabTab() : m_state(std::make_unique<State>()) {
  std::string reason;
  m_state->have_device = count_cuda_devices(&reason) > 0;
  m_state->unavailable = "The lab needs a CUDA device (" + reason + ").";
}

LabTab::~LabTab() = default;

void LabTab::run_on_first_draw(const std::string& name) {
  m_state->pending = name;
}

void LabTab::check_experiment(const std::string& name) {
  // A build without CUDA has no experiments to check against; its tab says it needs a CUDA device.
  const std::vector<lab::LabExperiment>& experiments = lab_experiment_list();
  if (!experiments.empty()) lab_experiment_named(experiments, name, "--lab-tab");
}

std::string LabTab::not_run_notice(const std::string& name) {
  std::string reason;
  if (count_cuda_devices(&reason) > 0) return "";
  return "--lab-tab " + name + ": not run: the lab needs a CUDA device, and this run has none: " +
         short_cuda_cause(reason);
}

namespace {

void draw_rows(const lab::LabRun& run) {
  double top = run.copy_gbps;
  for (const lab::LabRow& r : run.rows) top = std::max(top, r.gbps);
  ImGui::Text("%s: copy ceiling %.0f GB/s (cudaMemcpy, read + write, this run)", run.device.name.c_str(),
              run.copy_gbps);
  ImGui::Separator();
  ImGui::PushTextWrapPos(0.0f);  // the articles' figures are long: wrap them at the panel's edge
  for (const lab::LabRow& r : run.rows) {
    ImGui::TextUnformatted(r.variant.c_str());
    char overlay[96];
    if (r.pct_copy >= 0)
      std::snprintf(overlay, sizeof(overlay), "%.0f GB/s  %.1f%% of copy  %.3f ms", r.gbps, r.pct_copy,
                    r.time_ms);
    else
      std::snprintf(overlay, sizeof(overlay), "%.0f GB/s shared  %.3f ms  %s", r.gbps, r.time_ms,
                    r.note.c_str());
    ImGui::ProgressBar(top > 0 ? float(r.gbps / top) : 0.0f, ImVec2(-1.0f, 0.0f), overlay);
    if (!r.check_ok) {
      ImGui::SameLine();
      ImGui::TextColored(ImVec4(1.0f, 0.3f, 0.3f, 1.0f), "CHECK FAILED");
    }
    if (!r.article.empty()) ImGui::TextDisabled("  article: %s", r.article.c_str());
  }
  ImGui::PopTextWrapPos();
}

void run_chosen(LabTab::State& s, const lab::LabExperiment& chosen) {
  lab::LabSettings settings;
  settings.side = kSides[s.size_choice];
  settings.repeats = kTabRepeats;
  settings.seed = static_cast<std::uint32_t>(ImGui::GetFrameCount() * 2654435761u);
  // The tab shows no counters, and the panel's hardware sampler holds CUPTI's PM sampling while the viewer
  // runs: no range-profiler pass here (coalesce lab has it).
  settings.counters = false;
  s.error.clear();
  try {
    // Blocks this frame for the run (seconds at most): the numbers are worth more than a smooth frame here.
    s.run = run_lab_experiments(settings, {&chosen});
    s.ran_name = chosen.title;
  } catch (const std::exception& e) {
    s.run.reset();
    s.error = e.what();
  }
}

// Applies a scripted start (--lab-tab, checked by check_experiment): selects the experiment to run.
const lab::LabExperiment* take_pending(LabTab::State& s) {
  const std::string name = s.pending;
  s.pending.clear();
  const std::vector<lab::LabExperiment>& experiments = lab_experiment_list();
  for (int i = 0; i < int(experiments.size()); ++i)
    if (experiments[i].name == name) {
      s.experiment = i;
      return &experiments[i];
    }
  return nullptr;
}

}  // namespace

void LabTab::draw() {
  State& s = *m_state;
  if (!s.have_device) {
    ImGui::TextWrapped("%s", s.unavailable.c_str());
    return;
  }
  if (!s.pending.empty())
    if (const lab::LabExperiment* scripted = take_pending(s)) run_chosen(s, *scripted);
  const std::vector<lab::LabExperiment>& experiments = lab_experiment_list();
  s.experiment = std::clamp(s.experiment, 0, int(experiments.size()) - 1);
  const lab::LabExperiment& chosen = experiments[s.experiment];
  if (ImGui::BeginCombo("experiment", chosen.title.c_str())) {
    for (int i = 0; i < int(experiments.size()); ++i)
      if (ImGui::Selectable(experiments[i].title.c_str(), i == s.experiment)) s.experiment = i;
    ImGui::EndCombo();
  }
  ImGui::Combo("size", &s.size_choice, kSideLabels, IM_ARRAYSIZE(kSideLabels));
  if (ImGui::Button("Run")) run_chosen(s, chosen);
  ImGui::SameLine();
  ImGui::TextDisabled("bytes: %s", chosen.byte_formula.c_str());
  ImGui::TextWrapped("Lesson: %s",
                     lab::lab_lesson(chosen, s.run ? s.run->rows : std::vector<lab::LabRow>{}).c_str());
  if (!s.error.empty()) ImGui::TextColored(ImVec4(1.0f, 0.3f, 0.3f, 1.0f), "Run failed: %s", s.error.c_str());
  if (s.run) {
    ImGui::Separator();
    ImGui::Text("Last run: %s", s.ran_name.c_str());
    draw_rows(*s.run);
  }
}

}  // namespace coalesce
