//===- ProfileOptions.td - klaraptor profile's options --------------------===//

include "CommonOptions.td"

defm sizes : Value<"sizes">;
defm db : Value<"db">;
defm device : Value<"device">;
def fresh : Flag<["--"], "fresh">;
def quiet : Flag<["--"], "quiet">;
