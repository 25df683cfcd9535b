// Placeholder Lab tab until the lab lands (issue 5).
#include "app/lab_tab.h"

namespace coalesce {

struct LabTab::State {};
LabTab::LabTab() : m_state(std::make_unique<State>()) {}
LabTab::~LabTab() = default;
void LabTab::draw() {}

}  // namespace coalesce
