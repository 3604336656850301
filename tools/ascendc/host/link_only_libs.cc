// Libraries that asc-devkit's Ascend C examples name on their link line without calling into them:
// libgraph_base.so (CANN's graph-engine base) and libunified_dlog.so (CANN's logging; npurt's log entry
// points are in libascendalog.so). npurt installs them empty, built from this file: such programs link,
// and one that does use a symbol of them fails to link with that symbol's name.
namespace npurt_link_only {
// The library's one symbol, so that it is not an empty translation unit.
int LibraryVersion() { return 1; }
}  // namespace npurt_link_only
