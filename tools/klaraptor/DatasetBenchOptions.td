//===- DatasetBenchOptions.td - klaraptor dataset bench's options ---------===//

include "CommonOptions.td"

defm inputs : Value<"in", [ListValues]>;
defm emu : Value<"emu", [ListValues]>;
defm manifest : Value<"manifest">;
defm train_sizes : Value<"train-sizes">;
defm test_sizes : Value<"test-sizes">;
defm device : Value<"device">;
defm json : Value<"json">;
