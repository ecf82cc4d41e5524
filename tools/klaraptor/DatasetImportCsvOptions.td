//===- DatasetImportCsvOptions.td - klaraptor dataset import-csv's options ===//

include "CommonOptions.td"

defm csv : Value<"csv">;
defm out : Value<"out">;
defm data : Value<"data">;
defm requested : Value<"requested">;
defm launches_per_time : Value<"launches-per-time">;
defm device : Value<"device">;
defm source : Value<"source">;
defm timing : Value<"timing">;
defm note : Value<"note">;
