//===- FitOptions.td - klaraptor fit's options ----------------------------===//

include "CommonOptions.td"

defm db : Value<"db">;
defm out : Value<"out">;
defm device : Value<"device">;
defm model : Value<"model">;
defm kernel : Value<"kernel">;
defm min_samples : Value<"min-samples">;
defm eval : Value<"eval">;
def json : Flag<["--"], "json">;
def timings : Flag<["--"], "timings">;
