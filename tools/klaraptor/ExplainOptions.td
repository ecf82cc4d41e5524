//===- ExplainOptions.td - klaraptor explain's options --------------------===//

include "CommonOptions.td"

defm out : Value<"out">;
defm launch : Value<"launch">;
