//===- BenchOptions.td - klaraptor bench's options ------------------------===//

include "CommonOptions.td"

defm manifest : Value<"manifest">;
defm only : Value<"only">;
defm train_sizes : Value<"train-sizes">;
defm test_sizes : Value<"test-sizes">;
defm device : Value<"device">;
defm model : Value<"model">;
defm backend : Value<"backend">;
defm work : Value<"work">;
def execute : Flag<["--"], "execute">;
defm json : Value<"json">;
defm markdown : Value<"markdown">;
