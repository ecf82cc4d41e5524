//===- ReportOptions.td - klaraptor report's options ----------------------===//

include "CommonOptions.td"

defm db : Value<"db">;
defm kernel : Value<"kernel">;
defm size : Value<"size">;
defm device : Value<"device">;
defm min_samples : Value<"min-samples">;
defm html : Value<"html">;
def json : Flag<["--"], "json">;
