// Panel widgets the sections share (viewer_panel_*.cpp).
#pragma once

#include <array>
#include <cstddef>
#include <string>

#include <imgui.h>

namespace coalesce {

// A combo box over every value of an enum's table, each shown by its to_string; true when the choice changed.
template <typename Enum, std::size_t Count>
bool enum_combo(const char* label, Enum& value, const std::array<Enum, Count>& all) {
  bool changed = false;
  if (ImGui::BeginCombo(label, std::string(to_string(value)).c_str())) {
    for (Enum option : all) {
      if (ImGui::Selectable(std::string(to_string(option)).c_str(), option == value)) {
        changed = option != value;
        value = option;
      }
    }
    ImGui::EndCombo();
  }
  return changed;
}

}  // namespace coalesce
