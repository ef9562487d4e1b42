// Profiles often lack parameters: the papers publish only some (paper 001 gives the Tesla K20's
// bidirectional G but not its one-way G), and a calibration may skip one. A parameter of 0 means
// "not known". The models need a value for each, so this fills the gaps with the nearest
// published quantity and says, for each, what was assumed, so the prediction can be read with
// the right caution.
#pragma once

#include "overlap/HardwareProfile.h"

#include <string>
#include <vector>

namespace overlap::model {

struct CompletedProfile {
  HardwareProfile profile;
  std::vector<std::string> assumptions; // one sentence per filled-in or missing parameter
};

// Per direction: an unknown one-way G takes the bidirectional G (an upper bound: the direction is
// never slower alone than with the other busy); an unknown bidirectional G means no slowdown; an
// unknown G against mapped traffic the other way takes the bidirectional G; an unknown mapped G
// takes the copy G of its direction; a known mapped both-ways cost is dropped when either one-way
// mapped G had to be filled in (it is a ratio to them). An unknown both-ways cost needs no value:
// the simulator then slows mapped traffic against mapped traffic by the copies' bidirectional
// ratio, as it did before the cost was measured. Unknown latencies, gaps and overheads stay 0
// and are reported; so is a G that nothing can replace (transfers of that direction would be
// predicted as free). The busy link's large-piece G is left as it is: never filled in, never
// used to fill anything (the small pieces' bidirectional G stands in wherever one is needed).
CompletedProfile completeProfile(const HardwareProfile& profile);

} // namespace overlap::model
