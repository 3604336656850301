// libgraph_base.so for npurt. CANN's kernel-launch samples link graph_base (GE's graph objects) out of habit;
// of it the host tiling SDK uses ge::Shape only, which is header-only here (include/graph/tensor.h). So this
// library is empty: the samples' link lines resolve, and a program that really uses the GE graph API fails at
// compile time, on its missing headers (graph/operator_reg.h, ...), which docs/kernels.md lists as absent.
