//===- DeviceOptions.td - klaraptor device probe's options ----------------===//

include "CommonOptions.td"

defm out : Value<"out">;
defm base : Value<"base">;
def quick : Flag<["--"], "quick">;
defm id : Value<"id">;
defm probe : Value<"probe">;
