#include "frontend/IrJson.h"

namespace overlap::frontend {
namespace {

const char* toString(ir::ScalarKind kind) {
  switch (kind) {
  case ir::ScalarKind::SignedInteger:
    return "signed-integer";
  case ir::ScalarKind::UnsignedInteger:
    return "unsigned-integer";
  case ir::ScalarKind::Boolean:
    return "boolean";
  case ir::ScalarKind::FloatingPoint:
    return "floating-point";
  case ir::ScalarKind::Other:
    break;
  }
  return "other";
}

const char* toString(ir::Direction direction) {
  switch (direction) {
  case ir::Direction::In:
    return "in";
  case ir::Direction::Out:
    return "out";
  case ir::Direction::InOut:
    return "inout";
  }
  return "?";
}

nlohmann::ordered_json expression(const ir::ExprPtr& e) {
  return e ? nlohmann::ordered_json(ir::toSource(*e)) : nlohmann::ordered_json(nullptr);
}

nlohmann::ordered_json dims(const std::array<ir::ExprPtr, 3>& dim) {
  return nlohmann::ordered_json::array(
      {expression(dim[0]), expression(dim[1]), expression(dim[2])});
}

nlohmann::ordered_json parameterName(const ir::Kernel& kernel, int index) {
  if (index < 0 || static_cast<std::size_t>(index) >= kernel.signature.params.size())
    return nullptr;
  return kernel.signature.params[static_cast<std::size_t>(index)].name;
}

nlohmann::ordered_json parameter(const ir::Parameter& p) {
  return {{"name", p.name},
          {"type", p.type},
          {"isPointer", p.isPointer},
          {"valueType", p.valueType},
          {"pointeeConst", p.pointeeConst},
          {"pointeePointer", p.pointeePointer},
          {"scalarKind", toString(p.scalarKind)},
          {"elementKind", ir::elementKindName(p.elementKind)},
          {"elementSize", p.elementSize},
          {"vectorAccessAlignment", p.vectorAccessAlignment},
          {"hostOnly", p.hostOnly},
          {"line", p.line},
          {"column", p.column}};
}

nlohmann::ordered_json array(const ir::Kernel& kernel, const ir::Array& a) {
  nlohmann::ordered_json sections = nlohmann::ordered_json::array();
  for (const ir::Section& s : a.sections)
    sections.push_back(
        {{"begin", expression(s.begin)}, {"end", expression(s.end)}, {"chunked", s.chunked()}});
  return {{"param", parameterName(kernel, a.param)},
          {"direction", toString(a.direction)},
          {"extent", expression(a.extent)},
          {"sections", sections},
          {"haloBefore", expression(a.haloBefore)},
          {"haloAfter", expression(a.haloAfter)},
          {"optional", a.optional},
          {"reduce", ir::reduceOpName(a.reduce)}};
}

} // namespace

nlohmann::ordered_json kernelToJson(const ir::Kernel& kernel) {
  nlohmann::ordered_json params = nlohmann::ordered_json::array();
  for (const ir::Parameter& p : kernel.signature.params)
    params.push_back(parameter(p));
  nlohmann::ordered_json arrays = nlohmann::ordered_json::array();
  for (const ir::Array& a : kernel.arrays)
    arrays.push_back(array(kernel, a));
  nlohmann::ordered_json tune = nlohmann::ordered_json::array();
  for (const ir::TuneDefault& t : kernel.tuneDefaults)
    tune.push_back({{"param", parameterName(kernel, t.param)}, {"value", expression(t.value)}});

  nlohmann::ordered_json bindings = nlohmann::ordered_json::array();
  for (const ir::Binding& b : kernel.bindings)
    bindings.push_back({{"param", parameterName(kernel, b.param)}, {"value", expression(b.value)}});

  nlohmann::ordered_json json = {{"name", kernel.signature.name},
                                 {"entryName", kernel.signature.entryName},
                                 {"templateArguments", kernel.signature.templateArguments},
                                 {"file", kernel.file},
                                 {"line", kernel.line},
                                 {"params", params},
                                 {"partitionBegin", expression(kernel.partitionBegin)},
                                 {"partition", expression(kernel.partition)},
                                 {"granule", expression(kernel.granule)}};
  if (kernel.mode == ir::ChunkMode::Offset) {
    json["mode"] = "offset";
    json["lengthParam"] = parameterName(kernel, kernel.lengthParam);
    json["lengthValue"] = expression(kernel.lengthValue);
  } else {
    json["mode"] = "range";
    json["beginParam"] = parameterName(kernel, kernel.beginParam);
    json["endParam"] = parameterName(kernel, kernel.endParam);
    json["boundsFromCaller"] = kernel.boundsFromCaller;
  }
  json["bindings"] = bindings;
  json["arrays"] = arrays;
  json["launch"] = {{"gridStride", kernel.launch.gridStride},
                    {"grid", dims(kernel.launch.grid)},
                    {"block", dims(kernel.launch.block)},
                    {"sharedBytes", expression(kernel.launch.sharedBytes)}};
  json["tune"] = tune;
  return json;
}

nlohmann::ordered_json kernelsToJson(const std::vector<ir::Kernel>& kernels) {
  nlohmann::ordered_json json = nlohmann::ordered_json::array();
  for (const ir::Kernel& kernel : kernels)
    json.push_back(kernelToJson(kernel));
  return json;
}

} // namespace overlap::frontend
