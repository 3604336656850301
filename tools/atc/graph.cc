#include "graph.h"

#include <algorithm>
#include <variant>

namespace npurt::atc {

std::vector<int> Graph::UseCounts() const {
  std::vector<int> uses(tensors.size(), 0);
  for (const Node& n : nodes) {
    for (int32_t in : n.inputs) {
      if (in >= 0) ++uses[static_cast<size_t>(in)];
    }
  }
  return uses;
}

std::vector<int> Graph::Producers() const {
  std::vector<int> prod(tensors.size(), -1);
  for (size_t i = 0; i < nodes.size(); ++i) {
    for (int32_t out : nodes[i].outputs) prod[static_cast<size_t>(out)] = static_cast<int>(i);
  }
  return prod;
}

bool Graph::Slotted(const Node& n) const {
  for (int32_t t : n.inputs) {
    if (t >= 0 && tensors[static_cast<size_t>(t)].data_dependent) return true;
  }
  for (int32_t t : n.outputs) {
    if (tensors[static_cast<size_t>(t)].data_dependent) return true;
  }
  return false;
}

bool ProducesDataDependentShape(const std::string& op_type) { return op_type == "NonZero"; }

bool FusesResidualAdd(const Node& n) {
  auto ops = n.attrs.find("post_ops");
  if (ops == n.attrs.end() || !std::holds_alternative<std::vector<std::string>>(ops->second)) return false;
  const auto& list = std::get<std::vector<std::string>>(ops->second);
  return std::find(list.begin(), list.end(), "add") != list.end();
}

void PropagateDataDependence(Graph& g) {
  for (const Node& n : g.nodes) {
    bool dd = ProducesDataDependentShape(n.op_type);
    for (int32_t t : n.inputs) dd = dd || (t >= 0 && g.tensors[static_cast<size_t>(t)].data_dependent);
    if (!dd) continue;
    for (int32_t t : n.outputs) g.tensors[static_cast<size_t>(t)].data_dependent = true;
  }
}

}  // namespace npurt::atc
