// Panel section: the device the backend runs on and how frames reach the screen.
#include <imgui.h>

#include "app/services/device_report.h"
#include "app/viewer/viewer_panel.h"
#include "sim/printable.h"

namespace coalesce {

void draw_device_section(const ViewerModel& model) {
  if (!ImGui::CollapsingHeader("Device", ImGuiTreeNodeFlags_DefaultOpen)) return;
  const Backend& backend = model.simulation->backend();
  const DeviceInfo& d = backend.device_info();
  ImGui::Text("%s", d.name.c_str());
  ImGui::Text("backend: %s", backend.name().c_str());
  const std::string driver = driver_text(d);
  if (!driver.empty()) ImGui::Text("driver: %s", driver.c_str());
  const double gib = d.memory_bytes / (1024.0 * 1024.0 * 1024.0);
  if (d.gpu)
    ImGui::Text("%d SMs   memory %.1f GiB", d.multiprocessors, gib);
  else
    ImGui::Text("memory %.1f GiB", gib);
  if (d.theoretical_peak_gbps) {
    ImGui::Text("theoretical peak %.0f GB/s", *d.theoretical_peak_gbps);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("2 x memory clock x bus width / 8");
  } else if (d.gpu) {
    ImGui::TextDisabled("theoretical peak: unknown");
  }
  // On a CPU, what a CPU user wants: cores, the SIMD width the force loop uses, its issue limit.
  if (d.cpu) {
    const CpuFacts& cpu = *d.cpu;
    if (cpu.cores)
      ImGui::Text("%s, %s used", counted(*cpu.cores, "core").c_str(), counted(cpu.threads, "thread").c_str());
    ImGui::Text("SIMD: %s", cpu.simd.c_str());
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", cpu.simd_use.c_str());
    // The limit of the precision the state is in now: fp64 has half the lanes and a longer series.
    const Precision precision = backend.precision();
    const auto& limit = cpu.force_loop(precision).issue_limit;
    if (limit) {
      ImGui::Text("issue limit %.3g interactions/s (%s)", *limit, std::string(to_string(precision)).c_str());
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", issue_limit_formula(cpu, precision).c_str());
    } else {
      ImGui::TextDisabled("issue limit: unknown");
    }
  }
  ImGui::Text("copy %s %.1f GB/s (measured at start)", d.cpu ? "(CPU memory)" : "peak", d.copy_peak_gbps);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", copy_ceiling_method(d).c_str());
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextDisabled("render: %s", to_string(model.render_path));
  ImGui::TextDisabled("%s", model.target.c_str());
  ImGui::PopTextWrapPos();
}

}  // namespace coalesce
