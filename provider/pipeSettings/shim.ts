// The serialized provider of this resource; see ../shim.ts for why it is only this.
import { shimFor } from "../shim";

export = shimFor("pipeSettings");
