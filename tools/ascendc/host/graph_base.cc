// libgraph_base.so: CANN's graph-engine base library. asc-devkit's Ascend C examples name it on their link
// line (target_link_libraries(demo ... graph_base)) without calling into it, so npurt installs it empty:
// such programs link, and one that does use a graph symbol fails to link with that symbol's name.
namespace npurt_graph_base {
// The library's one symbol, so that it is not an empty translation unit.
int LibraryVersion() { return 1; }
}  // namespace npurt_graph_base
