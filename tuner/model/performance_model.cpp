#include "model/performance_model.h"

#include "model/modern_model.h"
#include "model/paper000_model.h"
#include "model/paper001_model.h"
#include "model/paper002_model.h"

namespace overlap::model {

bool operator==(const Candidate& a, const Candidate& b) {
  return a.variant == b.variant && a.streams == b.streams && a.order == b.order;
}

const char* to_string(Variant variant) {
  switch (variant) {
  case Variant::Explicit:
    return "Explicit";
  case Variant::Mapped:
    return "Mapped";
  case Variant::Streams:
    return "Streams";
  case Variant::Hybrid:
    return "Hybrid";
  }
  return "?";
}

const char* to_string(IssueOrder order) {
  return order == IssueOrder::DepthFirst ? "depth-first" : "breadth-first";
}

std::string describe(const Candidate& candidate) {
  if (candidate.variant == Variant::Explicit || candidate.variant == Variant::Mapped)
    return to_string(candidate.variant);
  return std::string(to_string(candidate.variant)) + "(" + std::to_string(candidate.streams) +
         ", " + to_string(candidate.order) + ")";
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
