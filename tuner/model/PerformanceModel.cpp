#include "model/PerformanceModel.h"

#include "model/ModernModel.h"
#include "model/Paper000Model.h"
#include "model/Paper001Model.h"
#include "model/Paper002Model.h"

#include <tuple>

namespace overlap::model {

bool operator==(const Candidate& a, const Candidate& b) {
  return a.variant == b.variant && a.streams == b.streams && a.order == b.order &&
         a.pageable == b.pageable && a.staging.threads == b.staging.threads &&
         a.staging.slotBytes == b.staging.slotBytes && a.staging.slots == b.staging.slots &&
         a.chunks == b.chunks && a.devices == b.devices && a.graph == b.graph;
}

int askedChunks(const Candidate& candidate) {
  return candidate.chunks > 0 ? candidate.chunks : candidate.streams;
}

bool simpler(const Candidate& a, const Candidate& b) {
  static_assert(Variant::Explicit < Variant::Mapped && Variant::Mapped < Variant::Streams &&
                    Variant::Streams < Variant::Hybrid,
                "the variants are declared simplest first");
  static_assert(PageableMode::Register < PageableMode::CachedRegister &&
                    PageableMode::CachedRegister < PageableMode::Stage,
                "the pageable modes are declared simplest first");
  const auto key = [](const Candidate& c) {
    return std::make_tuple(c.devices, c.graph, c.variant, c.streams, askedChunks(c),
                           c.order != IssueOrder::DepthFirst, c.pageable, c.staging.threads,
                           c.staging.slots, c.staging.slotBytes);
  };
  return key(a) < key(b);
}

StreamsConfig streamsConfig(const Candidate& candidate) {
  StreamsConfig config{candidate.streams, candidate.order, candidate.pageable, candidate.staging};
  config.chunks = candidate.chunks;
  config.devices = candidate.devices;
  config.graph = candidate.graph;
  return config;
}

Candidate candidateOf(Variant variant, const StreamsConfig& config) {
  Candidate candidate{variant, 1, IssueOrder::DepthFirst};
  if (variant == Variant::Streams || variant == Variant::Hybrid) {
    candidate.streams = config.streams;
    candidate.order = config.order;
    candidate.chunks = config.chunks;
    candidate.staging = config.staging;
    candidate.graph = config.graph;
  }
  if (variant != Variant::Explicit)
    candidate.pageable = config.pageable;
  candidate.devices = config.devices;
  return candidate;
}

std::string describe(const Candidate& candidate) {
  return overlap::describe(candidate.variant, streamsConfig(candidate));
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

std::optional<ModelKind> parseModelKind(std::string_view text) {
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

std::unique_ptr<PerformanceModel> makeModel(ModelKind kind) {
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
