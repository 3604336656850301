#include "graph.h"

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

}  // namespace npurt::atc
