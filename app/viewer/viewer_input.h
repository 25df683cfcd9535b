// Keyboard shortcuts and mouse camera control, read from ImGui's input state (so they respect widgets
// that have focus, and so headless frames simply see no input).
#pragma once

#include "app/viewer/viewer_model.h"
#include "render/orbit_camera.h"

namespace coalesce {

// `precision`: the state's now; P requests the next one in kPrecisionTable.
void handle_input(OrbitCamera& camera, ViewerControls& controls, ViewerRequests& requests,
                  Precision precision);

}  // namespace coalesce
