// The control panel (docs/viewer.md): device, frame times, per-kernel table and plots, hardware counters,
// Compare bars, controls, notices, and the Lab tab. Reads the model (const, the simulation too) and writes
// only controls and requests; the Lab tab it owns runs lab experiments on the GPU when asked to.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "app/lab/lab_tab.h"
#include "app/viewer/viewer_model.h"
#include "render/gl_driver.h"

namespace coalesce {

constexpr float kPanelWidth = 470.0f;  // the panel sits at the left; particles are drawn to its right

class ViewerPanel {
 public:
  void draw(const ViewerModel& model, ViewerControls& controls, ViewerRequests& requests);
  // --lab-tab: show the Lab tab from the first frame and run `experiment` there once.
  void open_lab(const std::string& experiment);

 private:
  LabTab m_lab;
  int m_select_lab_frames = 0;  // frames left that force the Lab tab selected
  std::optional<GlDriver> m_gl;  // read on the first draw, inside the context
};

// Panel sections, one file each (viewer_panel_*.cpp).
void draw_device_section(const ViewerModel& model);
void draw_kernel_section(const ViewerModel& model);
void draw_hardware_section(const ViewerModel& model);
void draw_compare_section(const ViewerModel& model);
void draw_controls_section(const ViewerModel& model, ViewerControls& controls, ViewerRequests& requests);
void draw_tree_section(const ViewerModel& model, ViewerRequests& requests);

// A slider's value as it shows it ("%.3g", to which ImGui also rounds the float): the decimal the user
// chose, kept as a double like a typed --dt (sim/sim_params.h), so an fp64 run steps with it.
double shown_value(float v);

// The byte formula behind a kernel's GB/s in `precision`'s bytes, as the tooltip shows it; the forces' with
// the scratch its latest launch moved (KernelStats::scratch_bytes, written and read back) and what it is.
std::string byte_formula(KernelKind kind, Layout layout, ForceMethod method, Precision precision,
                         double scratch_moved = 0, std::string_view scratch_what = {});
// A Compare row's name: "float4 fp64".
std::string compare_row_label(Layout layout, Precision precision);

}  // namespace coalesce
