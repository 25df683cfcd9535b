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

  // Scripted start (COALESCE_VIEWER_LAB): select `name` and run it once on the next draw; side 0 keeps the
  // size control's default. An unknown name or size becomes an error line in the tab.
  void run_on_first_draw(const std::string& name, int side);

  struct State;  // opaque; public only so the .cpp's helpers can name it

 private:
  std::unique_ptr<State> m_state;
};

}  // namespace coalesce
