// The panel's Lab tab: runs an access-pattern experiment on demand and shows its bars beside the articles'.
#pragma once

#include <memory>
#include <string>

namespace coalesce {

class LabTab {
 public:
  LabTab();
  ~LabTab();
  LabTab(const LabTab&) = delete;
  LabTab& operator=(const LabTab&) = delete;

  // Draws the tab's contents inside the current ImGui window (the viewer opens the tab itself).
  void draw();

  // --lab-tab: select experiment `name` and run it once on the next draw, at the size control's default.
  void run_on_first_draw(const std::string& name);
  // Throws a UsageError naming the experiments when `name` is not one (builds without CUDA have no lab
  // to check against, and their tab says so).
  static void check_experiment(const std::string& name);
  // The notice for --lab-tab `name` when this process cannot run the lab (no CUDA device), else "".
  static std::string not_run_notice(const std::string& name);

  struct State;  // opaque; public only so the .cpp's helpers can name it

 private:
  std::unique_ptr<State> m_state;
};

}  // namespace coalesce
