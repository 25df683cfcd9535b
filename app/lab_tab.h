// The panel's Lab tab: runs an access-pattern experiment on demand and shows its bars beside the articles'.
#pragma once

#include <memory>

namespace coalesce {

class LabTab {
 public:
  LabTab();
  ~LabTab();
  LabTab(const LabTab&) = delete;
  LabTab& operator=(const LabTab&) = delete;

  // Draws the tab's contents inside the current ImGui window (the viewer opens the tab itself).
  void draw();

 private:
  struct State;
  std::unique_ptr<State> m_state;
};

}  // namespace coalesce
