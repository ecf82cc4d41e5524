//===- DatasetExportOptions.td - klaraptor dataset export's options -------===//

include "CommonOptions.td"

defm db : Value<"db">;
defm out : Value<"out">;
defm program : Value<"program">;
