//===- JudgeOptions.td - klaraptor dataset judge's options ----------------===//

include "CommonOptions.td"

defm measured : Value<"measured", [ListValues]>;
defm fit : Value<"fit", [ListValues]>;
defm estimates : Value<"estimates", [ListValues]>;
defm sizes : Value<"sizes">;
defm device : Value<"device">;
defm model : Value<"model">;
defm margin : Value<"margin">;
defm label : Value<"label">;
defm markdown : Value<"markdown">;
defm json : Value<"json">;
