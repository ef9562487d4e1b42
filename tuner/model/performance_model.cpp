#include "model/performance_model.h"

#include "model/modern_model.h"
#include "model/paper000_model.h"
#include "model/paper001_model.h"
#include "model/paper002_model.h"

namespace overlap::model {

bool operator==(const Candidate& a, const Candidate& b) {
  return a.variant == b.variant && a.streams == b.streams && a.order == b.order &&
         a.pageable == b.pageable && a.staging.threads == b.staging.threads &&
         a.staging.slot_bytes == b.staging.slot_bytes && a.staging.slots == b.staging.slots;
}

StreamsConfig streams_config(const Candidate& candidate) {
  return StreamsConfig{candidate.streams, candidate.order, candidate.pageable, candidate.staging};
}

std::string describe(const Candidate& candidate) {
  return overlap::describe(candidate.variant, streams_config(candidate));
}

const char* to_string(ModelKind kind) {
  switch (kind) {
  case ModelKind::Modern:
    return "modern";
  case ModelKind::Paper000:
    return "paper000";
  case ModelKind::Paper001:
    return "paper001";
  case ModelKind::Paper002:
    return "paper002";
  }
  return "?";
}

std::optional<ModelKind> parse_model_kind(std::string_view text) {
  if (text == "modern")
    return ModelKind::Modern;
  if (text == "paper000" || text == "000")
    return ModelKind::Paper000;
  if (text == "paper001" || text == "001")
    return ModelKind::Paper001;
  if (text == "paper002" || text == "002")
    return ModelKind::Paper002;
  return std::nullopt;
}

std::unique_ptr<PerformanceModel> make_model(ModelKind kind) {
  switch (kind) {
  case ModelKind::Modern:
    return std::make_unique<ModernModel>();
  case ModelKind::Paper000:
    return std::make_unique<paper000::Model>();
  case ModelKind::Paper001:
    return std::make_unique<paper001::Model>();
  case ModelKind::Paper002:
    return std::make_unique<paper002::Model>();
  }
  return nullptr;
}

} // namespace overlap::model
