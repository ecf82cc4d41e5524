//===- DatasetImportOptions.td - klaraptor dataset import's options -------===//

include "CommonOptions.td"

defm inputs : Value<"in", [ListValues]>;
defm db : Value<"db">;
