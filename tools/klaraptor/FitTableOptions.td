//===- FitTableOptions.td - klaraptor fit-table's options -----------------===//

include "CommonOptions.td"

// Output.
def json : Flag<["--"], "json">;
defm eval : Value<"eval">;
def emit_c : Flag<["--"], "emit-c">;
defm name : Value<"name">;
// Variables and known quantities.
defm target : Value<"target">;
defm vars : Value<"vars">;
defm formula : Value<"formula">;
def allow_negative : Flag<["--"], "allow-negative">;
// Model selection.
defm max_degree : Value<"max-degree">;
defm max_degree_sum : Value<"max-degree-sum">;
defm max_den_degree : Value<"max-den-degree">;
defm max_den_degree_sum : Value<"max-den-degree-sum">;
defm degrees : Value<"degrees">;
defm extrapolate : Value<"extrapolate">;
defm holdout : Value<"holdout">;
defm tie : Value<"tie">;
defm rcond : Value<"rcond">;
defm weights : Value<"weights">;
def exact : Flag<["--"], "exact">;
def no_exact : Flag<["--"], "no-exact">;
def pieces : Flag<["--"], "pieces">;
def no_pieces : Flag<["--"], "no-pieces">;
defm piece_threshold : Value<"piece-threshold">;
defm full_splits : Value<"full-splits">;
defm screen_candidates : Value<"screen-candidates">;
def trace : Flag<["--"], "trace">;
// Region of use.
defm max_size : Value<"max-size">;
defm block_values : Value<"block-values">;
defm min_threads : Value<"min-threads">;
defm max_threads : Value<"max-threads">;
